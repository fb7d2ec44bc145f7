"""The result cache: a re-run of an unchanged project prints the stored
output without linting; any change to what the output depends on is a miss."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from standards_lint import cache_dir
from standards_lint.engine import run as engine
from standards_lint.cli import main

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo"


@pytest.fixture()
def project(tmp_path, monkeypatch):
    monkeypatch.delenv("STANDARDS_LINT_NO_CACHE")
    monkeypatch.setenv("STANDARDS_LINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


@pytest.fixture()
def lint_calls(monkeypatch):
    """Counts real lint runs (a cache hit makes none)."""
    calls = []
    real = engine.lint

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "lint", counting)
    return calls


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_rerun_of_an_unchanged_project_is_served_from_the_cache(project, lint_calls):
    first = run(str(project), "--no-git")
    second = run(str(project), "--no-git")
    assert len(lint_calls) == 1
    assert second == first
    assert first[0] == 1 and "SL501" in first[1]
    assert len(os.listdir(Path(cache_dir()) / "results")) == 1


def test_any_folder_inside_the_project_shares_the_entry(project, lint_calls):
    run(str(project), "--no-git")
    run(str(project / ".standards"), "--no-git")
    assert len(lint_calls) == 1


def test_editing_a_file_is_a_miss(project, lint_calls):
    status, out, _ = run(str(project), "--no-git")
    state = project / ".standards" / "STATE.md"
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace("`Active`: `true`", "`Active`: `false`"), encoding="utf-8")
    status2, out2, _ = run(str(project), "--no-git")
    assert len(lint_calls) == 2
    assert "SL501" in out and "SL501" not in out2


@pytest.mark.parametrize("change", ["add", "remove", "rename"])
def test_adding_removing_or_renaming_a_file_is_a_miss(project, lint_calls, change):
    run(str(project), "--no-git")
    docs = project / ".standards" / "docs"
    some = sorted(docs.rglob("*.md"))[0]
    if change == "add":
        (docs / "notes.md").write_text("# Notes\n", encoding="utf-8")
    elif change == "remove":
        some.unlink()
    else:
        some.rename(some.with_name("renamed.md"))
    run(str(project), "--no-git")
    assert len(lint_calls) == 2


def test_options_and_formats_are_part_of_the_key(project, lint_calls):
    text = run(str(project), "--no-git")
    as_json = run(str(project), "--no-git", "--format", "json")
    selected = run(str(project), "--no-git", "--select", "SL501")
    assert len(lint_calls) == 3
    assert json.loads(as_json[1])["findings"]
    assert selected[1].count("SL501") == 1 and "SL931" not in selected[1] and "SL931" in text[1]


def test_a_configuration_change_is_a_miss(project, lint_calls):
    run(str(project), "--no-git")
    (project / "standards-lint.toml").write_text('ignore = ["SL501"]\n', encoding="utf-8")
    status, out, _ = run(str(project), "--no-git")
    assert len(lint_calls) == 2
    assert "SL501" not in out


def test_no_cache_flag_environment_and_configuration_turn_it_off(project, lint_calls, monkeypatch):
    run(str(project), "--no-git", "--no-cache")
    run(str(project), "--no-git", "--no-cache")
    assert len(lint_calls) == 2
    assert not (Path(cache_dir()) / "results").exists()
    (project / "standards-lint.toml").write_text("cache = false\n", encoding="utf-8")
    run(str(project), "--no-git")
    run(str(project), "--no-git")
    assert len(lint_calls) == 4
    assert not (Path(cache_dir()) / "results").exists()
    (project / "standards-lint.toml").unlink()
    monkeypatch.setenv("STANDARDS_LINT_NO_CACHE", "1")
    run(str(project), "--no-git")
    run(str(project), "--no-git")
    assert len(lint_calls) == 6


def test_fix_never_uses_the_cache(project, lint_calls):
    status, out, _ = run(str(project), "--no-git")
    assert "SL501" in out
    run(str(project), "--no-git", "--fix")
    status, out, _ = run(str(project), "--no-git")
    assert "SL501" not in out  # fixed, and the stored result before the fix is not served


@pytest.mark.parametrize("damage", [b"", b"1 nonsense\n", b"\xff\xfe garbage", None])
def test_a_damaged_cache_file_is_a_miss(project, lint_calls, damage):
    first = run(str(project), "--no-git")
    (entry,) = (Path(cache_dir()) / "results").iterdir()
    if damage is None:  # truncated: the stored texts are shorter than announced
        entry.write_bytes(entry.read_bytes()[:-10])
    else:
        entry.write_bytes(damage)
    assert run(str(project), "--no-git") == first
    assert len(lint_calls) == 2


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_new_commit_is_a_miss(project, lint_calls):
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "one")
    run(str(project))
    run(str(project))
    assert len(lint_calls) == 1
    _git(project, "commit", "-q", "--allow-empty", "-m", "two")
    run(str(project))
    assert len(lint_calls) == 2


def test_an_internal_error_is_not_cached(project, lint_calls, monkeypatch):
    from standards_lint.engine import project as project_module

    def broken(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(project_module.Project, "active_cycle", property(broken))
    first = run(str(project), "--no-git")
    assert "SL001" in first[1]
    run(str(project), "--no-git")
    assert len(lint_calls) == 2


def test_editing_the_target_of_a_symlinked_file_is_a_miss(project, lint_calls, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Notes\n", encoding="utf-8")
    link = project / ".standards" / "docs" / "notes.md"
    link.symlink_to(outside)
    run(str(project), "--no-git")
    run(str(project), "--no-git")
    assert len(lint_calls) == 1
    outside.write_text("# Notes\n\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n", encoding="utf-8")
    run(str(project), "--no-git")
    assert len(lint_calls) == 2


def test_an_output_the_cache_cannot_hold_is_simply_not_stored(project, monkeypatch):
    from standards_lint.engine import cache

    cache.store(str(project), "k" * 40, 1, "bad \ud800 text", "")
    assert cache.lookup(str(project), "k" * 40) is None
    cache.store(str(project), "k" * 40, 1, "file \udcff name", "")
    assert cache.lookup(str(project), "k" * 40) == (1, "file \udcff name", "")


def test_turn_end_run_is_not_served_the_plain_result(project, lint_calls):
    # The turn-end check holds other records: --turn-end is part of the key.
    plain = run(str(project), "--no-git")
    turn_end = run(str(project), "--no-git", "--turn-end")
    again = run(str(project), "--no-git", "--turn-end")
    assert len(lint_calls) == 2
    assert again == turn_end
    assert plain[0] == 1 and turn_end[0] == 1
