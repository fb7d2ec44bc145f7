"""The verification increments of the development plan (PROTOCOL.md, Testable
Increments): numbered once each, with their fields, steps, acceptance IDs and
ready outcome."""

from __future__ import annotations

from standards_lint.model.plan import AC_ID_RE, DEV_ID_RE, fields_not_once, labelled_block, load_plan, plan_entries
from standards_lint.fixes.plan import increment_heading_fix
from standards_lint.engine.rule import module_rules, report, rule


@rule(
    code="SL820",
    name="increment-numbering",
    section="Testable Increments",
    owner="record",
    summary="`### Increment N` entries must be numbered 1, 2, 3, ... in order.",
    explanation="""**What it does.** Reports an `### Increment N` entry whose number is not
its position under `## Verification Increments`, and an entry headed otherwise than
exactly `### Increment N` (indented, or more than one space after the hashes:
`###  Increment 1`), which the framework does not read as that increment. Such an
entry is still read for its own fields, but it defines no increment: a checkpoint,
`Current Increment` or assessment naming it is reported (SL804, SL859, SL860).

**Why.**
> The existing development plan holds ordered `### Increment N` entries, starting at 1
> [...] Preserve existing numbers; append new entries rather than renumbering assessed
> increments. (PROTOCOL.md, Testable Increments)

**Fix safety.** Sometimes (safe): a misheaded entry is written `### Increment N`, a
heading's spelling (SL804, SL859 and SL860 carry the same fix). Otherwise no fix:
renumbering assessed increments is itself forbidden.""",
    fix="sometimes",
    bad_example="### Increment 1\n...\n### Increment 3",
    good_example="### Increment 1\n...\n### Increment 2",
    help="Number the `### Increment N` entries 1, 2, 3, ... in order.",
    no_fix_reason="Renumbering assessed increments is itself forbidden.",
)
def increment_numbering(project):
    plan = load_plan(project)
    if plan is None:
        return
    for inc in plan.increments:
        if inc.misheaded:
            written = plan.doc.text[inc.container.heading.span.start:inc.container.heading.span.end].strip()
            yield report(
                inc.container.heading,
                f"`{written}` is not headed exactly `### Increment {inc.number}`, so it is not read as an "
                "increment's definition; increments are numbered 1, 2, 3, ... in order.",
                increment_heading_fix(plan, inc.number),
            )
    for pos, inc in enumerate(plan.defined_increments, 1):
        if inc.number != pos:
            yield report(
                inc.container.heading,
                f"Increment {inc.number} is entry {pos}; increments must be numbered 1, 2, 3, ... in order.",
                increment_heading_fix(plan),
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
    seen: set[int] = set()
    for _plan, inc in plan_entries(project, "increments"):
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
    for plan, inc in plan_entries(project, "increments"):
        for name, found in fields_not_once(inc.container, ("Development Steps", "Acceptance")):
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
    yield from _id_list_format(project, "Development Steps", lambda inc: (inc.steps_field, inc.steps), DEV_ID_RE, "DEV-NNN")


def _id_list_format(project, name: str, listed, id_re, form: str):
    """A finding at each increment whose field *name* (*listed*: the
    increment's field and the IDs it lists) is not a comma-separated list of
    one or more *form* identifiers, or is unusable."""
    for _plan, inc in plan_entries(project, "increments"):
        f, ids = listed(inc)
        if ids and all(id_re.match(i) for i in ids):
            continue
        yield report(inc.at(f), f"Increment {inc.number}: `{name}` must name one or more {form} identifiers separated by commas.")


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
    yield from _id_list_format(project, "Acceptance", lambda inc: (inc.acceptance_field, inc.acceptance), AC_ID_RE, "AC-NNN")


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
    for plan, inc in plan_entries(project, "increments"):
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
    for plan, inc in plan_entries(project, "increments"):
        for sid in plan.unknown_steps(inc.steps):
            if DEV_ID_RE.match(sid):
                yield report(inc.at(inc.steps_field), f"Increment {inc.number} names {sid}, which is not a step of this plan.")


standards_lint_rules = module_rules(globals())
