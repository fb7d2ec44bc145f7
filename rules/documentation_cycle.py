"""The Documentation Cycle Contract (PROTOCOL.md): a DOCUMENTATION cycle never
enters the omitted states, starts untouched, schedules no verification
cadence or development, and leaves no obligations to its omitted owners."""

from __future__ import annotations

from standards_lint.fixes.cadence import clear_pending_cadence_fix
from standards_lint.fixes.state import omitted_state_findings, set_value_fix
from standards_lint.model.accessors import (
    CADENCES,
    at,
    aw_values,
    handoff_kind,
    header_field,
    pending_cadence,
    state_in_mode,
    workflow_state,
)
from standards_lint.syntax.protocol import CYCLE_ID_RE, TERMINAL_STATES
from standards_lint.engine.rule import module_rules, report, rule


@rule(
    code="SL300",
    since="0.11.0",
    name="state-omitted-by-documentation-cycle",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle never enters DEVELOPING, TESTING or REVIEWING_IMPLEMENTATION.",
    explanation="""
**What it does.** Reports a `WorkflowState` of `DEVELOPING`, `TESTING` or
`REVIEWING_IMPLEMENTATION` while `CycleMode` is `DOCUMENTATION`.

**Why.** PROTOCOL.md, Documentation Cycle Contract: "Development, Testing, and
Implementation Review are intentionally omitted, not pending work." A defect
needing them "does not authorize entry into an omitted state or automatic
promotion"; the user keeps a documentation-only scope or cancels the cycle and
starts a separate implementation cycle.

**Fix safety.** Sometimes (unsafe): when the last handoff is a `FORWARD` from
an included state and every passed gate's record is `COMPLETE`, a FORWARD
cannot have entered an omitted state: `WorkflowState` becomes the forward
step from `Handoff.From` (see SL410). Otherwise no fix.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `TESTING` `CycleMode`: `DOCUMENTATION`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION`",
    help="Record the needed user decision in `Active Work.BlockedOn`, or route back to an included DOCUMENTATION state.",
    no_fix_reason="Unless a FORWARD from an included state determines the step, the way out is a user decision recorded in `Active Work.BlockedOn`, or a legal route back to an included state.",
)
def documentation_omitted_state(project):
    yield from omitted_state_findings(
        project,
        "DOCUMENTATION",
        "WorkflowState {ws} is not part of a DOCUMENTATION cycle, which omits Development, "
        "Testing and Implementation Review; stay on AUDITING -> SCOPING -> ARCHITECTING -> DOCUMENTING "
        "-> REVIEWING_FINAL -> SYNCHRONIZING -> AWAITING_USER_SIGNOFF.",
    )


@rule(
    code="SL309",
    since="0.11.0",
    name="documentation-cycle-entry-state",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle starts in AUDITING.",
    explanation="""
**What it does.** Reports a `DOCUMENTATION` cycle whose handoff is still the
cycle-start handoff (`INITIAL` or `NEW_CYCLE`) while `WorkflowState` is not
`AUDITING`.

**Why.** protocol/user-decisions.md, Start a cycle: "`WorkflowState`:
`AUDITING` when ... the chosen mode is `DOCUMENTATION`, so Auditor establishes
baseline status first"; Standalone Documenter entry: "The resulting state is
`AUDITING`, not `DOCUMENTING`." Every later state change records a new handoff.

**Fix safety.** Sometimes (unsafe): when the cycle's history shows nothing
after its start (no record of the cycle, its Active Work paths `NONE`, an
empty inactive stack), `WorkflowState` becomes `AUDITING`. Otherwise, and
from a terminal state (the user's decision), no fix.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION`\n\n## Handoff\n\n`Kind`: `INITIAL`",
    good_example="`WorkflowState`: `AUDITING` `CycleMode`: `DOCUMENTATION`\n\n## Handoff\n\n`Kind`: `INITIAL`",
    help="Start the DOCUMENTATION cycle in `AUDITING`.",
    no_fix_reason="Once the cycle has records or paths, which state the work is really in needs the cycle's history.",
)
def documentation_entry(project):
    sm = state_in_mode(project, "DOCUMENTATION")
    if sm is None:
        return
    kind = handoff_kind(sm)
    ws = workflow_state(sm)
    if kind in ("INITIAL", "NEW_CYCLE") and ws is not None and ws != "AUDITING":
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"A DOCUMENTATION cycle starts in AUDITING for {kind} entry, but WorkflowState is {ws} "
            f"while Handoff.Kind is still {kind}.",
            _untouched_start_fix(project, sm, ws),
        )


