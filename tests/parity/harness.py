"""Parity harness: run standards-lint on every case of ``fixtures/parity`` and
compare with what the framework's own checker reported.

Matching (``fixtures/parity/README.md``): every expected problem must match a
row of ``reference_map.toml`` and be met by a finding with one of that row's
codes in the same file.  Outside the structural exception, our findings with
table codes must be exactly those the expected problems call for.

Run as a script for a report::

    python -m tests.parity.harness [--family F] [--case ID] [--show N]
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator, Optional

import attrs

try:
    import tomllib
except ImportError:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "fixtures" / "parity"
MAP_PATH = Path(__file__).with_name("reference_map.toml")
KNOWN_PATH = Path(__file__).with_name("known_differences.toml")
# Trees of the sets below made into projects of older framework releases,
# with that release's checker's verdicts (fixtures/parity/README.md).
VERSION_FILES = tuple(f"versions/{name}.jsonl.gz" for name in (
    "0.8.0", "0.10.0", "0.11.0", "realworld-0.8.0", "realworld-0.10.0", "realworld-0.11.0"))
CASE_FILES = ("suite.jsonl.gz", "mutations.jsonl.gz", "realworld.jsonl.gz", "unseen-1.jsonl.gz", "unseen-2.jsonl.gz",
              "turnend.jsonl.gz", "unseen-3.jsonl.gz", "lexicon.jsonl.gz", "unseen-4.jsonl.gz", "realworld-2.jsonl.gz",
              "unseen-5.jsonl.gz", *VERSION_FILES)
# The plain check is held to ``expected``; the Stop hook's turn-end check
# (``--turn-end``) to ``expected_turn_end``.
MODES = ("plain", "turn-end")


@attrs.frozen
class Row:
    pattern: re.Pattern
    codes: tuple[str, ...]
    family: str
    structural: bool = False
    pending: bool = False


def load_map(path: Path = MAP_PATH) -> list[Row]:
    data = tomllib.loads(path.read_text("utf-8"))
    rows = []
    for r in data.get("map", []):
        rows.append(Row(re.compile(r["pattern"]), tuple(r["codes"]), r.get("family", ""), bool(r.get("structural", False))))
    for r in data.get("pending", []):
        rows.append(Row(re.compile(r["pattern"]), (), r["family"], False, True))
    return rows


def load_known(path: Path = KNOWN_PATH) -> dict[str, dict]:
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text("utf-8"))
    return {d["case"]: d for d in data.get("difference", [])}


def iter_cases(files=CASE_FILES) -> Iterator[dict]:
    for name in files:
        with gzip.open(CASES_DIR / name, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)


def _write(root: Path, files: dict) -> None:
    for rel, text in files.items():
        p = root.joinpath(*rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)


def materialize(case: dict, base: Optional[str] = None) -> Path:
    """Write the case's tree (and its HEAD commit) into a fresh folder."""
    root = Path(tempfile.mkdtemp(prefix=f"{case['id']}-", dir=base))
    if case.get("git") == "head":
        env = dict(os.environ, GIT_AUTHOR_NAME="parity", GIT_AUTHOR_EMAIL="parity@example.invalid",
                   GIT_COMMITTER_NAME="parity", GIT_COMMITTER_EMAIL="parity@example.invalid")
        run = lambda *a: subprocess.run(["git", *a], cwd=root, env=env, check=True, capture_output=True)
        run("init", "-q")
        _write(root, case.get("committed") or {})
        run("add", "-A")
        run("commit", "-q", "--allow-empty", "-m", "parity")
        for entry in root.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    _write(root, case["files"])
    return root


@attrs.define
class Outcome:
    case_id: str
    unmapped: list = attrs.Factory(list)  # expected problems matching no row
    missing: list = attrs.Factory(list)  # expected problems not met
    extra: list = attrs.Factory(list)  # our table-coded findings not called for
    pending: list = attrs.Factory(list)  # expected problems of pending families
    beyond: list = attrs.Factory(list)  # findings of rules the checker lacks
    structural: bool = False
    internal: list = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not (self.unmapped or self.missing or self.extra or self.internal)


def classify(message: str, rows: list[Row]) -> Optional[Row]:
    for row in rows:
        if row.pattern.search(message):
            return row
    return None


def expected_of(case: dict, mode: str = "plain") -> dict:
    if mode == "turn-end":
        return case.get("expected_turn_end") or case["expected"]
    return case["expected"]


def modes_of(case: dict, modes=MODES) -> tuple:
    """The modes (of *modes*) a case holds a verdict for: every case the
    plain one; the turn-end one where the case keeps the Stop hook's verdict
    (every case of the sets before unseen-5; 443 of unseen-5's 881; about
    half of each older release's set, ``versions/``): a case without it says
    nothing about the turn-end check."""
    return tuple(m for m in modes if m == "plain" or "expected_turn_end" in case)


