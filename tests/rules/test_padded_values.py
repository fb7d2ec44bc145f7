"""A value with whitespace inside its backticks (`` `COMPLETE ` ``, `` ` FULL` ``).

The framework's checker takes the text between the backticks as the value,
so a padded value is none of a field's allowed values.  We read it the same
way in every rule: the rule that checks the field's allowed values reports
it (with a safe fix trimming it where the trimmed value is allowed), and the
rules that branch on the value read it as written, as the checker does.
CommonMark's one space stripped from each side of a code span
(`` ` COMPLETE ` ``) leaves an ordinary value.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project

from .test_development_plan import INCREMENTS, PLAN_PATH, REPORT_PATH, STEP_DONE, STEP_PENDING, plan, report, state, tree

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
SYNC = ".standards/docs/synchronization/add-user-search-20261130T024246Z-0db7f414.md"
STATE = ".standards/STATE.md"


def demo(tmp_path, rel, old, new):
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    p = root / rel
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def by_code(root, code):
    return [f for f in lint(str(root), use_git=False).findings if f.code == code]


def codes_of(lint_tree, files):
    return {f.code for f in lint_tree(files, state=None)}


# -- records: SL901 in place of SL931 -----------------------------------------


def test_padded_record_status_is_reported_not_silently_dropped(tmp_path):
    root = demo(tmp_path, SYNC, "`Status`: `IN_PROGRESS`", "`Status`: `IN_PROGRESS `")
    [f] = by_code(root, "SL901")
    assert f.path == SYNC and "`IN_PROGRESS `" in f.message
    # The checker does not read `IN_PROGRESS ` as IN_PROGRESS either: no SL931.
    assert by_code(root, "SL931") == []
    assert f.fix is not None and f.fix.applicability == "safe"
    assert [e.replacement for e in f.fix.edits] == ["IN_PROGRESS"]
    fix_project(str(root), use_git=False)
    assert "`Status`: `IN_PROGRESS`" in (root / SYNC).read_text(encoding="utf-8")
    assert by_code(root, "SL901") == []
    assert len(by_code(root, "SL931")) == 1  # read as IN_PROGRESS now


def test_one_space_each_side_is_stripped_as_commonmark_does(tmp_path):
    root = demo(tmp_path, SYNC, "`Status`: `IN_PROGRESS`", "`Status`: ` IN_PROGRESS `")
    assert by_code(root, "SL901") == []
    assert len(by_code(root, "SL931")) == 1


def test_padded_value_that_trims_to_no_allowed_value_has_no_trim(tmp_path):
    root = demo(tmp_path, SYNC, "`Status`: `IN_PROGRESS`", "`Status`: `OPEN `")
    [f] = by_code(root, "SL901")
    assert f.fix is None or all(e.replacement != "OPEN" for e in f.fix.edits)


def test_padded_handoff_failure_type_is_not_none(tmp_path):
    root = demo(tmp_path, STATE, "`FailureType`: `NONE`", "`FailureType`: ` NONE`")
    [f] = by_code(root, "SL222")
    assert f.fix is not None and f.fix.applicability == "safe" and f.fix.edits[0].replacement == "NONE"
    # The DOCUMENTATION FORWARD rule reads the value as written, as the checker does.
    assert len(by_code(root, "SL405")) == 1
    fix_project(str(root), use_git=False)
    assert by_code(root, "SL222") == [] and by_code(root, "SL405") == []


# -- the development plan and the verification report --------------------------


def test_padded_plan_status_is_no_plan_state_and_not_complete(lint_tree):
    pl = plan(status=" COMPLETE", steps=(STEP_DONE, STEP_PENDING))
    found = [f for f in lint_tree(tree(pl=pl), state=None) if f.code in ("SL800", "SL814")]
    assert [f.code for f in found] == ["SL800"]
    assert "` COMPLETE`" in found[0].message
    assert found[0].fix is not None and found[0].fix.applicability == "safe"
    assert found[0].fix.edits[0].replacement == "COMPLETE"


def test_padded_step_status_is_no_step_state_and_not_done(lint_tree):
    step = STEP_PENDING.replace("`PENDING`", "` PENDING`")
    pl = plan(status="COMPLETE", steps=(STEP_DONE, step))
    got = codes_of(lint_tree, tree(pl=pl))
    assert {"SL810", "SL814"} <= got


def test_padded_cadence_and_current_increment(lint_tree):
    pl = plan(cadence=" AFTER_IMPLEMENTATION")
    [f] = [f for f in lint_tree(tree(pl=pl), state=None) if f.code == "SL802"]
    assert "` AFTER_IMPLEMENTATION`" in f.message
    assert f.fix is not None and f.fix.applicability == "safe" and f.fix.edits[0].replacement == "AFTER_IMPLEMENTATION"

    pl = plan(current=" NONE")
    got = {f.code: f for f in lint_tree(tree(pl=pl), state=None)}
    # Not NONE (SL803), no increment of that name (SL804), and not the NONE
    # AFTER_IMPLEMENTATION requires (SL805): the checker's three findings.
    assert {"SL803", "SL804", "SL805"} <= set(got)
    assert got["SL803"].fix is not None and got["SL803"].fix.edits[0].replacement == "NONE"

    pl = plan(cadence="INCREMENTAL", current="1 ", increments=INCREMENTS)
    got = {f.code: f for f in lint_tree(tree(pl=pl), state=None)}
    assert "SL803" in got and got["SL803"].fix.edits[0].replacement == "1"


def test_padded_assessment_purpose(lint_tree):
    rp = report(purpose="FULL ")
    st = state(ws="TESTING", frm="DEVELOPING")
    [f] = [f for f in lint_tree(tree(st=st, pl=plan(status="COMPLETE", steps=(STEP_DONE,)), rp=rp), state=None)
           if f.code == "SL851"]
    assert f.path == REPORT_PATH and "`FULL `" in f.message
    assert f.fix is not None and f.fix.applicability == "safe" and f.fix.edits[0].replacement == "FULL"


def test_a_padded_value_is_a_field_property_of_the_reading_layer():
    from standards_lint.syntax.parser import parse_markdown

    doc = parse_markdown("`A`: `X ` `B`: ` X` `C`: ` X ` `D`: `X` `E`: `  `\n", "t.md")
    assert [(f.name, f.value, f.padded) for f in doc.fields] == [
        ("A", "X ", True), ("B", " X", True), ("C", "X", False), ("D", "X", False), ("E", "  ", False)]
    assert PLAN_PATH.endswith(".md")
