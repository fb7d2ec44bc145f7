"""Parse Markdown workflow files into :mod:`standards_lint.syntax.ast` nodes.

The Lark grammar (``grammar/markdown.lark``) is built once per process, on
first use, and Lark's own grammar cache keeps the LALR tables on disk between
processes, so a run pays for grammar construction at most once.
"""

from __future__ import annotations

import os
from bisect import bisect_right
import re
from typing import Optional

from .ast import (
    Code,
    Comment,
    ConflictMarker,
    Container,
    Document,
    Field,
    Heading,
    ListItem,
    Prose,
    Span,
)

_PARSER = None


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # standards_lint (linter/)
_GRAMMAR_PATH = os.path.join(os.path.dirname(_PACKAGE), "grammar", "markdown.lark")


def _grammar_path() -> str:
    """The grammar file: ``standards_lint/grammar/markdown.lark`` when
    installed, ``grammar/markdown.lark`` beside ``linter/`` in a checkout."""
    installed = os.path.join(_PACKAGE, "grammar", "markdown.lark")
    return installed if os.path.exists(installed) else _GRAMMAR_PATH


def _grammar_text() -> str:
    with open(_grammar_path(), encoding="utf-8") as fh:
        return fh.read()


def get_parser():
    """The process-wide LALR parser, built on first use.

    Normally this is :mod:`standards_lint.syntax.lalr` running the tables Lark
    built from our grammar (``_markdown_tables.py``, written by
    :mod:`standards_lint.syntax.build_parser`): it imports nothing and parses
    several times faster than Lark's runtime.  When the grammar has changed
    since those tables were written, Lark builds the parser from the grammar
    (its on-disk cache keeps the tables between runs), so stale tables never
    parse."""
    global _PARSER
    if _PARSER is None:
        from .. import sha256

        text = _grammar_text()
        full = sha256(text.encode("utf-8")).hexdigest()
        try:
            from . import _markdown_tables as generated
        except ImportError:  # pragma: no cover - not generated yet
            generated = None
        if generated is not None and getattr(generated, "GRAMMAR_SHA256", None) == full:
            from .lalr import Parser

            _PARSER = Parser(generated)
        else:
            _PARSER = _lark_parser(text, full[:16])
    return _PARSER


def _lark_parser(text: str, digest: str):
    from lark import Lark

    from .. import __version__, cache_dir

    options = dict(parser="lalr", lexer="contextual", propagate_positions=False, maybe_placeholders=False)
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        cache = os.path.join(cache_dir(), f"markdown-{__version__}-{digest}.lark.cache")
        return Lark(text, cache=cache, **options)
    except OSError:  # an unwritable cache: build without it
        return Lark(text, **options)


class LineIndex:
    """Maps character offsets to 1-based (line, column)."""

    def __init__(self, text: str):
        self.starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            self.starts.append(i + 1)
            i = find("\n", i + 1)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def span(self, start: int, end: int) -> Span:
        # position() twice, written out: the parser makes a span per node.
        starts = self.starts
        line = bisect_right(starts, start) - 1
        end_line = bisect_right(starts, end, line + 1 if end >= start else 0) - 1
        return Span(line + 1, start - starts[line] + 1, end_line + 1, end - starts[end_line] + 1, start, end)


# The title is empty or ends in a character other than a space or tab: the
# shortest title (a lazy `.*?`) is always such, and trying the closing
# sequence after every character of a run of spaces, then failing at its
# end, was quadratic in the run (issue 43).
_HEADING_RE = re.compile(r"^([ ]{0,3})(#{1,6})([ \t]*)((?:.*?[^ \t\n])??)([ \t]+#+)?[ \t]*\r?$")
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
# Conflict markers inside a comment or fenced block (the lexer sees those as
# one token; git does not care, so neither do we).
_INNER_CONFLICT = re.compile(r"^(?:(?:<{7}|>{7}|\|{7})[^\n]*|={7}(?=\r?$))", re.M)


