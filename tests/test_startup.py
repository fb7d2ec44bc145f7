"""What a cold run pays for before it checks anything: the modules a plain
lint imports, and git asked only where a repository can be found
(docs/performance.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from standards_lint.syntax.source import DiskSource

from .rules.conftest import CLEAN_STATE, RUNTIME, commit_tree, write_tree

# Heavy modules a plain lint of a project without plugins never needs: the
# class-building and plugin libraries (attrs, pluggy, and the `inspect` they
# pull in), the entry-point scanner (`importlib.metadata` with `email`,
# `zipfile`), Lark and its runtime's `dataclasses`/`pickle`, and
# `subprocess` outside a git repository.
NOT_IMPORTED = ("attr", "attrs", "pluggy", "inspect", "importlib.metadata", "email", "zipfile", "lark",
                "dataclasses", "pickle", "logging", "subprocess",
                # the MCP server (`standards-lint mcp`) and its SDK
                "standards_lint.agents.mcp", "mcp", "mcp_types", "anyio", "pydantic",
                # `standards-lint history` and its git reader (the history rules are
                # registered, but read only the model)
                "standards_lint.history", "standards_lint.history.git", "standards_lint.history.run",
                "standards_lint.history.story", "standards_lint.model.moves")

# What the interpreter had loaded before our code ran is not ours to count: a
# `.pth` file in site-packages may import anything at start-up (the CI
# machine's certifi hook brings `zipfile` through `importlib.resources`).
_LOADED = """
import sys
before = set(sys.modules)
import contextlib, io, json
from standards_lint.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _loaded(*args: str) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    proc = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, env=env,
                          check=True)
    return set(json.loads(proc.stdout.splitlines()[-1]))


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_plain_run_imports_only_what_it_needs(tmp_path, fmt):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    loaded = _loaded(str(tmp_path), "--no-cache", "--format", fmt)
    assert "standards_lint.rules.acceptance" in loaded  # the rules did run
    heavy = {m for m in loaded if m in NOT_IMPORTED or m.split(".")[0] in ("attr", "attrs", "pluggy", "lark", "mcp", "mcp_types", "anyio", "pydantic")}
    assert heavy == set(), (
        f"a plain run imported {sorted(heavy)}: keep them off the start-up path (see docs/performance.md)")


def test_no_git_process_where_no_repository_can_be(tmp_path, monkeypatch):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"):
        monkeypatch.delenv(name, raising=False)

    def no_git(*args, **kwargs):
        raise AssertionError("git was started")

    monkeypatch.setattr(subprocess, "run", no_git)
    assert DiskSource(str(tmp_path)).git_head() is None


def test_git_is_asked_inside_a_repository_and_through_a_link(tmp_path, monkeypatch):
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"):
        monkeypatch.delenv(name, raising=False)
    repo = tmp_path / "repo"
    repo.mkdir()
    commit_tree(repo, dict(RUNTIME, **{"sub/.standards/STATE.md": CLEAN_STATE}))
    assert DiskSource(str(repo / "sub")).git_head() is not None
    link = tmp_path / "link"
    link.symlink_to(repo / "sub")  # git walks up the physical path
    head = DiskSource(str(link)).git_head()
    assert head is not None and head.read(".standards/STATE.md") == CLEAN_STATE


def test_git_is_asked_when_the_environment_names_a_repository(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    commit_tree(repo, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    elsewhere = write_tree(tmp_path / "elsewhere", dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(elsewhere))
    assert DiskSource(str(elsewhere)).git_head() is not None


_HOOK = """
import sys
before = set(sys.modules)
import json
from standards_lint.agents.hook import stop
status = stop()
print(json.dumps([status, sorted(set(sys.modules) - before)]))
"""


def _hook_loaded(root) -> tuple:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, XDG_CACHE_HOME=str(root / ".cache"))
    event = json.dumps({"cwd": str(root), "hook_event_name": "Stop", "stop_hook_active": False})
    proc = subprocess.run([sys.executable, "-c", _HOOK], input=event, capture_output=True, text=True, env=env,
                          check=True)
    status, loaded = json.loads(proc.stdout.splitlines()[-1])
    return status, set(loaded)


def test_the_stop_hook_imports_the_history_only_when_state_md_changed(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    commit_tree(root, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    (root / ".standards/docs").mkdir(parents=True)
    (root / ".standards/docs/notes.md").write_text("# Notes\n", encoding="utf-8")  # a change, not STATE.md
    status, loaded = _hook_loaded(root)
    assert status == 0 and "standards_lint.history" not in loaded and "standards_lint.rules.acceptance" in loaded
    (root / ".standards/STATE.md").write_text(CLEAN_STATE + "\n", encoding="utf-8")
    status, loaded = _hook_loaded(root)
    assert status == 0 and "standards_lint.history" in loaded  # the move check ran


def test_the_stop_hook_outside_git_never_imports_the_history(tmp_path):
    root = write_tree(tmp_path / "p", dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    status, loaded = _hook_loaded(root)
    assert status == 0 and "standards_lint.history" not in loaded and "standards_lint.rules.acceptance" in loaded
