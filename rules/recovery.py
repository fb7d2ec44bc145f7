"""Recovery Mechanics: the ``## Recovery`` stack and the ``## Outstanding
Obligations`` of ``.standards/STATE.md``.

Structure problems of the two sections themselves (a missing or repeated
section, an ``Active`` value that is not ``true``/``false``) belong to the
state-structure rules; handoff/frame agreement to the handoff rules; the
empty-stack requirement at sign-off to the cycle-mode rules.  Every rule here
treats a missing, repeated or invalid value as unknown and stays silent about
what depends on it.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

import attrs

from standards_lint.ast import Container, Field
from standards_lint.findings import Edit, Fix
from standards_lint.protocol import (
    CYCLE_ID_RE,
    FAILURE_TARGETS,
    FAILURE_TYPES,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    TERMINAL_STATES,
    WORKFLOW_STATES,
    record_path,
)
from standards_lint.rule import module_rules, replace, report, rule

# Documentation Cycle Contract: the included states (Documentation Brownfield
# route) and the included roles' states (every included state but the user's).
DOC_STATES = ROUTE_DOCUMENTATION
DOC_ROLES = tuple(s for s in ROUTE_DOCUMENTATION if s != "AWAITING_USER_SIGNOFF")
# Failure types whose owners (Developer, Tester) are omitted in DOCUMENTATION;
# REVIEW is handled apart: its only DOCUMENTATION owner is REVIEWING_FINAL.
DOC_UNROUTABLE = ("IMPLEMENTATION", "VERIFICATION")

_FRAME_HEAD = re.compile(r"^Frame (\d+)$")
_OBLIGATION_HEAD = re.compile(r"^Obligation (\d+)$")
_LOOSE_NUMBER = re.compile(r"^\s*(?:Frame|Obligation)\s+(\d+)\b")


# -- helpers ------------------------------------------------------------------
@attrs.frozen
class Value:
    """A frame field: its text (None when missing, or repeated with different
    values) and the field node to point at (the first occurrence)."""

    text: Optional[str]
    field: Optional[Field]


@attrs.frozen
class Frame:
    container: Container
    position: int  # 1-based position in the stack
    label: int  # the number it is called by: its heading's, else its position
    last: bool

    def get(self, name: str) -> Value:
        found = self.container.all_fields(name)
        if not found:
            return Value(None, None)
        values = {f.value for f in found}
        return Value(found[0].value if len(values) == 1 else None, found[0])

    def state(self, name: str) -> Optional[str]:
        """The value when it is a workflow state, else None."""
        v = self.get(name).text
        return v if v in WORKFLOW_STATES else None

    def where(self, name: str):
        """The value span of field *name*, else the frame heading."""
        f = self.get(name).field
        if f is not None:
            return (f.path, f.value_span)
        return self.heading()

    def heading(self):
        c = self.container
        return c.heading if c.heading is not None else c


def _label(container: Container, position: int) -> int:
    m = _LOOSE_NUMBER.match(container.title)
    return int(m.group(1)) if m else position


def frames(project) -> list[Frame]:
    st = project.state
    if st is None or st.recovery is None:
        return []
    subs = list(st.recovery.subsections)
    return [Frame(c, i, _label(c, i), i == len(subs)) for i, c in enumerate(subs, start=1)]


def obligations(project) -> list[Frame]:
    st = project.state
    if st is None or st.obligations is None:
        return []
    subs = list(st.obligations.subsections)
    return [Frame(c, i, _label(c, i), i == len(subs)) for i, c in enumerate(subs, start=1)]


def _workflow_state(project) -> Optional[str]:
    st = project.state
    if st is None:
        return None
    ws = st.workflow_state
    return ws if ws in WORKFLOW_STATES else None


def _cycle_mode(project) -> Optional[str]:
    st = project.state
    return st.cycle_mode if st is not None else None


def _plural(n: int, one: str, many: str) -> str:
    return f"is {n} {one}" if n == 1 else f"are {n} {many}"


def _owners_text(ft: str) -> str:
    return " or ".join(FAILURE_TARGETS[ft])


# -- Active flags -------------------------------------------------------------
def _flag_fix(active, want: str, title: str) -> Fix:
    return replace(active.path, active.value_span, want, description=f"Set {title}.Active to `{want}`.")


def clear_flag_fix(project, obligations: bool = False) -> Optional[Fix]:
    """SL501's (SL502's when *obligations*) fix when the section holds no
    entries but its `Active` says `true`: set it to `false`.  Rules that
    read the flag as "recovery is active" carry it too."""
    st = project.state
    if st is None:
        return None
    section = st.obligations if obligations else st.recovery
    if section is None or list(section.subsections):
        return None
    active = st.one(section, "Active")
    if active is None or active.value != "true":
        return None
    return _flag_fix(active, "false", "Outstanding Obligations" if obligations else "Recovery")


def _active_mismatch(project, section, count: int, what_one: str, what_many: str, title: str):
    st = project.state
    if st is None or section is None:
        return
    active = st.one(section, "Active")
    if active is None or active.value not in ("true", "false"):
        return  # missing, repeated or invalid: state-structure rules
    want = "true" if count else "false"
    if active.value == want:
        return
    yield report(
        (active.path, active.value_span),
        f"{title}.Active is `{active.value}` but there {_plural(count, what_one, what_many)}; "
        f"it must be `{want}`.",
        fix=_flag_fix(active, want, title),
    )


@rule(
    code="SL501",
    name="recovery-active-mismatch",
    section="Recovery Mechanics",
    owner="state",
    summary="`Recovery.Active` must be `true` exactly when the stack holds frames.",
    explanation="""
**What it does.** Compares `Recovery.Active` with the number of `### Frame N`
entries under `## Recovery`.

**Why.** PROTOCOL.md, Recovery Mechanics: "Keep the frame on the stack." and
"Recovery ends only when the stack is empty."; State-update rules: installation
starts with "inactive recovery". `Active` is a summary of the stack, so `true`
with no frame or `false` with frames leaves a resuming role with two answers.

**Fix safety.** Safe: the frames are the record; the fix sets `Active` to
`true` when frames exist and `false` when none do.
""",
    fix="safe",
    bad_example="## Recovery\n\n`Active`: `false`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ...",
    good_example="## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ...",
    help="Set `Recovery.Active` to match the frames.",
)
def recovery_active_mismatch(project):
    st = project.state
    if st is None:
        return
    yield from _active_mismatch(project, st.recovery, len(frames(project)), "frame", "frames", "Recovery")


@rule(
    code="SL502",
    name="obligations-active-mismatch",
    section="Recovery Mechanics",
    owner="state",
    summary="`Outstanding Obligations.Active` must be `true` exactly when obligations exist.",
    explanation="""
**What it does.** Compares `Outstanding Obligations.Active` with the number of
`### Obligation N` entries.

**Why.** protocol/expedited.md, Outstanding Obligations: "When one or more
obligations exist, set `Active: true` and record each as a numbered
`### Obligation N` entry ... When the last obligation is removed, set
`Active: false` and remove the numbered entries."

