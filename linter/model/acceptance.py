"""Acceptance traceability (PROTOCOL.md, Acceptance Traceability): the scope's
AC-NNN conditions (current, retired, previous cycles), the references of every
record, and the coverage each record owes."""

from __future__ import annotations

import posixpath
import re
from typing import Iterator, Optional

from standards_lint.syntax.ast import Span
from standards_lint.syntax.data import Record
from standards_lint.model.holding import Holding, holding
from standards_lint.syntax.parser import LineIndex
from standards_lint.syntax.protocol import CYCLE_ID_RE, USABLE_CYCLE_ID_RE, TERMINAL_STATES, record_path
from standards_lint.syntax.records import provenance_of


AC_RE = re.compile(r"(?<![A-Za-z0-9_])AC-(\d+)(?![A-Za-z0-9_])")
FENCE_RE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")


# The title ends in a character other than a space or tab (the shortest
# title does): trying the closing sequence after every character of a run of
# spaces was quadratic in the run (issue 43; the parser's heading the same).
HEADING_RE = re.compile(r"^([ ]{0,3})(#{1,6})(?:[ \t]+((?:.*?[^ \t\n])??))?(?:[ \t]+#+)?[ \t]*$")


# A condition: a list item (bulleted, numbered, or a task item) whose content
# starts with one or more IDs (optionally in backticks or bold) followed by a
# colon or a dash.
ID_TOKEN = r"(?:\*\*|__)?`?(?:\*\*|__)?AC-\d+(?:\*\*|__)?`?(?:\*\*|__)?"


_DEF_RE = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?"
    r"(" + ID_TOKEN + r"(?:[ \t]*,[ \t]*" + ID_TOKEN + r")*)[ \t]*(?::|-|\u2013|\u2014)"
)


RETIRED_TITLE = "Retired Acceptance Identifiers"
PREVIOUS_TITLE = "Previous Cycles"


EVIDENCE_TITLE = "Acceptance Evidence"
COVERAGE_TITLE = "Acceptance Coverage"


# The state whose role owns each record (Workflow Artifact Provenance).
OWNER_STATE = {
    ("VERIFICATION", None): "TESTING",
    ("REVIEW", "IMPLEMENTATION"): "REVIEWING_IMPLEMENTATION",
    ("DOCUMENTATION", None): "DOCUMENTING",
    ("REVIEW", "FINAL_DELIVERABLE"): "REVIEWING_FINAL",
    ("SYNCHRONIZATION", None): "SYNCHRONIZING",
}


class Mention(Record):
    """One AC-NNN mention in a file: where it is, under which ``##`` section,
    whether under Previous Cycles, and whether it defines the condition."""

    __slots__ = ("id", "span", "section", "previous", "definition", "under", "fenced")

    def __init__(self, id: str, span: Span, section: str, previous: bool, definition: bool, under: str = "",
                 fenced: bool = False):
        self.id = id
        self.span = span
        self.section = section  # title of the enclosing ## section ("" before the first)
        self.previous = previous  # at or after a `## Previous Cycles` heading
        self.definition = definition  # the ID starts a list item (a condition's definition)
        # The title of an indented `##` heading the mention follows in its
        # section ("" when none): the framework reads a section heading only at
        # the start of a line, so the mention stays in the section before it.
        self.under = under
        # Inside fenced code: a record's mention all the same (the checker
        # reads records' mentions with a regular expression over the raw
        # text, unseen-3), but no part of a scope's conditions (suite-0769's
        # class: a fenced example in the scope is not a condition that
        # "appears").
        self.fenced = fenced

    @property
    def number(self) -> int:
        return int(self.id[3:])


