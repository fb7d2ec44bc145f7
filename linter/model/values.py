"""One read value of a workflow file, and how it was read.

Every value the model gives is a :class:`Value`: the raw text as written
(between the backticks, untrimmed), the node it came from, and whether it was
``read`` (present once, and allowed where the protocol lists the allowed
values), ``missing``, ``repeated`` or ``invalid``, with the reason in words.
Rules, the status command and plugins all take the same reading, so an
unreadable value stands down exactly the checks that branch on it, and a
finding can say exactly what it could not read.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from ..syntax.ast import Container, Field

READ = "read"
MISSING = "missing"
REPEATED = "repeated"
INVALID = "invalid"
STATUSES = (READ, MISSING, REPEATED, INVALID)


class Value:
    """A field's value as the model read it.

    ``value`` is the usable value (the raw text when ``status`` is ``read``;
    for a repeated field the protocol reads as its first copy, that copy's
    value when it is allowed), else None.  ``node`` is the field it came from
    (the first copy when repeated), ``nodes`` every copy, ``where`` the
    container it was looked up in (for a location when it is missing)."""

    __slots__ = ("name", "status", "raw", "value", "node", "nodes", "where", "why")

    def __init__(self, name: str, status: str, raw: Optional[str] = None, value: Optional[str] = None,
                 node: Optional[Field] = None, nodes: Sequence[Field] = (), where: Optional[Container] = None,
                 why: str = ""):
        self.name = name
        self.status = status
        self.raw = raw
        self.value = value
        self.node = node
        self.nodes = tuple(nodes)
        self.where = where
        self.why = why

    @property
    def ok(self) -> bool:
        """Read once, and allowed."""
        return self.status == READ

    @property
    def span(self):
        """Where the value is (its field), or where it was looked for."""
        if self.node is not None:
            return self.node.value_span
        if self.where is not None:
            return self.where.heading.span if self.where.heading is not None else self.where.span
        return None

    def is_(self, *values: str) -> bool:
        """True when the value was read and is one of *values*."""
        return self.value is not None and self.value in values

    def describe(self) -> str:
        """The value as a person reads it: `X`, or why it cannot be read."""
        if self.status == READ:
            return f"`{self.raw}`"
        if self.status == MISSING:
            return f"{self.name} missing"
        if self.status == REPEATED:
            return f"{self.name} repeated ({len(self.nodes)} times)"
        return f"{self.name} unreadable: `{self.raw}`" + (f" ({self.why})" if self.why else "")

    def as_dict(self) -> dict:
        return {"name": self.name, "status": self.status, "raw": self.raw, "value": self.value,
                **({"why": self.why} if self.why else {}),
                **({"line": self.node.value_span.line, "column": self.node.value_span.column}
                   if self.node is not None else {})}

    def __repr__(self) -> str:
        return f"Value({self.name}={self.raw!r}, {self.status})"


def read_field(container: Optional[Container], name: str, choices: Optional[Iterable[str]] = None, *,
               first_of_repeated: bool = False, what: str = "") -> Value:
    """Read field *name* of *container* once, the same way for every reader.

    *choices*: the allowed values (None: any non-empty text).  A value is
    compared exactly as written: `` `COMPLETE ` `` is not ``COMPLETE``.
    *first_of_repeated*: the protocol's checker reads a repeated field of
    this section as its first copy (Handoff); the status still says
    ``repeated``."""
    if container is None:
        return Value(name, MISSING, why=f"no {what or 'section'} to read it from")
    found = container.all_fields(name)
    if not found:
        return Value(name, MISSING, where=container, why=f"`{name}` is not in {what or container.title or 'the header'}")
    first = found[0]
    raw = first.value
    allowed = choices is None or raw in tuple(choices)
    if choices is None and not raw.strip():
        allowed = False
    if len(found) > 1:
        return Value(name, REPEATED, raw, raw if (first_of_repeated and allowed) else None, first, found, container,
                     f"`{name}` occurs {len(found)} times")
    if not allowed:
        why = "empty" if not raw.strip() else (
            "whitespace inside its backticks" if choices is not None and raw.strip() in tuple(choices)
            else "not an allowed value")
        return Value(name, INVALID, raw, None, first, found, container, why)
    return Value(name, READ, raw, raw, first, found, container)
