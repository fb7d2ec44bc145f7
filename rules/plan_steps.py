"""The build steps of the development plan (PROTOCOL.md, Testable Increments;
Full Verification Boundary): each step's Status, its dependencies, and the
steps a complete plan or a finished Developer leaves done."""

from __future__ import annotations

from typing import Optional

from standards_lint.engine.findings import Fix
from standards_lint.fixes.plan import handoff_heading_fix
from standards_lint.model.plan import (
    PLAN_STATUSES,
    STEP_STATUSES,
    Plan,
    Step,
    agreed_field,
    developer_completion_due,
    fields,
    header_anchor,
    load_plan,
    plan_entries,
    scan_fields,
)
from standards_lint.engine.rule import module_rules, replace, report, rule


@rule(
    code="SL810",
    name="step-status-value",
    section="Testable Increments",
    owner="record",
    summary="Each `DEV-NNN` step needs one `Status`: PENDING, IN_PROGRESS or DONE.",
    explanation="""**What it does.** Checks the `Status` field of every `### DEV-NNN` step of
the active plan: present once, and one of `PENDING`, `IN_PROGRESS`, `DONE`.

**Why.** The Developer template gives each step
`` `Status`: `PENDING | IN_PROGRESS | DONE` ``; the checkpoint and completion gates
(Checkpoint Handoffs, Full Verification Boundary) are defined on steps being `DONE`.

**Fix safety.** Sometimes: a status that is one of the three in another letter case or
inside the template's angle brackets (`done`, `<DONE>`) is respelt (safe); the
plan state `COMPLETE` on a step becomes `DONE` (unsafe). Otherwise no fix.
""",
    bad_example="### DEV-002 — Search box\n\n`Status`: `WAITING` `Depends On`: `DEV-001`",
    good_example="### DEV-002 — Search box\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    fix="sometimes",
    help="Set the step's `Status` to PENDING, IN_PROGRESS or DONE.",
    no_fix_reason="Only a misspelt status has an unmistakable value; otherwise the step's progress is the Developer's record.",
)
def step_status_value(project):
    for plan, s in plan_entries(project, "steps"):
        if s.valid_status:
            continue
        if s.status_field is not None:
            msg = f"{s.id} has Status `{s.status}`; a step's Status must be PENDING, IN_PROGRESS or DONE."
            fix = _step_status_fix(plan, s)
        else:
            msg = f"{s.id} has no `Status` field; give it one: PENDING, IN_PROGRESS or DONE."
            fix = None
        yield report(s.at(s.status_field), msg, fix)


# The plan's word for a finished plan, written on a step: the step is DONE
# (a step's states are PENDING, IN_PROGRESS and DONE; Developer template).
_PLAN_WORDS = {"COMPLETE": "DONE", "COMPLETED": "DONE"}


def _step_status_fix(plan, s: Step) -> Optional[Fix]:
    """Respell a step's one Status whose value is meant: one of the three
    in another letter case or inside the template's angle brackets (`done`,
    `<DONE>`; safe), or the plan state `COMPLETE` (unsafe: DONE)."""
    found = fields(s.container, "Status")
    if len(found) != 1:
        return None
    meant = found[0].value.strip().strip("<>").strip().upper().replace(" ", "_").replace("-", "_")
    if meant in STEP_STATUSES:
        if meant == found[0].value:
            return None
        return replace(plan.path, found[0].value_span, meant, description=f"Spell the Status `{meant}`")
    if meant in _PLAN_WORDS and not plan.doc.conflicts:  # a merge conflict is the user's to resolve
        new = _PLAN_WORDS[meant]
        return replace(plan.path, found[0].value_span, new, safe=False,
                       description=f"Set the step's Status to `{new}` (`{found[0].value}` is a plan state)")
    return None


