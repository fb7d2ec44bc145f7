"""Recovery (PROTOCOL.md, Recovery Mechanics; Outstanding Obligations): the
frames of the recovery stack and the outstanding obligations with their
fields, the cycle's route, where a corrective handoff went, and what decides
that a frame is stale."""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.syntax.ast import Container, Field
from standards_lint.syntax.data import Frozen
from standards_lint.model.acceptance import analysis, complete_records, evidence_ids, record_scan, traced
from standards_lint.model.accessors import project_mode
from standards_lint.model.cycle import STATE_RECORDS, Cycle, record_state
from standards_lint.syntax.protocol import (
    CYCLE_ID_RE,
    USABLE_CYCLE_ID_RE,
    FAILURE_TARGETS,
    FAILURE_TYPES,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    TERMINAL_STATES,
    WORKFLOW_STATES,
    record_path,
)


# Documentation Cycle Contract: the included states (Documentation Brownfield
# route) and the included roles' states (every included state but the user's).
DOC_STATES = ROUTE_DOCUMENTATION


DOC_ROLES = tuple(s for s in ROUTE_DOCUMENTATION if s != "AWAITING_USER_SIGNOFF")


# Failure types whose owners (Developer, Tester) are omitted in DOCUMENTATION;
# REVIEW is handled apart: its only DOCUMENTATION owner is REVIEWING_FINAL.
DOC_UNROUTABLE = ("IMPLEMENTATION", "VERIFICATION")


_LOOSE_NUMBER = re.compile(r"^\s*(?:Frame|Obligation)\s+(\d+)\b")


class FrameValue(Frozen):
    """A frame field: its text (None when missing, or repeated with different
    values) and the field node to point at (the first occurrence)."""

    __slots__ = ("text", "field")

    def __init__(self, text: Optional[str], field: Optional[Field]):
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "field", field)


class Frame(Frozen):
    """A recovery frame or outstanding obligation: its container, its position in
    the stack, the number it is called by, and whether it is the last."""

    __slots__ = ("container", "position", "label", "last")

    def __init__(self, container: Container, position: int, label: int, last: bool):
        object.__setattr__(self, "container", container)
        object.__setattr__(self, "position", position)  # 1-based position in the stack
        object.__setattr__(self, "label", label)  # the number it is called by: its heading's, else its position
        object.__setattr__(self, "last", last)

    def get(self, name: str) -> FrameValue:
        found = self.container.all_fields(name)
        if not found:
            return FrameValue(None, None)
        values = {f.value for f in found}
        return FrameValue(found[0].value if len(values) == 1 else None, found[0])

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


def _entries(section: Optional[Container]) -> list[Frame]:
    """The entries (subsections) of a stack section, in order."""
    if section is None:
        return []
    subs = list(section.subsections)
    return [Frame(c, i, _label(c, i), i == len(subs)) for i, c in enumerate(subs, start=1)]


def frames(project) -> list[Frame]:
    """The recovery frames of STATE.md, in stack order."""
    st = project.state
    return _entries(st.recovery) if st is not None else []


def obligations(project) -> list[Frame]:
    """The outstanding obligations of STATE.md, in order."""
    st = project.state
    return _entries(st.obligations) if st is not None else []


def workflow_state_of(project) -> Optional[str]:
    """STATE.md's ``WorkflowState`` when it is a workflow state, else None."""
    st = project.state
    if st is None:
        return None
    ws = st.workflow_state
    return ws if ws in WORKFLOW_STATES else None


def cycle_mode_of(project) -> Optional[str]:
    """STATE.md's ``CycleMode`` as written, or None without a state."""
    st = project.state
    return st.cycle_mode if st is not None else None


def in_route(project, state: str, role: bool = False) -> bool:
    """Whether *state* belongs to the cycle mode's route (a role's state when
    *role*): a fix never writes a state the cycle cannot be in."""
    mode = cycle_mode_of(project)
    if mode == "DOCUMENTATION":
        return state in (DOC_ROLES if role else DOC_STATES)
    if mode == "EXPEDITED":
        return state in ROUTE_EXPEDITED
    return state in WORKFLOW_STATES


CORRECTIVE_KINDS = ("FAILURE", "USER_REWORK")


def cycle_route(project) -> tuple[str, ...]:
    """The forward route of the cycle's mode and the project's mode."""
    from standards_lint.model.holding import route_of

    return route_of(cycle_mode_of(project), project_mode(project))


def frame_owners(project, ft: str) -> tuple[str, ...]:
    """The states that may own a frame of failure type *ft* in this cycle
    mode (Failure Handoffs; Documentation Cycle Contract: REVIEW goes to
    REVIEWING_FINAL, IMPLEMENTATION and VERIFICATION have no owner)."""
    owners = FAILURE_TARGETS.get(ft, ())
    mode = cycle_mode_of(project)
    if mode == "DOCUMENTATION":
        if ft == "REVIEW":
            return ("REVIEWING_FINAL",)
        return tuple(o for o in owners if o in DOC_ROLES)
    if mode == "EXPEDITED":
        return tuple(o for o in owners if o in EXPEDITED_OWNERS)
    return owners


def frame_broken(project, fr: Frame) -> Optional[bool]:
    """Whether the frame contradicts itself (the Failure Types table, step 1
    of Recovery Mechanics, the cycle's topology); None when a value is
    missing or invalid (SL504's findings)."""
    frm, owner, resume, ft = fr.state("From"), fr.state("Owner"), fr.state("ResumeAt"), fr.get("FailureType").text
    rt = fr.get("RerunThrough").text
    if None in (frm, owner, resume) or ft not in FAILURE_TYPES or (rt != "NONE" and rt not in WORKFLOW_STATES):
        return None
    return (owner not in frame_owners(project, ft) or resume != frm or frm == owner
            or not in_route(project, frm) or not in_route(project, resume)
            or not in_route(project, owner, role=True))


