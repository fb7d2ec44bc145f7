"""The development plan and the workflow position it depends on (PROTOCOL.md,
Development Plan; protocol/verification.md: Verification Cadence): the plan's
header, steps, increments and suspended assignments, the current increment,
checkpoints, and the Tester's assignment."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Iterator, Optional
import weakref

from standards_lint.syntax.ast import Container, Document, Field, Span
from standards_lint.model.holding import holding, reviewer_entered
from standards_lint.syntax.protocol import CYCLE_ID_RE, USABLE_CYCLE_ID_RE, ROUTE_STANDARD_BROWNFIELD, TERMINAL_STATES, record_path
from standards_lint.syntax.records import provenance_of


PLAN_STATUSES = ("PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE")
STEP_STATUSES = ("PENDING", "IN_PROGRESS", "DONE")


PLAN_CADENCES = ("AFTER_IMPLEMENTATION", "INCREMENTAL")
STEP_RE = re.compile(r"^(DEV-\d+)(?![\d])")


INCREMENT_RE = re.compile(r"^Increment (\d+)$")
SUSPENDED_RE = re.compile(r"^Suspended Assignment (\d+)$")


DEV_ID_RE = re.compile(r"^DEV-\d+$")
AC_ID_RE = re.compile(r"^AC-\d+$")


POSITIVE_RE = re.compile(r"^[1-9]\d*$")
REASON_INCREMENT_RE = re.compile(r"\bIncrement (\d+)\b")


# States after DEVELOPING on the implementation routes.
_AFTER_DEVELOPING = ROUTE_STANDARD_BROWNFIELD[ROUTE_STANDARD_BROWNFIELD.index("DEVELOPING") + 1:]


REVIEWER_OR_LATER = _AFTER_DEVELOPING[1:]


def cycle_id(project) -> Optional[str]:
    """The active cycle's ID, when STATE.md names a well-formed one."""
    st = project.state
    if st is None:
        return None
    cid = st.aw("Id")
    if cid and cid not in ("UNSET", "NONE") and USABLE_CYCLE_ID_RE.match(cid):
        return cid
    return None


def record_at(project, path: str, artifact: str, cid: str, review_kind: Optional[str] = None) -> Optional[Document]:
    """The file at *path* when its provenance block makes it a record of
    *artifact* (and *review_kind*, when given) for cycle *cid*; None when
    there is no such file or it is another record."""
    if project.kind(path) != "file":
        return None
    doc = project.doc(path)
    prov = provenance_of(doc) if doc is not None else None
    if prov is None or prov[0] != artifact or prov[1] != cid or (review_kind is not None and prov[2] != review_kind):
        return None
    return doc


def cycle_record(project, artifact: str) -> Optional[Document]:
    """The active cycle's record of *artifact* at its fixed path, when it is
    a valid record of that artifact and cycle (otherwise others report the
    collision and its content is not this cycle's)."""
    cid = cycle_id(project)
    doc = record_at(project, record_path(artifact, cid), artifact, cid) if cid is not None else None
    return scan_fields(doc) if doc is not None else None


# A field pair, its name perhaps emphasised (`*`Status`*: `IN_PROGRESS``):
# emphasis around a field's name is no prose before the next field.
_FIELD_PAIR_RE = re.compile(r"(?:\*\*|\*|__|_)?`[^`\n]+`(?:\*\*|\*|__|_)?:[ \t]*(?:\r?\n[ \t]*)?`[^`]*`")
_EMBEDDED: "weakref.WeakSet[Field]" = weakref.WeakSet()


def scan_fields(doc: Document) -> Document:
    """Mark the field pairs of *doc* that sit inside a sentence of prose
    (something other than fields precedes them on their line): those are
    mentions, not fields.  HTML comments are no prose: a field after a
    comment on its line (or after the end of a comment that began on an
    earlier line) is still a field, as the framework reads it."""
    text = doc.text
    if doc.comments:  # blank out comments, keeping every offset
        chars = list(text)
        for c in doc.comments:
            for i in range(c.span.start, c.span.end):
                if chars[i] != "\n":
                    chars[i] = " "
        text = "".join(chars)
    last_end = 0
    for f in sorted(doc.fields, key=lambda g: g.span.start):
        start = max(text.rfind("\n", 0, f.span.start) + 1, last_end)
        before = _FIELD_PAIR_RE.sub("", text[start:f.span.start])
        if before.strip():
            _EMBEDDED.add(f)
        last_end = max(last_end, f.span.end)
    return doc


