"""Handoff fixes several rules share: the forward step (a FORWARD handoff's
WorkflowState set to the step after Handoff.From), the Handoff.Kind of a
cycle that has not started, and a Handoff field set to NONE (with the
finding of a FailureType that a kind routing no failure records)."""

from __future__ import annotations

from standards_lint.model.accessors import cycle_mode, ho_field, state_of
from standards_lint.model.cycle import STATE_RECORDS
from standards_lint.model.handoff import handoff_view, value_at
from standards_lint.model.recovery import cycle_route, forward_step, passed_records_complete
from standards_lint.syntax.protocol import TERMINAL_STATES, WORKFLOW_STATES
from standards_lint.engine.rule import replace, report


def forward_fix(project):
    """The field a FORWARD handoff that is not one step of the route got
    wrong, when the project's files determine it (Forward Transitions;
    Handoff Rules: "Forward handoff requires the current completion gate to
    pass"), outside recovery (a rerun has its own route):

    - `Handoff.From` is a state of the route but `WorkflowState` is not (a
      state the cycle's topology omits), or lies before `From` (a FORWARD
      never goes back): `WorkflowState` becomes the forward step from
      `From`;
    - `WorkflowState` is a state of the route and `Handoff.From` is no
      workflow state at all: `From` becomes the state whose forward step
      `WorkflowState` is.

    In both, the records of every gate before the new state must be
    COMPLETE for this cycle and account for every current acceptance
    condition (the gate passed); a new state must not have its own record
    yet (work there has not begun).  A terminal state is the
    user's decision (sign-off, cancellation): no fix; nor is a move into
    `AWAITING_USER_SIGNOFF`, whose readiness asks more than the records'
    Status."""
    v = handoff_view(project)
    if v is None or v.kind != "FORWARD" or v.frames or v.recovery_in_use() is not False:
        return None
    if v.obligations_in_use():
        return None
    frm, ws = v.frm, v.ws
    if frm is None or ws is None or ws in TERMINAL_STATES or frm in TERMINAL_STATES:
        return None
    route = cycle_route(project)
    if frm in route and ws in WORKFLOW_STATES:
        nxt = forward_step(project, frm)
        if nxt is None or nxt == ws or v.ws_f is None or nxt == "AWAITING_USER_SIGNOFF":
            return None  # sign-off readiness asks more than the gates' records
        if ws in route and route.index(ws) > route.index(frm):
            return None  # a skip: either end may be wrong
        if not passed_records_complete(project, nxt) or _own_record_written(project, nxt):
            return None
        return _set_state_edit(v, nxt, f"Set WorkflowState to {nxt}, the forward step from {frm}")
    if ws in route and frm not in WORKFLOW_STATES and frm != "NONE" and v.from_f is not None:
        prev = [s for s in route if forward_step(project, s) == ws]
        if len(prev) != 1 or not passed_records_complete(project, ws):
            return None
        return replace(v.from_f.path, v.from_f.value_span, prev[0], safe=False,
                       description=f"Set Handoff.From to {prev[0]}, the state whose forward step is {ws}")
    return None


def _own_record_written(project, state: str) -> bool:
    """Whether the record *state*'s owner writes already exists for this
    cycle: work there has begun, so the handoff that just entered it may not
    be the last transition after all."""
    own = dict(STATE_RECORDS, DEVELOPING=("DEVELOPMENT", None)).get(state)
    cid = project.state.aw("Id")
    if own is None or not cid:
        return False
    art, kind = own
    return any(art != "REVIEW" or r.review_kind == kind for r in project.records_of(cid, art))


def _set_state_edit(v, new: str, description: str):
    f = v.ws_f
    return replace(f.path, f.value_span, new, safe=False, description=description)


def unstarted_kind_fix(project):
    """Installation's `Handoff.Kind: INITIAL` (State-update rules, 1) when
    three records agree that no cycle has started (`Active Work.Id`,
    `Request` and `CycleMode` all `UNSET`) and the rest of the handoff is
    the installed one already (`From` and `FailureType` `NONE`): only the
    kind was miswritten."""
    sm = state_of(project)
    if sm is None or sm.aw("Id") != "UNSET" or sm.aw("Request") != "UNSET" or cycle_mode(sm) != "UNSET":
        return None
    f = ho_field(sm, "Kind")
    if f is None or f.value == "INITIAL" or sm.ho("From") != "NONE" or sm.ho("FailureType") != "NONE":
        return None
    return replace(f.path, f.value_span, "INITIAL", safe=False,
                   description="Set Handoff.Kind to INITIAL: no cycle has started")


def forward_state_fix(project):
    """A FORWARD handoff from an included state into an omitted one: the
    state is the forward step from `Handoff.From` (:func:`forward_fix`;
    with `WorkflowState` off the route that fix can only set it)."""
    return forward_fix(project)


def none_fix(f, name: str):
    """`Handoff.<name>` (the field *f*) set to NONE, the value of an
    inapplicable field (Workflow State Reference > Handoff: "Use `NONE` for
    inapplicable fields"); unsafe: the kind may be the field that is wrong."""
    return replace(f.path, f.value_span, "NONE", safe=False, description=f"Set Handoff.{name} to NONE")


def failure_type_not_none(v, message: str):
    """The finding at `Handoff.FailureType` when it is not NONE, for a
    handoff whose kind routes no failure ("A failure handoff also identifies
    `FailureType`"; the others use NONE), with :func:`none_fix`.  *v* is the
    :class:`~standards_lint.model.handoff.HandoffView`."""
    f = v.ft_f
    if f is None or v.ft == "NONE":
        return
    yield report(value_at(f), message, fix=none_fix(f, "FailureType"))
