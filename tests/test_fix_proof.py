"""Every fix is proven on every failing parity case.

For each case of every parity set whose checker verdict has problems, the
case's tree is written to a temporary folder and fixed in-process with
``--fix --unsafe-fixes`` (``fix_project(unsafe=True)``).  Then:

- the run is an ordinary one (no internal-error finding, no exception:
  the CLI would exit 0 or 1);
- a second run changes nothing (no edit, no move);
- no file differs but those the fixes edited or moved, and a moved file is
  gone from its old path;
- every finding after the fixes was there before (same code, same file,
  renames followed): a new finding is a bug in a fix or in a rule.  The one
  exception is a fix that makes readable what the rules could not read
  before (REVEALING: a STATE.md section heading `## recovery` -> `## Recovery`,
  an enumerated value `<false>` -> `false`, an Active Work path now naming
  this cycle's record, a record moved to its fixed path (SL635, and SL930
  carrying the same move), an `Active Work.Id` respelt to the ID its records
  name, a BaselineReconciliation list whose last incomplete entry is
  removed): what the rules then
  find in the newly read part is a first report, not the fix's doing.  Those
  are counted as "revealed", except a finding of the revealing fix's own code
  when no other revealing fix applied, which is always a bug;
- every finding that had a safe fix is gone;
- every finding, before and after, carries `help` (the next step) and an
  owner.

The cases run in chunks per set, so a failure names the set and its cases.
Run as a script for the counts: ``python -m tests.test_fix_proof``.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from standards_lint.engine import lint, load_registry
from standards_lint.fixer import fix_project

from .parity.harness import CASE_FILES, iter_cases, materialize

CHUNK = 150
# Fixes that make readable what the rules could not read (see above).
# SL501/SL502: an `Active` flag contradicting the stack makes the handoff
# rules read the state as recovery (or not); set right, the gate that
# really applies (a checkpoint's, say) is checked for the first time.
# SL260: an Active Work.Id respelt to the ID its records name makes those
# records this cycle's, so their content is checked for the first time.
# SL930: a record missing at its fixed path while this cycle's only record of
# the type sits elsewhere carries SL635's fix, the same move; whichever of
# the two findings the fixer applies it for, the moved record is then read
# at its fixed path for the first time (its Status, say: SL931).
# SL212: the BaselineReconciliation rules check the sources (SL213-SL215, and
# the cycle-mode rules the list) only when every entry is complete, as the
# checker does; removing an empty entry or a partial copy of a complete one
# makes the list readable, so its sources are checked for the first time.
# SL220: a handoff kind respelt (`RESUMES` -> `RESUME`), like SL203's
# enumerated values: the rules that route by the kind read it for the first time.
REVEALING = frozenset({"SL120", "SL121", "SL201", "SL202", "SL203", "SL212", "SL220", "SL223", "SL260", "SL501",
                       "SL502", "SL635", "SL640", "SL641", "SL642", "SL643", "SL644", "SL930"})
# A DOCUMENTATION rule and its general twin quote the same protocol sentence
# for different cycle modes: a fix that changes the mode moves the finding
# from one to the other; it is the same finding.
TWINS = {"SL407": "SL421", "SL405": "SL419", "SL410": "SL420", "SL408": "SL421"}
revealed: list[str] = []
BASE = "/dev/shm" if os.path.isdir("/dev/shm") else None


def _failing(name: str) -> list[dict]:
    return [c for c in iter_cases((name,)) if c["expected"]["problems"]]


_CASES: dict[str, list[dict]] = {}


def _cases(name: str) -> list[dict]:
    if name not in _CASES:
        _CASES[name] = _failing(name)
    return _CASES[name]


def _snapshot(root: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            p = Path(dirpath) / name
            out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


def _key(f, renamed: dict[str, str]):
    return (TWINS.get(f.code, f.code), renamed.get(f.path, f.path))


def prove(case: dict, registry, counts: Counter) -> list[str]:
    """Fix one case in a temporary copy; the list of broken promises."""
    problems: list[str] = []
    cid = case["id"]
    root = materialize(case, BASE)
    try:
        before_files = _snapshot(root)
        before = lint(str(root), use_git=True, registry=registry).findings
        report, after = fix_project(str(root), unsafe=True, use_git=True, registry=registry)
        counts["cases"] += 1
        counts["findings"] += len(before)
        counts["with fix"] += sum(1 for f in before if f.fix is not None)
        counts["safe"] += sum(1 for f in before if f.fix is not None and f.fix.applicability == "safe")
        counts["applied"] += len(report.fixed)
        counts["files changed"] += len(report.changed)
        counts["files moved"] += len(report.renamed)
        counts["cases changed"] += bool(report.changed)
        for f in before + after.findings:
            if not f.help.strip() or not f.owner:
                problems.append(f"{cid}: {f.code} finding without help or owner: {f.message[:120]}")
                break
        internal = [f for f in before + after.findings if f.code in ("SL001", "SL004")]
        if internal:
            problems.append(f"{cid}: internal error after fixing: {internal[0].message}")
        if report.skipped:
            problems.append(f"{cid}: not written: {report.skipped}")
        # A second run changes nothing.
        again, _ = fix_project(str(root), unsafe=True, use_git=True, registry=registry, write=False)
        if again.changed or again.renamed:
            problems.append(f"{cid}: a second run changes {sorted(again.changed)} "
                            f"(fixes {sorted({f.code for f in again.fixed})})")
        # No file differs but the edited and moved ones.
        after_files = _snapshot(root)
        renamed = report.renamed
        for rel, data in before_files.items():
            if rel in report.changed:
                new = renamed.get(rel, rel)
                if rel != new and rel in after_files:
                    problems.append(f"{cid}: {rel} was moved to {new} but is still there")
                if new not in after_files:
                    problems.append(f"{cid}: {rel} was fixed but {new} is missing")
                continue
            if after_files.get(rel) != data:
                problems.append(f"{cid}: {rel} changed although no fix edited it")
        created = set(after_files) - set(before_files) - set(renamed.values())
        if created:
            problems.append(f"{cid}: files appeared that no fix made: {sorted(created)}")
        # No new finding; the safe-fixed ones are gone.
        had = Counter(_key(f, renamed) for f in before)
        now = Counter(_key(f, renamed) for f in after.findings)
        revealing = {f.code for f in report.fixed if f.code in REVEALING}
        for key, n in sorted(now.items()):
            if n > had.get(key, 0):
                if any(code != key[0] for code in revealing):
                    counts["revealed"] += n - had.get(key, 0)
                    revealed.append(f"{cid}: {key[0]} in {key[1]}")
                    continue
                msgs = [f.message for f in after.findings if _key(f, renamed) == key]
                problems.append(f"{cid}: new finding after the fixes: {key[0]} in {key[1]}: {msgs[-1][:200]}")
        left = {(f.code, f.path, f.message) for f in after.findings}
        for f in before:
            if f.fix is not None and f.fix.applicability == "safe":
                if (f.code, renamed.get(f.path, f.path), f.message) in left:
                    problems.append(f"{cid}: {f.code} had a safe fix but is still reported: {f.message[:200]}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return problems


def _chunks():
    out = []
    for name in CASE_FILES:
        n = len(_cases(name))
        for start in range(0, n, CHUNK):
            out.append(pytest.param(name, start, id=f"{name.replace('.jsonl.gz', '')}-{start}"))
    return out


@pytest.fixture(scope="module")
def registry():
    return load_registry()


@pytest.mark.parametrize("name,start", _chunks())
def test_fixes_are_proven_on_every_failing_case(registry, name, start):
    counts: Counter = Counter()
    problems = []
    for case in _cases(name)[start:start + CHUNK]:
        problems += prove(case, registry, counts)
    assert counts["cases"] > 0
    assert not problems, "\n".join(problems[:30]) + (f"\n... {len(problems)} in all" if len(problems) > 30 else "")


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Prove the fixes on the failing parity cases and print the counts.")
    ap.add_argument("--file", action="append", help="only these case files")
    ap.add_argument("--case", action="append", help="only these case ids")
    ap.add_argument("--every", type=int, default=1, help="only every N-th failing case")
    ap.add_argument("--show", type=int, default=40)
    args = ap.parse_args(argv)
    reg = load_registry()
    total: Counter = Counter()
    problems = []
    for name in args.file or CASE_FILES:
        counts: Counter = Counter()
        for case in _cases(name)[:: args.every]:
            if args.case and case["id"] not in args.case:
                continue
            got = prove(case, reg, counts)
            counts["cases with a broken promise"] += bool(got)
            problems += got
        total.update(counts)
        print(name, dict(counts))
    print("all", dict(total))
    for p in problems[: args.show]:
        print("  ", p)
    print(f"{len(problems)} broken promises")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