**Fix safety.** Safe: the entries are the record; the fix sets `Active` to
match them.
""",
    fix="safe",
    bad_example="## Outstanding Obligations\n\n`Active`: `true`\n",
    good_example="## Outstanding Obligations\n\n`Active`: `false`\n",
    help="Set `Outstanding Obligations.Active` to match the entries.",
)
def obligations_active_mismatch(project):
    st = project.state
    if st is None:
        return
    yield from _active_mismatch(
        project, st.obligations, len(obligations(project)), "obligation", "obligations", "Outstanding Obligations"
    )


# -- numbering ----------------------------------------------------------------
def _numbering(entries: list[Frame], word: str, head_re: re.Pattern, what: str, description: str):
    def ok(e: Frame) -> bool:
        m = head_re.match(e.container.title)
        return m is not None and int(m.group(1)) == e.position

    bad = next((e for e in entries if not ok(e)), None)
    if bad is None:
        return
    edits = []
    for e in entries:
        h = e.container.heading
        if h is None:
            return
        want = f"{'#' * h.level} {word} {e.position}"
        if not ok(e):
            edits.append(Edit(h.path, h.span.start, h.span.end, want))
    # Safe when only numbers change; unsafe when a heading loses other text.
    clean = all(head_re.match(e.container.title) for e in entries)
    fix = Fix(tuple(edits), "safe" if clean else "unsafe", description)
    yield report(
        bad.heading(),
        f"{what} entries must be numbered 1, 2, 3, ... in order, each headed exactly `### {word} N`; "
        f"found `{bad.container.title}` in position {bad.position}.",
        fix=fix,
    )


@rule(
    code="SL503",
    name="recovery-frame-numbering",
    section="Recovery Mechanics",
    owner="state",
    summary="Recovery frames are headed `### Frame 1`, `### Frame 2`, ... in stack order.",
    explanation="""
**What it does.** Checks that the entries under `## Recovery` are headed
exactly `### Frame N`, numbered from 1 without gaps in document order.

**Why.** PROTOCOL.md, Workflow State Reference > Recovery: "`Recovery` is a
stack ordered oldest to newest", and the STATE.md shape heads each entry
`### Frame 1`. Frame numbers name the stack position; a gap, a repeat or a
stray heading makes "the last frame is active" ambiguous for the next role.

**Fix safety.** Renumbers every heading to its position. Safe when each
heading is `Frame <number>` (only the number changes); unsafe when a heading
carries other text, which the fix drops.
""",
    fix="sometimes",
    bad_example="## Recovery\n\n`Active`: `true`\n\n### Frame 2\n\n`From`: `TESTING` ...",
    good_example="## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` ...",
    help="Renumber the recovery frames `### Frame 1`, `### Frame 2`, ... in stack order.",
)
def recovery_frame_numbering(project):
    yield from _numbering(frames(project), "Frame", _FRAME_HEAD, "Recovery", "Renumber the recovery frames in stack order.")


# -- frame fields -------------------------------------------------------------
@rule(
    code="SL504",
    name="recovery-frame-field",
    section="Recovery Mechanics",
    owner="state",
    summary="Each recovery frame records From, Owner, FailureType, Reason, ResumeAt and RerunThrough with valid values.",
    explanation="""
**What it does.** Checks each `### Frame N`: `From`, `Owner` and `ResumeAt`
must be workflow states, `FailureType` a failure type, `RerunThrough` `NONE`
or a workflow state, and `Reason` present and nonempty.

**Why.** PROTOCOL.md, Recovery Mechanics: "push a frame with `From` =
interrupted state, `Owner` = corrective target, applicable `FailureType` and
`Reason`, `ResumeAt` = interrupted state, and `RerunThrough: NONE`." A frame
missing any of these cannot be resumed or popped correctly.

**Fix safety.** No fix: the right value is the routing that happened.
""",
    bad_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE`\n`ResumeAt`: `TESTING` `RerunThrough`: `NOWHERE`",
    good_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE`\n`Reason`: `Retry behavior is undefined.` `ResumeAt`: `TESTING` `RerunThrough`: `NONE`",
    help="Give the frame every field with a valid value: From, Owner, FailureType, Reason, ResumeAt, RerunThrough.",
    no_fix_reason="The right value is the routing that happened.",
)
def recovery_frame_field(project):
    for fr in frames(project):
        n = fr.label
        for name in ("From", "Owner"):
            v = fr.get(name)
            if v.field is not None and v.text is not None and v.text not in WORKFLOW_STATES:
                yield report(fr.where(name), f"Recovery frame {n}: `{name}` is `{v.text}`, which is not a workflow state.")
            elif v.field is None:
                yield report(fr.heading(), f"Recovery frame {n}: `{name}` is missing; it must be a workflow state.")
        v = fr.get("FailureType")
        if v.field is None:
            yield report(fr.heading(), f"Recovery frame {n}: `FailureType` is missing; it must be a failure type.")
        elif v.text is not None and v.text not in FAILURE_TYPES:
            yield report(fr.where("FailureType"), f"Recovery frame {n}: `FailureType` is `{v.text}`, which is not a failure type.")
        v = fr.get("Reason")
        if v.field is None or (v.text is not None and not v.text.strip()):
            yield report(fr.where("Reason"), f"Recovery frame {n}: `Reason` is missing; record what the correction must fix.")
        v = fr.get("ResumeAt")
        if v.field is None:
            yield report(fr.heading(), f"Recovery frame {n}: `ResumeAt` is missing; it must be a workflow state (the interrupted state).")
        elif v.text is not None and v.text not in WORKFLOW_STATES:
            yield report(fr.where("ResumeAt"), f"Recovery frame {n}: `ResumeAt` is `{v.text}`, which is not a workflow state.")
        v = fr.get("RerunThrough")
        if v.field is None:
            yield report(fr.heading(), f"Recovery frame {n}: `RerunThrough` is missing; it must be NONE or a workflow state.")
        elif v.text is not None and v.text != "NONE" and v.text not in WORKFLOW_STATES:
            yield report(fr.where("RerunThrough"), f"Recovery frame {n}: `RerunThrough` is `{v.text}`; it must be NONE or a workflow state.")


@rule(
    code="SL505",
    name="recovery-frame-resume-at",
    section="Recovery Mechanics",
    owner="state",
    summary="A frame's `ResumeAt` is the interrupted state, its `From`.",
    explanation="""
