"""Tests of rules/recovery_gates.py (SL880-SL887)."""

from __future__ import annotations

from .test_development_plan import (
    INCREMENTS,
    PLAN_PATH,
    REPORT_PATH,
    STEP_DONE,
    found,
    line_of,
    plan,
    report,
    state,
    tree,
)


def suspended(n, frame, reason, purpose, target, drop=None):
    fields = [
        ("Recovery Frame", frame),
        ("Recovery Reason", reason),
        ("Purpose", purpose),
        ("Target", target),
        ("Assessed Inputs", "endpoint content"),
        ("Next Action", "continue the assignment"),
    ]
    body = "\n".join(f"`{k}`: `{v}`" for k, v in fields if k != drop)
    return f"### Suspended Assignment {n}\n\n{body}\n"


# Tester corrects a VERIFICATION defect found while Developer worked (frame 1).
TESTER_FIX = dict(ws="TESTING", kind="FAILURE", frm="DEVELOPING", ftype="VERIFICATION", reason="A defect.",
                  frames=[("DEVELOPING", "TESTING", "VERIFICATION", "A defect.", "DEVELOPING", "NONE")])
DEV_SAVED = suspended(1, "1", "A defect.", "DEVELOPMENT", "NONE")


def test_suspended_fields(lint_tree):
    pl = plan(notes=suspended(1, "1", "A defect.", "DEVELOPMENT", "NONE", drop="Recovery Reason"))
    [f] = found(lint_tree, tree(st=state(**TESTER_FIX), pl=pl), "SL880")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "### Suspended Assignment 1")) and "Recovery Reason" in f.message
    assert found(lint_tree, tree(st=state(**TESTER_FIX), pl=plan(notes=DEV_SAVED)), "SL880") == []


def test_suspended_values(lint_tree):
    rp = report(purpose="CORRECTION", target="Fix", body="", evidence="x") + "\n" + suspended(1, "1", "A defect.", "INCREMENT", "NONE")
    [f] = found(lint_tree, tree(pl=plan(), rp=rp), "SL885")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Target`: `NONE`"))
    ok = report(purpose="CORRECTION", target="Fix") + "\n" + suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    assert found(lint_tree, tree(pl=plan(), rp=ok), "SL885") == []


NESTED = dict(ws="DEVELOPING", kind="FAILURE", frm="TESTING", ftype="IMPLEMENTATION", reason="A defect.",
              frames=[("DEVELOPING", "TESTING", "VERIFICATION", "A defect.", "DEVELOPING", "NONE"),
                      ("TESTING", "DEVELOPING", "IMPLEMENTATION", "A defect.", "TESTING", "NONE")])


def test_scoped_recovery_needs_suspended_assignment(lint_tree):
    rp = report(purpose="CORRECTION", target="Repair assertion") + "\n" + suspended(1, "2", "Another defect.", "CORRECTION", "Repair assertion")
    [f] = found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=rp), "SL881")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "# Verification Report")) and "Frame 2" in f.message
    ok = report(purpose="CORRECTION", target="Repair assertion") + "\n" + suspended(1, "2", "A defect.", "CORRECTION", "Repair assertion")
    assert found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=ok), "SL881") == []


def test_a_suspended_assignment_counts_only_under_resume_or_handoff(lint_tree):
    # "In Developer's `Plan Notes` or Tester's `Resume or Handoff`, use a
    # `### Suspended Assignment N` entry": under a setext `Resume or Handoff`
    # (no `##` heading for the checker) the entry belongs to the section
    # above, and the frame has no saved assignment.
    saved = suspended(1, "2", "A defect.", "CORRECTION", "Repair assertion")
    base = report(purpose="CORRECTION", target="Repair assertion")
    setext = base.replace("## Resume or Handoff", "Resume or Handoff\n-----------------")
    assert setext != base
    [f] = found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=setext + "\n" + saved), "SL881")
    assert f.path == REPORT_PATH and "Frame 2" in f.message
    assert found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=base + "\n" + saved), "SL881") == []


# Tester corrects its own frame 2 now; frame 1 interrupted Tester's assignment
# earlier: the assignment frame 1 replaced is restored from the report.
TESTER_SCOPED = dict(ws="TESTING", kind="RESUME", frm="DEVELOPING", reason="Fixed.",
                     frames=[("TESTING", "DEVELOPING", "IMPLEMENTATION", "A defect.", "TESTING", "NONE"),
                             ("DEVELOPING", "TESTING", "VERIFICATION", "Another defect.", "DEVELOPING", "NONE")])
