"""A COMPLETION_CHANGE handoff (protocol/user-decisions.md, Change completion
policy): its route, its reason, no failure type, and recovery inactive."""

from __future__ import annotations

from standards_lint.model.handoff import handoff_view, value_at
from standards_lint.model.accessors import holds_value
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.fixes.recovery import clear_flag_fix
from standards_lint.fixes.handoff import failure_type_not_none


# Change completion policy: the two state-changing routes.
COMPLETION_CHANGE_ROUTES = {
    ("DOCUMENTING", "REVIEWING_IMPLEMENTATION"): "selection of IMPLEMENTATION_REVIEWED",
    ("AWAITING_USER_SIGNOFF", "DOCUMENTING"): "withdrawal to FULL_DELIVERABLE",
}


@rule(
    code="SL415",
    since="0.10.0",
    name="completion-change-route",
    section="Change completion policy",
    owner="state",
    summary="COMPLETION_CHANGE is only DOCUMENTING -> REVIEWING_IMPLEMENTATION or AWAITING_USER_SIGNOFF -> DOCUMENTING in a STANDARD cycle.",
    explanation="""
**What it does.** Reports a `COMPLETION_CHANGE` handoff unless `CycleMode` is
`STANDARD` and it goes `DOCUMENTING -> REVIEWING_IMPLEMENTATION` (selecting
`IMPLEMENTATION_REVIEWED`) or `AWAITING_USER_SIGNOFF -> DOCUMENTING`
(withdrawing it).

**Why.** Workflow State Reference > Handoff: "`COMPLETION_CHANGE` is reserved
for the two state-changing routes under **Change completion policy**".
Change completion policy: "These are the only policy-change routes; other
states or failed preconditions do not authorize a change." and "A same-state
policy choice preserves the existing handoff". Expedited and documentation
cycles keep `CompletionPolicy: NONE`.

**Fix safety.** No fix.
""",
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` ... `Kind`: `COMPLETION_CHANGE` `From`: `TESTING`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD` ... `Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING`",
    help="Use COMPLETION_CHANGE only for DOCUMENTING -> REVIEWING_IMPLEMENTATION or AWAITING_USER_SIGNOFF -> DOCUMENTING in a STANDARD cycle.",
    no_fix_reason="Which transition was meant is a fact of the last handoff.",
)
def completion_change_route(project):
    v = handoff_view(project)
    if v is None or v.kind != "COMPLETION_CHANGE":
        return
    cm, frm, ws = v.cm, v.frm, v.ws
    if cm is None or frm is None or ws is None:
        return
    if cm == "STANDARD" and (frm, ws) in COMPLETION_CHANGE_ROUTES:
        return
    yield report(
        value_at(v.kind_f),
        f"COMPLETION_CHANGE records only an active STANDARD cycle's DOCUMENTING -> "
        f"REVIEWING_IMPLEMENTATION (selection) or AWAITING_USER_SIGNOFF -> DOCUMENTING (withdrawal); "
        f"found {cm} {frm} -> {ws}.",
    )


@rule(
    code="SL416",
    since="0.10.0",
    name="completion-change-recovery",
    section="Change completion policy",
    owner="state",
    summary="COMPLETION_CHANGE needs inactive recovery and no outstanding obligations.",
    explanation="""
**What it does.** Reports a `COMPLETION_CHANGE` handoff while `Recovery` is
active or holds frames, or `Outstanding Obligations` is active or holds
entries.

**Why.** Change completion policy: "Check the boundary before applying a
change. Recovery must be inactive with an empty stack, and outstanding
obligations inactive with no entries." and "A policy choice does not ...
discharge recovery and outstanding obligations."

**Fix safety.** Sometimes (safe): when what is "active" is only an `Active:
true` flag over an empty section, the fix of SL501/SL502 (set it to `false`)
clears this finding too. Open frames or obligations: no fix.
""",
    fix="sometimes",
    bad_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` ... `## Recovery` `Active`: `true`",
    good_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` ... `## Recovery` `Active`: `false`",
    help="Finish recovery and outstanding obligations before a COMPLETION_CHANGE.",
    no_fix_reason="Open frames or obligations: the corrective work must be routed first.",
)
def completion_change_recovery(project):
    v = handoff_view(project)
    if v is None or v.kind != "COMPLETION_CHANGE":
        return
    rec, obl = v.recovery_in_use(), v.obligations_in_use()
    if not rec and not obl:
        return
    what = " and ".join(x for x, on in (("recovery is active", rec), ("outstanding obligations remain", obl)) if on)
    st = v.st
    if rec:
        where = value_at(v.recovery_active_f, st.recovery.heading if st.recovery is not None else None)
    else:
        where = value_at(v.field(st.obligations, "Active"), st.obligations.heading)
    yield report(
        where,
        f"A COMPLETION_CHANGE needs inactive recovery with an empty stack and no outstanding "
        f"obligations, but {what}.",
        _flags_fix(project, v, rec, obl),
    )


