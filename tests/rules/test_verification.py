"""Tests of rules/verification.py (SL850-SL862)."""

from __future__ import annotations

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


def test_assessment_fields_once(lint_tree):
    rp = report(target=None)
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL850")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "# Verification Report")) and "Assessment Target" in f.message
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report()), "SL850") == []


def test_assessment_purpose_value(lint_tree):
    rp = report(purpose="full")
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL851")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`full`"))
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report()), "SL851") == []


def test_full_assessment_target(lint_tree):
    rp = report(target="Increment 1")
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL852")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Target`"))
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report()), "SL852") == []


def test_correction_target(lint_tree):
    rp = report(purpose="CORRECTION", target="NONE")
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL853")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Target`"))
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report(purpose="CORRECTION", target="Fix X")), "SL853") == []


def test_full_verification_purpose(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 1")
    [f] = found(lint_tree, tree(st=state(**TESTING_FULL), pl=DONE_PLAN, rp=rp), "SL854")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Purpose`"))
    assert found(lint_tree, tree(st=state(**TESTING_FULL), pl=DONE_PLAN, rp=report()), "SL854") == []


def test_checkpoint_assessment_target(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 2")
    [f] = found(lint_tree, tree(st=state(**CHECKPOINT), pl=inc_plan(), rp=rp), "SL855")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Target`"))
    good = report(purpose="INCREMENT", target="Increment 1")
    assert found(lint_tree, tree(st=state(**CHECKPOINT), pl=inc_plan(), rp=good), "SL855") == []


def test_reviewer_entry_full_purpose(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 1")
    [f] = found(lint_tree, tree(st=state(**REVIEWING), pl=DONE_PLAN, rp=rp), "SL856")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Purpose`"))
    assert found(lint_tree, tree(st=state(**REVIEWING), pl=DONE_PLAN, rp=report()), "SL856") == []


def test_complete_report_full_purpose(lint_tree):
    rp = report(status="COMPLETE", purpose="CORRECTION", target="one case")
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL857")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Purpose`"))
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report(status="COMPLETE")), "SL857") == []


def test_complete_report_awaiting_implementation(lint_tree):
    body = "| AC-002 | DEV-002 | AWAITING_IMPLEMENTATION |\n"
    rp = report(status="COMPLETE", body=body)
    [f] = found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL858")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "AWAITING_IMPLEMENTATION"))
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=report(body=body)), "SL858") == []


def test_assessment_target_increment_defined(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 3")
    [f] = found(lint_tree, tree(pl=inc_plan(), rp=rp), "SL859")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Target`"))
    ok = report(purpose="INCREMENT", target="Increment 2")
    assert found(lint_tree, tree(pl=inc_plan(), rp=ok), "SL859") == []


def test_increment_assessment_defined(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 1", rows="| 3 | Endpoint | ok | VERIFIED |\n")
    [f] = found(lint_tree, tree(pl=inc_plan(), rp=rp), "SL860")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "## Increment Assessments"))
    ok = report(purpose="INCREMENT", target="Increment 1", rows="| 1 | Endpoint | ok | VERIFIED |\n")
    assert found(lint_tree, tree(pl=inc_plan(), rp=ok), "SL860") == []


def test_tester_checkpoint_verified(lint_tree):
    rp = report(purpose="INCREMENT", target="Increment 1", rows="| 1 | Endpoint | tests | BLOCKED |\n")
    [f] = found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=rp), "SL861")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "## Increment Assessments"))
    ok = report(purpose="INCREMENT", target="Increment 1", rows="| 1 | Endpoint | tests | VERIFIED |\n")
    assert found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=ok), "SL861") == []


def test_tester_checkpoint_evidence(lint_tree):
    rows = "| 1 | Endpoint | tests | VERIFIED |\n"
    rp = report(purpose="INCREMENT", target="Increment 1", rows=rows, evidence="")
    [f] = found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=rp), "SL862")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "## Execution Evidence"))
    ok = report(purpose="INCREMENT", target="Increment 1", rows=rows)
    assert found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=ok), "SL862") == []


def test_report_of_another_cycle_is_not_read(lint_tree):
    rp = report(purpose="full").replace("Cycle: add-user", "Cycle: other-user", 1)
    assert found(lint_tree, tree(pl=DONE_PLAN, rp=rp), "SL851") == []


def test_increment_assessment_target_format(lint_tree):
    rp = report(purpose="INCREMENT", target="the endpoint")
    [f] = found(lint_tree, tree(pl=inc_plan(), rp=rp), "SL863")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Target`"))
    ok = report(purpose="INCREMENT", target="Increment 1")
    assert found(lint_tree, tree(pl=inc_plan(), rp=ok), "SL863") == []


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