**What it does.** Checks that each frame's `ResumeAt` equals its `From`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "push a frame with `From` =
interrupted state, ... `ResumeAt` = interrupted state". Both record the same
state; when they differ, the return after recovery goes somewhere the
interrupted work never was.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (see SL507) when the frame is stale; else sets `ResumeAt` to `From` when `From` is a state of the cycle's route; review whether `From` is the wrong one instead.
""",
    bad_example="`From`: `TESTING` `Owner`: `ARCHITECTING` ... `ResumeAt`: `DEVELOPING`",
    good_example="`From`: `TESTING` `Owner`: `ARCHITECTING` ... `ResumeAt`: `TESTING`",
    fix="sometimes",
    help="Set the frame's `ResumeAt` to the interrupted state (its `From`), or correct `From`.",
    no_fix_reason="Either field may be the wrong one when `From` is not a state of the cycle's route.",
)
def recovery_frame_resume_at(project):
    for fr in frames(project):
        frm, resume = fr.state("From"), fr.state("ResumeAt")
        if frm is None or resume is None or frm == resume:
            continue
        f = fr.get("ResumeAt").field
        fix = stale_frame_fix_for(project, fr)
        if fix is None and _in_route(project, frm):
            fix = replace(f.path, f.value_span, frm, safe=False,
                          description=f"Set frame {fr.label}'s ResumeAt to its From, {frm}")
        yield report(
            fr.where("ResumeAt"),
            f"Recovery frame {fr.label}: `ResumeAt` is {resume} but must be the interrupted state, {frm} (its `From`).",
            fix,
        )


def _in_route(project, state: str, role: bool = False) -> bool:
    """Whether *state* belongs to the cycle mode's route (a role's state when
    *role*): a fix never writes a state the cycle cannot be in."""
    mode = _cycle_mode(project)
    if mode == "DOCUMENTATION":
        return state in (DOC_ROLES if role else DOC_STATES)
    if mode == "EXPEDITED":
        return state in ROUTE_EXPEDITED
    return state in WORKFLOW_STATES


# -- a stale last frame -------------------------------------------------------
CORRECTIVE_KINDS = ("FAILURE", "USER_REWORK")


def _route(project) -> tuple[str, ...]:
    from standards_lint.holding import route_of
    from standards_lint.model.accessors import project_mode

    return route_of(_cycle_mode(project), project_mode(project))


def _frame_owners(project, ft: str) -> tuple[str, ...]:
    """The states that may own a frame of failure type *ft* in this cycle
    mode (Failure Handoffs; Documentation Cycle Contract: REVIEW goes to
    REVIEWING_FINAL, IMPLEMENTATION and VERIFICATION have no owner)."""
    owners = FAILURE_TARGETS.get(ft, ())
    mode = _cycle_mode(project)
    if mode == "DOCUMENTATION":
        if ft == "REVIEW":
            return ("REVIEWING_FINAL",)
        return tuple(o for o in owners if o in DOC_ROLES)
    if mode == "EXPEDITED":
        return tuple(o for o in owners if o in EXPEDITED_OWNERS)
    return owners


def _frame_broken(project, fr: Frame) -> Optional[bool]:
    """Whether the frame contradicts itself (the Failure Types table, step 1
    of Recovery Mechanics, the cycle's topology); None when a value is
    missing or invalid (SL504's findings)."""
    frm, owner, resume, ft = fr.state("From"), fr.state("Owner"), fr.state("ResumeAt"), fr.get("FailureType").text
    rt = fr.get("RerunThrough").text
    if None in (frm, owner, resume) or ft not in FAILURE_TYPES or (rt != "NONE" and rt not in WORKFLOW_STATES):
        return None
    return (owner not in _frame_owners(project, ft) or resume != frm or frm == owner
            or not _in_route(project, frm) or not _in_route(project, resume)
            or not _in_route(project, owner, role=True))


def _frame_fits_state(project, fr: Frame, ws: str) -> bool:
    """Whether WorkflowState is where the frame's correction can be: its
    Owner while `RerunThrough` is NONE, else between Owner and RerunThrough
    on the cycle's route (Recovery Mechanics, steps 4-7)."""
    owner, rt = fr.state("Owner"), fr.get("RerunThrough").text
    if ws in TERMINAL_STATES or ws == "AWAITING_USER_SIGNOFF" or owner is None:
        return False
    if rt == "NONE":
        return ws == owner
    route = _route(project)
    if owner not in route or rt not in route or ws not in route:
        return False
    return route.index(owner) <= route.index(ws) <= route.index(rt)


def forward_step(project, frm: str) -> Optional[str]:
    """The state a FORWARD handoff from *frm* enters (Forward Transitions):
    the next state of the cycle's route, after `REVIEWING_IMPLEMENTATION`
    the one its CompletionPolicy names."""
    route = _route(project)
    if frm not in route or frm == route[-1]:
        return None
    if _cycle_mode(project) == "STANDARD" and frm == "REVIEWING_IMPLEMENTATION":
        policy = project.state.aw("CompletionPolicy")
        return {"FULL_DELIVERABLE": "DOCUMENTING", "IMPLEMENTATION_REVIEWED": "AWAITING_USER_SIGNOFF"}.get(policy)
    return route[route.index(frm) + 1]


def _gate_records(project, route) -> dict:
    """State -> (artifact, review kind) of the record its gate leaves, for
    the states whose records the cycle's mode and CompletionPolicy require
    (and the development plan where the route develops)."""
    from standards_lint.model.cycle import STATE_RECORDS, Cycle

    required, _order = Cycle(project.state).required()
    gates = {s: STATE_RECORDS[s] for s in required}
    if "DEVELOPING" in route:
        gates["DEVELOPING"] = ("DEVELOPMENT", None)
    return gates


def passed_records_complete(project, ws: str) -> bool:
    """Whether every record the cycle's passed gates leave (the plan, the
    verification report, the reviews, documentation and synchronization
    records its mode and CompletionPolicy require, on the route before
    *ws*) exists at its fixed path for this cycle with `Status`:
    `COMPLETE`: the records say the cycle passed those gates."""
    from standards_lint.model.cycle import record_state

    cid = project.state.aw("Id")
    route = _route(project)
    if not cid or not CYCLE_ID_RE.match(cid) or ws not in route:
        return False
    gates = _gate_records(project, route)
    passed = route[: route.index(ws)]
    for s in passed:
        if s not in gates:
            continue
        art, kind = gates[s]
        found, status, _field = record_state(project, record_path(art, cid, kind), cid)
        if found != "ok" or status != "COMPLETE":
            return False
    return _acceptance_accounted(project, passed)


def _acceptance_accounted(project, passed) -> bool:
    """A gate passed only when its record accounts for every current
    acceptance condition (Acceptance Traceability: the design, and every
    COMPLETE verification, review, documentation and synchronization
    record of the passed states)."""
    from standards_lint.model.acceptance import complete_records, evidence_ids, record_scan, traced, analysis

    ctx = analysis(project)
    if not traced(ctx):
        return True
    current = set(ctx.scope.current)
    if "ARCHITECTING" in passed and ctx.design is not None:
        if not current <= {m.id for m in ctx.design.mentions if not m.previous}:
            return False
    for r, owner, status in complete_records(ctx):
        if owner in passed and status is not None and status.value == "COMPLETE":
            if not current <= evidence_ids(record_scan(ctx, r), r.artifact):
                return False
    return True


def _never_reached(project, state: str) -> bool:
    """Whether the cycle can never have been in *state*: a gate before it
    on the route (one its mode and CompletionPolicy require) has left no
    record of this cycle anywhere.  Records are never deleted, so a frame
    interrupted there records routing that did not happen."""
    cid = project.state.aw("Id")
    route = _route(project)
    if not cid or not CYCLE_ID_RE.match(cid) or state not in route:
        return False
    gates = _gate_records(project, route)
    for s in route[: route.index(state)]:
        if s in gates:
            art, kind = gates[s]
            if not any(r.review_kind == kind or art != "REVIEW" for r in project.records_of(cid, art)):
                return True
    return False


def _handoff_explains_state(project, ws: str) -> bool:
    """The last handoff entered WorkflowState on its own terms: a FORWARD
    one step of the route, a RESUME (a recovery return) from another
    state, or a same-state FAILURE/USER_REWORK whose type the state owns;
    and the records of the gates passed before it are COMPLETE."""
    st = project.state
    kind, frm = st.ho("Kind"), st.ho("From")
    if kind == "FORWARD":
        ok = frm is not None and forward_step(project, frm) == ws
    elif kind == "RESUME":
        ok = frm in WORKFLOW_STATES and frm != ws
    elif kind in CORRECTIVE_KINDS:
        # A same-state correction: the state owns the failure it recorded.
        ok = frm == ws and ws in _frame_owners(project, st.ho("FailureType") or "")
    else:
        ok = False
    return ok and passed_records_complete(project, ws)


def _entry_states(project) -> tuple[str, ...]:
    """Where a cycle start (or installation) leaves WorkflowState
    (protocol/user-decisions.md, Start a cycle, step 5; State-update rules,
    1): `AUDITING` (reconciliation first, a DOCUMENTATION cycle, a
    BROWNFIELD project), `SCOPING` in a GREENFIELD project, `DEVELOPING`
    for an EXPEDITED cycle."""
    from standards_lint.model.accessors import project_mode

    mode = _cycle_mode(project)
    if mode == "DOCUMENTATION":
        return ("AUDITING",)
    if mode == "EXPEDITED":
        return ("DEVELOPING", "AUDITING")
    return ("SCOPING", "AUDITING") if project_mode(project) == "GREENFIELD" else ("AUDITING",)


def _stale_pop(project) -> Optional[tuple[int, Fix]]:
    """The frames the project's other files show stale, as (frames kept,
    the fix removing the others), or None.

    - The last handoff starts the cycle (`INITIAL` or `NEW_CYCLE`) and the
      state is still the cycle's entry state: a cycle starts with recovery
      inactive (Start a cycle: "Recovery and outstanding obligations
      inactive"), and any push since would be the last handoff.  Every
      frame is stale.
    - Otherwise the last frame when it contradicts itself (its Owner does
      not own its FailureType, its ResumeAt is not its From, or a state
      lies outside the cycle's topology) or was interrupted in a state the
      cycle never reached (:func:`_never_reached`), the workflow is not
      where its correction could be (or a FORWARD left an owner that never
      finished its correction, or the frame was never possible), the last
      handoff is not the failure that pushed it (same `From`), and that
      handoff explains the state on its own (a route step, a recovery
      return or a same-state correction, the passed gates' records
      COMPLETE): the state and the handoff agree and the frame is the odd
      one out.  Only when the remaining stack (if any) fits the state.

    No frame of a failure type a DOCUMENTATION cycle cannot route is
    removed (the user decides, Documentation Cycle Contract), nor, after
    the cycle start, one whose owner the cycle skips (Expedited Promotion
    converts it into an outstanding obligation)."""
    st = project.state
    fs = frames(project)
    ws = _workflow_state(project)
    if st is None or not fs or ws is None or st.recovery is None or project.workflow_conflicted:
        return None
    kind = st.ho("Kind")
    start = kind in ("INITIAL", "NEW_CYCLE") and ws in _entry_states(project)
    if start:
        keep = 0
    else:
        fr = fs[-1]
        broken = _frame_broken(project, fr)
        if broken is None:
            return None
        never = _never_reached(project, fr.state("From"))
        if not broken and not never:
            return None
        if kind in CORRECTIVE_KINDS and st.ho("From") == fr.state("From"):
            return None  # the handoff that pushed it: the frame is the routing record
        unfinished = fr.get("RerunThrough").text == "NONE" and kind == "FORWARD"
        if _frame_fits_state(project, fr, ws) and not unfinished and not never:
            return None
        if not _handoff_explains_state(project, ws):
            return None
        keep = len(fs) - 1
        if keep and not _frame_fits_state(project, fs[keep - 1], ws):
            return None
    gone = fs[keep:]
    for fr in gone:
        ft = fr.get("FailureType").text
        if _cycle_mode(project) == "DOCUMENTATION" and ft in DOC_UNROUTABLE:
            return None  # an omitted owner: the user decides (Documentation Cycle Contract)
        if not start and not _frame_owners(project, ft):
            return None  # a skipped owner mid-cycle: Expedited Promotion keeps it as an obligation
    active = st.one(st.recovery, "Active")
    if active is None or active.value not in ("true", "false"):
        return None
    h = gone[0].container.heading
    end = section_end(st, st.recovery)
    if h is None or end is None:
        return None
    text = st.doc.text
    at = h.span.start
    if end == len(text):
        # The frames end the file: drop the blank lines before them too,
        # keeping the line end of the line before.
        nl = "\r\n" if "\r\n" in text else "\n"
        while text[:at].endswith(nl + nl):
            at -= len(nl)
    edits = [Edit(st.path, at, end, "")]
    want = "true" if keep else "false"
    if active.value != want:
        edits.insert(0, Edit(active.path, active.value_span.start, active.value_span.end, want))
    if len(gone) == 1:
        fr = gone[0]
        what = (f"stale recovery frame {fr.label} ({fr.state('From')} -> {fr.state('Owner')}, "
                f"{fr.get('FailureType').text})")
    else:
        what = f"the {len(gone)} stale recovery frames"
    return keep, Fix(tuple(edits), "unsafe", f"Remove {what} and set Recovery.Active to `{want}`")


def _stale(project) -> Optional[tuple[int, Fix]]:
    """:func:`_stale_pop`, once per project (several rules ask)."""
    cache = project.__dict__.setdefault("_standards_lint_stale_frames", {})
    if "pop" not in cache:
        cache["pop"] = _stale_pop(project)
    return cache["pop"]


def stale_frame_fix(project, *, clear: bool = False) -> Optional[Fix]:
    """The fix of :func:`_stale_pop`; with *clear*, only when it empties the stack."""
    got = _stale(project)
    if got is None or (clear and got[0]):
        return None
    return got[1]


def pushed_state(project) -> Optional[str]:
    """Where the last corrective handoff went, when two records of it agree:
    the frame it pushed (same `From` and FailureType, an Owner owning that
    type, `RerunThrough`: `NONE`) names its Owner; with no frame and an
    inactive stack, a failure whose type `Handoff.From` owns was a
    same-state correction (Recovery Mechanics, step 1: "Same-state
    correction creates no frame"), so the state stayed at `From`."""
    st = project.state
    if st is None or st.ho("Kind") not in CORRECTIVE_KINDS or st.recovery is None:
        return None
    frm, ft = st.ho("From"), st.ho("FailureType")
    if frm not in WORKFLOW_STATES or frm in TERMINAL_STATES or ft not in FAILURE_TARGETS:
        return None
    owners = _frame_owners(project, ft)
    fs = frames(project)
    if not fs:
        active = st.one(st.recovery, "Active")
        if active is None or active.value != "false" or frm not in owners or not _in_route(project, frm, role=True):
            return None
        return frm
    fr = fs[-1]
    owner = fr.state("Owner")
    if (fr.state("From") == frm and fr.get("FailureType").text == ft and owner in owners and owner != frm
            and fr.get("RerunThrough").text == "NONE" and _in_route(project, owner, role=True)):
        return owner
    return None


def routed_type(project) -> Optional[str]:
    """The failure type the last corrective handoff routed, when two other
    records agree on it: the frame it pushed (same `From`, its Owner the
    current state) records its type; with no frame, an inactive stack and
    the state still at `Handoff.From` (a same-state correction), the one
    type the state owns."""
    st = project.state
    if st is None or st.ho("Kind") not in CORRECTIVE_KINDS or st.recovery is None:
        return None
    frm, ws = st.ho("From"), _workflow_state(project)
    if frm not in WORKFLOW_STATES or ws is None or ws in TERMINAL_STATES:
        return None
    fs = frames(project)
    if fs:
        fr = fs[-1]
        ft = fr.get("FailureType").text
        if fr.state("From") == frm and fr.state("Owner") == ws != frm and ft in FAILURE_TYPES \
                and ws in _frame_owners(project, ft):
            return ft
        return None
    active = st.one(st.recovery, "Active")
    if active is None or active.value != "false" or ws != frm:
        return None
    owned = [t for t in FAILURE_TYPES if ws in _frame_owners(project, t)]
    return owned[0] if len(owned) == 1 else None


def routed_type_fix(project) -> Optional[Fix]:
    """Set `Handoff.FailureType` to :func:`routed_type` when it differs."""
    st = project.state
    want = routed_type(project)
    f = st.one(st.handoff, "FailureType") if st is not None else None
    if want is None or f is None or f.value == want:
        return None
    return replace(f.path, f.value_span, want, safe=False,
                   description=f"Set Handoff.FailureType to {want}, the type its {st.ho('Kind')} routed")


def pushed_state_fix(project) -> Optional[Fix]:
    """Set WorkflowState to :func:`pushed_state` when it differs.  When the
    state is terminal, the edit also spans `CycleMode` (unchanged), so the
    reset a terminal state asks for (SL204) is not applied with it."""
    st = project.state
    want = pushed_state(project)
    f = st.one(st.header, "WorkflowState") if st is not None else None
    if want is None or f is None or f.value == want:
        return None
    end, tail = f.value_span.end, ""
    cm = st.one(st.header, "CycleMode")
    if f.value in TERMINAL_STATES and cm is not None and cm.path == f.path and cm.value_span.end > end:
        tail = st.doc.text[end:cm.value_span.end]
        end = cm.value_span.end
    return Fix((Edit(f.path, f.value_span.start, end, want + tail),), "unsafe",
               f"Set WorkflowState to {want}, where the {st.ho('Kind')} handoff went")


def stale_frame_fix_for(project, fr: Frame) -> Optional[Fix]:
    """The stale-frame fix when *fr* is one of the frames it removes."""
    got = _stale(project)
    return got[1] if got is not None and fr.position > got[0] else None


def section_end(st, section) -> Optional[int]:
    """Offset where the line after *section*'s last content begins: the start
    of the next `##` heading, else the end of the file."""
    secs = list(st.doc.sections)
    for i, s in enumerate(secs):
        if s is section:
            if i + 1 < len(secs) and secs[i + 1].heading is not None:
                return secs[i + 1].heading.span.start
            return len(st.doc.text)
    return None


@rule(
    code="SL506",
    name="recovery-frame-owner",
    section="Failure Handoffs",
    owner="state",
    summary="A frame's `Owner` is the state that owns its `FailureType`.",
    explanation="""
**What it does.** Checks each frame's `Owner` against the owning state of its
`FailureType` (`SCOPING` -> `SCOPING`, `ARCHITECTURE` -> `ARCHITECTING`,
`PROJECT_CONTEXT` -> `AUDITING`, `IMPLEMENTATION` -> `DEVELOPING`,
`VERIFICATION` -> `TESTING`, `DOCUMENTATION` -> `DOCUMENTING`, `REVIEW` ->
`REVIEWING_IMPLEMENTATION` or `REVIEWING_FINAL`, `SYNCHRONIZATION` ->
`SYNCHRONIZING`).

**Why.** PROTOCOL.md, Failure Handoffs: "A failure handoff routes a defect to
its owning state", and Recovery Mechanics: "`Owner` = corrective target". A
frame owned by another state sends the correction to a role that does not own
the defective artifact.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (see SL507) when the frame is stale; for the frame the last `FAILURE` or `USER_REWORK` pushed (same `From`, its `Owner` the current state, which owns the handoff's type), its `FailureType` becomes the handoff's; otherwise sets `Owner` to the one state owning the frame's `FailureType` (Failure Types table) when that makes a valid frame (not its own `From`, on the cycle's route, `RerunThrough`: `NONE`). A `REVIEW` frame outside DOCUMENTATION has two possible owners: no fix.
""",
    bad_example="`From`: `TESTING` `Owner`: `DEVELOPING` `FailureType`: `ARCHITECTURE` ...",
    good_example="`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE` ...",
    fix="sometimes",
    help="Set the frame's `Owner` to the state owning its FailureType, or correct the FailureType.",
    no_fix_reason="Where two states may own the type, or the owner would make an invalid frame, which field is wrong needs the routing role.",
)
def recovery_frame_owner(project):
    for fr in frames(project):
        ft, owner = fr.get("FailureType").text, fr.state("Owner")
        if ft not in FAILURE_TARGETS or owner is None or owner in FAILURE_TARGETS[ft]:
            continue
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: a {ft} frame belongs to {_owners_text(ft)}, not {owner}.",
            stale_frame_fix_for(project, fr) or _pushed_type_fix(project, fr) or _owner_fix(project, fr, ft),
        )


def _pushed_type_fix(project, fr: Frame) -> Optional[Fix]:
    """The active frame the last corrective handoff pushed (same `From`, its
    Owner the current state) records that handoff's FailureType (Recovery
    Mechanics, step 1: "applicable `FailureType`"): when the handoff's type
    is one the frame's Owner owns, the frame's is the miscopied one."""
    st = project.state
    if st is None or not fr.last or st.ho("Kind") not in CORRECTIVE_KINDS:
        return None
    ft, owner = st.ho("FailureType"), fr.state("Owner")
    f = fr.get("FailureType").field
    if (f is None or fr.get("FailureType").text == ft or st.ho("From") != fr.state("From")
            or owner is None or owner != _workflow_state(project) or ft not in FAILURE_TYPES
            or owner not in _frame_owners(project, ft) or owner == fr.state("From")):
        return None
    return replace(f.path, f.value_span, ft, safe=False,
                   description=f"Set frame {fr.label}'s FailureType to {ft}, the type its handoff routed")


def _owner_fix(project, fr: Frame, ft: str) -> Optional[Fix]:
    """Set the frame's Owner to the one state owning its FailureType (Failure
    Types table); none when two states may own it (REVIEW outside
    DOCUMENTATION) or the owner is omitted in a DOCUMENTATION cycle."""
    owners = FAILURE_TARGETS[ft]
    if _cycle_mode(project) == "DOCUMENTATION":
        owners = tuple(o for o in owners if o in DOC_ROLES)
        if ft == "REVIEW":
            owners = ("REVIEWING_FINAL",)
    elif _cycle_mode(project) == "EXPEDITED":
        owners = tuple(o for o in owners if o in ROUTE_EXPEDITED)
    if len(owners) != 1 or not _in_route(project, owners[0], role=True):
        return None
    # The new owner must make a valid frame: not its own From (a same-state
    # correction pushes no frame), and not yet rerunning past an owner.
    if owners[0] == fr.state("From") or fr.get("RerunThrough").text != "NONE":
        return None
    # The active frame under correction is what WorkflowState follows
    # (SL507) and what the failure handoff pushed (SL403): change its owner
    # only when the state already is the type's owner.
    ws = _workflow_state(project)
    if fr.last and ws != owners[0] and (ws is None or ws == fr.state("Owner")):
        return None  # (when the state already differs from both, SL507 stands either way)
    f = fr.get("Owner").field
    return replace(f.path, f.value_span, owners[0], safe=False,
                   description=f"Set frame {fr.label}'s Owner to {owners[0]}, the owner of {ft}")


@rule(
    code="SL507",
    name="recovery-active-frame-state",
    section="Recovery Mechanics",
    owner="state",
    summary="While the active frame is being corrected (`RerunThrough: NONE`), WorkflowState is its Owner.",
    explanation="""
**What it does.** When the last (active) frame has `RerunThrough: NONE`,
checks that `WorkflowState` equals the frame's `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics: "The last frame is active." A frame
is pushed with `RerunThrough: NONE` as the workflow moves to its `Owner`; the
owner then either pops it ("No rerun: pop the frame and transition directly to
`ResumeAt`") or sets `RerunThrough` before moving on ("Rerun required: set
`RerunThrough` to the last required state and transition to the earliest
required rerun state"). protocol/expedited.md: "`RerunThrough: NONE` means the
frame's owner has not yet completed its correction". So an active frame with
`RerunThrough: NONE` in any other state means the correction was skipped or
the stack was not updated.

**Fix safety.** Sometimes (unsafe): when the handoff is the `FAILURE` or `USER_REWORK` that pushed the active frame (same `From`, its FailureType owned by the frame's `Owner`), `WorkflowState` is set to the `Owner`. Otherwise the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. Otherwise either the state or the stack may be stale: no fix.
""",
    bad_example="`WorkflowState`: `DEVELOPING` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ... `RerunThrough`: `NONE`",
    good_example="`WorkflowState`: `ARCHITECTING` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ... `RerunThrough`: `NONE`",
    fix="sometimes",
    help="Move `WorkflowState` to the active frame's Owner, or update the stack (pop the frame or set `RerunThrough`).",
    no_fix_reason="Unless the handoff is the failure that pushed the frame, or the other files show the frame stale, either the state or the stack is stale.",
)
def recovery_active_frame_state(project):
    fs = frames(project)
    ws = _workflow_state(project)
    if not fs or ws is None:
        return
    fr = fs[-1]
    owner = fr.state("Owner")
    if fr.get("RerunThrough").text != "NONE" or owner is None or owner == ws:
        return
    st = project.state
    f = st.one(st.header, "WorkflowState")
    where = (f.path, f.value_span) if f is not None else fr.where("Owner")
    fix = stale_frame_fix(project) or pushed_state_fix(project)
    yield report(
        where,
        f"Recovery frame {fr.label} is still being corrected (RerunThrough is NONE), "
        f"so WorkflowState must be its Owner, {owner}, not {ws}.",
        fix,
    )


# -- DOCUMENTATION frames -----------------------------------------------------
def _doc_frames(project) -> Iterator[Frame]:
    if _cycle_mode(project) != "DOCUMENTATION":
        return
    yield from frames(project)


_DOC_WHY = """PROTOCOL.md, Recovery Mechanics: "Documentation recovery uses only its
included states under **Documentation Cycle Contract** ... Every documentation
frame's `From` and `ResumeAt` must be included states; `Owner` is an included
role, with `REVIEW` owned by `REVIEWING_FINAL`. `RerunThrough` is `NONE` or a
downstream included role, never `AWAITING_USER_SIGNOFF`." The included states
are `AUDITING`, `SCOPING`, `ARCHITECTING`, `DOCUMENTING`, `REVIEWING_FINAL`,
`SYNCHRONIZING` and `AWAITING_USER_SIGNOFF`."""


@rule(
    code="SL510",
    name="documentation-frame-states",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a frame's `From` and `ResumeAt` are included states.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's `From`
and `ResumeAt` are states of the Documentation Brownfield route.

**Why.** {_DOC_WHY}

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `AUDITING` ... `ResumeAt`: `TESTING`",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `ResumeAt`: `REVIEWING_FINAL`",
    help="Use included DOCUMENTATION states for the frame's `From` and `ResumeAt`.",
    no_fix_reason="Unless the other files show the frame stale, the routing the frame records needs the routing role.",
)
def documentation_frame_states(project):
    for fr in _doc_frames(project):
        for name in ("From", "ResumeAt"):
            v = fr.get(name)
            if v.field is not None and v.text is None:
                continue  # repeated with different values: unknown
            if v.text in DOC_STATES:
                continue
            shown = f"`{v.text}`" if v.text is not None else "missing"
            yield report(
                fr.where(name),
                f"Recovery frame {fr.label}: {name} is {shown}; in DOCUMENTATION it must be an included state "
                f"({', '.join(DOC_STATES)}).",
                stale_frame_fix_for(project, fr),
            )


@rule(
    code="SL511",
    name="documentation-frame-owner",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a frame's `Owner` is an included role's state.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's `Owner`
is the state of an included role: `AUDITING`, `SCOPING`, `ARCHITECTING`,
`DOCUMENTING`, `REVIEWING_FINAL` or `SYNCHRONIZING`.

**Why.** {_DOC_WHY} Failure Handoffs: "In `DOCUMENTATION`, only owners included
in **Documentation Cycle Contract** are valid failure targets ... A required
omitted role follows that contract's blocking user-decision rule instead of a
failure handoff into a skipped state."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DEVELOPING` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DOCUMENTING` ...",
    help="Route the defect to an included role, or record a blocking user decision in `Active Work.BlockedOn`.",
    no_fix_reason="Unless the other files show the frame stale, the defect needs an included owner or a blocking user decision in `Active Work.BlockedOn`.",
)
def documentation_frame_owner(project):
    for fr in _doc_frames(project):
        v = fr.get("Owner")
        if v.field is not None and v.text is None:
            continue
        if v.text in DOC_ROLES:
            continue
        shown = f"`{v.text}`" if v.text is not None else "missing"
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: Owner is {shown}; in DOCUMENTATION it must be an included role's state "
            f"({', '.join(DOC_ROLES)}).",
            stale_frame_fix_for(project, fr),
        )


