"""Recovery frames of a DOCUMENTATION cycle (PROTOCOL.md, Documentation Cycle
Contract): only documentation states and owners, failure types the cycle can
route, and reruns within its route."""

from __future__ import annotations

from typing import Iterator

from standards_lint.fixes.recovery import same_state_frame_findings, stale_frame_fix, stale_frame_fix_for
from standards_lint.model.recovery import (
    DOC_ROLES,
    DOC_STATES,
    DOC_UNROUTABLE,
    Frame,
    cycle_mode_of,
    frames,
    workflow_state_of,
)
from standards_lint.syntax.protocol import TERMINAL_STATES
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.fixes.reveals import REVEALS


def _doc_frames(project) -> Iterator[Frame]:
    if cycle_mode_of(project) != "DOCUMENTATION":
        return
    yield from frames(project)


def _not_included(project, fr: Frame, names, allowed, what: str):
    """Report each field of frame *fr* among *names* that is missing or not
    in *allowed* (*what* the DOCUMENTATION cycle requires there)."""
    for name in names:
        v = fr.get(name)
        if v.field is not None and v.text is None:
            continue  # repeated with different values: unknown
        if v.text in allowed:
            continue
        shown = f"`{v.text}`" if v.text is not None else "missing"
        yield report(
            fr.where(name),
            f"Recovery frame {fr.label}: {name} is {shown}; in DOCUMENTATION it must be {what} "
            f"({', '.join(allowed)}).",
            stale_frame_fix_for(project, fr),
        )


_DOC_WHY = """PROTOCOL.md, Recovery Mechanics: "Documentation recovery uses only its
included states under **Documentation Cycle Contract** ... Every documentation
frame's `From` and `ResumeAt` must be included states; `Owner` is an included
role, with `REVIEW` owned by `REVIEWING_FINAL`. `RerunThrough` is `NONE` or a
downstream included role, never `AWAITING_USER_SIGNOFF`." The included states
are `AUDITING`, `SCOPING`, `ARCHITECTING`, `DOCUMENTING`, `REVIEWING_FINAL`,
`SYNCHRONIZING` and `AWAITING_USER_SIGNOFF`."""


@rule(
    code="SL510",
    since="0.11.0",
    reveals=REVEALS["SL510"],
    name="documentation-frame-states",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a frame's `From` and `ResumeAt` are included states.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's `From`
and `ResumeAt` are states of the Documentation Brownfield route.

**Why.** {_DOC_WHY}

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `AUDITING` ... `ResumeAt`: `TESTING`",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `ResumeAt`: `REVIEWING_FINAL`",
    help="Use included DOCUMENTATION states for the frame's `From` and `ResumeAt`.",
    no_fix_reason="Unless the other files show the frame stale, the routing the frame records needs the routing role.",
)
def documentation_frame_states(project):
    for fr in _doc_frames(project):
        yield from _not_included(project, fr, ("From", "ResumeAt"), DOC_STATES, "an included state")


@rule(
    code="SL511",
    since="0.11.0",
    reveals=REVEALS["SL511"],
    name="documentation-frame-owner",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a frame's `Owner` is an included role's state.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's `Owner`
is the state of an included role: `AUDITING`, `SCOPING`, `ARCHITECTING`,
`DOCUMENTING`, `REVIEWING_FINAL` or `SYNCHRONIZING`.

**Why.** {_DOC_WHY} Failure Handoffs: "In `DOCUMENTATION`, only owners included
in **Documentation Cycle Contract** are valid failure targets ... A required
omitted role follows that contract's blocking user-decision rule instead of a
failure handoff into a skipped state."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DEVELOPING` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DOCUMENTING` ...",
    help="Route the defect to an included role, or record a blocking user decision in `Active Work.BlockedOn`.",
    no_fix_reason="Unless the other files show the frame stale, the defect needs an included owner or a blocking user decision in `Active Work.BlockedOn`.",
)
def documentation_frame_owner(project):
    for fr in _doc_frames(project):
        yield from _not_included(project, fr, ("Owner",), DOC_ROLES, "an included role's state")


