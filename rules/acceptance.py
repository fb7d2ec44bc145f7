"""Acceptance Traceability: `AC-NNN` identifiers in the active cycle's scope,
design and records.

PROTOCOL.md, Acceptance Traceability; Documentation Cycle Contract; Runtime
Tools and Hooks (which completed records `check` holds to full coverage);
protocol/expedited.md, Expedited Cycle Contract.

The rules share one analysis of the active cycle (:func:`analysis`):

* the scope is the file named by ``Active Work.Scope``; its conditions are
  list items that start with their ID.  Items under
  ``## Retired Acceptance Identifiers`` are retired; everything from
  ``## Previous Cycles`` to the end of the document is history.
* the design is the file named by ``Active Work.Architecture``;
* the records are the valid records whose provenance names the active cycle.

A scope or design file is used only when it is a plain project document (no
provenance block) or a valid record of the active cycle with the right
artifact type; otherwise other rules report the mismatch and these stay
silent.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterator, Optional

import attrs

from standards_lint.ast import Span
from standards_lint.findings import Edit, Fix
from standards_lint.holding import Holding, holding
from standards_lint.parser import LineIndex
from standards_lint.protocol import CYCLE_ID_RE, TERMINAL_STATES, record_path
from standards_lint.records import provenance_of
from standards_lint.rule import module_rules, report, rule

AC_RE = re.compile(r"(?<![A-Za-z0-9_])AC-(\d+)(?![A-Za-z0-9_])")
_FENCE_RE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^[ ]{0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# A condition: a list item (bulleted, numbered, or a task item) whose content
# starts with one or more IDs (optionally in backticks or bold) followed by a
# colon or a dash.
_ID_TOKEN = r"(?:\*\*|__)?`?(?:\*\*|__)?AC-\d+(?:\*\*|__)?`?(?:\*\*|__)?"
_DEF_RE = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?"
    r"(" + _ID_TOKEN + r"(?:[ \t]*,[ \t]*" + _ID_TOKEN + r")*)[ \t]*(?::|-|\u2013|\u2014)"
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


# -- scanning -----------------------------------------------------------------
@attrs.define
class Mention:
    id: str
    span: Span
    section: str  # title of the enclosing ## section ("" before the first)
    previous: bool  # at or after a `## Previous Cycles` heading
    definition: bool  # the ID starts a list item (a condition's definition)

    @property
    def number(self) -> int:
        return int(self.id[3:])


@attrs.define
class Scan:
    path: str
    mentions: list[Mention]
    headings: dict[str, Span]  # first ## heading of each title

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


def _strip_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """Blank out HTML comment text in *line*, keeping offsets."""
    out = []
    i = 0
    while i < len(line):
        if in_comment:
            j = line.find("-->", i)
            if j == -1:
                out.append(" " * (len(line) - i))
                return "".join(out), True
            out.append(" " * (j + 3 - i))
            i = j + 3
            in_comment = False
        else:
            j = line.find("<!--", i)
            if j == -1:
                out.append(line[i:])
                break
            out.append(line[i:j])
            i = j
            in_comment = True
    return "".join(out), in_comment


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, content) of each line outside fenced code, comments blanked."""
    fence: Optional[str] = None
    in_comment = False
    offset = 0
    for raw in text.split("\n"):
        start = offset
        offset += len(raw) + 1
        line = raw.rstrip("\r")
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        if not in_comment:
            m = _FENCE_RE.match(line)
            if m:
                fence = m.group(1)
                continue
        line, in_comment = _strip_comments(line, in_comment)
        yield start, line


def scan_text(path: str, text: str) -> Scan:
    """Every `AC-NNN` mention of *text* outside fenced code and HTML comments."""
    index = LineIndex(text)
    mentions: list[Mention] = []
    headings: dict[str, Span] = {}
    section = ""
    previous = False
    for start, line in _lines(text):
        h = _HEADING_RE.match(line)
        if h:
            level = len(h.group(1))
            title = (h.group(2) or "").strip()
            if level == 1:
                section = ""
            elif level == 2:
                section = title
                headings.setdefault(title, index.span(start, start + len(line.rstrip())))
                if title == PREVIOUS_TITLE:
                    previous = True
        d = _DEF_RE.match(line)
        for m in AC_RE.finditer(line):
            s = index.span(start + m.start(), start + m.end())
            is_def = d is not None and d.start(1) <= m.start() < d.end(1)
            mentions.append(Mention(m.group(0), s, section, previous, is_def))
    return Scan(path, mentions, headings)


# -- the scope ------------------------------------------------------------------
@attrs.define
class ScopeModel:
    scan: Scan
    current: dict[str, list[Mention]]  # ID -> its definitions as a current condition
    retired: dict[str, list[Mention]]
    previous: dict[str, list[Mention]]  # definitions under Previous Cycles
    present: list[Mention]  # mentions outside Previous Cycles

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
    current: dict[str, list[Mention]] = {}
    retired: dict[str, list[Mention]] = {}
    previous: dict[str, list[Mention]] = {}
    present: list[Mention] = []
    for m in scan.mentions:
        if m.previous:
            if m.definition:
                previous.setdefault(m.id, []).append(m)
            continue
        present.append(m)
        if m.definition:
            (retired if m.section == RETIRED_TITLE else current).setdefault(m.id, []).append(m)
    return ScopeModel(scan, current, retired, previous, present)


# -- the active cycle -------------------------------------------------------------
@attrs.define
class Context:
    project: object
    cycle: str
    mode: str
    state: str
    project_mode: Optional[str]
    recovery: Optional[str]
    kind: Optional[str]
    frm: Optional[str]
    scope: Optional[ScopeModel]
    design: Optional[Scan]
    records: list
    hold: Holding  # which records are held (standards_lint.holding)
    # False for a "what if" context (a scope edit a fix would make): its
    # findings are only counted, so no fix is computed for them.
    fixes: bool = True

    def before(self, s: str) -> bool:
        """*s* comes before the current state on the cycle's forward route."""
        return self.hold.before(s)

    def from_held(self, s: str) -> bool:
        """*s* is the state the last RESUME (or a valid FORWARD) handoff came from."""
        return self.hold.from_held(s)

    def held(self, s: str, *, own: bool) -> bool:
        """Whether the records of state *s* are held to full coverage
        (:meth:`standards_lint.holding.Holding.completion`)."""
        return self.hold.completion(s, own=own)


