"""Recovery Mechanics: the ``## Recovery`` stack of ``.standards/STATE.md``
(the ``## Outstanding Obligations`` are checked in ``outstanding_obligations``,
a DOCUMENTATION cycle's frames in ``documentation_frames``; frames are read by
:mod:`standards_lint.model.recovery`).

Structure problems of the two sections themselves (a missing or repeated
section, an ``Active`` value that is not ``true``/``false``) belong to the
state-structure rules; handoff/frame agreement to the handoff rules; the
empty-stack requirement at sign-off to the cycle-mode rules.  Every rule here
treats a missing, repeated or invalid value as unknown and stays silent about
what depends on it.
"""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.engine.findings import Fix
from standards_lint.syntax.protocol import FAILURE_TARGETS, FAILURE_TYPES, ROUTE_EXPEDITED, WORKFLOW_STATES, owner_mismatch
from standards_lint.engine.rule import module_rules, replace, report, rule
from standards_lint.model.recovery import (
    CORRECTIVE_KINDS,
    DOC_ROLES,
    EXPEDITED_OWNERS,
    Frame,
    cycle_mode_of,
    frame_owners,
    frames,
    in_route,
    owners_text,
    workflow_state_of,
)
from standards_lint.fixes.recovery import (
    active_mismatch,
    numbering_problems,
    pushed_state_fix,
    same_state_frame_findings,
    stale_frame_fix,
    stale_frame_fix_for,
)
from standards_lint.fixes.reveals import REVEALS


_FRAME_HEAD = re.compile(r"^Frame (\d+)$")


# -- Active flags -------------------------------------------------------------


@rule(
    code="SL501",
    reveals=REVEALS["SL501"],
    name="recovery-active-mismatch",
    section="Recovery Mechanics",
    owner="state",
    summary="`Recovery.Active` must be `true` exactly when the stack holds frames.",
    explanation="""
**What it does.** Compares `Recovery.Active` with the number of `### Frame N`
entries under `## Recovery`.

**Why.** PROTOCOL.md, Recovery Mechanics: "Keep the frame on the stack." and
"Recovery ends only when the stack is empty."; State-update rules: installation
starts with "inactive recovery". `Active` is a summary of the stack, so `true`
with no frame or `false` with frames leaves a resuming role with two answers.

**Fix safety.** Safe: the frames are the record; the fix sets `Active` to
`true` when frames exist and `false` when none do.
""",
    fix="safe",
    bad_example="## Recovery\n\n`Active`: `false`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ...",
    good_example="## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ...",
    help="Set `Recovery.Active` to match the frames.",
)
def recovery_active_mismatch(project):
    st = project.state
    if st is None:
        return
    yield from active_mismatch(project, st.recovery, len(frames(project)), "frame", "frames", "Recovery")


# -- numbering ----------------------------------------------------------------


@rule(
    code="SL503",
    name="recovery-frame-numbering",
    section="Recovery Mechanics",
    owner="state",
    summary="Recovery frames are headed `### Frame 1`, `### Frame 2`, ... in stack order.",
    explanation="""
**What it does.** Checks that the entries under `## Recovery` are headed
exactly `### Frame N`, numbered from 1 without gaps in document order.

**Why.** PROTOCOL.md, Workflow State Reference > Recovery: "`Recovery` is a
stack ordered oldest to newest", and the STATE.md shape heads each entry
`### Frame 1`. Frame numbers name the stack position; a gap, a repeat or a
stray heading makes "the last frame is active" ambiguous for the next role.

**Fix safety.** Renumbers every heading to its position. Safe when each
heading is `Frame <number>` (only the number changes); unsafe when a heading
carries other text, which the fix drops.
""",
    fix="sometimes",
    bad_example="## Recovery\n\n`Active`: `true`\n\n### Frame 2\n\n`From`: `TESTING` ...",
    good_example="## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` ...",
    help="Renumber the recovery frames `### Frame 1`, `### Frame 2`, ... in stack order.",
)
def recovery_frame_numbering(project):
    yield from numbering_problems(frames(project), "Frame", _FRAME_HEAD, "Recovery", "Renumber the recovery frames in stack order.")


