"""Rules on the active cycle's development plan
(``.standards/docs/development/<cycle>.md``): plan and step status, step
dependencies, verification cadence and increments, and the Developer
checkpoint gate (PROTOCOL.md: Verification Cadence, Testable Increments,
Checkpoint Handoffs, Full Verification Boundary; skills/developer/template.md).

The module also holds the small model of the plan and of the workflow
position that :mod:`standards_lint.rules.verification` and
:mod:`standards_lint.rules.recovery_gates` share.
"""

from __future__ import annotations

from typing import Optional

from standards_lint.findings import Edit, Fix
from standards_lint.rule import module_rules, replace, report, rule
from standards_lint.model.plan import (
    AC_ID_RE,
    DEV_ID_RE,
    PLAN_CADENCES,
    PLAN_STATUSES,
    POSITIVE_RE,
    STEP_STATUSES,
    Plan,
    Step,
    agreed_field,
    any_checkpoint,
    developer_checkpoint,
    developer_completion_due,
    field_anchor,
    fields,
    header_anchor,
    labelled_block,
    load_plan,
    one_field,
    plan_path,
    scan_fields,
    value_of,
)
from standards_lint.fixes.plan import handoff_heading_fix, header_fields_once


# ---------------------------------------------------------------------------
# Shared model
# ---------------------------------------------------------------------------


# -- the workflow position ----------------------------------------------------


# ---------------------------------------------------------------------------
# Plan header
# ---------------------------------------------------------------------------

_WHY_CADENCE = (
    "> `Verification Cadence` and `Current Increment` are required. Initialize new plans "
    "with `AFTER_IMPLEMENTATION` and `NONE`, respectively. Missing, invalid, repeated, or "
    "contradictory values are defects. (PROTOCOL.md, Verification Cadence)"
)


@rule(
    code="SL800",
    name="plan-status-value",
    section="Verification Cadence",
    owner="record",
    summary="The plan's `Status` must be PROPOSED, APPROVED, IN_PROGRESS or COMPLETE.",
    explanation="""**What it does.** Checks the `Status` field in the header of the active
cycle's development plan.

**Why.** The Developer template defines exactly four plan states:
> `PROPOSED` means implementation is blocked on user approval. `APPROVED` means the user
> approved the current material plan. `IN_PROGRESS` means at least one approved step has
> started [...]. `COMPLETE` means every current approved step is `DONE` [...].

Step states (`DONE`, `PENDING`) or report states (`BLOCKED`) are not plan states.

**Fix safety.** No fix: which state the plan is in is the Developer's judgement.""",
    bad_example="`Status`: `DONE` `Verification Cadence`: `AFTER_IMPLEMENTATION`",
    good_example="`Status`: `COMPLETE` `Verification Cadence`: `AFTER_IMPLEMENTATION`",
    help="Set the plan's `Status` to PROPOSED, APPROVED, IN_PROGRESS or COMPLETE.",
    no_fix_reason="Which state the plan is in is the Developer's judgement.",
)
def plan_status_value(project):
    yield from _header_value_in(
        project, "Status", PLAN_STATUSES,
        "Plan Status `{value}` is not a plan state; use PROPOSED, APPROVED, IN_PROGRESS or COMPLETE.",
    )


def _header_value_in(project, name: str, allowed, message: str):
    """A finding at the plan header's `name` value when it is not one of
    `allowed` (silent when the field is missing or repeated)."""
    plan = load_plan(project)
    if plan is None:
        return
    f = one_field(plan.header, name)
    if f is not None and f.value.strip() not in allowed:
        yield report((plan.path, f.value_span), message.format(value=f.value))


