"""Handoffs of a DOCUMENTATION cycle (PROTOCOL.md, Documentation Cycle
Contract; Forward Transitions): where it may start, resume and go forward, and
which failures its omitted owners cannot take."""

from __future__ import annotations

from standards_lint.fixes.handoff import failure_type_not_none, forward_fix, none_fix
from standards_lint.model.handoff import handoff_view, value_at
from standards_lint.model.recovery import CORRECTIVE_KINDS, DOC_ROLES, DOC_STATES, DOC_UNROUTABLE
from standards_lint.syntax.protocol import FAILURE_TARGETS, ROUTE_DOCUMENTATION, STATE_OWNERS
from standards_lint.engine.rule import module_rules, report, rule


DOC_ROUTE_TEXT = " -> ".join(ROUTE_DOCUMENTATION)


@rule(
    code="SL404",
    since="0.11.0",
    name="documentation-omitted-failure-owner",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle routes failures only to included owners, REVIEW to REVIEWING_FINAL.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports a `FAILURE` or
`USER_REWORK` handoff whose `FailureType` is `IMPLEMENTATION` or
`VERIFICATION` (owned by the omitted Developer and Tester), and a `REVIEW`
failure or rework that did not go to `REVIEWING_FINAL`.

**Why.** Failure Handoffs: "In `DOCUMENTATION`, only owners included in
**Documentation Cycle Contract** are valid failure targets, with `REVIEW`
targeting `REVIEWING_FINAL`. A required omitted role follows that contract's
blocking user-decision rule instead of a failure handoff into a skipped
state." The contract: "Persist the evidence and required user decision in
`Active Work.BlockedOn`".

**Fix safety.** No fix: the user must decide to keep a documentation-only
scope or cancel and start an implementation cycle.
""",
    bad_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `FAILURE` `From`: `DOCUMENTING` `FailureType`: `VERIFICATION`",
    good_example="`CycleMode`: `DOCUMENTATION` ... `BlockedOn`: `The example needs a behavior change; keep the documentation scope or cancel?`",
    help="Record the needed user decision in `Active Work.BlockedOn` instead of routing to an omitted owner.",
    no_fix_reason="The user must decide to keep a documentation-only scope or cancel and start an implementation cycle.",
)
def documentation_omitted_failure_owner(project):
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind not in CORRECTIVE_KINDS:
        return
    ft = v.ft
    if ft in DOC_UNROUTABLE:
        owner = STATE_OWNERS[FAILURE_TARGETS[ft][0]]
        yield report(
            value_at(v.ft_f),
            f"A DOCUMENTATION cycle omits the {owner}, so it cannot route {ft} work; keep the cycle "
            f"and record the required user decision in Active Work.BlockedOn.",
        )
    elif ft == "REVIEW" and v.ws is not None and v.ws != "REVIEWING_FINAL":
        yield report(
            value_at(v.ws_f),
            f"In a DOCUMENTATION cycle a REVIEW failure or rework goes to REVIEWING_FINAL, not {v.ws}.",
        )


@rule(
    code="SL405",
    since="0.11.0",
    name="documentation-handoff-failure-type",
    section="Documentation Cycle Contract",
    owner="state",
    summary="DOCUMENTATION INITIAL, NEW_CYCLE, FORWARD and RESUME handoffs carry FailureType NONE.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports an `INITIAL`,
`NEW_CYCLE`, `FORWARD` or `RESUME` handoff whose `FailureType` is not `NONE`.

**Why.** Workflow State Reference > Handoff: "Use `NONE` for inapplicable
fields." Start a cycle: record "`FailureType: NONE`" for `INITIAL` and
`NEW_CYCLE`; only a failure handoff "also identifies `FailureType`". A failure
type on a normal or recovery-return handoff misstates what happened.

**Fix safety.** Unsafe fix: sets `FailureType` to `NONE`; if a defect was
really being routed, the handoff kind is what needs to change.
""",
    fix="unsafe",
    bad_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `FORWARD` `From`: `DOCUMENTING` `FailureType`: `REVIEW`",
    good_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `FORWARD` `From`: `DOCUMENTING` `FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to `NONE`, or change the handoff kind if a defect was routed.",
)
def documentation_handoff_failure_type(project):
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind not in ("INITIAL", "NEW_CYCLE", "FORWARD", "RESUME"):
        return
    yield from failure_type_not_none(v, f"A DOCUMENTATION {v.kind} handoff records FailureType NONE, not `{v.ft}`.")


@rule(
    code="SL407",
    since="0.11.0",
    name="documentation-entry-origin",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION INITIAL handoff comes From NONE; NEW_CYCLE From SIGNED_OFF or CANCELLED.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, checks that an `INITIAL`
handoff records `From: NONE` and a `NEW_CYCLE` handoff records `From:
SIGNED_OFF` or `From: CANCELLED`.

**Why.** Start a cycle: "for the first cycle, keep `Kind: INITIAL` with `From:
NONE` and `FailureType: NONE`; from a terminal state, record `Kind:
NEW_CYCLE`, `From` set to that state". A cycle starts only "from the installed
state ... or from `SIGNED_OFF` or retained `CANCELLED`; a finished cycle is
never reopened."

**Fix safety.** Unsafe fix for `INITIAL` (sets `From` to `NONE`); no fix for
`NEW_CYCLE`, whose terminal source only the history knows.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `NEW_CYCLE` `From`: `SCOPING`",
    good_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `NEW_CYCLE` `From`: `SIGNED_OFF`",
    help="Set `Handoff.From` to `NONE` (INITIAL) or to the terminal state of the previous cycle (NEW_CYCLE).",
)
def documentation_entry_origin(project):
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION":
        return
    f, frm = v.from_f, v.frm
    if f is None:
        return
    if v.kind == "INITIAL" and frm != "NONE":
        yield report(
            value_at(f),
            f"A DOCUMENTATION INITIAL handoff records From NONE, not `{frm}`; a cycle started from a "
            f"terminal state records NEW_CYCLE.",
            fix=none_fix(f, "From"),
        )
    elif v.kind == "NEW_CYCLE" and frm not in ("SIGNED_OFF", "CANCELLED"):
        yield report(
            value_at(f),
            f"A DOCUMENTATION NEW_CYCLE handoff comes From SIGNED_OFF or CANCELLED, not `{frm}`; "
            f"an active cycle is never replaced in place.",
        )


@rule(
    code="SL408",
    since="0.11.0",
    name="documentation-omitted-origin",
    section="Documentation Cycle Contract",
    owner="state",
    summary="DOCUMENTATION FAILURE, USER_REWORK and RESUME handoffs come from an included state.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports a `FAILURE`,
`USER_REWORK` or `RESUME` handoff whose `From` is not one of the cycle's
included states (`AUDITING`, `SCOPING`, `ARCHITECTING`, `DOCUMENTING`,
`REVIEWING_FINAL`, `SYNCHRONIZING`, `AWAITING_USER_SIGNOFF`).

**Why.** Documentation Cycle Contract: "Failure and rework within this
boundary use **Recovery Mechanics** among the included states only" and
Recovery Mechanics: "Every documentation frame's `From` and `ResumeAt` must be
included states". The cycle never runs Development, Testing or Implementation
Review, and a terminal cycle is never reopened, so no corrective transition
can start there.

**Fix safety.** No fix: the interrupted state has to be recovered from the
cycle's history.
""",
    bad_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `PROJECT_CONTEXT`",
    good_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `FAILURE` `From`: `REVIEWING_FINAL` `FailureType`: `PROJECT_CONTEXT`",
    help="Set `Handoff.From` to the included state that was interrupted.",
    no_fix_reason="The interrupted state has to be recovered from the cycle's history.",
)
def documentation_omitted_origin(project):
    yield from _origin_outside(
        project, ("FAILURE", "USER_REWORK", "RESUME"), DOC_STATES,
        "A DOCUMENTATION {kind} handoff cannot come from `{frm}`, which is not a state of the documentation cycle.",
    )


@rule(
    code="SL409",
    since="0.11.0",
    name="documentation-resume-origin",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION RESUME comes from an included role's state.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports a `RESUME` handoff
whose `From` is not the state of an included role (`AUDITING`, `SCOPING`,
`ARCHITECTING`, `DOCUMENTING`, `REVIEWING_FINAL`, `SYNCHRONIZING`).

**Why.** Recovery Mechanics: "Only the active frame owner plans resumption.
After correcting the defect and passing its applicable gate, that owner
decides ..." and "At the rerun boundary, after `RerunThrough` passes its
applicable gate, pop the frame and transition to `ResumeAt` with
`Handoff.Kind: RESUME`". A resume is made by a role that finished its
recovery assignment, and in a documentation cycle that is one of the six
included roles; `AWAITING_USER_SIGNOFF` and terminal states belong to no role.

**Fix safety.** No fix.
""",
    bad_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `RESUME` `From`: `AWAITING_USER_SIGNOFF`",
    good_example="`CycleMode`: `DOCUMENTATION` ... `Kind`: `RESUME` `From`: `SCOPING`",
    help="Resume from the included role's state that owned the frame.",
    no_fix_reason="The frame that was popped is not recorded anymore.",
)
def documentation_resume_origin(project):
    yield from _origin_outside(
        project, ("RESUME",), DOC_ROLES,
        "A DOCUMENTATION RESUME comes from the included role that completed its recovery assignment; "
        "`{frm}` is no such role's state.",
    )


def _origin_outside(project, kinds, allowed, message: str):
    """SL408/SL409's finding: in a DOCUMENTATION cycle, a handoff of one of
    *kinds* whose `From` is not one of the *allowed* states; *message* is
    formatted with the handoff's `kind` and `frm`."""
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind not in kinds:
        return
    frm = v.frm
    if frm is None or frm in allowed:
        return
    yield report(value_at(v.from_f), message.format(kind=v.kind, frm=frm))


@rule(
    code="SL410",
    since="0.11.0",
    name="documentation-forward-route",
    section="Forward Transitions",
    owner="state",
    summary="A DOCUMENTATION FORWARD handoff takes exactly one step of the Documentation Brownfield route.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, checks that a `FORWARD` handoff
goes from `Handoff.From` to the next state of `AUDITING -> SCOPING ->
ARCHITECTING -> DOCUMENTING -> REVIEWING_FINAL -> SYNCHRONIZING ->
AWAITING_USER_SIGNOFF`.

**Why.** Forward Transitions > Documentation Brownfield gives that route, and
Recovery Mechanics: "Use `RESUME` for a recovery-directed jump that skips an
unaffected phase; a normal `FORWARD` still follows the fixed route and
requires the full gate, even with frames active."

**Fix safety.** Sometimes (unsafe), outside recovery: when `Handoff.From` is on the route and `WorkflowState` is off it or before `From` (a FORWARD never goes back), `WorkflowState` becomes the forward step from `From`; when `WorkflowState` is on the route and `From` is no workflow state, `From` becomes the state whose forward step it is. Either only when every passed gate's record is `COMPLETE` for this cycle, never into `AWAITING_USER_SIGNOFF` or a terminal state (the user's decisions). A skip along the route is ambiguous: no fix.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `REVIEWING_FINAL` `CycleMode`: `DOCUMENTATION` ... `Kind`: `FORWARD` `From`: `ARCHITECTING`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION` ... `Kind`: `FORWARD` `From`: `ARCHITECTING`",
    help="Take exactly one step of the Documentation Brownfield route, or use the handoff kind that matches the transition.",
    no_fix_reason="Unless the route and the gates' records determine it, either the state, the source or the kind is wrong.",
)
def documentation_forward_route(project):
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind != "FORWARD":
        return
    frm, ws = v.frm, v.ws
    if frm is None or ws is None:
        return
    r = ROUTE_DOCUMENTATION
    if frm in r and ws in r and r.index(ws) == r.index(frm) + 1:
        return
    yield report(
        value_at(v.from_f),
        f"A DOCUMENTATION FORWARD handoff follows {DOC_ROUTE_TEXT} one step at a time; "
        f"{frm} -> {ws} skips or leaves that route.",
        forward_fix(project),
    )


standards_lint_rules = module_rules(globals())