def _in_field_line(f: Field) -> bool:
    return f not in _EMBEDDED


def fields(container: Optional[Container], name: str) -> list[Field]:
    """Fields *name* of *container* that stand on field lines."""
    if container is None:
        return []
    return [f for f in container.all_fields(name) if _in_field_line(f)]


def one_field(container: Optional[Container], name: str) -> Optional[Field]:
    """The field when it occurs exactly once with a nonempty value."""
    if container is None:
        return None
    found = fields(container, name)
    if len(found) != 1 or not found[0].value.strip():
        return None
    return found[0]


def agreed_field(container: Optional[Container], name: str) -> Optional[Field]:
    """The field's first occurrence when every occurrence has the same
    nonempty value (other rules report the repetition)."""
    if container is None:
        return None
    found = fields(container, name)
    if not found or not found[0].value.strip() or any(f.value != found[0].value for f in found):
        return None
    return found[0]


def fields_not_once(container: Optional[Container], names) -> Iterator[tuple[str, list[Field]]]:
    """(name, the fields found) for each of *names* that *container* does not
    hold exactly once with a nonempty value (missing, empty or repeated)."""
    for name in names:
        found = fields(container, name)
        if len(found) != 1 or not found[0].value.strip():
            yield name, found


def listed_ids(field: Optional[Field]) -> list[str]:
    """The comma-separated entries of a field's value, trimmed (none when
    the field is missing)."""
    if field is None:
        return []
    return [s.strip() for s in field.value.split(",") if s.strip()]


def value_of(container: Optional[Container], name: str) -> Optional[str]:
    """The field's value as written between its backticks (a padded
    `` `COMPLETE ` `` is not COMPLETE), None when missing, repeated or empty."""
    f = one_field(container, name)
    return f.value if f is not None else None


def block_text(doc: Document, container: Container) -> tuple[str, int]:
    """Raw text of a ``###`` subsection (or ``##`` section) after its
    heading line, up to the next heading of the same or a higher level;
    returns (text, offset of the text)."""
    head = container.heading
    if head is None:
        return "", 0
    start = head.span.end
    end = len(doc.text)
    for h in doc.headings:
        if h.span.start > head.span.start and h.level <= max(head.level, 3) and h.level >= 2:
            end = h.span.start
            break
    return doc.text[start:end], start


def labelled_block(doc: Document, container: Container, label: str) -> Optional[str]:
    """The text under a ``**Label**`` line of a subsection, up to the next
    bold label, rule or heading; None when the label is absent."""
    text, _ = block_text(doc, container)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == f"**{label}**":
            body = []
            for nxt in lines[i + 1:]:
                s = nxt.strip()
                if re.match(r"^\*\*[^*]+\*\*$", s) or s == "---":
                    break
                body.append(s)
            return "\n".join(body).strip()
    return None


def subsections(doc: Document) -> Iterator[Container]:
    """Every ``###`` subsection of *doc*, under its sections and its header."""
    for s in doc.sections:
        yield from s.subsections
    if doc.header is not None:
        yield from doc.header.subsections


class _Entry:
    """A ``###`` entry of the plan (a step or an increment)."""

    def __init__(self, doc: Document, container: Container):
        self.doc = doc
        self.container = container

    def at(self, field: Optional[Field]):
        """Where a finding about *field* of this entry points: the field's
        value, or the entry's heading when the field is missing."""
        return (self.doc.path, field.value_span) if field is not None else self.container.heading


class Step(_Entry):
    """A build step (``### DEV-NNN``) of the plan: its Status and its
    dependencies."""

    def __init__(self, doc: Document, container: Container, sid: str):
        super().__init__(doc, container)
        self.id = sid
        statuses = fields(container, "Status")
        # The first Status of a step counts (a repeated identical field is
        # harmless); prose mentions do not.
        self.status_field = statuses[0] if statuses else None
        self.status = self.status_field.value if self.status_field is not None else None
        deps = fields(container, "Depends On")
        self.deps_field = deps[0] if deps else None
        none = self.deps_field is not None and self.deps_field.value.strip() == "NONE"
        self.deps: list[str] = [] if none else listed_ids(self.deps_field)

    @property
    def done(self) -> bool:
        return self.status == "DONE"

    @property
    def valid_status(self) -> bool:
        return self.status in STEP_STATUSES

    def self_check(self) -> Optional[str]:
        return labelled_block(self.doc, self.container, "Self-Check")


