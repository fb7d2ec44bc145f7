"""The Handoff values of `.standards/STATE.md` (PROTOCOL.md, Workflow State
Reference): `Kind`, `From` and `FailureType` each one of the protocol's
words, each field once."""

from __future__ import annotations

from standards_lint.engine.findings import Edit, Fix
from standards_lint.fixes.spelling import meant_value
from standards_lint.fixes.state import keep_determined_fix, remove_field_span
from standards_lint.model.state_values import (
    STATE_PATH,
    determined_from,
    determined_value,
    state_fields,
    state_model,
    state_value,
)
from standards_lint.syntax.protocol import FAILURE_TYPES, HANDOFF_KINDS, WORKFLOW_STATES
from standards_lint.engine.rule import module_rules, replace, report, rule, trim_fix
from standards_lint.syntax.state import HANDOFF_FIELDS
from standards_lint.fixes.reveals import REVEALS


def _handoff_values(st, name: str):
    ho = st.section("Handoff")
    for f in state_fields(st, ho, name):
        if f.value.strip():
            yield f


@rule(
    code="SL220",
    reveals=REVEALS["SL220"],
    name="handoff-kind-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.Kind is one of the protocol's handoff kinds.",
    explanation="""
**What it does.** Checks that `Handoff.Kind` is one of `INITIAL`, `FORWARD`,
`CHECKPOINT`, `FAILURE`, `RESUME`, `PROMOTE`, `USER_REWORK`, `NEW_CYCLE`,
`SIGNOFF`, `CANCEL`, `COMPLETION_CHANGE`.

**Why.** PROTOCOL.md, Workflow State Reference, Handoff: "`Handoff.Kind` is
one of `INITIAL`, `FORWARD`, `CHECKPOINT`, `FAILURE`, `RESUME`, `PROMOTE`,
`USER_REWORK`, `NEW_CYCLE`, `SIGNOFF`, `CANCEL`, or `COMPLETION_CHANGE`."

**Fix safety.** Sometimes. A value written with spaces inside its backticks (`` `FORWARD ` ``) that is allowed once trimmed is trimmed (safe: the text is the one written). A value that is one kind misspelt (letter case,
spaces or hyphens for underscores, one typo) is respelt (unsafe: the user
confirms the transition). Otherwise no fix: the kind records which transition
happened.
""",
    fix="sometimes",
    bad_example="`Kind`: `NEW CYCLE`",
    good_example="`Kind`: `NEW_CYCLE`",
    help="Set `Handoff.Kind` to the kind of the last transition (INITIAL, NEW_CYCLE, FORWARD, FAILURE, USER_REWORK, RESUME, CHECKPOINT, PROMOTE or COMPLETION_CHANGE).",
    no_fix_reason="Unless the value is one kind misspelt, the kind records which transition happened.",
)
def handoff_kind_unknown(project):
    kinds = project.release.handoff_kinds
    yield from _handoff_value_not_in(project, "Kind", kinds, "Handoff.Kind `{value}` is not a handoff kind; "
                                     f"use one of {', '.join(kinds)}.",
                                     lambda st, f: meant_value(STATE_PATH, f, kinds))


@rule(
    code="SL221",
    name="handoff-from-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.From is a workflow state or NONE.",
    explanation="""
**What it does.** Checks that `Handoff.From` is a workflow state or `NONE`.

**Why.** PROTOCOL.md, Handoff Rules and Workflow State Reference: the handoff
"records the source state in `From`", and "Use `NONE` for inapplicable
fields".

**Fix safety.** Sometimes. A value written with spaces inside its backticks (`` `SCOPING ` ``) that is allowed once trimmed is trimmed (safe: the text is the one written). Otherwise unsafe: when the handoff's kind and
`WorkflowState` determine the source -- `INITIAL` from `NONE`, `SIGNOFF` from
`AWAITING_USER_SIGNOFF`, a STANDARD `CHECKPOINT` from the other side of the
Developer/Tester exchange, a `FORWARD` (without recovery frames) from the one
state before `WorkflowState` on the cycle's route -- `From` is set to it.
Unsafe: the kind or the state may be the wrong field. Otherwise a value that
is one state misspelt is respelt (unsafe). Otherwise no fix: the source state
is a fact of the last transition.
""",
    fix="sometimes",
    bad_example="`From`: `REVIEWING FINAL`",
    good_example="`From`: `REVIEWING_FINAL`",
    help="Set `Handoff.From` to the state the last transition left (or `NONE` for INITIAL).",
    no_fix_reason="Unless the handoff's kind and route determine it, the source state is a fact of the last transition.",
)
def handoff_from_unknown(project):
    def fix(st, f):
        if len(state_fields(st, st.section("Handoff"), "From")) != 1:
            return None
        want = determined_from(project, st)
        if want is None:
            return meant_value(STATE_PATH, f, ("NONE",) + WORKFLOW_STATES)
        return replace(STATE_PATH, f.value_span, want, safe=False,
                       description=f"Set Handoff.From to `{want}`, the state the handoff's route determines")

    yield from _handoff_value_not_in(project, "From", ("NONE",) + WORKFLOW_STATES,
                                     "Handoff.From `{value}` is not a workflow state (or NONE).", fix)


