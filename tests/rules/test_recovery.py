"""Tests of rules/recovery.py (SL501-SL522)."""

from __future__ import annotations

import pytest

from standards_lint.engine.run import load_registry

from .conftest import CLEAN_STATE

STATE = ".standards/STATE.md"

HEADER = """# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `add-user-search-20260923T150000Z-a7f3c2e9` `Request`: `Add user search.`
`Scope`: `NONE` `Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `ARCHITECTURE` `Reason`: `A defect.`

## Recovery

`Active`: `{active}`
{frames}
## Outstanding Obligations

`Active`: `{ob_active}`
{obligations}"""


def frame(n, frm, owner, ft, resume, rerun, reason="A defect.", heading=None):
    head = heading or f"Frame {n}"
    reason_field = f"`Reason`: `{reason}` " if reason is not None else ""
    rerun_field = f" `RerunThrough`: `{rerun}`" if rerun is not None else ""
    return (
        f"\n### {head}\n\n`From`: `{frm}` `Owner`: `{owner}` `FailureType`: `{ft}`\n"
        f"{reason_field}`ResumeAt`: `{resume}`{rerun_field}\n"
    )


def obligation(n, owner="TESTING", ft="VERIFICATION", reason="The retry test asserts the old limit.", heading=None):
    head = heading or f"Obligation {n}"
    reason_field = f" `Reason`: `{reason}`" if reason is not None else ""
    return f"\n### {head}\n\n`Owner`: `{owner}` `FailureType`: `{ft}`{reason_field}\n"


def state(*frames_, ws="ARCHITECTING", mode="STANDARD", policy="FULL_DELIVERABLE", active=None, obligations=(), ob_active=None):
    if active is None:
        active = "true" if frames_ else "false"
    if ob_active is None:
        ob_active = "true" if obligations else "false"
    return HEADER.format(
        ws=ws,
        mode=mode,
        policy=policy,
        active=active,
        frames="".join(frames_),
        ob_active=ob_active,
        obligations="".join(obligations),
    )


# A correct STANDARD frame: architecture defect found in testing, being corrected.
GOOD = frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "NONE")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    count = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            count += 1
            if count == nth:
                return number
    raise AssertionError(f"{needle!r} not in text")


@pytest.fixture
def run(lint_tree):
    def go(text, code):
        return [f for f in lint_tree({}, state=text) if f.code == code]

    return go


def only(findings):
    assert len(findings) == 1, findings
    return findings[0]


def reported_at(findings, text, needle):
    """The one finding of *findings*, on STATE.md's line holding *needle*."""
    f = only(findings)
    assert (f.path, f.line) == (STATE, line_of(text, needle))
    return f


# -- registry -------------------------------------------------------------------
def test_rules_are_declared_with_docs():
    reg = load_registry()
    mine = [r for r in reg.rules if r.code.startswith("SL5") and r.code < "SL530"]
    codes = sorted(r.code for r in mine)
    assert codes == [
        "SL501", "SL502", "SL503", "SL504", "SL505", "SL506", "SL507", "SL508",
        "SL510", "SL511", "SL512", "SL513", "SL514", "SL515", "SL516",
        "SL520", "SL521", "SL522",
    ]
    for r in mine:
        assert "**What it does.**" in r.explanation and "**Why.**" in r.explanation and "**Fix safety.**" in r.explanation
        assert r.bad_example and r.good_example


def test_clean_states_have_no_recovery_findings(lint_tree):
    for text in (CLEAN_STATE, state(GOOD), state(frame(1, "REVIEWING_FINAL", "AUDITING", "PROJECT_CONTEXT", "REVIEWING_FINAL", "DOCUMENTING"), ws="ARCHITECTING", mode="DOCUMENTATION", policy="NONE")):
        assert [f for f in lint_tree({}, state=text) if f.code.startswith("SL5") and f.code < "SL530"] == []