DEV_SAVED_2 = suspended(1, "2", "Another defect.", "CORRECTION", "Repair endpoint")


def test_a_role_correcting_a_later_frame_needs_the_assignment_an_earlier_frame_interrupted(lint_tree):
    rp = report(purpose="CORRECTION", target="Repair assertion")
    [f] = found(lint_tree, tree(st=state(**TESTER_SCOPED), pl=plan(notes=DEV_SAVED_2), rp=rp), "SL881")
    assert f.path == REPORT_PATH and "Frame 1" in f.message
    ok = rp + "\n" + suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    assert found(lint_tree, tree(st=state(**TESTER_SCOPED), pl=plan(notes=DEV_SAVED_2), rp=ok), "SL881") == []


def test_a_report_kept_at_another_path_holds_no_saved_assignment(lint_tree):
    saved = report(purpose="CORRECTION", target="Repair assertion") + "\n" + suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    elsewhere = REPORT_PATH.replace(".md", "-copy.md")
    files = tree(st=state(**TESTER_SCOPED), pl=plan(notes=DEV_SAVED_2), **{elsewhere: saved})
    [f] = found(lint_tree, files, "SL881")
    assert (f.path, f.line) == (REPORT_PATH, 1) and "not at its path" in f.message


def test_a_report_never_written_is_no_missing_saved_assignment(lint_tree):
    # SL930's when it is due; the checker reports no saved assignment then.
    assert found(lint_tree, tree(st=state(**TESTER_SCOPED), pl=plan(notes=DEV_SAVED_2)), "SL881") == []


RESUMED = dict(ws="TESTING", kind="RESUME", frm="DEVELOPING", reason="Increment 1 ready.")


