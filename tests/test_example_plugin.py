"""The example plugin package in fixtures/plugins installs, registers its
rules through its entry point, and fires on a fixture."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "fixtures" / "plugins" / "standards-lint-acme"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--target", str(target), str(PLUGIN)],
        capture_output=True, text=True,
    )
    if proc.returncode != 0:
        pytest.fail(f"pip install of the example plugin failed:\n{proc.stdout}\n{proc.stderr}")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")]),
               STANDARDS_LINT_CACHE_DIR=str(tmp_path_factory.mktemp("cache")))
    return env


def run(env, *args):
    return subprocess.run([sys.executable, "-m", "standards_lint", *args], capture_output=True, text=True, env=env)


def test_rules_appear_in_the_catalogue(installed):
    proc = run(installed, "rules", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    codes = {r["code"]: r for r in json.loads(proc.stdout)}
    assert codes["ACME001"]["plugin"] == "acme" and "ACME002" in codes
    assert codes["ACME003"]["plugin"] == "acme" and codes["ACME003"]["section"] == "Independent Assessment Sessions"
    assert all(codes[c]["beyond_checker"] for c in ("ACME001", "ACME002", "ACME003"))
    plugins = {p["name"]: p for p in json.loads(run(installed, "plugins", "--format", "json").stdout)}
    assert plugins["acme"]["version"] == "1.1.0"
    assert plugins["acme"]["codes"] == ["ACME001", "ACME002", "ACME003"]


def test_rules_fire_on_the_demo_project(installed):
    proc = run(installed, str(ROOT / "fixtures" / "demo"), "--format", "json", "--select", "ACME")
    data = json.loads(proc.stdout)
    assert [f["code"] for f in data["findings"]] == ["ACME001"]


def test_the_plugins_own_tests_pass(installed):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(PLUGIN / "tests")],
                          capture_output=True, text=True, env=installed, cwd=str(PLUGIN))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_broken_project_plugin_does_not_stop_builtin_rules(tmp_path):
    from .rules.conftest import RUNTIME, write_tree

    write_tree(tmp_path, dict(RUNTIME, **{
        ".standards/STATE.md": "# S.T.A.N.D.A.R.D.S. Workflow State\n\n## Recovery\n\n`Active`: `true`\n",
        "tools/broken_rules.py": "raise RuntimeError('broken on purpose')\n",
        "standards-lint.toml": 'plugins = ["tools.broken_rules"]\n',
    }))
    (tmp_path / "tools" / "__init__.py").write_text("")
    proc = subprocess.run([sys.executable, "-m", "standards_lint", str(tmp_path), "--format", "json", "--no-git"],
                          capture_output=True, text=True)
    data = json.loads(proc.stdout)
    codes = [f["code"] for f in data["findings"]]
    assert "SL004" in codes and "SL501" in codes
    assert any("tools.broken_rules" in f["message"] for f in data["findings"] if f["code"] == "SL004")
