"""SL202: missing Active Work fields that Start a cycle initializes get that
value (unsafe), and PromotionReason outside a standard cycle is NONE (safe)."""

from __future__ import annotations

from standards_lint.fixes.fixer import fix_project

from .conftest import RUNTIME, write_tree
from .test_fixes import assert_second_run_is_idle, findings, read
from .test_state_structure import ACTIVE, STATE


def fixed(tmp_path, state, unsafe=True):
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    report, _ = fix_project(str(tmp_path), use_git=False, unsafe=unsafe)
    return report


def test_missing_blocked_on_gets_none_as_an_unsafe_fix(tmp_path):
    state = ACTIVE.replace(" `BlockedOn`: `NONE`", "")
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = findings(tmp_path, "SL202")
    assert f.fix.applicability == "unsafe"
    safe_only, _ = fix_project(str(tmp_path), use_git=False, unsafe=False)
    assert safe_only.fixed == [] and read(tmp_path, STATE) == state
    report, _ = fix_project(str(tmp_path), use_git=False, unsafe=True)
    assert [x.code for x in report.fixed] == ["SL202"]
    # inserted after the last Active Work field (the cadence)
    assert read(tmp_path, STATE) == ACTIVE.replace(" `BlockedOn`: `NONE`", "").replace(
        "`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `NONE` `BlockedOn`: `NONE`")
    assert findings(tmp_path, "SL202") == []
    assert_second_run_is_idle(tmp_path, unsafe=True)


def test_empty_audit_target_gets_none_as_an_unsafe_fix(tmp_path):
    state = ACTIVE.replace("`AuditTarget`: `NONE`", "`AuditTarget`: ``")
    report = fixed(tmp_path, state)
    assert [x.code for x in report.fixed] == ["SL202"]
    assert read(tmp_path, STATE) == ACTIVE
    assert findings(tmp_path, "SL202") == []


def test_promotion_reason_of_an_expedited_cycle_is_none_safely(tmp_path):
    expedited = ACTIVE.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `EXPEDITED`").replace(
        "`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `DEVELOPING`").replace(
        "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`").replace(
        "`From`: `SCOPING`", "`From`: `AUDITING`")
    state = expedited.replace(" `PromotionReason`: `NONE`", "")
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = findings(tmp_path, "SL202")
    assert f.fix.applicability == "safe"
    fix_project(str(tmp_path), use_git=False, unsafe=False)
    assert "`PromotionReason`: `NONE`" in read(tmp_path, STATE)
    assert findings(tmp_path, "SL202") == []


def test_promotion_reason_of_a_standard_cycle_has_no_fix(tmp_path):
    state = ACTIVE.replace(" `PromotionReason`: `NONE`", "")
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = findings(tmp_path, "SL202")
    assert f.fix is None


def test_no_initial_value_before_any_cycle(tmp_path):
    from .conftest import CLEAN_STATE

    state = CLEAN_STATE.replace(" `BlockedOn`: `NONE`", "")
    assert state != CLEAN_STATE
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = findings(tmp_path, "SL202")
    assert f.fix is None


# -- SL201: an empty or identical copy of a repeated section ------------------------


def test_sl201_empty_copy_of_a_section_is_removed(tmp_path):
    state = ACTIVE.replace("## Handoff\n", "## Handoff\n\n## Handoff\n", 1)
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = [x for x in findings(tmp_path, "SL201")]
    assert f.fix.applicability == "safe"
    report, _ = fix_project(str(tmp_path), use_git=False, unsafe=False)
    assert "SL201" in [x.code for x in report.fixed]
    assert read(tmp_path, STATE) == ACTIVE
    assert findings(tmp_path, "SL201") == []
    assert_second_run_is_idle(tmp_path, unsafe=True)


def test_sl201_empty_last_copy_is_removed(tmp_path):
    state = ACTIVE + "\n## Outstanding Obligations\n"
    fixed(tmp_path, state, unsafe=False)
    assert read(tmp_path, STATE) == ACTIVE + "\n"
    assert findings(tmp_path, "SL201") == []


def test_sl201_identical_copy_is_removed(tmp_path):
    block = "## Recovery\n\n`Active`: `false`\n\n"
    state = ACTIVE.replace(block, block + block)
    assert state != ACTIVE
    fixed(tmp_path, state, unsafe=False)
    assert read(tmp_path, STATE) == ACTIVE


def test_sl201_no_fix_for_two_different_copies(tmp_path):
    state = ACTIVE.replace("## Recovery\n\n`Active`: `false`\n\n",
                           "## Recovery\n\n`Active`: `false`\n\n## Recovery\n\n`Active`: `true`\n\n")
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    [f] = findings(tmp_path, "SL201")
    assert f.fix is None