@rule(
    code="SL512",
    name="documentation-frame-failure-type",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, IMPLEMENTATION and VERIFICATION frames have no owner, and REVIEW belongs to REVIEWING_FINAL.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports frames whose
`FailureType` is `IMPLEMENTATION` or `VERIFICATION` (their owners, Developer
and Tester, are omitted), and `REVIEW` frames not owned by `REVIEWING_FINAL`.

**Why.** PROTOCOL.md, Failure Handoffs: "In `DOCUMENTATION`, only owners
included in **Documentation Cycle Contract** are valid failure targets, with
`REVIEW` targeting `REVIEWING_FINAL`. A required omitted role follows that
contract's blocking user-decision rule instead of a failure handoff into a
skipped state." Documentation Cycle Contract: "A defect or changed request
requiring implementation, formal testing, or implementation review does not
authorize entry into an omitted state ... Persist the evidence and required
user decision in `Active Work.BlockedOn`".

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. So only a stale `REVIEW` frame owned by another state is removed.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n`BlockedOn`: `User decision: keep the documentation-only scope or cancel for an implementation cycle.`",
    help="Replace the frame by a blocking user decision in `BlockedOn`, or route the defect to its included owner.",
    no_fix_reason="Replace the frame by a blocking user decision, or route the defect to its included owner; only a stale REVIEW frame is removed.",
)
def documentation_frame_failure_type(project):
    for fr in _doc_frames(project):
        ft = fr.get("FailureType").text
        owner = fr.get("Owner").text
        if ft in DOC_UNROUTABLE:
            msg = (
                f"Recovery frame {fr.label}: {ft} has no owner in DOCUMENTATION (its role is omitted); "
                "an omitted owner requires a blocking user decision in Active Work.BlockedOn, not a recovery frame."
            )
        elif ft == "REVIEW" and owner != "REVIEWING_FINAL":
            msg = (
                f"Recovery frame {fr.label}: REVIEW cannot target {owner or 'this owner'} in DOCUMENTATION; "
                "REVIEW belongs to REVIEWING_FINAL."
            )
        else:
            continue
        yield report(fr.where("FailureType"), msg, stale_frame_fix_for(project, fr))


