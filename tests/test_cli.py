"""The command line: arguments, exit codes, formats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from standards_lint.cli import main

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"


def test_clean_project_exits_0(tmp_path, capsys):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE}))
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "All checks passed."


def test_findings_exit_1_with_text_lines(tmp_path, capsys, monkeypatch):
    files = {k: v for k, v in RUNTIME.items() if not k.endswith("MODE.md")}
    write_tree(tmp_path, dict(files, **{".standards/STATE.md": CLEAN_STATE}))
    monkeypatch.chdir(tmp_path)
    assert main([str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(".standards/MODE.md:1:1: SL101 ") for line in lines)
    assert lines[-1].startswith("Found ")


def test_walks_up_from_a_subfolder(tmp_path, capsys):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE, "src/pkg/x.py": ""}))
    assert main([str(tmp_path / "src" / "pkg")]) == 0


def test_no_standards_folder_is_a_usage_error(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "no .standards/" in capsys.readouterr().err


def test_unknown_option_is_a_usage_error(capsys):
    assert main(["--bogus"]) == 2


def test_json_format(tmp_path, capsys):
    files = {k: v for k, v in RUNTIME.items() if not k.endswith("MODE.md")}
    write_tree(tmp_path, dict(files, **{".standards/STATE.md": CLEAN_STATE}))
    assert main([str(tmp_path), "--format", "json", "--no-git"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"findings", "summary"}
    f = [f for f in data["findings"] if f["code"] == "SL101"][0]
    assert set(f) >= {"code", "severity", "message", "path", "line", "column", "end_line", "end_column", "section", "fix"}
    assert (f["path"], f["severity"], f["section"]) == (".standards/MODE.md", "error", "Runtime Tools and Hooks")
    assert data["summary"]["errors"] >= 1


def test_demo_project_has_findings_through_the_console_script():
    proc = subprocess.run(
        [sys.executable, "-m", "standards_lint", str(DEMO), "--format", "json"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["findings"], "the demo project must show real findings"
    assert all(f["path"] and f["line"] >= 1 for f in data["findings"])


def test_console_script_flushes_everything_before_its_fast_exit(tmp_path):
    """`run()` ends with os._exit: the whole output must be out first, on a
    pipe (block-buffered) as well, and the status must be main()'s, from the
    cache as from a full run."""
    env = {**os.environ, "STANDARDS_LINT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("STANDARDS_LINT_NO_CACHE", None)
    outputs = []
    for _ in range(2):  # a full run, then a cache hit
        proc = subprocess.run([sys.executable, "-m", "standards_lint", str(DEMO), "--no-git"],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout.rstrip().splitlines()[-1].startswith("Found 6 problems")
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert len(list((tmp_path / "cache" / "results").iterdir())) == 1
    clean = subprocess.run([sys.executable, "-m", "standards_lint", str(DEMO), "--no-git", "--select", "SL990"],
                           capture_output=True, text=True, env=env)
    assert clean.returncode == 0 and "All checks passed" in clean.stdout


def _own_record_misses_a_condition(root):
    """A cycle in TESTING whose own COMPLETE report omits AC-002 (and nothing else wrong for SL7)."""
    from .rules.test_acceptance import state, tree, verification

    files = tree(verify=verification("| AC-001 | test/search.test.js | passed |\n"))
    files[".standards/STATE.md"] = state("TESTING", kind="FORWARD", frm="DEVELOPING")
    write_tree(root, dict(RUNTIME, **files))


def test_turn_end_flag_relaxes_the_current_states_own_records(tmp_path, capsys):
    _own_record_misses_a_condition(tmp_path)
    main([str(tmp_path), "--no-git", "--no-cache", "--select", "SL721"])
    plain = capsys.readouterr().out
    assert "SL721" in plain and "AC-002" in plain
    assert main([str(tmp_path), "--no-git", "--no-cache", "--select", "SL721", "--turn-end"]) == 0
    assert "SL721" not in capsys.readouterr().out


def test_turn_end_flag_is_in_the_help(capsys):
    assert main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--turn-end" in out and "the Stop hook's end-of-turn check" in out