@rule(
    code="SL801",
    name="plan-cadence-fields-once",
    section="Verification Cadence",
    owner="record",
    summary="`Verification Cadence` and `Current Increment` must each occur once, nonempty, in the plan.",
    explanation=f"""**What it does.** Reports a development plan whose header lacks, repeats or
leaves empty `Verification Cadence` or `Current Increment`.

**Why.**
{_WHY_CADENCE}

**Fix safety.** Sometimes (safe): copies of one value are dropped, keeping the first. A missing or empty field, or copies with different values, have no fix: which value is meant is unknown.""",
    bad_example="`Status`: `IN_PROGRESS` `Verification Cadence`: `INCREMENTAL`",
    good_example="`Status`: `IN_PROGRESS` `Verification Cadence`: `INCREMENTAL` `Current Increment`: `1`",
    fix="sometimes",
    help="Keep `Verification Cadence` and `Current Increment` once each in the plan header, with a value.",
    no_fix_reason="A missing value, or copies with different values: which value is meant is unknown.",
)
def plan_cadence_fields_once(project):
    plan = load_plan(project)
    if plan is None:
        return
    yield from header_fields_once(plan.doc, ("Verification Cadence", "Current Increment"), "plan")


@rule(
    code="SL802",
    name="verification-cadence-value",
    section="Verification Cadence",
    owner="record",
    summary="`Verification Cadence` must be AFTER_IMPLEMENTATION or INCREMENTAL.",
    explanation=f"""**What it does.** Checks the value of the plan's `Verification Cadence`.

**Why.** Developer persists exactly one effective cadence, `AFTER_IMPLEMENTATION` (the
default) or `INCREMENTAL`.
{_WHY_CADENCE}

**Fix safety.** No fix: the cadence is a user decision.""",
    bad_example="`Verification Cadence`: `incremental`",
    good_example="`Verification Cadence`: `INCREMENTAL`",
    help="Set `Verification Cadence` to AFTER_IMPLEMENTATION or INCREMENTAL, as the user chose.",
    no_fix_reason="The cadence is a user decision.",
)
def verification_cadence_value(project):
    yield from _header_value_in(
        project, "Verification Cadence", PLAN_CADENCES,
        "`Verification Cadence` is `{value}`; it must be AFTER_IMPLEMENTATION or INCREMENTAL.",
    )


@rule(
    code="SL803",
    name="current-increment-value",
    section="Testable Increments",
    owner="record",
    summary="`Current Increment` must be NONE or a positive increment number.",
    explanation="""**What it does.** Checks the value of the plan's `Current Increment`.

**Why.**
> Developer alone selects and advances `Current Increment`, a defined positive increment
> number or `NONE`, in its plan. (PROTOCOL.md, Testable Increments)

**Fix safety.** No fix.""",
    bad_example="`Current Increment`: `none`",
    good_example="`Current Increment`: `NONE`",
    help="Set `Current Increment` to `NONE` or the number of the increment in progress.",
    no_fix_reason="Which increment is in progress is the Developer's record.",
)
def current_increment_value(project):
    plan = load_plan(project)
    if plan is None:
        return
    f = one_field(plan.header, "Current Increment")
    if f is None:
        return
    v = f.value.strip()
    if v != "NONE" and not POSITIVE_RE.match(v):
        yield report((plan.path, f.value_span), f"`Current Increment` is `{v}`; it must be NONE or a positive increment number.")


@rule(
    code="SL804",
    name="current-increment-defined",
    section="Testable Increments",
    owner="record",
    summary="A `Current Increment` other than NONE must name a `### Increment N` of the plan.",
    explanation="""**What it does.** Reports a `Current Increment` that names no
`### Increment N` entry under `## Verification Increments`.

**Why.**
> Developer alone selects and advances `Current Increment`, a defined positive increment
> number or `NONE` [...] Every checkpoint requires a defined increment.
> (PROTOCOL.md, Testable Increments)

**Fix safety.** Sometimes (safe): with `AFTER_IMPLEMENTATION` cadence or a `COMPLETE`
plan, the protocol fixes `Current Increment: NONE` (SL805, SL806 carry the
same fix). Otherwise no fix: whether the entry or the number is wrong is the
Developer's call.
""",
    bad_example="`Current Increment`: `3`\n\n## Verification Increments\n\n### Increment 1",
    good_example="`Current Increment`: `1`\n\n## Verification Increments\n\n### Increment 1",
    fix="sometimes",
    help="Add the `### Increment N` entry, or set `Current Increment` to an increment the plan defines.",
    no_fix_reason="With INCREMENTAL cadence, whether the entry or the number is wrong is the Developer's call.",
)
def current_increment_defined(project):
    plan = load_plan(project)
    if plan is None:
        return
    f = one_field(plan.header, "Current Increment")
    if f is None:
        return
    v = f.value.strip()
    if v == "NONE":
        return
    if POSITIVE_RE.match(v) and plan.increment(int(v)) is not None:
        return
    # The cadence or a COMPLETE plan fixes the value NONE outright (SL805, SL806).
    fix = None
    if (plan.cadence == "AFTER_IMPLEMENTATION" or plan.status == "COMPLETE") and not plan.doc.conflicts:
        fix = _current_increment_none_fix(plan)
    yield report(
        (plan.path, f.value_span),
        f"`Current Increment` {v} has no `### Increment {v}` entry under Verification Increments.",
        fix,
    )