class Scan(Record):
    """Every AC-NNN mention of one file, with the first ``##`` heading of each
    title."""

    __slots__ = ("path", "mentions", "headings", "indented")

    def __init__(self, path: str, mentions: list[Mention], headings: dict[str, Span],
                 indented: Optional[dict[str, Span]] = None):
        self.path = path
        self.mentions = mentions
        self.headings = headings  # first ## heading of each title
        # First indented `##` heading of each title (` ## Retired Acceptance
        # Identifiers`): found, but not read as a section heading.
        self.indented = indented if indented is not None else {}

    def ids(self, mentions: list[Mention]) -> list[str]:
        out: list[str] = []
        for m in mentions:
            if m.id not in out:
                out.append(m.id)
        return out

    def first(self, ac_id: str, *, previous: Optional[bool] = None) -> Optional[Mention]:
        for m in self.mentions:
            if m.id == ac_id and (previous is None or m.previous == previous):
                return m
        return None


def _strip_comments(line: str, in_comment: bool, whole: bool = False) -> tuple[str, bool]:
    """Blank out the HTML comment delimiters of *line* (and, when *whole*,
    the comment text too), keeping offsets.  The framework's checker reads
    acceptance mentions with regular expressions over the raw text, so a
    mention inside a comment counts for it (``lexicon``: a commented-out
    `## Acceptance Evidence` still accounts for its conditions); only the
    provenance block, where a record begins, is no content."""
    out = []
    i = 0
    while i < len(line):
        if in_comment:
            j = line.find("-->", i)
            if j == -1:
                out.append(" " * (len(line) - i) if whole else line[i:])
                return "".join(out), True
            out.append(" " * (j + 3 - i) if whole else line[i:j] + "   ")
            i = j + 3
            in_comment = False
            whole = False
        else:
            j = line.find("<!--", i)
            if j == -1:
                out.append(line[i:])
                break
            out.append(line[i:j])
            if not whole:
                out.append("    ")
                i = j + 4
            else:
                i = j
            in_comment = True
    return "".join(out), in_comment


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, content) of each line outside fenced code, comment
    delimiters and the provenance block blanked."""
    fence: Optional[str] = None
    in_comment = False
    whole = text.startswith("<!--") or text.startswith("\ufeff<!--")
    offset = 0
    for raw in text.split("\n"):
        start = offset
        offset += len(raw) + 1
        line = raw.rstrip("\r")
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            else:
                yield start, line, True
            continue
        if not in_comment:
            m = FENCE_RE.match(line)
            if m:
                fence = m.group(1)
                continue
        line, in_comment = _strip_comments(line, in_comment, whole)
        whole = whole and in_comment
        yield start, line, False


def scan_text(path: str, text: str) -> Scan:
    """Every `AC-NNN` mention of *text* outside fenced code and HTML comments."""
    index = LineIndex(text)
    mentions: list[Mention] = []
    headings: dict[str, Span] = {}
    indented: dict[str, Span] = {}
    section = ""
    under = ""
    previous = False
    for start, line, fenced in _lines(text):
        # Fenced code is no structure (a `## heading` in it opens no
        # section, suite-0475's class), but the checker's mention regex
        # still reads it: an `AC-NNN` in a fenced example is a mention.
        h = None if fenced else HEADING_RE.match(line)
        if h and h.group(1) and len(h.group(2)) == 2:
            # An indented section heading: the framework's checker reads
            # sections from headings at the start of a line only, so this one
            # opens no section (what follows stays in the section before);
            # it is kept for the fix that writes it at the line start.
            under = (h.group(3) or "").strip()
            indented.setdefault(under, index.span(start, start + len(line.rstrip())))
        elif h:
            level = len(h.group(2))
            title = (h.group(3) or "").strip()
            if title.endswith(":"):  # `## Retired Acceptance Identifiers:` is that section (lexicon)
                title = title[:-1].rstrip()
            under = ""
            if level == 1:
                section = ""
            elif level == 2:
                section = title
                headings.setdefault(title, index.span(start, start + len(line.rstrip())))
                if title == PREVIOUS_TITLE:
                    previous = True
        d = None if fenced else _DEF_RE.match(line)
        for m in AC_RE.finditer(line):
            s = index.span(start + m.start(), start + m.end())
            is_def = d is not None and d.start(1) <= m.start() < d.end(1)
            mentions.append(Mention(m.group(0), s, section, previous, is_def, under, fenced))
    return Scan(path, mentions, headings, indented)


class ScopeModel(Record):
    """The scope's conditions: current, retired and Previous Cycles definitions,
    and the mentions outside Previous Cycles."""

    __slots__ = ("scan", "current", "retired", "previous", "present")

    def __init__(self, scan: Scan, current: dict[str, list[Mention]], retired: dict[str, list[Mention]],
                 previous: dict[str, list[Mention]], present: list[Mention]):
        self.scan = scan
        self.current = current  # ID -> its definitions as a current condition
        self.retired = retired
        self.previous = previous  # definitions under Previous Cycles
        self.present = present  # mentions outside Previous Cycles

    @property
    def path(self) -> str:
        return self.scan.path

    @property
    def defined(self) -> set[str]:
        return set(self.current) | set(self.retired) | set(self.previous)

    @property
    def appears(self) -> set[str]:
        return {m.id for m in self.present}


def scope_model(scan: Scan) -> ScopeModel:
    """The conditions a scope's scan defines (:class:`ScopeModel`)."""
    current: dict[str, list[Mention]] = {}
    retired: dict[str, list[Mention]] = {}
    previous: dict[str, list[Mention]] = {}
    present: list[Mention] = []
    for m in scan.mentions:
        if m.fenced:
            continue
        if m.previous:
            if m.definition:
                previous.setdefault(m.id, []).append(m)
            continue
        present.append(m)
        if m.definition:
            (retired if m.section == RETIRED_TITLE else current).setdefault(m.id, []).append(m)
    return ScopeModel(scan, current, retired, previous, present)


