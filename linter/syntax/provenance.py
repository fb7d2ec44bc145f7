"""Workflow Artifact Provenance: the ``<!-- STANDARDS`` block a record
begins with, parsed from the start of a file::

    <!-- STANDARDS
    Artifact: REVIEW
    Cycle: <Active Work.Id>
    ReviewKind: IMPLEMENTATION
    -->

Only a file whose first line opens the block has one ("Every newly created
record begins with this block"); a leading blank line or a conflict marker
means the file has no block.  The block is a comment in the Markdown AST; its
lines are parsed here, each with its span.  Parsing needs only the start of a
file, so the record inventory never parses whole files.
"""

from __future__ import annotations

import re
from typing import Optional

from .ast import Span
from .data import Data
from .protocol import ARTIFACT_TYPES, REVIEW_KINDS

OPEN = "<!-- STANDARDS"
_OPEN_SPAN = Span(1, 1, 1, len(OPEN) + 1, 0, len(OPEN))  # the opener alone on line 1
KEYS = ("Artifact", "Cycle", "ReviewKind")
_LINE_RE = re.compile(r"^(Artifact|Cycle|ReviewKind):[ \t]*(\S+)$")
# A cycle ID in a block: one token of letters, digits, `.`, `_` or `-`.  (The
# strict generated form is checked on Active Work.Id; a block naming another
# cycle in an older form is still a record of that cycle.)
_CYCLE_TOKEN_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_BLANK = re.compile(r"\n[ \t\r]*\n")


class ProvenanceLine(Data):
    """One ``Key: value`` line of a provenance block.  Its spans are made
    when asked for: a project's older records have thousands of blocks whose
    lines no finding ever points at."""

    __slots__ = ("key", "value", "line", "column", "start", "length", "value_at")

    def __init__(self, key: str, value: str, line: int, column: int, start: int, length: int, value_at: int):
        self.key = key
        self.value = value
        self.line = line  # 1-based line number
        self.column = column  # 1-based column where the line's content starts
        self.start = start  # offset of the content
        self.length = length  # length of the content (`Key: value`)
        self.value_at = value_at  # where the value starts inside the content

    @property
    def span(self) -> Span:
        """The whole line's content."""
        return Span(self.line, self.column, self.line, self.column + self.length, self.start, self.start + self.length)

    @property
    def value_span(self) -> Span:
        col, at, n = self.column + self.value_at, self.start + self.value_at, len(self.value)
        return Span(self.line, col, self.line, col + n, at, at + n)


class Provenance(Data):
    """A provenance block at the start of a file (an AST node: ``path`` and
    ``span``, the opening line; ``extent`` covers the whole block)."""

    __slots__ = ("path", "span", "lines", "errors", "closed", "extent")

    def __init__(self, path: str, span: Span, lines: Optional[list] = None, errors: Optional[list] = None,
                 closed: bool = False, extent: Optional[Span] = None):
        self.path = path
        self.span = span  # the opening line
        self.lines = [] if lines is None else lines  # ProvenanceLine, first occurrence of each key
        self.errors = [] if errors is None else errors  # (detail, span) of every defect
        self.closed = closed
        self.extent = extent  # from `<!--` to `-->` (or the last line read)

    def get(self, key: str) -> Optional[ProvenanceLine]:
        for line in self.lines:
            if line.key == key:
                return line
        return None

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def artifact(self) -> Optional[str]:
        line = self.get("Artifact")
        return line.value if line else None

    @property
    def cycle(self) -> Optional[str]:
        line = self.get("Cycle")
        return line.value if line else None

    @property
    def review_kind(self) -> Optional[str]:
        line = self.get("ReviewKind")
        return line.value if line else None

    @property
    def label(self) -> str:
        """``VERIFICATION`` or ``REVIEW IMPLEMENTATION``."""
        return label(self.artifact, self.review_kind)


def label(artifact: str, kind: Optional[str] = None) -> str:
    return f"{artifact} {kind}" if artifact == "REVIEW" and kind else artifact


def needs_more(head: str) -> bool:
    """Whether a block in *head* (the start of a file) may go on past it: it
    ends at its `-->` or at the first blank line."""
    return "-->" not in head and _BLANK.search(head) is None


def _well_formed(path: str, text: str) -> Optional[Provenance]:
    """The common case, parsed in one pass: the opener alone on line 1, then
    `Key: value` lines with no surrounding blanks, then `-->` alone.  None
    for anything else (the general parser below then explains the defect)."""
    lines = text.split("\n")
    if len(lines) < 3 or lines[0] != OPEN or lines[-1] != "-->":
        return None
    block = Provenance(path, _OPEN_SPAN)
    offset = len(OPEN) + 1
    seen = set()
    for number, line in enumerate(lines[1:-1], 2):
        m = _LINE_RE.match(line)
        if m is None or line[-1:].isspace():
            return None
        key, value = m.group(1), m.group(2)
        if key in seen or (key == "Cycle" and not _CYCLE_TOKEN_RE.match(value)):
            return None
        seen.add(key)
        block.lines.append(ProvenanceLine(key, value, number, 1, offset, len(line), m.start(2)))
        offset += len(line) + 1
    block.closed = True
    last = len(lines)
    block.extent = Span(1, 1, last, 4, 0, offset + 3)
    _check_keys(block)
    return block