@rule(
    code="SL805",
    name="after-implementation-current-increment",
    section="Testable Increments",
    owner="record",
    summary="With AFTER_IMPLEMENTATION cadence, `Current Increment` must be NONE.",
    explanation="""**What it does.** Reports a plan with `Verification Cadence:
AFTER_IMPLEMENTATION` whose `Current Increment` is not `NONE`.

**Why.**
> `NONE` is valid before scheduling, after switching to `AFTER_IMPLEMENTATION`, or at full
> completion. (PROTOCOL.md, Testable Increments)

Contradictory cadence values are defects (Verification Cadence).

**Fix safety.** Safe fix: set `Current Increment` to `NONE`; the cadence decides.""",
    fix="safe",
    bad_example="`Verification Cadence`: `AFTER_IMPLEMENTATION` `Current Increment`: `2`",
    good_example="`Verification Cadence`: `AFTER_IMPLEMENTATION` `Current Increment`: `NONE`",
    help="Set `Current Increment` to `NONE`.",
)
def after_implementation_current_increment(project):
    plan = load_plan(project)
    if plan is not None and plan.cadence == "AFTER_IMPLEMENTATION":
        yield from _current_increment_must_be_none(plan, "The cadence is AFTER_IMPLEMENTATION")


def _current_increment_must_be_none(plan, because: str):
    f = one_field(plan.header, "Current Increment")
    if f is None or f.value.strip() == "NONE":
        return
    yield report(
        (plan.path, f.value_span),
        f"{because}, so `Current Increment` must be `NONE`, not `{f.value}`.",
        fix=_current_increment_none_fix(plan),
    )


def _current_increment_none_fix(plan) -> Optional[Fix]:
    """Set the plan's one `Current Increment` to NONE."""
    f = one_field(plan.header, "Current Increment")
    if f is None or f.value.strip() == "NONE":
        return None
    return replace(plan.path, f.value_span, "NONE", description="Set Current Increment to NONE")


@rule(
    code="SL806",
    name="complete-plan-current-increment",
    section="Full Verification Boundary",
    owner="record",
    summary="A COMPLETE plan must have `Current Increment: NONE`.",
    explanation="""**What it does.** Reports a plan with `Status: COMPLETE` whose
`Current Increment` is not `NONE`.

**Why.**
> For normal completion, when all current approved steps are `DONE` [...], mark the plan
> `COMPLETE`, set `Current Increment: NONE`, and hand off to full Tester verification.
> (PROTOCOL.md, Full Verification Boundary)

**Fix safety.** Safe fix: set `Current Increment` to `NONE`.""",
    fix="safe",
    bad_example="`Status`: `COMPLETE` `Verification Cadence`: `INCREMENTAL` `Current Increment`: `2`",
    good_example="`Status`: `COMPLETE` `Verification Cadence`: `INCREMENTAL` `Current Increment`: `NONE`",
    help="Set `Current Increment` to `NONE`.",
)
def complete_plan_current_increment(project):
    plan = load_plan(project)
    if plan is not None and plan.status == "COMPLETE":
        yield from _current_increment_must_be_none(plan, "The plan is COMPLETE")