@rule(
    code="SL513",
    name="documentation-frame-rerun-through",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, `RerunThrough` is NONE or an included role downstream of the frame's Owner.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's
`RerunThrough` is `NONE` or an included role's state (never
`AWAITING_USER_SIGNOFF`) that comes after the frame's `Owner` on the
Documentation Brownfield route.

**Why.** {_DOC_WHY} Recovery Mechanics, step 5: "set `RerunThrough` to the
last required state and transition to the earliest required rerun state" —
reruns lie downstream of the correcting owner.

**Fix safety.** No fix: the rerun plan belongs to the frame's owner.
""",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `RerunThrough`: `AUDITING`",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `RerunThrough`: `DOCUMENTING`",
    help="Set `RerunThrough` to `NONE` or an included role downstream of the frame's Owner.",
    no_fix_reason="The rerun plan belongs to the frame's owner.",
)
def documentation_frame_rerun_through(project):
    for fr in _doc_frames(project):
        v = fr.get("RerunThrough")
        if v.field is not None and v.text is None:
            continue
        rt, owner = v.text, fr.get("Owner").text
        if rt == "NONE":
            continue
        if rt in DOC_ROLES:
            if owner not in DOC_ROLES or DOC_ROLES.index(rt) > DOC_ROLES.index(owner):
                continue
            problem = f"is {rt}, which is not downstream of its Owner {owner}"
        else:
            problem = f"is `{rt}`, not an included role" if rt is not None else "is missing"
        yield report(
            fr.where("RerunThrough"),
            f"Recovery frame {fr.label}: RerunThrough {problem}; in DOCUMENTATION it must be NONE or an included "
            "role downstream of the Owner (never AWAITING_USER_SIGNOFF).",
        )


@rule(
    code="SL514",
    name="documentation-same-state-frame",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a same-state correction pushes no frame (`From` equal to `Owner`).",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports frames whose `From`
equals their `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "Push only when corrective
routing changes state. ... Same-state correction creates no frame." and
Failure Handoffs: "A same-state failure records the handoff but does not create
a recovery frame."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `AUDITING` `Owner`: `AUDITING` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ...",
    help="Remove the same-state frame and review the handoff and `Recovery.Active`.",
    no_fix_reason="Unless the other files show the frame stale, removing it also needs the handoff and `Active` flag reviewed.",
)
def documentation_same_state_frame(project):
    for fr in _doc_frames(project):
        frm, owner = fr.state("From"), fr.state("Owner")
        if frm is None or frm != owner:
            continue
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: From and Owner are both {frm}; a same-state DOCUMENTATION correction "
            "does not push a recovery frame.",
            stale_frame_fix_for(project, fr),
        )


@rule(
    code="SL515",
    name="documentation-rerun-range",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, an active rerun keeps WorkflowState between the frame's Owner and RerunThrough.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle whose active (last) frame has a
valid `RerunThrough`, checks that `WorkflowState` lies on the Documentation
Brownfield route between the frame's `Owner` and its `RerunThrough`.

**Why.** PROTOCOL.md, Recovery Mechanics, steps 5-7: with a rerun required the
owner transitions "to the earliest required rerun state. Keep the frame on the
stack", and "At the rerun boundary, after `RerunThrough` passes its applicable
gate, pop the frame and transition to `ResumeAt`". While the frame is on the
stack with a rerun boundary, work is inside that span; anywhere else means the
frame should have been popped or the route left its rerun plan.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `SCOPING` `CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n... `Owner`: `ARCHITECTING` ... `RerunThrough`: `SYNCHRONIZING`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n... `Owner`: `ARCHITECTING` ... `RerunThrough`: `SYNCHRONIZING`",
    help="Keep `WorkflowState` between the frame's Owner and RerunThrough, or update the frame.",
    no_fix_reason="Unless the other files show the frame stale, either the state or the frame may be.",
)
def documentation_rerun_range(project):
    fs = list(_doc_frames(project))
    ws = _workflow_state(project)
    if not fs or ws is None or ws in TERMINAL_STATES:
        return  # frames in a terminal state are a state-structure problem
    fr = fs[-1]
    owner, rt = fr.get("Owner").text, fr.get("RerunThrough").text
    if owner not in DOC_ROLES or rt not in DOC_ROLES:
        return
    lo, hi = DOC_ROLES.index(owner), DOC_ROLES.index(rt)
    if hi <= lo:
        return  # SL513
    if ws in DOC_ROLES and lo <= DOC_ROLES.index(ws) <= hi:
        return
    st = project.state
    f = st.one(st.header, "WorkflowState")
    where = (f.path, f.value_span) if f is not None else fr.where("RerunThrough")
    yield report(
        where,
        f"Recovery frame {fr.label}: WorkflowState is {ws}, but the active DOCUMENTATION rerun must stay between "
        f"{owner} and {rt} until its boundary returns to ResumeAt.",
        stale_frame_fix(project),
    )


# -- Outstanding Obligations --------------------------------------------------
@rule(
    code="SL508",
    name="obligation-field-missing",
    section="Recovery Mechanics",
    owner="state",
    summary="Each outstanding obligation records Owner, FailureType and Reason.",
    explanation="""
