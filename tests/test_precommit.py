import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pre_commit_manifest_is_valid():
    exe = shutil.which("pre-commit")
    cmd = [exe] if exe else [sys.executable, "-m", "pre_commit"]
    proc = subprocess.run([*cmd, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_broken_manifest_is_rejected(tmp_path):
    bad = tmp_path / "hooks.yaml"
    bad.write_text("- id: x\n  entry: standards-lint\n")  # no name, no language
    exe = shutil.which("pre-commit")
    cmd = [exe] if exe else [sys.executable, "-m", "pre_commit"]
    proc = subprocess.run([*cmd, "validate-manifest", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0