@rule(
    code="SL807",
    name="expedited-cadence",
    section="Verification Cadence",
    owner="record",
    summary="An EXPEDITED cycle's plan must use AFTER_IMPLEMENTATION cadence.",
    explanation="""**What it does.** Reports the plan of an `EXPEDITED` cycle whose
`Verification Cadence` is not (exactly once) `AFTER_IMPLEMENTATION`.

**Why.**
> `EXPEDITED` supports only `AFTER_IMPLEMENTATION`. (PROTOCOL.md, Verification Cadence)

**Fix safety.** Sometimes (unsafe): with no `INCREMENTAL` request pending in
`Active Work.PendingVerificationCadence` (which would authorize promotion),
the cadence is set to `AFTER_IMPLEMENTATION`, the only one the mode supports,
and `Current Increment` to `NONE` (user-decisions.md, Switch verification
cadence, step 5). No fix for a missing or repeated field, or while an
incremental request is pending: that request needs promotion to STANDARD
first.
""",
    bad_example="`CycleMode`: `EXPEDITED` ... plan: `Verification Cadence`: `INCREMENTAL`",
    good_example="`CycleMode`: `EXPEDITED` ... plan: `Verification Cadence`: `AFTER_IMPLEMENTATION`",
    fix="sometimes",
    help="Use `Verification Cadence`: `AFTER_IMPLEMENTATION`, or promote the cycle to STANDARD first.",
    no_fix_reason="A missing or repeated field, or a pending INCREMENTAL request: that request needs promotion to STANDARD first (user-decisions.md, Switch verification cadence).",
)
def expedited_cadence(project):
    plan = load_plan(project)
    st = project.state
    if plan is None or st is None or st.cycle_mode != "EXPEDITED":
        return
    if plan.cadence == "AFTER_IMPLEMENTATION":
        return
    found = fields(plan.header, "Verification Cadence")
    fix = None
    # No INCREMENTAL request is pending (which would authorize promotion):
    # the cycle's mode leaves one cadence, and it clears Current Increment
    # (user-decisions.md, Switch verification cadence, step 5).
    if (len(found) == 1 and found[0].value.strip() and not plan.doc.conflicts
            and st.aw("PendingVerificationCadence") in ("NONE", "AFTER_IMPLEMENTATION")):
        edits = [Edit(plan.path, found[0].value_span.start, found[0].value_span.end, "AFTER_IMPLEMENTATION")]
        clear = _current_increment_none_fix(plan)
        if clear is not None:
            edits.extend(clear.edits)
        elif fields(plan.header, "Current Increment") and one_field(plan.header, "Current Increment") is None:
            edits = []  # a repeated or empty Current Increment: SL801's; which value is meant is unknown
        if edits:
            fix = Fix(tuple(edits), "unsafe",
                      "Set `Verification Cadence` to AFTER_IMPLEMENTATION, the only one EXPEDITED supports"
                      + (", and `Current Increment` to NONE" if len(edits) > 1 else ""))
    yield report(field_anchor(plan.doc, found[0] if found else None), "This is an EXPEDITED cycle, which supports only `Verification Cadence`: `AFTER_IMPLEMENTATION`.", fix)


