"""The Developer checkpoint gate (PROTOCOL.md, Checkpoint Handoffs): TESTING
after a CHECKPOINT from DEVELOPING needs an approved plan whose current
increment is defined, its steps done and self-checked."""

from __future__ import annotations

import re

from standards_lint.model.plan import (
    any_checkpoint,
    cycle_record,
    developer_checkpoint,
    field_anchor,
    load_plan,
    one_field,
    plan_path,
    tester_assignment,
    value_of,
)
from standards_lint.engine.rule import module_rules, report, rule


def _checkpoint_plan_lacks(project, n, holds, message: str, *names: str):
    """After a checkpoint naming Increment *n* (None: no such checkpoint), a
    finding unless the live plan *holds* (``holds(plan, n)``).  It points
    at the value of the first of the header fields *names* held once, else
    at the plan's title; without a plan, at the path where this cycle's plan
    should be (the file may not exist), or nowhere when there is none."""
    if n is None:
        return
    plan = load_plan(project)
    if plan is not None and holds(plan, n):
        return
    if plan is not None:
        found = (one_field(plan.header, name) for name in names)
        where = field_anchor(plan.doc, next((f for f in found if f is not None), None))
    else:
        where = plan_path(project)
    if where is not None:
        yield report(where, message.format(n=n))


@rule(
    code="SL830",
    name="checkpoint-approved-plan",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A Developer checkpoint needs an approved plan with `User Style Locked: true`.",
    explanation="""**What it does.** After a `CHECKPOINT` from `DEVELOPING`, reports a plan
that is still `PROPOSED` (or has another non-approved status) or whose
`User Style Locked` is not `true`.

**Why.**
> Before Developer hands off an increment: the plan has explicit approval under the
> normal approval rules [...] (PROTOCOL.md, Checkpoint Handoffs)

and the Developer template: "First approval covers the selection, including `NONE`, and
sets `User Style Locked: true` for the rest of the cycle."

**Fix safety.** No fix.""",
    bad_example="`User Style Locked`: `true` `Status`: `PROPOSED` (in TESTING after CHECKPOINT)",
    good_example="`User Style Locked`: `true` `Status`: `IN_PROGRESS` (in TESTING after CHECKPOINT)",
    help="Approve the plan with the user's style locked (`User Style Locked`: `true`) before a checkpoint.",
    no_fix_reason="Approval and the style lock are user decisions.",
)
def checkpoint_approved_plan(project):
    if developer_checkpoint(project) is None:
        return
    plan = load_plan(project)
    if plan is None:
        return
    status = plan.status
    locked = value_of(plan.header, "User Style Locked")
    if status in ("APPROVED", "IN_PROGRESS", "COMPLETE") and locked == "true":
        return
    yield report(field_anchor(plan.doc, one_field(plan.header, "Status")), "A checkpoint needs an approved plan (APPROVED, IN_PROGRESS or COMPLETE) with `User Style Locked`: `true`.")


@rule(
    code="SL831",
    name="checkpoint-current-increment",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A Developer checkpoint needs INCREMENTAL cadence and `Current Increment` naming the handed-off increment.",
    explanation="""**What it does.** After a `CHECKPOINT` from `DEVELOPING` naming
`Increment N` in `Handoff.Reason`, reports a plan whose cadence is not `INCREMENTAL` or
whose `Current Increment` is not `N`.

**Why.**
> With effective cadence `INCREMENTAL` and no active recovery, `CHECKPOINT` permits only
> `DEVELOPING -> TESTING` and `TESTING -> DEVELOPING`. [...] Before Developer hands off an
> increment: [...] `Current Increment` names a defined, testable outcome
> (PROTOCOL.md, Checkpoint Handoffs)

**Fix safety.** No fix.""",
    bad_example="`Reason`: `Increment 1 ready.` ... plan: `Current Increment`: `9`",
    good_example="`Reason`: `Increment 1 ready.` ... plan: `Current Increment`: `1`",
    help="Set INCREMENTAL cadence and `Current Increment` to the handed-off increment.",
    no_fix_reason="The cadence is a user decision and the increment the Developer's.",
)
def checkpoint_current_increment(project):
    yield from _checkpoint_plan_lacks(
        project, developer_checkpoint(project), lambda plan, n: plan.cadence == "INCREMENTAL" and plan.current == str(n),
        "The checkpoint hands off Increment {n}, so the plan needs `Verification Cadence`: `INCREMENTAL` and `Current Increment`: `{n}`.",
        "Current Increment", "Verification Cadence",
    )


