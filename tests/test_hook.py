"""End to end: the installed ``standards-lint hook stop`` as Claude Code and
Codex run it (event JSON on stdin, inside a git repository or not), and the
settings ``hook print-config`` prints.

Payloads: Claude Code's Stop event (hooks reference: ``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``,
``stop_hook_active``) and Codex's (``session_id``, ``turn_id``,
``transcript_path``, ``cwd``, ``hook_event_name``, ``model``,
``stop_hook_active``, ``last_assistant_message``); see docs/agents.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

SCRIPT = shutil.which("standards-lint", path=os.path.dirname(sys.executable)) or shutil.which("standards-lint")
pytestmark = [
    pytest.mark.skipif(SCRIPT is None, reason="the standards-lint console script is not installed"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

BROKEN_STATE = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
INSTRUCTION_START = "For each problem (PROTOCOL.md, Runtime Tools and Hooks): if your role owns it, fix it"


def claude_event(root, session="3f2a9c1e-claude", active=False) -> dict:
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.claude/projects/p/{session}.jsonl",
        "cwd": str(root),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": active,
    }


def codex_event(root, session="019a-codex", turn="turn-1", active=False) -> dict:
    return {
        "session_id": session,
        "turn_id": turn,
        "transcript_path": None,
        "cwd": str(root),
        "hook_event_name": "Stop",
        "model": "gpt-5-codex",
        "stop_hook_active": active,
        "last_assistant_message": "Done: updated the verification report.",
    }


@pytest.fixture
def env(tmp_path):
    """A client's environment: the markers go to a fresh user cache folder."""
    e = {k: v for k, v in os.environ.items() if not k.startswith(("STANDARDS_LINT_", "GIT_"))}
    e.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
             GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return e


def stop(stdin, env, cwd):
    data = stdin if isinstance(stdin, (bytes, str)) else json.dumps(stdin)
    if isinstance(data, str):
        data = data.encode()
    r = subprocess.run([SCRIPT, "hook", "stop"], input=data, capture_output=True, env=env, cwd=cwd, timeout=120)
    return r.returncode, r.stderr.decode("utf-8", "replace"), r.stdout.decode("utf-8", "replace")


def git(root, *args, env):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=root,
                   env=env, check=True, capture_output=True)


def project(root: Path, env, *, state=CLEAN_STATE, commit=True, **extra) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    write_tree(root, {**RUNTIME, ".standards/STATE.md": state, "src/app.py": "print('hi')\n", **extra})
    if commit:
        git(root, "init", "-q", env=env)
        git(root, "add", "-A", env=env)
        git(root, "commit", "-q", "-m", "init", env=env)
    return root


# -- when it checks ----------------------------------------------------------------------------


def test_committed_tree_without_changes_lets_the_stop_through(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE)  # broken, but committed
    assert stop(claude_event(root), env, tmp_path) == (0, "", "")
    assert stop(codex_event(root), env, tmp_path) == (0, "", "")


def test_change_outside_workflow_files_lets_the_stop_through(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE)
    (root / "src/app.py").write_text("print('changed')\n")
    (root / "src/new.py").write_text("x = 1\n")
    assert stop(claude_event(root), env, tmp_path)[0] == 0


def test_claude_stop_with_changed_state_sends_the_agent_back_once(tmp_path, env):
    root = project(tmp_path / "p", env)
    (root / ".standards/STATE.md").write_text(BROKEN_STATE)
    status, err, out = stop(claude_event(root), env, tmp_path)
    assert status == 2
    assert out == ""
    assert "SL501 .standards/STATE.md:" in err
    assert "Recovery.Active" in err
    assert "[owner: AUDITOR]" in err  # AUDITING wrote it
    assert "Fix: " in err and "standards-lint --fix" in err  # SL501 has a safe fix
    assert "Navigator changes nothing: it only reports these problems.\n" in err
    assert INSTRUCTION_START in err
    # it ends with the one next action (standards-lint status)
    last = err.rstrip().splitlines()[-1]
    assert last.startswith("Next: the Auditor fixes first: The Auditor owns 1 error"), last
    assert "route it through Failure Handoffs" in err and "report it to the user" in err
    # The client continues the agent and, at its next stop, says so.
    assert stop(claude_event(root, active=True), env, tmp_path) == (0, "", "")