# -- SL501 / SL502 ----------------------------------------------------------------
def test_recovery_active_false_with_frame(run):
    text = state(GOOD, active="false")
    f = reported_at(run(text, "SL501"), text, "`Active`: `false`")
    assert "1 frame" in f.message
    assert f.fix is not None and f.fix.applicability == "safe"
    edit = f.fix.edits[0]
    assert text[edit.start:edit.end] == "false" and edit.replacement == "true"


def test_recovery_active_true_without_frames(run):
    text = state(active="true")
    f = reported_at(run(text, "SL501"), text, "`Active`: `true`")
    assert f.fix.edits[0].replacement == "false"


def test_recovery_active_consistent_or_invalid_is_silent(run):
    assert run(state(GOOD), "SL501") == []
    assert run(state(GOOD, active="maybe"), "SL501") == []  # state_structure's


def test_obligations_active_mismatch(run):
    text = state(ob_active="true")
    f = reported_at(run(text, "SL502"), text, "`Active`: `true`")
    assert f.fix.edits[0].replacement == "false"
    assert run(state(obligations=[obligation(1)]), "SL502") == []


# -- SL503 / SL521 numbering ------------------------------------------------------
def test_frame_numbering_gap(run):
    text = state(frame(2, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "NONE"))
    f = reported_at(run(text, "SL503"), text, "### Frame 2")
    assert "`Frame 2` in position 1" in f.message
    assert f.fix.applicability == "safe"
    assert [e.replacement for e in f.fix.edits] == ["### Frame 1"]


def test_frame_heading_with_extra_text_has_unsafe_fix(run):
    text = state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "NONE", heading="Frame 1 (design)"))
    f = only(run(text, "SL503"))
    assert f.fix.applicability == "unsafe"


def test_frame_heading_with_a_closing_sequence_is_not_exactly_frame_n(run):
    # CommonMark drops the closing `###`; the framework reads `Frame 2 ###`
    # ("each headed exactly `### Frame N`", unseen4-0942). The safe fix drops it.
    second = frame(2, "ARCHITECTING", "SCOPING", "SCOPING", "ARCHITECTING", "NONE", heading="Frame 2 ###")
    text = state(GOOD, second, ws="SCOPING")
    f = reported_at(run(text, "SL503"), text, "### Frame 2 ###")
    assert "`Frame 2 ###` in position 2" in f.message
    assert f.fix.applicability == "safe" and [e.replacement for e in f.fix.edits] == ["### Frame 2"]


def test_frame_numbering_in_order_is_silent(run):
    second = frame(2, "ARCHITECTING", "SCOPING", "SCOPING", "ARCHITECTING", "NONE")
    assert run(state(GOOD, second, ws="SCOPING"), "SL503") == []


def test_obligation_numbering(run):
    text = state(obligations=[obligation(1), obligation(3)])
    reported_at(run(text, "SL521"), text, "### Obligation 3")
    assert run(state(obligations=[obligation(1), obligation(2)]), "SL521") == []


# -- SL504 fields -----------------------------------------------------------------
def test_frame_field_values(run):
    text = state(frame(1, "TESTING", "ARCHITECTING", "BOGUS", "TESTING", "NOWHERE"))
    found = run(text, "SL504")
    assert sorted(f.message.split(":")[1].strip().split(" ")[0] for f in found) == ["`FailureType`", "`RerunThrough`"]
    assert {f.line for f in found} == {line_of(text, "`FailureType`: `BOGUS`"), line_of(text, "`RerunThrough`: `NOWHERE`")}


def test_frame_missing_reason_and_rerun(run):
    text = state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", None, reason=None))
    found = run(text, "SL504")
    assert len(found) == 2
    assert {f.line for f in found} == {line_of(text, "### Frame 1")}


def test_frame_fields_valid_is_silent(run):
    assert run(state(GOOD), "SL504") == []


# -- SL505 / SL506 / SL507 --------------------------------------------------------
def test_resume_at_must_be_from(run):
    text = state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "DEVELOPING", "NONE"))
    f = reported_at(run(text, "SL505"), text, "`ResumeAt`: `DEVELOPING`")
    assert "TESTING" in f.message
    assert run(state(GOOD), "SL505") == []