def parse_block(path: str, text: str) -> Optional[Provenance]:
    """The provenance block *text* begins with, or None when it has none."""
    if text.startswith("\ufeff"):
        text = text[1:]  # offsets then count from after the BOM, as the project decodes
    if not text.startswith(OPEN):
        return None
    if "\r" in text:
        from .source import lone_cr_as_lf

        text = lone_cr_as_lf(text)  # same length: offsets are the file's
    # The block ends at its `-->` or at the first blank line: read no further.
    close = text.find("-->")
    cut = len(text)
    if close != -1:
        eol = text.find("\n", close)
        cut = eol if eol != -1 else len(text)
    blank = _BLANK.search(text, 0, cut + 1)  # only a blank line before the close matters
    if blank is not None and blank.start() < cut:
        cut = blank.end()
    text = text[:cut]
    fast = _well_formed(path, text)
    if fast is not None:
        return fast
    raw_lines = text.split("\n")
    first = raw_lines[0].rstrip("\r")
    rest = first[len(OPEN):]
    if rest and not rest[0].isspace() and not rest.startswith("-"):
        return None  # `<!-- STANDARDSX`: some other comment
    # Spans are built from line numbers directly (no offset index): a block
    # is parsed for every record of the project, old cycles' included.
    block = Provenance(path, Span(1, 1, 1, len(first) + 1, 0, len(first)))
    # (content, offset of the content, line, column) of every line after the
    # opener; text after `<!-- STANDARDS` on the first line counts as a line.
    candidates = []
    opener_rest = rest.strip()
    if opener_rest:
        col = len(OPEN) + rest.index(opener_rest)
        candidates.append((opener_rest, col, 1, col + 1))
    offset = len(raw_lines[0]) + 1
    for number, raw in enumerate(raw_lines[1:], 2):
        body = raw.rstrip("\r")
        indent = len(body) - len(body.lstrip())
        candidates.append((body.strip(), offset + indent, number, indent + 1))
        offset += len(raw) + 1
    seen: set[str] = set()
    last_end, last_line, last_col = len(first), 1, len(first) + 1
    for stripped, start, line, col in candidates:
        if stripped == "":
            break  # a blank line ends the block: it was never closed
        last_end, last_line, last_col = start + len(stripped), line, col + len(stripped)
        closes = stripped.endswith("-->")
        content = stripped[:-3].rstrip() if closes else stripped
        if content:
            m = _LINE_RE.match(content)
            entry = ProvenanceLine(m.group(1) if m else "", m.group(2) if m else "", line, col, start, len(content),
                                   m.start(2) if m else 0)
            if m is None or (m.group(1) == "Cycle" and not _CYCLE_TOKEN_RE.match(m.group(2))):
                block.errors.append((f"unexpected provenance line `{content}`", entry.span))
            elif entry.key in seen:
                block.errors.append((f"`{entry.key}` appears twice in the provenance block", entry.span))
            else:
                seen.add(entry.key)
                block.lines.append(entry)
        if closes:
            block.closed = True
            break
    block.extent = Span(1, 1, last_line, last_col, 0, last_end)
    if not block.closed:
        block.errors.append(("the provenance block is never closed with `-->`", block.span))
    _check_keys(block)
    return block


def _check_keys(block: Provenance) -> None:
    """The defects of a block's keys and values (after its lines are read)."""
    art, cyc, kind = block.get("Artifact"), block.get("Cycle"), block.get("ReviewKind")
    # A missing line is only worth a word when every line was readable and
    # the block closed; otherwise the defect above already explains it.
    complete = block.closed and not block.errors
    if art is None:
        if complete:
            block.errors.append(("it has no `Artifact` line", block.span))
    elif art.value not in ARTIFACT_TYPES:
        block.errors.append((f"unknown Artifact `{art.value}`", art.value_span))
    elif art.value == "REVIEW":
        if kind is not None and kind.value not in REVIEW_KINDS or kind is None and complete:
            where = kind.value_span if kind is not None else art.span
            block.errors.append(
                ("a REVIEW block needs `ReviewKind: IMPLEMENTATION` or `ReviewKind: FINAL_DELIVERABLE`", where)
            )
    elif kind is not None:
        block.errors.append(("only REVIEW blocks may have `ReviewKind`", kind.span))
    if cyc is None and complete:
        block.errors.append(("it has no `Cycle` line", block.span))




def scanned(rel: str) -> bool:
    """Files that may be records: every Markdown file but the installed
    runtime under ``.standards/`` (cycle records under ``.standards/docs/``
    are included)."""
    return not rel.startswith(".standards/") or rel.startswith(".standards/docs/")


# Older names, kept for rule modules.
Block = Provenance
BlockLine = ProvenanceLine
