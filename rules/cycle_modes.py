"""Cycle modes: what each ``CycleMode`` allows in ``.standards/STATE.md``
(PROTOCOL.md: Cycle Modes; protocol/user-decisions.md: Start a cycle, Switch
verification cadence).  The Documentation and Expedited Cycle Contracts and
the Completion Policies are checked in ``documentation_cycle``,
``expedited_cycle`` and ``completion_policies``.

Every rule reads only values that occur exactly once and are valid; anything
missing, repeated or invalid is left to the STATE.md structure rules.
"""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.protocol import CYCLE_ID_RE, TERMINAL_STATES
from standards_lint.model.holding import holding
from standards_lint.model.cycle_ids import finished_at_head
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.accessors import (
    CADENCES,
    EXECUTION_MODES,
    at,
    aw_values,
    cycle_mode,
    frame_values,
    handoff_kind,
    header_field,
    ho_field,
    pending_cadence,
    project_mode,
    state_in_mode,
    state_of,
    unstarted_state,
    valid,
    workflow_state,
)
from standards_lint.fixes.handoff import unstarted_kind_fix
from standards_lint.fixes.cadence import clear_pending_cadence_fix
from standards_lint.fixes.state import set_value_fix
from standards_lint.model.route import ENTRY_STATE

STATE = ".standards/STATE.md"

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


# -- rules ---------------------------------------------------------------------


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
    sm = unstarted_state(project)
    if sm is None:
        return
    pm = project_mode(project)
    ws = workflow_state(sm)
    if pm is None or ws is None:
        return
    expected = ENTRY_STATE[pm]
    if ws != expected:
        field = header_field(sm, "WorkflowState")
        yield report(
            at(field),
            f"No cycle has started (Active Work.Id is UNSET), so WorkflowState must still be {expected}, "
            f"the installed {pm} state, not {ws}.",
            fix=set_value_fix(field, expected, "WorkflowState"),
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
    sm = unstarted_state(project)
    if sm is None:
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
            f"Cycle `{cid}` is active in {ws}, but CycleMode is UNSET. Record {project.release.mode_words} "
            "when the cycle starts.",
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
    code="SL312",
    since="0.11.0",
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
    sm = state_in_mode(project, "DOCUMENTATION")
    if sm is None:
        return
    for field in aw_values(sm, "PromotionReason"):
        yield report(
            at(field),
            "A DOCUMENTATION cycle keeps Active Work.PromotionReason NONE; it cannot be promoted in place. "
            "Record the needed decision in Active Work.BlockedOn instead.",
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
that is at or past `REVIEWING_IMPLEMENTATION` when no implementation or
increment scheduling remains: no frame left on the stack routes back to
Developer or Tester work (none counts once a `FORWARD` or `RESUME` has
entered a Reviewer state or a state after one) and, during recovery, a `FORWARD` or recovery
`RESUME` has entered the state ("the full applicable Developer and Tester
gates must hold", Full Verification Boundary); an unreadable `Handoff.Kind`
decides nothing.

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
    sm = state_in_mode(project, "STANDARD")
    if sm is None:
        return
    cadence = pending_cadence(sm)
    ws = workflow_state(sm)
    frames = frame_values(sm)
    if cadence not in CADENCES or ws not in FROM_REVIEWER_ON or frames is None:
        return
    h = holding(project)
    if h is not None and h.recovery == "true" and not h.full_gates_due():
        # During recovery only a FORWARD or recovery RESUME into a Reviewer
        # state establishes that the full Developer and Tester gates hold
        # (Full Verification Boundary); until then (an unreadable
        # Handoff.Kind among them) scheduling may remain.
        return
    # Once a FORWARD or RESUME has entered a Reviewer state (or a state after
    # one) the full gates hold: no frame schedules more work.
    entered = h is not None and h.reviewer_entry_passed()
    if _scheduling_remains(ws, [] if entered else frames):
        return
    yield clear_pending_cadence_fix(
        sm,
        f"Clear pending cadence intent ({cadence}): in {ws} no implementation or increment scheduling "
        "remains before Reviewer.",
    )


def _unfinished_at_head(project, sm) -> tuple[Optional[str], Optional[str]]:
    """(Active Work.Id, the last commit's CycleMode) when the Id is a cycle ID
    that the committed STATE.md holds unfinished (a valid, non-terminal
    WorkflowState), else (None, None)."""
    cid = sm.aw("Id")
    if not cid or not CYCLE_ID_RE.match(cid):
        return None, None
    head = project.head_state
    if head is None or head.doc.conflicts or head.aw("Id") != cid:
        return None, None
    head_ws = workflow_state(head)
    if head_ws is None or head_ws in TERMINAL_STATES:
        return None, None
    return cid, cycle_mode(head)


@rule(
    code="SL317",
    since="0.11.0",
    name="documentation-cycle-converted",
    section="Cycle Modes",
    owner="state",
    summary="A DOCUMENTATION cycle is never converted to another mode in place.",
    explanation="""
**What it does.** Inside a git repository, compares STATE.md with the last
commit: when the committed state holds an unfinished `DOCUMENTATION` cycle and
the working tree keeps its `Active Work.Id` with `CycleMode` `STANDARD` or
`EXPEDITED`, the cycle was converted in place. So was a `DOCUMENTATION` cycle
the working tree holds under the ID of the cycle the last commit finished
(`SIGNED_OFF` or `CANCELLED`, `CycleMode` reset to `UNSET`): that cycle's mode
changed under its ID instead of a separate cycle starting with a new one.

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
    if mode == "DOCUMENTATION":
        yield from _documentation_under_finished_id(project, sm)
        return
    if mode not in ("STANDARD", "EXPEDITED"):
        return
    cid, head_mode = _unfinished_at_head(project, sm)
    if head_mode != "DOCUMENTATION":
        return
    yield report(
        at(header_field(sm, "CycleMode")),
        f"Cycle `{cid}` was a DOCUMENTATION cycle at the last commit and is now {mode}. A DOCUMENTATION "
        "cycle cannot be converted in place; explicitly cancel it and start a separate cycle with a new ID.",
    )


def _documentation_under_finished_id(project, sm):
    """A DOCUMENTATION cycle under the ID of the cycle the last commit
    finished: that cycle, whose mode the ending reset to UNSET, now carries
    the DOCUMENTATION mode in place of a new cycle with its own ID."""
    cid = sm.aw("Id")
    finished = finished_at_head(project)
    if not cid or not CYCLE_ID_RE.match(cid) or finished is None or finished[0] != cid:
        return
    if project.head_state.doc.conflicts or workflow_state(sm) in TERMINAL_STATES:
        return
    yield report(
        at(header_field(sm, "CycleMode")),
        f"Cycle `{cid}` ended in {finished[1]} at the last commit and is now a DOCUMENTATION cycle under the same "
        "ID. A DOCUMENTATION cycle cannot be converted in place; explicitly cancel it and start a separate cycle "
        "with a new ID.",
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
    cid, head_mode = _unfinished_at_head(project, sm)
    if head_mode not in ("STANDARD", "EXPEDITED"):
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
