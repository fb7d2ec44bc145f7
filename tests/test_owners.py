"""Who owns each finding (PROTOCOL.md, Runtime Tools and Hooks; Failure Types)."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess

import pytest

from standards_lint.engine.run import load_registry, lint
from standards_lint.model.owners import OWNERS, STRATEGIES, state_writer

from .parity.harness import iter_cases, materialize
from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree


def _declared(r) -> bool:
    return callable(r.owner) or r.owner in OWNERS or r.owner in STRATEGIES


def test_every_registered_rule_declares_its_owner():
    reg = load_registry(cached=False)
    assert len(reg.rules) >= 189
    missing = [r.code for r in reg.rules if not r.owner]
    assert missing == []
    unknown = [(r.code, r.owner) for r in reg.rules if not _declared(r)]
    assert unknown == []


def test_every_builtin_rule_module_declares_owner_explicitly():
    """The declaration is written in the decorator, not left to a default."""
    import ast
    import pathlib

    import standards_lint.rules as pkg

    for path in sorted(pathlib.Path(pkg.__path__[0]).glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "rule":
                names = [k.arg for k in node.keywords]
                code = next(k.value.value for k in node.keywords if k.arg == "code")
                assert "owner" in names, f"{path.name}: {code} has no owner="


def test_example_plugin_rules_declare_owners():
    import importlib.util
    import pathlib

    init = pathlib.Path(__file__).parents[1] / "fixtures/plugins/standards-lint-acme/acme_standards_rules/__init__.py"
    spec = importlib.util.spec_from_file_location("acme_owner_probe", init)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rules = mod.standards_lint_rules()
    assert {r.code: r.owner for r in rules} == {"ACME001": "USER", "ACME002": "REVIEWER", "ACME003": "TESTER"}


def _sample(step: int):
    return itertools.islice(iter_cases(), 0, None, step)


def test_every_finding_on_parity_trees_has_an_owner(tmp_path):
    reg = load_registry()
    seen_owners, checked = set(), 0
    for case in _sample(37):
        root = materialize(case, str(tmp_path))
        try:
            result = lint(str(root), registry=reg)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        for f in result.findings:
            assert f.owner in OWNERS, (case["id"], f.code, f.owner)
            checked += 1
            seen_owners.add(f.owner)
    assert checked > 100
    # The sample reaches records of several roles and the user.
    assert {"USER", "DEVELOPER", "TESTER"} <= seen_owners


def _files(state: str = CLEAN_STATE, **extra) -> dict:
    files = dict(RUNTIME)
    files[".standards/STATE.md"] = state
    files.update(extra)
    return files


def test_merge_conflict_is_the_users(tmp_path):
    state = CLEAN_STATE.replace("## Handoff", "<<<<<<< ours\n## Handoff", 1)
    write_tree(tmp_path, _files(state))
    found = [f for f in lint(str(tmp_path), use_git=False).findings if f.code == "SL110"]
    assert found and all(f.owner == "USER" for f in found)


def test_hand_edited_mode_is_the_users(tmp_path):
    write_tree(tmp_path, _files(**{".standards/MODE.md": "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `PURPLE`\n"}))
    found = [f for f in lint(str(tmp_path), use_git=False).findings if f.code.startswith("SL12")]
    assert found and all(f.owner == "USER" for f in found)


def test_state_problem_goes_to_the_state_that_wrote_it(tmp_path):
    # A forward handoff from DEVELOPING to TESTING was written by the Developer.
    state = CLEAN_STATE.replace("`WorkflowState`: `AUDITING`", "`WorkflowState`: `TESTING`").replace(
        "`Kind`: `INITIAL` `From`: `NONE`", "`Kind`: `FORWARD` `From`: `DEVELOPING`").replace(
        "## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
    write_tree(tmp_path, _files(state))
    found = [f for f in lint(str(tmp_path), use_git=False).findings if f.path == ".standards/STATE.md"]
    assert found and {f.owner for f in found} == {"DEVELOPER"}


class _Stub:
    def __init__(self, state):
        self.state = state


def test_state_writer_without_a_role_is_the_user():
    assert state_writer(_Stub(None)) == "USER"


def _git(root, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=root,
                   check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_edit_within_a_state_since_the_last_commit_is_the_current_roles(tmp_path):
    """STATE.md committed after a forward handoff to TESTING; the Tester then
    edits it (same handoff): a problem it introduced is the Tester's, not
    the Developer's who handed off."""
    good = CLEAN_STATE.replace("`WorkflowState`: `AUDITING`", "`WorkflowState`: `TESTING`").replace(
        "`Kind`: `INITIAL` `From`: `NONE`", "`Kind`: `FORWARD` `From`: `DEVELOPING`").replace(
        "`Id`: `UNSET`", "`Id`: `demo-20260101T000000Z-0a1b2c3d`")
    write_tree(tmp_path, _files(good))
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "handoff")
    edited = good.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
    write_tree(tmp_path, {".standards/STATE.md": edited})
    result = lint(str(tmp_path))
    found = [f for f in result.findings if f.path == ".standards/STATE.md"]
    assert found
    assert "head_state" in vars(result.project)  # a rule compared STATE.md with HEAD
    assert {f.owner for f in found} == {"TESTER"}


