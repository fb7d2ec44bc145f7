"""SL990 user-style-unresolved."""

from __future__ import annotations

from .conftest import CLEAN_STATE

CYCLE = "add-search-20260101T000000Z-0a1b2c3d"
PLAN = f".standards/docs/development/{CYCLE}.md"


def state(ws: str) -> str:
    return (
        CLEAN_STATE.replace("`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`", f"`WorkflowState`: `{ws}` `CycleMode`: `STANDARD`")
        .replace("`CompletionPolicy`: `NONE` `Id`: `UNSET` `Request`: `UNSET`",
                 f"`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{CYCLE}` `Request`: `Add search.`")
        .replace("`Development`: `NONE`", f"`Development`: `{PLAN}`")
    )


def plan(style: str) -> str:
    return (
        f"<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: {CYCLE}\n-->\n\n# Development Plan\n\n"
        f"`Cycle`: `{CYCLE}` `Status`: `IN_PROGRESS`\n`User Style`: `{style}`\n"
    )


def sl990(findings):
    return [f for f in findings if f.code == "SL990"]


def test_missing_style_file_fires_on_the_field(lint_tree):
    other = {".standards/user-styles/developer/alice.md": "# Alice\n"}
    found = sl990(lint_tree(dict(other, **{PLAN: plan("tony")}), state=state("DEVELOPING")))
    assert [(f.path, f.line) for f in found] == [(PLAN, 9)]
    assert "selects no file" in found[0].message
    # An empty folder of another role is still the project's styles folder.
    found = sl990(lint_tree({".standards/user-styles/tester/bob.md": "# Bob\n", PLAN: plan("tony")},
                            state=state("DEVELOPING")))
    assert len(found) == 1 and "selects no file" in found[0].message


def test_a_checkout_without_user_styles_says_nothing_of_a_missing_file(lint_tree):
    """The real corpus's records save `User Style`: `tony` and its
    repository carries no `.standards/user-styles/`: user styles are the
    user's own files, so a clean checkout cannot tell a missing style from
    one kept out of version control.  A path selector is wrong anywhere."""
    assert sl990(lint_tree({PLAN: plan("tony")}, state=state("DEVELOPING"))) == []
    found = sl990(lint_tree({PLAN: plan("../tester/tony")}, state=state("DEVELOPING")))
    assert len(found) == 1 and "is a path" in found[0].message


def test_stem_and_full_name_resolve(lint_tree):
    styles = {".standards/user-styles/developer/tony.md": "# Tony\n", ".standards/user-styles/developer/tony.md.md": "# T2\n"}
    assert sl990(lint_tree(dict(styles, **{PLAN: plan("tony")}), state=state("DEVELOPING"))) == []
    assert sl990(lint_tree(dict(styles, **{PLAN: plan("tony.md.md")}), state=state("DEVELOPING"))) == []


def test_ambiguous_selector(lint_tree):
    styles = {".standards/user-styles/developer/tony.md": "# Tony\n", ".standards/user-styles/developer/tony.md.md": "# T2\n"}
    found = sl990(lint_tree(dict(styles, **{PLAN: plan("tony.md")}), state=state("DEVELOPING")))
    assert len(found) == 1 and "ambiguous" in found[0].message


def test_path_selector(lint_tree):
    found = sl990(lint_tree({PLAN: plan("../tester/tony")}, state=state("DEVELOPING")))
    assert len(found) == 1 and "is a path" in found[0].message


def test_none_and_other_states_are_silent(lint_tree):
    assert sl990(lint_tree({PLAN: plan("NONE")}, state=state("DEVELOPING"))) == []
    # Only the role that owns the state reloads its selection.
    assert sl990(lint_tree({PLAN: plan("tony")}, state=state("TESTING"))) == []
