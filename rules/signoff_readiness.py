"""Sign-off readiness: what must hold in ``.standards/STATE.md`` when a cycle
waits for the user's sign-off or has ended (PROTOCOL.md: Standard Cycle
Completion, Sign-off Readiness and Freshness, Documentation Cycle Contract,
Forward Transitions; protocol/expedited.md: Expedited Cycle Contract;
protocol/user-decisions.md: Sign off, Cancel an active cycle).
"""

from __future__ import annotations

from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.accessors import (
    at,
    aw_values,
    baseline_status,
    completion_policy,
    cycle_mode,
    frame_values,
    handoff_kind,
    header_field,
    ho_field,
    state_of,
    workflow_state,
)
from standards_lint.syntax.protocol import WORKFLOW_STATES
from standards_lint.fixes.recovery import stale_frame_fix
from standards_lint.fixes.reveals import REVEALS

# Forward Transitions: the state that hands off to AWAITING_USER_SIGNOFF.
SIGNOFF_SOURCE = {
    ("STANDARD", "FULL_DELIVERABLE"): "SYNCHRONIZING",
    ("STANDARD", "IMPLEMENTATION_REVIEWED"): "REVIEWING_IMPLEMENTATION",
    ("DOCUMENTATION", "NONE"): "SYNCHRONIZING",
    ("EXPEDITED", "NONE"): "REVIEWING_IMPLEMENTATION",
}
# Forward Transitions: where a passing implementation review goes next.
AFTER_IMPLEMENTATION_REVIEW = {
    "FULL_DELIVERABLE": "DOCUMENTING",
    "IMPLEMENTATION_REVIEWED": "AWAITING_USER_SIGNOFF",
}


def _recovery_and_obligations(sm):
    """(frames, obligation entries, obligations Active field) or None when the
    sections are missing or repeated."""
    if sm.recovery is None or sm.obligations is None:
        return None
    return sm.frames, sm.obligation_entries, sm.one(sm.obligations, "Active")


def _not_clear_message(ws, frames, entries, ob_active) -> str:
    parts = []
    if frames:
        parts.append(f"{len(frames)} recovery frame{'s' if len(frames) != 1 else ''}")
    if entries:
        parts.append(f"{len(entries)} outstanding obligation{'s' if len(entries) != 1 else ''}")
    elif ob_active is not None and ob_active.value == "true":
        parts.append("Outstanding Obligations.Active `true`")
    return " and ".join(parts)


