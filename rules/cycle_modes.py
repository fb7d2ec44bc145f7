"""Cycle modes and completion policies: what each ``CycleMode`` allows in
``.standards/STATE.md`` (PROTOCOL.md: Cycle Modes, Completion Policies,
Documentation Cycle Contract; protocol/expedited.md: Expedited Cycle Contract;
protocol/user-decisions.md: Start a cycle, Switch verification cadence).

Every rule reads only values that occur exactly once and are valid; anything
missing, repeated or invalid is left to the STATE.md structure rules.
"""

from __future__ import annotations

from standards_lint.protocol import CYCLE_ID_RE, TERMINAL_STATES
from standards_lint.rule import module_rules, replace, report, rule
from standards_lint.model.accessors import (
    CADENCES,
    EXECUTION_MODES,
    at,
    aw_field,
    baseline_status,
    completion_policy,
    cycle_mode,
    frame_values,
    handoff_kind,
    header_field,
    ho_field,
    pending_cadence,
    project_mode,
    state_of,
    valid,
    workflow_state,
)
from standards_lint.fixes.handoff import unstarted_kind_fix

STATE = ".standards/STATE.md"

# States each cycle mode's topology includes (Forward Transitions).
DOCUMENTATION_OMITTED = ("DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION")
EXPEDITED_OMITTED = (
    "SCOPING",
    "ARCHITECTING",
    "AUDITING",
    "TESTING",
    "DOCUMENTING",
    "REVIEWING_FINAL",
    "SYNCHRONIZING",
)
# The forward tail that IMPLEMENTATION_REVIEWED replaces with
# REVIEWING_IMPLEMENTATION -> AWAITING_USER_SIGNOFF.
FULL_DELIVERABLE_TAIL = ("DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING")
ALLOWED_POLICIES = {
    "STANDARD": ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"),
    "EXPEDITED": ("NONE",),
    "DOCUMENTATION": ("NONE",),
}
# States of the standard route before the implementation Reviewer.
BEFORE_REVIEWER = ("SCOPING", "ARCHITECTING", "AUDITING", "DEVELOPING", "TESTING")
# From these states the standard route still reaches DEVELOPING.
UP_TO_DEVELOPING = ("SCOPING", "ARCHITECTING", "AUDITING", "DEVELOPING")
FROM_REVIEWER_ON = (
    "REVIEWING_IMPLEMENTATION",
    "DOCUMENTING",
    "REVIEWING_FINAL",
    "SYNCHRONIZING",
    "AWAITING_USER_SIGNOFF",
)
INSTALLED_STATE = {"GREENFIELD": "SCOPING", "BROWNFIELD": "AUDITING"}


# -- shared helpers (also used by signoff_readiness) ---------------------------


def _forward_state_fix(project):
    """A FORWARD handoff from an included state into an omitted one: the
    state is the forward step from `Handoff.From` (handoff.forward_fix;
    with `WorkflowState` off the route that fix can only set it)."""
    from standards_lint.fixes.handoff import forward_fix

    return forward_fix(project)


# -- rules ---------------------------------------------------------------------
@rule(
    code="SL300",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION":
        return
    ws = workflow_state(sm)
    if ws in DOCUMENTATION_OMITTED:
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"WorkflowState {ws} is not part of a DOCUMENTATION cycle, which omits Development, "
            "Testing and Implementation Review; stay on AUDITING -> SCOPING -> ARCHITECTING -> DOCUMENTING "
            "-> REVIEWING_FINAL -> SYNCHRONIZING -> AWAITING_USER_SIGNOFF.",
            _forward_state_fix(project),
        )


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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "EXPEDITED":
        return
    ws = workflow_state(sm)
    if ws in EXPEDITED_OMITTED:
        yield report(
            at(header_field(sm, "WorkflowState")),
            f"WorkflowState {ws} is not part of an EXPEDITED cycle (DEVELOPING -> REVIEWING_IMPLEMENTATION "
            "-> AWAITING_USER_SIGNOFF). Promote the cycle to STANDARD before work that needs an omitted role.",
            _forward_state_fix(project),
        )