def _handoff_value_not_in(project, name: str, allowed, message: str, fix=None):
    """A finding at each `Handoff.<name>` value outside `allowed`;
    ``fix(st, field)`` makes its fix, after the trim of an allowed value
    written with spaces inside its backticks (safe, the text is determined)."""
    st = state_model(project)
    if st is None:
        return
    for f in _handoff_values(st, name):
        if f.value not in allowed:
            yield report((STATE_PATH, f.value_span), message.format(value=f.value),
                         trim_fix(STATE_PATH, f, allowed) or (fix(st, f) if fix is not None else None))


@rule(
    code="SL222",
    name="handoff-failure-type-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.FailureType is a failure type or NONE.",
    explanation="""
**What it does.** Checks that `Handoff.FailureType` is one of the failure
types (`SCOPING`, `ARCHITECTURE`, `PROJECT_CONTEXT`, `IMPLEMENTATION`,
`VERIFICATION`, `DOCUMENTATION`, `REVIEW`, `SYNCHRONIZATION`) or `NONE`.

**Why.** PROTOCOL.md, Failure Types lists the types; Workflow State Reference:
"Use `NONE` for inapplicable fields."

**Fix safety.** Sometimes. A value written with spaces inside its backticks (`` `NONE ` ``) that is allowed once trimmed is trimmed (safe: the text is the one written). Otherwise unsafe: a handoff kind other than `FAILURE` and
`USER_REWORK` routes no failure, so its `FailureType` is set to `NONE`; for
those two, a value that is one type misspelt is respelt. Unsafe: the kind may
be the wrong field. Otherwise no fix: the type decides who owns the
correction.
""",
    fix="sometimes",
    bad_example="`FailureType`: `TODO`",
    good_example="`FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to the failure type being routed, or `NONE`.",
    no_fix_reason="Unless the handoff kind routes no failure or the value is one type misspelt, the type decides who owns the correction.",
)
def handoff_failure_type_unknown(project):
    def fix(st, f):
        kind = state_value(st, st.section("Handoff"), "Kind")
        if len(state_fields(st, st.section("Handoff"), "FailureType")) == 1 and determined_value(
                st, "Handoff", "FailureType") == "NONE" and kind is not None:
            return replace(STATE_PATH, f.value_span, "NONE", safe=False,
                           description=f"Set Handoff.FailureType to `NONE`: a {kind} handoff routes no failure")
        return meant_value(STATE_PATH, f, ("NONE",) + FAILURE_TYPES)

    yield from _handoff_value_not_in(project, "FailureType", ("NONE",) + FAILURE_TYPES,
                                     "Handoff.FailureType `{value}` is not a failure type (or NONE).", fix)


@rule(
    code="SL223",
    name="handoff-field-repeated",
    section="Workflow State Reference",
    owner="state",
    summary="Each Handoff field occurs once.",
    explanation="""
**What it does.** Checks that `Kind`, `From`, `FailureType` and `Reason` each
occur at most once in `## Handoff` (a missing one is SL202).

**Why.** PROTOCOL.md, Workflow State Reference, Handoff: "`Reason` describes
only the latest transition", and the handoff records one transition: one kind,
one source state, one failure type. Two `Kind` values leave the last
transition ambiguous; every rule that routes by the handoff reads the first
one, as the framework's checker does.

**Fix safety.** Safe when the copies hold the same value (the repeat is
removed). For `From` copies that differ, when the handoff's kind and
`WorkflowState` determine the source (as for SL221) and one copy holds it,
the other copies are removed (unsafe). Otherwise no fix.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`Kind`: `INITIAL` `Kind`: `CHECKPOINT` `From`: `NONE`",
    good_example="`Kind`: `INITIAL` `From`: `NONE`",
    help="Keep each Handoff field once, with the value of the last transition.",
    no_fix_reason="The copies hold different values; which one the last transition wrote is not known.",
)
def handoff_field_repeated(project):
    st = state_model(project)
    if st is None:
        return
    ho = st.section("Handoff")
    text = st.doc.text
    for name in HANDOFF_FIELDS:
        found = state_fields(st, ho, name)
        if len(found) < 2:
            continue
        fix = None
        if len({f.value for f in found}) == 1:
            fix = Fix(tuple(Edit(STATE_PATH, *remove_field_span(text, f), "") for f in found[1:]), "safe",
                      f"Remove the repeated `{name}`")
        elif name == "From":
            fix = keep_determined_fix(text, found, determined_from(project, st))
        shown = ", ".join(f"`{v}`" for v in dict.fromkeys(f.value for f in found))
        yield report(found[1], f"Handoff.{name} occurs {len(found)} times ({shown}); it must occur once.", fix=fix)


standards_lint_rules = module_rules(globals())