# ---------------------------------------------------------------------------
# Build steps
# ---------------------------------------------------------------------------


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
    plan = load_plan(project)
    if plan is None:
        return
    for s in plan.steps:
        if s.valid_status:
            continue
        found = fields(s.container, "Status")
        if found:
            msg = f"{s.id} has Status `{found[0].value}`; a step's Status must be PENDING, IN_PROGRESS or DONE."
            where = (plan.path, found[0].value_span)
            fix = _step_status_fix(plan, s)
        else:
            msg = f"{s.id} has no `Status` field; give it one: PENDING, IN_PROGRESS or DONE."
            where = s.container.heading
            fix = None
        yield report(where, msg, fix)


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
    plan = load_plan(project)
    if plan is None:
        return
    for s in plan.steps:
        if s.id in s.deps:
            rest = [d for d in s.deps if d != s.id]
            value = ", ".join(rest) if rest else "NONE"
            fix = replace(plan.path, s.deps_field.value_span, value,
                          description=f"Drop {s.id} from its own `Depends On`")
            yield report((plan.path, s.deps_field.value_span), f"{s.id} lists itself in `Depends On`.", fix)


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
    plan = load_plan(project)
    if plan is None:
        return
    ids = {s.id for s in plan.steps}
    for s in plan.steps:
        for d in s.deps:
            if d != s.id and d not in ids:
                yield report((plan.path, s.deps_field.value_span), f"{s.id} depends on {d}, which is not a step of this plan.")


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
        where = (plan.path, first.deps_field.value_span) if first.deps_field is not None else first.container.heading
        yield report(where, "Steps depend on each other in a loop: " + " -> ".join(loop) + ".")


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
            where = (plan.path, s.status_field.value_span) if s.status_field is not None else s.container.heading
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
    from standards_lint.parser import parse_markdown

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
    if f is None or f.value.strip() == "COMPLETE" or f.value.strip() not in PLAN_STATUSES:
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


# ---------------------------------------------------------------------------
# Verification increments
# ---------------------------------------------------------------------------


@rule(
    code="SL820",
    name="increment-numbering",
    section="Testable Increments",
    owner="record",
    summary="`### Increment N` entries must be numbered 1, 2, 3, ... in order.",
    explanation="""**What it does.** Reports an `### Increment N` entry whose number is not
its position under `## Verification Increments`.

**Why.**
> The existing development plan holds ordered `### Increment N` entries, starting at 1
> [...] Preserve existing numbers; append new entries rather than renumbering assessed
> increments. (PROTOCOL.md, Testable Increments)

**Fix safety.** No fix: renumbering assessed increments is itself forbidden.""",
    bad_example="### Increment 1\n...\n### Increment 3",
    good_example="### Increment 1\n...\n### Increment 2",
    help="Number the `### Increment N` entries 1, 2, 3, ... in order.",
    no_fix_reason="Renumbering assessed increments is itself forbidden.",
)
def increment_numbering(project):
    plan = load_plan(project)
    if plan is None:
        return
    for pos, inc in enumerate(plan.increments, 1):
        if inc.number != pos:
            yield report(
                inc.container.heading,
                f"Increment {inc.number} is entry {pos}; increments must be numbered 1, 2, 3, ... in order.",
            )


@rule(
    code="SL821",
    name="increment-duplicate",
    section="Testable Increments",
    owner="record",
    summary="An increment number must be defined once.",
    explanation="""**What it does.** Reports a second `### Increment N` entry with a number
already used.

**Why.** Increment numbers are "plan-local scheduling references" that checkpoints and
assessments name (`Assessment Target: Increment N`); a repeated number makes them
ambiguous. (PROTOCOL.md, Testable Increments)

**Fix safety.** No fix.""",
    bad_example="### Increment 1\n...\n### Increment 1",
    good_example="### Increment 1\n...\n### Increment 2",
    help="Define each increment number once.",
    no_fix_reason="Which copy of the increment is current is the Developer's call.",
)
def increment_duplicate(project):
    plan = load_plan(project)
    if plan is None:
        return
    seen: set[int] = set()
    for inc in plan.increments:
        if inc.number in seen:
            yield report(inc.container.heading, f"Increment {inc.number} is defined more than once.")
        seen.add(inc.number)


@rule(
    code="SL822",
    name="increment-fields-once",
    section="Testable Increments",
    owner="record",
    summary="Each increment needs `Development Steps` and `Acceptance` exactly once.",
    explanation="""**What it does.** Reports an `### Increment N` entry lacking, repeating or
leaving empty `Development Steps` or `Acceptance`.

**Why.**
> The existing development plan holds ordered `### Increment N` entries, starting at 1,
> with their `Development Steps`, `Acceptance`, and concrete `Ready Outcome`.
> (PROTOCOL.md, Testable Increments)

**Fix safety.** No fix.""",
    bad_example="### Increment 1\n\n`Acceptance`: `AC-001`",
    good_example="### Increment 1\n\n`Development Steps`: `DEV-001` `Acceptance`: `AC-001`",
    help="Give the increment `Development Steps` and `Acceptance` once each, with values.",
    no_fix_reason="The steps and conditions of an increment are planning decisions.",
)
def increment_fields_once(project):
    plan = load_plan(project)
    if plan is None:
        return
    for inc in plan.increments:
        for name in ("Development Steps", "Acceptance"):
            found = fields(inc.container, name)
            if len(found) == 1 and found[0].value.strip():
                continue
            where = (plan.path, found[1].span) if len(found) > 1 else inc.container.heading
            yield report(where, f"Increment {inc.number} needs `{name}` exactly once with a value.")


