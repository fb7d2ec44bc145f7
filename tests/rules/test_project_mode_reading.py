"""One reading of ``ProjectMode``: every rule that branches on the project
mode reads it through ``model.accessors.project_mode``, the way the Project
Modes rules (SL120, SL121) read MODE.md. Before, three readings disagreed: one
looked only at MODE.md's header, one also ignored conflict markers."""

from __future__ import annotations

import pytest

from standards_lint.model.accessors import project_mode
from standards_lint.model.state_values import declared_project_mode
from standards_lint.engine.project import Project

from .conftest import CLEAN_STATE, RUNTIME, codes, write_tree

TITLE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n"


def _project(tmp_path, mode_text: str) -> Project:
    write_tree(tmp_path, {**RUNTIME, ".standards/STATE.md": CLEAN_STATE, ".standards/MODE.md": mode_text})
    return Project(str(tmp_path), use_git=False)


@pytest.mark.parametrize(
    ("mode_text", "expected"),
    [
        (TITLE + "`ProjectMode`: `GREENFIELD`\n", "GREENFIELD"),
        # The Project Modes rules accept the field under a section, so the
        # other rules read it there too.
        (TITLE + "## Mode\n\n`ProjectMode`: `GREENFIELD`\n", "GREENFIELD"),
        (TITLE + "`ProjectMode`: `BROWNFIELD` `ProjectMode`: `GREENFIELD`\n", None),
        (TITLE + "`ProjectMode`: `BROWNFIELD`\n\n## Mode\n\n`ProjectMode`: `BROWNFIELD`\n", None),
        (TITLE + "`ProjectMode`: `brownfield`\n", None),
        (TITLE + "<<<<<<< ours\n`ProjectMode`: `BROWNFIELD`\n=======\n`ProjectMode`: `GREENFIELD`\n>>>>>>> theirs\n",
         None),
        (TITLE + "<<<<<<< ours\n`ProjectMode`: `BROWNFIELD`\n>>>>>>> theirs\n", None),
    ],
    ids=["header", "under-a-section", "two-values", "repeated-across-sections", "lower-case", "conflict",
         "conflict-one-side"],
)
def test_every_reading_of_the_project_mode_agrees(tmp_path, mode_text, expected):
    project = _project(tmp_path, mode_text)
    assert project_mode(project) == expected
    assert declared_project_mode(project) == expected


def test_a_mode_under_a_section_is_neither_missing_nor_ignored(tmp_path, lint_tree):
    # SL120 finds the field, and the rules that branch on the mode read the
    # same value: GREENFIELD starts in SCOPING, so an INITIAL handoff into
    # AUDITING is reported as for a header field.
    state = CLEAN_STATE  # AUDITING after INITIAL
    header = lint_tree({".standards/MODE.md": TITLE + "`ProjectMode`: `GREENFIELD`\n"}, state=state)
    section = lint_tree({".standards/MODE.md": TITLE + "## Mode\n\n`ProjectMode`: `GREENFIELD`\n"}, state=state)
    assert "SL120" not in codes(section)
    assert sorted(codes(section)) == sorted(codes(header))
    assert codes(header)  # the start state is wrong for GREENFIELD: something is reported