def test_owner_must_own_failure_type(run):
    text = state(frame(1, "TESTING", "DEVELOPING", "ARCHITECTURE", "TESTING", "NONE"), ws="DEVELOPING")
    f = reported_at(run(text, "SL506"), text, "`Owner`: `DEVELOPING`")
    assert "belongs to ARCHITECTING, not DEVELOPING" in f.message
    review = frame(1, "TESTING", "REVIEWING_FINAL", "REVIEW", "TESTING", "NONE")
    assert run(state(review, ws="REVIEWING_FINAL"), "SL506") == []


def test_active_frame_being_corrected_pins_workflow_state(run):
    text = state(GOOD, ws="DEVELOPING")
    f = reported_at(run(text, "SL507"), text, "`WorkflowState`")
    assert "must be its Owner, ARCHITECTING" in f.message
    assert run(state(GOOD, ws="ARCHITECTING"), "SL507") == []


def test_only_the_last_frame_is_pinned(run):
    outer = frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "NONE")
    inner = frame(2, "ARCHITECTING", "SCOPING", "SCOPING", "ARCHITECTING", "NONE")
    assert run(state(outer, inner, ws="SCOPING"), "SL507") == []
    rerun = frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "DEVELOPING")
    assert run(state(rerun, ws="DEVELOPING"), "SL507") == []


# -- SL508 / SL522 obligations ----------------------------------------------------
def test_obligation_missing_reason(run):
    text = state(obligations=[obligation(1, reason=None)])
    f = reported_at(run(text, "SL508"), text, "### Obligation 1")
    assert "`Reason`" in f.message
    assert run(state(obligations=[obligation(1)]), "SL508") == []


def test_obligation_owner(run):
    text = state(obligations=[obligation(1, owner="DEVELOPING", ft="VERIFICATION")])
    reported_at(run(text, "SL522"), text, "`Owner`: `DEVELOPING`")
    assert run(state(obligations=[obligation(1)]), "SL522") == []


# -- DOCUMENTATION frames (SL510-SL515) -------------------------------------------
def doc_state(*frames_, ws="AUDITING"):
    return state(*frames_, ws=ws, mode="DOCUMENTATION", policy="NONE")


def test_documentation_from_and_resume_must_be_included(run):
    text = doc_state(frame(1, "TESTING", "AUDITING", "PROJECT_CONTEXT", "TESTING", "NONE"))
    found = run(text, "SL510")
    assert len(found) == 2
    assert {f.line for f in found} == {line_of(text, "`From`: `TESTING` `Owner`"), line_of(text, "`ResumeAt`: `TESTING`")}
    ok = frame(1, "REVIEWING_FINAL", "AUDITING", "PROJECT_CONTEXT", "REVIEWING_FINAL", "NONE")
    assert run(doc_state(ok), "SL510") == []
    # The same frame in STANDARD is not a DOCUMENTATION frame.
    assert run(state(frame(1, "TESTING", "AUDITING", "PROJECT_CONTEXT", "TESTING", "NONE"), ws="AUDITING"), "SL510") == []


def test_documentation_owner_must_be_included_role(run):
    text = doc_state(frame(1, "REVIEWING_FINAL", "DEVELOPING", "IMPLEMENTATION", "REVIEWING_FINAL", "NONE"), ws="DEVELOPING")
    reported_at(run(text, "SL511"), text, "`Owner`: `DEVELOPING`")
    ok = frame(1, "REVIEWING_FINAL", "DOCUMENTING", "DOCUMENTATION", "REVIEWING_FINAL", "NONE")
    assert run(doc_state(ok, ws="DOCUMENTING"), "SL511") == []