def test_sarif_results_carry_the_owner(tmp_path):
    from standards_lint.output.sarif import render_sarif

    state = CLEAN_STATE.replace("## Handoff", "<<<<<<< ours\n## Handoff", 1)
    write_tree(tmp_path, _files(state))
    log = json.loads(render_sarif(lint(str(tmp_path), use_git=False)))
    results = log["runs"][0]["results"]
    assert results and all(r["properties"]["owner"] in OWNERS for r in results)
    assert any(r["ruleId"] == "SL110" and r["properties"]["owner"] == "USER" for r in results)


# -- --role -------------------------------------------------------------------------------------


def _two_owner_tree(tmp_path):
    """STATE.md written by AUDITING (SL501, the Auditor's) and a note with a
    merge conflict (SL111, the user's)."""
    state = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
    write_tree(tmp_path, _files(state, **{".standards/docs/notes/n.md": "<<<<<<< ours\na\n=======\nb\n>>>>>>> x\n"}))
    return tmp_path


def _cli(capsys, *args):
    from standards_lint.cli import main

    status = main([*args])
    return status, capsys.readouterr().out


def test_role_lists_its_own_findings_first_and_routes_the_rest(tmp_path, capsys):
    root = _two_owner_tree(tmp_path)
    status, out = _cli(capsys, str(root), "--no-git", "--role", "auditor")
    assert status == 1  # the Auditor owns an error
    # Each finding's line, then (concise layout) its indented help line.
    lines = [line for line in out.splitlines() if not line.startswith("    help (")]
    assert lines[0] == "AUDITOR owns 1 (fix before continuing):"
    assert "SL501" in lines[1]
    assert lines[2].startswith("report to the user (1;") and "SL111" in lines[3]
    assert "    help (AUDITOR): " in out
    assert "AUDITOR owns 1 error; a forward handoff needs none." in out


def test_role_without_own_errors_exits_zero(tmp_path, capsys):
    root = _two_owner_tree(tmp_path)
    status, out = _cli(capsys, str(root), "--no-git", "--role", "TESTER")
    assert status == 0
    assert "route to AUDITOR (1; through Failure Handoffs):" in out
    assert "TESTER owns 0 errors: nothing blocks a forward handoff." in out
    assert out.index("route to AUDITOR") < out.index("report to the user")
    status, _ = _cli(capsys, str(root), "--no-git")
    assert status == 1  # without --role every error counts


def test_role_json_summary(tmp_path, capsys):
    root = _two_owner_tree(tmp_path)
    status, out = _cli(capsys, str(root), "--no-git", "--role", "navigator", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["summary"]["role"] == {"role": "NAVIGATOR", "owned": 0, "owned_errors": 0,
                                       "routed": {"AUDITOR": 1, "USER": 1}}
    assert {f["owner"] for f in data["findings"]} == {"AUDITOR", "USER"}


def test_unknown_role_is_a_usage_error(tmp_path, capsys):
    root = _two_owner_tree(tmp_path)
    from standards_lint.cli import main

    assert main([str(root), "--role", "BOSS"]) == 2


def test_role_is_part_of_the_result_cache_key(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("STANDARDS_LINT_NO_CACHE", raising=False)
    root = _two_owner_tree(tmp_path)
    first = _cli(capsys, str(root), "--no-git", "--role", "AUDITOR")
    second = _cli(capsys, str(root), "--no-git", "--role", "TESTER")
    assert first[0] == 1 and second[0] == 0
    assert first[1] != second[1]
    assert _cli(capsys, str(root), "--no-git", "--role", "AUDITOR") == first  # a hit replays the same run