**What it does.** Checks that every `### Obligation N` entry has `Owner`,
`FailureType` and a nonempty `Reason`.

**Why.** protocol/expedited.md, Outstanding Obligations: "Each obligation
records `Owner`, `FailureType`, and `Reason`" and "record each as a numbered
`### Obligation N` entry containing `Owner`, `FailureType`, and `Reason`."
An obligation without them cannot be routed or verified as corrected.

**Fix safety.** No fix: the values come from the converted recovery frame.
""",
    bad_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION`",
    good_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION`\n`Reason`: `The retry test asserts the old limit.`",
    help="Give the obligation its Owner, FailureType and Reason from the converted recovery frame.",
    no_fix_reason="The values come from the converted recovery frame.",
)
def obligation_field_missing(project):
    for ob in obligations(project):
        for name in ("Owner", "FailureType", "Reason"):
            v = ob.get(name)
            if v.field is not None and (v.text is None or v.text.strip()):
                continue
            yield report(
                ob.where(name) if v.field is not None else ob.heading(),
                f"Obligation {ob.label}: `{name}` is missing; each obligation records Owner, FailureType and Reason.",
            )


# -- beyond the reference checker ---------------------------------------------
EXPEDITED_OWNERS = ("DEVELOPING", "REVIEWING_IMPLEMENTATION")


@rule(
    code="SL516",
    name="expedited-frame-topology",
    section="Recovery Mechanics",
    owner="state",
    summary="In EXPEDITED, recovery frames use only expedited states.",
    explanation="""
