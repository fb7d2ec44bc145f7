"""Inline suppressions in Markdown comments.

- ``<!-- standards-lint-disable-next-line CODE[, CODE] -->`` silences those
  codes on the next non-blank line;
- ``<!-- standards-lint-disable CODE[, CODE] -->`` ... ``<!-- standards-lint-enable CODE -->``
  silences them in between (to the end of the file without an enable).

A code may be a prefix (``SL5``). A suppression that silences nothing is
itself reported (``SL005``, warning), as ruff does.
"""

from __future__ import annotations

import re

from ..syntax.data import Record
from .findings import Finding

UNUSED = "SL005"
_MARKER = "standards-lint-"
_DIRECTIVE = re.compile(
    r"^<!--\s*standards-lint-(disable-next-line|disable|enable)\s+([A-Za-z0-9_, ]+?)\s*-->$"
)


class _Suppression(Record):
    __slots__ = ("kind", "codes", "line", "column", "end_line", "end_column", "first", "last", "used")

    def __init__(self, kind: str, codes: list[str], line: int, column: int, end_line: int, end_column: int,
                 first: int, last: int, used: "set | None" = None):
        self.kind, self.codes = kind, codes
        self.line, self.column, self.end_line, self.end_column = line, column, end_line, end_column
        self.first, self.last = first, last  # the first and last suppressed lines
        self.used = set() if used is None else used


def _directives(doc) -> list[_Suppression]:
    lines = doc.text.split("\n")
    out: list[_Suppression] = []
    open_blocks: dict[str, _Suppression] = {}
    for c in doc.comments:
        m = _DIRECTIVE.match(c.text.strip())
        if not m:
            continue
        kind = m.group(1)
        codes = [x.strip() for x in m.group(2).split(",") if x.strip()]
        sp = c.span
        if kind == "disable-next-line":
            nxt = sp.end_line + 1
            while nxt <= len(lines) and not lines[nxt - 1].strip():
                nxt += 1
            out.append(_Suppression(kind, codes, sp.line, sp.column, sp.end_line, sp.end_column, nxt, nxt))
        elif kind == "disable":
            s = _Suppression(kind, codes, sp.line, sp.column, sp.end_line, sp.end_column, sp.end_line, len(lines) + 1)
            out.append(s)
            for code in codes:
                open_blocks[code] = s
        else:  # enable
            for code in codes:
                s = open_blocks.pop(code, None)
                if s is not None:
                    s.last = min(s.last, sp.line)
    return out


def apply_suppressions(project, findings: list[Finding], selected) -> list[Finding]:
    """Drop suppressed findings; add SL005 for unused suppressions.

    ``selected(code)`` says whether a code is enabled (unused-suppression
    reports only codes that could have fired)."""
    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    kept: list[Finding] = []
    extra: list[Finding] = []
    paths = set(by_path) | {p for p, d in project._docs.items() if d is not None}
    for path in sorted(paths):
        fs = by_path.get(path, [])
        doc = project._docs.get(path)
        if doc is None and fs and path.lower().endswith(".md"):
            # Parse (for its comments) only a file that names a directive at
            # all: findings on thousands of unparsed files stay cheap.
            text = project.transient_text(path)
            if text is not None and _MARKER in text:
                doc = project.doc(path)
        sups = _directives(doc) if doc is not None and doc.comments else []
        for f in fs:
            hit = None
            for s in sups:
                if s.first <= f.line <= s.last:
                    for code in s.codes:
                        if f.code.startswith(code):
                            hit = (s, code)
                            break
                if hit:
                    break
            if hit:
                hit[0].used.add(hit[1])
            else:
                kept.append(f)
        for s in sups:
            for code in s.codes:
                if code not in s.used and selected(code) and selected(UNUSED):
                    extra.append(
                        Finding(UNUSED, "warning", f"unused suppression of {code}: nothing here reports it",
                                path, s.line, s.column, s.end_line, s.end_column, "standards-lint", "unused-suppression",
                                owner="USER", help=f"Remove `{code}` from this suppression comment.")
                    )
    return kept + extra