@rule(
    code="SL811",
    name="step-self-dependency",
    section="Testable Increments",
    owner="record",
    summary="A step must not depend on itself.",
    explanation="""**What it does.** Reports a `DEV-NNN` step whose `Depends On` names the
step itself.

**Why.** The Developer template: "Keep dependencies acyclic and explicit when order
matters." A step that waits for itself can never become ready, and the checkpoint gate
("all implementation steps and dependencies needed for that outcome are `DONE`",
Checkpoint Handoffs) cannot be judged.

**Fix safety.** Safe: the step is dropped from its own `Depends On` (`NONE` when nothing else remains).""",
    bad_example="### DEV-002 — Search box\n\n`Status`: `PENDING` `Depends On`: `DEV-001, DEV-002`",
    good_example="### DEV-002 — Search box\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    fix="safe",
    help="Remove the step from its own `Depends On`.",
)
def step_self_dependency(project):
    for plan, s in plan_entries(project, "steps"):
        if s.id in s.deps:
            rest = [d for d in s.deps if d != s.id]
            value = ", ".join(rest) if rest else "NONE"
            fix = replace(plan.path, s.deps_field.value_span, value,
                          description=f"Drop {s.id} from its own `Depends On`")
            yield report(s.at(s.deps_field), f"{s.id} lists itself in `Depends On`.", fix)


@rule(
    code="SL812",
    name="step-unknown-dependency",
    section="Testable Increments",
    owner="record",
    summary="A step's `Depends On` must name steps of the same plan.",
    explanation="""**What it does.** Reports a `Depends On` entry that is not a `DEV-NNN`
step of the active plan.

**Why.** The Developer template: "Keep dependencies acyclic and explicit when order
matters." A dependency on a step that does not exist is not explicit, and the checkpoint
gate needs "all implementation steps and dependencies needed for that outcome" to be
`DONE` (Checkpoint Handoffs).

**Fix safety.** No fix.""",
    bad_example="### DEV-002 — Search box\n\n`Status`: `PENDING` `Depends On`: `DEV-008`",
    good_example="### DEV-002 — Search box\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    help="Make `Depends On` name steps of this plan (or `NONE`).",
    no_fix_reason="Whether the dependency is a typo or a missing step is the Developer's call.",
)
def step_unknown_dependency(project):
    for plan, s in plan_entries(project, "steps"):
        for d in plan.unknown_steps(s.deps):
            yield report(s.at(s.deps_field), f"{s.id} depends on {d}, which is not a step of this plan.")


def _cycles(plan: Plan) -> list[list[str]]:
    """One dependency loop per group of steps that depend on each other
    (strongly connected component of two or more steps): the shortest loop
    through the group's earliest step in plan order, as a path."""
    order = {s.id: i for i, s in enumerate(plan.steps)}
    graph = {s.id: [d for d in s.deps if d in order and d != s.id] for s in plan.steps}
    # Reachability by BFS is enough for the small graphs of a plan, and
    # bounded: O(steps * edges).
    def reach(src: str) -> set[str]:
        seen = {src}
        todo = [src]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reaches = {sid: reach(sid) for sid in graph}
    done: set[str] = set()
    loops: list[list[str]] = []
    for s in plan.steps:
        if s.id in done:
            continue
        group = {t for t in reaches[s.id] if s.id in reaches[t]}
        if len(group) < 2:
            continue
        done |= group
        # Shortest path from s back to s inside the group.
        prev: dict[str, str] = {}
        queue = [s.id]
        found_last = None
        while queue and found_last is None:
            nxt_queue = []
            for node in queue:
                for nxt in graph[node]:
                    if nxt not in group:
                        continue
                    if nxt == s.id:
                        found_last = node
                        break
                    if nxt not in prev:
                        prev[nxt] = node
                        nxt_queue.append(nxt)
                if found_last is not None:
                    break
            queue = nxt_queue
        if found_last is None:
            continue
        path = [found_last]
        while path[-1] != s.id:
            path.append(prev[path[-1]])
        path.reverse()
        loops.append(path + [s.id])
    return loops


@rule(
    code="SL813",
    name="step-dependency-loop",
    section="Testable Increments",
    owner="record",
    summary="Step dependencies must not form a loop.",
    explanation="""**What it does.** Reports steps of the active plan that depend on each other
in a loop (DEV-001 -> DEV-002 -> DEV-001).

**Why.** The Developer template: "Keep dependencies acyclic and explicit when order
matters." Steps in a loop can never all become ready.

**Fix safety.** No fix.""",
    bad_example="### DEV-001\n\n`Status`: `PENDING` `Depends On`: `DEV-002`\n\n### DEV-002\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    good_example="### DEV-001\n\n`Status`: `PENDING` `Depends On`: `NONE`\n\n### DEV-002\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    help="Break the dependency loop so the steps can be ordered.",
    no_fix_reason="Which dependency to drop is a planning decision.",
)
def step_dependency_loop(project):
    plan = load_plan(project)
    if plan is None:
        return
    for loop in _cycles(plan):
        first = plan.step(loop[0])
        yield report(first.at(first.deps_field), "Steps depend on each other in a loop: " + " -> ".join(loop) + ".")