@rule(
    code="SL823",
    name="increment-steps-format",
    section="Testable Increments",
    owner="record",
    summary="An increment's `Development Steps` must list DEV-NNN IDs separated by commas.",
    explanation="""**What it does.** Checks that an increment's `Development Steps` is a
comma-separated list of `DEV-NNN` identifiers (and reports it when the field is unusable).

**Why.** Increments name "their `Development Steps`" so that the checkpoint gate can
require "all implementation steps and dependencies needed for that outcome" to be `DONE`.
(PROTOCOL.md, Testable Increments; Checkpoint Handoffs)

**Fix safety.** No fix.""",
    bad_example="`Development Steps`: `the endpoint`",
    good_example="`Development Steps`: `DEV-001, DEV-002`",
    help="List the increment's steps as DEV-NNN IDs separated by commas.",
    no_fix_reason="Which steps belong to the increment is a planning decision.",
)
def increment_steps_format(project):
    plan = load_plan(project)
    if plan is None:
        return
    for inc in plan.increments:
        ids = inc.steps
        if ids and all(DEV_ID_RE.match(i) for i in ids):
            continue
        where = (plan.path, inc.steps_field.value_span) if inc.steps_field is not None else inc.container.heading
        yield report(where, f"Increment {inc.number}: `Development Steps` must name one or more DEV-NNN identifiers separated by commas.")


@rule(
    code="SL824",
    name="increment-acceptance-format",
    section="Testable Increments",
    owner="record",
    summary="An increment's `Acceptance` must list AC-NNN IDs separated by commas.",
    explanation="""**What it does.** Checks that an increment's `Acceptance` is a
comma-separated list of `AC-NNN` identifiers (and reports it when the field is unusable).

**Why.** An increment is "usually one AC or a small group of dependent ACs"; increment
references name acceptance conditions "without redefining them". (PROTOCOL.md, Testable
Increments)

**Fix safety.** No fix.""",
    bad_example="`Acceptance`: `search works`",
    good_example="`Acceptance`: `AC-001, AC-004`",
    help="List the increment's conditions as AC-NNN IDs separated by commas.",
    no_fix_reason="Which conditions the increment covers is a planning decision.",
)
def increment_acceptance_format(project):
    plan = load_plan(project)
    if plan is None:
        return
    for inc in plan.increments:
        f = inc.acceptance_field
        ids = [s.strip() for s in f.value.split(",") if s.strip()] if f is not None else []
        if ids and all(AC_ID_RE.match(i) for i in ids):
            continue
        where = (plan.path, f.value_span) if f is not None else inc.container.heading
        yield report(where, f"Increment {inc.number}: `Acceptance` must name one or more AC-NNN identifiers separated by commas.")


@rule(
    code="SL825",
    name="increment-ready-outcome",
    section="Testable Increments",
    owner="record",
    summary="Each increment needs a nonempty **Ready Outcome**.",
    explanation="""**What it does.** Reports an `### Increment N` entry without a
`**Ready Outcome**` paragraph, or with an empty one.

**Why.** Increments carry "their `Development Steps`, `Acceptance`, and concrete
`Ready Outcome`" — the observable outcome Tester assesses. (PROTOCOL.md, Testable
Increments)

**Fix safety.** No fix.""",
    bad_example="### Increment 1\n\n`Development Steps`: `DEV-001` `Acceptance`: `AC-001`",
    good_example="### Increment 1\n\n`Development Steps`: `DEV-001` `Acceptance`: `AC-001`\n\n**Ready Outcome**\n\nSearch endpoint returns matches.",
    help="Write the increment's **Ready Outcome**.",
    no_fix_reason="The outcome is the Developer's to describe.",
)
def increment_ready_outcome(project):
    plan = load_plan(project)
    if plan is None:
        return
    for inc in plan.increments:
        body = labelled_block(plan.doc, inc.container, "Ready Outcome")
        if not body:
            yield report(inc.container.heading, f"Increment {inc.number} needs a nonempty **Ready Outcome**.")