@rule(
    code="SL302",
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
        fix = replace(field.path, field.value_span, "NONE", safe=False, description="Set CompletionPolicy to NONE")
        omitted = EXPEDITED_OMITTED if mode == "EXPEDITED" else DOCUMENTATION_OMITTED
        if workflow_state(sm) in omitted:
            fix = None  # the state is not the mode's either (SL300/SL301): CycleMode may be the wrong one
    yield report(
        at(field),
        f"CompletionPolicy {policy} is not valid with CycleMode {mode}; a {mode} cycle uses {expected}.",
        fix=fix,
    )


@rule(
    code="SL304",
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
    sm = state_of(project)
    if sm is None or sm.aw("Id") != "UNSET":
        return
    policy = completion_policy(sm)
    if policy in ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"):
        field = aw_field(sm, "CompletionPolicy")
        yield report(
            at(field),
            f"No cycle has started (Active Work.Id is UNSET), so Active Work.CompletionPolicy must be NONE, "
            f"not {policy}; a policy is chosen only when a cycle starts.",
            fix=replace(field.path, field.value_span, "NONE", safe=False, description="Set CompletionPolicy to NONE"),
        )


@rule(
    code="SL305",
    name="unstarted-cycle-workflow-state",
    section="Cycle Modes",
    owner="state",
    summary="Before any cycle starts, WorkflowState is the installed entry state.",
    explanation="""
**What it does.** Reports a `WorkflowState` other than the installed one
(`AUDITING` for `BROWNFIELD`, `SCOPING` for `GREENFIELD`) while
`Active Work.Id` is `UNSET`.

**Why.** PROTOCOL.md, State-update rules: "Installation initializes from the
selected mode template: `SCOPING` for `GREENFIELD`, `AUDITING` for
`BROWNFIELD`"; Cycle Modes: "No role-owned workflow work may proceed with
`CycleMode: UNSET`."

**Fix safety.** Unsafe fix to the installed state: an erased `Id` could be
the real mistake.
""",
    fix="unsafe",
    bad_example="`WorkflowState`: `TESTING` `CycleMode`: `UNSET`\n\n`Id`: `UNSET`",
    good_example="`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`\n\n`Id`: `UNSET`",
    help="Set `WorkflowState` to the installed entry state, or restore the cycle's `Id`.",
)
def unstarted_workflow_state(project):
    sm = state_of(project)
    if sm is None or sm.aw("Id") != "UNSET":
        return
    pm = project_mode(project)
    ws = workflow_state(sm)
    if pm is None or ws is None:
        return
    expected = INSTALLED_STATE[pm]
    if ws != expected:
        field = header_field(sm, "WorkflowState")
        yield report(
            at(field),
            f"No cycle has started (Active Work.Id is UNSET), so WorkflowState must still be {expected}, "
            f"the installed {pm} state, not {ws}.",
            fix=replace(field.path, field.value_span, expected, safe=False, description=f"Set WorkflowState to {expected}"),
        )


@rule(
    code="SL306",
    name="unstarted-cycle-handoff-kind",
    section="Cycle Modes",
    owner="state",
    summary="Before any cycle starts, Handoff.Kind is INITIAL.",
    explanation="""
**What it does.** Reports a `Handoff.Kind` other than `INITIAL` while
`Active Work.Id` is `UNSET`.

**Why.** PROTOCOL.md, State-update rules: installation sets
`Handoff.Kind: INITIAL`; protocol/user-decisions.md, Start a cycle: "for the
first cycle, keep `Kind: INITIAL`". No transition can happen before a cycle
exists.

**Fix safety.** Sometimes (unsafe): when `Active Work.Id`, `Request` and
`CycleMode` all say no cycle has started and `From` and `FailureType` are
already `NONE`, only the kind was miswritten: it becomes `INITIAL`. Otherwise
no fix: the other handoff fields would need review too.
""",
    fix="sometimes",
    bad_example="`Id`: `UNSET`\n\n## Handoff\n\n`Kind`: `FAILURE`",
    good_example="`Id`: `UNSET`\n\n## Handoff\n\n`Kind`: `INITIAL`",
    help="Set `Handoff.Kind` to `INITIAL` with `From`: `NONE`, or restore the cycle's `Id`.",
    no_fix_reason="Unless the rest of the handoff is the installed one, the other handoff fields would need review too.",
)
def unstarted_handoff(project):
    sm = state_of(project)
    if sm is None or sm.aw("Id") != "UNSET":
        return
    kind = handoff_kind(sm)
    if kind is not None and kind != "INITIAL":
        yield report(
            at(ho_field(sm, "Kind")),
            f"No cycle has started (Active Work.Id is UNSET), so Handoff.Kind must still be INITIAL, not {kind}.",
            unstarted_kind_fix(project),
        )


@rule(
    code="SL307",
    name="active-cycle-mode-unset",
    section="Cycle Modes",
    owner="state",
    summary="A started, unfinished cycle records its CycleMode.",
    explanation="""
**What it does.** Reports `CycleMode: UNSET` when `Active Work.Id` names a
cycle and `WorkflowState` is not terminal.

**Why.** PROTOCOL.md, Cycle Modes: "No role-owned workflow work may proceed
with `CycleMode: UNSET`. A cycle's mode is chosen, validated, and persisted
when it starts"; protocol/user-decisions.md: "`CycleMode` never remains `UNSET`
once a cycle has started."

**Fix safety.** No fix: the mode is the cycle's own choice.
""",
    bad_example="`WorkflowState`: `SCOPING` `CycleMode`: `UNSET`\n\n`Id`: `add-search-20260101T000000Z-0a1b2c3d`",
    good_example="`WorkflowState`: `SCOPING` `CycleMode`: `STANDARD`\n\n`Id`: `add-search-20260101T000000Z-0a1b2c3d`",
    help="Record the cycle's mode in `CycleMode` (STANDARD, EXPEDITED or DOCUMENTATION).",
    no_fix_reason="The mode is the cycle's own choice.",
)
def active_mode_unset(project):
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "UNSET":
        return
    cid = sm.aw("Id")
    ws = workflow_state(sm)
    if cid and cid != "UNSET" and ws is not None and ws not in TERMINAL_STATES:
        yield report(
            at(header_field(sm, "CycleMode")),
            f"Cycle `{cid}` is active in {ws}, but CycleMode is UNSET. Record STANDARD, EXPEDITED, or "
            "DOCUMENTATION when the cycle starts.",
        )


@rule(
    code="SL308",
    name="greenfield-non-standard-mode",
    section="Cycle Modes",
    owner="state",
    summary="A GREENFIELD project uses only STANDARD cycles, also as a pending preference.",
    explanation="""
**What it does.** Reports `CycleMode` or `PendingCycleMode` set to `EXPEDITED`
or `DOCUMENTATION` when MODE.md says `ProjectMode: GREENFIELD`.

**Why.** PROTOCOL.md, Cycle Modes: "`GREENFIELD` supports only `STANDARD`.
Pending `EXPEDITED` and `DOCUMENTATION` preferences are invalid in `GREENFIELD`
and must not be persisted." Documentation Cycle Contract: "`DOCUMENTATION` is
valid only with `ProjectMode: BROWNFIELD`"; Expedited Cycle Contract: "It is
valid only in `BROWNFIELD`".

**Fix safety.** No fix: the user chooses a supported mode (Start a cycle,
step 3).
""",
    bad_example="`CycleMode`: `UNSET` `PendingCycleMode`: `DOCUMENTATION`\n\n(MODE.md: `ProjectMode`: `GREENFIELD`)",
    good_example="`CycleMode`: `UNSET` `PendingCycleMode`: `UNSET`\n\n(MODE.md: `ProjectMode`: `GREENFIELD`)",
    help="Use a STANDARD cycle (GREENFIELD supports only STANDARD), or ask the user for a supported mode.",
    no_fix_reason="The user chooses a supported mode (Start a cycle, step 3).",
)
def greenfield_modes(project):
    sm = state_of(project)
    if sm is None or project_mode(project) != "GREENFIELD":
        return
    for name, what in (("CycleMode", "cycle mode"), ("PendingCycleMode", "pending cycle-mode preference")):
        field = header_field(sm, name)
        mode = valid(field, ("EXPEDITED", "DOCUMENTATION"))
        if mode:
            yield report(
                at(field),
                f"A GREENFIELD project cannot use {mode} cycles ({name} {mode}); GREENFIELD supports only "
                f"STANDARD, so this {what} is invalid.",
            )


@rule(
    code="SL309",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION":
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
    return replace(field.path, field.value_span, "AUDITING", safe=False,
                   description="Set WorkflowState to AUDITING: the DOCUMENTATION cycle has only started")


def _clear_pending_cadence(sm, message: str):
    """A finding at PendingVerificationCadence whose safe fix sets it to NONE."""
    field = aw_field(sm, "PendingVerificationCadence")
    return report(
        at(field), message,
        fix=replace(field.path, field.value_span, "NONE", description="Clear PendingVerificationCadence"),
    )


@rule(
    code="SL310",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION":
        return
    cadence = pending_cadence(sm)
    if cadence in CADENCES:
        yield _clear_pending_cadence(
            sm,
            f"A DOCUMENTATION cycle keeps Active Work.PendingVerificationCadence NONE, not {cadence}; it "
            "schedules no implementation or Tester assessments.",
        )


@rule(
    code="SL311",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION":
        return
    field = aw_field(sm, "Development")
    if field is not None and field.value.strip() and field.value != "NONE":
        yield report(
            at(field),
            f"A DOCUMENTATION cycle keeps Active Work.Development NONE, not `{field.value}`; development "
            "is omitted from this cycle.",
        )


@rule(
    code="SL312",
    name="documentation-promotion-reason",
    section="Cycle Modes",
    owner="state",
    summary="A DOCUMENTATION cycle keeps Active Work.PromotionReason NONE; it cannot be promoted.",
    explanation="""
**What it does.** Reports an `Active Work.PromotionReason` in a
`DOCUMENTATION` cycle.

**Why.** PROTOCOL.md, Cycle Modes: "A documentation cycle has one fixed
completion contract and no promotion or in-place mode conversion."
Documentation Cycle Contract: `PromotionReason` "must all be `NONE`".

**Fix safety.** No fix: the reason records a needed guarantee that calls for a
user decision.
""",
    bad_example="`CycleMode`: `DOCUMENTATION`\n\n`PromotionReason`: `Need tests`",
    good_example="`CycleMode`: `DOCUMENTATION`\n\n`PromotionReason`: `NONE`",
    help="Set `PromotionReason` to `NONE` and record the needed guarantee as a blocking user decision in `BlockedOn`.",
    no_fix_reason="The reason records a needed guarantee that calls for a user decision.",
)
def documentation_promotion(project):
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION":
        return
    field = aw_field(sm, "PromotionReason")
    if field is not None and field.value.strip() and field.value != "NONE":
        yield report(
            at(field),
            "A DOCUMENTATION cycle keeps Active Work.PromotionReason NONE; it cannot be promoted in place. "
            "Record the needed decision in Active Work.BlockedOn instead.",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "EXPEDITED":
        return
    for name in ("Scope", "Architecture"):
        field = aw_field(sm, name)
        if field is not None and field.value.strip() and field.value != "NONE":
            yield report(
                at(field),
                f"An EXPEDITED cycle keeps Active Work.Scope and Active Work.Architecture as NONE; "
                f"{name} is `{field.value}`. Promote the cycle if it needs formal scope or architecture.",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "EXPEDITED":
        return
    if baseline_status(sm) == "LIST":
        yield report(
            sm.baseline_field,
            "An EXPEDITED cycle cannot carry BaselineReconciliation; unresolved reconciliation requires an "
            "Auditor-first STANDARD or DOCUMENTATION cycle.",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "EXPEDITED":
        return
    if pending_cadence(sm) == "INCREMENTAL":
        yield report(
            at(aw_field(sm, "PendingVerificationCadence")),
            "An INCREMENTAL request requires expedited promotion before recording standard-cycle scheduling; "
            "EXPEDITED supports only AFTER_IMPLEMENTATION.",
        )


def _scheduling_remains(ws: str, frames: list[dict]) -> bool:
    """Whether implementation or increment scheduling can still happen before
    the implementation Reviewer: the current state or the recovery route
    still reaches Developer/Tester work."""
    if ws in BEFORE_REVIEWER:
        return True
    for f in frames:
        if f.get("ResumeAt") in UP_TO_DEVELOPING:
            return True
        if f.get("RerunThrough") == "NONE" and f.get("Owner") in BEFORE_REVIEWER:
            return True
    return False


@rule(
    code="SL316",
    name="stale-pending-cadence",
    section="Verification Cadence",
    owner="state",
    summary="Pending cadence intent is cleared once no implementation scheduling remains before Reviewer.",
    explanation="""
**What it does.** Reports a `PendingVerificationCadence` in a `STANDARD` cycle
that is at or past `REVIEWING_IMPLEMENTATION` when no recovery frame still
routes back to Developer or Tester work.

**Why.** protocol/user-decisions.md, Switch verification cadence: "Once the
current contract and recovery route establish that no implementation or
increment scheduling remains, clear pending intent". Standard Cycle Completion
also requires "`Active Work.PendingVerificationCadence` must be `NONE`" before
sign-off readiness.

**Fix safety.** Safe: clearing it is what the protocol prescribes.
""",
    fix="safe",
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD`\n\n`PendingVerificationCadence`: `INCREMENTAL`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD`\n\n`PendingVerificationCadence`: `NONE`",
    help="Clear the pending cadence intent (`PendingVerificationCadence`: `NONE`).",
)
def stale_cadence(project):
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "STANDARD":
        return
    cadence = pending_cadence(sm)
    ws = workflow_state(sm)
    frames = frame_values(sm)
    if cadence not in CADENCES or ws not in FROM_REVIEWER_ON or frames is None:
        return
    if _scheduling_remains(ws, frames):
        return
    yield _clear_pending_cadence(
        sm,
        f"Clear pending cadence intent ({cadence}): in {ws} no implementation or increment scheduling "
        "remains before Reviewer.",
    )


@rule(
    code="SL317",
    name="documentation-cycle-converted",
    section="Cycle Modes",
    owner="state",
    summary="A DOCUMENTATION cycle is never converted to another mode in place.",
    explanation="""
**What it does.** Inside a git repository, compares STATE.md with the last
commit: when the committed state holds an unfinished `DOCUMENTATION` cycle and
the working tree keeps its `Active Work.Id` with `CycleMode` `STANDARD` or
`EXPEDITED`, the cycle was converted in place.

**Why.** PROTOCOL.md, Cycle Modes: "A documentation cycle has one fixed
completion contract and no promotion or in-place mode conversion." The user
"may keep an achievable documentation-only scope, or explicitly cancel this
cycle and start a separate implementation cycle" (Documentation Cycle
Contract).

**Fix safety.** No fix.
""",
    bad_example="(HEAD) `CycleMode`: `DOCUMENTATION` `Id`: `doc-x-...`\n(now) `CycleMode`: `STANDARD` `Id`: `doc-x-...`",
    good_example="(HEAD) `CycleMode`: `DOCUMENTATION` `Id`: `doc-x-...`\n(now) `WorkflowState`: `CANCELLED` `CycleMode`: `UNSET`",
    help="Keep the DOCUMENTATION mode, or cancel the cycle and start one of the wanted mode.",
    no_fix_reason="Converting a cycle in place is forbidden; cancelling is the user's decision.",
)
def documentation_converted(project):
    sm = state_of(project)
    if sm is None:
        return
    mode = cycle_mode(sm)
    if mode not in ("STANDARD", "EXPEDITED"):
        return
    cid = sm.aw("Id")
    if not cid or not CYCLE_ID_RE.match(cid):
        return
    head = project.head_state
    if head is None or head.doc.conflicts:
        return
    if cycle_mode(head) != "DOCUMENTATION" or head.aw("Id") != cid:
        return
    head_ws = workflow_state(head)
    if head_ws is None or head_ws in TERMINAL_STATES:
        return
    yield report(
        at(header_field(sm, "CycleMode")),
        f"Cycle `{cid}` was a DOCUMENTATION cycle at the last commit and is now {mode}. A DOCUMENTATION "
        "cycle cannot be converted in place; explicitly cancel it and start a separate cycle with a new ID.",
    )


@rule(
    code="SL318",
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
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != "DOCUMENTATION" or sm.obligations is None:
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


@rule(
    code="SL319",
    name="cycle-mode-changed-in-place",
    section="Cycle Modes",
    owner="state",
    summary="An active cycle keeps its mode; only expedited promotion changes it (to STANDARD).",
    explanation="""
**What it does.** Inside a git repository, compares STATE.md with the last
commit: when the committed state holds an unfinished `STANDARD` or `EXPEDITED`
cycle and the working tree keeps its `Active Work.Id` with another execution
mode, other than the `EXPEDITED` -> `STANDARD` promotion, the cycle's mode was
changed in place. (A `DOCUMENTATION` cycle changed in place is SL317.)

**Why.** PROTOCOL.md, Cycle Modes: "A cycle's mode is chosen, validated, and
persisted when it starts" and "selecting a mode for the next cycle never
changes an active cycle"; protocol/expedited.md, Expedited Promotion: "It is a
topology change, not a failure handoff, and it is one-way for the active
cycle." A different mode needs a separate cycle with a new ID.

**Fix safety.** No fix.
""",
    beyond_checker=True,
    bad_example="(HEAD) `CycleMode`: `STANDARD` `Id`: `add-x-...`\n(now) `CycleMode`: `EXPEDITED` `Id`: `add-x-...`",
    good_example="(HEAD) `CycleMode`: `EXPEDITED` `Id`: `add-x-...`\n(now) `CycleMode`: `STANDARD` `Id`: `add-x-...` (promotion)",
    help="Restore the cycle's mode; only Expedited Promotion changes it, to STANDARD.",
    no_fix_reason="Which mode is the real one needs the cycle's history.",
)
def cycle_mode_changed(project):
    sm = state_of(project)
    if sm is None:
        return
    mode = cycle_mode(sm)
    if mode not in EXECUTION_MODES:
        return
    cid = sm.aw("Id")
    if not cid or not CYCLE_ID_RE.match(cid):
        return
    head = project.head_state
    if head is None or head.doc.conflicts or head.aw("Id") != cid:
        return
    head_mode = cycle_mode(head)
    head_ws = workflow_state(head)
    if head_mode not in ("STANDARD", "EXPEDITED") or head_ws is None or head_ws in TERMINAL_STATES:
        return
    if mode == head_mode or (head_mode, mode) == ("EXPEDITED", "STANDARD"):
        return
    why = (
        "promotion is one-way" if (head_mode, mode) == ("STANDARD", "EXPEDITED") else "a mode is chosen when the cycle starts"
    )
    yield report(
        at(header_field(sm, "CycleMode")),
        f"Cycle `{cid}` was {head_mode} at the last commit and is now {mode}; an active cycle's mode cannot be "
        f"changed in place ({why}). Cancel it and start a separate cycle with a new ID.",
    )


standards_lint_rules = module_rules(globals())
