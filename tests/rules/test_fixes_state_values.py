"""SL202, SL221, SL223: STATE.md values the rest of STATE.md determines --
the handoff's source and target on the cycle's route, the cycle mode the
other fields leave possible, and the values a mode or a kind fixes outright."""

from __future__ import annotations

from standards_lint.fixer import fix_project

from .conftest import RUNTIME, write_tree
from .test_fixes import assert_second_run_is_idle, findings, read
from .test_state_structure import ACTIVE, STATE

GREENFIELD_MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `GREENFIELD`\n"

# A documentation cycle in DOCUMENTING, handed forward from ARCHITECTING.
DOCUMENTING = ACTIVE.replace("`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`",
                             "`WorkflowState`: `DOCUMENTING` `CycleMode`: `DOCUMENTATION`").replace(
    "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`").replace(
    "`Scope`: `NONE` `Architecture`: `NONE`", "`Scope`: `docs/scope.md` `Architecture`: `docs/design.md`").replace(
    "`From`: `SCOPING`", "`From`: `ARCHITECTING`")
DOCS = {"docs/scope.md": "# Scope\n\n- `AC-001`: Explain the command.\n", "docs/design.md": "# Design\n"}


def tree(tmp_path, state, mode=None, files=None):
    runtime = dict(RUNTIME)
    if mode is not None:
        runtime[".standards/MODE.md"] = mode
    write_tree(tmp_path, {**runtime, **(files or {}), STATE: state})
    return tmp_path


def one(root, code):
    [f] = findings(root, code)
    return f


def fix_all(root):
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    return report


# -- Handoff.From ------------------------------------------------------------


def test_missing_from_of_a_forward_handoff_is_the_state_before_on_the_route(tmp_path):
    root = tree(tmp_path, ACTIVE.replace(" `From`: `SCOPING`", ""))
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    assert f.fix.edits[0].replacement == " `From`: `SCOPING`"
    fix_all(root)
    assert "`From`: `SCOPING`" in read(root, STATE)
    assert findings(root, "SL202") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl221_unknown_from_gets_the_routes_source(tmp_path):
    root = tree(tmp_path, ACTIVE.replace("`From`: `SCOPING`", "`From`: `TODO`"))
    f = one(root, "SL221")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    fix_all(root)
    assert read(root, STATE) == ACTIVE
    assert findings(root, "SL221") == []


def test_sl221_no_fix_when_the_two_standard_routes_disagree(tmp_path):
    # DEVELOPING follows AUDITING (greenfield) or ARCHITECTING (brownfield);
    # a BROWNFIELD project may still be on its first, greenfield cycle.
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `DEVELOPING`").replace(
        "`From`: `SCOPING`", "`From`: `TODO`")
    assert one(tree(tmp_path, st), "SL221").fix is None


def test_sl221_a_greenfield_project_has_one_route(tmp_path):
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `DEVELOPING`").replace(
        "`From`: `SCOPING`", "`From`: `TODO`")
    f = one(tree(tmp_path, st, mode=GREENFIELD_MODE), "SL221")
    assert f.fix is not None and f.fix.edits[0].replacement == "AUDITING"


def test_sl221_no_fix_with_recovery_frames(tmp_path):
    st = ACTIVE.replace("`From`: `SCOPING`", "`From`: `TODO`").replace(
        "## Recovery\n\n`Active`: `false`",
        "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `DEVELOPING` `Owner`: `ARCHITECTING` "
        "`FailureType`: `ARCHITECTURE` `Reason`: `Gap.` `ResumeAt`: `DEVELOPING` `RerunThrough`: `NONE`")
    assert one(tree(tmp_path, st), "SL221").fix is None


def test_sl223_keeps_the_copy_the_route_determines(tmp_path):
    st = ACTIVE.replace("`From`: `SCOPING`", "`From`: `TESTING` `From`: `SCOPING`")
    root = tree(tmp_path, st)
    f = one(root, "SL223")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    fix_all(root)
    assert read(root, STATE) == ACTIVE
    assert findings(root, "SL223") == []