# -- frame fields -------------------------------------------------------------
@rule(
    code="SL504",
    name="recovery-frame-field",
    section="Recovery Mechanics",
    owner="state",
    summary="Each recovery frame records From, Owner, FailureType, Reason, ResumeAt and RerunThrough with valid values.",
    explanation="""
**What it does.** Checks each `### Frame N`: `From`, `Owner` and `ResumeAt`
must be workflow states, `FailureType` a failure type, `RerunThrough` `NONE`
or a workflow state, and `Reason` present and nonempty.

**Why.** PROTOCOL.md, Recovery Mechanics: "push a frame with `From` =
interrupted state, `Owner` = corrective target, applicable `FailureType` and
`Reason`, `ResumeAt` = interrupted state, and `RerunThrough: NONE`." A frame
missing any of these cannot be resumed or popped correctly.

**Fix safety.** No fix: the right value is the routing that happened.
""",
    bad_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE`\n`ResumeAt`: `TESTING` `RerunThrough`: `NOWHERE`",
    good_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE`\n`Reason`: `Retry behavior is undefined.` `ResumeAt`: `TESTING` `RerunThrough`: `NONE`",
    help="Give the frame every field with a valid value: From, Owner, FailureType, Reason, ResumeAt, RerunThrough.",
    no_fix_reason="The right value is the routing that happened.",
)
def recovery_frame_field(project):
    for fr in frames(project):
        yield from _field_problems(fr, _ROUTING_FIELDS)
        v = fr.get("Reason")
        if v.field is None or (v.text is not None and not v.text.strip()):
            yield report(fr.where("Reason"), f"Recovery frame {fr.label}: `Reason` is missing; record what the correction must fix.")
        yield from _field_problems(fr, _RETURN_FIELDS)


# (field, its allowed values, what a missing one must be, what an invalid one is not)
_ROUTING_FIELDS = (
    ("From", WORKFLOW_STATES, "it must be a workflow state", ", which is not a workflow state"),
    ("Owner", WORKFLOW_STATES, "it must be a workflow state", ", which is not a workflow state"),
    ("FailureType", FAILURE_TYPES, "it must be a failure type", ", which is not a failure type"),
)
_RETURN_FIELDS = (
    ("ResumeAt", WORKFLOW_STATES, "it must be a workflow state (the interrupted state)",
     ", which is not a workflow state"),
    ("RerunThrough", ("NONE",) + WORKFLOW_STATES, "it must be NONE or a workflow state",
     "; it must be NONE or a workflow state"),
)


def _field_problems(fr: Frame, table):
    """SL504's findings for the fields of *table*: a missing field (at the
    frame's heading) or a value outside the allowed ones (at the value; a
    repeated field with different values is unknown, so silent)."""
    for name, allowed, must, invalid in table:
        v = fr.get(name)
        if v.field is None:
            yield report(fr.heading(), f"Recovery frame {fr.label}: `{name}` is missing; {must}.")
        elif v.text is not None and v.text not in allowed:
            yield report(fr.where(name), f"Recovery frame {fr.label}: `{name}` is `{v.text}`{invalid}.")


@rule(
    code="SL505",
    reveals=REVEALS["SL505"],
    name="recovery-frame-resume-at",
    section="Recovery Mechanics",
    owner="state",
    summary="A frame's `ResumeAt` is the interrupted state, its `From`.",
    explanation="""
**What it does.** Checks that each frame's `ResumeAt` equals its `From`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "push a frame with `From` =
interrupted state, ... `ResumeAt` = interrupted state". Both record the same
state; when they differ, the return after recovery goes somewhere the
interrupted work never was.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (see SL507) when the frame is stale; else sets `ResumeAt` to `From` when `From` is a state of the cycle's route; review whether `From` is the wrong one instead.
""",
    bad_example="`From`: `TESTING` `Owner`: `ARCHITECTING` ... `ResumeAt`: `DEVELOPING`",
    good_example="`From`: `TESTING` `Owner`: `ARCHITECTING` ... `ResumeAt`: `TESTING`",
    fix="sometimes",
    help="Set the frame's `ResumeAt` to the interrupted state (its `From`), or correct `From`.",
    no_fix_reason="Either field may be the wrong one when `From` is not a state of the cycle's route.",
)
def recovery_frame_resume_at(project):
    for fr in frames(project):
        frm, resume = fr.state("From"), fr.state("ResumeAt")
        if frm is None or resume is None or frm == resume:
            continue
        f = fr.get("ResumeAt").field
        fix = stale_frame_fix_for(project, fr)
        if fix is None and in_route(project, frm):
            fix = replace(f.path, f.value_span, frm, safe=False,
                          description=f"Set frame {fr.label}'s ResumeAt to its From, {frm}")
        yield report(
            fr.where("ResumeAt"),
            f"Recovery frame {fr.label}: `ResumeAt` is {resume} but must be the interrupted state, {frm} (its `From`).",
            fix,
        )