def test_restore_suspended_assessment(lint_tree):
    saved = suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    pl = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    rp = report(purpose="CORRECTION", target="Repair assertion") + "\n" + saved
    [f] = found(lint_tree, tree(st=state(**RESUMED), pl=pl, rp=rp), "SL882")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Purpose`"))
    ok = report(purpose="INCREMENT", target="Increment 1") + "\n" + saved
    assert found(lint_tree, tree(st=state(**RESUMED), pl=pl, rp=ok), "SL882") == []


def test_a_restored_increment_assessment_needs_its_steps_done(lint_tree):
    # The RESUME into TESTING restores Tester's suspended assessment of Increment 1: the same
    # increment is handed over again, so its steps must be DONE (Checkpoint Handoffs), as after
    # the CHECKPOINT that first handed it over (SL833).
    saved = suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    rp = report(purpose="INCREMENT", target="Increment 1") + "\n" + saved
    open_step = STEP_DONE.replace("`Status`: `DONE`", "`Status`: `IN_PROGRESS`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS, steps=(open_step,))
    [f] = found(lint_tree, tree(st=state(**RESUMED), pl=pl, rp=rp), "SL833")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`Status`: `IN_PROGRESS` `Depends On`"))
    done = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS, steps=(STEP_DONE,))
    assert found(lint_tree, tree(st=state(**RESUMED), pl=done, rp=rp), "SL833") == []
    # a RESUME that restores a FULL or CORRECTION assessment hands over no increment
    full = report(purpose="CORRECTION", target="Repair assertion") + "\n" + suspended(
        1, "1", "A defect.", "CORRECTION", "Repair assertion")
    assert found(lint_tree, tree(st=state(**RESUMED), pl=pl, rp=full), "SL833") == []


def test_scoped_correction_purpose(lint_tree):
    rp = report(purpose="FULL", target="NONE")
    [f] = found(lint_tree, tree(st=state(**TESTER_FIX), pl=plan(notes=DEV_SAVED), rp=rp), "SL883")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`Assessment Purpose`"))
    ok = report(purpose="CORRECTION", target="Repair endpoint assertion")
    assert found(lint_tree, tree(st=state(**TESTER_FIX), pl=plan(notes=DEV_SAVED), rp=ok), "SL883") == []


def test_scoped_recovery_complete_report(lint_tree):
    rp = report(status="COMPLETE", purpose="CORRECTION", target="Repair endpoint assertion")
    [f] = found(lint_tree, tree(st=state(**TESTER_FIX), pl=plan(notes=DEV_SAVED), rp=rp), "SL884")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`COMPLETE`"))
    ok = report(status="IN_PROGRESS", purpose="CORRECTION", target="Repair endpoint assertion")
    assert found(lint_tree, tree(st=state(**TESTER_FIX), pl=plan(notes=DEV_SAVED), rp=ok), "SL884") == []


# Developer handed the work to Tester with no recovery: Tester's assignment is
# full verification, which follows Developer's full completion.
FULL_VERIFY = dict(ws="TESTING", kind="FORWARD", frm="DEVELOPING", reason="Implementation complete.")
TABLE_HEAD = ("| Field | Value |\n| --- | --- |\n| `Status` | `COMPLETE` |\n"
              "| `Verification Cadence` | `AFTER_IMPLEMENTATION` |\n| `Current Increment` | `NONE` |")


def test_a_complete_report_in_testing_needs_a_complete_plan(lint_tree):
    # "Only the full Tester gate permits a `COMPLETE` verification report"
    # (Full Verification Boundary): with no recovery too, a plan whose Status
    # is not COMPLETE (here written as a Markdown table row, which holds no
    # field) leaves the report's COMPLETE certifying unfinished work.
    done = plan(status="COMPLETE", steps=(STEP_DONE,))
    header = "`Status`: `COMPLETE` `Verification Cadence`:\n`AFTER_IMPLEMENTATION` `Current Increment`: `NONE`"
    assert header in done
    table = done.replace(header, TABLE_HEAD)
    rp = report(status="COMPLETE")
    [f] = found(lint_tree, tree(st=state(**FULL_VERIFY), pl=table, rp=rp), "SL884")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "`COMPLETE`")) and "`missing`" in f.message
    [f] = found(lint_tree, tree(st=state(**FULL_VERIFY), pl=plan(status="IN_PROGRESS", steps=(STEP_DONE,)), rp=rp), "SL884")
    assert "`IN_PROGRESS`" in f.message
    assert found(lint_tree, tree(st=state(**FULL_VERIFY), pl=done, rp=rp), "SL884") == []
    # At the end of a turn in TESTING the report is Tester's own record.
    files = tree(st=state(**FULL_VERIFY), pl=table, rp=rp)
    assert [g for g in lint_tree(files, state=None, turn_end=True) if g.code == "SL884"] == []


def test_a_complete_report_after_testing_is_not_held_to_the_plan_here(lint_tree):
    # Past TESTING an unfinished plan is SL816's (the checker reports the
    # report nowhere but in TESTING and during scoped recovery).
    st = state(ws="REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING", reason="Verified.")
    pl = plan(status="IN_PROGRESS", steps=(STEP_DONE,))
    assert found(lint_tree, tree(st=st, pl=pl, rp=report(status="COMPLETE")), "SL884") == []


def test_suspended_assignment_numbers(lint_tree):
    notes = DEV_SAVED + "\n" + suspended(1, "2", "Another.", "DEVELOPMENT", "NONE")
    pl = plan(notes=notes)
    [f] = found(lint_tree, tree(pl=pl), "SL886")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "### Suspended Assignment 1", 2))
    ok = plan(notes=DEV_SAVED + "\n" + suspended(2, "2", "Another.", "DEVELOPMENT", "NONE"))
    assert found(lint_tree, tree(pl=ok), "SL886") == []


def test_suspended_assignment_numbers_in_the_first_resume_or_handoff_only(lint_tree):
    # The report's suspended assignments are read from its first `## Resume
    # or Handoff`, as the framework reads them: a number repeated there is
    # reported (lex-0583); a second copy of the section (a merge that kept
    # both sides) is not read, so its entries repeat no number (lex-0262,
    # lex-0291) and are not checked.
    one = suspended(1, "1", "A defect.", "CORRECTION", "Repair")
    two = suspended(2, "1", "A defect.", "INCREMENT", "Increment 1")
    head = report(purpose="CORRECTION", target="Repair", body="", evidence="x")
    rp = head + "\n" + one + "\n" + two + "\n" + two  # report() ends in `## Resume or Handoff`
    [f] = found(lint_tree, tree(pl=plan(), rp=rp), "SL886")
    assert (f.path, f.line) == (REPORT_PATH, line_of(rp, "### Suspended Assignment 2", 2))
    bad_copy = suspended(2, "1", "A defect.", "INCREMENT", "NONE")
    rp = head + "\n" + one + "\n" + two + "\n## Resume or Handoff\n\n" + one + "\n" + bad_copy
    files = tree(pl=plan(), rp=rp)
    assert found(lint_tree, files, "SL886") == []
    assert found(lint_tree, files, "SL885") == []


