"""Handoff Rules, Failure Handoffs, Checkpoint Handoffs, Expedited Promotion,
Change completion policy and the Documentation Cycle Contract's routing: the
``## Handoff`` section of ``.standards/STATE.md`` read against
``WorkflowState``, ``CycleMode``, ``CompletionPolicy`` and the recovery stack.

Every rule reads values that occur exactly once; a missing, repeated or
unknown value is left to the STATE.md structure rules and keeps these rules
silent.  While STATE.md, MODE.md or CONTEXT.md hold merge-conflict markers
the state is not read at all: which side is the state is the user's decision.
"""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.protocol import (
    FAILURE_TARGETS,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    STATE_OWNERS,
    TERMINAL_STATES,
    WORKFLOW_STATES,
)
from standards_lint.rule import module_rules, replace, report, rule
from standards_lint.fixes.handoff import forward_fix
from standards_lint.model.handoff import handoff_view

# Documentation Cycle Contract: the included states, and those that are a
# role's state (AWAITING_USER_SIGNOFF is included but owned by no role).
DOC_INCLUDED = frozenset(ROUTE_DOCUMENTATION)
DOC_ROLE_STATES = DOC_INCLUDED - {"AWAITING_USER_SIGNOFF"}
# Failure types whose owner (Developer, Tester) the documentation cycle omits.
DOC_OMITTED_FAILURE_TYPES = ("IMPLEMENTATION", "VERIFICATION")
DOC_ROUTE_TEXT = " -> ".join(ROUTE_DOCUMENTATION)

CORRECTIVE_KINDS = ("FAILURE", "USER_REWORK")
CHECKPOINT_EXCHANGES = (("DEVELOPING", "TESTING"), ("TESTING", "DEVELOPING"))
# Change completion policy: the two state-changing routes.
COMPLETION_CHANGE_ROUTES = {
    ("DOCUMENTING", "REVIEWING_IMPLEMENTATION"): "selection of IMPLEMENTATION_REVIEWED",
    ("AWAITING_USER_SIGNOFF", "DOCUMENTING"): "withdrawal to FULL_DELIVERABLE",
}
_INCREMENT_RE = re.compile(r"\bIncrement\s+\d+\b")

STATE = ".standards/STATE.md"


# -- reading the state -----------------------------------------------------------


def _at(f, fallback=None):
    """Where to report: a field's value span, else the fallback node."""
    if f is not None:
        return (f.path, f.value_span)
    if fallback is not None:
        return fallback
    return STATE


def _project_mode(project) -> Optional[str]:
    doc = project.mode_doc
    if doc is None or doc.conflicts:
        return None
    found = [f for f in doc.fields if f.name == "ProjectMode"]
    if len(found) != 1:
        return None
    return found[0].value.strip()


def _an(word: str) -> str:
    return ("An " if word[:1] in "AEIOU" else "A ") + word


def _targets_text(ft: str) -> str:
    return " or ".join(FAILURE_TARGETS[ft])


# -- Failure Handoffs -----------------------------------------------------------
@rule(
    code="SL401",
    name="corrective-handoff-failure-type",
    section="Failure Handoffs",
    owner="state",
    summary="A FAILURE or USER_REWORK handoff names the FailureType it routes.",
    explanation="""
**What it does.** Reports a `Handoff.Kind` of `FAILURE` or `USER_REWORK` whose
`Handoff.FailureType` is `NONE`.

**Why.** Handoff Rules: "A failure handoff also identifies `FailureType`".
Rework an active cycle: "identify the earliest owned artifact or decision
invalidated, record `Handoff.Kind: USER_REWORK` with its `FailureType`, and
route to that owner." Without it nobody can tell which owner the corrective
work belongs to.

**Fix safety.** Sometimes (unsafe): when the last recovery frame is the one this handoff pushed (same `From`, `Owner` equal to `WorkflowState`), its `FailureType` is copied. When no cycle has started (see SL306), `Kind` becomes `INITIAL`. Otherwise only the discoverer (or the user, for rework) knows whose work is defective.
""",
    bad_example="`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `NONE` `Reason`: `Broken test.`",
    good_example="`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `IMPLEMENTATION` `Reason`: `Search crashes on empty input.`",
    fix="sometimes",
    help="Name the FailureType of the defect (or of the earliest invalidated work) in `Handoff.FailureType`.",
    no_fix_reason="Only the discoverer (or the user, for rework) knows whose work is defective, unless the frame it pushed records it.",
)
def corrective_handoff_failure_type(project):
    v = handoff_view(project)
    if v is None or v.kind not in CORRECTIVE_KINDS or v.ft != "NONE":
        return
    if v.kind == "FAILURE":
        msg = "A FAILURE handoff must name the FailureType of the defect it routes, not NONE."
    else:
        msg = ("A USER_REWORK handoff must name the FailureType of the earliest work the change "
               "invalidates, not NONE.")
    fix = None
    frames = v.frames
    # The frame this handoff pushed records the failure type it routed.
    if frames and v.ft_f is not None:
        last = frames[-1]
        ft = v.value(last, "FailureType")
        if (v.value(last, "From") == v.frm and v.value(last, "Owner") == v.ws and ft in FAILURE_TARGETS
                and v.ws in FAILURE_TARGETS[ft]):
            fix = replace(v.ft_f.path, v.ft_f.value_span, ft, safe=False,
                          description=f"Name the FailureType the active frame records, {ft}")
    if fix is None:
        from standards_lint.fixes.handoff import unstarted_kind_fix

        fix = unstarted_kind_fix(project)  # no cycle yet: no failure was routed
    yield report(_at(v.ft_f), msg, fix)