class Increment(_Entry):
    """A verification increment (``### Increment N``) of the plan: its development
    steps and acceptance IDs."""

    def __init__(self, doc: Document, container: Container, number: int):
        super().__init__(doc, container)
        self.number = number
        self.steps_field = one_field(container, "Development Steps")
        self.acceptance_field = one_field(container, "Acceptance")

    @property
    def misheaded(self) -> bool:
        """Headed `###  Increment N` (indented, or not one space after the
        hashes): found, so its fields are checked, but no definition of
        Increment N, because the framework does not read it as one (SL820
        reports it, with the heading written as the template writes it)."""
        heading = self.container.heading
        return heading is not None and heading.spaced

    @property
    def steps(self) -> list[str]:
        return listed_ids(self.steps_field)

    @property
    def acceptance(self) -> list[str]:
        return listed_ids(self.acceptance_field)


class Plan:
    """The active cycle's development plan."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.path = doc.path
        self.header = doc.header
        self.steps: list[Step] = []
        self.increments: list[Increment] = []
        self.suspended: list[Container] = []
        # As the framework's checker reads a plan (``lexicon``): a step is a
        # `### DEV-NNN` heading wherever it stands (under a `# Build Steps`
        # written one level off too, and twice when a merge kept both
        # copies of `## Build Steps`), never a `####` one; increments are
        # read from the first `## Verification Increments` section only.
        increments = next((sec for sec in doc.sections if sec.title == "Verification Increments"), None)
        parents = ([doc.header] if doc.header is not None else []) + list(doc.sections)
        for sec in parents:
            for sub in sec.subsections:
                m = STEP_RE.match(sub.title)
                if m and sub.heading is not None and sub.heading.level == 3:
                    self.steps.append(Step(doc, sub, m.group(1)))
                    continue
                if m:
                    continue
                m = INCREMENT_RE.match(sub.title)
                if m and sec is increments:
                    self.increments.append(Increment(doc, sub, int(m.group(1))))
                    continue
                if SUSPENDED_RE.match(sub.title) and sec.title == "Plan Notes":
                    self.suspended.append(sub)

    @property
    def status(self) -> Optional[str]:
        return value_of(self.header, "Status")

    @property
    def cadence(self) -> Optional[str]:
        return value_of(self.header, "Verification Cadence")

    @property
    def current(self) -> Optional[str]:
        return value_of(self.header, "Current Increment")

    @cached_property
    def _steps_by_id(self) -> dict[str, Step]:
        """Each step ID with its first step (a later copy does not count)."""
        return {s.id: s for s in reversed(self.steps)}

    def step(self, sid: str) -> Optional[Step]:
        return self._steps_by_id.get(sid)

    def unknown_steps(self, ids: list[str]) -> list[str]:
        """The entries of *ids* that name no step of this plan, in order."""
        return [i for i in ids if i not in self._steps_by_id]

    @cached_property
    def _increments_by_number(self) -> dict[int, Increment]:
        """Each increment number with its first definition."""
        return {inc.number: inc for inc in reversed(self.defined_increments)}

    def increment(self, number: int) -> Optional[Increment]:
        """The definition of Increment *number* (a misheaded entry is none)."""
        return self._increments_by_number.get(number)

    @property
    def defined_increments(self) -> list[Increment]:
        """The increments that define their number (see Increment.misheaded)."""
        return [inc for inc in self.increments if not inc.misheaded]

    def closure(self, roots: list[str]) -> list[Step]:
        """The named steps and all their dependencies, in plan order."""
        seen: set[str] = set()
        todo = list(roots)
        while todo:
            sid = todo.pop()
            if sid in seen:
                continue
            s = self.step(sid)
            if s is None:
                continue
            seen.add(sid)
            todo.extend(s.deps)
        return [s for s in self.steps if s.id in seen]


def step_ids(doc: Document) -> set[str]:
    """The IDs of the steps of the development plan *doc*, read as
    :class:`Plan` reads them (a `### DEV-NNN` heading, never a `####` one):
    what a bare `DEV-NNN` in another record of the cycle can name."""
    return {s.id for s in Plan(scan_fields(doc)).steps}


def live_cycle(project) -> bool:
    """The active cycle is live (not signed off or cancelled)."""
    st = project.state
    if st is None or st.workflow_state in TERMINAL_STATES:
        return False
    # An unresolved merge conflict in STATE.md or MODE.md leaves the
    # workflow position unknown: stop here, as the protocol asks.
    mode = project.mode_doc
    if st.doc.conflicts or (mode is not None and mode.conflicts):
        return False
    return True


def load_plan(project) -> Optional[Plan]:
    """The live cycle's development plan (:class:`Plan`), or None when there is
    none at its path with this cycle's provenance."""
    if not live_cycle(project):
        return None
    path = plan_path(project)
    cid = cycle_id(project)
    doc = record_at(project, path, "DEVELOPMENT", cid) if path is not None and cid is not None else None
    return Plan(scan_fields(doc)) if doc is not None else None


