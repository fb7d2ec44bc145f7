"""Rules on the header of the active cycle's development plan
(``.standards/docs/development/<cycle>.md``): plan status, verification
cadence and current increment (PROTOCOL.md: Verification Cadence, Testable
Increments, Full Verification Boundary; skills/developer/template.md).

The plan's steps, increments and the Developer checkpoint gate are checked in
``plan_steps``, ``plan_increments`` and ``plan_checkpoints``; the plan itself
is read by :mod:`standards_lint.model.plan`.
"""

from __future__ import annotations

from typing import Optional

from standards_lint.engine.findings import Edit, Fix
from standards_lint.engine.rule import module_rules, replace, report, rule, trim_fix
from standards_lint.model.plan import (
    PLAN_CADENCES,
    PLAN_STATUSES,
    POSITIVE_RE,
    field_anchor,
    fields,
    load_plan,
    one_field,
)
from standards_lint.fixes.plan import header_fields_once, increment_heading_fix
from standards_lint.fixes.reveals import REVEALS


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
    reveals=REVEALS["SL800"],
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

Step states (`DONE`, `PENDING`) or report states (`BLOCKED`) are not plan states, nor is
a state written with spaces inside its backticks (`` `COMPLETE ` ``): the value is the
text between the backticks.

**Fix safety.** Sometimes (safe): a value written with spaces inside its backticks (`` `COMPLETE ` ``) that is allowed once trimmed is trimmed; the text is the one written. Otherwise no fix: which state the plan is in is the Developer's judgement.""",
    fix="sometimes",
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
    `allowed` (the allowed values, or a predicate; silent when the field is
    missing or repeated)."""
    plan = load_plan(project)
    if plan is None:
        return
    f = one_field(plan.header, name)
    if f is not None and not (allowed(f.value) if callable(allowed) else f.value in allowed):
        yield report((plan.path, f.value_span), message.format(value=f.value), trim_fix(plan.path, f, allowed))


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

**Fix safety.** Sometimes (safe): a value written with spaces inside its backticks (`` `INCREMENTAL ` ``) that is allowed once trimmed is trimmed; the text is the one written. Otherwise no fix: the cadence is a user decision.""",
    fix="sometimes",
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

**Fix safety.** Sometimes (safe): a value written with spaces inside its backticks (`` `NONE ` ``) that is allowed once trimmed is trimmed; the text is the one written. Otherwise no fix.""",
    fix="sometimes",
    bad_example="`Current Increment`: `none`",
    good_example="`Current Increment`: `NONE`",
    help="Set `Current Increment` to `NONE` or the number of the increment in progress.",
    no_fix_reason="Which increment is in progress is the Developer's record.",
)
def current_increment_value(project):
    yield from _header_value_in(
        project, "Current Increment", lambda v: v == "NONE" or POSITIVE_RE.match(v),
        "`Current Increment` is `{value}`; it must be NONE or a positive increment number.",
    )


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
same fix). Its entry headed otherwise than `### Increment N` carries SL820's heading
fix (safe). Otherwise no fix: whether the entry or the number is wrong is the
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
    f = _current_increment_named(plan) if plan is not None else None
    if f is None:
        return
    v = f.value
    if POSITIVE_RE.match(v) and plan.increment(int(v)) is not None:
        return
    # The cadence or a COMPLETE plan fixes the value NONE outright (SL805, SL806).
    fix = None
    if (plan.cadence == "AFTER_IMPLEMENTATION" or plan.status == "COMPLETE") and not plan.doc.conflicts:
        fix = _current_increment_none_fix(plan)
    elif POSITIVE_RE.match(v):
        fix = increment_heading_fix(plan, int(v))  # its entry is there, misheaded (SL820)
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


def _current_increment_named(plan):
    """The plan header's one `Current Increment` when it names an increment
    (is not NONE); None when it is NONE, missing, repeated or empty."""
    f = one_field(plan.header, "Current Increment")
    return f if f is not None and f.value != "NONE" else None


def _current_increment_must_be_none(plan, because: str):
    f = _current_increment_named(plan)
    if f is None:
        return
    yield report(
        (plan.path, f.value_span),
        f"{because}, so `Current Increment` must be `NONE`, not `{f.value}`.",
        fix=_current_increment_none_fix(plan),
    )


def _current_increment_none_fix(plan) -> Optional[Fix]:
    """Set the plan's one `Current Increment` to NONE."""
    f = _current_increment_named(plan)
    if f is None:
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


standards_lint_rules = module_rules(globals())
