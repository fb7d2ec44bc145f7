"""How many findings on the failing parity cases carry a machine fix.

A failing case is one where the framework's checker reported at least one
problem (``expected.problems`` not empty).  For each set of
``fixtures/parity`` the script lints every failing case in-process and counts
the findings, the findings with a fix (safe or unsafe) and, per code, the
findings without one.  ``sample`` is the issue's development sample: every
tenth failing mutant (``mutations.jsonl.gz``).

Usage::

    python bench/fix_coverage.py                     # every set + the sample
    python bench/fix_coverage.py --file suite.jsonl.gz --top 20
    python bench/fix_coverage.py --sample-only
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.parity.harness import CASE_FILES, iter_cases, materialize  # noqa: E402


def failing_cases(name: str):
    return [c for c in iter_cases((name,)) if c["expected"]["problems"]]


def measure(cases, registry, base):
    from standards_lint.engine.run import lint

    total = with_fix = safe = 0
    no_fix = Counter()
    has_fix = Counter()
    help_missing = Counter()
    for case in cases:
        root = materialize(case, base)
        try:
            result = lint(str(root), use_git=True, registry=registry)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        for f in result.findings:
            total += 1
            if f.fix is not None:
                with_fix += 1
                safe += f.fix.applicability == "safe"
                has_fix[f.code] += 1
            else:
                no_fix[f.code] += 1
                if not f.help:
                    help_missing[f.code] += 1
    return {"cases": len(cases), "findings": total, "with_fix": with_fix, "safe": safe,
            "no_fix": no_fix, "has_fix": has_fix, "help_missing": help_missing}


def _line(label: str, m: dict) -> str:
    pct = 100.0 * m["with_fix"] / m["findings"] if m["findings"] else 0.0
    return (f"{label:<22} cases {m['cases']:>5}  findings {m['findings']:>6}  with fix {m['with_fix']:>6} "
            f"({pct:5.1f} %)  safe {m['safe']:>6}  without help {sum(m['help_missing'].values())}")


def main(argv=None) -> int:
    from standards_lint.engine.run import load_registry

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", action="append", help="only these case files")
    ap.add_argument("--sample-only", action="store_true", help="only every tenth failing mutant")
    ap.add_argument("--top", type=int, default=15, help="codes without a fix to list")
    args = ap.parse_args(argv)
    reg = load_registry()
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    rows = []
    mutants = failing_cases("mutations.jsonl.gz")
    rows.append(("sample (1/10 mutants)", measure(mutants[::10], reg, base)))
    if not args.sample_only:
        for name in args.file or CASE_FILES:
            rows.append((name.replace(".jsonl.gz", ""), measure(failing_cases(name), reg, base)))
    whole = {"cases": 0, "findings": 0, "with_fix": 0, "safe": 0, "no_fix": Counter(), "has_fix": Counter(),
             "help_missing": Counter()}
    for label, m in rows:
        print(_line(label, m))
        if label.startswith("sample"):
            continue
        for k in ("cases", "findings", "with_fix", "safe"):
            whole[k] += m[k]
        for k in ("no_fix", "has_fix", "help_missing"):
            whole[k].update(m[k])
    if len(rows) > 1:
        print(_line("all sets", whole))
        agg = whole
    else:
        agg = rows[0][1]
    print("\nmost frequent codes without a fix:")
    for code, n in agg["no_fix"].most_common(args.top):
        print(f"  {code:<7} {n:>6}   (with fix: {agg['has_fix'][code]})")
    if agg["help_missing"]:
        print("\ncodes with findings that carry neither fix nor help:", dict(agg["help_missing"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
