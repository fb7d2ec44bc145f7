"""Completion Policies (PROTOCOL.md): each cycle mode's allowed policies, the
IMPLEMENTATION_REVIEWED route's tail, and no policy before a cycle starts."""

from __future__ import annotations

from standards_lint.model.accessors import (
    at,
    aw_field,
    completion_policy,
    cycle_mode,
    frame_values,
    header_field,
    state_of,
    unstarted_state,
    workflow_state,
)
from standards_lint.model.route import ALLOWED_POLICIES, FULL_DELIVERABLE_TAIL, OMITTED_STATES
from standards_lint.fixes.state import set_value_fix
from standards_lint.engine.rule import module_rules, report, rule


@rule(
    code="SL302",
    since="0.10.0",
    name="implementation-reviewed-tail-without-recovery",
    section="Completion Policies",
    owner="state",
    summary="Under IMPLEMENTATION_REVIEWED, DOCUMENTING, REVIEWING_FINAL and SYNCHRONIZING need active recovery.",
    explanation="""
**What it does.** Reports a `STANDARD` cycle with
`CompletionPolicy: IMPLEMENTATION_REVIEWED` in `DOCUMENTING`, `REVIEWING_FINAL`
or `SYNCHRONIZING` while the recovery stack is empty.

**Why.** PROTOCOL.md, Recovery Mechanics: "`IMPLEMENTATION_REVIEWED` omits only
the normal forward tail; corrective routing may still enter `DOCUMENTING`,
`REVIEWING_FINAL`, or `SYNCHRONIZING`. Those states require active recovery
under the shorter policy." Normal downstream work requires `FULL_DELIVERABLE`.

**Fix safety.** No fix: either the user withdraws the shorter policy or the
work belongs to a recovery frame.
""",
    bad_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `IMPLEMENTATION_REVIEWED`\n\n## Recovery\n\n`Active`: `false`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`",
    help="Either route the work through a recovery frame, or have the user withdraw IMPLEMENTATION_REVIEWED (COMPLETION_CHANGE).",
    no_fix_reason="Either the user withdraws the shorter policy or the work belongs to a recovery frame.",
)
def implementation_reviewed_tail(project):
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "STANDARD" or completion_policy(sm) != "IMPLEMENTATION_REVIEWED":
        return
    ws = workflow_state(sm)
    frames = frame_values(sm)
    if ws not in FULL_DELIVERABLE_TAIL or frames is None:
        return
    # "Those states require active recovery": what Recovery.Active declares
    # (a stack that contradicts it is SL501's finding), else the stack itself.
    declared = sm.value(sm.recovery, "Active")
    active = declared == "true" if declared in ("true", "false") else bool(frames)
    if not active:
        why = "the recovery stack is empty" if not frames else "Recovery.Active is `false`"
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"WorkflowState {ws} is outside the normal IMPLEMENTATION_REVIEWED route and {why}. "
            "Corrective work there needs active recovery with a frame; normal downstream work needs "
            "CompletionPolicy FULL_DELIVERABLE.",
        )


@rule(
    code="SL303",
    since="0.10.0",
    name="completion-policy-cycle-mode-mismatch",
    section="Completion Policies",
    owner="state",
    summary="STANDARD needs FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED; EXPEDITED and DOCUMENTATION need NONE.",
    explanation="""
**What it does.** Compares `Active Work.CompletionPolicy` with `CycleMode` for
an active cycle.

**Why.** PROTOCOL.md, Completion Policies: `NONE` "is invalid for an active
standard cycle"; "Each expedited cycle uses `NONE`"; "Each documentation cycle
uses `NONE`".

**Fix safety.** Sometimes: for `EXPEDITED` and `DOCUMENTATION` the value is
fully determined (`NONE`), but the mismatch may lie in `CycleMode` instead, so
the fix is unsafe, and it is not offered when `WorkflowState` is not part of
the mode either (SL300, SL301: then `CycleMode` is the likelier error). For
`STANDARD` the policy is the user's choice; no fix.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`",
    good_example="`CycleMode`: `DOCUMENTATION`\n\n`CompletionPolicy`: `NONE`",
    help="Set `CompletionPolicy` to the policy the mode allows (STANDARD: the user's FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED; EXPEDITED and DOCUMENTATION: NONE), or correct `CycleMode`.",
)
def policy_mode_mismatch(project):
    sm = state_of(project)
    if sm is None:
        return
    mode = cycle_mode(sm)
    policy = completion_policy(sm)
    if mode not in ALLOWED_POLICIES or policy is None or policy in ALLOWED_POLICIES[mode]:
        return
    field = aw_field(sm, "CompletionPolicy")
    if mode == "STANDARD":
        expected = "FULL_DELIVERABLE (the default) or IMPLEMENTATION_REVIEWED (an explicit user choice)"
        fix = None
    else:
        expected = "NONE"
        fix = set_value_fix(field, "NONE", "CompletionPolicy")
        if workflow_state(sm) in OMITTED_STATES[mode]:
            fix = None  # the state is not the mode's either (SL300/SL301): CycleMode may be the wrong one
    yield report(
        at(field),
        f"CompletionPolicy {policy} is not valid with CycleMode {mode}; a {mode} cycle uses {expected}.",
        fix=fix,
    )


@rule(
    code="SL304",
    since="0.10.0",
    name="unstarted-cycle-completion-policy",
    section="Completion Policies",
    owner="state",
    summary="Before any cycle starts, Active Work.CompletionPolicy is NONE.",
    explanation="""
**What it does.** Reports a standard completion policy while
`Active Work.Id` is still `UNSET`.

**Why.** PROTOCOL.md, Completion Policies: "Installation and project reset
initialize `CompletionPolicy: NONE`", and "With no active cycle, select the
policy only as part of **Start a cycle**; there is no standalone next-cycle
policy preference" (protocol/user-decisions.md, Change completion policy).

**Fix safety.** Unsafe fix to `NONE`: the value is determined, but an erased
`Id` could be the real mistake.
""",
    fix="unsafe",
    bad_example="`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `UNSET`",
    good_example="`CompletionPolicy`: `NONE` `Id`: `UNSET`",
    help="Set `CompletionPolicy` to `NONE` (no cycle has started), or restore the cycle's `Id`.",
)
def unstarted_policy(project):
    sm = unstarted_state(project)
    if sm is None:
        return
    policy = completion_policy(sm)
    if policy in ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"):
        field = aw_field(sm, "CompletionPolicy")
        yield report(
            at(field),
            f"No cycle has started (Active Work.Id is UNSET), so Active Work.CompletionPolicy must be NONE, "
            f"not {policy}; a policy is chosen only when a cycle starts.",
            fix=set_value_fix(field, "NONE", "CompletionPolicy"),
        )


standards_lint_rules = module_rules(globals())