@rule(
    code="SL402",
    name="corrective-handoff-target",
    section="Failure Handoffs",
    owner="state",
    summary="A FAILURE or USER_REWORK handoff lands in the state that owns its FailureType.",
    explanation="""
**What it does.** For a `FAILURE` or `USER_REWORK` handoff, checks that
`WorkflowState` is the owning state of `Handoff.FailureType`: `SCOPING` ->
`SCOPING`, `ARCHITECTURE` -> `ARCHITECTING`, `PROJECT_CONTEXT` -> `AUDITING`,
`IMPLEMENTATION` -> `DEVELOPING`, `VERIFICATION` -> `TESTING`, `DOCUMENTATION`
-> `DOCUMENTING`, `REVIEW` -> `REVIEWING_IMPLEMENTATION` or `REVIEWING_FINAL`,
`SYNCHRONIZATION` -> `SYNCHRONIZING`.

**Why.** Failure Handoffs: "A failure handoff routes a defect to its owning
state" and Failure Types: "The discoverer of a failure does not automatically
own the fix. Route it to the owner of the defective artifact or decision."
User rework also routes "to that owner". The handoff is the latest transition,
so the current state is where it went.

**Fix safety.** Sometimes (unsafe): when two records of the handoff agree on
where it went, `WorkflowState` is set there: the frame it pushed (same `From`
and FailureType, an Owner owning that type, `RerunThrough`: `NONE`) names its
Owner; with no frame and an inactive stack, a failure whose type
`Handoff.From` owns stayed at `From` ("Same-state correction creates no
frame"). From a terminal state the edit spans `CycleMode` unchanged, so
SL204's reset is not applied with it. When instead the frame the handoff
pushed (same `From`, its Owner the current state) and the state agree on
another type, or the state is still `Handoff.From` with an empty stack (a
same-state correction) and owns exactly one type, `Handoff.FailureType`
becomes that type. Otherwise no fix.
""",
    fix="sometimes",
    bad_example="`WorkflowState`: `SCOPING` ... `Kind`: `FAILURE` `From`: `SCOPING` `FailureType`: `ARCHITECTURE`",
    good_example="`WorkflowState`: `ARCHITECTING` ... `Kind`: `FAILURE` `From`: `SCOPING` `FailureType`: `ARCHITECTURE`",
    help="Move `WorkflowState` to the owner of the FailureType, or correct the FailureType.",
    no_fix_reason="Unless the pushed frame or a same-state failure names the target, either the state or the failure type is wrong, and only the routing role knows which.",
)
def corrective_handoff_target(project):
    v = handoff_view(project)
    if v is None or v.kind not in CORRECTIVE_KINDS:
        return
    ft, ws = v.ft, v.ws
    if ft not in FAILURE_TARGETS or ws not in WORKFLOW_STATES or ws in FAILURE_TARGETS[ft]:
        return
    what = "failure" if v.kind == "FAILURE" else "rework"
    from standards_lint.fixes.recovery import pushed_state_fix, routed_type_fix

    yield report(
        _at(v.ws_f),
        f"{_an(ft)} {what} belongs to {_targets_text(ft)}, but the {v.kind} handoff left "
        f"WorkflowState at {ws}.",
        pushed_state_fix(project) or routed_type_fix(project),
    )


