"""The language server's model of a project, without any LSP library.

:mod:`standards_lint.lsp.server` speaks the protocol; this module keeps what a
long-lived process needs to lint on every keystroke without redoing work:
:class:`Session`, one project root, the editor's unsaved texts (the overlay),
the configuration and plugins exactly as the command line loads them, and the
findings of the last run, read through the kept files and documents of
:mod:`standards_lint.syntax.caching`.

It also answers the editor's questions about the workflow graph
(definitions, references, outlines, hovers) from the same parsed documents.
"""

from __future__ import annotations

import os
import posixpath
import re
import time
from typing import Callable, Iterable, Optional

import attrs

from ..syntax.ast import Document, Span
from ..output.catalogue import FIX_TEXT
from ..engine.findings import Finding
from ..syntax.parser import LineIndex
from ..engine.project import MAX_FILE_SIZE, STATE_PATH, Project, text_size
from ..syntax.caching import CachingSource, ParseCache
from ..syntax.source import ReadError, lone_cr_as_lf

# -- positions -----------------------------------------------------------------
class Lines:
    """Offsets <-> (0-based line, column in the client's units) of one text.

    *units* counts a string's code units in the negotiated position encoding
    (UTF-16 unless the client chose otherwise)."""

    def __init__(self, text: str, units: Callable[[str], int] = len):
        self.text = lone_cr_as_lf(text)
        self.index = LineIndex(self.text)
        self.ascii = self.text.isascii()
        self.units = units

    def line_text(self, line0: int) -> str:
        starts = self.index.starts
        if line0 >= len(starts):
            return ""
        end = starts[line0 + 1] - 1 if line0 + 1 < len(starts) else len(self.text)
        return self.text[starts[line0]:end]

    def position(self, line: int, column: int) -> tuple[int, int]:
        """A finding's 1-based (line, column in characters) -> LSP (line, character)."""
        line0 = max(line - 1, 0)
        col0 = max(column - 1, 0)
        if self.ascii or col0 == 0:
            return line0, col0
        return line0, self.units(self.line_text(line0)[:col0])

    def offset_position(self, offset: int) -> tuple[int, int]:
        line, col = self.index.position(max(0, min(offset, len(self.text))))
        return self.position(line, col)

    def offset(self, line0: int, character: int) -> int:
        """LSP (line, character) -> character offset into the text."""
        starts = self.index.starts
        if line0 >= len(starts):
            return len(self.text)
        text = self.line_text(line0)
        if self.ascii:
            col = min(character, len(text))
        else:
            col, used = 0, 0
            while col < len(text) and used + self.units(text[col]) <= character:
                used += self.units(text[col])
                col += 1
        return starts[line0] + col