**What it does.** In an `EXPEDITED` cycle, checks that each frame's `From` and
`ResumeAt` are expedited states (`DEVELOPING`, `REVIEWING_IMPLEMENTATION`,
`AWAITING_USER_SIGNOFF`), that its `Owner` is `DEVELOPING` or
`REVIEWING_IMPLEMENTATION`, and that `RerunThrough` is `NONE` or one of those
two.

**Why.** PROTOCOL.md, Recovery Mechanics: "Recovery follows the active
`CycleMode` topology. Expedited recovery reruns only expedited states; a newly
required skipped role or guarantee triggers **Expedited Promotion**". Failure
Handoffs: "In `EXPEDITED`, only `IMPLEMENTATION -> DEVELOPING` and
implementation `REVIEW -> REVIEWING_IMPLEMENTATION` are valid failure routes
because only those states exist in the expedited topology."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. Mid-cycle, a frame whose owner the cycle skips is kept.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`CycleMode`: `EXPEDITED` ...\n\n### Frame 1\n\n`From`: `DEVELOPING` `Owner`: `SCOPING` `FailureType`: `SCOPING` ...",
    good_example="`CycleMode`: `EXPEDITED` ...\n\n### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION` ...",
    help="Promote the cycle (Expedited Promotion converts the frame into an outstanding obligation), or route within expedited states.",
    no_fix_reason="Unless the frame is stale at the cycle start, a skipped owner needs Expedited Promotion, which converts the frame into an outstanding obligation.",
)
def expedited_frame_topology(project):
    if _cycle_mode(project) != "EXPEDITED":
        return
    for fr in frames(project):
        checks = (
            ("From", ROUTE_EXPEDITED, "an expedited state"),
            ("ResumeAt", ROUTE_EXPEDITED, "an expedited state"),
            ("Owner", EXPEDITED_OWNERS, "DEVELOPING or REVIEWING_IMPLEMENTATION"),
            ("RerunThrough", EXPEDITED_OWNERS + ("NONE",), "NONE, DEVELOPING or REVIEWING_IMPLEMENTATION"),
        )
        for name, allowed, what in checks:
            v = fr.get(name).text
            valid = v in WORKFLOW_STATES or (name == "RerunThrough" and v == "NONE")
            if not valid or v in allowed:
                continue  # unknown values are SL504's
            yield report(
                fr.where(name),
                f"Recovery frame {fr.label}: {name} is {v}, outside the EXPEDITED topology; it must be {what}. "
                "A skipped role requires Expedited Promotion.",
                stale_frame_fix_for(project, fr),
            )


