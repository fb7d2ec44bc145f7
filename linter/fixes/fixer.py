"""Apply fixes: exact-span edits, in bounded passes, written atomically.

A fix is a set of edits on the decoded text of files. Per pass, the fixes of
all findings are applied in order of position, skipping any fix that overlaps
one already taken (it is retried in the next pass, on the new text). Passes
repeat, re-linting in memory, until no applicable fix remains (at most
``MAX_PASSES``). Only then is anything written: each changed file once,
through a temporary file and a rename, keeping its BOM and its line endings
(edits replace characters, never re-encode a line ending they do not touch).
Nothing is written outside the project root or through a symlink: when
any changed file may not be written, nothing is (``refusals``, checked
first), and a file that fails to be written keeps its findings; either way
the report and the lint returned say what is on disk (issue 43: a refused
write was counted as fixed).

A fix may also move files (``Fix.renames``): its edits name the file by its
old path and apply first, then the text moves to the new path, in memory like
any edit, so the next pass lints the moved tree.  A move whose target exists
(on disk or made by an earlier fix) is refused.  On writing, the new file is
written (atomically, never over an existing file) and then the old one is
removed; ``--diff`` shows a git-style ``rename from``/``rename to`` header.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from typing import Optional

import attrs

from ..engine.run import Registry, lint
from ..engine.findings import Finding

MAX_PASSES = 10


@attrs.define
class FixReport:
    fixed: list[Finding] = attrs.Factory(list)  # findings whose fix was applied
    changed: dict[str, tuple[str, str]] = attrs.Factory(dict)  # path -> (before, after)
    skipped: list[str] = attrs.Factory(list)  # paths not written, with reasons
    passes: int = 0
    # Original path -> final path of every file a fix moved (``changed`` is
    # keyed by the original path; its "after" text is the moved file's).
    renamed: dict[str, str] = attrs.Factory(dict)
    # Files whose bytes start with a UTF-8 byte-order mark (kept on writing).
    bom: set[str] = attrs.Factory(set)
    # Original paths of the changed files that were not written (refused, or
    # the write failed): their findings are still there.
    unwritten: set[str] = attrs.Factory(set)


def _applicable(f: Finding, unsafe: bool) -> bool:
    return f.fix is not None and (f.fix.applicability == "safe" or unsafe)


_WHOLE = (0, float("inf"))


def _apply_pass(texts: dict[str, str], findings: list[Finding], unsafe: bool, report: FixReport,
                exists=lambda path: False) -> bool:
    """Apply one pass of non-overlapping fixes to *texts* (current path ->
    text).  A moved file leaves *texts* under its old path and appears under
    its new one; ``texts[old] = None`` marks a file moved away."""
    taken: dict[str, list[tuple[int, int]]] = {}
    chosen: list[Finding] = []
    targets: set[str] = set()
    for f in findings:
        if not _applicable(f, unsafe):
            continue
        edits = f.fix.edits
        renames = f.fix.renames
        if any(texts.get(e.path) is None for e in edits):
            continue
        if any(_overlaps(taken.get(e.path, []), e.start, e.end) for e in edits):
            continue
        if renames:
            olds = [r.old for r in renames]
            news = [r.new for r in renames]
            # A move takes its whole file (and its target) for this pass; it
            # is refused when the target exists or another move makes it.
            if any(texts.get(o) is None or taken.get(o) for o in olds):
                continue
            if any(n in targets or n in texts and texts[n] is not None or exists(n) or n in olds for n in news):
                continue
            if len(set(news)) != len(news):
                continue
        for e in edits:
            taken.setdefault(e.path, []).append((e.start, e.end))
        for r in renames:
            taken.setdefault(r.old, []).append(_WHOLE)
            targets.add(r.new)
        chosen.append(f)
    if not chosen:
        return False
    per_file: dict[str, list] = {}
    for f in chosen:
        for e in f.fix.edits:
            per_file.setdefault(e.path, []).append(e)
    changed = False
    for path, edits in per_file.items():
        text = texts[path]
        for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
            text = text[: e.start] + e.replacement + text[e.end:]
        if text != texts[path]:
            texts[path] = text
            changed = True
    for f in chosen:
        for r in f.fix.renames:
            texts[r.new] = texts[r.old]
            texts[r.old] = None
            changed = True
    if changed:
        report.fixed.extend(chosen)
    return changed


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    for s, e in spans:
        if start < e and s < end:
            return True
        if start == end == s or (start == end and s <= start < e):
            return True
    return False


def fix_project(root: str, *, unsafe: bool = False, write: bool = True, use_git: bool = True,
                registry: Optional[Registry] = None, config=None, turn_end: bool = False,
                source=None, parse=None) -> tuple[FixReport, object]:
    """Fix what can be fixed; returns the report and the final lint result.
    *turn_end*: fix what the turn-end check reports (``lint(turn_end=...)``).
    *source* and *parse*: a long-lived process's caches (``lint(source=...,
    parse=...)``); without *write*, :func:`write_report` writes the report
    later."""
    report = FixReport()
    result = lint(root, use_git=use_git, registry=registry, config=config, turn_end=turn_end,
                  source=source, parse=parse)
    originals: dict[str, str] = {}  # original path -> text on disk
    texts: dict[str, Optional[str]] = {}  # current path -> text (None: moved away)
    origin: dict[str, str] = {}  # current path -> original path
    bom: set[str] = set()
    for _ in range(MAX_PASSES):
        project = result.project
        bom |= project.bom
        candidates = [f for f in result.findings if _applicable(f, unsafe)]
        if not candidates:
            break
        for f in candidates:
            for path in [e.path for e in f.fix.edits] + [r.old for r in f.fix.renames]:
                if path not in texts:
                    t = project.text(path)
                    if t is not None:
                        originals.setdefault(path, t)
                        origin[path] = path
                        texts[path] = t
        if not _apply_pass(texts, candidates, unsafe, report, exists=project.exists):
            break
        _track_moves(report.fixed, origin)
        report.passes += 1
        result = project = None  # this pass's model is no longer needed
        _collect_previous_pass()
        removed = {p for p, t in texts.items() if t is None}
        overlay = {p: t for p, t in texts.items() if t is not None}
        result = lint(root, use_git=use_git, registry=registry, overlay=overlay, config=config, removed=removed,
                      turn_end=turn_end, source=source, parse=parse)
    for path, after in texts.items():
        if after is None:
            continue
        first = origin.get(path, path)
        before = originals[first]
        if first != path:
            report.renamed[first] = path
            report.changed[first] = (before, after)
        elif after != before:
            report.changed[path] = (before, after)
    report.bom = bom
    if write:
        refused = refusals(root, report)
        if refused:  # all or nothing: fixes of several files may belong together
            report.skipped.extend(refused)
            report.unwritten.update(report.changed)
        else:
            write_report(root, report)
        if report.unwritten:
            # Only what was written is fixed: the findings of the rest stay,
            # and the result is what is on disk.
            report.fixed = [f for f in report.fixed if not _touches(f, origin, report.unwritten)]
            for first in report.unwritten:
                report.changed.pop(first, None)
                report.renamed.pop(first, None)
            result = None
            _collect_previous_pass()
            result = lint(root, use_git=use_git, registry=registry, config=config, turn_end=turn_end,
                          source=source, parse=parse)
    return report, result


def _touches(f: Finding, origin: dict[str, str], paths: set[str]) -> bool:
    """Whether the fix of *f* edits or moves a file (by its original path) of *paths*."""
    touched = [e.path for e in f.fix.edits] + [r.old for r in f.fix.renames]
    return any(origin.get(p, p) in paths for p in touched)


def write_report(root: str, report: FixReport) -> None:
    """Write each changed file of *report* once (atomically; a move writes
    the new file, then removes the old one); what cannot be written is added
    to ``report.skipped`` with the reason."""
    for first, (_before, after) in report.changed.items():
        target = report.renamed.get(first, first)
        if target != first:
            reason = _move(root, first, target, after, first in report.bom)
        else:
            reason = _write(root, first, after, first in report.bom)
        if reason:
            report.skipped.append(f"{target}: {reason}")
            report.unwritten.add(first)


def refusals(root: str, report: FixReport) -> list[str]:
    """What :func:`write_report` would refuse to write, checked before
    anything is written: a file that is a symlink, a file outside the project
    root, a move onto an existing file."""
    out = []
    for first in sorted(report.changed):
        target = report.renamed.get(first, first)
        paths = [first] if target == first else [first, target]
        for rel in paths:
            reason = write_refusal(root, rel, new=rel != first)
            if reason:
                out.append(f"{rel}: {reason}")
    return out


def write_refusal(root: str, rel: str, *, new: bool = False) -> Optional[str]:
    """Why *rel* may not be written (or, *new*, created), or None."""
    real_root = os.path.realpath(root)
    target = os.path.join(root, *rel.split("/"))
    if new and os.path.lexists(target):
        return "exists; not written over"
    if os.path.islink(target):
        return "is a symlink; not written"
    probe = os.path.dirname(target)
    while not os.path.isdir(probe):
        probe = os.path.dirname(probe)
    if os.path.commonpath([real_root, os.path.realpath(probe)]) != real_root:
        return "is outside the project root; not written"
    return None


def _track_moves(fixed: list[Finding], origin: dict[str, str]) -> None:
    """Keep ``origin`` (current path -> original path) up to date with the
    moves of the fixes applied so far."""
    for f in fixed:
        for r in f.fix.renames:
            if r.old in origin and r.new not in origin:
                origin[r.new] = origin[r.old]


def _move(root: str, old: str, new: str, text: str, bom: bool) -> Optional[str]:
    """Write *text* to *new* (which must not exist), then remove *old*."""
    target = os.path.join(root, *new.split("/"))
    if os.path.lexists(target):
        return f"exists; {old} was not moved"
    source = os.path.join(root, *old.split("/"))
    if os.path.islink(source):
        return f"{old} is a symlink; not moved"
    real_root = os.path.realpath(root)
    parent = os.path.dirname(target)
    # Create missing folders only inside the project root.
    probe = parent
    while not os.path.isdir(probe):
        probe = os.path.dirname(probe)
    if os.path.commonpath([real_root, os.path.realpath(probe)]) != real_root:
        return "is outside the project root; not written"
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as exc:
        return f"could not be written: {exc}"
    reason = _write(root, new, text, bom, exclusive=True)
    if reason:
        return reason
    try:
        os.unlink(source)
    except OSError as exc:
        return f"was written, but {old} could not be removed: {exc}"
    return None


def _write(root: str, rel: str, text: str, bom: bool, exclusive: bool = False) -> Optional[str]:
    real_root = os.path.realpath(root)
    target = os.path.join(root, *rel.split("/"))
    if os.path.islink(target):
        return "is a symlink; not written"
    parent = os.path.realpath(os.path.dirname(target))
    if os.path.commonpath([real_root, parent]) != real_root:
        return "is outside the project root; not written"
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=".standards-lint-", dir=os.path.dirname(target))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if exclusive:
            # never over an existing file: link fails when the target exists
            os.link(tmp, target)
            os.unlink(tmp)
        else:
            os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return f"could not be written: {exc}"
    return None


def unified_diff(report: FixReport) -> str:
    """The changes as a unified diff; a moved file gets git's
    ``diff --git``/``rename from``/``rename to`` header (and its hunks, when
    its text changed too)."""
    out = []
    for path in sorted(report.changed):
        before, after = report.changed[path]
        new = report.renamed.get(path, path)
        if new != path:
            out.append(f"diff --git a/{path} b/{new}\n")
            out.append(f"rename from {path}\n")
            out.append(f"rename to {new}\n")
        out.extend(
            difflib.unified_diff(
                before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{new}"
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def _collect_previous_pass() -> None:
    """A pass's project model holds reference cycles (records point back at
    their project); the console script runs with the garbage collector held
    back, so each pass frees the last one's explicitly."""
    import gc

    if not gc.isenabled():
        gc.collect()