def frame_fits_state(project, fr: Frame, ws: str) -> bool:
    """Whether WorkflowState is where the frame's correction can be: its
    Owner while `RerunThrough` is NONE, else between Owner and RerunThrough
    on the cycle's route (Recovery Mechanics, steps 4-7)."""
    owner, rt = fr.state("Owner"), fr.get("RerunThrough").text
    if ws in TERMINAL_STATES or ws == "AWAITING_USER_SIGNOFF" or owner is None:
        return False
    if rt == "NONE":
        return ws == owner
    route = cycle_route(project)
    if owner not in route or rt not in route or ws not in route:
        return False
    return route.index(owner) <= route.index(ws) <= route.index(rt)


def forward_step(project, frm: str) -> Optional[str]:
    """The state a FORWARD handoff from *frm* enters (Forward Transitions):
    the next state of the cycle's route, after `REVIEWING_IMPLEMENTATION`
    the one its CompletionPolicy names."""
    route = cycle_route(project)
    if frm not in route or frm == route[-1]:
        return None
    if cycle_mode_of(project) == "STANDARD" and frm == "REVIEWING_IMPLEMENTATION":
        policy = project.state.aw("CompletionPolicy")
        return {"FULL_DELIVERABLE": "DOCUMENTING", "IMPLEMENTATION_REVIEWED": "AWAITING_USER_SIGNOFF"}.get(policy)
    return route[route.index(frm) + 1]


def _gate_records(project, route) -> dict:
    """State -> (artifact, review kind) of the record its gate leaves, for
    the states whose records the cycle's mode and CompletionPolicy require
    (and the development plan where the route develops)."""
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
    cid = project.state.aw("Id")
    route = cycle_route(project)
    if not cid or cid in ("UNSET", "NONE") or not USABLE_CYCLE_ID_RE.match(cid) or ws not in route:
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


def never_reached(project, state: str) -> bool:
    """Whether the cycle can never have been in *state*: a gate before it
    on the route (one its mode and CompletionPolicy require) has left no
    record of this cycle anywhere.  Records are never deleted, so a frame
    interrupted there records routing that did not happen."""
    cid = project.state.aw("Id")
    route = cycle_route(project)
    if not cid or cid in ("UNSET", "NONE") or not USABLE_CYCLE_ID_RE.match(cid) or state not in route:
        return False
    gates = _gate_records(project, route)
    for s in route[: route.index(state)]:
        if s in gates:
            art, kind = gates[s]
            if not any(r.review_kind == kind or art != "REVIEW" for r in project.records_of(cid, art)):
                return True
    return False


def handoff_explains_state(project, ws: str) -> bool:
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
        ok = frm == ws and ws in frame_owners(project, st.ho("FailureType") or "")
    else:
        ok = False
    return ok and passed_records_complete(project, ws)


def entry_states(project) -> tuple[str, ...]:
    """Where a cycle start (or installation) leaves WorkflowState
    (protocol/user-decisions.md, Start a cycle, step 5; State-update rules,
    1): `AUDITING` (reconciliation first, a DOCUMENTATION cycle, a
    BROWNFIELD project), `SCOPING` in a GREENFIELD project, `DEVELOPING`
    for an EXPEDITED cycle."""
    mode = cycle_mode_of(project)
    if mode == "DOCUMENTATION":
        return ("AUDITING",)
    if mode == "EXPEDITED":
        return ("DEVELOPING", "AUDITING")
    return ("SCOPING", "AUDITING") if project_mode(project) == "GREENFIELD" else ("AUDITING",)


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
    owners = frame_owners(project, ft)
    fs = frames(project)
    if not fs:
        active = st.one(st.recovery, "Active")
        if active is None or active.value != "false" or frm not in owners or not in_route(project, frm, role=True):
            return None
        return frm
    fr = fs[-1]
    owner = fr.state("Owner")
    if (fr.state("From") == frm and fr.get("FailureType").text == ft and owner in owners and owner != frm
            and fr.get("RerunThrough").text == "NONE" and in_route(project, owner, role=True)):
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
    frm, ws = st.ho("From"), workflow_state_of(project)
    if frm not in WORKFLOW_STATES or ws is None or ws in TERMINAL_STATES:
        return None
    fs = frames(project)
    if fs:
        fr = fs[-1]
        ft = fr.get("FailureType").text
        if fr.state("From") == frm and fr.state("Owner") == ws != frm and ft in FAILURE_TYPES \
                and ws in frame_owners(project, ft):
            return ft
        return None
    active = st.one(st.recovery, "Active")
    if active is None or active.value != "false" or ws != frm:
        return None
    owned = [t for t in FAILURE_TYPES if ws in frame_owners(project, t)]
    return owned[0] if len(owned) == 1 else None


EXPEDITED_OWNERS = ("DEVELOPING", "REVIEWING_IMPLEMENTATION")


def plural_phrase(n: int, one: str, many: str) -> str:
    """``is 1 frame`` / ``are 2 frames``."""
    return f"is {n} {one}" if n == 1 else f"are {n} {many}"


def owners_text(ft: str) -> str:
    """The states that own failure type *ft*, joined with ``or``."""
    return " or ".join(FAILURE_TARGETS[ft])