class Context(Record):
    """What the acceptance rules read of one project, once: the cycle, its state
    and handoff, the scope, the design, the records and which of them are held."""

    __slots__ = ("project", "cycle", "mode", "state", "project_mode", "recovery", "kind", "frm", "scope", "design",
                 "records", "hold", "fixes")

    def __init__(self, project: object, cycle: str, mode: str, state: str, project_mode: Optional[str],
                 recovery: Optional[str], kind: Optional[str], frm: Optional[str], scope: Optional[ScopeModel],
                 design: Optional[Scan], records: list, hold: Holding, fixes: bool = True):
        self.project, self.cycle, self.mode, self.state = project, cycle, mode, state
        self.project_mode, self.recovery, self.kind, self.frm = project_mode, recovery, kind, frm
        self.scope, self.design, self.records = scope, design, records
        self.hold = hold  # which records are held (standards_lint.model.holding)
        # False for a "what if" context (a scope edit a fix would make): its
        # findings are only counted, so no fix is computed for them.
        self.fixes = fixes

    def before(self, s: str) -> bool:
        """*s* comes before the current state on the cycle's forward route."""
        return self.hold.before(s)

    def from_held(self, s: str) -> bool:
        """*s* is the state the last RESUME (or a valid FORWARD) handoff came from."""
        return self.hold.from_held(s)

    def held(self, s: str, *, own: bool) -> bool:
        """Whether the records of state *s* are held to full coverage
        (:meth:`standards_lint.model.holding.Holding.completion`)."""
        return self.hold.completion(s, own=own)


def single_field(container, name: str):
    """The field *name* of *container* when it occurs exactly once, else None."""
    if container is None:
        return None
    found = container.all_fields(name)
    return found[0] if len(found) == 1 else None


def _usable(project, path: Optional[str], artifact: str, cycle: str) -> Optional[str]:
    """*path* when it is a readable file that is either a plain project
    document or a valid *artifact* record of *cycle*."""
    if not path or path in ("NONE", "UNSET"):
        return None
    path = posixpath.normpath(path)
    if path.startswith(("/", "../")) or path == ".." or "\x00" in path:
        return None
    try:
        if project.kind(path) != "file":
            return None
    except (OSError, ValueError):
        return None
    doc = project.doc(path)
    if doc is None:
        return None
    if doc.provenance is None:
        return path
    p = provenance_of(doc)
    if p is None or p[0] != artifact or p[1] != cycle:
        return None
    return path