@rule(
    code="SL826",
    name="increment-unknown-step",
    section="Testable Increments",
    owner="record",
    summary="An increment's `Development Steps` must name steps of the plan.",
    explanation="""**What it does.** Reports a `DEV-NNN` in an increment's `Development
Steps` that is not a step of the plan.

**Why.** An increment "may require several `DEV-NNN` steps"; the checkpoint gate needs
them and their dependencies `DONE` (PROTOCOL.md, Testable Increments; Checkpoint
Handoffs). A step that does not exist cannot be.

**Fix safety.** No fix.""",
    bad_example="`Development Steps`: `DEV-009`",
    good_example="`Development Steps`: `DEV-001`",
    help="Name only steps of this plan in `Development Steps`.",
    no_fix_reason="Whether the step is missing or the ID is a typo is the Developer's call.",
)
def increment_unknown_step(project):
    plan = load_plan(project)
    if plan is None:
        return
    ids = {s.id for s in plan.steps}
    for inc in plan.increments:
        for sid in inc.steps:
            if DEV_ID_RE.match(sid) and sid not in ids:
                yield report((plan.path, inc.steps_field.value_span), f"Increment {inc.number} names {sid}, which is not a step of this plan.")


# ---------------------------------------------------------------------------
# Developer checkpoint gate (TESTING after CHECKPOINT from DEVELOPING)
# ---------------------------------------------------------------------------


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
    n = developer_checkpoint(project)
    if n is None:
        return
    plan = load_plan(project)
    if plan is not None and plan.cadence == "INCREMENTAL" and plan.current == str(n):
        return
    if plan is not None:
        f = one_field(plan.header, "Current Increment") or one_field(plan.header, "Verification Cadence")
        where = (plan.path, f.value_span) if f is not None else (plan.path, header_anchor(plan.doc))
    else:
        where = plan_path(project)
        if where is None:
            return
    yield report(where, f"The checkpoint hands off Increment {n}, so the plan needs `Verification Cadence`: `INCREMENTAL` and `Current Increment`: `{n}`.")


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
    n = any_checkpoint(project)
    if n is None:
        return
    plan = load_plan(project)
    if plan is not None and plan.increment(n) is not None:
        return
    path = plan_path(project) if plan is None else plan.path
    if path is None:
        return
    yield report(path if plan is None else (path, header_anchor(plan.doc)), f"The checkpoint hands off Increment {n}, which has no definition in the development plan.")


@rule(
    code="SL833",
    name="checkpoint-steps-done",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A checkpoint's increment steps and their dependencies must be DONE.",
    explanation="""**What it does.** After a `CHECKPOINT` from `DEVELOPING` naming
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
    n = developer_checkpoint(project)
    if n is None:
        return
    plan = load_plan(project)
    if plan is None:
        return
    inc = plan.increment(n)
    if inc is None:
        return
    for s in plan.closure(inc.steps):
        if not s.done:
            where = (plan.path, s.status_field.value_span) if s.status_field is not None else s.container.heading
            yield report(where, f"Checkpoint Increment {n} needs {s.id} and its dependencies DONE; {s.id} is not.")


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
    n = developer_checkpoint(project)
    if n is None:
        return
    plan = load_plan(project)
    if plan is None:
        return
    inc = plan.increment(n)
    if inc is None:
        return
    for s in plan.closure(inc.steps):
        if not s.self_check():
            yield report(s.container.heading, f"{s.id} needs persisted **Self-Check** evidence before a checkpoint.")


standards_lint_rules = module_rules(globals())