@rule(
    code="SL520",
    name="recovery-same-state-frame",
    section="Recovery Mechanics",
    owner="state",
    summary="A same-state correction pushes no recovery frame (`From` equal to `Owner`).",
    explanation="""
**What it does.** Outside `DOCUMENTATION` cycles (where SL514 applies),
reports frames whose `From` equals their `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "Push only when corrective
routing changes state. For `FAILURE` or `USER_REWORK` moving to a different
state, push a frame ... Same-state correction creates no frame." Failure
Handoffs: "A same-state failure records the handoff but does not create a
recovery frame."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `REVIEWING_IMPLEMENTATION` ...",
    good_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `REVIEWING_IMPLEMENTATION` ...",
    help="Remove the same-state frame and review the handoff and `Recovery.Active`.",
    no_fix_reason="Unless the other files show the frame stale, removing it also needs the handoff and `Active` flag reviewed.",
)
def recovery_same_state_frame(project):
    if _cycle_mode(project) == "DOCUMENTATION":
        return
    for fr in frames(project):
        frm, owner = fr.state("From"), fr.state("Owner")
        if frm is None or frm != owner:
            continue
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: From and Owner are both {frm}; a same-state correction does not push a "
            "recovery frame.",
            stale_frame_fix_for(project, fr),
        )


@rule(
    code="SL521",
    name="obligation-numbering",
    section="Recovery Mechanics",
    owner="state",
    summary="Outstanding obligations are headed `### Obligation 1`, `### Obligation 2`, ... in order.",
    explanation="""
**What it does.** Checks that the entries under `## Outstanding Obligations`
are headed exactly `### Obligation N`, numbered from 1 without gaps.

**Why.** protocol/expedited.md, Outstanding Obligations: "record each as a
numbered `### Obligation N` entry ... When an obligation is removed, renumber
the remaining entries 1, 2, 3, ... in their existing order."

**Fix safety.** Renumbers the headings in order: safe when each heading is
`Obligation <number>`, unsafe when a heading carries other text, which the fix
drops.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 2\n\n`Owner`: `TESTING` ...",
    good_example="## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 1\n\n`Owner`: `TESTING` ...",
    help="Renumber the obligations `### Obligation 1`, `### Obligation 2`, ... in order.",
)
def obligation_numbering(project):
    yield from _numbering(
        obligations(project), "Obligation", _OBLIGATION_HEAD, "Outstanding Obligations",
        "Renumber the outstanding obligations in order.",
    )


@rule(
    code="SL522",
    name="obligation-owner",
    section="Recovery Mechanics",
    owner="state",
    summary="An obligation's `FailureType` is a failure type and its `Owner` the state owning it.",
    explanation="""
**What it does.** Checks each `### Obligation N`: `FailureType` must be a
failure type and `Owner` the workflow state that owns it (as for recovery
frames, SL506).

**Why.** protocol/expedited.md, Outstanding Obligations: "Each obligation
records `Owner`, `FailureType`, and `Reason`" and "An outstanding obligation
remains until its owning state is reached and the owner corrects and verifies
the specific defect". Obligations are converted from frames "preserving each
converted frame's" owner, so the owner follows PROTOCOL.md, Failure Handoffs:
"A failure handoff routes a defect to its owning state".

**Fix safety.** No fix: either value may be the wrong one.
""",
    beyond_checker=True,
    bad_example="### Obligation 1\n\n`Owner`: `DEVELOPING` `FailureType`: `VERIFICATION` `Reason`: `...`",
    good_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION` `Reason`: `...`",
    help="Give the obligation a valid FailureType and the Owner state that owns it.",
    no_fix_reason="Either value may be the wrong one.",
)
def obligation_owner(project):
    for ob in obligations(project):
        ft, owner = ob.get("FailureType").text, ob.get("Owner").text
        if ob.get("FailureType").field is not None and ft is not None and ft not in FAILURE_TYPES:
            yield report(ob.where("FailureType"), f"Obligation {ob.label}: `FailureType` is `{ft}`, which is not a failure type.")
            continue
        if ft not in FAILURE_TARGETS or owner is None or owner in FAILURE_TARGETS[ft]:
            continue
        yield report(
            ob.where("Owner"),
            f"Obligation {ob.label}: a {ft} obligation belongs to {_owners_text(ft)}, not {owner}.",
        )


standards_lint_rules = module_rules(globals())