def _code_from_token(path: str, tok, index: LineIndex) -> Code:
    raw = str(tok)
    if tok.type == "EMPTY_CODE":
        return Code(path, index.span(tok.start_pos, tok.end_pos), "", 2, index.span(tok.start_pos + 1, tok.start_pos + 1))
    n = len(raw) - len(raw.lstrip("`"))
    inner = raw[n:-n]
    start = tok.start_pos
    value = inner
    # CommonMark: one leading and trailing space is stripped when both exist
    # and the content is not all spaces.
    inner_start = start + n
    if len(inner) >= 2 and inner[0] in " \n" and inner[-1] in " \n" and inner.strip():
        value = inner[1:-1]
        inner_start += 1
    value_span = index.span(inner_start, inner_start + len(value))
    return Code(path, index.span(start, tok.end_pos), value.replace("\r\n", "\n"), n, value_span)


_UNCLOSED_MARK = "\udfff"  # see UNCLOSED_COMMENT in the grammar


def _unclosed_openers(text: str) -> str:
    """*text* with every `<!--` after the last `-->` written `<!-\\udfff`
    (same length, so every offset holds).  No such opener can close; the
    grammar reads the marked form as an unclosed comment at once instead of
    scanning to the end of the file for a `-->` from each one, which made a
    file of many unclosed openers quadratic."""
    last = text.rfind("-->")
    tail = last + 3 if last != -1 else 0
    if text.find("<!--", tail) == -1 or _UNCLOSED_MARK in text:
        return text
    return text[:tail] + text[tail:].replace("<!--", "<!-" + _UNCLOSED_MARK)


def _inner_comments(children, text: str) -> list:
    """The closed HTML comments of a parse other than one the file begins
    with (the provenance block's place), as (start, end) offsets."""
    out = []
    for node in children:
        if node.data == "comment":
            tok = node.children[0]
            raw = str(tok)
            start = tok.start_pos
            if raw.endswith("-->") and len(raw) >= 7 and tok.type == "COMMENT" and not (
                    start == 0 or text[:start] == "\ufeff"):
                out.append((start, tok.end_pos))
    return out


def _blank_delimiters(lexed: str, comments: list) -> str:
    """*lexed* with the `<!--` and `-->` of each of *comments* written as
    spaces (same length, so every offset holds): the framework's checker
    reads the raw text with regular expressions, so a field, heading or
    frame inside a comment is there for it (``lexicon``: a commented-out
    `## Recovery` section, `Frame 1` or `Cycle` field is still read).  The
    Active Work section is the exception, and its view drops what lies in a
    comment (:class:`standards_lint.syntax.state.StateModel`)."""
    parts = []
    last = 0
    for s, e in comments:
        parts.append(lexed[last:s])
        parts.append("    " + lexed[s + 4:e - 3] + "   ")
        last = e
    parts.append(lexed[last:])
    return "".join(parts)


_DELIMITERS_ONLY = re.compile(r"^(?:\s|<!--|-->)*$")


