"""AST node classes produced by :mod:`standards_lint.syntax.parser`.

Every node carries a :class:`Span`: 1-based line and column of its first
character, and the line and column just past its last character (the SARIF
convention), plus the character offsets into the decoded text.
"""

from __future__ import annotations

from typing import Iterator, Optional

from .data import Data, Record


class Span(Record):
    """Where a node is: a value, compared and hashed field by field.  Never
    assign to a span's fields (a node gets a new span instead); they are left
    assignable only because a frozen class sets each field through
    ``object.__setattr__``, which made span creation, hundreds of thousands in
    a large project, cost three times as much."""

    __slots__ = ("line", "column", "end_line", "end_column", "start", "end")

    def __init__(self, line: int, column: int, end_line: int, end_column: int, start: int, end: int):
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.start = start  # character offset
        self.end = end  # character offset (exclusive)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.end_line, self.end_column, self.start, self.end))


class Node(Data):
    """A node of the AST: its file and its span.  Nodes compare by identity."""

    __slots__ = ("path", "span")

    def __init__(self, path: str, span: Span):
        self.path = path
        self.span = span


class Code(Node):
    """A Markdown code span; ``value`` is its content without the fence."""

    __slots__ = ("value", "fence", "value_span")

    def __init__(self, path: str, span: Span, value: str, fence: int = 1, value_span: Optional[Span] = None):
        self.path = path
        self.span = span
        self.value = value
        self.fence = fence
        self.value_span = value_span


class Field(Node):
    """A field pair `` `Name`: `value` ``.

    ``bare`` is true for `` `Name`: `` ending a line with no value (the list
    form, as in ``BaselineReconciliation``); ``value`` is then ``""`` and
    ``value_span`` is the empty span just after the colon.
    """

    __slots__ = ("name", "value", "name_span", "value_span", "bare")

    def __init__(self, path: str, span: Span, name: str, value: str, name_span: Span, value_span: Span,
                 bare: bool = False):
        self.path, self.span = path, span
        self.name, self.value, self.name_span, self.value_span = name, value, name_span, value_span
        self.bare = bare

    @property
    def padded(self) -> bool:
        """Whitespace inside the value's backticks beyond the one space
        CommonMark strips from each side (`` `COMPLETE ` ``, `` ` FULL` ``).
        The value is the text between the backticks, as the framework's
        checker reads it: every rule compares it as written, so a padded
        value is none of a field's allowed values (and its rule says so)."""
        v = self.value
        return v != v.strip() and bool(v.strip())


class Comment(Node):
    """An HTML comment; ``closed`` is false when it runs to the end of input."""

    __slots__ = ("text", "closed")

    def __init__(self, path: str, span: Span, text: str, closed: bool = True):
        self.path = path
        self.span = span
        self.text = text
        self.closed = closed


class _Text(Node):
    """A node that is its text (a conflict marker, prose)."""

    __slots__ = ("text",)

    def __init__(self, path: str, span: Span, text: str):
        self.path = path
        self.span = span
        self.text = text


class ConflictMarker(_Text):
    """A Git conflict marker line (``<<<<<<<``, ``=======``, ``>>>>>>>``)."""

    __slots__ = ()


class Prose(_Text):
    __slots__ = ()


class _HasFields:
    """The lookup of a node that holds ``fields``."""

    __slots__ = ()

    def field(self, name: str) -> Optional[Field]:
        """The first field named *name*, or None."""
        for f in self.fields:
            if f.name == name:
                return f
        return None


class ListItem(_HasFields, Node):
    """A list item with the fields, code spans and prose it holds."""

    __slots__ = ("marker", "fields", "codes", "text", "first_code")

    def __init__(self, path: str, span: Span, marker: str, fields: Optional[list[Field]] = None,
                 codes: Optional[list[Code]] = None, text: str = "", first_code: Optional[Code] = None):
        self.path = path
        self.span = span
        self.marker = marker
        self.fields = [] if fields is None else fields
        self.codes = [] if codes is None else codes
        self.text = text
        self.first_code = first_code