def _has_conflict(project, rel: str) -> bool:
    doc = project.doc(rel) if project.kind(rel) == "file" else None
    return doc is not None and bool(doc.conflicts)


def analysis(project) -> Optional[Context]:
    """The active cycle's acceptance context, or None when there is none."""
    cache = project.__dict__.setdefault("_standards_lint_acceptance", {})
    if "ctx" not in cache:
        try:
            cache["ctx"] = _build(project)
        except Exception:  # reported once (SL001); the other rules then stay silent
            cache["ctx"] = None
            raise
    return cache["ctx"]


def _build(project) -> Optional[Context]:
    st = project.state
    if st is None:
        return None
    # A merge conflict in the workflow files stops every workflow check.
    if _has_conflict(project, ".standards/STATE.md") or _has_conflict(project, ".standards/MODE.md"):
        return None
    cycle = st.aw("Id")
    mode = st.cycle_mode
    state = st.workflow_state
    if not cycle or cycle in ("UNSET", "NONE") or not USABLE_CYCLE_ID_RE.match(cycle) or mode is None or state is None:
        return None
    if state in TERMINAL_STATES:
        return None
    project_mode = None
    if project.mode_doc is not None:
        f = single_field(project.mode_doc.header, "ProjectMode")
        project_mode = f.value if f is not None else None
    scope = None
    scope_path = _usable(project, st.aw("Scope"), "SCOPE", cycle)
    if scope_path is not None:
        scope = scope_model(scan_text(scope_path, project.text(scope_path) or ""))
    design = None
    design_path = _usable(project, st.aw("Architecture"), "ARCHITECTURE", cycle)
    if design_path is not None and design_path != scope_path:
        design = scan_text(design_path, project.text(design_path) or "")
    records = [r for r in project.records_of(cycle) if r.path != scope_path]
    return Context(
        project=project,
        cycle=cycle,
        mode=mode,
        state=state,
        project_mode=project_mode,
        recovery=st.value(st.recovery, "Active"),
        kind=st.ho("Kind"),
        frm=st.ho("From"),
        scope=scope,
        design=design,
        records=records,
        hold=holding(project),
    )


def traced(ctx: Optional[Context]) -> bool:
    """Acceptance traceability applies: a STANDARD or DOCUMENTATION cycle with a scope."""
    return ctx is not None and ctx.mode in ("STANDARD", "DOCUMENTATION") and ctx.scope is not None


def record_scan(ctx: Context, record) -> Scan:
    """The AC-NNN scan of *record*, once per project."""
    cache = ctx.project.__dict__.setdefault("_standards_lint_acceptance", {})
    key = ("scan", record.path)
    if key not in cache:
        cache[key] = scan_text(record.path, record.doc.text)
    return cache[key]


def record_status(record) -> Optional[object]:
    """The record's Status field: its only one, or the first of several
    that agree (a header repeated on both sides of a conflict, say)."""
    found = record.doc.header.all_fields("Status") if record.doc.header is not None else []
    if found and all(f.value == found[0].value for f in found):
        return found[0]
    return None


def heading_anchor(scan: Scan, *titles: str):
    """Where to point for the first of *titles* present as a ``##`` heading of
    *scan*; else its path."""
    for t in titles:
        if t in scan.headings:
            return (scan.path, scan.headings[t])
    return scan.path


def doc_anchor(project, path: str):
    """The title of the document at *path*, else the path itself (where to point
    for the whole file)."""
    doc = project.doc(path)
    if doc is not None and doc.title is not None:
        return doc.title
    return path


def other_files(ctx: Context) -> list[tuple[Scan, bool]]:
    """(scan, is_design) of the design and every record but the scope."""
    out: list[tuple[Scan, bool]] = []
    seen = set()
    for r in ctx.records:
        if ctx.design is not None and r.path == ctx.design.path:
            continue
        out.append((record_scan(ctx, r), False))
        seen.add(r.path)
    if ctx.design is not None:
        out.append((ctx.design, True))
    return out