@rule(
    code="SL512",
    since="0.11.0",
    reveals=REVEALS["SL512"],
    name="documentation-frame-failure-type",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, IMPLEMENTATION and VERIFICATION frames have no owner, and REVIEW belongs to REVIEWING_FINAL.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports frames whose
`FailureType` is `IMPLEMENTATION` or `VERIFICATION` (their owners, Developer
and Tester, are omitted), and `REVIEW` frames not owned by `REVIEWING_FINAL`.

**Why.** PROTOCOL.md, Failure Handoffs: "In `DOCUMENTATION`, only owners
included in **Documentation Cycle Contract** are valid failure targets, with
`REVIEW` targeting `REVIEWING_FINAL`. A required omitted role follows that
contract's blocking user-decision rule instead of a failure handoff into a
skipped state." Documentation Cycle Contract: "A defect or changed request
requiring implementation, formal testing, or implementation review does not
authorize entry into an omitted state ... Persist the evidence and required
user decision in `Active Work.BlockedOn`".

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route. So only a stale `REVIEW` frame owned by another state is removed.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n`BlockedOn`: `User decision: keep the documentation-only scope or cancel for an implementation cycle.`",
    help="Replace the frame by a blocking user decision in `BlockedOn`, or route the defect to its included owner.",
    no_fix_reason="Replace the frame by a blocking user decision, or route the defect to its included owner; only a stale REVIEW frame is removed.",
)
def documentation_frame_failure_type(project):
    for fr in _doc_frames(project):
        ft = fr.get("FailureType").text
        owner = fr.get("Owner").text
        if ft in DOC_UNROUTABLE:
            msg = (
                f"Recovery frame {fr.label}: {ft} has no owner in DOCUMENTATION (its role is omitted); "
                "an omitted owner requires a blocking user decision in Active Work.BlockedOn, not a recovery frame."
            )
        elif ft == "REVIEW" and owner != "REVIEWING_FINAL":
            msg = (
                f"Recovery frame {fr.label}: REVIEW cannot target {owner or 'this owner'} in DOCUMENTATION; "
                "REVIEW belongs to REVIEWING_FINAL."
            )
        else:
            continue
        yield report(fr.where("FailureType"), msg, stale_frame_fix_for(project, fr))


@rule(
    code="SL513",
    since="0.11.0",
    reveals=REVEALS["SL513"],
    name="documentation-frame-rerun-through",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, `RerunThrough` is NONE or an included role downstream of the frame's Owner.",
    explanation=f"""
**What it does.** In a `DOCUMENTATION` cycle, checks that each frame's
`RerunThrough` is `NONE` or an included role's state (never
`AWAITING_USER_SIGNOFF`) that comes after the frame's `Owner` on the
Documentation Brownfield route.

**Why.** {_DOC_WHY} Recovery Mechanics, step 5: "set `RerunThrough` to the
last required state and transition to the earliest required rerun state" —
reruns lie downstream of the correcting owner.

**Fix safety.** No fix: the rerun plan belongs to the frame's owner.
""",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `RerunThrough`: `AUDITING`",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ... `RerunThrough`: `DOCUMENTING`",
    help="Set `RerunThrough` to `NONE` or an included role downstream of the frame's Owner.",
    no_fix_reason="The rerun plan belongs to the frame's owner.",
)
def documentation_frame_rerun_through(project):
    for fr in _doc_frames(project):
        v = fr.get("RerunThrough")
        if v.field is not None and v.text is None:
            continue
        rt, owner = v.text, fr.get("Owner").text
        if rt == "NONE":
            continue
        if rt in DOC_ROLES:
            if owner not in DOC_ROLES or DOC_ROLES.index(rt) > DOC_ROLES.index(owner):
                continue
            problem = f"is {rt}, which is not downstream of its Owner {owner}"
        else:
            problem = f"is `{rt}`, not an included role" if rt is not None else "is missing"
        yield report(
            fr.where("RerunThrough"),
            f"Recovery frame {fr.label}: RerunThrough {problem}; in DOCUMENTATION it must be NONE or an included "
            "role downstream of the Owner (never AWAITING_USER_SIGNOFF).",
        )


