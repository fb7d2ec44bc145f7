"""Tests of linter/model/handoff.py: the HandoffView the handoff rules read
(each field once, its value as written; the in-use reading of Recovery and
Outstanding Obligations; the frame a corrective handoff pushed)."""

from __future__ import annotations

import pytest

from standards_lint.model.handoff import handoff_view
from standards_lint.engine.project import Project

from .conftest import CLEAN_STATE, RUNTIME, write_tree

STATE = ".standards/STATE.md"

FAILURE = CLEAN_STATE.replace("`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`",
                              "`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`").replace(
    "`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE` `Reason`: `Installed.`",
    "`Kind`: `FAILURE` `From`: `TESTING` `FailureType`: `ARCHITECTURE` `Reason`: `Retry is undefined.`")

FRAME = ("\n### Frame 1\n\n`From`: `{frm}` `Owner`: `{owner}` `FailureType`: `ARCHITECTURE`\n"
         "`Reason`: `Retry is undefined.` `ResumeAt`: `TESTING` `RerunThrough`: `NONE`\n")

OBLIGATION = "\n### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION` `Reason`: `Old limit.`\n"


def view(tmp_path, state):
    write_tree(tmp_path, {**RUNTIME, STATE: state})
    return handoff_view(Project(str(tmp_path), use_git=False))


def test_fields_and_values_as_written(tmp_path):
    v = view(tmp_path, FAILURE.replace("`Reason`: `Retry is undefined.`", "`Reason`: ` Retry is undefined.`"))
    assert (v.kind, v.frm, v.ft, v.ws, v.cm) == ("FAILURE", "TESTING", "ARCHITECTURE", "ARCHITECTING", "STANDARD")
    assert v.reason == " Retry is undefined."  # as written between the backticks, not trimmed
    for name, f, value in (("Kind", v.kind_f, v.kind), ("From", v.from_f, v.frm), ("FailureType", v.ft_f, v.ft),
                           ("Reason", v.reason_f, v.reason), ("WorkflowState", v.ws_f, v.ws),
                           ("CycleMode", v.cm_f, v.cm)):
        assert f.name == name and f.value == value and f.path == STATE


def test_missing_and_repeated_fields(tmp_path):
    state = FAILURE.replace("`FailureType`: `ARCHITECTURE` `Reason`", "`Reason`").replace(
        "`CycleMode`: `STANDARD`", "`CycleMode`: `STANDARD` `CycleMode`: `EXPEDITED`")
    state = state.replace("`Kind`: `FAILURE`", "`Kind`: `FAILURE` `Kind`: `RESUME`")
    v = view(tmp_path, state)
    assert v.ft_f is None and v.ft is None  # missing
    assert v.cm_f is None and v.cm is None  # a repeated header field reads as None
    assert v.kind == "FAILURE"  # a repeated Handoff field reads as its first copy (SL223 reports it)


def test_no_view_without_handoff_or_with_conflict_markers(tmp_path):
    assert view(tmp_path / "a", CLEAN_STATE.replace("## Handoff", "## Notes")) is None
    assert view(tmp_path / "b", CLEAN_STATE + "<<<<<<< ours\n=======\n>>>>>>> theirs\n") is None


@pytest.mark.parametrize("active, frames, want", [
    ("false", "", False),
    ("true", "", True),
    ("false", FRAME.format(frm="TESTING", owner="ARCHITECTING"), True),  # frames make it in use
    ("maybe", "", False),
])
def test_recovery_in_use(tmp_path, active, frames, want):
    state = FAILURE.replace("## Recovery\n\n`Active`: `false`\n", f"## Recovery\n\n`Active`: `{active}`\n{frames}")
    assert view(tmp_path, state).recovery_in_use() is want


@pytest.mark.parametrize("active, entries, want", [
    ("false", "", False),
    ("true", "", True),
    ("false", OBLIGATION, True),  # entries make it in use
])
def test_obligations_in_use(tmp_path, active, entries, want):
    state = FAILURE.replace("## Outstanding Obligations\n\n`Active`: `false`\n",
                            f"## Outstanding Obligations\n\n`Active`: `{active}`\n{entries}")
    assert view(tmp_path, state).obligations_in_use() is want


def test_in_use_unknown(tmp_path):
    no_sections = FAILURE.split("## Recovery")[0]
    v = view(tmp_path / "a", no_sections)
    assert v.recovery_in_use() is None and v.obligations_in_use() is None
    no_flags = FAILURE.replace("`Active`: `false`\n", "")
    v = view(tmp_path / "b", no_flags)
    assert v.recovery_in_use() is None and v.obligations_in_use() is None


@pytest.mark.parametrize("frm, owner, want", [
    ("TESTING", "ARCHITECTING", True),  # From the handoff's From, Owner the WorkflowState
    ("TESTING", "SCOPING", False),
    ("DEVELOPING", "ARCHITECTING", False),
])
def test_records_move(tmp_path, frm, owner, want):
    state = FAILURE.replace("## Recovery\n\n`Active`: `false`\n",
                            "## Recovery\n\n`Active`: `true`\n" + FRAME.format(frm=frm, owner=owner))
    v = view(tmp_path, state)
    assert v.records_move(v.frames[-1]) is want
