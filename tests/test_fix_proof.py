"""Every fix is proven on every failing parity case.

For each case of every parity set whose checker verdict has problems, the
case's tree is written to a temporary folder and fixed in-process with
``--fix --unsafe-fixes`` (``fix_project(unsafe=True)``).  Then:

- the run is an ordinary one (no internal-error finding, no exception:
  the CLI would exit 0 or 1);
- a second run changes nothing (no edit, no move);
- no file differs but those the fixes edited or moved, and a moved file is
  gone from its old path;
- when the fixed tree is the tree of another case of the sets (a fix that
  restores a mutation's original, say), it meets that case's checker
  verdict, in both modes, exactly as the parity harness holds a case;
- every finding after the fixes was there before (same code, same file,
  renames followed): a new finding is a bug in a fix or in a rule.  The one
  exception is a fix that makes readable a value no rule could read before,
  and only for the rules that read exactly that value (REVEALING below,
  each argued: an enumerated value `<false>` -> `false`, a padded status
  trimmed, an Active Work path now naming this cycle's record, a record
  moved to its fixed path, an `Active Work.Id` respelt to the ID its records
  name, a BaselineReconciliation list made complete, a stale frame popped).
  What those rules then find is a first report, not the fix's doing; it is
  counted as "revealed".  A fix never reveals a finding of its own code.
  A broken STATE.md heading or a repeated section reveals nothing: the
  rules read the section already (StateModel.section);
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
from typing import Optional

import pytest

from standards_lint.engine.run import lint, load_registry
from standards_lint.fixes.fixer import fix_project

from .parity.harness import CASE_FILES, evaluate, iter_cases, load_known, load_map, materialize, modes_of

CHUNK = 150

# The fix proof holds every set.
PROOF_FILES = tuple(CASE_FILES)


# What each fix may reveal, as the rules declare it (standards_lint.engine.rule.Reveals,
# declared in standards_lint.fixes.reveals; the rule pages say it): a finding of
# one of those codes that appears after the fix is a first report of the newly
# read value, not the fix's doing.  Any other new finding is a broken promise.
REVEALING: dict = {r.code: (r.reveals.codes, r.reveals.why) for r in load_registry().rules if r.reveals is not None}
# The old, wide exception (any new finding after one of these fixes), kept
# only to list what the fixes reveal: STANDARDS_LINT_PROOF_GATHER=1.
GATHER = bool(os.environ.get("STANDARDS_LINT_PROOF_GATHER"))
GATHER_CODES = frozenset({"SL120", "SL121", "SL201", "SL202", "SL203", "SL212", "SL220", "SL223", "SL260", "SL501",
                          "SL502", "SL635", "SL640", "SL641", "SL642", "SL643", "SL644", "SL930", "SL800", "SL802",
                          "SL803", "SL810", "SL851", "SL901", "SL221", "SL222", "SL820", "SL804", "SL859", "SL860",
                          "SL887", "SL720", "SL721", "SL350", "SL505", "SL506", "SL507", "SL510", "SL511", "SL512",
                          "SL513", "SL514", "SL515", "SL516", "SL520"})
# A DOCUMENTATION rule and its general twin quote the same protocol sentence
# for different cycle modes: a fix that changes the mode moves the finding
# from one to the other; it is the same finding.
TWINS = {"SL407": "SL421", "SL405": "SL419", "SL410": "SL420", "SL408": "SL421"}
revealed: list[tuple] = []
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


def _revealed_by(applied: set[str], code: str) -> tuple[str, ...]:
    """The applied fixes whose newly readable value *code*'s rule reads
    (REVEALING); a fix never reveals a finding of its own code."""
    if GATHER:  # the old, wide exception, to list what the fixes reveal
        return tuple(sorted(c for c in applied if c in GATHER_CODES and c != code))
    return tuple(sorted(c for c in applied if c != code and code in REVEALING.get(c, ((), ""))[0]))


_TREES: dict = {}


def _tree_key(files: dict, case: dict):
    return (case.get("git"), repr(sorted((case.get("committed") or {}).items())), repr(sorted(files.items())))


def _verdict_case(case: dict, after_files: dict) -> Optional[dict]:
    """The case whose tree (working files, git and HEAD) the fixed tree is,
    when a case set has one other than *case*: its verdict is the checker's
    for the fixed tree."""
    if not _TREES:
        for c in iter_cases():
            _TREES.setdefault(_tree_key(c["files"], c), c)
    try:
        files = {rel: data.decode("utf-8") for rel, data in after_files.items()}
    except UnicodeDecodeError:
        return None
    found = _TREES.get(_tree_key(files, case))
    return found if found is not None and found["id"] != case["id"] else None


_MAP: list = []
_KNOWN: dict = {}


def _rows():
    if not _MAP:
        _MAP.extend(load_map())
    return _MAP


def _known():
    if not _KNOWN:
        _KNOWN.update(load_known())
    return _KNOWN


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
        # The fixed tree is another case's tree: it meets that case's verdict.
        verdict = _verdict_case(case, after_files)
        if verdict is not None:
            counts["fixed trees with a verdict"] += 1
            for mode in modes_of(verdict):
                findings = after.findings if mode == "plain" else lint(
                    str(root), use_git=True, registry=registry, turn_end=True).findings
                out = evaluate(verdict, findings, _rows(), _known(), mode)
                if not out.ok:
                    what = [f"missing {p['message'][:90]}" for p in out.missing]
                    what += [f"extra {f.code} {f.message[:90]}" for f in out.extra + out.internal]
                    what += [f"unmapped {p['message'][:90]}" for p in out.unmapped]
                    problems.append(f"{cid}: the fixed tree is {verdict['id']}'s, but in the {mode} check: "
                                    + "; ".join(what[:3]))
        # No new finding (but what a revealing fix makes readable); the
        # safe-fixed ones are gone.
        had = Counter(_key(f, renamed) for f in before)
        now = Counter(_key(f, renamed) for f in after.findings)
        applied = {f.code for f in report.fixed}
        for key, n in sorted(now.items()):
            if n > had.get(key, 0):
                by = _revealed_by(applied, key[0])
                if by:
                    counts["revealed"] += n - had.get(key, 0)
                    revealed.append((cid, by, key[0], key[1]))
                    continue
                msgs = [f.message for f in after.findings if _key(f, renamed) == key]
                problems.append(f"{cid}: new finding after the fixes: {key[0]} in {key[1]} "
                                f"(fixes {sorted(applied)}): {msgs[-1][:200]}")
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
    for name in PROOF_FILES:
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
    ap.add_argument("--revealed", action="store_true", help="print what each revealing fix revealed")
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
    if args.revealed:
        pairs = Counter((by, code) for _, by, code, _ in revealed)
        for (by, code), n in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"   revealed {n:4d}  {code} after {'+'.join(by)}")
        for cid, by, code, path in revealed:
            print(f"   case {cid}: {code} in {path} after {'+'.join(by)}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