class Heading(Node):
    """An ATX heading.  ``text`` is its content as CommonMark reads it: the
    indentation, the whitespace after the opening hashes, a closing sequence
    (`` ###``) and trailing whitespace are not part of it.  How the line is
    written beyond that is kept, because the framework's checker reads
    some headings literally: ``indent`` (spaces before the hashes), ``gap``
    (the whitespace between the hashes and the text; one space in the
    templates) and ``closed`` (the closing sequence, ``"###"``, or ``""``)."""

    __slots__ = ("level", "text", "indent", "gap", "closed")

    def __init__(self, path: str, span: Span, level: int, text: str, indent: int = 0, gap: str = " ",
                 closed: str = ""):
        self.path = path
        self.span = span
        self.level = level
        self.text = text
        self.indent = indent
        self.gap = gap
        self.closed = closed

    @property
    def canonical(self) -> str:
        """The heading as the templates write it: ``## Title``."""
        return "#" * self.level + (" " + self.text if self.text else "")

    @property
    def literal(self) -> str:
        """The text as the framework's checker reads some headings: with
        the closing sequence (``Frame 2 ###``)."""
        return f"{self.text} {self.closed}" if self.closed else self.text

    @property
    def spaced(self) -> bool:
        """Indented, or not one space between the hashes and the text."""
        return bool(self.text) and (self.indent > 0 or self.gap != " ")


class Container(_HasFields, Node):
    """The document header, a ``##`` section or a ``###`` subsection."""

    __slots__ = ("heading", "fields", "items", "codes", "prose", "subsections")

    def __init__(self, path: str, span: Span, heading: Optional[Heading] = None,
                 fields: Optional[list[Field]] = None, items: Optional[list[ListItem]] = None,
                 codes: Optional[list[Code]] = None, prose: Optional[list[Prose]] = None,
                 subsections: Optional[list["Container"]] = None):
        self.path = path
        self.span = span
        self.heading = heading
        self.fields = [] if fields is None else fields
        self.items = [] if items is None else items
        self.codes = [] if codes is None else codes
        self.prose = [] if prose is None else prose
        self.subsections = [] if subsections is None else subsections

    @property
    def title(self) -> str:
        return self.heading.text if self.heading else ""

    def all_fields(self, name: str) -> list[Field]:
        return [f for f in self.fields if f.name == name]


class Document(Node):
    """One parsed Markdown file."""

    __slots__ = ("text", "title", "header", "sections", "headings", "comments", "conflicts", "items", "codes",
                 "fields", "prose", "provenance", "errors")

    def __init__(self, path: str, span: Span, text: str, title: Optional[Heading] = None,
                 header: Optional[Container] = None, sections: Optional[list[Container]] = None,
                 headings: Optional[list[Heading]] = None, comments: Optional[list[Comment]] = None,
                 conflicts: Optional[list[ConflictMarker]] = None, items: Optional[list[ListItem]] = None,
                 codes: Optional[list[Code]] = None, fields: Optional[list[Field]] = None,
                 prose: Optional[list[Prose]] = None, provenance: Optional[object] = None,
                 errors: Optional[list[tuple[str, Span]]] = None):
        self.path = path
        self.span = span
        self.text = text
        self.title = title
        self.header = header  # content before the first ## heading
        self.sections = [] if sections is None else sections
        self.headings = [] if headings is None else headings
        self.comments = [] if comments is None else comments
        self.conflicts = [] if conflicts is None else conflicts
        self.items = [] if items is None else items
        self.codes = [] if codes is None else codes
        self.fields = [] if fields is None else fields
        self.prose = [] if prose is None else prose
        # The provenance block the file begins with (standards_lint.syntax.provenance.Provenance).
        self.provenance = provenance
        # Places where parsing failed: (message, span).
        self.errors = [] if errors is None else errors

    def sections_named(self, title: str) -> list[Container]:
        return [s for s in self.sections if s.title == title]

    def containers(self) -> Iterator[Container]:
        if self.header is not None:
            yield self.header
        for s in self.sections:
            yield s
            yield from s.subsections
