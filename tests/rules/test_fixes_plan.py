"""Fixes of the development-plan and verification rules (SL804, SL807, SL810,
SL814, SL852, SL854, SL855): each on a small tree of its own, with the edit
asserted and a re-lint (after ``fix_project``) no longer reporting it."""

from __future__ import annotations

from standards_lint.fixes.fixer import fix_project

from .conftest import RUNTIME, write_tree
from .test_development_plan import INCREMENTS, PLAN_PATH, REPORT_PATH, STEP_DONE, STEP_PENDING, plan, report, state
from .test_fixes import findings as found, read

TESTING_FULL = dict(ws="TESTING", kind="FORWARD", frm="DEVELOPING", reason="Implementation complete.")
CHECKPOINT = dict(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")


def build(tmp_path, st, pl=None, rp=None):
    files = {**RUNTIME, ".standards/STATE.md": st}
    if pl is not None:
        files[PLAN_PATH] = pl
    if rp is not None:
        files[REPORT_PATH] = rp
    write_tree(tmp_path, files)
    return tmp_path


def fix(root):
    _, result = fix_project(str(root), use_git=False, unsafe=True)
    again, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert again.changed == {}, "a second run changes nothing"
    return {f.code for f in result.findings}


# -- SL804 ---------------------------------------------------------------------------


def test_sl804_after_implementation_sets_none(tmp_path):
    pl = plan(status="COMPLETE", current="1", steps=(STEP_DONE,))
    root = build(tmp_path, state(), pl)
    (f,) = found(root, "SL804")
    assert f.fix is not None and f.fix.applicability == "safe"
    assert [e.replacement for e in f.fix.edits] == ["NONE"]
    after = fix(root)
    assert read(root, PLAN_PATH) == plan(status="COMPLETE", current="NONE", steps=(STEP_DONE,))
    assert not after & {"SL804", "SL805", "SL806"}


def test_sl804_incremental_has_no_fix(tmp_path):
    # Whether the entry or the number is wrong is the Developer's call.
    root = build(tmp_path, state(), plan(cadence="INCREMENTAL", current="3", increments=INCREMENTS))
    (f,) = found(root, "SL804")
    assert f.fix is None


# -- SL807 ---------------------------------------------------------------------------


def test_sl807_expedited_plan_gets_after_implementation(tmp_path):
    st = state(mode="EXPEDITED")
    root = build(tmp_path, st, plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS))
    (f,) = found(root, "SL807")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    assert sorted(e.replacement for e in f.fix.edits) == ["AFTER_IMPLEMENTATION", "NONE"]
    after = fix(root)
    assert read(root, PLAN_PATH) == plan(cadence="AFTER_IMPLEMENTATION", current="NONE", increments=INCREMENTS)
    assert not after & {"SL807", "SL805"}


def test_sl807_no_fix_while_an_incremental_request_is_pending(tmp_path):
    # The request authorizes promotion (user-decisions.md, Switch verification cadence).
    st = state(mode="EXPEDITED").replace("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `INCREMENTAL`")
    root = build(tmp_path, st, plan(cadence="INCREMENTAL"))
    (f,) = found(root, "SL807")
    assert f.fix is None


# -- SL810 / SL814 -------------------------------------------------------------------------


def test_sl810_plan_state_complete_on_a_step_becomes_done(tmp_path):
    step = STEP_DONE.replace("`Status`: `DONE`", "`Status`: `COMPLETE`")
    root = build(tmp_path, state(), plan(steps=(step, STEP_PENDING)))
    (f,) = found(root, "SL810")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    assert [e.replacement for e in f.fix.edits] == ["DONE"]
    assert "SL810" not in fix(root)
    assert read(root, PLAN_PATH) == plan(steps=(STEP_DONE, STEP_PENDING))


def test_sl810_other_value_has_no_fix(tmp_path):
    step = STEP_DONE.replace("`Status`: `DONE`", "`Status`: `WAITING`")
    root = build(tmp_path, state(), plan(steps=(step,)))
    (f,) = found(root, "SL810")
    assert f.fix is None