def _untouched_start_fix(project, sm, ws):
    """`WorkflowState: AUDITING` when the cycle's history shows nothing
    after its start: no record of the cycle anywhere, its Active Work paths
    still `NONE`, an empty inactive stack.  A terminal state is the user's
    decision: no fix."""
    cid = sm.aw("Id")
    field = header_field(sm, "WorkflowState")
    if field is None or ws in TERMINAL_STATES or not cid or not CYCLE_ID_RE.match(cid):
        return None
    if any(sm.aw(name) != "NONE" for name in ("Scope", "Architecture", "Development")):
        return None
    if sm.recovery is None or sm.frames or sm.value(sm.recovery, "Active") != "false":
        return None
    if project.records_of(cid):
        return None
    return set_value_fix(field, "AUDITING", "WorkflowState", ": the DOCUMENTATION cycle has only started")


@rule(
    code="SL310",
    since="0.11.0",
    name="documentation-pending-cadence",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle keeps Active Work.PendingVerificationCadence NONE.",
    explanation="""
**What it does.** Reports a pending verification cadence in a `DOCUMENTATION`
cycle.

**Why.** PROTOCOL.md, Active Work: "Documentation cycles keep it `NONE` because
they schedule no implementation or Tester assessments"; protocol/user-decisions.md,
Switch verification cadence: "`DOCUMENTATION` has no implementation or Tester
scheduling. Keep `PendingVerificationCadence: NONE`".

**Fix safety.** Safe: the value is fixed by the protocol and the request has no
effect in this cycle.
""",
    fix="safe",
    bad_example="`CycleMode`: `DOCUMENTATION`\n\n`PendingVerificationCadence`: `INCREMENTAL`",
    good_example="`CycleMode`: `DOCUMENTATION`\n\n`PendingVerificationCadence`: `NONE`",
    help="Set `PendingVerificationCadence` to `NONE`.",
)
def documentation_cadence(project):
    sm = state_in_mode(project, "DOCUMENTATION")
    if sm is None:
        return
    cadence = pending_cadence(sm)
    if cadence in CADENCES:
        yield clear_pending_cadence_fix(
            sm,
            f"A DOCUMENTATION cycle keeps Active Work.PendingVerificationCadence NONE, not {cadence}; it "
            "schedules no implementation or Tester assessments.",
        )


@rule(
    code="SL311",
    since="0.11.0",
    name="documentation-development-path",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle keeps Active Work.Development NONE.",
    explanation="""
**What it does.** Reports an `Active Work.Development` path in a
`DOCUMENTATION` cycle.

**Why.** PROTOCOL.md, Active Work: "In documentation work, Scoper and Architect
still persist their paths; `Development` remains `NONE` throughout the cycle."
Documentation Cycle Contract: do "not fabricate current-cycle records".

**Fix safety.** No fix: a development record may exist and needs a decision.
""",
    bad_example="`CycleMode`: `DOCUMENTATION`\n\n`Development`: `.standards/docs/development/x.md`",
    good_example="`CycleMode`: `DOCUMENTATION`\n\n`Development`: `NONE`",
    help="Set `Active Work.Development` to `NONE`, and ask the user what happens to an existing plan.",
    no_fix_reason="A development record may exist and needs a decision.",
)
def documentation_development(project):
    sm = state_in_mode(project, "DOCUMENTATION")
    if sm is None:
        return
    for field in aw_values(sm, "Development"):
        yield report(
            at(field),
            f"A DOCUMENTATION cycle keeps Active Work.Development NONE, not `{field.value}`; development "
            "is omitted from this cycle.",
        )


@rule(
    code="SL318",
    since="0.11.0",
    name="documentation-outstanding-obligations",
    section="Documentation Cycle Contract",
    owner="state",
    summary="A DOCUMENTATION cycle has no expedited-promotion obligations.",
    explanation="""
**What it does.** Reports active `Outstanding Obligations` (or obligation
entries) in a `DOCUMENTATION` cycle.

**Why.** Outstanding obligations exist only through **Expedited Promotion**
(PROTOCOL.md, Workflow State Reference: "only **Expedited Promotion** adds
entries"), and Recovery Mechanics says of documentation cycles: "Do not create
expedited-promotion obligations or current-cycle artifacts for omitted owners;
preserve the existing cycle and recovery and use the contract's blocking user
decision instead."

**Fix safety.** No fix: the corrective work must be preserved elsewhere first.
""",
    bad_example="`CycleMode`: `DOCUMENTATION`\n\n## Outstanding Obligations\n\n`Active`: `true`",
    good_example="`CycleMode`: `DOCUMENTATION`\n\n## Outstanding Obligations\n\n`Active`: `false`",
    help="Remove the promotion obligations and preserve the corrective work elsewhere first (a user decision in BlockedOn).",
    no_fix_reason="The corrective work must be preserved elsewhere first.",
)
def documentation_obligations(project):
    sm = state_in_mode(project, "DOCUMENTATION")
    if sm is None or sm.obligations is None:
        return
    active = sm.one(sm.obligations, "Active")
    entries = sm.obligation_entries
    if (active is not None and active.value == "true") or entries:
        where = at(active) if active is not None else sm.obligations
        yield report(
            where,
            "DOCUMENTATION has no expedited promotion obligations; preserve recovery and use "
            "Active Work.BlockedOn for an omitted-owner decision.",
        )


standards_lint_rules = module_rules(globals())
