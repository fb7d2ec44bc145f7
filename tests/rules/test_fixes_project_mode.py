"""SL120: a missing, empty or doubled ProjectMode gets the mode the rest of
the project shows (unsafe), and none when nothing shows it."""

from __future__ import annotations

import os
import subprocess

from standards_lint.fixes.fixer import fix_project

from .conftest import CLEAN_STATE, RUNTIME, write_tree
from .test_fixes import assert_second_run_is_idle, findings, read
from .test_state_structure import ACTIVE, STATE

MODE = ".standards/MODE.md"
HEAD = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n"
BROWN = HEAD + "`ProjectMode`: `BROWNFIELD`\n"

EXPEDITED = ACTIVE.replace("`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`",
                           "`WorkflowState`: `DEVELOPING` `CycleMode`: `EXPEDITED`").replace(
    "`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `NONE`").replace(
    "`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `INITIAL` `From`: `NONE`")
# A standard cycle just started (INITIAL handoff) in its first state.
STARTED = ACTIVE.replace("`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `INITIAL` `From`: `NONE`")


def tree(tmp_path, mode_text, state):
    write_tree(tmp_path, {**RUNTIME, MODE: mode_text, STATE: state})
    return tmp_path


def sl120(root, use_git=False):
    from standards_lint.engine.run import lint

    return [f for f in lint(str(root), use_git=use_git).findings if f.code == "SL120"]


def test_missing_mode_of_an_expedited_project_is_brownfield(tmp_path):
    root = tree(tmp_path, HEAD, EXPEDITED)
    [f] = sl120(root)
    assert f.fix is not None and f.fix.applicability == "unsafe"
    safe_only, _ = fix_project(str(root), use_git=False, unsafe=False)
    assert read(root, MODE) == HEAD
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, MODE) == "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n\n"
    assert sl120(root) == []
    assert_second_run_is_idle(root, unsafe=True)


def test_empty_mode_keeps_crlf(tmp_path):
    text = (HEAD + "`ProjectMode`: ``\n").replace("\n", "\r\n")
    root = tree(tmp_path, text, EXPEDITED)
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, MODE) == BROWN.replace("\n", "\r\n")


def test_a_standard_cycle_in_its_start_state_shows_the_mode(tmp_path):
    for ws, mode in (("AUDITING", "BROWNFIELD"), ("SCOPING", "GREENFIELD")):
        st = STARTED.replace("`WorkflowState`: `ARCHITECTING`", f"`WorkflowState`: `{ws}`")
        [f] = sl120(tree(tmp_path, HEAD + "`ProjectMode`: ``\n", st))
        assert f.fix is not None and f.fix.edits[0].replacement == f"`ProjectMode`: `{mode}`", ws


def test_two_modes_keep_the_one_the_state_shows(tmp_path):
    root = tree(tmp_path, HEAD + "`ProjectMode`: `GREENFIELD` `ProjectMode`: `BROWNFIELD`\n", EXPEDITED)
    [f] = sl120(root)
    assert f.fix is not None and f.fix.applicability == "unsafe"
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, MODE) == BROWN


def test_no_fix_when_nothing_shows_the_mode(tmp_path):
    for st in (CLEAN_STATE, ACTIVE):  # no cycle yet; a standard cycle past its start
        [f] = sl120(tree(tmp_path, HEAD + "`ProjectMode`: ``\n", st))
        assert f.fix is None


def test_the_last_commits_brownfield_never_reverts(tmp_path):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")

    def git(*a):
        subprocess.run(["git", *a], cwd=tmp_path, env=env, check=True, capture_output=True)

    git("init", "-q")
    tree(tmp_path, BROWN, ACTIVE)
    git("add", "-A")
    git("commit", "-q", "-m", "c")
    write_tree(tmp_path, {MODE: HEAD})
    assert [f.fix for f in sl120(tmp_path, use_git=False)] == [None]  # without git: nothing shows it
    [f] = sl120(tmp_path, use_git=True)
    assert f.fix is not None and f.fix.edits[0].replacement.endswith("`ProjectMode`: `BROWNFIELD`")
