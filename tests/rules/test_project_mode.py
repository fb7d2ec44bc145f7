"""Tests of rules/project_mode.py (SL120-SL121)."""

from __future__ import annotations

import pytest

MODE = ".standards/MODE.md"
HEAD = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n"


def only(findings, code):
    return [f for f in findings if f.code == code]


@pytest.mark.parametrize("mode", ["GREENFIELD", "BROWNFIELD"])
def test_valid_mode(lint_tree, mode):
    found = lint_tree({MODE: HEAD + f"`ProjectMode`: `{mode}`\n"})
    assert [f for f in found if f.code in ("SL120", "SL121")] == []


def test_missing_mode_points_at_title(lint_tree):
    f = only(lint_tree({MODE: HEAD}), "SL120")
    assert [(x.path, x.line) for x in f] == [(MODE, 1)]


def test_repeated_mode_points_at_repeat(lint_tree):
    f = only(lint_tree({MODE: HEAD + "`ProjectMode`: `BROWNFIELD` `ProjectMode`: `GREENFIELD`\n"}), "SL120")
    assert [(x.path, x.line, x.column) for x in f] == [(MODE, 3, 29)]
    assert f[0].fix is None


def test_repeated_same_mode_has_safe_fix(lint_tree):
    text = HEAD + "`ProjectMode`: `BROWNFIELD` `ProjectMode`: `BROWNFIELD`\n"
    f = only(lint_tree({MODE: text}), "SL120")
    e = f[0].fix.edits[0]
    assert text[: e.start] + e.replacement + text[e.end:] == HEAD + "`ProjectMode`: `BROWNFIELD`\n"


def test_empty_mode(lint_tree):
    f = only(lint_tree({MODE: HEAD + "`ProjectMode`: ``\n"}), "SL120")
    assert [(x.path, x.line) for x in f] == [(MODE, 3)]
    assert only(lint_tree({MODE: HEAD + "`ProjectMode`: ``\n"}), "SL121") == []


@pytest.mark.parametrize("value", ["brownfield", "<BROWNFIELD>", "TODO"])
def test_invalid_mode(lint_tree, value):
    f = only(lint_tree({MODE: HEAD + f"`ProjectMode`: `{value}`\n"}), "SL121")
    assert [(x.path, x.line, x.column) for x in f] == [(MODE, 3, 17)]


def test_conflicted_mode_is_left_to_the_conflict_rule(lint_tree):
    text = HEAD + "<<<<<<< HEAD\n`ProjectMode`: `BROWNFIELD`\n=======\n`ProjectMode`: `GREENFIELD`\n>>>>>>> b\n"
    assert [f for f in lint_tree({MODE: text}) if f.code in ("SL120", "SL121")] == []