def _flags_fix(project, v, rec, obl):
    """When the only thing "active" is an `Active: true` flag over an empty
    section (SL501/SL502), that flag's fix clears the finding too."""
    fixes = []
    if rec:
        fixes.append(clear_flag_fix(project))
    if obl:
        fixes.append(clear_flag_fix(project, obligations=True))
    if not fixes or None in fixes:
        return None
    if len(fixes) == 1:
        return fixes[0]
    from standards_lint.engine.findings import Fix

    return Fix(fixes[0].edits + fixes[1].edits, "safe", "Set Recovery.Active and Outstanding Obligations.Active to `false`.")


@rule(
    code="SL417",
    since="0.10.0",
    name="completion-change-reason",
    section="Change completion policy",
    owner="state",
    summary="A COMPLETION_CHANGE handoff records a reason.",
    explanation="""
**What it does.** Reports a `COMPLETION_CHANGE` handoff whose `Reason` is
`NONE` or empty.

**Why.** Change completion policy: "set `WorkflowState` to the target and
`Handoff.Kind` to `COMPLETION_CHANGE`, `From` to the source state,
`FailureType: NONE`, and a concise reason identifying the old and new
policies."

**Fix safety.** No fix.
""",
    bad_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` `FailureType`: `NONE` `Reason`: `NONE`",
    good_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` `FailureType`: `NONE` `Reason`: `User selected FULL_DELIVERABLE -> IMPLEMENTATION_REVIEWED.`",
    help="Record the user's reason for the completion change in `Handoff.Reason`.",
    no_fix_reason="The reason is the user's.",
)
def completion_change_reason(project):
    v = handoff_view(project)
    if v is None or v.kind != "COMPLETION_CHANGE":
        return
    f = v.reason_f
    if f is None or holds_value(f):
        return
    yield report(
        value_at(f),
        "A COMPLETION_CHANGE handoff needs a Reason identifying the old and new completion policies.",
    )


@rule(
    code="SL418",
    since="0.10.0",
    name="completion-change-failure-type",
    section="Change completion policy",
    owner="state",
    summary="A COMPLETION_CHANGE handoff records FailureType NONE.",
    explanation="""
**What it does.** Reports a `COMPLETION_CHANGE` handoff whose `FailureType` is
not `NONE`.

**Why.** Workflow State Reference > Handoff: "`COMPLETION_CHANGE` ... requires
`FailureType: NONE`, records the source state in `From`, and creates no
recovery frame." A policy choice is not a defect; "Established defects still
use normal owner-directed failure routing."

**Fix safety.** Unsafe fix: sets `FailureType` to `NONE`; if a defect was
being routed, a `FAILURE` handoff was meant instead.
""",
    fix="unsafe",
    bad_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` `FailureType`: `REVIEW`",
    good_example="`Kind`: `COMPLETION_CHANGE` `From`: `DOCUMENTING` `FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to `NONE`, or use a FAILURE handoff if a defect was routed.",
)
def completion_change_failure_type(project):
    v = handoff_view(project)
    if v is None or v.kind != "COMPLETION_CHANGE":
        return
    yield from failure_type_not_none(v, f"A COMPLETION_CHANGE handoff records FailureType NONE, not `{v.ft}`.")


standards_lint_rules = module_rules(globals())