@rule(
    code="SL814",
    name="complete-plan-unfinished-step",
    section="Full Verification Boundary",
    owner="record",
    summary="A COMPLETE plan must have every step DONE.",
    explanation="""**What it does.** Reports each step that is not `DONE` in a plan whose
`Status` is `COMPLETE`.

**Why.** The Developer template: "`COMPLETE` means every current approved step is `DONE`
and Developer's completion gate otherwise passes." (See also Full Verification Boundary.)

**Fix safety.** Sometimes: a step whose Status spells DONE otherwise (`done`, or the
plan state `COMPLETE`) carries SL810's respelling (safe for a spelling,
unsafe for `COMPLETE`). Otherwise no fix: either finish the step or reopen
the plan.
""",
    bad_example="`Status`: `COMPLETE` ...\n\n### DEV-002\n\n`Status`: `PENDING` `Depends On`: `DEV-001`",
    good_example="`Status`: `COMPLETE` ...\n\n### DEV-002\n\n`Status`: `DONE` `Depends On`: `DEV-001`",
    fix="sometimes",
    help="Finish the step (DONE), or reopen the plan.",
    no_fix_reason="Either finish the step or reopen the plan.",
)
def complete_plan_unfinished_step(project):
    plan = load_plan(project)
    if plan is None or plan.status != "COMPLETE":
        return
    for s in plan.steps:
        if not s.done:
            where = s.at(s.status_field)
            # A Status that only spells DONE otherwise (`done`, `COMPLETE`) is the step's own fix.
            fix = _step_status_fix(plan, s)
            if fix is not None and fix.edits[0].replacement != "DONE":
                fix = None
            yield report(where, f"The plan is COMPLETE but {s.id} is not DONE.", fix)


@rule(
    code="SL815",
    name="done-step-removed",
    section="Testable Increments",
    owner="record",
    summary="A step that was DONE in the last commit must not disappear from the plan.",
    explanation="""**What it does.** Inside a git repository, compares the active plan with its
version at HEAD and reports any `DEV-NNN` step that was `DONE` there and is gone now.

**Why.** The Developer template: "Preserve `DEV-NNN` identifiers for the active cycle; do
not renumber completed steps when revising the plan." and "When recovery or rework
invalidates the expected outcome of a completed step, reopen only the affected step to
`PENDING` or `IN_PROGRESS` rather than renumbering it."

**Fix safety.** No fix: restore the step from history (reopened if needed).""",
    bad_example="HEAD: ### DEV-001 (`DONE`)  now: the plan starts at ### DEV-003",
    good_example="HEAD: ### DEV-001 (`DONE`)  now: ### DEV-001 (`IN_PROGRESS`, reopened)",
    help="Restore the step from history (reopened if needed).",
    no_fix_reason="Restore the step from history (reopened if needed).",
)
def done_step_removed(project):
    from standards_lint.syntax.parser import parse_markdown

    plan = load_plan(project)
    if plan is None or project.head is None:
        return
    old_text = project.head.read(plan.path)
    if old_text is None:
        return
    old = Plan(scan_fields(parse_markdown(old_text.lstrip("\ufeff"), plan.path)))
    now = {s.id for s in plan.steps}
    for s in old.steps:
        if s.done and s.id not in now:
            where = None
            for sec in plan.doc.sections:
                if sec.title == "Build Steps":
                    where = sec.heading
            yield report(
                where or (plan.path, header_anchor(plan.doc)),
                f"{s.id} was DONE in the last commit but is missing now; completed steps are never removed or renumbered.",
            )


