"""The GitHub Action (action.yml at the repository root): its definition,
and its two steps (.github/action/install.sh, run.sh) run here as the runner
runs them, with GITHUB_WORKSPACE, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
pointing at temporary files and folders."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
INSTALL = ROOT / ".github" / "action" / "install.sh"
RUN = ROOT / ".github" / "action" / "run.sh"
DEMO = ROOT / "fixtures" / "demo"
INPUTS = {"path", "args", "sarif-file", "summary", "version", "since"}

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")


def script() -> str:
    name = "standards-lint.exe" if sys.platform.startswith("win") else "standards-lint"
    path = Path(sysconfig.get_path("scripts")) / name
    assert path.is_file(), "the standards-lint console script is not installed (pip install -e '.[test]')"
    return str(path)


def outputs(path: Path) -> dict:
    """$GITHUB_OUTPUT's `name=value` lines."""
    return dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if "=" in line)


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "workspace"
    shutil.copytree(DEMO, ws / "demo")
    return ws


def run_step(workspace: Path, bin_path: str | None = None, python: str | None = None, **inputs: str):
    """run.sh as the action's second step runs it; (process, outputs, summary)."""
    out, summary = workspace.parent / "github_output", workspace.parent / "step_summary"
    out.write_text("")
    summary.write_text("")
    env = dict(os.environ, GITHUB_WORKSPACE=str(workspace), GITHUB_OUTPUT=str(out), GITHUB_STEP_SUMMARY=str(summary),
               STANDARDS_LINT_BIN=bin_path or script(), STANDARDS_LINT_PYTHON=python or sys.executable)
    for name, value in inputs.items():
        env["INPUT_" + name.upper().replace("-", "_")] = value
    proc = subprocess.run(["bash", str(RUN)], cwd=str(workspace.parent), env=env, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    return proc, outputs(out), summary.read_text(encoding="utf-8")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([script(), *args], cwd=str(cwd), capture_output=True, text=True, timeout=120)


def status_available() -> bool:
    """Whether `standards-lint status` exists (issue 20).  Its --help must be
    its own: without the subcommand, `status` is taken for a PATH and the
    linter's --help exits 0 too."""
    proc = subprocess.run([script(), "status", "--help"], capture_output=True, text=True, timeout=60)
    return proc.returncode == 0 and "usage: standards-lint status" in proc.stdout


# -- the definition ----------------------------------------------------------------------------
def test_action_yml_is_a_composite_action_with_every_input_described():
    import yaml

    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["name"] == "standards-lint" and action["description"].strip()
    assert set(action["inputs"]) == INPUTS
    for name, spec in action["inputs"].items():
        assert isinstance(spec.get("description"), str) and len(spec["description"].strip()) > 20, name
        assert isinstance(spec.get("default"), str), name  # every input optional, with a default
    assert action["inputs"]["summary"]["default"] == "true" and action["inputs"]["path"]["default"] == "."
    assert all(spec["description"].strip() for spec in action["outputs"].values())
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    scripts = []
    for step in steps:
        assert step["shell"] == "bash"
        m = re.fullmatch(r'bash "\$GITHUB_ACTION_PATH/([^"]+)"', step["run"].strip())
        assert m, step["run"]
        scripts.append(ROOT / m.group(1))
    assert scripts == [INSTALL, RUN]
    # Every input reaches a step, as the variable the script reads.
    env = {k: v for step in steps for k, v in step.get("env", {}).items()}
    for name in INPUTS:
        var = "INPUT_" + name.upper().replace("-", "_")
        assert env.get(var) == f"${{{{ inputs.{name} }}}}", var
        assert var in (INSTALL.read_text() + RUN.read_text()), var
    # The second step runs what the first installed.
    assert env["STANDARDS_LINT_BIN"] == "${{ steps.install.outputs.bin }}"
    for name, spec in action["outputs"].items():
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}"


def test_docs_ci_shows_the_action_with_its_inputs():
    import yaml

    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = text.split("## GitHub Action\n", 1)[1].split("\n## ", 1)[0]
    workflow = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    steps = workflow["jobs"]["lint"]["steps"]
    (ours,) = [s for s in steps if s.get("uses", "").endswith("/standards-lint@v1")]
    assert set(ours["with"]) <= INPUTS
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] == ours["with"]["sarif-file"]
    table = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.M))
    assert table == INPUTS


