"""The Expedited Cycle Contract (protocol/expedited.md): an EXPEDITED cycle
never enters the omitted states, keeps a small scope, reconciles no baseline
and verifies after implementation."""

from __future__ import annotations

from standards_lint.fixes.state import omitted_state_findings
from standards_lint.model.accessors import (
    at,
    aw_field,
    aw_values,
    baseline_status,
    pending_cadence,
    state_in_mode,
)
from standards_lint.engine.rule import module_rules, report, rule


@rule(
    code="SL301",
    name="state-omitted-by-expedited-cycle",
    section="Expedited Cycle Contract",
    owner="state",
    summary="An EXPEDITED cycle stays in DEVELOPING, REVIEWING_IMPLEMENTATION and AWAITING_USER_SIGNOFF.",
    explanation="""
**What it does.** Reports a `WorkflowState` outside the expedited topology
(`SCOPING`, `ARCHITECTING`, `AUDITING`, `TESTING`, `DOCUMENTING`,
`REVIEWING_FINAL`, `SYNCHRONIZING`) while `CycleMode` is `EXPEDITED`.

**Why.** protocol/expedited.md, Expedited Cycle Contract: "Scoper, Architect,
Auditor, Tester, Documenter, `REVIEWING_FINAL`, and Synchronizer are absent from
the expedited forward topology." When one of them is needed, "use **Expedited
Promotion**", which sets `CycleMode: STANDARD`.

**Fix safety.** Sometimes (unsafe): when the last handoff is a `FORWARD` from
an expedited state and every passed gate's record is `COMPLETE`,
`WorkflowState` becomes the forward step from `Handoff.From` (see SL420).
Otherwise no fix: promotion changes several fields and needs a reason.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `TESTING` `CycleMode`: `EXPEDITED`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `EXPEDITED`",
    help="Move back to an expedited state, or promote the cycle to STANDARD (Expedited Promotion) with a PromotionReason.",
    no_fix_reason="Unless a FORWARD from an expedited state determines the step, promotion changes several fields and needs a reason.",
)
def expedited_omitted_state(project):
    yield from omitted_state_findings(
        project,
        "EXPEDITED",
        "WorkflowState {ws} is not part of an EXPEDITED cycle (DEVELOPING -> REVIEWING_IMPLEMENTATION "
        "-> AWAITING_USER_SIGNOFF). Promote the cycle to STANDARD before work that needs an omitted role.",
    )


@rule(
    code="SL313",
    name="expedited-scope-architecture",
    section="Expedited Cycle Contract",
    owner="state",
    summary="An EXPEDITED cycle keeps Active Work.Scope and Active Work.Architecture NONE.",
    explanation="""
**What it does.** Reports a `Scope` or `Architecture` path in an `EXPEDITED`
cycle.

**Why.** protocol/expedited.md, Expedited Cycle Contract: "`Active Work.Request`
is the change contract. `Scope` and `Architecture` remain `NONE` unless
promotion later causes their owners to create them."

**Fix safety.** No fix: the paths may mean the cycle needs promotion.
""",
    bad_example="`CycleMode`: `EXPEDITED`\n\n`Scope`: `.standards/docs/scope/x.md`",
    good_example="`CycleMode`: `EXPEDITED`\n\n`Scope`: `NONE`",
    help="Set Scope and Architecture to `NONE`, or promote the cycle to STANDARD if the paths are needed.",
    no_fix_reason="The paths may mean the cycle needs promotion.",
)
def expedited_scope(project):
    sm = state_in_mode(project, "EXPEDITED")
    if sm is None:
        return
    for field in aw_values(sm, "Scope", "Architecture"):
        yield report(
            at(field),
            f"An EXPEDITED cycle keeps Active Work.Scope and Active Work.Architecture as NONE; "
            f"{field.name} is `{field.value}`. Promote the cycle if it needs formal scope or architecture.",
        )


@rule(
    code="SL314",
    name="expedited-baseline-reconciliation",
    section="Expedited Cycle Contract",
    owner="state",
    summary="An EXPEDITED cycle cannot carry unresolved BaselineReconciliation.",
    explanation="""
**What it does.** Reports an `EXPEDITED` cycle whose
`BaselineReconciliation` lists source cycles.

**Why.** protocol/user-decisions.md, Start a cycle: "Unresolved reconciliation
requires an Auditor-first `STANDARD` or `DOCUMENTATION` cycle, never
`EXPEDITED`." Expedited promotion applies when safe completion needs "baseline
status that needs Auditor-owned context".

**Fix safety.** No fix.
""",
    bad_example="`CycleMode`: `EXPEDITED`\n\n`BaselineReconciliation`:\n\n- `SourceCycle`: `old-20260101T000000Z-0a1b2c3d`\n  `Request`: `Old.`",
    good_example="`CycleMode`: `EXPEDITED`\n\n`BaselineReconciliation`: `NONE`",
    help="Resolve the BaselineReconciliation in an Auditor-first STANDARD or DOCUMENTATION cycle, not in an EXPEDITED one.",
    no_fix_reason="The reconciliation obligations must be carried to another cycle, which the user decides.",
)
def expedited_baseline(project):
    sm = state_in_mode(project, "EXPEDITED")
    if sm is None:
        return
    if baseline_status(sm) == "LIST":
        yield report(
            sm.baseline_field,
            "An EXPEDITED cycle cannot carry BaselineReconciliation; unresolved reconciliation requires an "
            f"Auditor-first {' or '.join(m for m in project.release.cycle_modes if m not in ('UNSET', 'EXPEDITED'))}"
            " cycle.",
        )


@rule(
    code="SL315",
    name="expedited-incremental-cadence",
    section="Expedited Cycle Contract",
    owner="state",
    summary="An INCREMENTAL cadence request in an EXPEDITED cycle needs promotion first.",
    explanation="""
**What it does.** Reports `PendingVerificationCadence: INCREMENTAL` in an
`EXPEDITED` cycle.

**Why.** protocol/user-decisions.md, Switch verification cadence: "`EXPEDITED`
supports only `AFTER_IMPLEMENTATION`. An explicit `INCREMENTAL` request
authorizes **Expedited Promotion** ... Preserve the request as pending during
promotion". An expedited cycle therefore never holds it.

**Fix safety.** No fix: promotion is the protocol's answer.
""",
    bad_example="`CycleMode`: `EXPEDITED`\n\n`PendingVerificationCadence`: `INCREMENTAL`",
    good_example="`CycleMode`: `STANDARD`\n\n`PendingVerificationCadence`: `INCREMENTAL`",
    help="Promote the cycle to STANDARD before requesting INCREMENTAL cadence.",
    no_fix_reason="Promotion is the protocol's answer.",
)
def expedited_incremental(project):
    sm = state_in_mode(project, "EXPEDITED")
    if sm is None:
        return
    if pending_cadence(sm) == "INCREMENTAL":
        yield report(
            at(aw_field(sm, "PendingVerificationCadence")),
            "An INCREMENTAL request requires expedited promotion before recording standard-cycle scheduling; "
            "EXPEDITED supports only AFTER_IMPLEMENTATION.",
        )


standards_lint_rules = module_rules(globals())