def test_codex_stop_with_changed_state_sends_the_agent_back_once(tmp_path, env):
    root = project(tmp_path / "p", env)
    (root / ".standards/STATE.md").write_text(BROKEN_STATE)
    status, err, _ = stop(codex_event(root), env, tmp_path)
    assert status == 2 and "SL501 .standards/STATE.md:" in err
    assert stop(codex_event(root, active=True), env, tmp_path) == (0, "", "")
    # The next turn (a new turn_id, not continuing) is checked again.
    assert stop(codex_event(root, turn="turn-2"), env, tmp_path)[0] == 2


def test_untracked_record_counts_as_a_change(tmp_path, env):
    root = project(tmp_path / "p", env)
    (root / ".standards/docs/notes").mkdir(parents=True)
    (root / ".standards/docs/notes/new.md").write_text("<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n")
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2
    assert "SL111 .standards/docs/notes/new.md:1:" in err and "[owner: USER]" in err


def test_changed_markdown_outside_standards_counts_as_a_change(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE)
    (root / "README.MD").write_text("# notes\n")
    assert stop(claude_event(root), env, tmp_path)[0] == 2


def test_clean_changed_tree_lets_the_stop_through(tmp_path, env):
    root = project(tmp_path / "p", env)
    (root / ".standards/STATE.md").write_text(CLEAN_STATE + "\n")
    assert stop(claude_event(root), env, tmp_path) == (0, "", "")