def test_a_frame_is_called_by_its_heading_number_even_when_misnumbered(lint_tree):
    # The stack's only frame is headed `### Frame 2` (SL503 reports that). The
    # plan's suspended Developer assignment names frame 1, so it is not this
    # frame's: Tester's assignment is full verification, and the plan is due.
    st = state(**TESTER_FIX).replace("### Frame 1", "### Frame 2")
    pl = plan(notes=DEV_SAVED)
    rp = report(purpose="CORRECTION", target="Repair the assertion")
    files = tree(st=st, pl=pl, rp=rp)
    assert found(lint_tree, files, "SL503")
    assert found(lint_tree, files, "SL854")
    # Numbered as the plan says, the saved assignment scopes the correction.
    ok = tree(st=state(**TESTER_FIX), pl=pl, rp=rp)
    assert found(lint_tree, ok, "SL854") == []


def test_an_increment_assessment_is_restored_only_for_a_defined_increment(lint_tree):
    saved = suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    rp = report(purpose="CORRECTION", target="Repair assertion") + "\n" + saved
    pl = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    # No readable plan (a malformed provenance block): Increment 1 is not defined,
    # so the RESUME restores nothing and Tester owes full verification.
    broken = pl.replace("Artifact: DEVELOPMENT\n", "Artifact: DEVELOPMENT\nNote: hand edit\n", 1)
    files = tree(st=state(**RESUMED), pl=broken, rp=rp)
    assert found(lint_tree, files, "SL882") == []
    assert found(lint_tree, files, "SL854")


def test_suspended_assignment_heading_with_a_closing_sequence(lint_tree, tmp_path):
    # Read as Suspended Assignment 1 (CommonMark drops the closing sequence),
    # so its fields are still checked; reported, because the framework reads
    # `1 ###` as the number; the safe fix drops the closing sequence.
    closed = DEV_SAVED.replace("### Suspended Assignment 1", "### Suspended Assignment 1 ###").replace(
        "`Recovery Reason`: `A defect.`\n", "")
    pl = plan(notes=closed)
    got = lint_tree(tree(st=state(**TESTER_FIX), pl=pl), state=None)
    [f] = [f for f in got if f.code == "SL887"]
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "### Suspended Assignment 1 ###"))
    assert "`### Suspended Assignment 1 ###`" in f.message
    assert f.fix is not None and f.fix.applicability == "safe"
    assert [e.replacement for e in f.fix.edits] == ["### Suspended Assignment 1"]
    assert [x.code for x in got if x.code == "SL880"] == ["SL880"]  # found: its missing field is reported
    from standards_lint.fixes.fixer import fix_project

    fix_project(str(tmp_path), use_git=False)
    text = (tmp_path / PLAN_PATH).read_text(encoding="utf-8")
    assert "### Suspended Assignment 1\n" in text and "###\n" not in text


def test_suspended_assignment_heading_needs_a_positive_number(lint_tree):
    for n in ("0", "one"):
        pl = plan(notes=DEV_SAVED.replace("### Suspended Assignment 1", f"### Suspended Assignment {n}"))
        [f] = found(lint_tree, tree(pl=pl), "SL887")
        assert f.fix is None and "positive" in f.message, n
    assert found(lint_tree, tree(pl=plan(notes=DEV_SAVED)), "SL887") == []
    # Extra spaces after the hashes: read as the heading, and not this rule's.
    spaced = DEV_SAVED.replace("### Suspended", "###  Suspended")
    assert found(lint_tree, tree(pl=plan(notes=spaced)), "SL887") == []


def test_a_finished_artifact_has_no_assignment_to_suspend(lint_tree):
    # Frame 2 interrupted TESTING, and Tester owns frame 1.  A COMPLETE
    # report holds a finished assignment, nothing unfinished to persist
    # (unseen4-0255, 0539: a FAILURE from DEVELOPING to SCOPING over a COMPLETE
    # plan); an IN_PROGRESS one still needs its saved entry.
    unfinished = report(purpose="CORRECTION", target="Repair assertion")
    done = report(status="COMPLETE", purpose="CORRECTION", target="Repair assertion")
    assert [f.path for f in found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=unfinished),
                                  "SL881")] == [REPORT_PATH]
    assert found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=done), "SL881") == []


