"""Tests of the model and fix helpers the cycle-mode, completion and STATE.md
structure rules share (linter/model/accessors.py, state_values.py, route.py;
linter/fixes/state.py)."""

from __future__ import annotations

import pytest

from standards_lint.fixes.state import omitted_state_findings, set_value_fix
from standards_lint.model.accessors import aw_field, aw_values, holds_value, state_in_mode, unstarted_state
from standards_lint.model.route import OMITTED_STATES
from standards_lint.model.state_values import determined_from, handoff_step_end, state_model, unconflicted
from standards_lint.engine.project import Project

from .conftest import CLEAN_STATE, RUNTIME, write_tree

CID = "add-user-search-20261130T024240Z-721b3054"


def _state(ws="AUDITING", mode="STANDARD", kind="INITIAL", frm="NONE", **aw) -> str:
    text = CLEAN_STATE.replace("`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`",
                               f"`WorkflowState`: `{ws}` `CycleMode`: `{mode}`")
    text = text.replace("`CompletionPolicy`: `NONE` `Id`: `UNSET` `Request`: `UNSET`",
                        f"`CompletionPolicy`: `{'FULL_DELIVERABLE' if mode == 'STANDARD' else 'NONE'}` "
                        f"`Id`: `{CID}` `Request`: `Add user search.`")
    text = text.replace("`Kind`: `INITIAL` `From`: `NONE`", f"`Kind`: `{kind}` `From`: `{frm}`")
    for name, value in aw.items():
        text = text.replace(f"`{name}`: `NONE`", f"`{name}`: `{value}`", 1)
    return text


def _project(tmp_path, state: str) -> Project:
    write_tree(tmp_path, {**RUNTIME, ".standards/STATE.md": state})
    return Project(str(tmp_path), use_git=False)


@pytest.mark.parametrize(
    ("kind", "state", "after", "before"),
    [
        ("SIGNOFF", "AWAITING_USER_SIGNOFF", "SIGNED_OFF", None),
        ("SIGNOFF", "SIGNED_OFF", None, "AWAITING_USER_SIGNOFF"),
        ("SIGNOFF", "TESTING", None, None),
        ("CHECKPOINT", "DEVELOPING", "TESTING", "TESTING"),
        ("CHECKPOINT", "TESTING", "DEVELOPING", "DEVELOPING"),
        ("CHECKPOINT", "AUDITING", None, None),
        ("FORWARD", "TESTING", "REVIEWING_IMPLEMENTATION", "DEVELOPING"),
        # BROWNFIELD: either standard route, so ARCHITECTING leads to AUDITING
        # or DEVELOPING, and DEVELOPING follows either: not determined.
        ("FORWARD", "ARCHITECTING", None, "SCOPING"),
        ("FORWARD", "DEVELOPING", "TESTING", None),
        ("FORWARD", "NOT_A_STATE", None, None),
        ("FAILURE", "DEVELOPING", None, None),
    ],
)
def test_handoff_step_end_reads_one_step_both_ways(tmp_path, kind, state, after, before):
    project = _project(tmp_path, _state(ws="DEVELOPING"))
    st = state_model(project)
    assert handoff_step_end(project, st, kind, state, after=True) == after
    assert handoff_step_end(project, st, kind, state, after=False) == before


def test_checkpoint_step_needs_a_standard_cycle(tmp_path):
    project = _project(tmp_path, _state(ws="TESTING", mode="EXPEDITED"))
    st = state_model(project)
    assert handoff_step_end(project, st, "CHECKPOINT", "DEVELOPING", after=True) is None


def test_determined_from_reads_the_step_into_workflow_state(tmp_path):
    project = _project(tmp_path, _state(ws="TESTING", kind="FORWARD", frm="DEVELOPING"))
    assert determined_from(project, state_model(project)) == "DEVELOPING"
    project = _project(tmp_path, _state(ws="SCOPING", kind="INITIAL"))
    assert determined_from(project, state_model(project)) == "NONE"


def test_unconflicted_drops_a_file_with_conflict_markers(tmp_path):
    clean = _project(tmp_path, _state())
    assert unconflicted(clean, clean.state) is clean.state
    assert unconflicted(clean, None) is None
    conflicted = _state().replace("`WorkflowState`", "<<<<<<< HEAD\n=======\n>>>>>>> other\n`WorkflowState`", 1)
    project = _project(tmp_path, conflicted)
    assert unconflicted(project, project.state) is None
    assert state_model(project) is None


@pytest.mark.parametrize(("value", "holds"), [("Need tests", True), ("NONE", False), (" ", False)])
def test_holds_value_and_aw_values(tmp_path, value, holds):
    sm = _project(tmp_path, _state(Scope=value)).state
    assert holds_value(aw_field(sm, "Scope")) is holds
    assert holds_value(None) is False
    assert [f.name for f in aw_values(sm, "Scope", "Architecture")] == (["Scope"] if holds else [])


def test_state_in_mode(tmp_path):
    project = _project(tmp_path, _state(mode="EXPEDITED", ws="DEVELOPING"))
    assert state_in_mode(project, "EXPEDITED") is project.state
    assert state_in_mode(project, "STANDARD") is None


def test_unstarted_state(tmp_path):
    installed = _project(tmp_path, CLEAN_STATE)
    assert unstarted_state(installed) is installed.state
    assert unstarted_state(_project(tmp_path, _state())) is None


def test_set_value_fix_is_an_unsafe_edit_of_the_value(tmp_path):
    sm = _project(tmp_path, _state()).state
    field = aw_field(sm, "CompletionPolicy")
    fix = set_value_fix(field, "NONE", "CompletionPolicy", ": why")
    assert fix.applicability == "unsafe"
    assert fix.description == "Set CompletionPolicy to NONE: why"
    assert [(e.path, e.start, e.end, e.replacement) for e in fix.edits] == [
        (field.path, field.value_span.start, field.value_span.end, "NONE")
    ]


@pytest.mark.parametrize("mode", sorted(OMITTED_STATES))
def test_omitted_state_findings(tmp_path, mode):
    omitted = OMITTED_STATES[mode][0]
    project = _project(tmp_path, _state(ws=omitted, mode=mode, kind="FORWARD", frm="AUDITING"))
    [finding] = omitted_state_findings(project, mode, "state {ws} omitted")
    assert finding.message == f"state {omitted} omitted"
    ws_field = project.state.one(project.state.header, "WorkflowState")
    assert (finding.path, finding.span) == (ws_field.path, ws_field.value_span)
    other = "DOCUMENTATION" if mode == "EXPEDITED" else "EXPEDITED"
    assert list(omitted_state_findings(project, other, "{ws}")) == []
    kept = _project(tmp_path, _state(ws="AWAITING_USER_SIGNOFF", mode=mode))
    assert list(omitted_state_findings(kept, mode, "{ws}")) == []