# -- the run step --------------------------------------------------------------------------------
def test_the_run_step_annotates_writes_sarif_and_its_outputs(workspace):
    proc, out, _summary = run_step(workspace, path="demo", args="--no-git --ignore 'SL214'",
                                   **{"sarif-file": "reports/standards-lint.sarif", "summary": "false"})
    assert proc.returncode == 1, proc.stderr  # the demo has errors: the step fails
    # The annotations are the command line's, with the args applied.
    expected = cli("demo", "--no-git", "--ignore", "SL214", "--format", "github", cwd=workspace).stdout
    # outside the workflow (no GITHUB_WORKSPACE, no .git) paths are the project's
    expected = re.sub(r"^(::\w+ file=)", r"\1demo/", expected, flags=re.M)
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert annotations == expected.splitlines()
    # paths from the repository root (the workspace), not from `path`
    assert any(line.startswith("::error file=demo/.standards/STATE.md,line=31,col=12,") and "SL501" in line
               for line in annotations)
    assert not any("SL214" in line for line in annotations)
    # SARIF for upload-sarif, with the same findings.
    sarif = workspace / "reports" / "standards-lint.sarif"
    log = json.loads(sarif.read_text(encoding="utf-8"))
    results = log["runs"][0]["results"]
    assert len(results) == len(annotations) and "SL214" not in {r["ruleId"] for r in results}
    assert out == {"sarif-file": "reports/standards-lint.sarif", "exit-code": "1"}


def test_the_run_step_without_sarif_or_summary_writes_neither(workspace):
    proc, out, summary = run_step(workspace, path="demo", args="--no-git", summary="false")
    assert proc.returncode == 1
    assert out == {"sarif-file": "", "exit-code": "1"}
    assert summary == ""
    assert not list(workspace.rglob("*.sarif"))


def test_a_project_without_errors_passes(workspace):
    data = json.loads(cli("demo", "--no-git", "--format", "json", cwd=workspace).stdout)
    quiet = sorted({"SL110", "SL111", "SL501", "SL931"} - {f["code"] for f in data["findings"] if f["severity"] == "error"})
    assert quiet
    proc, out, _ = run_step(workspace, path="demo", args=f"--no-git --select {','.join(quiet)}", summary="false")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out["exit-code"] == "0" and "::error" not in proc.stdout


def test_a_usage_error_fails_the_step_with_an_error_annotation(workspace):
    proc, out, _ = run_step(workspace, path="nowhere", summary="false")
    assert proc.returncode == 2
    assert out["exit-code"] == "2"
    assert "::error title=standards-lint::standards-lint exited 2" in proc.stdout
    assert "no .standards/ folder" in proc.stderr
    proc, _, _ = run_step(workspace, path="demo", args="--select 'SL5", summary="false")
    assert proc.returncode == 2 and "cannot split the args input" in proc.stdout


def test_the_summary_is_the_status_of_the_project(workspace):
    proc, _out, summary = run_step(workspace, path="demo", args="--no-git", summary="true")
    assert proc.returncode == 1
    assert status_available(), "`standards-lint status` must answer (issue 20)"
    expected = cli("status", "demo", "--format", "markdown", cwd=workspace)
    assert expected.returncode == 0 and expected.stdout.strip()
    assert summary == expected.stdout.rstrip("\n") + "\n"


def test_the_summary_is_what_status_prints(workspace, tmp_path):
    """The step's summary branch, whatever this tree's `status` does: a
    standards-lint that answers `status` with known Markdown."""
    stub = tmp_path / "standards-lint"
    stub.write_text("#!/usr/bin/env bash\n"
                    'if [ "$1" = status ]; then printf "## Status of %s\\n\\n%s\\n" "$2" "$*"; exit 0; fi\n'
                    f'exec "{script()}" "$@"\n', encoding="utf-8")
    stub.chmod(0o755)
    proc, _out, summary = run_step(workspace, bin_path=str(stub), path="demo", args="--no-git --ignore SL214")
    assert proc.returncode == 1
    # Only the path reaches `status` (the args are the linter's).
    assert summary == "## Status of demo\n\nstatus demo --format markdown\n"
    proc, _out, summary = run_step(workspace, bin_path=str(stub), path="demo", summary="false")
    assert summary == ""


