"""SL202, SL221, SL223: STATE.md values the rest of STATE.md determines --
the handoff's source and target on the cycle's route, the cycle mode the
other fields leave possible, and the values a mode or a kind fixes outright."""

from __future__ import annotations

import pytest

from standards_lint.fixes.fixer import fix_project

from .conftest import CLEAN_STATE, RUNTIME, write_tree
from .test_fixes import assert_second_run_is_idle, findings, read
from .test_state_structure import ACTIVE, ID, STATE

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


def fix_of(root, code, applicability=None, replacement=None):
    """The fix of the one *code* finding: there is one, of *applicability*
    and with *replacement* as its first edit when they are given."""
    f = one(root, code)
    assert f.fix is not None
    if applicability is not None:
        assert f.fix.applicability == applicability
    if replacement is not None:
        assert f.fix.edits[0].replacement == replacement
    return f.fix


def fixed(root, code, applicability, replacement=None):
    """STATE.md once the fixes are applied (the unsafe ones only when
    *code*'s fix is unsafe), checked as :func:`fix_of` does; no *code*
    finding is left."""
    fix_of(root, code, applicability, replacement)
    fix_project(str(root), use_git=False, unsafe=applicability == "unsafe")
    assert findings(root, code) == []
    return read(root, STATE)


# -- Handoff.From ------------------------------------------------------------


def test_missing_from_of_a_forward_handoff_is_the_state_before_on_the_route(tmp_path):
    root = tree(tmp_path, ACTIVE.replace(" `From`: `SCOPING`", ""))
    assert "`From`: `SCOPING`" in fixed(root, "SL202", "unsafe", " `From`: `SCOPING`")
    assert_second_run_is_idle(root, unsafe=True)


def test_sl221_a_greenfield_project_has_one_route(tmp_path):
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `DEVELOPING`").replace(
        "`From`: `SCOPING`", "`From`: `TODO`")
    fix_of(tree(tmp_path, st, mode=GREENFIELD_MODE), "SL221", replacement="AUDITING")


# -- WorkflowState -----------------------------------------------------------


def test_empty_workflow_state_after_a_checkpoint_is_the_other_side(tmp_path):
    st = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``").replace(
        "`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `CHECKPOINT` `From`: `TESTING`")
    fix_of(tree(tmp_path, st), "SL202", "unsafe", "`WorkflowState`: `DEVELOPING`")