def utf16_units(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


# -- one project ---------------------------------------------------------------
@attrs.define
class LintRun:
    findings: list[Finding]
    project: Project
    # path -> findings on it (plugin errors, reported at `.standards`, are
    # shown on STATE.md)
    by_path: dict[str, list[Finding]]
    seconds: float = 0.0


class Session:
    """One project root as the editor sees it."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.source = CachingSource(self.root)
        self.parse = ParseCache()
        self.overlay: dict[str, str] = {}
        self.config = None
        self.registry = None
        self.config_error: Optional[str] = None
        self._config_key: Optional[tuple] = None
        self.last: Optional[LintRun] = None
        # The editor's initialization option ``turnEnd`` (``--turn-end``).
        self.turn_end = False
        # Seconds of the last runs (for bench/server.py).
        import collections

        self.lint_times: "collections.deque[float]" = collections.deque(maxlen=1000)

    # -- files ------------------------------------------------------------
    def rel(self, path: str) -> Optional[str]:
        """The project-relative POSIX path of an absolute *path*, or None outside."""
        path = os.path.abspath(path)
        if path != self.root and not path.startswith(self.root + os.sep):
            return None
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def abspath(self, rel: str) -> str:
        return os.path.join(self.root, *rel.split("/"))

    @property
    def max_file_size(self) -> int:
        """The configuration's ``max-file-size`` (the command line's), else the default."""
        return getattr(self.config, "max_file_size", None) or MAX_FILE_SIZE

    def text(self, rel: str) -> Optional[str]:
        """The editor's text of a file, else its text on disk; None when it
        is larger than ``max-file-size`` (the lint reports it, SL006), as
        the command line never reads such a file whole (issue 43: a 20 MB
        buffer held the server for minutes)."""
        if rel in self.overlay:
            text = self.overlay[rel]
            return None if text_size(text, self.max_file_size) is not None else text
        try:
            data = self.source.read_bytes(rel, self.max_file_size)
        except ReadError:
            return None
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def doc(self, rel: str) -> Optional[Document]:
        text = self.text(rel)
        return self.parse(text, rel) if text is not None else None

    def set_text(self, rel: str, text: Optional[str]) -> None:
        """Record an open buffer's text (None: the buffer closed)."""
        if text is None:
            self.overlay.pop(rel, None)
        else:
            self.overlay[rel] = text[1:] if text.startswith("\ufeff") else text

    def invalidate(self) -> None:
        self.source.invalidate()
        self._config_key = None

    # -- configuration ----------------------------------------------------
    def _config_files_key(self) -> tuple:
        out = []
        cur = self.root
        while True:
            for name in ("standards-lint.toml", "pyproject.toml"):
                try:
                    st = os.stat(os.path.join(cur, name))
                    out.append((cur, name, st.st_mtime_ns, st.st_size))
                except OSError:
                    pass
            parent = os.path.dirname(cur)
            if parent == cur:
                return tuple(out)
            cur = parent

    def load_config(self) -> None:
        """Configuration and plugins exactly as the command line loads them;
        re-read when a configuration file changes."""
        key = self._config_files_key()
        if key == self._config_key:
            return
        self._config_key = key
        from ..engine.config import ConfigError, load_config, validate_codes
        from ..engine.run import LINTER_CODES, registry_for

        try:
            config = load_config(self.root)
            registry = registry_for(self.root, config.plugins)
            validate_codes(config, {r.code for r in registry.rules} | set(LINTER_CODES))
        except ConfigError as exc:
            self.config, self.registry, self.config_error = None, None, str(exc)
            return
        self.config, self.registry, self.config_error = config, registry, None

    # -- linting ----------------------------------------------------------
    def lint(self, overlay: Optional[dict] = None) -> Optional[LintRun]:
        """Lint the project with the editor's texts (plus *overlay*); None
        when the configuration is invalid (``config_error`` says why)."""
        from ..engine.run import lint

        self.load_config()
        if self.config_error is not None:
            return None
        start = time.perf_counter()
        texts = dict(self.overlay)
        if overlay:
            texts.update(overlay)
        result = lint(self.root, registry=self.registry, overlay=texts, config=self.config,
                      turn_end=self.turn_end, source=self.source, parse=self.parse)
        by_path: dict[str, list[Finding]] = {}
        for f in result.findings:
            path = f.path
            if path == ".standards" or result.project.kind(path) == "dir":
                path = STATE_PATH
            by_path.setdefault(path, []).append(f)
        run = LintRun(result.findings, result.project, by_path, time.perf_counter() - start)
        if overlay is None:
            self.lint_times.append(run.seconds)
            self.last = run
            self.parse.forget(list(result.project._docs) + [STATE_PATH])
            if len(self.parse._blocks) > len(result.project.file_set):
                self.parse.forget_blocks(result.project.file_set)
        return run

    def project(self) -> Project:
        """A fresh project model over the current texts (for navigation)."""
        return Project(self.root, overlay=dict(self.overlay), source=self.source, parse=self.parse,
                       use_git=False)

    def fix_all(self, rel: str, *, unsafe: bool = False) -> Optional[str]:
        """The text of *rel* after every safe fix of its findings, applied in
        passes as ``--fix`` applies them (fixes reaching other files or
        moving files are left to their own code actions); None when nothing
        changes."""
        from ..fixes.fixer import MAX_PASSES, FixReport, _apply_pass

        before = self.text(rel)
        if before is None:
            return None
        texts = {rel: before}
        run = self.last if self.last is not None else self.lint()
        report = FixReport()
        for _ in range(MAX_PASSES):
            if run is None:
                break
            candidates = [f for f in run.findings
                          if f.fix is not None and not f.fix.renames and f.path == rel
                          and (unsafe or f.fix.applicability == "safe")
                          and all(e.path == rel for e in f.fix.edits)]
            if not candidates or not _apply_pass(texts, candidates, unsafe, report):
                break
            run = self.lint(overlay=dict(texts))
        after = texts[rel]
        return after if after != before else None


