"""The plugin host and the rule runner."""

from __future__ import annotations

from standards_lint.engine.run import INTERNAL_ERROR, PLUGIN_ERROR, lint, load_registry

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


# -- plugin discovery ----------------------------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from standards_lint.engine import run as engine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_the_builtin_list_is_pyprojects_entry_points():
    """The engine imports the built-in rule modules from BUILTIN_PLUGINS
    (linter/engine/run.py); pyproject.toml declares the same modules under the
    entry-point group. A new rule module goes in both."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = declared["project"]["entry-points"]["standards_lint"]
    assert dict(engine.BUILTIN_PLUGINS) == declared, (
        "pyproject.toml's [project.entry-points.standards_lint] and BUILTIN_PLUGINS in linter/engine/run.py "
        "must list the same built-in rule modules")
    assert list(engine.BUILTIN_PLUGINS) == sorted(engine.BUILTIN_PLUGINS)


def test_every_rule_module_is_a_builtin_plugin():
    modules = {f"standards_lint.rules.{p.stem}" for p in (ROOT / "rules").glob("*.py") if p.stem != "__init__"}
    listed = {module for _, module in engine.BUILTIN_PLUGINS}
    assert modules - listed == set(), "add the module to BUILTIN_PLUGINS (linter/engine/run.py) and pyproject.toml"
    assert listed - modules == set()


def test_module_rules_marks_the_hook_as_pluggys_hookimpl_does():
    from standards_lint.engine.hookspecs import hookimpl
    from standards_lint.engine.rule import module_rules

    @hookimpl
    def standards_lint_rules():
        return []

    ours = module_rules({})
    assert ours.standards_lint_impl == standards_lint_rules.standards_lint_impl


def test_builtin_rule_modules_load_without_pluggy():
    """Only a plugin other than the built-in rule modules needs pluggy (to
    check its hooks against the specification)."""
    code = ("import sys; from standards_lint.engine import run as engine; "
            "reg = engine.load_registry(); "
            "print(bool(engine._entry_points()), 'pluggy' in sys.modules, 'importlib.metadata' in sys.modules, "
            "len(reg.rules) > 150, reg.errors)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    if out[0] == "True":
        pytest.skip("a third-party plugin is installed in this environment")
    assert out == ["False", "False", "False", "True", "[]"]


def _dist(site: Path, folder: str, entry_points: "str | None", metadata: str = "") -> None:
    d = site / folder
    d.mkdir(parents=True)
    if entry_points is not None:
        (d / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    if metadata:
        (d / ("PKG-INFO" if folder.endswith(".egg-info") else "METADATA")).write_text(metadata, encoding="utf-8")


def test_the_entry_point_scan_finds_what_importlib_metadata_finds(tmp_path, monkeypatch):
    """Reading the entry_points.txt files directly gives the same plugins, in
    the same order, with the same versions, as importlib.metadata: the first
    distribution of a name on sys.path wins, comments and other groups are
    passed over, an egg-info's version is its PKG-INFO's."""
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "acme_rules-1.2.0.dist-info",
          "[console_scripts]\nacme = acme:main\n\n[standards_lint]\n# a comment\nacme = acme_rules\n"
          "acme_extra =  acme_rules.extra:hooks [fast]\n",
          "Metadata-Version: 2.1\nName: acme-rules\nVersion: 1.2.0\n\nVersion: not this\n")
    _dist(first, "other-3.0.dist-info", "[console_scripts]\nother = other:main\n", "Name: other\nVersion: 3.0\n")
    _dist(first, "Legacy.Rules.egg-info", "[standards_lint]\nlegacy=legacy_rules\n", "Name: Legacy.Rules\nVersion: 0.9\n")
    _dist(first, "nothing-1.0.dist-info", None, "Name: nothing\nVersion: 1.0\n")
    _dist(second, "acme_rules-1.0.0.dist-info", "[standards_lint]\nold = acme_old\n",
          "Name: acme-rules\nVersion: 1.0.0\n")
    _dist(second, "Beta_Rules-2.0.dist-info", "[standards_lint]\nbeta = beta.rules:plugin\n",
          "Name: beta-rules\nVersion: 2.0\n")
    monkeypatch.setattr(sys, "path", [str(first), str(tmp_path / "missing"), str(second), *sys.path])
    scanned = engine._scan_entry_points()
    assert scanned is not None
    assert scanned == engine._metadata_entry_points()
    mine = [(e.name, e.value, e.version) for e in scanned if e.value.startswith(("acme", "legacy", "beta"))]
    assert sorted(mine) == [("acme", "acme_rules", "1.2.0"), ("acme_extra", "acme_rules.extra:hooks [fast]", "1.2.0"),
                            ("beta", "beta.rules:plugin", "2.0"), ("legacy", "legacy_rules", "0.9")]
    assert not any(e.value.startswith("standards_lint.rules.") for e in scanned)  # the built-ins are not scanned


def test_a_zip_on_sys_path_is_read_by_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "plugins.zip"
    import zipfile

    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.0.dist-info/entry_points.txt", "[standards_lint]\nzipped = zipped_rules\n")
        z.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\nVersion: 1.0\n")
    monkeypatch.setattr(sys, "path", [str(archive), *sys.path])
    assert engine._scan_entry_points() is None
    assert ("zipped", "zipped_rules", "1.0") in [(e.name, e.value, e.version) for e in engine._entry_points()]


def test_an_installed_plugin_that_fails_to_import_is_an_sl004(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(site, "broken_rules-0.1.dist-info", "[standards_lint]\nbroken = no_such_module_anywhere\n",
          "Name: broken-rules\nVersion: 0.1\n")
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    write_tree(tmp_path / "project", dict(RUNTIME, **{".standards/STATE.md": "no title\n"}))
    reg = load_registry(cached=False)
    assert [p.version for p in reg.plugins if p.name == "broken"] == ["0.1"]
    assert any("`broken`" in e and "ModuleNotFoundError" in e for e in reg.errors)
    findings = lint(str(tmp_path / "project"), use_git=False, registry=reg).findings
    assert any(f.code == PLUGIN_ERROR and "no_such_module_anywhere" in f.message for f in findings)
    assert any(f.code.startswith("SL2") for f in findings)  # the built-in rules still ran