@rule(
    code="SL403",
    name="corrective-handoff-recovery-frame",
    section="Recovery Mechanics",
    owner="state",
    summary="A FAILURE or USER_REWORK that changes state pushes a matching recovery frame.",
    explanation="""
**What it does.** When `Handoff.Kind` is `FAILURE` or `USER_REWORK` and
`Handoff.From` differs from `WorkflowState`, checks that the last recovery
frame records `From` equal to `Handoff.From` and `Owner` equal to
`WorkflowState`.

**Why.** Recovery Mechanics: "For `FAILURE` or `USER_REWORK` moving to a
different state, push a frame with `From` = interrupted state, `Owner` =
corrective target, ... `ResumeAt` = interrupted state". The newest frame is
the last one ("The last frame is active"). Without it the work cannot return
to the interrupted state.

**Fix safety.** Sometimes (unsafe): with an empty stack and a consistent handoff (its target owns its FailureType, both states on the cycle's route), the fix pushes `### Frame 1` as Recovery Mechanics spells it out (`From` and `ResumeAt` the handoff's `From`, `Owner` the `WorkflowState`, the handoff's `FailureType` and `Reason`, `RerunThrough`: `NONE`) and sets `Recovery.Active` to `true`. When the pushed frame or a same-state failure names where the handoff went (see SL402), `WorkflowState` is set there instead. An existing stack needs the routing role's judgement otherwise.
""",
    bad_example="`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `ARCHITECTURE` ... with `Recovery` `Active`: `false`",
    good_example="""`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `ARCHITECTURE` ...
### Frame 1
`From`: `TESTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE` ...""",
    fix="sometimes",
    help="Push the recovery frame the handoff requires (`From` = interrupted state, `Owner` = corrective target, its FailureType and Reason, `ResumeAt` = `From`, `RerunThrough`: `NONE`).",
    no_fix_reason="An existing stack must be reconciled by the routing role; a frame is pushed only when the stack is empty.",
)
def corrective_handoff_recovery_frame(project):
    v = handoff_view(project)
    if v is None or v.kind not in CORRECTIVE_KINDS:
        return
    frm, ws = v.frm, v.ws
    if frm not in WORKFLOW_STATES or ws not in WORKFLOW_STATES or frm == ws:
        return
    frames = v.frames
    if frames:
        last = frames[-1]
        if v.value(last, "From") == frm and v.value(last, "Owner") == ws:
            return
        where = last.heading if last.heading is not None else last
        found = f"the last frame ({last.title}) does not"
    else:
        where = _at(v.recovery_active_f, _at(v.kind_f))
        found = "there is no recovery frame"
    yield report(
        where,
        f"The {v.kind} handoff moved from {frm} to {ws}, so the last recovery frame must record "
        f"`From`: `{frm}` and `Owner`: `{ws}`; {found}.",
        _corrective_frame_fix(project, v),
    )


def _corrective_frame_fix(project, v):
    """The state the handoff's own records name (recovery.pushed_state:
    the frame it pushed, or a same-state failure), else, with an empty
    stack, the frame Recovery Mechanics spells out."""
    from standards_lint.fixes.recovery import pushed_state_fix

    return pushed_state_fix(project) or (None if v.frames else _push_frame_fix(project, v))


def _push_frame_fix(project, v):
    """Push the frame Recovery Mechanics spells out for a corrective handoff
    to a different state: `From` = `ResumeAt` = the interrupted state,
    `Owner` = the corrective target, the handoff's FailureType and Reason,
    `RerunThrough: NONE`; Recovery becomes active.  Only when the handoff
    itself is consistent (its target owns its FailureType, both states are
    on the cycle's route), so the frame is a valid one."""
    from standards_lint.findings import Edit, Fix
    from standards_lint.model.recovery import DOC_UNROUTABLE, in_route

    st = v.st
    frm, ws, ft = v.frm, v.ws, v.ft
    reason = v.value(v.handoff, "Reason")
    if ft not in FAILURE_TARGETS or ws not in FAILURE_TARGETS[ft] or not reason or "`" in reason:
        return None
    if not in_route(project, frm) or not in_route(project, ws, role=True) or frm == ws:
        return None
    mode = st.cycle_mode
    if mode == "DOCUMENTATION" and (ft in DOC_UNROUTABLE or (ft == "REVIEW" and ws != "REVIEWING_FINAL")):
        return None
    rec = st.recovery
    if rec is None or list(rec.subsections):
        return None
    active = v.recovery_active_f
    if active is None or active.value not in ("true", "false"):
        return None
    from standards_lint.fixes.recovery import section_end

    at = section_end(st, rec)
    if at is None:
        return None
    text = st.doc.text
    nl = "\r\n" if "\r\n" in text else "\n"
    lead = "" if text[:at].endswith(nl + nl) else (nl if text[:at].endswith(nl) else nl + nl)
    frame = (f"{lead}### Frame 1{nl}{nl}`From`: `{frm}` `Owner`: `{ws}` `FailureType`: `{ft}`{nl}"
             f"`Reason`: `{reason}` `ResumeAt`: `{frm}` `RerunThrough`: `NONE`{nl}{nl}")
    if at == len(text):
        frame = frame[: -len(nl)]
    edits = [Edit(st.path, at, at, frame)]
    if active.value != "true":
        edits.insert(0, Edit(st.path, active.value_span.start, active.value_span.end, "true"))
    return Fix(tuple(edits), "unsafe", f"Push recovery frame 1 ({frm} -> {ws}, {ft})")


