"""Handoff Rules and Forward Transitions: the ``## Handoff`` section of
``.standards/STATE.md`` read against ``WorkflowState``, ``CycleMode`` and the
project mode (the forward route, a non-failure handoff's failure type, a
cycle's entry).  Failure handoffs, documentation handoffs, checkpoint and
promotion handoffs and completion changes are checked in
``failure_handoffs``, ``documentation_handoffs``, ``checkpoint_promotion``
and ``completion_change``.

Every rule reads values that occur exactly once; a missing, repeated or
unknown value is left to the STATE.md structure rules and keeps these rules
silent.  While STATE.md, MODE.md or CONTEXT.md hold merge-conflict markers
the state is not read at all: which side is the state is the user's decision.
"""

from __future__ import annotations

from standards_lint.syntax.protocol import (
    FAILURE_TARGETS,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    TERMINAL_STATES,
    WORKFLOW_STATES,
)
from standards_lint.model.route import FULL_DELIVERABLE_TAIL
from standards_lint.model.state_values import route_steps
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.fixes.handoff import failure_type_not_none, forward_fix, none_fix
from standards_lint.model.accessors import project_mode
from standards_lint.model.handoff import handoff_view, value_at, with_article


# -- Forward Transitions (beyond the checker) -------------------------------------------
_GREENFIELD_STEPS = route_steps(ROUTE_STANDARD_GREENFIELD)
_BROWNFIELD_STEPS = route_steps(ROUTE_STANDARD_BROWNFIELD)
_EXPEDITED_STEPS = route_steps(ROUTE_EXPEDITED)