# -- a stale last frame -------------------------------------------------------


@rule(
    code="SL506",
    reveals=REVEALS["SL506"],
    name="recovery-frame-owner",
    section="Failure Handoffs",
    owner="state",
    summary="A frame's `Owner` is the state that owns its `FailureType`.",
    explanation="""
**What it does.** Checks each frame's `Owner` against the owning state of its
`FailureType` (`SCOPING` -> `SCOPING`, `ARCHITECTURE` -> `ARCHITECTING`,
`PROJECT_CONTEXT` -> `AUDITING`, `IMPLEMENTATION` -> `DEVELOPING`,
`VERIFICATION` -> `TESTING`, `DOCUMENTATION` -> `DOCUMENTING`, `REVIEW` ->
`REVIEWING_IMPLEMENTATION` or `REVIEWING_FINAL`, `SYNCHRONIZATION` ->
`SYNCHRONIZING`).

**Why.** PROTOCOL.md, Failure Handoffs: "A failure handoff routes a defect to
its owning state", and Recovery Mechanics: "`Owner` = corrective target". A
frame owned by another state sends the correction to a role that does not own
the defective artifact.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (see SL507) when the frame is stale; for the frame the last `FAILURE` or `USER_REWORK` pushed (same `From`, its `Owner` the current state, which owns the handoff's type), its `FailureType` becomes the handoff's; otherwise sets `Owner` to the one state owning the frame's `FailureType` (Failure Types table) when that makes a valid frame (not its own `From`, on the cycle's route, `RerunThrough`: `NONE`). A `REVIEW` frame outside DOCUMENTATION has two possible owners: no fix.
""",
    bad_example="`From`: `TESTING` `Owner`: `DEVELOPING` `FailureType`: `ARCHITECTURE` ...",
    good_example="`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE` ...",
    fix="sometimes",
    help="Set the frame's `Owner` to the state owning its FailureType, or correct the FailureType.",
    no_fix_reason="Where two states may own the type, or the owner would make an invalid frame, which field is wrong needs the routing role.",
)
def recovery_frame_owner(project):
    for fr in frames(project):
        ft, owner = fr.get("FailureType").text, fr.state("Owner")
        if not owner_mismatch(ft, owner):
            continue
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: a {ft} frame belongs to {owners_text(ft)}, not {owner}.",
            stale_frame_fix_for(project, fr) or _pushed_type_fix(project, fr) or _owner_fix(project, fr, ft),
        )


def _pushed_type_fix(project, fr: Frame) -> Optional[Fix]:
    """The active frame the last corrective handoff pushed (same `From`, its
    Owner the current state) records that handoff's FailureType (Recovery
    Mechanics, step 1: "applicable `FailureType`"): when the handoff's type
    is one the frame's Owner owns, the frame's is the miscopied one."""
    st = project.state
    if st is None or not fr.last or st.ho("Kind") not in CORRECTIVE_KINDS:
        return None
    ft, owner = st.ho("FailureType"), fr.state("Owner")
    f = fr.get("FailureType").field
    if (f is None or fr.get("FailureType").text == ft or st.ho("From") != fr.state("From")
            or owner is None or owner != workflow_state_of(project) or ft not in FAILURE_TYPES
            or owner not in frame_owners(project, ft) or owner == fr.state("From")):
        return None
    return replace(f.path, f.value_span, ft, safe=False,
                   description=f"Set frame {fr.label}'s FailureType to {ft}, the type its handoff routed")