# -- what the editor asks about ------------------------------------------------
_ID_RE = re.compile(r"(?<![A-Za-z0-9_])(AC|DEV|F)-\d+(?![A-Za-z0-9_])")


def identifier_at(text: str, offset: int) -> Optional[tuple[str, int, int]]:
    """The `AC-NNN`, `DEV-NNN` or `F-NNN` at *offset*: (id, start, end)."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end == -1 else line_end
    for m in _ID_RE.finditer(text, line_start, line_end):
        if m.start() <= offset <= m.end():
            return m.group(0), m.start(), m.end()
    return None


def _contains(span: Span, offset: int) -> bool:
    return span.start <= offset <= span.end


@attrs.frozen
class Target:
    path: str
    span: Span


def _file_start(rel: str) -> Target:
    return Target(rel, Span(1, 1, 1, 1, 0, 0))


def _active_cycle(project: Project) -> Optional[str]:
    try:
        return project.active_cycle
    except Exception:  # a STATE.md that the model cannot read: no cycle
        return None


def _cycle_files(project: Project, artifact: str) -> list[str]:
    """The active cycle's records of *artifact* (plus, for SCOPE and
    ARCHITECTURE, the file Active Work names)."""
    out: list[str] = []
    st = project.state
    field = {"SCOPE": "Scope", "ARCHITECTURE": "Architecture", "DEVELOPMENT": "Development"}.get(artifact)
    if st is not None and field:
        value = (st.aw(field) or "").strip()
        if value and value not in ("NONE", "UNSET") and project.exists(_norm(value)):
            out.append(_norm(value))
    cycle = _active_cycle(project)
    if cycle:
        for r in project.records_of(cycle, artifact):
            if r.path not in out:
                out.append(r.path)
    return out


def _norm(value: str) -> str:
    value = value.strip().replace("\\", "/")
    while value.startswith("./"):
        value = value[2:]
    return posixpath.normpath(value) if value else value


def _path_target(session: Session, value: str, base: str) -> Optional[Target]:
    value = value.strip()
    if not value or "\n" in value or len(value) > 400 or value.startswith(("http:", "https:")):
        return None
    for cand in (_norm(value), _norm(posixpath.join(posixpath.dirname(base), value))):
        if cand and not cand.startswith("..") and os.path.isfile(session.abspath(cand)):
            return _file_start(cand)
    return None


def _headings(doc: Document, ident: str) -> list[Span]:
    """Headings (### and deeper, or ##) whose text starts with *ident*."""
    pat = re.compile(re.escape(ident) + r"(?![0-9A-Za-z_])")
    return [h.span for h in doc.headings if h.level >= 2 and pat.match(h.text)]


def definition(session: Session, rel: str, offset: int) -> list[Target]:
    """Where the thing at *offset* of *rel* is defined."""
    doc = session.doc(rel)
    if doc is None:
        return []
    found = identifier_at(doc.text, offset)
    project = session.project()
    if found is not None:
        ident = found[0]
        kind = ident.split("-", 1)[0]
        if kind == "AC":
            return _ac_definitions(session, project, ident)
        artifact = "DEVELOPMENT" if kind == "DEV" else "REVIEW"
        files = [rel] if _artifact_of(project, rel) == artifact else []
        files += [p for p in _cycle_files(project, artifact) if p not in files]
        out = []
        for path in files:
            d = session.doc(path)
            if d is not None:
                out += [Target(path, s) for s in _headings(d, ident)]
            if out:
                break
        return out
    # A path in a field value or a code span: that file.
    for f in doc.fields:
        if _contains(f.value_span, offset) and not f.bare:
            t = _path_target(session, f.value, rel)
            return [t] if t else []
    for c in doc.codes:
        if _contains(c.span, offset):
            t = _path_target(session, c.value, rel)
            return [t] if t else []
    return []


def _artifact_of(project: Project, rel: str) -> Optional[str]:
    prov = project.provenance(rel)
    return prov.artifact if prov is not None and prov.valid else None


def _ac_definitions(session: Session, project: Project, ident: str) -> list[Target]:
    from ..model.acceptance import scan_text, scope_model

    for path in _cycle_files(project, "SCOPE"):
        text = session.text(path)
        if text is None:
            continue
        model = scope_model(scan_text(path, text))
        for table in (model.current, model.retired, model.previous):
            if ident in table:
                return [Target(path, m.span) for m in table[ident]]
    return []


def references(session: Session, rel: str, offset: int, include_declaration: bool = True) -> list[Target]:
    """Every mention of the `AC-NNN` (or `DEV-NNN`, `F-NNN`) at *offset* in
    the active cycle's records, its scope and design, and STATE.md."""
    from ..model.acceptance import scan_text

    text = session.text(rel)
    found = identifier_at(text or "", offset)
    if found is None:
        return []
    ident = found[0]
    project = session.project()
    files: list[str] = []
    for artifact in ("SCOPE", "ARCHITECTURE"):
        files += _cycle_files(project, artifact)
    cycle = _active_cycle(project)
    if cycle:
        files += [r.path for r in project.records_of(cycle)]
    files += [STATE_PATH, rel]
    out: list[Target] = []
    seen: set[str] = set()
    pat = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(ident) + r"(?![A-Za-z0-9_])")
    for path in files:
        if path in seen:
            continue
        seen.add(path)
        t = session.text(path)
        if t is None:
            continue
        if ident.startswith("AC-"):
            for m in scan_text(path, t).mentions:
                if m.id == ident and (include_declaration or not m.definition):
                    out.append(Target(path, m.span))
        else:
            index = LineIndex(lone_cr_as_lf(t))
            for m in pat.finditer(t):
                out.append(Target(path, index.span(m.start(), m.end())))
    return out