def _single(container, name: str):
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
    if not cycle or not CYCLE_ID_RE.match(cycle) or mode is None or state is None:
        return None
    if state in TERMINAL_STATES:
        return None
    project_mode = None
    if project.mode_doc is not None:
        f = _single(project.mode_doc.header, "ProjectMode")
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


def _traced(ctx: Optional[Context]) -> bool:
    """Acceptance traceability applies: a STANDARD or DOCUMENTATION cycle with a scope."""
    return ctx is not None and ctx.mode in ("STANDARD", "DOCUMENTATION") and ctx.scope is not None


def _record_scan(ctx: Context, record) -> Scan:
    cache = ctx.project.__dict__.setdefault("_standards_lint_acceptance", {})
    key = ("scan", record.path)
    if key not in cache:
        cache[key] = scan_text(record.path, record.doc.text)
    return cache[key]


def _status(record) -> Optional[object]:
    """The record's Status field: its only one, or the first of several
    that agree (a header repeated on both sides of a conflict, say)."""
    found = record.doc.header.all_fields("Status") if record.doc.header is not None else []
    if found and all(f.value == found[0].value for f in found):
        return found[0]
    return None


def _where(scan: Scan, *titles: str):
    for t in titles:
        if t in scan.headings:
            return (scan.path, scan.headings[t])
    return scan.path


def _doc_anchor(project, path: str):
    doc = project.doc(path)
    if doc is not None and doc.title is not None:
        return doc.title
    return path


def _other_files(ctx: Context) -> list[tuple[Scan, bool]]:
    """(scan, is_design) of the design and every record but the scope."""
    out: list[tuple[Scan, bool]] = []
    seen = set()
    for r in ctx.records:
        if ctx.design is not None and r.path == ctx.design.path:
            continue
        out.append((_record_scan(ctx, r), False))
        seen.add(r.path)
    if ctx.design is not None:
        out.append((ctx.design, True))
    return out


def _example(ac_id: str) -> str:
    return f'"- `{ac_id}`: <condition>"'


# -- rules: the scope ---------------------------------------------------------------
@rule(
    code="SL701",
    name="acceptance-condition-not-defined",
    section="Acceptance Traceability",
    owner="record",
    summary="The scope mentions an AC-NNN identifier that no list item defines as a condition.",
    explanation="""
**What it does.** Looks at every `AC-NNN` the active cycle's scope mentions
outside `## Previous Cycles` (and outside fenced code and HTML comments) and
reports each one that no list item defines, either as a current condition or
under `## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 1: "Define each
condition as a Markdown list item, bulleted or numbered, that starts with its
identifier followed by a colon or dash [...] A table row, heading, or prose
mention does not define a condition, and `check` reports an identifier the
scope mentions without defining. This applies to a reused project scope
document too."

**Fix safety.** Sometimes (unsafe): when exactly one line of the scope leads with the
identifier (a table row `| AC-001 | text |`, a heading, a plain line, or a
list item without its colon) and states a condition after it, that line is
rewritten into the form the protocol fixes, ``- `AC-001`: text``, keeping its
text. No fix in a scope holding merge-conflict markers, for a mention inside
a sentence, for several such lines, or when
defining the condition would raise a coverage finding the tree does not have
yet (a design or completed record that would then have to account for it):
only Scoper can say whether the mention is a condition, a typo, or stale
text.
""",
    bad_example="| `AC-001` | Users can search by name. |",
    good_example="- `AC-001`: Users can search by name.",
    fix="sometimes",
    help="Define the condition as a list item starting with its ID (`- `AC-001`: ...`), or remove the stray mention.",
    no_fix_reason="A mention inside a sentence, several leading lines, or a definition that would raise new coverage findings: only Scoper can say whether it is a condition to define, a typo, or stale text.",
)
def acceptance_condition_not_defined(project):
    ctx = analysis(project)
    if not _traced(ctx):
        return
    sc = ctx.scope
    defined = sc.defined
    done = set()
    for m in sc.present:
        if m.id in defined or m.id in done:
            continue
        done.add(m.id)
        yield report(
            (sc.path, m.span),
            f"{m.id} appears in the scope but is not defined as a condition. Each condition must be a "
            f"list item that starts with its ID, for example {_example(m.id)}; a table row, heading, "
            "or prose mention does not define it.",
            _definition_fix(ctx, m.id),
        )


# A line that leads with one ID: a table row whose first cell is the ID, a
# heading, a list item or a plain line starting with it.
_LEAD_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?P<heading>#{1,6})[ \t]+|(?P<bullet>(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)"
    r"|(?P<table>\|)[ \t]*)?(?P<id>" + _ID_TOKEN + r")(?P<rest>.*)$"
)
_SEPARATOR_RE = re.compile(r"^[ \t]*(?::|-|\u2013|\u2014|\.)?[ \t]*")


def _condition_text(m: re.Match) -> Optional[str]:
    """The condition a leading line states after its ID, or None when it
    states none (or a table row holds more than one other cell)."""
    rest = m.group("rest")
    if m.group("table"):
        cells = rest.split("|")
        if cells[0].strip():
            return None  # the first cell holds more than the ID
        cells = [c.strip() for c in cells[1:]]
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) != 1:
            return None
        text = cells[0]
    else:
        if m.group("heading"):
            rest = re.sub(r"[ \t]+#+[ \t]*$", "", rest)
        text = _SEPARATOR_RE.sub("", rest, count=1).strip()
    return text or None


def _definition_fix(ctx: Context, ac_id: str) -> Optional[Fix]:
    """Rewrite the one line of the scope that leads with *ac_id* (a table
    row, heading, plain line or list item without its colon) into the
    definition form the protocol fixes, ``- `AC-NNN`: <its text>``
    (Acceptance Traceability, rule 1).  None when no line or several lead
    with it, when the line states no condition, or when defining it would
    raise a finding the scope does not have now (a condition the design or a
    completed record would then have to account for)."""
    return _cached_fix(ctx, ("define", ac_id), lambda: _build_definition_fix(ctx, ac_id))