# -- Documentation Cycle Contract ---------------------------------------------------
@rule(
    code="SL404",
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
    if ft in DOC_OMITTED_FAILURE_TYPES:
        owner = STATE_OWNERS[FAILURE_TARGETS[ft][0]]
        yield report(
            _at(v.ft_f),
            f"A DOCUMENTATION cycle omits the {owner}, so it cannot route {ft} work; keep the cycle "
            f"and record the required user decision in Active Work.BlockedOn.",
        )
    elif ft == "REVIEW" and v.ws is not None and v.ws != "REVIEWING_FINAL":
        yield report(
            _at(v.ws_f),
            f"In a DOCUMENTATION cycle a REVIEW failure or rework goes to REVIEWING_FINAL, not {v.ws}.",
        )


@rule(
    code="SL405",
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
    f = v.ft_f
    if f is None or v.ft == "NONE":
        return
    yield report(
        _at(f),
        f"A DOCUMENTATION {v.kind} handoff records FailureType NONE, not `{v.ft}`.",
        fix=replace(f.path, f.value_span, "NONE", safe=False, description="Set Handoff.FailureType to NONE"),
    )


@rule(
    code="SL407",
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
            _at(f),
            f"A DOCUMENTATION INITIAL handoff records From NONE, not `{frm}`; a cycle started from a "
            f"terminal state records NEW_CYCLE.",
            fix=replace(f.path, f.value_span, "NONE", safe=False, description="Set Handoff.From to NONE"),
        )
    elif v.kind == "NEW_CYCLE" and frm not in ("SIGNED_OFF", "CANCELLED"):
        yield report(
            _at(f),
            f"A DOCUMENTATION NEW_CYCLE handoff comes From SIGNED_OFF or CANCELLED, not `{frm}`; "
            f"an active cycle is never replaced in place.",
        )


@rule(
    code="SL408",
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
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind not in ("FAILURE", "USER_REWORK", "RESUME"):
        return
    frm = v.frm
    if frm is None or frm in DOC_INCLUDED:
        return
    yield report(
        _at(v.from_f),
        f"A DOCUMENTATION {v.kind} handoff cannot come from `{frm}`, which is not a state of the "
        f"documentation cycle.",
    )


@rule(
    code="SL409",
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
    v = handoff_view(project)
    if v is None or v.cm != "DOCUMENTATION" or v.kind != "RESUME":
        return
    frm = v.frm
    if frm is None or frm in DOC_ROLE_STATES:
        return
    yield report(
        _at(v.from_f),
        f"A DOCUMENTATION RESUME comes from the included role that completed its recovery "
        f"assignment; `{frm}` is no such role's state.",
    )


@rule(
    code="SL410",
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
        _at(v.from_f),
        f"A DOCUMENTATION FORWARD handoff follows {DOC_ROUTE_TEXT} one step at a time; "
        f"{frm} -> {ws} skips or leaves that route.",
        forward_fix(project),
    )


# -- Checkpoint Handoffs ------------------------------------------------------------
@rule(
    code="SL411",
    name="checkpoint-exchange",
    section="Checkpoint Handoffs",
    owner="state",
    summary="CHECKPOINT is only a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE and no recovery.",
    explanation="""
**What it does.** Reports a `CHECKPOINT` handoff unless `CycleMode` is
`STANDARD`, it goes `DEVELOPING -> TESTING` or `TESTING -> DEVELOPING`,
`FailureType` is `NONE`, and `Recovery.Active` is not `true` (frames left
under `Active: false` are reported by the recovery rules).

**Why.** Checkpoint Handoffs: "With effective cadence `INCREMENTAL` and no
active recovery, `CHECKPOINT` permits only `DEVELOPING -> TESTING` and
`TESTING -> DEVELOPING`. Set `FailureType: NONE`." and Verification Cadence:
it "controls when Developer hands implemented outcomes to Tester in a
`STANDARD` cycle". During recovery, "use the saved `FAILURE`, `FORWARD`, and
`RESUME` route rather than ordinary checkpoint exchanges".

**Fix safety.** No fix.
""",
    bad_example="`WorkflowState`: `SCOPING` ... `Kind`: `CHECKPOINT` `From`: `DEVELOPING`",
    good_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE`",
    help="Use CHECKPOINT only for a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE and no active recovery; otherwise use FORWARD or FAILURE.",
    no_fix_reason="Which kind the transition was is a fact of the last handoff.",
)
def checkpoint_exchange(project):
    v = handoff_view(project)
    if v is None or v.kind != "CHECKPOINT":
        return
    problems = []
    if v.cm is not None and v.cm != "STANDARD":
        problems.append(f"CycleMode is {v.cm}")
    if v.frm is not None and v.ws is not None and (v.frm, v.ws) not in CHECKPOINT_EXCHANGES:
        problems.append(f"it goes {v.frm} -> {v.ws}")
    if v.ft is not None and v.ft != "NONE":
        problems.append(f"FailureType is {v.ft}")
    if v.recovery_declared_active():
        problems.append("recovery is active")
    if problems:
        yield report(
            _at(v.kind_f),
            "A CHECKPOINT is only a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE "
            "and no active recovery, but " + ", ".join(problems) + ".",
        )


@rule(
    code="SL412",
    name="checkpoint-reason-increment",
    section="Checkpoint Handoffs",
    owner="state",
    summary="A CHECKPOINT Reason names exactly one `Increment N`.",
    explanation="""
**What it does.** For a valid `CHECKPOINT` exchange (`DEVELOPING <-> TESTING`
in a `STANDARD` cycle), checks that `Handoff.Reason` mentions exactly one
`Increment N`.

**Why.** Checkpoint Handoffs: "Both checkpoint directions identify the
increment concisely in `Handoff.Reason`" and "Every checkpoint requires a
defined increment." One handoff assigns or returns one increment.

**Fix safety.** No fix: the increment comes from Developer's plan.
""",
    bad_example="`Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`: `Increment 1 and Increment 2 ready.`",
    good_example="`Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`: `Increment 1 ready.`",
    help="Name exactly one `Increment N` of the plan in the CHECKPOINT reason.",
    no_fix_reason="The increment comes from Developer's plan.",
)
def checkpoint_reason_increment(project):
    v = handoff_view(project)
    if v is None or v.kind != "CHECKPOINT" or v.cm != "STANDARD":
        return
    if (v.frm, v.ws) not in CHECKPOINT_EXCHANGES or v.ft != "NONE" or v.recovery_in_use() is not False:
        return
    f = v.reason_f
    if f is None:
        return
    n = len(_INCREMENT_RE.findall(f.value))
    if n == 1:
        return
    yield report(
        _at(f),
        f"A CHECKPOINT Reason identifies exactly one `Increment N`; this one names {n or 'none'}.",
    )


# -- Expedited Promotion --------------------------------------------------------------
@rule(
    code="SL413",
    name="promote-reason",
    section="Expedited Promotion",
    owner="state",
    summary="A PROMOTE handoff persists Active Work.PromotionReason.",
    explanation="""
**What it does.** Reports a `PROMOTE` handoff while `Active Work.PromotionReason`
is `NONE`.

**Why.** Expedited Promotion: "record a concise reason identifying which
omitted standard guarantee is now required. Persist the same reason in
`Active Work.PromotionReason`." and Workflow State Reference:
"`PromotionReason`: durable reason an expedited cycle was promoted ...
Preserve it for the remainder of the cycle".

**Fix safety.** No fix: the reason is the promoting role's judgement.
""",
    bad_example="`PromotionReason`: `NONE` ... `Kind`: `PROMOTE` `From`: `DEVELOPING`",
    good_example="`PromotionReason`: `Needs Tester-owned verification of the migration.` ... `Kind`: `PROMOTE`",
    help="Record the omitted standard guarantee that forced promotion in `Active Work.PromotionReason`.",
    no_fix_reason="The reason is the promoting role's judgement.",
)
def promote_reason(project):
    v = handoff_view(project)
    if v is None or v.kind != "PROMOTE":
        return
    f = v.aw_f("PromotionReason")
    if f is None or f.value.strip() not in ("NONE", ""):
        return
    yield report(
        _at(f),
        "A PROMOTE handoff persists the omitted standard guarantee that forced promotion in "
        "Active Work.PromotionReason, which is NONE.",
    )


@rule(
    code="SL414",
    name="promote-target",
    section="Expedited Promotion",
    owner="state",
    summary="A PROMOTE handoff leaves CycleMode STANDARD and WorkflowState AUDITING.",
    explanation="""
**What it does.** Reports a `PROMOTE` handoff unless `CycleMode` is
`STANDARD` and `WorkflowState` is `AUDITING`.

**Why.** Expedited Promotion: "Set `CycleMode: STANDARD`, `WorkflowState:
AUDITING`, and `Active Work.CompletionPolicy: FULL_DELIVERABLE`. Set
`Handoff.Kind: PROMOTE`" and "the standard brownfield topology restarts at
`AUDITING`". A later transition replaces the `PROMOTE` handoff, so while it is
the latest handoff the cycle is at `AUDITING`. Promotion exists only for
expedited cycles ("A documentation cycle has one fixed completion contract
and no promotion").

**Fix safety.** No fix: a mode or state other than the promoted one usually
means the handoff kind is wrong.
""",
    bad_example="`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD` ... `Kind`: `PROMOTE`",
    good_example="`WorkflowState`: `AUDITING` `CycleMode`: `STANDARD` ... `Kind`: `PROMOTE`",
    help="Leave a PROMOTE handoff at `CycleMode`: `STANDARD` and `WorkflowState`: `AUDITING`, or correct the handoff kind.",
    no_fix_reason="A mode or state other than the promoted one usually means the handoff kind is wrong.",
)
def promote_target(project):
    v = handoff_view(project)
    if v is None or v.kind != "PROMOTE":
        return
    cm, ws = v.cm, v.ws
    if cm is None or ws is None or (cm == "STANDARD" and ws == "AUDITING"):
        return
    where = v.ws_f if ws != "AUDITING" else v.cm_f
    yield report(
        _at(where),
        f"A PROMOTE handoff sets CycleMode STANDARD and WorkflowState AUDITING, but they are "
        f"{cm} and {ws}.",
    )


# -- Change completion policy -------------------------------------------------------
@rule(
    code="SL415",
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
        _at(v.kind_f),
        f"COMPLETION_CHANGE records only an active STANDARD cycle's DOCUMENTING -> "
        f"REVIEWING_IMPLEMENTATION (selection) or AWAITING_USER_SIGNOFF -> DOCUMENTING (withdrawal); "
        f"found {cm} {frm} -> {ws}.",
    )


@rule(
    code="SL416",
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
        where = _at(v.recovery_active_f, st.recovery.heading if st.recovery is not None else None)
    else:
        where = _at(v.field(st.obligations, "Active"), st.obligations.heading)
    yield report(
        where,
        f"A COMPLETION_CHANGE needs inactive recovery with an empty stack and no outstanding "
        f"obligations, but {what}.",
        _flags_fix(project, v, rec, obl),
    )


def _flags_fix(project, v, rec, obl):
    """When the only thing "active" is an `Active: true` flag over an empty
    section (SL501/SL502), that flag's fix clears the finding too."""
    from standards_lint.fixes.recovery import clear_flag_fix

    fixes = []
    if rec:
        fixes.append(clear_flag_fix(project))
    if obl:
        fixes.append(clear_flag_fix(project, obligations=True))
    if not fixes or None in fixes:
        return None
    if len(fixes) == 1:
        return fixes[0]
    from standards_lint.findings import Fix

    return Fix(fixes[0].edits + fixes[1].edits, "safe", "Set Recovery.Active and Outstanding Obligations.Active to `false`.")


@rule(
    code="SL417",
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
    if f is None or f.value.strip() not in ("NONE", ""):
        return
    yield report(
        _at(f),
        "A COMPLETION_CHANGE handoff needs a Reason identifying the old and new completion policies.",
    )


@rule(
    code="SL418",
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
    f = v.ft_f
    if f is None or v.ft == "NONE":
        return
    yield report(
        _at(f),
        f"A COMPLETION_CHANGE handoff records FailureType NONE, not `{v.ft}`.",
        fix=replace(f.path, f.value_span, "NONE", safe=False, description="Set Handoff.FailureType to NONE"),
    )


# -- Forward Transitions (beyond the checker) -------------------------------------------
def _pairs(route):
    return frozenset(zip(route, route[1:]))


_GREENFIELD_STEPS = _pairs(ROUTE_STANDARD_GREENFIELD)
_BROWNFIELD_STEPS = _pairs(ROUTE_STANDARD_BROWNFIELD)
_EXPEDITED_STEPS = _pairs(ROUTE_EXPEDITED)
_FULL_TAIL = ("DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING")


@rule(
    code="SL420",
    name="forward-route",
    section="Forward Transitions",
    owner="state",
    summary="A STANDARD or EXPEDITED FORWARD handoff takes exactly one step of its topology's route.",
    explanation="""
**What it does.** For a `FORWARD` handoff in a `STANDARD` or `EXPEDITED`
cycle, checks that `Handoff.From -> WorkflowState` is one step of the cycle's
normal route: **Standard Greenfield** (`SCOPING -> ARCHITECTING -> AUDITING ->
DEVELOPING -> ...`) in a `GREENFIELD` project, **Standard Brownfield**
(`AUDITING -> SCOPING -> ARCHITECTING -> DEVELOPING -> ...`) in a `BROWNFIELD`
one, the tail cut after `REVIEWING_IMPLEMENTATION` under
`IMPLEMENTATION_REVIEWED`, and **Expedited Brownfield** (`DEVELOPING ->
REVIEWING_IMPLEMENTATION -> AWAITING_USER_SIGNOFF`). Only `FORWARD` is
checked: `RESUME`, `FAILURE`, `USER_REWORK` and the other kinds explain their
own jumps.

To stay clear of the rules that already judge an edge, it leaves alone
handoffs into `AWAITING_USER_SIGNOFF` (SL354), out of
`REVIEWING_IMPLEMENTATION` (SL355), into a state outside the expedited
topology (SL301), into the omitted tail of `IMPLEMENTATION_REVIEWED` without
recovery (SL302), and into terminal states. While recovery holds frames, a step
of either standard route is accepted (a greenfield cycle becomes `BROWNFIELD`
during development but keeps its route), and under `IMPLEMENTATION_REVIEWED`
corrective reruns may step through the full tail.

**Why.** Handoff Rules: "Forward handoff requires the current completion gate
to pass" and Forward Transitions: "The following normal forward routes use the
gates defined in **Handoff Rules**." Workflow State Reference > Handoff: "Use
`RESUME` whenever a recovery frame returns to `ResumeAt`, and for any other
recovery-directed transition that is not the normal forward handoff." A
`FORWARD` that skips, repeats or reverses a phase claims gates nobody passed.

**Fix safety.** Sometimes (unsafe), outside recovery: when `Handoff.From` is on the route and `WorkflowState` is off it or before `From` (a FORWARD never goes back), `WorkflowState` becomes the forward step from `From`; when `WorkflowState` is on the route and `From` is no workflow state, `From` becomes the state whose forward step it is. Either only when every passed gate's record is `COMPLETE` for this cycle, never into `AWAITING_USER_SIGNOFF` or a terminal state (the user's decisions). A skip along the route is ambiguous: no fix.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD` ... `Kind`: `FORWARD` `From`: `DEVELOPING`",
    good_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Kind`: `FORWARD` `From`: `DEVELOPING`",
    help="Take exactly one step of the route, or use the handoff kind that matches the transition.",
    no_fix_reason="Unless the route and the gates' records determine it, the state, the source or the kind may be the wrong one.",
)
def forward_route(project):
    v = handoff_view(project)
    if v is None or v.kind != "FORWARD" or v.cm not in ("STANDARD", "EXPEDITED"):
        return
    frm, ws = v.frm, v.ws
    if frm not in WORKFLOW_STATES or ws not in WORKFLOW_STATES:
        return
    if ws in TERMINAL_STATES or ws == "AWAITING_USER_SIGNOFF" or frm == "REVIEWING_IMPLEMENTATION":
        return
    recovering = v.recovery_in_use()
    if recovering is None:
        return
    if v.cm == "EXPEDITED":
        if ws not in ROUTE_EXPEDITED:
            return
        steps, route = _EXPEDITED_STEPS, "Expedited Brownfield"
    else:
        policy = v.aw("CompletionPolicy")
        if policy == "IMPLEMENTATION_REVIEWED" and ws in _FULL_TAIL and not recovering:
            return
        mode = _project_mode(project)
        if recovering or mode not in ("GREENFIELD", "BROWNFIELD"):
            steps, route = _GREENFIELD_STEPS | _BROWNFIELD_STEPS, "Standard Greenfield or Brownfield"
        elif mode == "GREENFIELD":
            steps, route = _GREENFIELD_STEPS, "Standard Greenfield"
        else:
            steps, route = _BROWNFIELD_STEPS, "Standard Brownfield"
    if (frm, ws) in steps:
        return
    nxt = sorted(b for a, b in steps if a == frm)
    expect = f"the next state after {frm} is {' or '.join(nxt)}" if nxt else f"{frm} has no forward step there"
    yield report(
        _at(v.from_f),
        f"A FORWARD handoff follows the {route} route one step at a time, but {frm} -> {ws} "
        f"skips, repeats or reverses it ({expect}); a recovery-directed jump records RESUME.",
        forward_fix(project),
    )


_NON_FAILURE_KINDS = ("INITIAL", "NEW_CYCLE", "FORWARD", "RESUME", "PROMOTE", "SIGNOFF", "CANCEL")


@rule(
    code="SL419",
    name="non-failure-handoff-failure-type",
    section="Workflow State Reference",
    owner="state",
    summary="Only FAILURE and USER_REWORK handoffs carry a FailureType; the other kinds record NONE.",
    explanation="""
**What it does.** Reports an `INITIAL`, `NEW_CYCLE`, `FORWARD`, `RESUME`,
`PROMOTE`, `SIGNOFF` or `CANCEL` handoff whose `FailureType` is a failure
type rather than `NONE`. (`DOCUMENTATION` entry, forward and resume handoffs
are SL405, `CHECKPOINT` is SL411 and `COMPLETION_CHANGE` is SL418; an unknown
value is SL222.)

**Why.** Handoff Rules: "A failure handoff also identifies `FailureType`" and
Workflow State Reference > Handoff: "Use `NONE` for inapplicable fields." The
protocol spells it out for each of these kinds: Start a cycle records
"`Kind: INITIAL` with `From: NONE` and `FailureType: NONE`" or "`Kind:
NEW_CYCLE` ... `FailureType: NONE`"; Expedited Promotion sets "`From` to the
interrupted state, `FailureType: NONE`"; Sign off records "`Handoff.Kind:
SIGNOFF`, `From: AWAITING_USER_SIGNOFF`, and `FailureType: NONE`"; Cancel
records "`Handoff.Kind: CANCEL`, set `From` to the interrupted state,
`FailureType: NONE`". A leftover failure type makes a normal transition read
like a defect route.

**Fix safety.** Unsafe fix: sets `FailureType` to `NONE`; if a defect was
really being routed, the handoff kind is what needs to change.
""",
    fix="unsafe",
    beyond_checker=True,
    bad_example="`Kind`: `RESUME` `From`: `REVIEWING_IMPLEMENTATION` `FailureType`: `SYNCHRONIZATION`",
    good_example="`Kind`: `RESUME` `From`: `REVIEWING_IMPLEMENTATION` `FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to `NONE`, or use a FAILURE/USER_REWORK handoff if a defect was routed.",
)
def non_failure_handoff_failure_type(project):
    v = handoff_view(project)
    if v is None or v.kind not in _NON_FAILURE_KINDS:
        return
    if v.cm in (None, "DOCUMENTATION") and v.kind in ("INITIAL", "NEW_CYCLE", "FORWARD", "RESUME"):
        return  # SL405 (or an unknown mode)
    f = v.ft_f
    if f is None or v.ft not in FAILURE_TARGETS:
        return
    yield report(
        _at(f),
        f"{_an(v.kind)} handoff routes no defect, so its FailureType is NONE, not {v.ft}; only FAILURE and "
        f"USER_REWORK name a failure type.",
        fix=replace(f.path, f.value_span, "NONE", safe=False, description="Set Handoff.FailureType to NONE"),
    )


@rule(
    code="SL421",
    name="cycle-entry-origin",
    section="Workflow State Reference",
    owner="state",
    summary="An INITIAL handoff comes From NONE; a NEW_CYCLE handoff From SIGNED_OFF or CANCELLED.",
    explanation="""
**What it does.** Outside `DOCUMENTATION` cycles (SL407 covers those),
reports an `INITIAL` handoff whose `From` is a workflow state instead of
`NONE`, and a `NEW_CYCLE` handoff whose `From` is `NONE` or a non-terminal
state. (A `From` that is no workflow state at all is SL221.)

**Why.** Start a cycle: "for the first cycle, keep `Kind: INITIAL` with `From:
NONE` and `FailureType: NONE`; from a terminal state, record `Kind:
NEW_CYCLE`, `From` set to that state". A cycle starts only "from the installed
state ... or from `SIGNED_OFF` or retained `CANCELLED`; a finished cycle is
never reopened." Installation initializes "`Handoff.Kind: INITIAL`".

**Fix safety.** Unsafe fix for `INITIAL` (sets `From` to `NONE`); no fix for
`NEW_CYCLE`, whose terminal source only the history knows.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`CycleMode`: `STANDARD` ... `Kind`: `NEW_CYCLE` `From`: `ARCHITECTING`",
    good_example="`CycleMode`: `STANDARD` ... `Kind`: `NEW_CYCLE` `From`: `SIGNED_OFF`",
    help="Set `Handoff.From` to `NONE` (INITIAL) or the previous cycle's terminal state (NEW_CYCLE).",
)
def cycle_entry_origin(project):
    v = handoff_view(project)
    if v is None or v.cm not in ("UNSET", "STANDARD", "EXPEDITED"):
        return
    f, frm = v.from_f, v.frm
    if f is None:
        return
    if v.kind == "INITIAL" and frm in WORKFLOW_STATES:
        yield report(
            _at(f),
            f"An INITIAL handoff records From NONE, not {frm}; a cycle started from a terminal state "
            f"records NEW_CYCLE.",
            fix=replace(f.path, f.value_span, "NONE", safe=False, description="Set Handoff.From to NONE"),
        )
    elif v.kind == "NEW_CYCLE" and (frm == "NONE" or (frm in WORKFLOW_STATES and frm not in TERMINAL_STATES)):
        yield report(
            _at(f),
            f"A NEW_CYCLE handoff comes From SIGNED_OFF or CANCELLED, not {frm}; an unfinished cycle "
            f"is never replaced in place.",
        )


standards_lint_rules = module_rules(globals())
