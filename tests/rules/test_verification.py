"""Tests of rules/verification.py (SL850-SL862)."""

from __future__ import annotations

import pytest

from .test_development_plan import (
    INCREMENTS,
    REPORT_PATH,
    STEP_DONE,
    found,
    line_of,
    plan,
    report,
    state,
    tree,
)

TESTING_FULL = dict(ws="TESTING", kind="FORWARD", frm="DEVELOPING", reason="Implementation complete.")
CHECKPOINT = dict(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")
TESTER_CHECKPOINT = dict(ws="DEVELOPING", kind="CHECKPOINT", frm="TESTING", reason="Increment 1 verified.")
REVIEWING = dict(ws="REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING", reason="Verified.")

DONE_PLAN = plan(status="COMPLETE", steps=(STEP_DONE,))


def inc_plan(**kw):
    args = dict(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    args.update(kw)
    return plan(**args)


INCREMENT_1 = dict(purpose="INCREMENT", target="Increment 1")
TESTER_ROWS = "| 1 | Endpoint | tests | {} |\n"


@pytest.mark.parametrize(("code", "st", "pl", "rp", "needle", "says", "ok"), [
    pytest.param("SL850", None, DONE_PLAN, report(target=None), "# Verification Report", ("Assessment Target",),
                 report(), id="sl850-assessment-fields-once"),
    pytest.param("SL851", None, DONE_PLAN, report(purpose="full"), "`full`", (), report(),
                 id="sl851-assessment-purpose-value"),
    pytest.param("SL852", None, DONE_PLAN, report(target="Increment 1"), "`Assessment Target`", (), report(),
                 id="sl852-full-assessment-target"),
    pytest.param("SL853", None, DONE_PLAN, report(purpose="CORRECTION", target="NONE"), "`Assessment Target`", (),
                 report(purpose="CORRECTION", target="Fix X"), id="sl853-correction-target"),
    pytest.param("SL854", state(**TESTING_FULL), DONE_PLAN, report(**INCREMENT_1), "`Assessment Purpose`", (),
                 report(), id="sl854-full-verification-purpose"),
    pytest.param("SL855", state(**CHECKPOINT), inc_plan(), report(purpose="INCREMENT", target="Increment 2"),
                 "`Assessment Target`", (), report(**INCREMENT_1), id="sl855-checkpoint-assessment-target"),
    pytest.param("SL856", state(**REVIEWING), DONE_PLAN, report(**INCREMENT_1), "`Assessment Purpose`", (),
                 report(), id="sl856-reviewer-entry-full-purpose"),
    pytest.param("SL857", None, DONE_PLAN, report(status="COMPLETE", purpose="CORRECTION", target="one case"),
                 "`Assessment Purpose`", (), report(status="COMPLETE"), id="sl857-complete-report-full-purpose"),
    pytest.param("SL858", None, DONE_PLAN,
                 report(status="COMPLETE", body="| AC-002 | DEV-002 | AWAITING_IMPLEMENTATION |\n"),
                 "AWAITING_IMPLEMENTATION", (), report(body="| AC-002 | DEV-002 | AWAITING_IMPLEMENTATION |\n"),
                 id="sl858-complete-report-awaiting-implementation"),
    pytest.param("SL859", None, inc_plan(), report(purpose="INCREMENT", target="Increment 3"), "`Assessment Target`",
                 (), report(purpose="INCREMENT", target="Increment 2"), id="sl859-assessment-target-increment-defined"),
    pytest.param("SL860", None, inc_plan(), report(**INCREMENT_1, rows="| 3 | Endpoint | ok | VERIFIED |\n"),
                 "## Increment Assessments", (), report(**INCREMENT_1, rows="| 1 | Endpoint | ok | VERIFIED |\n"),
                 id="sl860-increment-assessment-defined"),
    pytest.param("SL861", state(**TESTER_CHECKPOINT), inc_plan(),
                 report(**INCREMENT_1, rows=TESTER_ROWS.format("BLOCKED")), "## Increment Assessments", (),
                 report(**INCREMENT_1, rows=TESTER_ROWS.format("VERIFIED")), id="sl861-tester-checkpoint-verified"),
    pytest.param("SL862", state(**TESTER_CHECKPOINT), inc_plan(),
                 report(**INCREMENT_1, rows=TESTER_ROWS.format("VERIFIED"), evidence=""), "## Execution Evidence", (),
                 report(**INCREMENT_1, rows=TESTER_ROWS.format("VERIFIED")), id="sl862-tester-checkpoint-evidence"),
    pytest.param("SL863", None, inc_plan(), report(purpose="INCREMENT", target="the endpoint"), "`Assessment Target`",
                 (), report(**INCREMENT_1), id="sl863-increment-assessment-target-format"),
])
def test_reported_where_it_stands(lint_tree, code, st, pl, rp, needle, says, ok):
    """One *code* finding in the report *rp*, on its line holding
    *needle*, its message saying *says*; none for the *ok* report."""
    [f] = found(lint_tree, tree(st=st, pl=pl, rp=rp), code)
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, needle))
    assert all(part in f.message for part in says), f.message
    assert found(lint_tree, tree(st=st, pl=pl, rp=ok), code) == []