@rule(
    code="SL420",
    name="forward-route",
    section="Forward Transitions",
    owner="state",
    summary="A STANDARD or EXPEDITED FORWARD handoff takes exactly one step of its topology's route.",
    explanation="""
**What it does.** For a `FORWARD` handoff in a `STANDARD` or `EXPEDITED`
cycle, checks that `Handoff.From -> WorkflowState` is one step of the cycle's
normal route: **Standard Greenfield** (`SCOPING -> ARCHITECTING -> AUDITING ->
DEVELOPING -> ...`) in a `GREENFIELD` project, **Standard Brownfield**
(`AUDITING -> SCOPING -> ARCHITECTING -> DEVELOPING -> ...`) in a `BROWNFIELD`
one, the tail cut after `REVIEWING_IMPLEMENTATION` under
`IMPLEMENTATION_REVIEWED`, and **Expedited Brownfield** (`DEVELOPING ->
REVIEWING_IMPLEMENTATION -> AWAITING_USER_SIGNOFF`). Only `FORWARD` is
checked: `RESUME`, `FAILURE`, `USER_REWORK` and the other kinds explain their
own jumps.

To stay clear of the rules that already judge an edge, it leaves alone
handoffs into `AWAITING_USER_SIGNOFF` (SL354), out of
`REVIEWING_IMPLEMENTATION` (SL355), into a state outside the expedited
topology (SL301), into the omitted tail of `IMPLEMENTATION_REVIEWED` without
recovery (SL302), and into terminal states. While recovery holds frames, a step
of either standard route is accepted (a greenfield cycle becomes `BROWNFIELD`
during development but keeps its route), and under `IMPLEMENTATION_REVIEWED`
corrective reruns may step through the full tail.

**Why.** Handoff Rules: "Forward handoff requires the current completion gate
to pass" and Forward Transitions: "The following normal forward routes use the
gates defined in **Handoff Rules**." Workflow State Reference > Handoff: "Use
`RESUME` whenever a recovery frame returns to `ResumeAt`, and for any other
recovery-directed transition that is not the normal forward handoff." A
`FORWARD` that skips, repeats or reverses a phase claims gates nobody passed.

**Fix safety.** Sometimes (unsafe), outside recovery: when `Handoff.From` is on the route and `WorkflowState` is off it or before `From` (a FORWARD never goes back), `WorkflowState` becomes the forward step from `From`; when `WorkflowState` is on the route and `From` is no workflow state, `From` becomes the state whose forward step it is. Either only when every passed gate's record is `COMPLETE` for this cycle, never into `AWAITING_USER_SIGNOFF` or a terminal state (the user's decisions). A skip along the route is ambiguous: no fix.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD` ... `Kind`: `FORWARD` `From`: `DEVELOPING`",
    good_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Kind`: `FORWARD` `From`: `DEVELOPING`",
    help="Take exactly one step of the route, or use the handoff kind that matches the transition.",
    no_fix_reason="Unless the route and the gates' records determine it, the state, the source or the kind may be the wrong one.",
)
def forward_route(project):
    v = handoff_view(project)
    if v is None or v.kind != "FORWARD" or v.cm not in ("STANDARD", "EXPEDITED"):
        return
    frm, ws = v.frm, v.ws
    if frm not in WORKFLOW_STATES or ws not in WORKFLOW_STATES:
        return
    if ws in TERMINAL_STATES or ws == "AWAITING_USER_SIGNOFF" or frm == "REVIEWING_IMPLEMENTATION":
        return
    recovering = v.recovery_in_use()
    if recovering is None:
        return
    if v.cm == "EXPEDITED":
        if ws not in ROUTE_EXPEDITED:
            return
        steps, route = _EXPEDITED_STEPS, "Expedited Brownfield"
    else:
        policy = v.aw("CompletionPolicy")
        if policy == "IMPLEMENTATION_REVIEWED" and ws in FULL_DELIVERABLE_TAIL and not recovering:
            return
        mode = project_mode(project)  # MODE.md; its conflict markers silence handoff_view
        if recovering or mode not in ("GREENFIELD", "BROWNFIELD"):
            steps, route = _GREENFIELD_STEPS | _BROWNFIELD_STEPS, "Standard Greenfield or Brownfield"
        elif mode == "GREENFIELD":
            steps, route = _GREENFIELD_STEPS, "Standard Greenfield"
        else:
            steps, route = _BROWNFIELD_STEPS, "Standard Brownfield"
    if (frm, ws) in steps:
        return
    nxt = sorted(b for a, b in steps if a == frm)
    expect = f"the next state after {frm} is {' or '.join(nxt)}" if nxt else f"{frm} has no forward step there"
    yield report(
        value_at(v.from_f),
        f"A FORWARD handoff follows the {route} route one step at a time, but {frm} -> {ws} "
        f"skips, repeats or reverses it ({expect}); a recovery-directed jump records RESUME.",
        forward_fix(project),
    )


_NON_FAILURE_KINDS = ("INITIAL", "NEW_CYCLE", "FORWARD", "RESUME", "PROMOTE", "SIGNOFF", "CANCEL")


@rule(
    code="SL419",
    name="non-failure-handoff-failure-type",
    section="Workflow State Reference",
    owner="state",
    summary="Only FAILURE and USER_REWORK handoffs carry a FailureType; the other kinds record NONE.",
    explanation="""
**What it does.** Reports an `INITIAL`, `NEW_CYCLE`, `FORWARD`, `RESUME`,
`PROMOTE`, `SIGNOFF` or `CANCEL` handoff whose `FailureType` is a failure
type rather than `NONE`. (`DOCUMENTATION` entry, forward and resume handoffs
are SL405, `CHECKPOINT` is SL411 and `COMPLETION_CHANGE` is SL418; an unknown
value is SL222.)

**Why.** Handoff Rules: "A failure handoff also identifies `FailureType`" and
Workflow State Reference > Handoff: "Use `NONE` for inapplicable fields." The
protocol spells it out for each of these kinds: Start a cycle records
"`Kind: INITIAL` with `From: NONE` and `FailureType: NONE`" or "`Kind:
NEW_CYCLE` ... `FailureType: NONE`"; Expedited Promotion sets "`From` to the
interrupted state, `FailureType: NONE`"; Sign off records "`Handoff.Kind:
SIGNOFF`, `From: AWAITING_USER_SIGNOFF`, and `FailureType: NONE`"; Cancel
records "`Handoff.Kind: CANCEL`, set `From` to the interrupted state,
`FailureType: NONE`". A leftover failure type makes a normal transition read
like a defect route.

**Fix safety.** Unsafe fix: sets `FailureType` to `NONE`; if a defect was
really being routed, the handoff kind is what needs to change.
""",
    fix="unsafe",
    beyond_checker=True,
    bad_example="`Kind`: `RESUME` `From`: `REVIEWING_IMPLEMENTATION` `FailureType`: `SYNCHRONIZATION`",
    good_example="`Kind`: `RESUME` `From`: `REVIEWING_IMPLEMENTATION` `FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to `NONE`, or use a FAILURE/USER_REWORK handoff if a defect was routed.",
)
def non_failure_handoff_failure_type(project):
    v = handoff_view(project)
    if v is None or v.kind not in _NON_FAILURE_KINDS:
        return
    if v.cm in (None, "DOCUMENTATION") and v.kind in ("INITIAL", "NEW_CYCLE", "FORWARD", "RESUME"):
        return  # SL405 (or an unknown mode)
    if v.ft not in FAILURE_TARGETS:
        return  # NONE, or not a failure type (SL222)
    yield from failure_type_not_none(
        v,
        f"{with_article(v.kind)} handoff routes no defect, so its FailureType is NONE, not {v.ft}; only FAILURE and "
        f"USER_REWORK name a failure type.",
    )