def design_gaps(ctx: Optional[Context]) -> Optional[list[str]]:
    """The current IDs the design does not account for, when it is held
    to account for every one (None when it is not)."""
    if not traced(ctx) or ctx.design is None or not ctx.held("ARCHITECTING", own=False):
        return None
    covered = {m.id for m in ctx.design.mentions if not m.previous}
    return [i for i in ctx.scope.current if i not in covered]


def complete_records(ctx: Context):
    """(record, owner state, Status field) of the COMPLETE verification,
    review, documentation and synchronization records of the cycle."""
    for r in ctx.records:
        if ctx.design is not None and r.path == ctx.design.path:
            continue
        owner = OWNER_STATE.get((r.artifact, r.review_kind))
        if owner is None:
            continue
        status = record_status(r)
        yield r, owner, status


def evidence_ids(scan: Scan, artifact: str) -> set[str]:
    """IDs a record accounts for: outside Previous Cycles; a verification
    report accounts in its Acceptance Evidence section."""
    if artifact == "VERIFICATION":
        return {m.id for m in scan.mentions if not m.previous and m.section == EVIDENCE_TITLE}
    return {m.id for m in scan.mentions if not m.previous}


def complete_gaps(ctx: Context, r, owner: str, status) -> Optional[list[str]]:
    """The current IDs a COMPLETE record held to full coverage does not
    account for (None when the record is not so held)."""
    if status is None or status.value != "COMPLETE" or not ctx.held(owner, own=True):
        return None
    covered = evidence_ids(record_scan(ctx, r), r.artifact)
    return [i for i in ctx.scope.current if i not in covered]


def partial_gaps(ctx: Context, r, purpose: Optional[str] = "") -> Optional[list[str]]:
    """The current IDs a partial verification report that must still list
    every condition does not account for (None when it need not).  *purpose*
    overrides the report's `Assessment Purpose` (None: unknown)."""
    if r.artifact != "VERIFICATION" or r.path != record_path("VERIFICATION", ctx.cycle):
        return None  # a second VERIFICATION record elsewhere is the record-path rules' finding
    status = record_status(r)
    if status is not None and status.value == "COMPLETE":
        return None
    if purpose == "":
        found = single_field(r.doc.header, "Assessment Purpose")
        purpose = found.value if found is not None else None
    if not ctx.hold.partial("TESTING", purpose):
        return None
    covered = evidence_ids(record_scan(ctx, r), r.artifact)
    return [i for i in ctx.scope.current if i not in covered]


def partial_gaps_for(project, path: str, purpose: Optional[str]) -> bool:
    """Whether the verification report at *path*, with *purpose* as its
    `Assessment Purpose`, would be a partial assessment missing a current
    condition (SL722): for fixes elsewhere that would change the purpose."""
    ctx = analysis(project)
    if not traced(ctx):
        return False
    for r in ctx.records:
        if r.path == path:
            return bool(partial_gaps(ctx, r, purpose))
    return False


def gaps_of(ctx: Context, path: str) -> Optional[list[str]]:
    """The current IDs the design or record at *path* does not account for,
    under whichever coverage obligation holds it (None when none does)."""
    if ctx.design is not None and path == ctx.design.path:
        return design_gaps(ctx)
    for r, owner, status in complete_records(ctx):
        if r.path == path:
            found = complete_gaps(ctx, r, owner, status)
            if found is not None:
                return found
    for r in ctx.records:
        if r.path == path:
            found = partial_gaps(ctx, r)
            if found is not None:
                return found
    return None


def head_scope(ctx: Context) -> Optional[ScopeModel]:
    """The scope's conditions at the last commit (git HEAD), or None."""
    project = ctx.project
    if ctx.scope is None or project.head is None:
        return None
    text = project.head.read(ctx.scope.path)
    if text is None:
        return None
    return scope_model(scan_text(ctx.scope.path, text.lstrip("\ufeff")))