@rule(
    code="SL350",
    reveals=REVEALS["SL350"],
    name="signoff-with-open-recovery",
    section="Standard Cycle Completion",
    owner="state",
    summary="AWAITING_USER_SIGNOFF requires an empty recovery stack and no outstanding obligations.",
    explanation="""
**What it does.** Reports `WorkflowState: AWAITING_USER_SIGNOFF` while recovery
frames or outstanding obligations remain.

**Why.** PROTOCOL.md, Standard Cycle Completion: "Recovery must be complete
(empty stack) and outstanding obligations inactive"; Documentation Cycle
Contract: "recovery must be inactive with an empty stack and outstanding
obligations inactive"; protocol/expedited.md: the cycle may reach sign-off once
"recovery is empty", and "User sign-off is unavailable while any outstanding
obligation remains."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. Offered here when it empties the stack and no obligation remains.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `AWAITING_USER_SIGNOFF`\n\n## Recovery\n\n`Active`: `true`\n\n### Frame 1\n...",
    good_example="`WorkflowState`: `AWAITING_USER_SIGNOFF`\n\n## Recovery\n\n`Active`: `false`",
    help="Route the remaining recovery frames and obligations to their owners before awaiting sign-off.",
    no_fix_reason="Unless the other files show the stack stale, the remaining corrective work must be routed first.",
)
def signoff_recovery(project):
    sm = state_of(project)
    if sm is None or workflow_state(sm) != "AWAITING_USER_SIGNOFF":
        return
    got = _recovery_and_obligations(sm)
    if got is None:
        return
    frames, entries, ob_active = got
    # The stack and the obligations themselves: an `Active` flag that
    # contradicts them is SL501's and SL502's finding, not a remaining entry.
    if frames or entries:
        fix = None
        if not entries and (ob_active is None or ob_active.value != "true"):
            # A stack the handoff and the state both contradict (see
            # fixes.recovery.stale_pop): popping it clears the finding.
            fix = stale_frame_fix(project, clear=True)
        yield report(
            at(header_field(sm, "WorkflowState")),
            "AWAITING_USER_SIGNOFF requires an empty recovery stack and no outstanding obligations; found "
            + _not_clear_message("AWAITING_USER_SIGNOFF", frames, entries, ob_active)
            + ".",
            fix,
        )


@rule(
    code="SL351",
    name="terminal-state-with-open-recovery",
    section="User Decisions and Intervention",
    owner="state",
    summary="SIGNED_OFF and CANCELLED clear the recovery stack and outstanding obligations.",
    explanation="""
**What it does.** Reports a terminal `WorkflowState` (`SIGNED_OFF` or
`CANCELLED`) while recovery frames or outstanding obligations remain.

**Why.** protocol/user-decisions.md, Sign off: "... and clear recovery. The
cycle is complete."; Cancel an active cycle: "clear recovery plus outstanding
obligations."

**Fix safety.** No fix: a terminal cycle is not reopened, but the leftover
entries may show the wrong state was recorded.
""",
    bad_example="`WorkflowState`: `CANCELLED`\n\n## Recovery\n\n`Active`: `true`\n\n### Frame 1\n...",
    good_example="`WorkflowState`: `CANCELLED`\n\n## Recovery\n\n`Active`: `false`",
    help="Clear the recovery stack and obligations of the finished cycle, or correct `WorkflowState` if the cycle has not ended.",
    no_fix_reason="A terminal cycle is not reopened, but the leftover entries may show the wrong state was recorded.",
)
def terminal_recovery(project):
    sm = state_of(project)
    if sm is None:
        return
    ws = workflow_state(sm)
    if ws not in ("SIGNED_OFF", "CANCELLED"):
        return
    got = _recovery_and_obligations(sm)
    if got is None:
        return
    frames, entries, ob_active = got
    if frames or entries or (ob_active is not None and ob_active.value == "true"):
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"{ws} requires an empty recovery stack and no outstanding obligations; found "
            + _not_clear_message(ws, frames, entries, ob_active)
            + ".",
        )


@rule(
    code="SL352",
    since="0.10.0",
    name="signoff-while-blocked",
    section="Standard Cycle Completion",
    owner="state",
    summary="AWAITING_USER_SIGNOFF requires Active Work.BlockedOn NONE.",
    explanation="""
**What it does.** Reports `WorkflowState: AWAITING_USER_SIGNOFF` with an
unresolved `Active Work.BlockedOn` question.

**Why.** PROTOCOL.md, Standard Cycle Completion: sign-off readiness needs "no
unresolved material findings, discrepancies, dependencies, or blocking user
question"; Documentation Cycle Contract: "No unresolved material finding,
documentation gap, dependency, or blocking user question may remain";
protocol/expedited.md: "no blocking user question remains".

**Fix safety.** No fix: the question needs the user's answer.
""",
    bad_example="`WorkflowState`: `AWAITING_USER_SIGNOFF`\n\n`BlockedOn`: `Which locale?`",
    good_example="`WorkflowState`: `AWAITING_USER_SIGNOFF`\n\n`BlockedOn`: `NONE`",
    help="Answer the blocking question (or route it) and set `BlockedOn` to `NONE` before awaiting sign-off.",
    no_fix_reason="The question needs the user's answer.",
)
def signoff_blocked(project):
    sm = state_of(project)
    if sm is None or workflow_state(sm) != "AWAITING_USER_SIGNOFF":
        return
    for field in aw_values(sm, "BlockedOn"):
        yield report(
            at(field),
            f"AWAITING_USER_SIGNOFF requires Active Work.BlockedOn NONE; the blocking question "
            f"`{field.value}` is unresolved.",
        )


@rule(
    code="SL353",
    name="signoff-with-unresolved-baseline",
    section="Standard Cycle Completion",
    owner="AUDITOR",
    summary="A STANDARD or DOCUMENTATION cycle cannot await sign-off with BaselineReconciliation unresolved.",
    explanation="""
**What it does.** Reports a `STANDARD` or `DOCUMENTATION` cycle in
`AWAITING_USER_SIGNOFF` whose `BaselineReconciliation` still lists source
cycles.

**Why.** PROTOCOL.md, Standard Cycle Completion: "`Active Work.BaselineReconciliation`
must be `NONE`"; Documentation Cycle Contract: "`CompletionPolicy`,
`Development`, `PromotionReason`, `PendingVerificationCadence`, and
`BaselineReconciliation` must all be `NONE`". Only Auditor clears it.

**Fix safety.** No fix: Auditor must reconcile every listed source.
""",
    bad_example="`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `STANDARD`\n\n`BaselineReconciliation`:\n\n- `SourceCycle`: `old-20260101T000000Z-0a1b2c3d`\n  `Request`: `Old.`",
    good_example="`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `STANDARD`\n\n`BaselineReconciliation`: `NONE`",
    help="Reconcile every listed source cycle and set `BaselineReconciliation` to `NONE` before awaiting sign-off.",
    no_fix_reason="Auditor must reconcile every listed source.",
)
def signoff_baseline(project):
    sm = state_of(project)
    if sm is None or workflow_state(sm) != "AWAITING_USER_SIGNOFF":
        return
    mode = cycle_mode(sm)
    if mode in ("STANDARD", "DOCUMENTATION") and baseline_status(sm) == "LIST":
        n = len(sm.baseline_entries)
        yield report(
            sm.baseline_field,
            f"A {mode} cycle cannot await sign-off while BaselineReconciliation is unresolved "
            f"({n} source cycle{'s' if n != 1 else ''} listed); Auditor must reconcile and clear it first.",
        )


@rule(
    code="SL354",
    since="0.10.0",
    name="signoff-forward-source",
    section="Forward Transitions",
    owner="state",
    summary="A FORWARD handoff into AWAITING_USER_SIGNOFF comes from the last state of the mode's route.",
    explanation="""
**What it does.** For `WorkflowState: AWAITING_USER_SIGNOFF` reached by a
`FORWARD` handoff with an empty recovery stack, checks `Handoff.From` against
the route of the cycle mode and completion policy: `SYNCHRONIZING` for
`STANDARD`/`FULL_DELIVERABLE` and `DOCUMENTATION`, `REVIEWING_IMPLEMENTATION`
for `STANDARD`/`IMPLEMENTATION_REVIEWED` and `EXPEDITED`.

**Why.** PROTOCOL.md, Forward Transitions: the standard routes end
"`SYNCHRONIZING` -> `AWAITING_USER_SIGNOFF`"; Standard Implementation-Reviewed
Completion replaces the tail with "`REVIEWING_IMPLEMENTATION` ->
`AWAITING_USER_SIGNOFF`"; Documentation Brownfield ends with Synchronizer;
Expedited Brownfield with the implementation Reviewer.

**Fix safety.** No fix: skipped phases must actually run.
""",
    bad_example="`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`\n\n`Kind`: `FORWARD` `From`: `REVIEWING_IMPLEMENTATION`",
    good_example="`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`\n\n`Kind`: `FORWARD` `From`: `SYNCHRONIZING`",
    help="Run the remaining phases of the route before handing off to AWAITING_USER_SIGNOFF.",
    no_fix_reason="Skipped phases must actually run.",
)
def signoff_source(project):
    sm = state_of(project)
    if sm is None or workflow_state(sm) != "AWAITING_USER_SIGNOFF" or handoff_kind(sm) != "FORWARD":
        return
    key = (cycle_mode(sm), completion_policy(sm))
    if key not in SIGNOFF_SOURCE or frame_values(sm) != []:
        return
    source = SIGNOFF_SOURCE[key]
    field = ho_field(sm, "From")
    if field is None or not field.value.strip() or field.value == source:
        return
    yield report(
        at(field),
        f"Forward sign-off readiness for {key[0]}/{key[1]} must come from {source}, not {field.value}.",
    )


@rule(
    code="SL355",
    since="0.10.0",
    name="implementation-review-forward-target",
    section="Forward Transitions",
    owner="state",
    summary="A passing implementation review hands off to DOCUMENTING or, under IMPLEMENTATION_REVIEWED, to AWAITING_USER_SIGNOFF.",
    explanation="""
**What it does.** For a `STANDARD` cycle whose handoff is `FORWARD` from
`REVIEWING_IMPLEMENTATION` with an empty recovery stack, checks the resulting
`WorkflowState`: `DOCUMENTING` with `FULL_DELIVERABLE`, `AWAITING_USER_SIGNOFF`
with `IMPLEMENTATION_REVIEWED`.

**Why.** PROTOCOL.md, Forward Transitions: both standard routes continue
"`REVIEWING_IMPLEMENTATION` -> `DOCUMENTING`"; with
`IMPLEMENTATION_REVIEWED` the tail is replaced by "`REVIEWING_IMPLEMENTATION`
-> `AWAITING_USER_SIGNOFF`".

**Fix safety.** No fix.
""",
    bad_example="`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`\n\n`Kind`: `FORWARD` `From`: `REVIEWING_IMPLEMENTATION`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `STANDARD`\n\n`CompletionPolicy`: `FULL_DELIVERABLE`\n\n`Kind`: `FORWARD` `From`: `REVIEWING_IMPLEMENTATION`",
    help="Hand a passing implementation review off to DOCUMENTING (or, under IMPLEMENTATION_REVIEWED, to AWAITING_USER_SIGNOFF).",
    no_fix_reason="The state the handoff should have gone to needs the review's outcome.",
)
def review_forward_target(project):
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "STANDARD" or handoff_kind(sm) != "FORWARD":
        return
    if sm.ho("From") != "REVIEWING_IMPLEMENTATION" or frame_values(sm) != []:
        return
    policy = completion_policy(sm)
    ws = workflow_state(sm)
    if policy not in AFTER_IMPLEMENTATION_REVIEW or ws not in WORKFLOW_STATES:
        return
    target = AFTER_IMPLEMENTATION_REVIEW[policy]
    if ws != target:
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"Normal implementation-review success with {policy} hands off to {target}, not {ws}.",
        )


standards_lint_rules = module_rules(globals())