def plan_entries(project, kind: str) -> Iterator[tuple[Plan, _Entry]]:
    """(the live plan, each of its *kind* entries) in plan order: *kind*
    ``"steps"`` (the ``### DEV-NNN`` steps) or ``"increments"`` (every
    ``### Increment N`` entry, misheaded ones included); nothing without a
    live plan."""
    plan = load_plan(project)
    for entry in getattr(plan, kind) if plan is not None else ():
        yield plan, entry


def header_anchor(doc: Document) -> Span:
    """Where to point for the plan's header: its title, else the start of the
    file."""
    if doc.title is not None:
        return doc.title.span
    return Span(1, 1, 1, 1, 0, 0)


def field_anchor(doc: Document, field: Optional[Field]) -> tuple[str, Span]:
    """Where a finding about a header field points: its value, or the title
    when the field is missing."""
    return (doc.path, field.value_span) if field is not None else (doc.path, header_anchor(doc))


def active_frames(st) -> list[Container]:
    """The recovery frames while ``Recovery.Active`` is ``true``, else none."""
    if st is None or st.recovery is None:
        return []
    if st.value(st.recovery, "Active") != "true":
        return []
    return list(st.frames)


def frame_value(frame: Container, name: str) -> Optional[str]:
    """The stripped value of field *name* of a recovery frame when it occurs once,
    else None."""
    return value_of(frame, name)


_FRAME_NUMBER_RE = re.compile(r"^\s*Frame\s+(\d+)\b")


def frame_number(frame: Container, position: int, *, literal: bool = False) -> str:
    """The number a frame is called by (``Recovery Frame`` of a suspended
    assignment names it): its heading's, even when the stack is misnumbered
    (SL503 reports that), else its position."""
    m = _FRAME_NUMBER_RE.match(frame.title)
    if literal and m and frame.heading is not None and frame.heading.closed:
        # `### Frame 2 ###`: the framework's suspended-assignment check reads
        # `2 ###` as the number, which no saved assignment's `Recovery
        # Frame` names (SL503 reports the heading); whether recovery is
        # scoped still reads the frame as Frame 2.
        return frame.heading.literal[len("Frame "):] if frame.heading.literal.startswith("Frame ") else m.group(1)
    return m.group(1) if m else str(position)


def checkpoint_increment(st) -> Optional[int]:
    """The increment a CHECKPOINT handoff's Reason names, when it names
    exactly one."""
    reason = st.ho("Reason") if st is not None else None
    if not reason:
        return None
    nums = set(REASON_INCREMENT_RE.findall(reason))
    if len(nums) != 1:
        return None
    return int(nums.pop())


def valid_checkpoint(st, direction_from: str) -> Optional[int]:
    """The increment of a well-formed CHECKPOINT handoff from
    *direction_from* (STANDARD cycle, FailureType NONE, no active recovery,
    a Reason naming one increment); None otherwise."""
    if st is None:
        return None
    if st.ho("Kind") != "CHECKPOINT" or st.ho("From") != direction_from:
        return None
    if st.cycle_mode != "STANDARD" or st.ho("FailureType") != "NONE":
        return None
    if st.recovery is not None and st.value(st.recovery, "Active") != "false":
        return None
    return checkpoint_increment(st)


