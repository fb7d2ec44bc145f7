"""AST node classes produced by :mod:`standards_lint.parser`.

Every node carries a :class:`Span`: 1-based line and column of its first
character, and the line and column just past its last character (the SARIF
convention), plus the character offsets into the decoded text.
"""

from __future__ import annotations

from typing import Iterator, Optional

import attrs


# Not frozen: a frozen attrs class sets each field through object.__setattr__,
# which made span creation (hundreds of thousands in a large project) cost
# three times as much.  Spans are values all the same: never assign to one.
@attrs.define(unsafe_hash=True)
class Span:
    line: int
    column: int
    end_line: int
    end_column: int
    start: int  # character offset
    end: int  # character offset (exclusive)


@attrs.define(eq=False)
class Node:
    path: str
    span: Span


@attrs.define(eq=False)
class Code(Node):
    """A Markdown code span; ``value`` is its content without the fence."""

    value: str
    fence: int = 1
    value_span: Optional[Span] = None


@attrs.define(eq=False)
class Field(Node):
    """A field pair `` `Name`: `value` ``.

    ``bare`` is true for `` `Name`: `` ending a line with no value (the list
    form, as in ``BaselineReconciliation``); ``value`` is then ``""`` and
    ``value_span`` is the empty span just after the colon.
    """

    name: str
    value: str
    name_span: Span
    value_span: Span
    bare: bool = False


@attrs.define(eq=False)
class Comment(Node):
    """An HTML comment; ``closed`` is false when it runs to the end of input."""

    text: str
    closed: bool = True


@attrs.define(eq=False)
class ConflictMarker(Node):
    text: str


@attrs.define(eq=False)
class Prose(Node):
    text: str


@attrs.define(eq=False)
class ListItem(Node):
    """A list item with the fields, code spans and prose it holds."""

    marker: str
    fields: list[Field] = attrs.Factory(list)
    codes: list[Code] = attrs.Factory(list)
    text: str = ""
    first_code: Optional[Code] = None

    def field(self, name: str) -> Optional[Field]:
        for f in self.fields:
            if f.name == name:
                return f
        return None


@attrs.define(eq=False)
class Heading(Node):
    level: int
    text: str


@attrs.define(eq=False)
class Container(Node):
    """The document header, a ``##`` section or a ``###`` subsection."""

    heading: Optional[Heading] = None
    fields: list[Field] = attrs.Factory(list)
    items: list[ListItem] = attrs.Factory(list)
    codes: list[Code] = attrs.Factory(list)
    prose: list[Prose] = attrs.Factory(list)
    subsections: list["Container"] = attrs.Factory(list)

    @property
    def title(self) -> str:
        return self.heading.text if self.heading else ""

    def all_fields(self, name: str) -> list[Field]:
        return [f for f in self.fields if f.name == name]

    def field(self, name: str) -> Optional[Field]:
        for f in self.fields:
            if f.name == name:
                return f
        return None


@attrs.define(eq=False)
class Document(Node):
    """One parsed Markdown file."""

    text: str
    title: Optional[Heading] = None
    header: Optional[Container] = None  # content before the first ## heading
    sections: list[Container] = attrs.Factory(list)
    headings: list[Heading] = attrs.Factory(list)
    comments: list[Comment] = attrs.Factory(list)
    conflicts: list[ConflictMarker] = attrs.Factory(list)
    items: list[ListItem] = attrs.Factory(list)
    codes: list[Code] = attrs.Factory(list)
    fields: list[Field] = attrs.Factory(list)
    prose: list[Prose] = attrs.Factory(list)
    # The provenance block the file begins with (standards_lint.provenance.Provenance).
    provenance: Optional[object] = None
    # Places where parsing failed: (message, span).
    errors: list[tuple[str, Span]] = attrs.Factory(list)

    def sections_named(self, title: str) -> list[Container]:
        return [s for s in self.sections if s.title == title]

    def containers(self) -> Iterator[Container]:
        if self.header is not None:
            yield self.header
        for s in self.sections:
            yield s
            yield from s.subsections
