"""Fixes: exact edits, encodings and line endings kept, atomic, idempotent."""

from __future__ import annotations

import os

import pytest

from standards_lint.cli import main
from standards_lint.fixes.fixer import fix_project

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

# Recovery.Active disagrees with the (empty) stack: SL501 has a safe fix.
BROKEN = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")


def _tree(tmp_path, state: str, *, newline: str = "\n", bom: bool = False):
    write_tree(tmp_path, RUNTIME)
    data = state.replace("\n", newline).encode("utf-8")
    (tmp_path / ".standards" / "STATE.md").write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return tmp_path / ".standards" / "STATE.md"


def test_fix_applies_and_second_run_changes_nothing(tmp_path):
    path = _tree(tmp_path, BROKEN)
    report, result = fix_project(str(tmp_path), use_git=False)
    assert [f.code for f in report.fixed] == ["SL501"]
    assert path.read_text() == CLEAN_STATE
    assert not [f for f in result.findings if f.code == "SL501"]
    again, _ = fix_project(str(tmp_path), use_git=False)
    assert again.fixed == [] and again.changed == {}
    assert path.read_text() == CLEAN_STATE


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
@pytest.mark.parametrize("bom", [True, False])
def test_fix_keeps_line_endings_and_bom(tmp_path, newline, bom):
    path = _tree(tmp_path, BROKEN, newline=newline, bom=bom)
    fix_project(str(tmp_path), use_git=False)
    data = path.read_bytes()
    expected = (b"\xef\xbb\xbf" if bom else b"") + CLEAN_STATE.replace("\n", newline).encode()
    assert data == expected