def test_only_the_corresponding_resume_restores_a_saved_assessment(lint_tree):
    # "When the role receives its corresponding RESUME, restore the
    # assignment": a RESUME back from REVIEWING_IMPLEMENTATION (a rerun that
    # passed TESTING again) restores nothing, and neither does a RESUME whose
    # stack disagrees with Recovery.Active (the popped frame's number is not
    # known): Tester owes full verification (unseen4-0654, unseen4-0003).
    saved = suspended(1, "1", "A defect.", "INCREMENT", "Increment 1")
    pl = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    rp = report(purpose="CORRECTION", target="Repair assertion") + "\n" + saved
    assert found(lint_tree, tree(st=state(**RESUMED), pl=pl, rp=rp), "SL882")
    back = dict(RESUMED, frm="REVIEWING_IMPLEMENTATION")
    assert found(lint_tree, tree(st=state(**back), pl=pl, rp=rp), "SL882") == []
    assert found(lint_tree, tree(st=state(**back), pl=pl, rp=rp), "SL854")
    left_on = state(**RESUMED).replace("`Active`: `false`", "`Active`: `true`", 1)
    assert found(lint_tree, tree(st=left_on, pl=pl, rp=rp), "SL882") == []
    assert found(lint_tree, tree(st=left_on, pl=pl, rp=rp), "SL854")


# Tester corrects frame 1 (it interrupted Developer, whose plan saves the
# assignment), then hands forward into REVIEWING_IMPLEMENTATION.
REVIEWER_ENTRY = dict(ws="REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING", reason="Passed its gate.",
                      frames=[("DEVELOPING", "TESTING", "VERIFICATION", "A defect.", "DEVELOPING", "NONE")])


def test_reviewer_entry_lifts_the_scoped_exemption_of_the_plan(lint_tree):
    # "Before either a FORWARD or recovery RESUME enters a Reviewer state, the
    # full applicable Developer and Tester gates must hold [...] even if
    # another recovery frame remains active": the unfinished plan is reported
    # (SL816), not the COMPLETE report (SL884 judges a report in TESTING);
    # unseen4-0680.
    files = tree(st=state(**REVIEWER_ENTRY), pl=plan(notes=DEV_SAVED), rp=report(status="COMPLETE"))
    assert [f.path for f in found(lint_tree, files, "SL816")] == [PLAN_PATH]
    assert found(lint_tree, files, "SL884") == []
    # Still in TESTING, the same scoped plan keeps the COMPLETE report from passing.
    testing = dict(REVIEWER_ENTRY, ws="TESTING", kind="FAILURE", frm="DEVELOPING", ftype="VERIFICATION",
                   reason="A defect.")
    files = tree(st=state(**testing), pl=plan(notes=DEV_SAVED), rp=report(status="COMPLETE"))
    assert [f.path for f in found(lint_tree, files, "SL884")] == [REPORT_PATH]
    assert found(lint_tree, files, "SL816") == []


def test_a_complete_report_before_testing_is_not_judged_during_a_rerun(lint_tree):
    # A SCOPING frame from DEVELOPING rerun through ARCHITECTING, the cycle
    # in ARCHITECTING: Tester's COMPLETE report is not this state's gate
    # (realworld-2's ARCHITECTING tree).
    st = dict(ws="ARCHITECTING", kind="FORWARD", frm="SCOPING", reason="Scope corrected.",
              frames=[("DEVELOPING", "SCOPING", "SCOPING", "A defect.", "DEVELOPING", "ARCHITECTING")])
    saved = suspended(1, "1", "A defect.", "DEVELOPMENT", "NONE")
    files = tree(st=state(**st), pl=plan(notes=saved), rp=report(status="COMPLETE"))
    assert found(lint_tree, files, "SL884") == []


def test_a_closed_frame_heading_names_no_saved_assignment(lint_tree):
    # `### Frame 2 ###`: the framework reads the frame number as `2 ###`, so
    # the assignment saved for frame 2 is not its (unseen4-0942); recovery is
    # still scoped (Tester is not held to full verification for it).
    st = state(**NESTED).replace("### Frame 2", "### Frame 2 ###")
    rp = report(purpose="CORRECTION", target="Repair assertion") + "\n" + suspended(1, "2", "A defect.", "CORRECTION", "Repair assertion")
    files = tree(st=st, pl=plan(notes=DEV_SAVED), rp=rp)
    [f] = found(lint_tree, files, "SL881")
    assert f.path == REPORT_PATH and "Frame 2 ###" in f.message
    assert found(lint_tree, tree(st=state(**NESTED), pl=plan(notes=DEV_SAVED), rp=rp), "SL881") == []