@rule(
    code="SL816",
    name="plan-complete-after-developing",
    section="Full Verification Boundary",
    owner="record",
    summary="Once the cycle has passed DEVELOPING (outside checkpoints and scoped recovery) the plan must be COMPLETE.",
    explanation="""**What it does.** When the workflow is past `DEVELOPING` — full
verification in `TESTING`, a Reviewer state or later — reports a development plan whose
`Status` is not `COMPLETE`. An incremental checkpoint (`CHECKPOINT` from `DEVELOPING`)
and a scoped recovery whose plan saves the suspended Developer assignment are exempt.

**Why.**
> For normal completion, when all current approved steps are `DONE` and every other
> Developer completion-gate condition passes, mark the plan `COMPLETE`, set
> `Current Increment: NONE`, and hand off to full Tester verification.
> [...] Before either a `FORWARD` or recovery `RESUME` enters a Reviewer state, the full
> applicable Developer and Tester gates must hold for the current implementation.
> (PROTOCOL.md, Full Verification Boundary)

**Fix safety.** Sometimes (unsafe): when every step is DONE, the plan's `Status` is set to `COMPLETE` (the Developer confirms the gate passed). When STATE.md's Handoff is unread only because its heading is spelt in another letter case (`## handoff`) and, read, it is a checkpoint that lets the plan stay open, the finding carries SL201's respelling of the heading (safe). Otherwise no fix.""",
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` ... plan: `Status`: `IN_PROGRESS`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` ... plan: `Status`: `COMPLETE`",
    fix="sometimes",
    help="Complete the plan (every step DONE, `Status`: `COMPLETE`), or route the unfinished work back to DEVELOPING.",
    no_fix_reason="Steps are not DONE yet: completing the plan is the Developer's gate.",
)
def plan_complete_after_developing(project):
    plan = load_plan(project)
    if plan is None:
        return
    f = agreed_field(plan.header, "Status")
    if f is None and not fields(plan.header, "Status"):
        # No Status in the header at all (a setext title or a table leaves
        # the header unread): the checker reads the status as `missing`.
        if developer_completion_due(project, plan):
            yield report((plan.path, header_anchor(plan.doc)),
                         "The cycle has passed DEVELOPING, so the plan must be COMPLETE; its Status is `missing`.")
        return
    if f is None or f.value == "COMPLETE" or f.value not in PLAN_STATUSES:
        return
    if not developer_completion_due(project, plan):
        return
    fix = None
    # Every step is DONE: completing the plan is what remains of the gate.
    if plan.steps and all(s.done for s in plan.steps) and len(fields(plan.header, "Status")) == 1:
        fix = replace(plan.path, f.value_span, "COMPLETE", safe=False,
                      description="Mark the plan COMPLETE (every step is DONE)")
    else:
        # The handoff is unread only for its heading's spelling, and once read
        # it lets the plan stay open (a checkpoint): the heading is the fix.
        st = project.state
        h = handoff_heading_fix(project)
        if (h is not None and not plan.doc.conflicts and st.workflow_state == "TESTING" and st.cycle_mode == "STANDARD"
                and not developer_completion_due(project, plan, st=h[0])):
            fix = h[1]
    yield report(
        (plan.path, f.value_span),
        f"The cycle has passed DEVELOPING, so the plan must be COMPLETE; its Status is `{f.value}`.",
        fix,
    )


@rule(
    code="SL817",
    name="step-duplicate",
    section="Testable Increments",
    owner="record",
    summary="Each `DEV-NNN` step is defined once in the plan.",
    explanation="""**What it does.** Reports a `### DEV-NNN` step heading whose ID an
earlier step of the same plan already has (a merge resolved by keeping both
copies of `## Build Steps` or of one step leaves this).

**Why.** The Developer template: "Preserve `DEV-NNN` identifiers for the active
cycle" and "Preserve existing `DEV-NNN` identifiers across plan revisions. Add new
IDs for" new work. Two steps with one ID make every `Depends On`, increment and
checkpoint that names it ambiguous: which Status counts is no longer stated.

**Fix safety.** None: which copy is right (they may differ in Status, Depends On or
Acceptance) is the Developer's decision.""",
    bad_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`\n\n"
                "### DEV-001 — Search endpoint\n\n`Status`: `PENDING` `Depends On`: `NONE`",
    good_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`",
    fix="none",
    help="Keep one definition of the step, merging what the copies say, or give the new step a new ID.",
    no_fix_reason="Which copy of the step is right is the Developer's decision.",
)
def step_duplicate(project):
    seen = set()
    for _plan, s in plan_entries(project, "steps"):
        if s.id in seen:
            yield report(s.container.heading, f"The plan defines {s.id} more than once.")
        seen.add(s.id)


standards_lint_rules = module_rules(globals())