def suspended_for(doc_suspended: list[Container], number: str, reason: Optional[str]) -> list[Container]:
    """Suspended assignments associated with a frame (number and reason)."""
    out = []
    for c in doc_suspended:
        if value_of(c, "Recovery Frame") == number and reason is not None and value_of(c, "Recovery Reason") == reason:
            out.append(c)
    return out


def scoped_developer(st, plan: Optional[Plan]) -> bool:
    """Recovery is active and the plan saves a suspended Developer
    assignment for one of the active frames: Developer's work is scoped and
    its full completion is not yet due."""
    if plan is None:
        return False
    frames = active_frames(st)
    for i, fr in enumerate(frames, 1):
        if suspended_for(plan.suspended, frame_number(fr, i), frame_value(fr, "Reason")):
            return True
    return False


def developer_unfinished_for_report(st, plan: Optional[Plan]) -> bool:
    """A COMPLETE verification report would certify unfinished
    implementation: the plan is readable but its Status is not `COMPLETE`
    (a Status the plan does not hold, as in a Markdown table row, is not
    `COMPLETE`) while the workflow is in TESTING, or while recovery is
    scoped (:func:`scoped_developer`).  "Only the full Tester gate permits a
    `COMPLETE` verification report", after Developer has marked the plan
    `COMPLETE` (PROTOCOL.md, Full Verification Boundary).  The steps' own
    Status is not asked: a COMPLETE plan with a step not DONE is the plan's
    problem, not the report's (``h3-0815``)."""
    if plan is None or plan.status == "COMPLETE" or st is None:
        return False
    return st.workflow_state == "TESTING"


def top_frame_in_correction(st) -> Optional[Container]:
    """The last active recovery frame while it is still being corrected
    (RerunThrough NONE)."""
    frames = active_frames(st)
    if frames and frame_value(frames[-1], "RerunThrough") == "NONE":
        return frames[-1]
    return None


class Assignment:
    """Tester's current assignment in TESTING: kind FULL, INCREMENT or
    CORRECTION; target the increment number for INCREMENT; restored when it
    comes from a suspended assignment on RESUME; scoped for a scoped
    correction."""

    def __init__(self, kind: str, target: Optional[str] = None, restored: bool = False, scoped: bool = False):
        self.kind = kind
        self.target = target
        self.restored = restored
        self.scoped = scoped


def report_suspended(report_doc: Optional[Document]) -> list[Container]:
    """The Suspended Assignment subsections of a verification report: those
    of its first `## Resume or Handoff` section, as the framework's checker
    reads them (a second copy of the section, as a merge that kept both
    sides leaves it, is not read: its entries neither repeat the first
    copy's numbers nor are checked; ``lexicon``)."""
    if report_doc is None:
        return []
    first = next((s for s in report_doc.sections if s.title == "Resume or Handoff"), None)
    if first is None:
        return []
    return [c for c in first.subsections if SUSPENDED_RE.match(c.title)]


def tester_assignment(project, plan: Optional[Plan], report_doc: Optional[Document], st=None) -> Optional[Assignment]:
    """*st*: read this STATE.md model instead of the project's (what a fix
    to STATE.md would make of it)."""
    st = st if st is not None else project.state
    if st is None or st.workflow_state != "TESTING":  # any mode: TESTING off the route is SL300's; its gate is known
        return None
    frames = active_frames(st)
    top = top_frame_in_correction(st)
    owned = [f for f in frames if frame_value(f, "Owner") == "TESTING" and frame_value(f, "RerunThrough") == "NONE"]
    if owned:
        if scoped_developer(st, plan):
            return Assignment("CORRECTION", scoped=True)
        return Assignment("FULL")
    if top is not None and st.ho("Kind") == "FORWARD":
        # Another owner's frame is still being corrected (WorkflowState must
        # be its Owner, SL507): a FORWARD into TESTING assigns Tester nothing,
        # and the plan is not yet held to completion.
        return None
    if st.ho("Kind") == "FAILURE" and st.ho("From") == "TESTING" and top is None:
        # A same-state correction resumes the partial assignment.
        return Assignment("SAME_STATE", scoped=True)
    if st.ho("Kind") == "RESUME":
        # "When the role receives its corresponding RESUME, restore the
        # assignment": the frame just popped is the one numbered after the
        # frames left, known only while the stack agrees with Recovery.Active
        # and is numbered in order; and a RESUME back from a state after
        # TESTING (a rerun that passed TESTING again) restores nothing.
        restorable = stack_in_order(st) and st.ho("From") not in REVIEWER_OR_LATER
        k = str(len(frames) + 1)
        saved = [c for c in report_suspended(report_doc) if value_of(c, "Recovery Frame") == k] if restorable else []
        if saved:
            last = saved[-1]
            purpose = value_of(last, "Purpose")
            target = value_of(last, "Target")
            if purpose in ("FULL", "CORRECTION"):
                return Assignment(purpose, target, restored=True)
            # An increment assessment is restored only for an increment the
            # plan defines; without one (no readable plan), Tester's
            # assignment is full verification.
            m = re.match(r"^Increment ([1-9]\d*)$", target or "")
            if purpose == "INCREMENT" and m and plan is not None and plan.increment(int(m.group(1))) is not None:
                return Assignment(purpose, target, restored=True)
        return Assignment("FULL")
    n = valid_checkpoint(st, "DEVELOPING")
    if n is not None:
        return Assignment("INCREMENT", f"Increment {n}")
    return Assignment("FULL")