def evaluate(case: dict, findings: list, rows: list[Row], known: Optional[dict] = None,
             mode: str = "plain") -> Outcome:
    out = Outcome(case["id"])
    table_codes = {c for r in rows for c in r.codes}
    expected = []
    for p in expected_of(case, mode)["problems"]:
        row = classify(p["message"], rows)
        if row is None:
            out.unmapped.append(p)
        elif row.pending:
            out.pending.append((p, row.family))
        else:
            expected.append((p, row))
            out.structural = out.structural or row.structural
    ours = [f for f in findings if f.code in table_codes]
    for p, row in expected:
        if not any(f.path == p["file"] and f.code in row.codes for f in ours):
            out.missing.append(p)
    if not out.structural:
        for f in ours:
            if not any(f.path == p["file"] and f.code in row.codes for p, row in expected):
                out.extra.append(f)
    out.beyond = [f for f in findings if f.code not in table_codes and not f.code.startswith("SL00")]
    out.internal = [f for f in findings if f.code.startswith("SL00")]
    key = case["id"] if mode == "plain" else f"{case['id']}@{mode}"
    if known and key in known:  # an entry names "<id>" (plain) or "<id>@turn-end"
        k = known[key]
        allowed_extra = set(k.get("extra_codes", []))
        allowed_missing = set(k.get("missing_patterns", []))
        out.extra = [f for f in out.extra if f.code not in allowed_extra]
        out.missing = [p for p in out.missing if not any(re.search(m, p["message"]) for m in allowed_missing)]
    return out


def run_case(case: dict, rows: list[Row], registry=None, base: Optional[str] = None, known=None,
             mode: str = "plain") -> Outcome:
    return run_case_modes(case, rows, registry, base, known, (mode,)).get(mode) or Outcome(case["id"])


def run_case_modes(case: dict, rows: list[Row], registry=None, base: Optional[str] = None, known=None,
                   modes=None, results: Optional[dict] = None, inspect=None) -> dict:
    """Materialize the case once and run it in each of *modes* (default: the
    modes it holds a verdict for, :func:`modes_of`); *results*, when given,
    receives each mode's lint result (for checks that read the same run,
    such as the status of the tree); *inspect(mode, result)*, when given, is
    called with each while the tree is still on disk (the outputs of it)."""
    from standards_lint.engine.run import lint

    root = materialize(case, base)
    try:
        out = {}
        for mode in modes_of(case, MODES if modes is None else modes):
            result = lint(str(root), use_git=True, registry=registry, turn_end=(mode == "turn-end"))
            out[mode] = evaluate(case, result.findings, rows, known, mode)
            if results is not None:
                results[mode] = result
            if inspect is not None:  # while the tree is still on disk
                inspect(mode, result)
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _fmt_finding(f) -> str:
    return f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}"


def main(argv=None) -> int:
    import argparse
    from collections import Counter

    from standards_lint.engine.run import load_registry

    ap = argparse.ArgumentParser()
    ap.add_argument("--case", action="append", help="only these case ids")
    ap.add_argument("--grep", help="only cases with an expected message matching this regex")
    ap.add_argument("--show", type=int, default=10, help="failing cases to print")
    ap.add_argument("--file", action="append", help="only these case files")
    ap.add_argument("--only-codes", help="report only missing/extra problems whose codes start with this prefix (e.g. SL5)")
    ap.add_argument("--mode", choices=MODES, default="plain", help="plain (expected) or turn-end (expected_turn_end)")
    args = ap.parse_args(argv)
    rows = load_map()
    known = load_known()
    reg = load_registry()
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    totals = Counter()
    failing = []
    beyond = Counter()
    pending_fam = Counter()
    unmapped_shapes = Counter()
    for case in iter_cases(tuple(args.file) if args.file else CASE_FILES):
        if args.case and case["id"] not in args.case:
            continue
        if args.grep and not any(re.search(args.grep, p["message"]) for p in expected_of(case, args.mode)["problems"]):
            continue
        if args.mode not in modes_of(case):
            totals["no verdict in this mode"] += 1
            continue
        o = run_case(case, rows, reg, base, known, args.mode)
        if args.only_codes:
            pre = args.only_codes
            o.missing = [p for p in o.missing if any(c.startswith(pre) for c in (classify(p["message"], rows).codes))]
            o.extra = [f for f in o.extra if f.code.startswith(pre)]
            o.unmapped = []
        totals["cases"] += 1
        totals["ok"] += o.ok
        totals["expected"] += len(expected_of(case, args.mode)["problems"])
        totals["missing"] += len(o.missing)
        totals["extra"] += len(o.extra)
        totals["unmapped"] += len(o.unmapped)
        totals["pending"] += len(o.pending)
        totals["internal"] += len(o.internal)
        for f in o.beyond:
            beyond[f.code] += 1
        for _, fam in o.pending:
            pending_fam[fam] += 1
        for p in o.unmapped:
            unmapped_shapes[re.sub(r"\d+", "N", re.sub(r"`[^`]*`", "`X`", p["message"]))] += 1
        if not o.ok:
            failing.append(o)
    for o in failing[: args.show]:
        print(f"== {o.case_id} (structural={o.structural})")
        for p in o.missing:
            print(f"   MISSING  {p['file']}: {p['message']}")
        for f in o.extra:
            print(f"   EXTRA    {_fmt_finding(f)}")
        for p in o.unmapped:
            print(f"   UNMAPPED {p['file']}: {p['message']}")
        for f in o.internal:
            print(f"   INTERNAL {_fmt_finding(f)}")
    print(dict(totals))
    if pending_fam:
        print("pending families:", dict(pending_fam))
    if beyond:
        print("beyond-checker findings:", dict(beyond))
    for s, n in unmapped_shapes.most_common(15):
        print(f"   unmapped x{n}: {s}")
    return 0 if not failing else 1


if __name__ == "__main__":
    sys.exit(main())