@rule(
    code="SL514",
    since="0.11.0",
    reveals=REVEALS["SL514"],
    name="documentation-same-state-frame",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, a same-state correction pushes no frame (`From` equal to `Owner`).",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle, reports frames whose `From`
equals their `Owner`.

**Why.** PROTOCOL.md, Recovery Mechanics, step 1: "Push only when corrective
routing changes state. ... Same-state correction creates no frame." and
Failure Handoffs: "A same-state failure records the handoff but does not create
a recovery frame."

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `AUDITING` `Owner`: `AUDITING` ...",
    good_example="`CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n`From`: `REVIEWING_FINAL` `Owner`: `AUDITING` ...",
    help="Remove the same-state frame and review the handoff and `Recovery.Active`.",
    no_fix_reason="Unless the other files show the frame stale, removing it also needs the handoff and `Active` flag reviewed.",
)
def documentation_same_state_frame(project):
    yield from same_state_frame_findings(project, _doc_frames(project), "DOCUMENTATION ")


@rule(
    code="SL515",
    since="0.11.0",
    reveals=REVEALS["SL515"],
    name="documentation-rerun-range",
    section="Documentation Cycle Contract",
    owner="state",
    summary="In DOCUMENTATION, an active rerun keeps WorkflowState between the frame's Owner and RerunThrough.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle whose active (last) frame has a
valid `RerunThrough`, checks that `WorkflowState` lies on the Documentation
Brownfield route between the frame's `Owner` and its `RerunThrough`.

**Why.** PROTOCOL.md, Recovery Mechanics, steps 5-7: with a rerun required the
owner transitions "to the earliest required rerun state. Keep the frame on the
stack", and "At the rerun boundary, after `RerunThrough` passes its applicable
gate, pop the frame and transition to `ResumeAt`". While the frame is on the
stack with a rerun boundary, work is inside that span; anywhere else means the
frame should have been popped or the route left its rerun plan.

**Fix safety.** Sometimes (unsafe): the stale-frame fix (shared with SL350, SL505-SL507, SL510-SL516, SL520) removes the frame when the project's other files show it stale: every frame when the last handoff starts the cycle (`INITIAL`/`NEW_CYCLE`) at its entry state; otherwise the last frame when it contradicts itself, the state is not where its correction could be (or it was interrupted in a state whose earlier gates left no record), the last handoff did not push it and explains the state (a route step or a recovery return, the passed gates' records `COMPLETE`). Never for a failure type a DOCUMENTATION cycle cannot route.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `SCOPING` `CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n... `Owner`: `ARCHITECTING` ... `RerunThrough`: `SYNCHRONIZING`",
    good_example="`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION` ...\n\n### Frame 1\n\n... `Owner`: `ARCHITECTING` ... `RerunThrough`: `SYNCHRONIZING`",
    help="Keep `WorkflowState` between the frame's Owner and RerunThrough, or update the frame.",
    no_fix_reason="Unless the other files show the frame stale, either the state or the frame may be.",
)
def documentation_rerun_range(project):
    fs = list(_doc_frames(project))
    ws = workflow_state_of(project)
    if not fs or ws is None or ws in TERMINAL_STATES:
        return  # frames in a terminal state are a state-structure problem
    fr = fs[-1]
    owner, rt = fr.get("Owner").text, fr.get("RerunThrough").text
    if owner not in DOC_ROLES or rt not in DOC_ROLES:
        return
    lo, hi = DOC_ROLES.index(owner), DOC_ROLES.index(rt)
    if hi <= lo:
        return  # SL513
    if ws in DOC_ROLES and lo <= DOC_ROLES.index(ws) <= hi:
        return
    st = project.state
    f = st.one(st.header, "WorkflowState")
    where = (f.path, f.value_span) if f is not None else fr.where("RerunThrough")
    yield report(
        where,
        f"Recovery frame {fr.label}: WorkflowState is {ws}, but the active DOCUMENTATION rerun must stay between "
        f"{owner} and {rt} until its boundary returns to ResumeAt.",
        stale_frame_fix(project),
    )


standards_lint_rules = module_rules(globals())
