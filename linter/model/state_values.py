"""STATE.md values as the structure rules read them (a field present once with
a non-empty value), and the values the rest of STATE.md determines: the
forward step a handoff implies, the state before an inactive stack."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.ast import Container, Field
from standards_lint.model.accessors import project_mode
from standards_lint.syntax.protocol import (
    HANDOFF_KINDS,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    TERMINAL_STATES,
    WORKFLOW_STATES,
)


STATE_PATH = ".standards/STATE.md"


def unconflicted(project, doc):
    """*doc* (a parsed runtime file), or None when it is absent, unreadable
    or holds merge-conflict markers."""
    if doc is None or project.conflicts(doc.path):
        return None
    return doc


def state_model(project):
    """The STATE.md model, or None when absent, unreadable or conflicted."""
    return unconflicted(project, project.state)


def state_fields(st, container: Optional[Container], name: str) -> list[Field]:
    """Every occurrence of *name* among *container*'s own fields (not those
    of its list items), in text order."""
    if container is None:
        return []
    return container.all_fields(name)


def state_one(st, container: Optional[Container], name: str) -> Optional[Field]:
    """The field *name* of *container* when it occurs exactly once, else None."""
    found = state_fields(st, container, name)
    return found[0] if len(found) == 1 else None


def state_value(st, container: Optional[Container], name: str) -> Optional[str]:
    """The value of the field *name* of *container* when it occurs once and is not
    blank, else None."""
    f = state_one(st, container, name)
    return f.value if f is not None and f.value.strip() else None


def is_inactive(st) -> bool:
    """No cycle is active: none started yet, or the last one ended."""
    ws = state_value(st, st.header, "WorkflowState")
    cid = state_value(st, st.section("Active Work"), "Id")
    return ws in TERMINAL_STATES or cid == "UNSET"


def determined_value(st, label: str, name: str) -> Optional[str]:
    """The value the protocol fixes for a missing field, when it does."""
    header = st.header
    aw = st.section("Active Work")
    mode = state_value(st, header, "CycleMode")
    if label == "Active Work" and name == "PendingVerificationCadence":
        # Documentation cycles keep it NONE; inactive cycles require NONE.
        if mode == "DOCUMENTATION" or (mode == "UNSET" and is_inactive(st)):
            return "NONE"
    if label == "Active Work" and name == "CompletionPolicy":
        # NONE before any cycle and for EXPEDITED or DOCUMENTATION cycles.
        if state_value(st, aw, "Id") == "UNSET" or mode in ("EXPEDITED", "DOCUMENTATION"):
            return "NONE"
    if label == "Active Work" and name == "PromotionReason":
        # Only an expedited cycle's promotion (which makes it STANDARD) records
        # a reason; documentation cycles keep it NONE.
        if mode in ("EXPEDITED", "DOCUMENTATION") and state_value(st, st.section("Handoff"), "Kind") != "PROMOTE":
            return "NONE"
    if label == "header" and name == "PendingCycleMode":
        # Only "While no cycle is active, or before the initialized first
        # cycle has received its request" may a preference be set; starting a
        # cycle makes it UNSET (Start a cycle).
        ws = state_value(st, header, "WorkflowState")
        if ws in WORKFLOW_STATES and not is_inactive(st) and state_value(st, aw, "Id") not in (None, "NONE"):
            return "UNSET"
    if label == "header" and name == "PendingCycleRequest":
        # Paired: the request is UNSET exactly when the blocker is NONE.
        if state_value(st, header, "PendingCycleBlockedOn") == "NONE":
            return "UNSET"
    if label == "header" and name == "PendingCycleBlockedOn":
        if state_value(st, header, "PendingCycleRequest") == "UNSET":
            return "NONE"
    if name == "Active" and label in ("Recovery", "Outstanding Obligations"):
        # Active is true exactly when the section holds frames / obligations.
        sec = st.section(label)
        if sec is not None:
            return "true" if list(sec.subsections) else "false"
    if label == "Handoff" and name == "FailureType":
        # Only FAILURE and USER_REWORK handoffs route a failure type; every
        # other kind records NONE (Start a cycle, Checkpoint Handoffs,
        # Expedited Promotion, Sign off, Cancel, COMPLETION_CHANGE).
        kind = state_value(st, st.section("Handoff"), "Kind")
        if kind in HANDOFF_KINDS and kind not in ("FAILURE", "USER_REWORK"):
            return "NONE"
    if label == "Active Work" and not is_inactive(st):
        # "In documentation work ... `Development` remains `NONE` throughout
        # the cycle"; "In expedited work `Scope` and `Architecture` normally
        # remain `NONE` unless the cycle is promoted" (which makes it STANDARD).
        if name == "Development" and mode == "DOCUMENTATION":
            return "NONE"
        if (name in ("Scope", "Architecture") and mode == "EXPEDITED"
                and state_value(st, st.section("Handoff"), "Kind") != "PROMOTE"):
            return "NONE"
    return None


def declared_project_mode(project) -> Optional[str]:
    """``ProjectMode`` from MODE.md (:func:`model.accessors.project_mode`,
    the one reading of it)."""
    return project_mode(project)


def route_steps(route) -> set:
    """The (state, next state) pairs of *route*."""
    return set(zip(route, route[1:]))


def forward_steps(project, st) -> Optional[set]:
    """The (from, to) steps a normal FORWARD handoff may take in this cycle
    (Forward Transitions), or None when the route is not known: no single
    cycle mode, an unknown completion policy, or recovery frames (a corrective
    rerun may step through either standard route)."""
    if st.section("Recovery") is None or st.frames:
        return None
    mode = state_value(st, st.header, "CycleMode")
    if mode == "DOCUMENTATION":
        return route_steps(ROUTE_DOCUMENTATION)
    if mode == "EXPEDITED":
        return route_steps(ROUTE_EXPEDITED)
    if mode != "STANDARD":
        return None
    # A greenfield cycle keeps its route after Developer makes the project
    # BROWNFIELD, so a BROWNFIELD project may be on either standard route.
    routes = (ROUTE_STANDARD_GREENFIELD,) if declared_project_mode(project) == "GREENFIELD" else (
        ROUTE_STANDARD_GREENFIELD, ROUTE_STANDARD_BROWNFIELD)
    policy = state_value(st, st.section("Active Work"), "CompletionPolicy")
    out: set = set()
    for route in routes:
        if policy == "FULL_DELIVERABLE":
            out |= route_steps(route)
        elif policy == "IMPLEMENTATION_REVIEWED":
            cut = route[: route.index("REVIEWING_IMPLEMENTATION") + 1] + ("AWAITING_USER_SIGNOFF",)
            out |= route_steps(cut)
        else:
            return None
    return out


def only_value(values) -> Optional[str]:
    """The one value of *values* when they all agree, else None."""
    values = set(values)
    return values.pop() if len(values) == 1 else None


def determined_from(project, st) -> Optional[str]:
    """The `Handoff.From` that the handoff's kind and `WorkflowState`
    determine, or None: `INITIAL` comes from `NONE` (Start a cycle),
    `SIGNOFF` from `AWAITING_USER_SIGNOFF` (Sign off), a `CHECKPOINT` from
    the other side of the STANDARD Developer/Tester exchange, and a
    `FORWARD` from the one state before `WorkflowState` on the cycle's route."""
    kind = state_value(st, st.section("Handoff"), "Kind")
    ws = state_value(st, st.header, "WorkflowState")
    if kind == "INITIAL":
        return "NONE"
    return handoff_step_end(project, st, kind, ws, after=False)


def handoff_step_end(project, st, kind, state, *, after: bool) -> Optional[str]:
    """The other end of the one step a *kind* handoff takes at *state*: the
    state after it (*after*) or before it, or None when the kind and STATE.md
    do not determine it.  `SIGNOFF` is `AWAITING_USER_SIGNOFF` ->
    `SIGNED_OFF`, a `CHECKPOINT` the STANDARD Developer/Tester exchange, and a
    `FORWARD` the one step from or into *state* on the cycle's route."""
    if state not in WORKFLOW_STATES:
        return None
    if kind == "SIGNOFF":
        start, end = ("AWAITING_USER_SIGNOFF", "SIGNED_OFF") if after else ("SIGNED_OFF", "AWAITING_USER_SIGNOFF")
        return end if state == start else None
    if kind == "CHECKPOINT":
        if state_value(st, st.header, "CycleMode") != "STANDARD":
            return None
        return {"TESTING": "DEVELOPING", "DEVELOPING": "TESTING"}.get(state)
    if kind == "FORWARD":
        steps = forward_steps(project, st)
        if not steps:
            return None
        return only_value(b for a, b in steps if a == state) if after else only_value(a for a, b in steps if b == state)
    return None