def _owner_fix(project, fr: Frame, ft: str) -> Optional[Fix]:
    """Set the frame's Owner to the one state owning its FailureType (Failure
    Types table); none when two states may own it (REVIEW outside
    DOCUMENTATION) or the owner is omitted in a DOCUMENTATION cycle."""
    owners = FAILURE_TARGETS[ft]
    if cycle_mode_of(project) == "DOCUMENTATION":
        owners = tuple(o for o in owners if o in DOC_ROLES)
        if ft == "REVIEW":
            owners = ("REVIEWING_FINAL",)
    elif cycle_mode_of(project) == "EXPEDITED":
        owners = tuple(o for o in owners if o in ROUTE_EXPEDITED)
    if len(owners) != 1 or not in_route(project, owners[0], role=True):
        return None
    # The new owner must make a valid frame: not its own From (a same-state
    # correction pushes no frame), and not yet rerunning past an owner.
    if owners[0] == fr.state("From") or fr.get("RerunThrough").text != "NONE":
        return None
    # The active frame under correction is what WorkflowState follows
    # (SL507) and what the failure handoff pushed (SL403): change its owner
    # only when the state already is the type's owner.
    ws = workflow_state_of(project)
    if fr.last and ws != owners[0] and (ws is None or ws == fr.state("Owner")):
        return None  # (when the state already differs from both, SL507 stands either way)
    f = fr.get("Owner").field
    return replace(f.path, f.value_span, owners[0], safe=False,
                   description=f"Set frame {fr.label}'s Owner to {owners[0]}, the owner of {ft}")


@rule(
    code="SL507",
    reveals=REVEALS["SL507"],
    name="recovery-active-frame-state",
    section="Recovery Mechanics",
    owner="state",
    summary="While the active frame is being corrected (`RerunThrough: NONE`), WorkflowState is its Owner.",
    explanation="""
**What it does.** When the last (active) frame has `RerunThrough: NONE`,
checks that `WorkflowState` equals the frame's `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics: "The last frame is active." A frame
is pushed with `RerunThrough: NONE` as the workflow moves to its `Owner`; the
owner then either pops it ("No rerun: pop the frame and transition directly to
`ResumeAt`") or sets `RerunThrough` before moving on ("Rerun required: set
`RerunThrough` to the last required state and transition to the earliest
required rerun state"). protocol/expedited.md: "`RerunThrough: NONE` means the
frame's owner has not yet completed its correction". So an active frame with
`RerunThrough: NONE` in any other state means the correction was skipped or
the stack was not updated.

**Fix safety.** Sometimes (unsafe): when the handoff is the `FAILURE` or `USER_REWORK` that pushed the active frame (same `From`, its FailureType owned by the frame's `Owner`), `WorkflowState` is set to the `Owner`. Otherwise the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. Otherwise either the state or the stack may be stale: no fix.
""",
    bad_example="`WorkflowState`: `DEVELOPING` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ... `RerunThrough`: `NONE`",
    good_example="`WorkflowState`: `ARCHITECTING` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING` ... `RerunThrough`: `NONE`",
    fix="sometimes",
    help="Move `WorkflowState` to the active frame's Owner, or update the stack (pop the frame or set `RerunThrough`).",
    no_fix_reason="Unless the handoff is the failure that pushed the frame, or the other files show the frame stale, either the state or the stack is stale.",
)
def recovery_active_frame_state(project):
    fs = frames(project)
    ws = workflow_state_of(project)
    if not fs or ws is None:
        return
    fr = fs[-1]
    owner = fr.state("Owner")
    if fr.get("RerunThrough").text != "NONE" or owner is None or owner == ws:
        return
    st = project.state
    f = st.one(st.header, "WorkflowState")
    where = (f.path, f.value_span) if f is not None else fr.where("Owner")
    fix = stale_frame_fix(project) or pushed_state_fix(project)
    yield report(
        where,
        f"Recovery frame {fr.label} is still being corrected (RerunThrough is NONE), "
        f"so WorkflowState must be its Owner, {owner}, not {ws}.",
        fix,
    )