# -- the install step ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """install.sh as the action's first step runs it: the action's checkout
    (this repository) into a fresh virtual environment (about 25 s)."""
    temp = tmp_path_factory.mktemp("runner_temp")
    out = temp / "github_output"
    out.write_text("")
    env = dict(os.environ, GITHUB_ACTION_PATH=str(ROOT), RUNNER_TEMP=str(temp), GITHUB_OUTPUT=str(out),
               INPUT_VERSION="", PYTHON=sys.executable)
    env.pop("VIRTUAL_ENV", None)
    proc = subprocess.run(["bash", str(INSTALL)], cwd=str(temp), env=env, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)
    if proc.returncode != 0 and "No matching distribution found for setuptools" in proc.stdout + proc.stderr:
        pytest.skip(f"no package index to build from: {proc.stderr.strip()[-300:]}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, outputs(out), temp


def test_the_install_step_installs_the_actions_checkout(installed):
    proc, out, temp = installed
    assert f"Installing standards-lint from {ROOT}" in proc.stdout
    assert "standards-lint 0.1.0" in proc.stdout  # its --version
    venv = temp / "standards-lint-venv"
    assert Path(out["bin"]).parent.parent == venv and Path(out["python"]).parent.parent == venv
    # A real install, not a link to the checkout: the package lives in the environment.
    probe = subprocess.run([out["python"], "-c", "import standards_lint; print(standards_lint.__file__)"],
                           capture_output=True, text=True, timeout=60, cwd=str(temp))
    assert Path(probe.stdout.strip()).is_relative_to(venv)


def test_the_installed_package_ships_the_rule_pages_and_links_to_them(installed):
    """What an installed wheel holds: every current page of docs/rules as
    package data, and rule links to it (tests/test_docs.py checks that
    docs/rules is current)."""
    from standards_lint.output.catalogue import builtin_rules, generate_docs

    _proc, out, temp = installed
    probe = ("import json; from standards_lint.engine import links; "
             "print(json.dumps([links.docs_dir(), links.rule_url('SL501'), links.rule_url('SL501', local=False)]))")
    got = subprocess.run([out["python"], "-c", probe], capture_output=True, text=True, timeout=60, cwd=str(temp))
    folder, url, remote = json.loads(got.stdout)
    assert Path(folder).name == "rule_docs" and Path(folder).parent.name == "standards_lint"
    assert Path(folder).is_relative_to(temp / "standards-lint-venv")
    pages = {p.name: p.read_text(encoding="utf-8") for p in Path(folder).glob("*.md")}
    assert pages == generate_docs("", builtin_rules())
    assert url == (Path(folder) / "SL501.md").as_uri() and remote is None


def test_the_installed_action_runs_end_to_end(installed, workspace):
    _proc, out, _temp = installed
    proc, got, _summary = run_step(workspace, bin_path=out["bin"], python=out["python"], path="demo",
                                   args="--no-git", summary="false", **{"sarif-file": "sl.sarif"})
    assert proc.returncode == 1 and got["exit-code"] == "1"
    assert any("SL501" in line for line in proc.stdout.splitlines() if line.startswith("::error "))
    assert json.loads((workspace / "sl.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]


def test_a_subfolder_project_in_a_repository_as_a_new_user_has_it(tmp_path):
    """`path: proj` on a copy of fixtures/demo in proj/ of a git repository:
    annotations and SARIF locations name files GitHub can find from the
    repository root, and `since` checks the moves of the pull request."""
    ws = tmp_path / "workspace"
    shutil.copytree(DEMO, ws / "proj")
    env = dict({k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, GIT_AUTHOR_NAME="u",
               GIT_AUTHOR_EMAIL="u@example.invalid", GIT_COMMITTER_NAME="u", GIT_COMMITTER_EMAIL="u@example.invalid")
    git = lambda *a: subprocess.run(["git", *a], cwd=ws, env=env, check=True, capture_output=True, text=True).stdout
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    base = git("rev-parse", "HEAD").strip()
    state = ws / "proj" / ".standards" / "STATE.md"
    text = state.read_text(encoding="utf-8")
    # the pull request signs off with a forged From
    text = text.replace("`WorkflowState`: `AWAITING_USER_SIGNOFF` `CycleMode`: `DOCUMENTATION`",
                        "`WorkflowState`: `SIGNED_OFF` `CycleMode`: `UNSET`")
    text = text.replace("`Kind`: `FORWARD` `From`: `SYNCHRONIZING`", "`Kind`: `SIGNOFF` `From`: `SYNCHRONIZING`")
    state.write_text(text, encoding="utf-8")
    git("commit", "-q", "-am", "sign off")
    proc, out, summary = run_step(ws, path="proj", since=base, **{"sarif-file": "out.sarif", "summary": "true"})
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::")]
    assert annotations and all(line.split("file=", 1)[1].startswith("proj/") for line in annotations), annotations
    assert not any("file=.standards/" in line for line in annotations)
    log = json.loads((ws / "out.sarif").read_text(encoding="utf-8"))
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"] for loc in r["locations"]}
    assert uris and all(u.startswith("proj/") for u in uris)
    assert log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ws.resolve().as_uri() + "/"
    # the history check: the forged From of the sign-off, on the line GitHub shows
    assert any("SL1002" in line and "file=proj/.standards/STATE.md" in line for line in annotations)
    assert "# History (since " in summary and out["exit-code"] == "1"