def parse_markdown(text: str, path: str) -> Document:
    """Parse *text* (already decoded) into a :class:`Document`.  Never raises.

    Lone carriage returns end lines, as editors show them (the document's
    text has them as line feeds; offsets are those of the original)."""
    from .source import lone_cr_as_lf

    text = lone_cr_as_lf(text)
    index = LineIndex(text)
    doc = Document(path, index.span(0, len(text)), text)
    doc.header = Container(path, index.span(0, 0))
    lexed = _unclosed_openers(text)
    try:
        tree = get_parser().parse(lexed)
        children = tree.children
        comments = _inner_comments(children, text)
        if comments:  # read through them, as the framework's checker does
            lexed = _blank_delimiters(lexed, comments)
            children = get_parser().parse(lexed).children
            doc.comments.extend(Comment(path, index.span(s, e), text[s:e], True) for s, e in comments)
        if lexed is not text:  # give the tokens back their own characters
            for node in children:
                node.children = [t.update(value=text[t.start_pos:t.end_pos]) for t in node.children]
    except Exception as exc:  # pragma: no cover - the grammar is total
        line = getattr(exc, "line", 1) or 1
        column = getattr(exc, "column", 1) or 1
        offset = index.starts[min(line, len(index.starts)) - 1] + column - 1
        doc.errors.append((f"cannot parse: {type(exc).__name__}", index.span(offset, offset)))
        if offset > 0:
            partial = parse_markdown(text[: index.starts[line - 1]], path)
            partial.text = text
            partial.span = doc.span
            partial.errors = doc.errors + partial.errors
            return partial
        return doc
    _Builder(doc, index).build(children)
    if doc.title is None and doc.header is not None and (doc.header.fields or doc.header.items) and (
            path != ".standards/STATE.md"):
        # The framework's checker finds a file's header after its `# Title`
        # line: without one (a setext title underlined with `===`, or none)
        # the header holds nothing for it (unseen-3: "has no `Status` field
        # in its header").  The nodes stay in the document's own lists.
        # STATE.md keeps its header: the checker stops at "Invalid
        # .standards/STATE.md header" there, and SL200 reports the title.
        doc.header = Container(path, doc.header.span, subsections=doc.header.subsections)
    return doc