def test_empty_workflow_state_after_a_forward_handoff_is_the_next_state(tmp_path):
    root = tree(tmp_path, ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``"))
    fix_of(root, "SL202", replacement="`WorkflowState`: `ARCHITECTING`")
    fix_all(root)
    assert read(root, STATE) == ACTIVE


# -- CycleMode ---------------------------------------------------------------


def test_missing_cycle_mode_of_a_documentation_cycle(tmp_path):
    root = tree(tmp_path, DOCUMENTING.replace(" `CycleMode`: `DOCUMENTATION`", ""), files=DOCS)
    assert "`CycleMode`: `DOCUMENTATION`" in fixed(root, "SL202", "unsafe", " `CycleMode`: `DOCUMENTATION`")


def test_missing_cycle_mode_of_a_standard_cycle(tmp_path):
    root = tree(tmp_path, ACTIVE.replace(" `CycleMode`: `STANDARD`", ""))
    fix_of(root, "SL202", replacement=" `CycleMode`: `STANDARD`")


def test_repeated_cycle_mode_keeps_the_possible_one(tmp_path):
    st = DOCUMENTING.replace("`CycleMode`: `DOCUMENTATION`", "`CycleMode`: `EXPEDITED` `CycleMode`: `DOCUMENTATION`")
    assert fixed(tree(tmp_path, st, files=DOCS), "SL202", "unsafe") == DOCUMENTING


# -- values a mode or a kind fixes outright -------------------------------------


def test_empty_failure_type_of_a_resume_is_none_safely(tmp_path):
    st = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `RESUME`").replace("`FailureType`: `NONE`", "`FailureType`: ``")
    fix_of(tree(tmp_path, st), "SL202", "safe", "`FailureType`: `NONE`")


def test_missing_development_of_a_documentation_cycle_is_none_safely(tmp_path):
    root = tree(tmp_path, DOCUMENTING.replace(" `Development`: `NONE`", ""), files=DOCS)
    assert "`Development`: `NONE`" in fixed(root, "SL202", "safe")


# -- a field missing from a section left without fields -------------------------------


def test_pending_cycle_mode_of_an_active_cycle_is_unset(tmp_path):
    root = tree(tmp_path, ACTIVE.replace(" `PendingCycleMode`: `UNSET`", ""))
    assert "`PendingCycleMode`: `UNSET`" in fixed(root, "SL202", "safe")


# -- SL203: an invalid enumerated value gets the determined one -----------------------


def test_sl203_invalid_cycle_mode_gets_the_one_that_fits(tmp_path):
    root = tree(tmp_path, ACTIVE.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `TODO`"))
    fix_of(root, "SL203", replacement="STANDARD")


# -- SL220-SL222: handoff values ------------------------------------------------------


def test_sl220_misspelt_kind_is_respelt(tmp_path):
    fix_of(tree(tmp_path, ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `forward`")), "SL220", "unsafe", "FORWARD")


def test_sl222_failure_type_of_a_failure_is_only_respelt(tmp_path):
    st = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `FAILURE`")
    root = tree(tmp_path, st.replace("`FailureType`: `NONE`", "`FailureType`: `scoping`"))
    fix_of(root, "SL222", replacement="SCOPING")
    assert one(tree(tmp_path, st.replace("`FailureType`: `NONE`", "`FailureType`: `TODO`")), "SL222").fix is None


# -- SL211/SL212: a value re-wrapped onto the next line ---------------------------------


def test_sl212_entry_value_on_the_next_line_is_joined_safely(tmp_path):
    source = "change-cache-20260101T000000Z-0a1b2c3d"
    entry = f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{source}`\n  `Request`: `Change the cache.`"
    good = ACTIVE.replace("`BaselineReconciliation`: `NONE`", entry)
    st = good.replace(f"`SourceCycle`: `{source}`", f"`SourceCycle`:\n  `{source}`")
    assert fixed(tree(tmp_path, st), "SL212", "safe") == good


# -- the start of a cycle; a repeated policy --------------------------------------------


def test_empty_workflow_state_of_a_just_started_cycle_is_its_start_state(tmp_path):
    started = ACTIVE.replace("`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `INITIAL` `From`: `NONE`")
    expedited = started.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `EXPEDITED`").replace(
        "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`")
    for st, want in ((started, "AUDITING"), (expedited, "DEVELOPING")):  # the project is BROWNFIELD
        fix_of(tree(tmp_path, st.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``")), "SL202",
               replacement=f"`WorkflowState`: `{want}`")
    f = one(tree(tmp_path, started.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``"),
                 mode=GREENFIELD_MODE), "SL202")
    assert f.fix.edits[0].replacement == "`WorkflowState`: `SCOPING`"


def test_repeated_recovery_active_keeps_the_one_the_frames_give(tmp_path):
    st = ACTIVE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true` `Active`: `false`")
    root = tree(tmp_path, st)
    fix_of(root, "SL202")
    fix_all(root)
    assert read(root, STATE) == ACTIVE


# -- Active Work.Id from the paths named after it -----------------------------------------


def test_missing_id_is_the_one_the_active_work_paths_are_named_after(tmp_path):
    scope = f".standards/docs/scope/{ID}.md"
    good = ACTIVE.replace("`Scope`: `NONE`", f"`Scope`: `{scope}`")
    files = {scope: f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {ID}\n-->\n\n# Scope\n\n- `AC-001`: Search works.\n"}
    root = tree(tmp_path, good.replace(f" `Id`: `{ID}`", ""), files=files)
    assert f"`Id`: `{ID}`" in fixed(root, "SL202", "unsafe", f" `Id`: `{ID}`")


# -- SL210: BaselineReconciliation missing ---------------------------------------------


def test_sl210_an_initial_handoff_has_no_source_to_reconcile(tmp_path):
    started = ACTIVE.replace("`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `INITIAL` `From`: `NONE`").replace(
        "`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `AUDITING`")
    root = tree(tmp_path, started.replace("`BaselineReconciliation`: `NONE`\n\n", ""))
    assert fixed(root, "SL210", "unsafe") == started
    assert findings(root, "SL211") == []


# -- a fix that restores the state the files determine ------------------------------


@pytest.mark.parametrize(("written", "broken", "code", "applicability"), [
    pytest.param("`From`: `SCOPING`", "`From`: `TODO`", "SL221", "unsafe",
                 id="sl221-unknown-from-gets-the-routes-source"),
    pytest.param("`From`: `SCOPING`", "`From`: `TESTING` `From`: `SCOPING`", "SL223", "unsafe",
                 id="sl223-keeps-the-copy-the-route-determines"),
    pytest.param("## Recovery\n\n`Active`: `false`\n", "## Recovery\n", "SL202", "safe",
                 id="recovery-active-goes-under-the-heading-of-an-empty-section"),
    pytest.param("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `TODO`", "SL203", "unsafe",
                 id="sl203-invalid-recovery-active-follows-the-frames"),
    pytest.param("`FailureType`: `NONE`", "`FailureType`: `TODO`", "SL222", "unsafe",
                 id="sl222-failure-type-of-a-forward-handoff-is-none"),
    pytest.param("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`:\n`NONE`", "SL211", "safe",
                 id="sl211-none-on-the-next-line-is-joined-safely"),
    pytest.param("`CompletionPolicy`: `FULL_DELIVERABLE`",
                 "`CompletionPolicy`: `NONE` `CompletionPolicy`: `FULL_DELIVERABLE`", "SL202", "unsafe",
                 id="repeated-completion-policy-keeps-the-one-the-mode-allows"),
])
def test_fix_restores_the_state(tmp_path, written, broken, code, applicability):
    """ACTIVE with *written* turned into *broken*: the one *code* finding's
    fix brings it back."""
    assert fixed(tree(tmp_path, ACTIVE.replace(written, broken)), code, applicability) == ACTIVE


# -- no fix where the files leave the value open ----------------------------------------

EMPTY_STATE = ("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: ``")


@pytest.mark.parametrize(("state", "code"), [
    # DEVELOPING follows AUDITING (greenfield) or ARCHITECTING (brownfield);
    # a BROWNFIELD project may still be on its first, greenfield cycle.
    pytest.param(ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `DEVELOPING`").replace(
        "`From`: `SCOPING`", "`From`: `TODO`"), "SL221", id="sl221-the-two-standard-routes-disagree"),
    pytest.param(ACTIVE.replace("`From`: `SCOPING`", "`From`: `TODO`").replace(
        "## Recovery\n\n`Active`: `false`",
        "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `DEVELOPING` `Owner`: `ARCHITECTING` "
        "`FailureType`: `ARCHITECTURE` `Reason`: `Gap.` `ResumeAt`: `DEVELOPING` `RerunThrough`: `NONE`"),
                 "SL221", id="sl221-with-recovery-frames"),
    pytest.param(ACTIVE.replace("`From`: `SCOPING`", "`From`: `TESTING` `From`: `DEVELOPING`"), "SL223",
                 id="sl223-no-copy-is-the-routes-source"),
    pytest.param(ACTIVE.replace(*EMPTY_STATE).replace("`Kind`: `FORWARD`", "`Kind`: `FAILURE`"), "SL202",
                 id="empty-workflow-state-after-a-failure"),
    # Policy NONE: expedited or documentation; AWAITING_USER_SIGNOFF is on
    # both routes and no path field tells them apart.
    pytest.param(ACTIVE.replace("`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`",
                                "`WorkflowState`: `AWAITING_USER_SIGNOFF`").replace(
        "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`"), "SL202",
                 id="cycle-mode-when-two-modes-remain-possible"),
    pytest.param(ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `FAILURE`").replace(
        "`FailureType`: `NONE`", "`FailureType`: ``"), "SL202", id="empty-failure-type-of-a-failure"),
    pytest.param(ACTIVE.replace(" `Development`: `NONE`", ""), "SL202", id="missing-development-of-a-standard-cycle"),
    pytest.param(CLEAN_STATE.replace(" `PendingCycleMode`: `UNSET`", ""), "SL202",
                 id="pending-cycle-mode-with-no-active-cycle"),
    pytest.param(ACTIVE.replace(f" `Id`: `{ID}`", ""), "SL202", id="missing-id-without-named-paths"),
    # The cancelled cycle's changes may be retained, which starts in AUDITING.
    pytest.param(ACTIVE.replace("`Kind`: `FORWARD` `From`: `SCOPING`",
                                "`Kind`: `NEW_CYCLE` `From`: `CANCELLED`").replace(
        "`CycleMode`: `STANDARD`", "`CycleMode`: `EXPEDITED`").replace(
        "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`").replace(*EMPTY_STATE), "SL202",
                 id="no-start-state-after-a-cancelled-cycle"),
    pytest.param(ACTIVE.replace("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `TODO`"),
                 "SL203", id="sl203-nothing-determines-the-value"),
    pytest.param(ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `TODO`"), "SL220", id="sl220-a-value-that-is-no-kind"),
    pytest.param(ACTIVE.replace("`BaselineReconciliation`: `NONE`\n\n", ""), "SL210",
                 id="sl210-after-the-first-handoff"),
])
def test_no_fix(tmp_path, state, code):
    assert one(tree(tmp_path, state), code).fix is None
