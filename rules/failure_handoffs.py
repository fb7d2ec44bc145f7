"""Failure handoffs (PROTOCOL.md, Failure Handoffs; Recovery Mechanics): a
corrective handoff (`FAILURE`, `USER_REWORK`) names a failure type, goes
to an owner of that type, and pushes the recovery frame that routes it."""

from __future__ import annotations

from standards_lint.model.handoff import handoff_view, value_at, with_article
from standards_lint.model.recovery import CORRECTIVE_KINDS, DOC_UNROUTABLE, in_route
from standards_lint.syntax.protocol import FAILURE_TARGETS, WORKFLOW_STATES
from standards_lint.engine.rule import module_rules, replace, report, rule
from standards_lint.fixes.recovery import pushed_state_fix, routed_type_fix, section_end
from standards_lint.fixes.handoff import unstarted_kind_fix


def _targets_text(ft: str) -> str:
    return " or ".join(FAILURE_TARGETS[ft])


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
        if v.records_move(last) and ft in FAILURE_TARGETS and v.ws in FAILURE_TARGETS[ft]:
            fix = replace(v.ft_f.path, v.ft_f.value_span, ft, safe=False,
                          description=f"Name the FailureType the active frame records, {ft}")
    if fix is None:
        fix = unstarted_kind_fix(project)  # no cycle yet: no failure was routed
    yield report(value_at(v.ft_f), msg, fix)


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

    yield report(
        value_at(v.ws_f),
        f"{with_article(ft)} {what} belongs to {_targets_text(ft)}, but the {v.kind} handoff left "
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
        if v.records_move(last):
            return
        where = last.heading if last.heading is not None else last
        found = f"the last frame ({last.title}) does not"
    else:
        where = value_at(v.recovery_active_f, value_at(v.kind_f))
        found = "there is no recovery frame"
    yield report(
        where,
        f"The {v.kind} handoff moved from {frm} to {ws}, so the last recovery frame must record "
        f"`From`: `{frm}` and `Owner`: `{ws}`; {found}.",
        _corrective_frame_fix(project, v),
    )


def _corrective_frame_fix(project, v):
    """The state the handoff's own records name (model.recovery.pushed_state:
    the frame it pushed, or a same-state failure), else, with an empty
    stack, the frame Recovery Mechanics spells out."""
    return pushed_state_fix(project) or (None if v.frames else _push_frame_fix(project, v))


def _push_frame_fix(project, v):
    """Push the frame Recovery Mechanics spells out for a corrective handoff
    to a different state: `From` = `ResumeAt` = the interrupted state,
    `Owner` = the corrective target, the handoff's FailureType and Reason,
    `RerunThrough: NONE`; Recovery becomes active.  Only when the handoff
    itself is consistent (its target owns its FailureType, both states are
    on the cycle's route), so the frame is a valid one."""
    from standards_lint.engine.findings import Edit, Fix

    st = v.st
    frm, ws, ft = v.frm, v.ws, v.ft
    reason = v.reason
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


standards_lint_rules = module_rules(globals())