def test_documentation_failure_types_without_owner(run):
    text = doc_state(frame(1, "REVIEWING_FINAL", "DEVELOPING", "IMPLEMENTATION", "REVIEWING_FINAL", "NONE"), ws="DEVELOPING")
    reported_at(run(text, "SL512"), text, "`FailureType`: `IMPLEMENTATION`")
    review_impl = frame(1, "REVIEWING_FINAL", "REVIEWING_IMPLEMENTATION", "REVIEW", "REVIEWING_FINAL", "NONE")
    assert len(run(doc_state(review_impl, ws="REVIEWING_IMPLEMENTATION"), "SL512")) == 1
    review_final = frame(1, "AWAITING_USER_SIGNOFF", "REVIEWING_FINAL", "REVIEW", "AWAITING_USER_SIGNOFF", "NONE")
    assert run(doc_state(review_final, ws="REVIEWING_FINAL"), "SL512") == []


def test_documentation_rerun_through_downstream(run):
    text = doc_state(frame(1, "REVIEWING_FINAL", "AUDITING", "PROJECT_CONTEXT", "REVIEWING_FINAL", "AUDITING"))
    reported_at(run(text, "SL513"), text, "`RerunThrough`: `AUDITING`")
    signoff = frame(1, "REVIEWING_FINAL", "AUDITING", "PROJECT_CONTEXT", "REVIEWING_FINAL", "AWAITING_USER_SIGNOFF")
    assert len(run(doc_state(signoff), "SL513")) == 1
    ok = frame(1, "REVIEWING_FINAL", "AUDITING", "PROJECT_CONTEXT", "REVIEWING_FINAL", "DOCUMENTING")
    assert run(doc_state(ok, ws="SCOPING"), "SL513") == []


def test_documentation_same_state_frame(run):
    text = doc_state(frame(1, "AUDITING", "AUDITING", "PROJECT_CONTEXT", "AUDITING", "NONE"))
    reported_at(run(text, "SL514"), text, "`Owner`: `AUDITING`")
    assert run(doc_state(frame(1, "SCOPING", "AUDITING", "PROJECT_CONTEXT", "SCOPING", "NONE")), "SL514") == []


def test_same_state_frame_outside_documentation(run):
    text = state(frame(1, "TESTING", "TESTING", "VERIFICATION", "TESTING", "NONE"), ws="TESTING")
    reported_at(run(text, "SL520"), text, "`Owner`: `TESTING`")
    assert run(text, "SL514") == []
    assert run(state(GOOD), "SL520") == []


def test_documentation_rerun_range(run):
    fr = frame(1, "AWAITING_USER_SIGNOFF", "ARCHITECTING", "ARCHITECTURE", "AWAITING_USER_SIGNOFF", "SYNCHRONIZING")
    text = doc_state(fr, ws="SCOPING")
    f = reported_at(run(text, "SL515"), text, "`WorkflowState`")
    assert "between ARCHITECTING and SYNCHRONIZING" in f.message
    assert run(doc_state(fr, ws="DOCUMENTING"), "SL515") == []


# -- SL516 EXPEDITED --------------------------------------------------------------
def test_expedited_frame_outside_topology(run):
    text = state(frame(1, "DEVELOPING", "SCOPING", "SCOPING", "DEVELOPING", "NONE"), ws="SCOPING", mode="EXPEDITED", policy="NONE")
    reported_at(run(text, "SL516"), text, "`Owner`: `SCOPING`")
    ok = frame(1, "REVIEWING_IMPLEMENTATION", "DEVELOPING", "IMPLEMENTATION", "REVIEWING_IMPLEMENTATION", "NONE")
    assert run(state(ok, ws="DEVELOPING", mode="EXPEDITED", policy="NONE"), "SL516") == []


# -- robustness -------------------------------------------------------------------
def test_missing_sections_do_not_raise(lint_tree):
    text = "# S.T.A.N.D.A.R.D.S. Workflow State\n\n## Recovery\n\n### Frame 1\n\n`From`: `TESTING`\n"
    findings = lint_tree({}, state=text)
    assert not [f for f in findings if f.code.startswith("SL00")]