def test_outside_git_it_always_checks(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    assert stop(claude_event(root), env, tmp_path)[0] == 2


def test_folder_outside_any_project_lets_the_stop_through(tmp_path, env):
    (tmp_path / "elsewhere").mkdir()
    assert stop(claude_event(tmp_path / "elsewhere"), env, tmp_path / "elsewhere") == (0, "", "")


def test_cwd_is_taken_from_the_event_not_the_process(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    (tmp_path / "elsewhere").mkdir()
    assert stop(claude_event(root / "src"), env, tmp_path / "elsewhere")[0] == 2


# -- clients that do not send stop_hook_active; bad input -----------------------------------------


def test_without_stop_hook_active_a_marker_allows_one_block_per_session(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    event = {"session_id": "s-1", "cwd": str(root), "hook_event_name": "Stop"}
    assert stop(event, env, tmp_path)[0] == 2
    assert stop(event, env, tmp_path) == (0, "", "")  # the second stop of the turn goes through
    assert list((tmp_path / "xdg-cache/standards-lint/stop-hook").iterdir())
    # Another session is sent back once too.
    assert stop(dict(event, session_id="s-2"), env, tmp_path)[0] == 2


UNREADABLE_EVENTS = {
    "empty": b"", "blank": b"   \n", "not-json": b"{not json", "array": b"[1, 2]", "garbage": b"\xff\xfe garbage",
    "null": b"null",
    # Issue 43: these two printed `internal error, not checking` and let the stop through.
    "100000-nested-arrays": b"[" * 100_000 + b"]" * 100_000,
    "lone-surrogate-turn-id": b'{"session_id": "s-1", "turn_id": "\\ud800", "hook_event_name": "Stop"}',
}


@pytest.mark.parametrize("stdin", UNREADABLE_EVENTS.values(), ids=list(UNREADABLE_EVENTS))
def test_empty_or_invalid_input_checks_the_current_folder_once(tmp_path, env, stdin):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    status, err, _ = stop(stdin, env, root)
    assert status == 2 and "SL501" in err
    assert stop(stdin, env, root) == (0, "", "")


def test_no_block_when_the_marker_cannot_be_written(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    env = dict(env, XDG_CACHE_HOME=str(blocker))
    for _ in range(2):
        assert stop({"session_id": "s", "cwd": str(root)}, env, tmp_path)[0] == 0


def test_internal_error_prints_one_line_and_does_not_block(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False,
                   **{"standards-lint.toml": "selectt = ['SL']\n"})
    status, err, out = stop(claude_event(root), env, tmp_path)
    assert status not in (0, 2)
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("standards-lint hook stop: internal error")


def test_at_most_fifteen_problems_then_how_many_more(tmp_path, env):
    notes = {f".standards/docs/notes/n{i:02}.md": "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n" for i in range(20)}
    root = project(tmp_path / "p", env, commit=False, **notes)
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2
    listed = [line for line in err.splitlines() if line.startswith("- SL")]
    assert len(listed) == 15
    assert "... and 5 more. Run `standards-lint --turn-end " in err and str(root) in err


# -- print-config ------------------------------------------------------------------------------


@pytest.mark.parametrize("client", ["claude", "codex"])
def test_print_config_is_the_clients_stop_hook_shape(client, tmp_path, env):
    r = subprocess.run([SCRIPT, "hook", "print-config", "--client", client], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    settings = json.loads(r.stdout)
    assert list(settings) == ["hooks"]
    assert list(settings["hooks"]) == ["Stop"]
    (group,) = settings["hooks"]["Stop"]
    assert "matcher" not in group  # Stop takes no matcher
    (hook,) = group["hooks"]
    assert hook == {"type": "command", "command": "standards-lint hook stop", "timeout": 30}
    # The printed command, run through a shell as the clients do, is the hook.
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    shell_env = dict(env, PATH=os.path.dirname(SCRIPT) + os.pathsep + env.get("PATH", ""))
    event = claude_event(root) if client == "claude" else codex_event(root)
    run = subprocess.run(hook["command"], shell=True, input=json.dumps(event).encode(), capture_output=True,
                         env=shell_env, timeout=120)
    assert run.returncode == 2 and b"SL501" in run.stderr


def test_print_config_options(env):
    r = subprocess.run([SCRIPT, "hook", "print-config", "--client", "codex", "--timeout", "45",
                        "--command", "/opt/bin/standards-lint hook stop"], capture_output=True, text=True, env=env)
    hook = json.loads(r.stdout)["hooks"]["Stop"][0]["hooks"][0]
    assert hook == {"type": "command", "command": "/opt/bin/standards-lint hook stop", "timeout": 45}
    bad = subprocess.run([SCRIPT, "hook", "print-config", "--client", "cursor"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "cursor" in bad.stderr


# -- the move in progress (standards-lint history, HEAD -> the working tree) ---------------------


def _cycle_state(**fields) -> str:
    from .history.walk import INSTALLED, state_text

    s = dict(INSTALLED, id="add-search-20261001T100000Z-aaaaaaaa", mode="STANDARD", policy="FULL_DELIVERABLE",
             request="Add search.", kind="INITIAL", reason="A new cycle.")
    s.update(fields)
    return state_text(s)


def test_a_forged_from_in_the_working_tree_is_sent_back_naming_sl1002(tmp_path, env):
    root = project(tmp_path / "p", env, state=_cycle_state())  # AUDITING, committed
    (root / ".standards/STATE.md").write_text(_cycle_state(
        state="SCOPING", kind="FORWARD", reason="Audit done.", **{"from": "ARCHITECTING"}))
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2, err
    line = next(x for x in err.splitlines() if x.startswith("- SL1002 "))
    assert line.startswith("- SL1002 .standards/STATE.md:") and "-> the working tree:" in line
    assert "`From`: `ARCHITECTING`" in line and "[owner: AUDITOR]" in line and "Next step: " in line
    assert "`standards-lint history --since HEAD " in err  # how to see the move check again


def test_a_legal_move_in_the_working_tree_adds_no_history_finding(tmp_path, env):
    root = project(tmp_path / "p", env, state=_cycle_state())
    (root / ".standards/STATE.md").write_text(_cycle_state(
        state="SCOPING", kind="FORWARD", reason="Audit done.", **{"from": "AUDITING"}))
    assert stop(claude_event(root), env, tmp_path) == (0, "", "")  # lint-clean, and no history finding


def test_the_move_check_in_a_project_below_the_repository_root(tmp_path, env):
    repo = tmp_path / "repo"
    root = project(repo / "proj", env, state=_cycle_state(), commit=False)
    git(repo, "init", "-q", env=env)
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "-m", "init", env=env)
    (root / ".standards/STATE.md").write_text(_cycle_state(
        state="SCOPING", kind="FORWARD", reason="Audit done.", **{"from": "ARCHITECTING"}))
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2 and "- SL1002 .standards/STATE.md:" in err, err


def test_a_repository_without_a_commit_still_gets_the_lint_list(tmp_path, env):
    root = project(tmp_path / "p", env, state=BROKEN_STATE, commit=False)
    git(root, "init", "-q", env=env)  # no HEAD: the move check has nothing to compare with
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2 and "SL501 .standards/STATE.md:" in err and "internal error" not in err
    assert "history --since HEAD" not in err  # no move check ran


def _turn(tmp_path, env, trees):
    """A project whose last commit holds ``trees[0]`` and whose working tree
    is ``trees[-1]`` (the turn's moves, uncommitted)."""
    root = tmp_path / "turn"
    root.mkdir()
    write_tree(root, trees[0])
    git(root, "init", "-q", env=env)
    git(root, "add", "-A", env=env)
    git(root, "commit", "-q", "-m", "before the turn", env=env)
    for rel in trees[0]:
        if rel not in trees[-1]:
            (root / rel).unlink()
    write_tree(root, trees[-1])
    return root


def test_a_turn_that_forges_a_handoff_over_a_missing_report_is_sent_back(tmp_path, env):
    """The Stop hook's move check is the history's explanation: DEVELOPING
    straight to REVIEWING_IMPLEMENTATION with `From: TESTING` and no
    verification report is no squash the tree could come from (SL1004), and
    the message says which gate is missing."""
    from .history import shapes

    root = _turn(tmp_path, env, shapes.forged_forward())
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert status == 2, err
    line = next(x for x in err.splitlines() if x.startswith("- SL1004 "))
    assert "-> the working tree:" in line and "`TESTING` was left with `FORWARD`, but its verification report" in line


def test_a_turn_that_squashes_legal_moves_is_not_sent_back_for_the_move(tmp_path, env):
    """The same two forward handoffs made with their gates passed, left
    uncommitted in one turn: no history finding joins the lint's."""
    from .history import shapes

    root = _turn(tmp_path, env, shapes.legal_forward_squash())
    status, err, _ = stop(claude_event(root), env, tmp_path)
    assert "- SL10" not in err, err
    assert status == 0, err


def test_the_check_follows_the_projects_framework_release(tmp_path, env):
    """A 0.9.x project keeps a STATE.md without `CompletionPolicy` (its
    release has none): its Stop hook lets the turn end; the same change on a
    0.12 project is sent back (docs/releases.md)."""
    import re

    old_state = re.sub(r" ?`CompletionPolicy`: `[^`]*`", "", CLEAN_STATE)
    assert old_state != CLEAN_STATE
    for version, expected in (("0.9.1", 0), ("0.12.1", 2)):
        root = project(tmp_path / version, env, **{".standards/VERSION.json": json.dumps({"version": version})})
        (root / ".standards/STATE.md").write_text(old_state, encoding="utf-8")
        status, err, _out = stop(claude_event(root), env, tmp_path)
        assert status == expected, err
        if expected:
            assert "CompletionPolicy" in err