# -- beyond the reference checker ---------------------------------------------


@rule(
    code="SL516",
    reveals=REVEALS["SL516"],
    name="expedited-frame-topology",
    section="Recovery Mechanics",
    owner="state",
    summary="In EXPEDITED, recovery frames use only expedited states.",
    explanation="""
**What it does.** In an `EXPEDITED` cycle, checks that each frame's `From` and
`ResumeAt` are expedited states (`DEVELOPING`, `REVIEWING_IMPLEMENTATION`,
`AWAITING_USER_SIGNOFF`), that its `Owner` is `DEVELOPING` or
`REVIEWING_IMPLEMENTATION`, and that `RerunThrough` is `NONE` or one of those
two.

**Why.** PROTOCOL.md, Recovery Mechanics: "Recovery follows the active
`CycleMode` topology. Expedited recovery reruns only expedited states; a newly
required skipped role or guarantee triggers **Expedited Promotion**". Failure
Handoffs: "In `EXPEDITED`, only `IMPLEMENTATION -> DEVELOPING` and
implementation `REVIEW -> REVIEWING_IMPLEMENTATION` are valid failure routes
because only those states exist in the expedited topology."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. Mid-cycle, a frame whose owner the cycle skips is kept.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`CycleMode`: `EXPEDITED` ...\n\n### Frame 1\n\n`From`: `DEVELOPING` `Owner`: `SCOPING` `FailureType`: `SCOPING` ...",
    good_example="`CycleMode`: `EXPEDITED` ...\n\n### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION` ...",
    help="Promote the cycle (Expedited Promotion converts the frame into an outstanding obligation), or route within expedited states.",
    no_fix_reason="Unless the frame is stale at the cycle start, a skipped owner needs Expedited Promotion, which converts the frame into an outstanding obligation.",
)
def expedited_frame_topology(project):
    if cycle_mode_of(project) != "EXPEDITED":
        return
    for fr in frames(project):
        checks = (
            ("From", ROUTE_EXPEDITED, "an expedited state"),
            ("ResumeAt", ROUTE_EXPEDITED, "an expedited state"),
            ("Owner", EXPEDITED_OWNERS, "DEVELOPING or REVIEWING_IMPLEMENTATION"),
            ("RerunThrough", EXPEDITED_OWNERS + ("NONE",), "NONE, DEVELOPING or REVIEWING_IMPLEMENTATION"),
        )
        for name, allowed, what in checks:
            v = fr.get(name).text
            valid = v in WORKFLOW_STATES or (name == "RerunThrough" and v == "NONE")
            if not valid or v in allowed:
                continue  # unknown values are SL504's
            yield report(
                fr.where(name),
                f"Recovery frame {fr.label}: {name} is {v}, outside the EXPEDITED topology; it must be {what}. "
                "A skipped role requires Expedited Promotion.",
                stale_frame_fix_for(project, fr),
            )


@rule(
    code="SL520",
    reveals=REVEALS["SL520"],
    name="recovery-same-state-frame",
    section="Recovery Mechanics",
    owner="state",
    summary="A same-state correction pushes no recovery frame (`From` equal to `Owner`).",
    explanation="""
**What it does.** Outside `DOCUMENTATION` cycles (where SL514 applies),
reports frames whose `From` equals their `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "Push only when corrective
routing changes state. For `FAILURE` or `USER_REWORK` moving to a different
state, push a frame ... Same-state correction creates no frame." Failure
Handoffs: "A same-state failure records the handoff but does not create a
recovery frame."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `REVIEWING_IMPLEMENTATION` ...",
    good_example="### Frame 1\n\n`From`: `TESTING` `Owner`: `REVIEWING_IMPLEMENTATION` ...",
    help="Remove the same-state frame and review the handoff and `Recovery.Active`.",
    no_fix_reason="Unless the other files show the frame stale, removing it also needs the handoff and `Active` flag reviewed.",
)
def recovery_same_state_frame(project):
    if cycle_mode_of(project) == "DOCUMENTATION":
        return
    yield from same_state_frame_findings(project, frames(project))


standards_lint_rules = module_rules(globals())
