"""Apply fixes: exact-span edits, in bounded passes, written atomically.

A fix is a set of edits on the decoded text of files. Per pass, the fixes of
all findings are applied in order of position, skipping any fix that overlaps
one already taken (it is retried in the next pass, on the new text). Passes
repeat, re-linting in memory, until no applicable fix remains (at most
``MAX_PASSES``). Only then is anything written: each changed file once,
through a temporary file and a rename, keeping its BOM and its line endings
(edits replace characters, never re-encode a line ending they do not touch).
Nothing is written outside the project root or through a symlink.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from typing import Optional

import attrs

from .engine import Registry, lint
from .findings import Finding

MAX_PASSES = 10


@attrs.define
class FixReport:
    fixed: list[Finding] = attrs.Factory(list)  # findings whose fix was applied
    changed: dict[str, tuple[str, str]] = attrs.Factory(dict)  # path -> (before, after)
    skipped: list[str] = attrs.Factory(list)  # paths not written, with reasons
    passes: int = 0


def _applicable(f: Finding, unsafe: bool) -> bool:
    return f.fix is not None and (f.fix.applicability == "safe" or unsafe)


def _apply_pass(texts: dict[str, str], findings: list[Finding], unsafe: bool, report: FixReport) -> bool:
    taken: dict[str, list[tuple[int, int]]] = {}
    chosen: list[Finding] = []
    for f in findings:
        if not _applicable(f, unsafe):
            continue
        edits = f.fix.edits
        if any(e.path not in texts for e in edits):
            continue
        if any(_overlaps(taken.get(e.path, []), e.start, e.end) for e in edits):
            continue
        for e in edits:
            taken.setdefault(e.path, []).append((e.start, e.end))
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
                registry: Optional[Registry] = None, config=None, turn_end: bool = False) -> tuple[FixReport, object]:
    """Fix what can be fixed; returns the report and the final lint result.
    *turn_end*: fix what the turn-end check reports (``lint(turn_end=...)``)."""
    report = FixReport()
    result = lint(root, use_git=use_git, registry=registry, config=config, turn_end=turn_end)
    originals: dict[str, str] = {}
    texts: dict[str, str] = {}
    bom: set[str] = set()
    for _ in range(MAX_PASSES):
        project = result.project
        bom |= project.bom
        candidates = [f for f in result.findings if _applicable(f, unsafe)]
        if not candidates:
            break
        for f in candidates:
            for e in f.fix.edits:
                if e.path not in texts:
                    t = project.text(e.path)
                    if t is not None:
                        originals.setdefault(e.path, t)
                        texts[e.path] = t
        if not _apply_pass(texts, candidates, unsafe, report):
            break
        report.passes += 1
        result = project = None  # this pass's model is no longer needed
        _collect_previous_pass()
        result = lint(root, use_git=use_git, registry=registry, overlay=dict(texts), config=config, turn_end=turn_end)
    for path, after in texts.items():
        before = originals[path]
        if after != before:
            report.changed[path] = (before, after)
    if write:
        for path, (_before, after) in report.changed.items():
            reason = _write(root, path, after, path in bom)
            if reason:
                report.skipped.append(f"{path}: {reason}")
    return report, result


def _write(root: str, rel: str, text: str, bom: bool) -> Optional[str]:
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
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return f"could not be written: {exc}"
    return None


def unified_diff(report: FixReport) -> str:
    out = []
    for path in sorted(report.changed):
        before, after = report.changed[path]
        out.extend(
            difflib.unified_diff(
                before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}"
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