def _cached_fix(ctx: Context, key: tuple, build) -> Optional[Fix]:
    """A fix computed once per project (several findings offer it), and
    never for a "what if" context."""
    if not ctx.fixes:
        return None
    cache = ctx.project.__dict__.setdefault("_standards_lint_acceptance", {})
    if key not in cache:
        cache[key] = build()
    return cache[key]


def _conflicted(ctx: Context, path: str) -> bool:
    """The file holds merge-conflict markers: a person resolves it, no fix."""
    doc = ctx.project.doc(path)
    return doc is None or bool(doc.conflicts)


def _build_definition_fix(ctx: Context, ac_id: str) -> Optional[Fix]:
    sc = ctx.scope
    if _conflicted(ctx, sc.path):
        return None
    text = ctx.project.text(sc.path) or ""
    candidates = []
    for mention in sc.present:
        if mention.id != ac_id or mention.definition:
            continue
        start = text.rfind("\n", 0, mention.span.start) + 1
        end = text.find("\n", mention.span.start)
        end = len(text) if end == -1 else end
        if end > start and text[end - 1] == "\r":
            end -= 1
        m = _LEAD_RE.match(text[start:end])
        if m is None or start + m.start("id") > mention.span.start or mention.span.start >= start + m.end("id"):
            continue
        candidates.append((start, end, m))
    if len(candidates) != 1:
        return None
    start, end, m = candidates[0]
    condition = _condition_text(m)
    if condition is None:
        return None
    prefix = m.group("indent") + m.group("bullet") if m.group("bullet") else "- "
    line = f"{prefix}`{ac_id}`: {condition}"
    new_text = text[:start] + line + text[end:]
    if not _harmless(ctx, new_text):
        return None
    return Fix((Edit(sc.path, start, end, line),), "unsafe", f"Define {ac_id} as a list item: {line}")


def _harmless(ctx: Context, new_scope_text: str) -> bool:
    """Whether the scope as *new_scope_text* raises no acceptance finding
    in a file beyond those it raises now."""
    alt = attrs.evolve(ctx, scope=scope_model(scan_text(ctx.scope.path, new_scope_text)), fixes=False)
    now = attrs.evolve(ctx, fixes=False)
    for check in _SCOPE_CHECKS:
        before: dict[str, int] = {}
        for d in check(now):
            before[d.path] = before.get(d.path, 0) + 1
        after: dict[str, int] = {}
        for d in check(alt):
            after[d.path] = after.get(d.path, 0) + 1
        if any(n > before.get(p, 0) for p, n in after.items()):
            return False
    return True


@rule(
    code="SL702",
    name="acceptance-id-defined-twice",
    section="Acceptance Traceability",
    owner="record",
    summary="An AC-NNN identifier is defined by more than one list item of the scope.",
    explanation="""
**What it does.** Reports an identifier that starts more than one current
condition, or more than one retired entry, in the active cycle's scope.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 1: Scoper represents
obligations "as one or more acceptance conditions with stable, unique
`AC-NNN` identifiers for the active cycle." Two conditions with one ID make
every downstream reference ambiguous.

**Fix safety.** Sometimes (safe): later list items that are exact copies of the first
definition (with their continuation lines) are removed, nothing is lost.
Differing texts, or a scope holding merge-conflict markers, have no fix: give one of the conditions a new ID with
`node .standards/bin/id.mjs next AC <scope>`, or merge them.
""",
    bad_example="- `AC-001`: Users can search by name.\n- `AC-001`: Results are sorted.",
    good_example="- `AC-001`: Users can search by name.\n- `AC-002`: Results are sorted.",
    fix="sometimes",
    help="Give one of the conditions a new ID with `node .standards/bin/id.mjs next AC <scope>`, or merge them.",
    no_fix_reason="Copies with different texts: which wording is meant is Scoper's call (give one a new ID, or merge them).",
)
def acceptance_id_defined_twice(project):
    yield from _acceptance_id_defined_twice(analysis(project))


def _acceptance_id_defined_twice(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    sc = ctx.scope
    reported = set()
    for group in (sc.current, sc.retired):
        for ac_id, defs in group.items():
            if len(defs) > 1 and ac_id not in reported:
                reported.add(ac_id)
                yield report(
                    (sc.path, defs[1].span),
                    f"{ac_id} is defined more than once (first on line {defs[0].span.line}). "
                    "Acceptance identifiers must be unique within the cycle.",
                    _duplicate_fix(ctx, ac_id, defs) if ctx.fixes else None,
                )


_ITEM_START_RE = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]")


def _item_block(text: str, line_start: int) -> tuple[int, int, str]:
    """(start, end, text) of the list item whose first line starts at
    *line_start*: that line and its continuation lines, up to a blank line,
    a heading or a list item no deeper than it; *end* includes the last
    line's ending."""
    def line_at(pos: int) -> tuple[str, int]:
        nl = text.find("\n", pos)
        return (text[pos:], len(text)) if nl == -1 else (text[pos:nl], nl + 1)

    first, end = line_at(line_start)
    m = _ITEM_START_RE.match(first)
    depth = len(m.group(1)) if m else 0
    while end < len(text):
        line, nxt = line_at(end)
        s = line.rstrip("\r")
        if not s.strip() or _HEADING_RE.match(s) or _FENCE_RE.match(s):
            break
        sub = _ITEM_START_RE.match(s)
        if sub and len(sub.group(1)) <= depth:
            break
        end = nxt
    return line_start, end, text[line_start:end]


def _blank(text: str, start: int, end: int) -> bool:
    return not text[start:end].strip()