# Recovery.Active missing: SL202's safe fix inserts a line.
MISSING_LINE = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`\n", "## Recovery\n\n")


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_an_inserted_line_ends_as_the_files_lines_do(tmp_path, newline):
    """Issue 43: on a file of CR line ends the inserted line ended in LF (on
    CRLF, the insertion went between a CR and its LF).  The fixed file is
    the LF file's fix with each line end written the file's own way."""
    lf = tmp_path / "lf"
    _tree(lf, MISSING_LINE)
    report, _ = fix_project(str(lf), use_git=False)
    assert [f.code for f in report.fixed] == ["SL202"]
    expected = (lf / ".standards" / "STATE.md").read_bytes().replace(b"\n", newline.encode())
    path = _tree(tmp_path / "other", MISSING_LINE, newline=newline)
    report, result = fix_project(str(tmp_path / "other"), use_git=False)
    assert [f.code for f in report.fixed] == ["SL202"] and not result.findings
    assert path.read_bytes() == expected


def test_diff_writes_nothing(tmp_path, capsys):
    path = _tree(tmp_path, BROKEN)
    before = path.read_bytes()
    assert main([str(tmp_path), "--diff", "--no-git"]) == 1
    out = capsys.readouterr().out
    assert "-`Active`: `true`" in out and "+`Active`: `false`" in out
    assert path.read_bytes() == before


def test_symlinked_file_is_not_written(tmp_path):
    real = tmp_path / "elsewhere.md"
    real.write_text(BROKEN)
    write_tree(tmp_path, RUNTIME)
    os.symlink(real, tmp_path / ".standards" / "STATE.md")
    report, _ = fix_project(str(tmp_path), use_git=False)
    assert real.read_text() == BROKEN
    assert any("symlink" in s for s in report.skipped)


@pytest.mark.parametrize("inside", [True, False], ids=["target-inside", "target-outside"])
def test_cli_fix_of_a_symlinked_state_is_no_success(tmp_path, capsys, inside):
    """Issue 43: the refused write was reported as `Fixed 1 finding`, the
    finding dropped and the exit 0.  Nothing is written, the reason is
    given, the finding is still reported, and the exit is 1."""
    project = tmp_path / "p"
    write_tree(project, RUNTIME)
    real = (project / ".standards" / "state-copy.md") if inside else (tmp_path / "elsewhere.md")
    real.write_text(BROKEN)
    os.symlink(real, project / ".standards" / "STATE.md")
    assert main([str(project), "--fix", "--no-git", "--format", "json"]) == 1
    captured = capsys.readouterr()
    import json

    assert [f["code"] for f in json.loads(captured.out)["findings"]] == ["SL501"]
    assert ".standards/STATE.md: is a symlink; not written" in captured.err
    assert "Fixed 0 findings in 0 files; nothing written" in captured.err
    assert real.read_text() == BROKEN and (project / ".standards" / "STATE.md").is_symlink()
    report, result = fix_project(str(project), use_git=False)
    assert report.fixed == [] and report.changed == {} and report.unwritten == {".standards/STATE.md"}
    assert [f.code for f in result.findings] == ["SL501"]


def test_cli_fix_reports_what_it_fixed(tmp_path, capsys):
    _tree(tmp_path, BROKEN)
    assert main([str(tmp_path), "--fix", "--no-git"]) == 0
    out = capsys.readouterr().out
    assert "Fixed 1 finding in 1 file." in out


def test_passes_free_their_project_models_when_the_collector_is_held_back(tmp_path):
    """The console script disables the garbage collector; a --fix run of many
    passes must not keep every pass's project model (they hold cycles)."""
    import gc
    import weakref

    import shutil
    from pathlib import Path

    from standards_lint.engine import run as engine

    # The demo project: its records are inventoried, which makes the cycles.
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "demo", tmp_path / "demo")
    tmp_path = tmp_path / "demo"
    projects = []
    real = engine.Project

    class Tracked(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            projects.append(weakref.ref(self))

    gc.disable()
    try:
        import standards_lint.engine.run as eng

        eng.Project = Tracked
        try:
            report, result = fix_project(str(tmp_path), use_git=False)
        finally:
            eng.Project = real
        assert report.passes >= 1 and len(projects) >= 2
        assert "records" in result.project.__dict__
        alive = [p for p in projects if p() is not None]
        assert len(alive) == 1 and alive[0]() is result.project  # only the last pass's
    finally:
        gc.enable()


# -- renames -------------------------------------------------------------

def _mover_registry(old: str, new: str, edit: bool = True):
    """A registry of one rule: while *old* exists, move it to *new* (and, with
    *edit*, rewrite its first line on the way)."""
    from standards_lint.engine.run import Registry
    from standards_lint.engine.findings import Edit, Fix, Rename
    from standards_lint.engine.rule import report, rule

    @rule(code="XX001", name="wrong-place", section="test", summary="s", fix="safe")
    def wrong_place(project):
        if project.exists(old):
            text = project.text(old)
            edits = ()
            if edit and text.startswith("moved?"):
                edits = (Edit(old, 0, len("moved?"), "moved!"),)
            yield report(old, "wrong place", Fix(edits, "safe", "move", (Rename(old, new),)))
        if project.exists(new) and project.text(new).startswith("moved?"):
            yield report(new, "not rewritten")

    return Registry([wrong_place], [], [])


def test_fix_moves_a_file_once_and_the_second_run_changes_nothing(tmp_path):
    write_tree(tmp_path, RUNTIME)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "old.md").write_bytes(b"moved?\r\nrest\r\n")
    reg = _mover_registry("a/old.md", "b/new.md")
    report, result = fix_project(str(tmp_path), use_git=False, registry=reg)
    assert report.renamed == {"a/old.md": "b/new.md"}
    assert not (tmp_path / "a" / "old.md").exists()
    assert (tmp_path / "b" / "new.md").read_bytes() == b"moved!\r\nrest\r\n"
    assert result.findings == []
    again, _ = fix_project(str(tmp_path), use_git=False, registry=reg)
    assert again.fixed == [] and again.changed == {} and again.renamed == {}


def test_fix_refuses_a_move_onto_an_existing_file(tmp_path):
    write_tree(tmp_path, RUNTIME)
    (tmp_path / "old.md").write_text("moved?\n")
    (tmp_path / "new.md").write_text("someone's file\n")
    report, result = fix_project(str(tmp_path), use_git=False, registry=_mover_registry("old.md", "new.md"))
    assert report.fixed == [] and report.renamed == {}
    assert (tmp_path / "old.md").read_text() == "moved?\n"
    assert (tmp_path / "new.md").read_text() == "someone's file\n"
    assert [f.code for f in result.findings] == ["XX001"]


def test_diff_shows_a_move_as_a_git_rename(tmp_path):
    from standards_lint.fixes.fixer import unified_diff

    write_tree(tmp_path, RUNTIME)
    (tmp_path / "old.md").write_text("moved?\nrest\n")
    report, _ = fix_project(str(tmp_path), use_git=False, write=False, registry=_mover_registry("old.md", "new.md"))
    diff = unified_diff(report)
    assert diff.startswith("diff --git a/old.md b/new.md\nrename from old.md\nrename to new.md\n--- a/old.md\n+++ b/new.md\n")
    assert "-moved?\n+moved!\n" in diff
    assert (tmp_path / "old.md").exists() and not (tmp_path / "new.md").exists()
    report, _ = fix_project(str(tmp_path), use_git=False, write=False,
                            registry=_mover_registry("old.md", "new.md", edit=False))
    plain = unified_diff(report)
    assert plain == "diff --git a/old.md b/new.md\nrename from old.md\nrename to new.md\n"