def test_sl223_no_fix_when_no_copy_is_the_routes_source(tmp_path):
    st = ACTIVE.replace("`From`: `SCOPING`", "`From`: `TESTING` `From`: `DEVELOPING`")
    assert one(tree(tmp_path, st), "SL223").fix is None


# -- WorkflowState -----------------------------------------------------------


def test_empty_workflow_state_after_a_checkpoint_is_the_other_side(tmp_path):
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``").replace(
        "`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `CHECKPOINT` `From`: `TESTING`")
    root = tree(tmp_path, st)
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    assert f.fix.edits[0].replacement == "`WorkflowState`: `DEVELOPING`"


def test_empty_workflow_state_after_a_forward_handoff_is_the_next_state(tmp_path):
    root = tree(tmp_path, ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``"))
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.edits[0].replacement == "`WorkflowState`: `ARCHITECTING`"
    fix_all(root)
    assert read(root, STATE) == ACTIVE


def test_empty_workflow_state_after_a_failure_has_no_fix(tmp_path):
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``").replace(
        "`Kind`: `FORWARD`", "`Kind`: `FAILURE`")
    assert one(tree(tmp_path, st), "SL202").fix is None


# -- CycleMode ---------------------------------------------------------------


def test_missing_cycle_mode_of_a_documentation_cycle(tmp_path):
    root = tree(tmp_path, DOCUMENTING.replace(" `CycleMode`: `DOCUMENTATION`", ""), files=DOCS)
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    assert f.fix.edits[0].replacement == " `CycleMode`: `DOCUMENTATION`"
    fix_all(root)
    assert findings(root, "SL202") == []
    assert "`CycleMode`: `DOCUMENTATION`" in read(root, STATE)


def test_missing_cycle_mode_of_a_standard_cycle(tmp_path):
    f = one(tree(tmp_path, ACTIVE.replace(" `CycleMode`: `STANDARD`", "")), "SL202")
    assert f.fix is not None and f.fix.edits[0].replacement == " `CycleMode`: `STANDARD`"


def test_no_cycle_mode_fix_when_two_modes_remain_possible(tmp_path):
    # Policy NONE: expedited or documentation; AWAITING_USER_SIGNOFF is on
    # both routes and no path field tells them apart.
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`",
                        "`WorkflowState`: `AWAITING_USER_SIGNOFF`").replace(
        "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`")
    assert one(tree(tmp_path, st), "SL202").fix is None


def test_repeated_cycle_mode_keeps_the_possible_one(tmp_path):
    st = DOCUMENTING.replace("`CycleMode`: `DOCUMENTATION`", "`CycleMode`: `EXPEDITED` `CycleMode`: `DOCUMENTATION`")
    root = tree(tmp_path, st, files=DOCS)
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    fix_all(root)
    assert read(root, STATE) == DOCUMENTING
    assert findings(root, "SL202") == []


# -- values a mode or a kind fixes outright -------------------------------------


def test_empty_failure_type_of_a_resume_is_none_safely(tmp_path):
    st = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `RESUME`").replace("`FailureType`: `NONE`", "`FailureType`: ``")
    root = tree(tmp_path, st)
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "safe"
    assert f.fix.edits[0].replacement == "`FailureType`: `NONE`"


def test_empty_failure_type_of_a_failure_has_no_fix(tmp_path):
    st = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `FAILURE`").replace("`FailureType`: `NONE`", "`FailureType`: ``")
    assert one(tree(tmp_path, st), "SL202").fix is None


def test_missing_development_of_a_documentation_cycle_is_none_safely(tmp_path):
    root = tree(tmp_path, DOCUMENTING.replace(" `Development`: `NONE`", ""), files=DOCS)
    f = one(root, "SL202")
    assert f.fix is not None and f.fix.applicability == "safe"
    fix_project(str(root), use_git=False, unsafe=False)
    assert "`Development`: `NONE`" in read(root, STATE)
    assert findings(root, "SL202") == []


def test_missing_development_of_a_standard_cycle_has_no_fix(tmp_path):
    assert one(tree(tmp_path, ACTIVE.replace(" `Development`: `NONE`", "")), "SL202").fix is None