# -- outlines ------------------------------------------------------------------
@attrs.define
class Symbol:
    name: str
    kind: str  # "section" | "frame" | "obligation" | "step" | "finding" | "condition" | "field" | "subsection"
    span: Span  # the whole extent
    selection: Span  # the heading or identifier
    detail: str = ""
    children: list["Symbol"] = attrs.Factory(list)


_SUB_KINDS = (
    (re.compile(r"^Frame \d+"), "frame"),
    (re.compile(r"^Obligation \d+"), "obligation"),
    (re.compile(r"^DEV-\d+"), "step"),
    (re.compile(r"^F-\d+"), "finding"),
    (re.compile(r"^Increment \d+"), "increment"),
)


def outline(doc: Document) -> list[Symbol]:
    """Sections, their subsections (frames, obligations, steps, findings),
    the header's fields and the acceptance conditions of a document."""
    from ..model.acceptance import scan_text

    index = LineIndex(doc.text)
    end = len(doc.text)
    out: list[Symbol] = []
    if doc.header is not None and doc.header.fields:
        for f in doc.header.fields:
            out.append(Symbol(f.name, "field", f.span, f.name_span, f.value))
    sections = doc.sections
    for i, sec in enumerate(sections):
        stop = sections[i + 1].span.start if i + 1 < len(sections) else end
        sym = Symbol(sec.title or "(untitled)", "section", index.span(sec.span.start, _trim(doc.text, stop)), sec.span)
        subs = sec.subsections
        for j, sub in enumerate(subs):
            sub_stop = subs[j + 1].span.start if j + 1 < len(subs) else stop
            kind = next((k for r, k in _SUB_KINDS if r.match(sub.title)), "subsection")
            detail = ""
            status = sub.field("Status")
            if status is not None:
                detail = status.value
            sym.children.append(Symbol(sub.title or "(untitled)", kind,
                                       index.span(sub.span.start, _trim(doc.text, sub_stop)), sub.span, detail))
        out.append(sym)
    # Acceptance conditions: list items that define an AC-NNN.
    for m in scan_text(doc.path, doc.text).mentions:
        if not m.definition:
            continue
        line_end = doc.text.find("\n", m.span.start)
        line_end = end if line_end == -1 else line_end
        item_text = doc.text[m.span.end:line_end].lstrip("`*_ :-\u2013\u2014").strip()
        cond = Symbol(m.id, "condition", index.span(m.span.start, line_end), m.span, item_text[:80])
        parent = _innermost(out, m.span.start)
        (parent.children if parent is not None else out).append(cond)
    return out