class _Builder:
    def __init__(self, doc: Document, index: LineIndex):
        self.doc = doc
        self.index = index
        self.path = doc.path
        self.section: Optional[Container] = None
        self.sub: Optional[Container] = None
        self.item: Optional[ListItem] = None
        # Where the open item ends so far: its span is made when it closes.
        self.item_end = 0
        self.first_content = True

    # -- containers ---------------------------------------------------------
    def container(self) -> Container:
        if self.sub is not None:
            return self.sub
        if self.section is not None:
            return self.section
        return self.doc.header

    def close_item(self, end: Optional[int] = None) -> None:
        item = self.item
        if item is not None:
            stop = end if end is not None else self.item_end
            item.span = self.index.span(item.span.start, max(stop, item.span.start))
            self.item = None

    def extend_item(self, end: int) -> None:
        if self.item is not None and end > self.item_end:
            self.item_end = end

    # -- main loop ----------------------------------------------------------
    def build(self, children) -> None:
        doc = self.doc
        index = self.index
        path = self.path
        text = doc.text
        prev_end = 0
        for node in children:
            kind = node.data
            toks = node.children
            tok = toks[0]
            start, end = tok.start_pos, toks[-1].end_pos
            if start > prev_end and self.item is not None and _BLANK_LINE.search(text, prev_end, start):
                self.close_item()
            if kind == "text":
                value = str(tok)
                if value.strip() and value.strip() != "\ufeff" and not (
                        doc.comments and _DELIMITERS_ONLY.match(value)):
                    prev_end = end
                    self.first_content = False
                    prose = Prose(path, index.span(start, end), value)
                    doc.prose.append(prose)
                    if self.item is not None:
                        self.item.text += value
                        self.extend_item(end)
                    else:
                        self.container().prose.append(prose)
                continue
            prev_end = end
            was_first = self.first_content
            self.first_content = False
            if kind == "heading":
                self.close_item()
                self.heading(tok, start, end)
            elif kind == "comment":
                self.comment(tok, start, end, was_first)
            elif kind == "conflict":
                self.close_item()
                doc.conflicts.append(ConflictMarker(path, index.span(start, end), str(tok).rstrip("\r")))
            elif kind == "fence":
                self.close_item()
                self.inner_conflicts(str(tok), start)
            elif kind == "bullet":
                self.close_item()
                item = ListItem(path, index.span(start, end), str(tok).strip())
                self.item = item
                self.item_end = end
                doc.items.append(item)
                self.container().items.append(item)
            elif kind == "code":
                code = _code_from_token(path, tok, index)
                doc.codes.append(code)
                if self.item is not None:
                    self.item.codes.append(code)
                    if self.item.first_code is None and not self.item.text.strip():
                        self.item.first_code = code
                    self.item.text += str(tok)
                    self.extend_item(end)
                else:
                    self.container().codes.append(code)
            elif kind == "label":
                name_tok, sep = toks
                name = _code_from_token(path, name_tok, index)
                after = sep.start_pos + 1
                fld = Field(path, index.span(start, after), name.value, "", name.span,
                            index.span(after, after), bare=True)
                doc.fields.append(fld)
                doc.codes.append(name)
                if self.item is not None:
                    self.item.fields.append(fld)
                    self.extend_item(end)
                else:
                    self.container().fields.append(fld)
            elif kind == "field":
                name_tok, _sep, value_tok = toks
                name = _code_from_token(path, name_tok, index)
                if value_tok.type == "TEXT":  # a stray backtick: not a field
                    doc.codes.append(name)
                    self.container().codes.append(name) if self.item is None else self.item.codes.append(name)
                    continue
                value = _code_from_token(path, value_tok, index)
                fld = Field(
                    path,
                    index.span(start, end),
                    name.value,
                    value.value,
                    name.span,
                    value.value_span or value.span,
                )
                doc.fields.append(fld)
                doc.codes.append(name)
                if self.item is not None:
                    self.item.fields.append(fld)
                    if self.item.first_code is None and not self.item.text.strip():
                        self.item.first_code = name
                    self.item.text += str(name_tok) + ": " + str(value_tok)
                    self.extend_item(end)
                else:
                    self.container().fields.append(fld)
        item = self.item
        if item is not None and self.item_end > item.span.end:  # the last item, left open
            item.span = index.span(item.span.start, self.item_end)

    def inner_conflicts(self, raw: str, start: int) -> None:
        text = self.doc.text
        for m in _INNER_CONFLICT.finditer(raw):
            s = start + m.start()
            if s == 0 or text[s - 1] == "\n":
                body = m.group(0).rstrip("\r")
                self.doc.conflicts.append(ConflictMarker(self.path, self.index.span(s, s + len(body)), body))

    def heading(self, tok, start: int, end: int) -> None:
        doc = self.doc
        m = _HEADING_RE.match(str(tok))
        if m:
            h = Heading(self.path, self.index.span(start, end), len(m.group(2)), m.group(4).strip(),
                        len(m.group(1)), m.group(3), (m.group(5) or "").strip())
        else:  # pragma: no cover - the lexer's HEADING always matches
            h = Heading(self.path, self.index.span(start, end), 1, str(tok).lstrip("# ").strip())
        level = h.level
        doc.headings.append(h)
        if level == 1:
            if doc.title is None:
                doc.title = h
            return
        if level == 2:
            sec = Container(self.path, h.span, heading=h)
            doc.sections.append(sec)
            self.section = sec
            self.sub = None
            return
        sub = Container(self.path, h.span, heading=h)
        (self.section or doc.header).subsections.append(sub)
        self.sub = sub

    def comment(self, tok, start: int, end: int, was_first: bool) -> None:
        doc = self.doc
        raw = str(tok)
        closed = raw.endswith("-->") and len(raw) >= 7
        c = Comment(self.path, self.index.span(start, end), raw, closed)
        doc.comments.append(c)
        self.inner_conflicts(raw, start)
        # Workflow Artifact Provenance: a record *begins with* the block, so
        # only a comment at the very start of the file (after a BOM) opens
        # one; a leading blank line means the file has no block.
        at_start = start == 0 or doc.text[:start] == "\ufeff"
        if was_first and at_start and doc.provenance is None:
            from .provenance import parse_block

            doc.provenance = parse_block(self.path, doc.text)