def _duplicate_fix(ctx: Context, ac_id: str, defs: list) -> Optional[Fix]:
    """Remove the later list items defining *ac_id* when each is an exact
    copy of the first (line by line, trailing blanks aside): no text is lost.
    None when a copy differs (which wording is meant is Scoper's call) or
    two definitions share a line."""
    sc = ctx.scope
    if _conflicted(ctx, sc.path):
        return None
    text = ctx.project.text(sc.path) or ""
    starts = [text.rfind("\n", 0, d.span.start) + 1 for d in defs]
    if len(set(starts)) != len(starts):
        return None
    blocks = [_item_block(text, s) for s in starts]
    norm = lambda b: [l.rstrip() for l in b[2].rstrip("\r\n").split("\n")]
    if any(norm(b) != norm(blocks[0]) for b in blocks[1:]):
        return None
    edits = []
    for start, end, _ in blocks[1:]:
        # A copy standing between blank lines takes one of them along.
        prev = text.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
        after = text.find("\n", end)
        after = len(text) if after == -1 else after + 1
        if start > 0 and _blank(text, prev, start) and _blank(text, end, after):
            start = prev
        edits.append(Edit(sc.path, start, end, ""))
    if any(a.end > b.start for a, b in zip(edits, edits[1:])):
        return None
    return Fix(tuple(edits), "safe", f"Remove the {'copies' if len(edits) > 1 else 'copy'} of the {ac_id} definition")


@rule(
    code="SL703",
    name="acceptance-id-current-and-retired",
    section="Acceptance Traceability",
    owner="record",
    summary="An AC-NNN identifier is both a current condition and a retired one.",
    explanation="""
**What it does.** Reports an identifier that the scope defines as a current
condition and also lists under `## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "Removed or replaced
identifiers remain in the scope's retired-identifier record [...] Never
renumber surviving identifiers or reuse retired ones within the cycle."

**Fix safety.** No fix: a new or replaced condition needs a new ID, and only
Scoper knows which entry is stale.
""",
    bad_example="- `AC-003`: Search is fast.\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Split.",
    good_example="- `AC-004`: Search is fast.\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Split.",
    help="Give the new or replaced condition a new ID, and keep the retired entry under Previous Cycles.",
    no_fix_reason="A new or replaced condition needs a new ID, and only Scoper knows which entry is stale.",
)
def acceptance_id_current_and_retired(project):
    yield from _acceptance_id_current_and_retired(analysis(project))