@rule(
    code="SL832",
    name="checkpoint-increment-defined",
    section="Checkpoint Handoffs",
    owner="record",
    summary="The increment a checkpoint hands over must be defined in the plan.",
    explanation="""**What it does.** After a `CHECKPOINT` in either direction (Developer to
Tester, or Tester back to Developer) naming `Increment N`, reports a plan with no
`### Increment N` entry. The plan is the record `Active Work.Development` names; when
no record of this cycle is there (moved, renamed, or with a malformed provenance
block), nothing is defined and the finding points at that path.

**Why.**
> Every checkpoint requires a defined increment. (PROTOCOL.md, Testable Increments)

**Fix safety.** No fix.""",
    bad_example="`Reason`: `Increment 2 ready.` ... plan defines only ### Increment 1",
    good_example="`Reason`: `Increment 2 ready.` ... plan defines ### Increment 1 and ### Increment 2",
    help="Define the handed-off increment in the plan, or name a defined one in the checkpoint.",
    no_fix_reason="Which of the two is wrong is the Developer's call.",
)
def checkpoint_increment_defined(project):
    yield from _checkpoint_plan_lacks(
        project, any_checkpoint(project), lambda plan, n: plan.increment(n) is not None,
        "The checkpoint hands off Increment {n}, which has no definition in the development plan.",
    )


def _checkpoint_closure(project):
    """(N, the steps of Increment N with their dependencies, in plan order)
    after a Developer CHECKPOINT naming Increment N, or a RESUME into TESTING
    that restores Tester's suspended assessment of Increment N (the same
    increment handed to Tester again); with no steps when there is no such
    handoff, plan or increment."""
    n = developer_checkpoint(project)
    if n is None:
        n = _restored_increment(project)
    plan = load_plan(project) if n is not None else None
    inc = plan.increment(n) if plan is not None else None
    if inc is None:
        return n, []
    return n, plan.closure(inc.steps)


def _restored_increment(project):
    """N when a RESUME into TESTING restores Tester's suspended `INCREMENT`
    assessment of `Increment N` ("When the role receives its corresponding
    RESUME, restore the assignment")."""
    st = project.state
    if st is None or st.workflow_state != "TESTING" or st.ho("Kind") != "RESUME":
        return None
    a = tester_assignment(project, load_plan(project), cycle_record(project, "VERIFICATION"))
    if a is None or not a.restored or a.kind != "INCREMENT":
        return None
    m = re.match(r"^Increment ([1-9]\d*)$", a.target or "")
    return int(m.group(1)) if m else None


@rule(
    code="SL833",
    name="checkpoint-steps-done",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A checkpoint's increment steps and their dependencies must be DONE.",
    explanation="""**What it does.** After a `CHECKPOINT` from `DEVELOPING` naming
`Increment N`, or a `RESUME` into `TESTING` that restores Tester's suspended assessment of
`Increment N`, reports each step of that increment's `Development Steps`, or of their
dependencies, that is not `DONE`.

**Why.**
> Before Developer hands off an increment: [...] `Current Increment` names a defined,
> testable outcome; all implementation steps and dependencies needed for that outcome are
> `DONE` (PROTOCOL.md, Checkpoint Handoffs)

**Fix safety.** No fix.""",
    bad_example="### Increment 1 — `Development Steps`: `DEV-001`; DEV-001 `Status`: `PENDING`",
    good_example="### Increment 1 — `Development Steps`: `DEV-001`; DEV-001 `Status`: `DONE`",
    help="Finish the increment's steps and their dependencies (DONE) before the checkpoint.",
    no_fix_reason="Finishing steps is implementation work.",
)
def checkpoint_steps_done(project):
    n, steps = _checkpoint_closure(project)
    for s in steps:
        if not s.done:
            yield report(s.at(s.status_field), f"Checkpoint Increment {n} needs {s.id} and its dependencies DONE; {s.id} is not.")


@rule(
    code="SL834",
    name="checkpoint-self-check",
    section="Checkpoint Handoffs",
    owner="record",
    summary="Steps behind a checkpoint need persisted **Self-Check** evidence.",
    explanation="""**What it does.** After a `CHECKPOINT` from `DEVELOPING` naming
`Increment N`, reports each step of the increment (and its dependencies) that has no
nonempty `**Self-Check**` paragraph.

**Why.**
> relevant self-checks are satisfactory and the assessed implementation content and
> readiness claim are saved (PROTOCOL.md, Checkpoint Handoffs)

and "Persist claims and actual evidence in the owning records before changing state".

**Fix safety.** No fix.""",
    bad_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`",
    good_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`\n\n**Self-Check**\n\n`npm test` in the root; exit 0.",
    help="Persist **Self-Check** evidence for every step behind the checkpoint.",
    no_fix_reason="The evidence is the Developer's to produce.",
)
def checkpoint_self_check(project):
    for s in _checkpoint_closure(project)[1]:
        if not s.self_check():
            yield report(s.container.heading, f"{s.id} needs persisted **Self-Check** evidence before a checkpoint.")


standards_lint_rules = module_rules(globals())
