"""The plugin host and the rule runner."""

from __future__ import annotations

from standards_lint.engine import INTERNAL_ERROR, PLUGIN_ERROR, lint, load_registry

from .rules.conftest import RUNTIME, write_tree


def test_builtin_rules_load_through_entry_points():
    reg = load_registry()
    assert not reg.errors, reg.errors
    codes = [r.code for r in reg.rules]
    assert "SL101" in codes and "SL110" in codes
    assert len(codes) == len(set(codes))
    names = {p.name for p in reg.plugins}
    assert {"runtime", "state_structure", "recovery", "provenance"} <= names


def test_every_rule_is_fully_declared():
    for r in load_registry().rules:
        assert r.code and r.name and r.section and r.summary, r
        assert r.explanation, r.code
        assert r.severity in ("error", "warning", "info"), r.code
        assert r.fix in ("none", "safe", "unsafe", "sometimes"), r.code


def test_raising_rule_becomes_internal_error_and_run_goes_on(tmp_path):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": "no title\n"}))
    reg = load_registry(["tests.plugins.good_plugin"], cached=False)
    findings = lint(str(tmp_path), use_git=False, registry=reg).findings
    internal = [f for f in findings if f.code == INTERNAL_ERROR]
    assert len(internal) == 1
    assert "TST002" in internal[0].message and "boom" in internal[0].message
    assert any(f.code == "TST001" for f in findings)


def test_broken_plugin_is_reported_and_others_still_run(tmp_path):
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": "no title\n"}))
    reg = load_registry(["tests.plugins.broken_plugin", "tests.plugins.good_plugin"], cached=False)
    assert any("broken_plugin" in e and "ImportError" in e for e in reg.errors)
    findings = lint(str(tmp_path), use_git=False, registry=reg).findings
    assert any(f.code == PLUGIN_ERROR and "broken_plugin" in f.message for f in findings)
    assert any(f.code == "TST001" for f in findings)
    assert any(r.code == "SL101" for r in reg.rules)


def test_code_collision_names_both_sides():
    reg = load_registry(["tests.plugins.good_plugin", "tests.plugins.colliding_plugin"], cached=False)
    msgs = [e for e in reg.errors if "TST001" in e]
    assert len(msgs) == 1
    assert "good_plugin" in msgs[0] and "colliding_plugin" in msgs[0]


def test_every_problem_is_reported_not_only_the_first(tmp_path):
    # three independent runtime problems -> three findings
    files = {k: v for k, v in RUNTIME.items() if not k.endswith(("VERSION.json", "INSTALLATION.json", "PROTOCOL.md"))}
    write_tree(tmp_path, dict(files, **{".standards/STATE.md": "# S\n"}))
    findings = [f for f in lint(str(tmp_path), use_git=False).findings if f.code == "SL101"]
    assert sorted(f.path for f in findings) == [
        ".standards/INSTALLATION.json",
        ".standards/PROTOCOL.md",
        ".standards/VERSION.json",
    ]


def test_three_independent_structural_mistakes_give_three_findings(tmp_path):
    """Issue: "A STATE.md with three independent structural mistakes yields
    three findings, each on its own line." The framework's checker stops at
    the first."""
    from .rules.conftest import CLEAN_STATE

    state = (
        CLEAN_STATE.replace("`WorkflowState`: `AUDITING`", "`WorkflowState`: `AUDITNG`")  # invalid value
        .replace("`AuditTarget`: `NONE` ", "")  # missing field
        .replace("## Outstanding Obligations", "## Handoff\n\n`Kind`: `INITIAL`\n\n## Outstanding Obligations")  # repeated section
    )
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": state}))
    findings = [f for f in lint(str(tmp_path), use_git=False).findings if f.path == ".standards/STATE.md"]
    structural = [f for f in findings if f.code in ("SL201", "SL202", "SL203")]
    assert sorted(f.code for f in structural) == ["SL201", "SL202", "SL203"], findings
    assert len({f.line for f in structural}) == 3
    lines = state.split("\n")
    by_code = {f.code: f for f in structural}
    assert "AUDITNG" in lines[by_code["SL203"].line - 1]
    assert lines[by_code["SL201"].line - 1].startswith("## Handoff")
