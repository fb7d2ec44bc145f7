"""Tests of rules/reviews.py (SL960-SL999)."""

from .test_required_records import CID, FINAL, IMPL, VER, record, state

CLOSURE = """## Implementation-Reviewed Closure

`Policy`: `IMPLEMENTATION_REVIEWED`
`Eligibility`: `{elig}`
`User Choice`: `User asked for completion after implementation review.`
`User Reason`: `NONE`
`Assessed Inputs`: `{inputs}`
`Evidence`: `AC-001: tests passed.`
`Unmet Requirements`: `{unmet}`
`Omitted Phases`: `DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING`
`Omitted Guarantees`: `Normal tail omitted.`
"""
SIGNOFF = state("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", frm="REVIEWING_IMPLEMENTATION")


def closure(elig="ELIGIBLE", inputs="Current scope and tests.", unmet="NONE"):
    return CLOSURE.format(elig=elig, inputs=inputs, unmet=unmet)


def impl(extra=""):
    return record("REVIEW", "COMPLETE", "IMPLEMENTATION") + "\n" + extra


def of(findings, code):
    return [f for f in findings if f.code == code]


def files(impl_text):
    return {VER: record("VERIFICATION", "COMPLETE"), IMPL: impl_text}


def test_sl960_missing_closure_at_signoff(lint_tree):
    found = of(lint_tree(files(impl()), state=SIGNOFF), "SL960")
    assert [(f.path, f.line) for f in found] == [(IMPL, 7)]


def test_sl960_silent_with_closure(lint_tree):
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL960") == []


def test_sl960_silent_for_full_deliverable(lint_tree):
    st = state("REVIEWING_FINAL", frm="DOCUMENTING")
    assert of(lint_tree(files(impl()), state=st), "SL960") == []


def test_sl961_not_eligible_at_signoff(lint_tree):
    found = of(lint_tree(files(impl(closure(elig="NOT_ASSESSED"))), state=SIGNOFF), "SL961")
    assert [(f.path, f.line) for f in found] == [(IMPL, 18)]
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL961") == []


def test_sl962_field_repeated(lint_tree):
    text = impl(closure().replace("`Policy`: `IMPLEMENTATION_REVIEWED`", "`Policy`: `IMPLEMENTATION_REVIEWED` `Policy`: `X`"))
    found = of(lint_tree(files(text), state=SIGNOFF), "SL962")
    assert [(f.path, f.line) for f in found] == [(IMPL, 17)]
    assert "Policy" in found[0].message
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL962") == []


def test_sl963_eligible_needs_inputs(lint_tree):
    found = of(lint_tree(files(impl(closure(inputs="NONE", unmet="Docs remain."))), state=SIGNOFF), "SL963")
    assert sorted((f.path, f.line) for f in found) == [(IMPL, 21), (IMPL, 23)]
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL963") == []


def test_sl964_closure_in_final_review(lint_tree):
    fs = files(impl(closure()))
    fs[FINAL] = record("REVIEW", "COMPLETE", "FINAL_DELIVERABLE") + "\n" + closure()
    found = of(lint_tree(fs, state=SIGNOFF), "SL964")
    assert [(f.path, f.line) for f in found] == [(FINAL, 15)]


def test_sl964_silent_in_implementation_report(lint_tree):
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL964") == []


def test_sl965_repeated_section(lint_tree):
    found = of(lint_tree(files(impl(closure() + "\n" + closure())), state=SIGNOFF), "SL965")
    assert [(f.path, f.line) for f in found] == [(IMPL, 27)]
    assert of(lint_tree(files(impl(closure())), state=SIGNOFF), "SL965") == []


def test_sl966_ineligible_needs_unmet_requirements(lint_tree):
    found = of(lint_tree(files(impl(closure(elig="INELIGIBLE"))), state=SIGNOFF), "SL966")
    assert [(f.path, f.line) for f in found] == [(IMPL, 23)]


def test_sl966_silent_when_unmet_named(lint_tree):
    text = impl(closure(elig="INELIGIBLE", unmet="Documenter must supply evidence for AC-002."))
    assert of(lint_tree(files(text), state=SIGNOFF), "SL966") == []