def test_sl814_misspelt_done_shares_the_respelling(tmp_path):
    step = STEP_DONE.replace("`Status`: `DONE`", "`Status`: `done`")
    root = build(tmp_path, state(), plan(status="COMPLETE", steps=(step,)))
    (sl814,) = found(root, "SL814")
    (sl810,) = found(root, "SL810")
    assert sl814.fix is not None and sl814.fix == sl810.fix and sl814.fix.applicability == "safe"
    assert not fix(root) & {"SL810", "SL814"}
    assert read(root, PLAN_PATH) == plan(status="COMPLETE", steps=(STEP_DONE,))


def test_sl814_pending_step_has_no_fix(tmp_path):
    root = build(tmp_path, state(), plan(status="COMPLETE"))
    (f,) = found(root, "SL814")
    assert f.fix is None


# -- SL852 / SL854 / SL855 ------------------------------------------------------------------------


def inc_plan():
    return plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)


def test_sl855_and_sl852_record_the_checkpoint_assignment(tmp_path):
    rp = report(purpose="FULL", target="Increment 1")
    root = build(tmp_path, state(**CHECKPOINT), inc_plan(), rp)
    (sl852,) = found(root, "SL852")
    (sl855,) = found(root, "SL855")
    assert sl852.fix == sl855.fix and sl855.fix is not None and sl855.fix.applicability == "unsafe"
    assert [e.replacement for e in sl855.fix.edits] == ["INCREMENT"]
    assert not fix(root) & {"SL852", "SL855"}
    assert read(root, REPORT_PATH) == report(purpose="INCREMENT", target="Increment 1")


def test_sl855_undefined_increment_has_no_fix(tmp_path):
    st = state(**{**CHECKPOINT, "reason": "Increment 7 ready."})
    root = build(tmp_path, st, inc_plan(), report(purpose="FULL", target="NONE"))
    (f,) = found(root, "SL855")
    assert f.fix is None


def test_sl854_full_verification_after_forward(tmp_path):
    pl = plan(status="COMPLETE", steps=(STEP_DONE,))
    root = build(tmp_path, state(**TESTING_FULL), pl, report(purpose="INCREMENT", target="Increment 1"))
    (f,) = found(root, "SL854")
    assert f.fix is not None
    assert sorted(e.replacement for e in f.fix.edits) == ["FULL", "NONE"]
    assert "SL854" not in fix(root)
    assert read(root, REPORT_PATH) == report(purpose="FULL", target="NONE")


def test_sl854_no_fix_without_a_readable_handoff(tmp_path):
    # No Handoff section (its heading is another): the assignment is not known.
    st = state(**TESTING_FULL).replace("## Handoff", "## Notes")
    pl = plan(status="COMPLETE", steps=(STEP_DONE,))
    root = build(tmp_path, st, pl, report(purpose="INCREMENT", target="Increment 1"))
    (f,) = found(root, "SL854")
    assert f.fix is None


def test_a_mis_cased_handoff_heading_is_read_so_its_checkpoint_counts(tmp_path):
    # `## handoff` holds a checkpoint for Increment 1: the section is found
    # (SL201 respells its heading), so the assignment is the increment's and
    # neither the report (SL854) nor the open plan (SL816) is reported.
    st = state(**CHECKPOINT).replace("## Handoff", "## handoff")
    root = build(tmp_path, st, inc_plan(), report(purpose="INCREMENT", target="Increment 1"))
    (sl201,) = found(root, "SL201")
    assert sl201.fix is not None and sl201.fix.applicability == "safe"
    assert found(root, "SL854") == [] and found(root, "SL816") == []
    after = fix(root)
    assert read(root, ".standards/STATE.md") == state(**CHECKPOINT)
    assert not after & {"SL201", "SL816", "SL854", "SL855"}


def test_sl854_no_fix_while_the_stack_is_misnumbered(tmp_path):
    frame = ("DEVELOPING", "TESTING", "VERIFICATION", "A defect.", "DEVELOPING", "NONE")
    st = state(ws="TESTING", kind="RESUME", frm="DEVELOPING", frames=(frame,)).replace("### Frame 1", "### Frame 2")
    root = build(tmp_path, st, inc_plan(), report(purpose="INCREMENT", target="Increment 1"))
    (f,) = found(root, "SL854")
    assert f.fix is None
