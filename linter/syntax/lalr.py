"""A small LALR(1) driver for the tables Lark builds from our grammar.

``python -m standards_lint.syntax.build_parser`` asks Lark to build the parser of
``grammar/markdown.lark`` (LALR, contextual lexer) and writes what that
parser consists of to ``linter/syntax/_markdown_tables.py``: for every parser state,
the lexer regex Lark compiles for it (the terminals that state accepts, in
Lark's order of precedence) and its action table; the rules; the start and
end states.  This module runs those tables the way Lark's own runtime does,
and gives the same tree: a ``start`` node whose children are one node per
item (``heading``, ``field``, ...), each holding its tokens.  Lark's runtime
is general (any grammar, error recovery, interactive parsing, line
counting); this one does only what the grammar needs, several times faster
and without importing anything.

The semantics it keeps, and ``tests/test_parser.py`` checks against Lark on
generated input:

- the lexer of a state is chosen when the next token is asked for, i.e.
  after the previous token has been shifted;
- in that lexer, the first alternative that matches at the position wins
  (Lark joins the terminals into one regex ordered by priority, then
  length);
- ignored terminals (the line feed) are skipped without changing the state;
- rules whose name begins with ``_`` (and the helper rules Lark makes for
  ``*``) are inlined: their children take their place in the parent.
"""

from __future__ import annotations


class Token:
    """A terminal: its type, its text and its character offsets."""

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type_: str, value: str, start_pos: int, end_pos: int):
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r}, {self.start_pos}, {self.end_pos})"

    def update(self, type_: "str | None" = None, value: "str | None" = None) -> "Token":
        """A copy with another type or text (Lark's ``Token.update``)."""
        return Token(self.type if type_ is None else type_, self.value if value is None else value,
                     self.start_pos, self.end_pos)


class Tree:
    """A rule's node: its name (``data``) and its children."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list):
        self.data = data
        self.children = children

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


class ParseError(Exception):
    """No terminal of the current state matches, or a terminal the state does
    not accept: with the 1-based line and column of the place."""

    def __init__(self, message: str, text: str, pos: int):
        self.pos = pos
        self.line = text.count("\n", 0, pos) + 1
        self.column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"{message} at line {self.line}, column {self.column}")


class Parser:
    """The parser described by a tables module (see ``build_parser``)."""

    def __init__(self, tables):
        import re

        compiled = [re.compile(pattern, flags).match for pattern, flags in tables.LEXERS]
        self._match = [compiled[i] for i in tables.LEXER_OF_STATE]
        self._actions = tables.ACTIONS
        # (name, number of children, kept as a node): an inlined rule leaves a list.
        self._rules = tables.RULES
        self._ignore = frozenset(tables.IGNORE)
        self._start = tables.START
        self._end = tables.END

    def parse(self, text: str) -> Tree:
        match = self._match
        actions = self._actions
        rules = self._rules
        ignore = self._ignore
        end_state = self._end
        states = [self._start]
        values: list = []
        pos = 0
        size = len(text)
        while True:
            # The next token, lexed in the context of the current state.
            tok = None
            while pos < size:
                m = match[states[-1]](text, pos)
                if m is None:
                    raise ParseError("no terminal matches", text, pos)
                kind = m.lastgroup
                end = m.end()
                if kind in ignore:
                    pos = end
                    continue
                tok = Token(kind, m.group(), pos, end)
                pos = end
                break
            kind = "$END" if tok is None else tok.type
            # Reduce until the token can be shifted (or, at the end, accepted).
            while True:
                act = actions[states[-1]].get(kind)
                if act is None:
                    raise ParseError(f"unexpected {kind}", text, tok.start_pos if tok is not None else size)
                if act >= 0:
                    states.append(act)
                    values.append(tok)
                    break
                name, n, keep = rules[~act]
                if n == 1:  # most rules: one child, which stays where it is
                    v = values[-1]
                    del states[-1]
                    if keep:
                        v = Tree(name, v if type(v) is list else [v])
                    elif type(v) is not list:
                        v = [v]
                    values[-1] = v
                elif n:
                    popped = values[-n:]
                    del states[-n:]
                    del values[-n:]
                    first = popped[0]
                    if type(first) is list:  # an inlined left-recursive list grows in place
                        children = first
                        popped = popped[1:]
                    else:
                        children = []
                    for v in popped:
                        if type(v) is list:
                            children.extend(v)
                        else:
                            children.append(v)
                    values.append(Tree(name, children) if keep else children)
                else:
                    values.append(Tree(name, []) if keep else [])
                goto = actions[states[-1]][name]
                states.append(goto)
                if tok is None and goto == end_state:
                    return values[-1]