def developer_completion_due(project, plan: Optional[Plan], st=None) -> bool:
    """The cycle is past DEVELOPING and no checkpoint or scoped recovery
    lets the plan stay unfinished.  *st*: as for :func:`tester_assignment`
    (decided only in TESTING; elsewhere the project's holding decides)."""
    st = st if st is not None else project.state
    if st is None or st.cycle_mode not in ("STANDARD", "EXPEDITED"):
        return False
    ws = st.workflow_state
    if ws not in _AFTER_DEVELOPING:
        return False
    top = top_frame_in_correction(st)
    h = holding(project)
    if (ws != "TESTING" and top is not None and frame_value(top, "Owner") not in _AFTER_DEVELOPING
            and not (h is not None and h.reviewer_entry_passed())):
        # An earlier owner still corrects: the plan may change again, unless a
        # FORWARD or RESUME has entered Reviewer, "even if another recovery
        # frame remains active" (Full Verification Boundary).
        return False
    if scoped_developer(st, plan) and not reviewer_entered(ws, st.ho("Kind")):
        return False
    if ws == "TESTING" and st.cycle_mode == "STANDARD":
        a = tester_assignment(project, plan, cycle_record(project, "VERIFICATION"), st=st)
        return a is not None and a.kind == "FULL"
    if h is not None and ws != "TESTING" and not h.full_gates_due():
        return False
    return True  # an EXPEDITED cycle moved off its route has still passed DEVELOPING


def stack_in_order(st) -> bool:
    """`Recovery.Active` agrees with the frames, numbered 1, 2, 3, ..."""
    active = st.value(st.recovery, "Active") if st.recovery is not None else None
    if active not in ("true", "false") or (active == "true") != bool(st.frames):
        return False
    return all(st.entry_number(fr, "Frame") == i for i, fr in enumerate(st.frames, 1))


def plan_path(project) -> Optional[str]:
    """Where this cycle's plan is: the path `Active Work.Development` names,
    else the fixed path of the active cycle's plan.  Findings about a plan
    that is missing or not this cycle's point here (the file may not exist)."""
    st = project.state
    ptr = st.aw("Development") if st is not None else None
    if ptr and ptr not in ("NONE", "UNSET") and ptr.endswith(".md"):
        return ptr
    cid = cycle_id(project)
    return record_path("DEVELOPMENT", cid) if cid is not None else None


def any_checkpoint(project) -> Optional[int]:
    """The increment of a well-formed CHECKPOINT handoff in either direction
    (Developer to Tester in TESTING, Tester to Developer in DEVELOPING)."""
    st = project.state
    if st is None:
        return None
    if st.workflow_state == "TESTING":
        return valid_checkpoint(st, "DEVELOPING")
    if st.workflow_state == "DEVELOPING":
        return valid_checkpoint(st, "TESTING")
    return None


def developer_checkpoint(project) -> Optional[int]:
    """The increment Developer handed to Tester by CHECKPOINT, when the
    workflow is in TESTING after such a handoff."""
    st = project.state
    if st is None or st.workflow_state != "TESTING":
        return None
    return valid_checkpoint(st, "DEVELOPING")