def _acceptance_id_current_and_retired(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    sc = ctx.scope
    for ac_id, defs in sc.current.items():
        if ac_id in sc.retired:
            yield report(
                (sc.path, defs[0].span),
                f"{ac_id} is both current and retired (retired on line {sc.retired[ac_id][0].span.line}). "
                "Retired identifiers are never reused; give the condition a new ID.",
            )


@rule(
    code="SL704",
    name="previous-cycles-not-last",
    section="Acceptance Traceability",
    owner="record",
    summary="`## Previous Cycles` in the scope is not the last section, or holds all the conditions.",
    explanation="""
**What it does.** In a scope reused across cycles, reports conditions under
`## Previous Cycles` numbered after every current condition (a sign that this
cycle's conditions were written below that heading), and a scope whose only
conditions are under `## Previous Cycles`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 3: "numbering continues
from the highest identifier ever used in that document. Move the earlier
cycle's conditions [...] under a `## Previous Cycles` heading that stays the
document's last section [...] Everything under that heading is history, not
current obligations."

**Fix safety.** No fix: moving sections changes which conditions are current.
""",
    bad_example="## Work\n\n- `AC-004`: Now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.\n\n## More work\n\n- `AC-005`: Also now.",
    good_example="## Work\n\n- `AC-004`: Now.\n- `AC-005`: Also now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.",
    help="Keep `## Previous Cycles` last, holding only retired conditions.",
    no_fix_reason="Moving sections changes which conditions are current.",
)
def previous_cycles_not_last(project):
    yield from _previous_cycles_not_last(analysis(project))


def _previous_cycles_not_last(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    sc = ctx.scope
    if not sc.previous:
        return
    if not sc.current:
        yield report(
            _where(sc.scan, PREVIOUS_TITLE),
            'has conditions only under Previous Cycles. Keep "## Previous Cycles" as the document\'s '
            "last section, with this cycle's conditions above it.",
        )
        return
    top = max(int(i[3:]) for i in sc.current)
    for ac_id, defs in sc.previous.items():
        if int(ac_id[3:]) > top:
            yield report(
                (sc.path, defs[0].span),
                f"{ac_id} is under Previous Cycles but numbered after this cycle's conditions. Keep "
                "\"## Previous Cycles\" as the document's last section, with this cycle's conditions above it.",
            )


@rule(
    code="SL705",
    name="documentation-cycle-without-conditions",
    section="Documentation Cycle Contract",
    owner="record",
    summary="A DOCUMENTATION cycle past SCOPING has a scope with no current acceptance condition.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle that has passed `SCOPING` (or
resumed from it), reports a scope that defines no current `AC-NNN` condition.

**Why.** PROTOCOL.md, Documentation Cycle Contract: "Scoper defines
audiences, documentation targets, editing boundaries, and acceptance
conditions", and before sign-off "Every current `AC-NNN` and relevant
technical criterion must have sufficient current evidence." A documentation
scope without conditions leaves nothing for the later roles to trace.

**Fix safety.** No fix: Scoper writes the conditions.
""",
    bad_example="# Greeting guide\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Retired old title.",
    good_example="# Greeting guide\n\n- `AC-001`: Explain the command and its output.",
    help="Write the cycle's current acceptance conditions in the scope.",
    no_fix_reason="Scoper writes the conditions.",
)
def documentation_cycle_without_conditions(project):
    yield from _documentation_cycle_without_conditions(analysis(project))


def _documentation_cycle_without_conditions(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx) or ctx.mode != "DOCUMENTATION":
        return
    if ctx.scope.current:
        return
    if ctx.before("SCOPING") or ctx.from_held("SCOPING"):
        yield report(
            _doc_anchor(project, ctx.scope.path),
            "A DOCUMENTATION cycle needs current acceptance conditions after SCOPING completes; this "
            "scope defines none.",
        )


@rule(
    code="SL750",
    name="acceptance-numbering-not-continued",
    section="Acceptance Traceability",
    owner="record",
    summary="In a reused scope, a condition of this cycle is numbered at or below an identifier under Previous Cycles.",
    explanation="""
**What it does.** In a scope that keeps earlier cycles under `## Previous
Cycles`, reports each current or retired condition of this cycle whose number
is not above every identifier used under `## Previous Cycles`. (When a
condition under `## Previous Cycles` is numbered above all of this cycle's
conditions, SL704 reports the misplaced heading instead, and this rule stays
silent.)

**Why.** PROTOCOL.md, Acceptance Traceability, rule 3: "When a cycle reuses
a canonical scope document that already holds another cycle's acceptance
conditions, numbering continues from the highest identifier ever used in that
document. [...] Everything under that heading is history, not current
obligations, and its identifiers are never used again in that document."
`node .standards/bin/id.mjs next AC <scope>` always hands out a number above
the highest one used.

**Fix safety.** No fix: renumbering a condition changes the references every
downstream record makes to it; Scoper must do it deliberately.
""",
    beyond_checker=True,
    bad_example="- `AC-002`: Export results.\n\n## Previous Cycles\n\n- `AC-001`: Search by name.\n- `AC-002`: Sort results.",
    good_example="- `AC-003`: Export results.\n\n## Previous Cycles\n\n- `AC-001`: Search by name.\n- `AC-002`: Sort results.",
    help="Renumber this cycle's condition above every identifier under Previous Cycles, and update every reference to it.",
    no_fix_reason="Renumbering a condition changes the references every downstream record makes to it; Scoper must do it deliberately.",
)
def acceptance_numbering_not_continued(project):
    yield from _acceptance_numbering_not_continued(analysis(project))


def _acceptance_numbering_not_continued(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    sc = ctx.scope
    history = [m for m in sc.scan.mentions if m.previous]
    if not history or not sc.current:
        return
    top_current = max(int(i[3:]) for i in sc.current)
    if any(int(i[3:]) > top_current for i in sc.previous):
        return  # SL704 reports the misplaced Previous Cycles heading
    highest = max(history, key=lambda m: m.number)
    for group in (sc.current, sc.retired):
        for ac_id, defs in group.items():
            if int(ac_id[3:]) <= highest.number:
                yield report(
                    (sc.path, defs[0].span),
                    f"{ac_id} is numbered at or below {highest.id}, which is already used under Previous "
                    f"Cycles (line {highest.span.line}). Numbering continues from the highest identifier ever "
                    "used in the document; get a new ID with `node .standards/bin/id.mjs next AC <scope>`.",
                )


# -- rules: downstream references -----------------------------------------------------
@rule(
    code="SL710",
    name="undefined-acceptance-reference",
    section="Acceptance Traceability",
    owner="record",
    summary="A design or cycle record mentions an AC-NNN identifier the scope does not define.",
    explanation="""
**What it does.** Checks every `AC-NNN` in the active cycle's design and
records (the development plan, verification, review, documentation and
synchronization records) against the scope: current, retired and previous
cycles' conditions are known; anything else is reported. A mention the scope
makes without defining it is reported as such. In the design, the history
under `## Previous Cycles` is skipped.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 6: "All downstream
coverage, work, and evidence references the same current IDs; downstream
roles do not invent substitute requirement IDs", and rule 4: "Downstream
roles reference IDs but do not redefine intent."

**Fix safety.** Sometimes (unsafe). A mention of an ID the scope mentions without
defining carries SL701's fix (the scope line rewritten into a definition),
when that fix exists. In a design or record held to account for every current
condition that mentions exactly one unknown ID, named by no other record, and
misses exactly one current condition, the unknown ID is respelt as the missing one (a miscopied
reference). Otherwise no fix: the reference may be a typo, a stale ID or a
condition the scope still lacks.
""",
    bad_example="| AC-009 | test/search.test.js | passed |   (the scope defines AC-001 and AC-002)",
    good_example="| AC-001 | test/search.test.js | passed |",
    fix="sometimes",
    help="Reference only conditions the scope defines: correct the ID, or have the scope define the condition.",
    no_fix_reason="Anything but one unknown ID and one missing condition in the same file: the reference may be a typo, a stale ID or a condition the scope still lacks.",
)
def undefined_acceptance_reference(project):
    ctx = analysis(project)
    if not _traced(ctx):
        return
    sc = ctx.scope
    defined = sc.defined
    appears = sc.appears
    for scan, is_design in _other_files(ctx):
        done = set()
        for m in scan.mentions:
            if is_design and m.previous:
                continue
            if m.id in defined or m.id in done:
                continue
            done.add(m.id)
            if m.id in appears:
                msg = (
                    f"mentions {m.id}, which appears in the scope {sc.path} but is not defined there as a "
                    f"condition. Each condition must be a list item that starts with its ID, for example "
                    f"{_example(m.id)}; a table row, heading, or prose mention does not define it."
                )
                fix = _definition_fix(ctx, m.id)
            else:
                msg = f"mentions {m.id}, which is not defined in the scope {sc.path}."
                fix = _respell_fix(ctx, scan.path)
            yield report((scan.path, m.span), msg, fix)


@rule(
    code="SL720",
    name="design-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="The completed design does not account for every current acceptance condition.",
    explanation="""
**What it does.** Once the cycle has passed `ARCHITECTING` (or resumed from
it), reports each current `AC-NNN` of the scope that the design named by
`Active Work.Architecture` never mentions (history under `## Previous
Cycles` does not count). During recovery the design is held only when
Architect handed off, and at Reviewer entry.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 5: "Architect accounts
for every current ID with technical design coverage or an explicit
no-architectural-impact disposition"; Documentation Cycle Contract:
"Architect accounts for each acceptance condition with relevant technical
coverage or an explicit no-architectural-impact disposition".

**Fix safety.** Sometimes (unsafe): when the design mentions exactly one ID the scope
never mentions and misses exactly this one condition (and no other
record names the unknown ID), the unknown ID is respelt as it (SL710 carries
the same fix). Otherwise no fix: the coverage is Architect's design decision.
""",
    bad_example="## Acceptance Coverage\n\n- `AC-001`: Name index.   (the scope also defines AC-002)",
    good_example="## Acceptance Coverage\n\n- `AC-001`: Name index.\n- `AC-002`: No architectural impact; Documenter owns it.",
    fix="sometimes",
    help='Account for the condition in the design, or state "No architectural impact" for it.',
    no_fix_reason="The coverage is Architect's design decision; only a single miscopied ID is respelt.",
)
def design_acceptance_coverage(project):
    yield from _design_acceptance_coverage(analysis(project))


def _design_acceptance_coverage(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    missing = _design_gaps(ctx)
    if not missing:
        return
    where = _where(ctx.design, COVERAGE_TITLE)
    if isinstance(where, str):
        where = _doc_anchor(project, ctx.design.path)
    for ac_id in missing:
        yield report(
            where,
            f'does not account for {ac_id}. Every current acceptance condition needs design coverage or '
            '"No architectural impact".',
            _respell_fix(ctx, ctx.design.path),
        )


def _design_gaps(ctx: Optional[Context]) -> Optional[list[str]]:
    """The current IDs the design does not account for, when it is held
    to account for every one (None when it is not)."""
    if not _traced(ctx) or ctx.design is None or not ctx.held("ARCHITECTING", own=False):
        return None
    covered = {m.id for m in ctx.design.mentions if not m.previous}
    return [i for i in ctx.scope.current if i not in covered]


def _complete_records(ctx: Context):
    """(record, owner state, Status field) of the COMPLETE verification,
    review, documentation and synchronization records of the cycle."""
    for r in ctx.records:
        if ctx.design is not None and r.path == ctx.design.path:
            continue
        owner = OWNER_STATE.get((r.artifact, r.review_kind))
        if owner is None:
            continue
        status = _status(r)
        yield r, owner, status


def _evidence_ids(scan: Scan, artifact: str) -> set[str]:
    """IDs a record accounts for: outside Previous Cycles; a verification
    report accounts in its Acceptance Evidence section."""
    if artifact == "VERIFICATION":
        return {m.id for m in scan.mentions if not m.previous and m.section == EVIDENCE_TITLE}
    return {m.id for m in scan.mentions if not m.previous}


@rule(
    code="SL721",
    name="complete-record-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="A COMPLETE verification, review, documentation or synchronization record omits a current AC.",
    explanation="""
**What it does.** For each `COMPLETE` verification report, review report,
documentation record and synchronization record of the active cycle that
`check` holds to full coverage, reports every current `AC-NNN` of the scope
that the record does not mention. A verification report accounts for IDs in
its `## Acceptance Evidence` section; text under `## Previous Cycles` never
counts. Which records are held follows PROTOCOL.md, Runtime Tools and Hooks:
the current state's own records, the records of states the cycle has passed
(outside recovery), the records of the state named in `Handoff.From` after a
`RESUME` (or `FORWARD`), none while in `SCOPING` during recovery, and full
checks at Reviewer entry and sign-off. The turn-end check (`--turn-end`)
leaves the current state's own records to its role and, during recovery,
holds those of the state named in `Handoff.From` after a `FORWARD`,
`CHECKPOINT`, `RESUME` or `FAILURE` handoff (`standards_lint.holding`).

**Why.** PROTOCOL.md, Acceptance Traceability, rule 7: "Tester accounts for
every current ID with verification evidence, a blocker, or [...] a pending
dependency", rule 9: acceptance changes "invalidate any completed downstream
artifact whose completion contract requires accounting for every current
ID"; the review, documentation and synchronization templates each say to
account for every current AC.

**Fix safety.** Sometimes (unsafe): when the record mentions exactly one ID the scope
never mentions (a verification report, in its Acceptance Evidence) and misses
exactly this one condition (and no other record names the unknown ID), the
unknown ID is respelt as it. Otherwise no fix: the owning role must assess the
missing condition.
""",
    bad_example="`Status`: `COMPLETE`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |   (the scope also defines AC-002)",
    good_example="`Status`: `COMPLETE`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |\n| AC-002 | pending Documenter | pending |",
    fix="sometimes",
    help="Assess the missing acceptance condition in the record before it is COMPLETE.",
    no_fix_reason="The owning role must assess the missing condition; only a single miscopied ID is respelt.",
)
def complete_record_acceptance_coverage(project):
    yield from _complete_record_acceptance_coverage(analysis(project))


def _complete_record_acceptance_coverage(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    for r, owner, status in _complete_records(ctx):
        for ac_id in _complete_gaps(ctx, r, owner, status) or ():
            yield report(
                (r.path, status.value_span),
                f"is COMPLETE but does not account for {ac_id}, a current acceptance condition of the "
                f"scope {ctx.scope.path}.",
                _respell_fix(ctx, r.path),
            )


def _complete_gaps(ctx: Context, r, owner: str, status) -> Optional[list[str]]:
    """The current IDs a COMPLETE record held to full coverage does not
    account for (None when the record is not so held)."""
    if status is None or status.value != "COMPLETE" or not ctx.held(owner, own=True):
        return None
    covered = _evidence_ids(_record_scan(ctx, r), r.artifact)
    return [i for i in ctx.scope.current if i not in covered]


@rule(
    code="SL722",
    name="partial-assessment-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="An increment assessment in TESTING does not account for every current AC.",
    explanation="""
**What it does.** While the cycle is in `TESTING`, reports each current
`AC-NNN` missing from the `## Acceptance Evidence` section of a verification
report whose `Assessment Purpose` is `INCREMENT` and that is not yet
`COMPLETE`. The turn-end check (`--turn-end`) leaves Tester's own report to
Tester and instead holds the report a turn handed back from `TESTING` (after
a `CHECKPOINT`, `RESUME`, `FAILURE` or valid `FORWARD`), whatever its
purpose: "a checkpoint or scoped corrective return does not assert full
phase completion", but the partial record still accounts for every ID.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 7: "Tester accounts for
every current ID [...] During partial development, `AWAITING_IMPLEMENTATION`
identifies approved future steps or increments [...] Pending and awaiting
implementation are not verification evidence and must be resolved under the
same ID." An increment assessment still lists every current ID, with the
not-yet-implemented ones as `AWAITING_IMPLEMENTATION`.

**Fix safety.** Sometimes (unsafe): when the report's Acceptance Evidence mentions
exactly one ID the scope never mentions and misses exactly this one
condition (and no other record names the unknown ID), the unknown ID is
respelt as it. Otherwise no fix: Tester records the disposition.
""",
    bad_example="`Assessment Purpose`: `INCREMENT`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |",
    good_example="`Assessment Purpose`: `INCREMENT`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |\n| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
    fix="sometimes",
    help="Record the increment assessment's disposition for every current acceptance condition.",
    no_fix_reason="Tester records the disposition; only a single miscopied ID is respelt.",
)
def partial_assessment_acceptance_coverage(project):
    yield from _partial_assessment_acceptance_coverage(analysis(project))


def _partial_assessment_acceptance_coverage(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    for r in ctx.records:
        missing = _partial_gaps(ctx, r)
        if not missing:
            continue
        purpose = _single(r.doc.header, "Assessment Purpose")
        where = (r.path, purpose.value_span) if purpose is not None else _where(_record_scan(ctx, r), EVIDENCE_TITLE)
        for ac_id in missing:
            yield report(
                where,
                f"the partial assessment does not account for {ac_id}. List every current acceptance "
                "condition in Acceptance Evidence, with AWAITING_IMPLEMENTATION for work still to come.",
                _respell_fix(ctx, r.path),
            )


def _partial_gaps(ctx: Context, r, purpose: Optional[str] = "") -> Optional[list[str]]:
    """The current IDs a partial verification report that must still list
    every condition does not account for (None when it need not).  *purpose*
    overrides the report's `Assessment Purpose` (None: unknown)."""
    if r.artifact != "VERIFICATION" or r.path != record_path("VERIFICATION", ctx.cycle):
        return None  # a second VERIFICATION record elsewhere is the record-path rules' finding
    status = _status(r)
    if status is not None and status.value == "COMPLETE":
        return None
    if purpose == "":
        found = _single(r.doc.header, "Assessment Purpose")
        purpose = found.value if found is not None else None
    if not ctx.hold.partial("TESTING", purpose):
        return None
    covered = _evidence_ids(_record_scan(ctx, r), r.artifact)
    return [i for i in ctx.scope.current if i not in covered]


def partial_gaps_for(project, path: str, purpose: Optional[str]) -> bool:
    """Whether the verification report at *path*, with *purpose* as its
    `Assessment Purpose`, would be a partial assessment missing a current
    condition (SL722): for fixes elsewhere that would change the purpose."""
    ctx = analysis(project)
    if not _traced(ctx):
        return False
    for r in ctx.records:
        if r.path == path:
            return bool(_partial_gaps(ctx, r, purpose))
    return False


def _gaps_of(ctx: Context, path: str) -> Optional[list[str]]:
    """The current IDs the design or record at *path* does not account for,
    under whichever coverage obligation holds it (None when none does)."""
    if ctx.design is not None and path == ctx.design.path:
        return _design_gaps(ctx)
    for r, owner, status in _complete_records(ctx):
        if r.path == path:
            found = _complete_gaps(ctx, r, owner, status)
            if found is not None:
                return found
    for r in ctx.records:
        if r.path == path:
            found = _partial_gaps(ctx, r)
            if found is not None:
                return found
    return None


def _respell_fix(ctx: Context, path: str) -> Optional[Fix]:
    """Respell the one identifier the design or record at *path* mentions
    that the scope never mentions as the one current condition the file is
    held to account for and does not (rule 6: downstream roles "do not invent
    substitute requirement IDs"; rules 5 and 7: they account for every
    current ID).  One unknown ID and one missing condition: the reference
    was miscopied.  None unless both are exactly one."""
    return _cached_fix(ctx, ("respell", path), lambda: _build_respell_fix(ctx, path))


def _build_respell_fix(ctx: Context, path: str) -> Optional[Fix]:
    missing = _gaps_of(ctx, path)
    if missing is None or len(missing) != 1 or _conflicted(ctx, path):
        return None
    files = {scan.path: (scan, is_design) for scan, is_design in _other_files(ctx)}
    if path not in files:
        return None
    scan, is_design = files[path]
    sc = ctx.scope
    unknown = [m for m in scan.mentions
               if not (is_design and m.previous) and m.id not in sc.defined and m.id not in sc.appears]
    if len({m.id for m in unknown}) != 1 or any(m.previous for m in unknown):
        return None
    # Another file naming the same unknown ID: the scope may be what changed
    # (a renumbered condition), and which side to respell is Scoper's call.
    for other, other_design in files.values():
        if other.path != path and any(m.id == unknown[0].id and not (other_design and m.previous) for m in other.mentions):
            return None
    record = next((r for r in ctx.records if r.path == path), None)
    if record is not None and record.artifact == "VERIFICATION" and not any(m.section == EVIDENCE_TITLE for m in unknown):
        return None  # the respelt mention would still not account for it
    old, new = unknown[0].id, missing[0]
    edits = tuple(Edit(path, m.span.start, m.span.end, new) for m in unknown)
    what = "design" if is_design else "record"
    return Fix(edits, "unsafe", f"Respell {old} as {new}, the one current condition the {what} does not account for")


# -- rules: expedited cycles ---------------------------------------------------------------
@rule(
    code="SL730",
    name="expedited-acceptance-ids",
    section="Expedited Cycle Contract",
    owner="record",
    summary="A record of an EXPEDITED cycle uses AC-NNN identifiers.",
    explanation="""
**What it does.** In an `EXPEDITED` cycle, reports every record of the cycle
that mentions `AC-NNN` identifiers.

**Why.** PROTOCOL.md, Acceptance Traceability: "`EXPEDITED` cycles do not
fabricate Scoper-owned acceptance conditions or substitute identifiers."
protocol/expedited.md, Expedited Cycle Contract: "Scope-level acceptance
traceability does not apply."

**Fix safety.** Sometimes (unsafe): in a development plan whose every AC mention is a
build step's `Acceptance` value listing only AC IDs, those values become
`EXPEDITED_REQUEST` (Developer template: "In `EXPEDITED`, use
`EXPEDITED_REQUEST` rather than fabricating acceptance IDs"). Otherwise no
fix: describe the work against `Active Work.Request` instead, or promote the
cycle.
""",
    bad_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`\n`Acceptance`: `AC-001`",
    good_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`",
    fix="sometimes",
    help="Describe the work against `Active Work.Request` instead of AC IDs, or promote the cycle.",
    no_fix_reason="Mentions outside the plan steps' `Acceptance` values: describe the work against `Active Work.Request` instead, or promote the cycle.",
)
def expedited_acceptance_ids(project):
    ctx = analysis(project)
    if ctx is None or ctx.mode != "EXPEDITED":
        return
    for r in project.records_of(ctx.cycle):
        scan = _record_scan(ctx, r)
        ids = scan.ids(scan.mentions)
        if ids:
            ids = sorted(ids, key=lambda i: (int(i[3:]), i))
            yield report(
                (r.path, scan.mentions[0].span),
                f"uses acceptance IDs ({', '.join(ids)}), but EXPEDITED cycles have none.",
                _expedited_request_fix(r, scan),
            )


_STEP_TITLE_RE = re.compile(r"^DEV-\d+(?!\d)")
_AC_LIST_RE = re.compile(r"^[ \t]*AC-\d+(?:[ \t]*,[ \t]*AC-\d+)*[ \t]*$")


def _expedited_request_fix(record, scan: Scan) -> Optional[Fix]:
    """In a development plan whose every AC mention is a build step's
    `Acceptance` value listing only AC IDs, set those values to
    `EXPEDITED_REQUEST` (Developer template: "In `EXPEDITED`, use
    `EXPEDITED_REQUEST` rather than fabricating acceptance IDs")."""
    if record.artifact != "DEVELOPMENT" or record.doc.conflicts:
        return None
    values = []
    doc = record.doc
    for sec in ([doc.header] if doc.header is not None else []) + list(doc.sections):
        for sub in sec.subsections:
            if not _STEP_TITLE_RE.match(sub.title):
                continue
            for f in sub.all_fields("Acceptance"):
                if _AC_LIST_RE.match(f.value):
                    values.append(f.value_span)
    if not values:
        return None
    if any(not any(v.start <= m.span.start and m.span.end <= v.end for v in values) for m in scan.mentions):
        return None
    edits = tuple(Edit(record.path, v.start, v.end, "EXPEDITED_REQUEST") for v in values)
    return Fix(edits, "unsafe", "Set the steps' `Acceptance` to `EXPEDITED_REQUEST` (an EXPEDITED cycle has no AC IDs)")


# -- rules: comparisons with the last commit ---------------------------------------------------
def _head_scope(ctx: Context) -> Optional[ScopeModel]:
    project = ctx.project
    if ctx.scope is None or project.head is None:
        return None
    text = project.head.read(ctx.scope.path)
    if text is None:
        return None
    return scope_model(scan_text(ctx.scope.path, text.lstrip("\ufeff")))


@rule(
    code="SL740",
    name="acceptance-id-deleted",
    section="Acceptance Traceability",
    owner="record",
    summary="An acceptance identifier defined in the last commit's scope has vanished from the scope.",
    explanation="""
**What it does.** Inside a git repository, compares the scope with its
version in the last commit and reports each identifier the commit defined
(current, retired or under `## Previous Cycles`) that the working scope no
longer defines anywhere.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "Removed or replaced
identifiers remain in the scope's retired-identifier record: list items in
the same form under a `## Retired Acceptance Identifiers` heading."

**Fix safety.** No fix: the retirement reason is Scoper's to write.
""",
    bad_example="(committed) - `AC-001`: Users can search.   (now) the line is deleted",
    good_example="## Retired Acceptance Identifiers\n\n- `AC-001`: Removed; search is out of scope.",
    help="Restore the condition, or retire it under `## Previous Cycles` with its reason.",
    no_fix_reason="The retirement reason is Scoper's to write.",
)
def acceptance_id_deleted(project):
    yield from _acceptance_id_deleted(analysis(project))


def _acceptance_id_deleted(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    head = _head_scope(ctx)
    if head is None:
        return
    now = ctx.scope.defined
    where = _where(ctx.scope.scan, RETIRED_TITLE)
    if isinstance(where, str):
        where = _doc_anchor(project, ctx.scope.path)
    for ac_id in sorted(head.defined, key=lambda i: (int(i[3:]), i)):
        if ac_id not in now:
            yield report(
                where,
                f'{ac_id} was in the last commit but is gone now. Move it under "Retired Acceptance '
                'Identifiers" instead of deleting it.',
            )


@rule(
    code="SL741",
    name="retired-acceptance-id-reused",
    section="Acceptance Traceability",
    owner="record",
    summary="An identifier retired in the last commit is a current condition again.",
    explanation="""
**What it does.** Inside a git repository, reports each current condition of
the scope whose identifier the last commit's scope listed under
`## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "New or materially
replaced conditions receive previously unused identifiers. [...] Never
renumber surviving identifiers or reuse retired ones within the cycle."

**Fix safety.** No fix: the condition needs a new ID from
`node .standards/bin/id.mjs next AC <scope>`.
""",
    bad_example="(committed) ## Retired Acceptance Identifiers\n- `AC-003`: Split.\n(now) - `AC-003`: Back again.",
    good_example="(now) - `AC-005`: Back again.",
    help="Give the condition a new ID from `node .standards/bin/id.mjs next AC <scope>`.",
    no_fix_reason="The condition needs a new ID from `node .standards/bin/id.mjs next AC <scope>`.",
)
def retired_acceptance_id_reused(project):
    yield from _retired_acceptance_id_reused(analysis(project))


def _retired_acceptance_id_reused(ctx: Optional[Context]):
    project = ctx.project if ctx is not None else None
    if not _traced(ctx):
        return
    head = _head_scope(ctx)
    if head is None:
        return
    for ac_id, defs in ctx.scope.current.items():
        if ac_id in head.retired:
            yield report(
                (ctx.scope.path, defs[0].span),
                f"{ac_id} was retired in the last commit and cannot be used again; give the condition a new ID.",
            )


# The rules whose findings follow from the scope's conditions: a fix that
# defines a condition must not raise one of them anywhere (_harmless).
_SCOPE_CHECKS = (
    _acceptance_id_defined_twice,
    _acceptance_id_current_and_retired,
    _previous_cycles_not_last,
    _documentation_cycle_without_conditions,
    _acceptance_numbering_not_continued,
    _design_acceptance_coverage,
    _complete_record_acceptance_coverage,
    _partial_assessment_acceptance_coverage,
    _acceptance_id_deleted,
    _retired_acceptance_id_reused,
)

standards_lint_rules = module_rules(globals())