@rule(
    code="SL421",
    name="cycle-entry-origin",
    section="Workflow State Reference",
    owner="state",
    summary="An INITIAL handoff comes From NONE; a NEW_CYCLE handoff From SIGNED_OFF or CANCELLED.",
    explanation="""
**What it does.** Outside `DOCUMENTATION` cycles (SL407 covers those),
reports an `INITIAL` handoff whose `From` is a workflow state instead of
`NONE`, and a `NEW_CYCLE` handoff whose `From` is `NONE` or a non-terminal
state. (A `From` that is no workflow state at all is SL221.)

**Why.** Start a cycle: "for the first cycle, keep `Kind: INITIAL` with `From:
NONE` and `FailureType: NONE`; from a terminal state, record `Kind:
NEW_CYCLE`, `From` set to that state". A cycle starts only "from the installed
state ... or from `SIGNED_OFF` or retained `CANCELLED`; a finished cycle is
never reopened." Installation initializes "`Handoff.Kind: INITIAL`".

**Fix safety.** Unsafe fix for `INITIAL` (sets `From` to `NONE`); no fix for
`NEW_CYCLE`, whose terminal source only the history knows.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`CycleMode`: `STANDARD` ... `Kind`: `NEW_CYCLE` `From`: `ARCHITECTING`",
    good_example="`CycleMode`: `STANDARD` ... `Kind`: `NEW_CYCLE` `From`: `SIGNED_OFF`",
    help="Set `Handoff.From` to `NONE` (INITIAL) or the previous cycle's terminal state (NEW_CYCLE).",
)
def cycle_entry_origin(project):
    v = handoff_view(project)
    if v is None or v.cm not in ("UNSET", "STANDARD", "EXPEDITED"):
        return
    f, frm = v.from_f, v.frm
    if f is None:
        return
    if v.kind == "INITIAL" and frm in WORKFLOW_STATES:
        yield report(
            value_at(f),
            f"An INITIAL handoff records From NONE, not {frm}; a cycle started from a terminal state "
            f"records NEW_CYCLE.",
            fix=none_fix(f, "From"),
        )
    elif v.kind == "NEW_CYCLE" and (frm == "NONE" or (frm in WORKFLOW_STATES and frm not in TERMINAL_STATES)):
        yield report(
            value_at(f),
            f"A NEW_CYCLE handoff comes From SIGNED_OFF or CANCELLED, not {frm}; an unfinished cycle "
            f"is never replaced in place.",
        )


standards_lint_rules = module_rules(globals())