def _trim(text: str, stop: int) -> int:
    """*stop* moved back over trailing blank lines."""
    while stop > 0 and text[stop - 1] in "\r\n \t":
        stop -= 1
    return stop


def _innermost(symbols: list[Symbol], offset: int) -> Optional[Symbol]:
    for s in symbols:
        if s.kind != "field" and s.span.start <= offset <= s.span.end:
            return _innermost(s.children, offset) or s
    return None


# -- hovers --------------------------------------------------------------------
_QUOTE_RE = re.compile(r"\"([^\"]{8,})\"|\u201c([^\u201d]{8,})\u201d")


def _paragraph(explanation: str, label: str) -> str:
    for para in re.split(r"\n\s*\n", explanation):
        if para.lstrip().startswith(f"**{label}"):
            text = para.strip()
            return " ".join(text.split())
    return ""


def rule_hover(rule, finding: Optional[Finding] = None, docs_url: str = "") -> str:
    """Markdown for a hover on a finding: the rule's summary, its protocol
    section and the protocol sentences its explanation quotes, the fix safety."""
    lines = []
    if finding is not None:
        lines.append(f"**{finding.code}** `{finding.rule or getattr(rule, 'name', '')}` ({finding.severity})")
        lines.append("")
        lines.append(finding.message)
        lines.append("")
    if rule is None:
        return "\n".join(lines).strip()
    lines.append(rule.summary)
    lines.append("")
    lines.append(f"**Protocol section:** {rule.section}")
    why = _paragraph(rule.explanation, "Why")
    quotes = [a or b for a, b in _QUOTE_RE.findall(why)]
    if quotes:
        lines.append("")
        lines.extend(f"> {q}" for q in quotes[:3])
    lines.append("")
    safety = _paragraph(rule.explanation, "Fix safety")
    lines.append(safety or f"**Fix safety.** {FIX_TEXT.get(rule.fix, rule.fix)}")
    if finding is not None and finding.fix is not None:
        lines.append("")
        label = "safe" if finding.fix.applicability == "safe" else "unsafe (review the result)"
        what = (finding.fix.description or "see the code actions").rstrip().rstrip(".")
        lines.append(f"This finding's fix is {label}: {what}.")
    elif finding is not None and finding.help:
        lines.append("")
        lines.append(f"**Next step:** {finding.help}")
    if finding is not None and finding.owner:
        lines.append("")
        lines.append(f"**Owner:** {finding.owner}")
    if docs_url:
        lines.append("")
        lines.append(f"[{rule.code} documentation]({docs_url})")
    return "\n".join(lines).strip()


def field_at(doc: Document, offset: int):
    """The field whose name is at *offset*, or None."""
    for f in doc.fields:
        if f.name_span.start - 1 <= offset <= f.name_span.end + 1:
            return f
    return None


def field_hover(doc: Document, offset: int, release=None) -> Optional[str]:
    """The hover of the field at *offset*, with the values the project's
    framework *release* allows."""
    from .fields import describe

    f = field_at(doc, offset)
    if f is None:
        return None
    return describe(f.name, _section_of(doc, f.span.start), release)


def _section_of(doc: Document, offset: int) -> str:
    title = ""
    for sec in doc.sections:
        if sec.span.start <= offset:
            title = sec.title
            for sub in sec.subsections:
                if sub.span.start <= offset:
                    title = f"{sec.title}/{sub.title}"
                    if sub.title.startswith("Frame"):
                        title = "Recovery/Frame"
                    elif sub.title.startswith("Obligation"):
                        title = "Outstanding Obligations/Obligation"
    return title


def finding_at(findings: Iterable[Finding], line: int, column: int) -> list[Finding]:
    """Findings whose range holds the 1-based (line, column)."""
    out = []
    for f in findings:
        start = (f.line, f.column)
        end = (f.end_line, max(f.end_column, f.column + 1) if f.end_line == f.line else f.end_column)
        if start <= (line, column) <= end:
            out.append(f)
    return out