def test_sl861_a_case_drifted_purpose_is_no_increment_assessment(lint_tree):
    # "Tester [...] records `Assessment Purpose: INCREMENT`" (Checkpoint
    # Handoffs): `Increment` is not that value, so the report holds no
    # increment assessment for the checkpoint, though its row says VERIFIED.
    rows = TESTER_ROWS.format("VERIFIED")
    rp = report(purpose="Increment", target="Increment 1", rows=rows)
    [f] = found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=rp), "SL861")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "## Increment Assessments"))
    assert "`Increment`" in f.message and "INCREMENT assessment" in f.message
    assert found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=report(**INCREMENT_1, rows=rows)),
                 "SL861") == []


def test_report_of_another_cycle_is_not_read(lint_tree):
    rp = report(purpose="full").replace("Cycle: add-user", "Cycle: other-user", 1)
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL851") == []


def test_increment_assessment_with_unknown_target(lint_tree):
    # The purpose is known; a missing or repeated target is no explicit increment.
    repeated = report(purpose="INCREMENT", target="Increment 1").replace(
        "`Assessment Target`: `Increment 1`", "`Assessment Target`: `Increment 1` `Assessment Target`: `Increment 1`"
    )
    [f] = found(lint_tree, tree(pl=inc_plan(), rp=repeated), "SL863")
    assert "repeated" in f.message and (f.path, f.line) == (REPORT_PATH, line_of(repeated, "`Assessment Target`"))
    [f] = found(lint_tree, tree(pl=inc_plan(), rp=report(purpose="INCREMENT", target=None)), "SL863")
    assert "missing" in f.message
    # A FULL assessment with an unknown target says nothing about the target's value.
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report(target=None)), "SL852") == []


def test_full_verification_is_due_in_testing_whatever_the_mode(lint_tree):
    # A DOCUMENTATION cycle standing in TESTING is off its route (SL300); the
    # Tester gate of TESTING is still known: a checkpoint needs a STANDARD
    # cycle, so the assignment is full verification.
    st = state(**CHECKPOINT).replace("`CycleMode`: `STANDARD`", "`CycleMode`: `DOCUMENTATION`")
    rp = report(purpose="INCREMENT", target="Increment 1")
    [f] = found(lint_tree, tree(st=st, pl=inc_plan(), rp=rp), "SL854")
    assert f.path == REPORT_PATH
    assert found(lint_tree, tree(st=state(**CHECKPOINT), pl=inc_plan(), rp=rp), "SL854") == []


def test_sl856_a_forward_into_review_is_held_while_the_testing_frame_is_open(lint_tree):
    # "Before either a FORWARD or recovery RESUME enters a Reviewer state, the
    # full applicable Developer and Tester gates must hold [...] even if
    # another recovery frame remains active" (Full Verification Boundary):
    # Tester's own frame still being corrected does not exempt its FORWARD.
    frame = ("DEVELOPING", "TESTING", "VERIFICATION", "Wrong assertion.", "DEVELOPING", "NONE")
    st = state(frames=(frame,), **REVIEWING)
    hits = found(lint_tree, tree(st, DONE_PLAN, report(**INCREMENT_1, status="IN_PROGRESS")), "SL856")
    assert len(hits) == 1 and "`INCREMENT`" in hits[0].message
    # A FAILURE into the Reviewer state while Tester corrects enters nothing.
    st = state(frames=(frame,), ws="REVIEWING_IMPLEMENTATION", kind="FAILURE", frm="REVIEWING_IMPLEMENTATION",
               ftype="VERIFICATION", reason="Wrong assertion.")
    assert found(lint_tree, tree(st, DONE_PLAN, report(**INCREMENT_1, status="IN_PROGRESS")), "SL856") == []


def test_a_forward_into_testing_while_developer_still_corrects_assigns_tester_nothing(lint_tree):
    # Developer hands off FORWARD while its own frame is still being corrected
    # (RerunThrough NONE): SL507 reports the state; Tester's assignment and the
    # plan's completion wait for the frame (the checker asks neither).
    frame = ("TESTING", "DEVELOPING", "IMPLEMENTATION", "A defect.", "TESTING", "NONE")
    st = state(frames=(frame,), **TESTING_FULL)
    files = tree(st, plan(status="IN_PROGRESS", steps=(STEP_DONE,)),
                 report(purpose="CORRECTION", target="Repair assertion", status="IN_PROGRESS"))
    hits = lint_tree(files, state=None)
    assert [f.code for f in hits if f.code in ("SL854", "SL816")] == []
    assert [f.code for f in hits if f.code == "SL507"] == ["SL507"]
    # Without the frame the same move assigns full verification.
    files[".standards/STATE.md"] = state(**TESTING_FULL)
    assert {f.code for f in lint_tree(files, state=None)} >= {"SL854", "SL816"}
