"""SARIF 2.1.0 output and GitHub annotations."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from standards_lint.engine.run import lint
from standards_lint.output.formats import render_github
from standards_lint.output.sarif import render_sarif

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"
VALIDATOR_PATHS = [
    os.environ.get("SARIF_MULTITOOL", ""),
    str(ROOT / ".ci" / ".sarif" / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"),
]


def _validator():
    for p in VALIDATOR_PATHS:
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("Sarif.Multitool")


def sarif_of(root) -> dict:
    return json.loads(render_sarif(lint(str(root), use_git=False)))


def test_demo_sarif_shape():
    log = sarif_of(DEMO)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "standards-lint" and driver["version"] and driver["semanticVersion"]
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)) and "SL501" in ids
    for r in driver["rules"]:
        assert r["shortDescription"]["text"] and r["help"]["markdown"]
        # No docs-url configured: no link (a file: URI of this machine would
        # not open where the log is read, e.g. GitHub code scanning).
        assert "helpUri" not in r
        assert r["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert r["properties"]["protocolSection"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file://")
    assert run["invocations"][0]["executionSuccessful"] is True
    findings = lint(str(DEMO), use_git=False).findings
    assert len(run["results"]) == len(findings) > 0
    for res, f in zip(run["results"], findings):
        assert res["ruleId"] == f.code and ids[res["ruleIndex"]] == f.code
        loc = res["locations"][0]["physicalLocation"]
        # from the repository root (the demo is fixtures/demo of this repository)
        from standards_lint.output.formats import repository_prefix

        assert loc["artifactLocation"] == {"uri": repository_prefix(str(DEMO)) + f.path, "uriBaseId": "%SRCROOT%"}
        assert loc["region"]["startLine"] == f.line and loc["region"]["startColumn"] == f.column
        assert res["partialFingerprints"]


def test_help_uri_follows_the_configured_docs_url():
    from standards_lint.syntax.data import replace

    result = lint(str(DEMO), use_git=False)
    plugin_rule = replace(next(r for r in result.registry.rules if r.code == "SL501"), code="XYZ900")
    for docs_url, page in (("https://docs.test/sl/rules/", "https://docs.test/sl/rules/SL501.md"),
                           ("https://docs.test/sl/rules", "https://docs.test/sl/rules/SL501.md"),
                           ("https://docs.test/r/{code}.html", "https://docs.test/r/SL501.html")):
        log = json.loads(render_sarif(result, docs_url=docs_url))
        rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
        assert rules["SL501"]["helpUri"] == page
        assert all(r["helpUri"] == page.replace("SL501", code) for code, r in rules.items())
        assert log["runs"][0]["tool"]["driver"]["informationUri"] == page.replace("SL501", "README")
        # A rule without an installed page (a third-party plugin's) gets no link.
        other = json.loads(render_sarif(result, rules=[plugin_rule], docs_url=docs_url))
        assert "helpUri" not in other["runs"][0]["tool"]["driver"]["rules"][0]


def test_fix_becomes_sarif_replacement():
    log = sarif_of(DEMO)
    fixed = [r for r in log["runs"][0]["results"] if r["ruleId"] == "SL501"]
    assert fixed and fixed[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == "false"


def test_fingerprints_survive_unrelated_line_moves(tmp_path):
    shutil.copytree(DEMO, tmp_path / "a")
    shutil.copytree(DEMO, tmp_path / "b")
    state = tmp_path / "b" / ".standards" / "STATE.md"
    text = state.read_text()
    state.write_text(text.replace("## Active Work\n", "## Active Work\n\nAn unrelated note.\n\n", 1))

    def prints(root):
        return {(r["ruleId"], r["message"]["text"]): r["partialFingerprints"] for r in sarif_of(root)["runs"][0]["results"]}

    a, b = prints(tmp_path / "a"), prints(tmp_path / "b")
    assert a == b


def test_github_annotations_escape():
    findings = lint(str(DEMO), use_git=False)
    out = render_github(findings).splitlines()
    assert out and all(line.startswith("::error file=") for line in out)
    first = findings.findings[0]
    assert f"line={first.line},col={first.column}" in out[0]
    assert f"title={first.code} " in out[0]


@pytest.mark.skipif(_validator() is None, reason="the SARIF validator (npm @microsoft/sarif-multitool) is not installed; .ci/run installs it")
def test_demo_sarif_passes_the_microsoft_validator(tmp_path):
    result = lint(str(DEMO), use_git=False)

    def problems(name: str, docs_url):
        src = tmp_path / f"{name}.sarif"
        src.write_text(render_sarif(result, docs_url=docs_url))
        out = tmp_path / f"{name}.validation.sarif"
        proc = subprocess.run([_validator(), "validate", str(src), "--rule-kind", "Gh;Sarif", "-o", str(out)],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        results = json.loads(out.read_text())["runs"][0].get("results", [])
        return [(r["ruleId"], r.get("level", "warning"), r["message"].get("text", r["message"])) for r in results
                if r.get("level", "warning") in ("error", "warning")]

    # With docs-url configured: links to the rule pages and the tool's page.
    assert problems("configured", "https://docs.test/standards-lint/rules/") == []
    # Without it there is no page to name (no placeholder host): the one
    # remark is the missing informationUri, and nothing else.
    assert [(rule, message["id"]) for rule, _level, message in problems("plain", None)] == [
        ("SARIF2005", "Warning_ProvideToolnformationUri")]


def test_rule_help_names_the_declared_next_step():
    from standards_lint.syntax.data import replace

    result = lint(str(DEMO), use_git=False)
    rule = next(r for r in result.registry.rules if r.code == "SL501")
    plain = json.loads(render_sarif(result, rules=[replace(rule, help="")]))["runs"][0]["tool"]["driver"]["rules"][0]
    assert "How to fix" not in plain["help"]["text"] and plain["help"]["markdown"] == rule.explanation
    helped = replace(rule, help="Set `Active` to `false`, or add the missing frame.")
    d = json.loads(render_sarif(result, rules=[helped]))["runs"][0]["tool"]["driver"]["rules"][0]
    assert d["help"]["markdown"].startswith(rule.explanation)
    assert d["help"]["markdown"].endswith("**How to fix:** Set `Active` to `false`, or add the missing frame.")
    assert d["help"]["text"].endswith("How to fix: Set Active to false, or add the missing frame.")


def test_result_fixes_help_and_renames(tmp_path):
    from standards_lint.syntax.data import replace

    from standards_lint.engine.run import Result
    from standards_lint.engine.findings import Edit, Fix, Rename

    shutil.copytree(DEMO, tmp_path / "demo")
    result = lint(str(tmp_path / "demo"), use_git=False)
    state = ".standards/STATE.md"
    text = (tmp_path / "demo" / state).read_text()
    at = text.index("`Active`: `true`")
    base = result.findings[0]
    both = replace(base, help="Move it.", fix=Fix(
        (Edit(state, at, at + 8, "`Active`"), Edit(state, at + 10, at + 16, "`false`")), "unsafe", "Rewrite and move",
        (Rename(state, ".standards/STATE2.md"),)))
    only = replace(base, help="", fix=Fix((), "unsafe", "Move", (Rename(state, ".standards/X.md"),)))
    log = json.loads(render_sarif(Result([both, only], result.project, registry=result.registry)))
    first, second = log["runs"][0]["results"]
    fix = first["fixes"][0]
    assert "rename .standards/STATE.md to .standards/STATE2.md" in fix["description"]["text"]
    reps = fix["artifactChanges"][0]["replacements"]
    line = text[:at].count("\n") + 1
    assert [r["deletedRegion"] for r in reps] == [
        {"startLine": line, "startColumn": 1, "endLine": line, "endColumn": 9},
        {"startLine": line, "startColumn": 11, "endLine": line, "endColumn": 17}]
    assert [r["insertedContent"]["text"] for r in reps] == ["`Active`", "`false`"]
    assert first["properties"]["help"] == "Move it."
    assert first["properties"]["fixRenames"] == [{"from": state, "to": ".standards/STATE2.md"}]
    # A fix that only renames has no SARIF form (a replacement needs a region).
    assert "fixes" not in second and "help" not in second["properties"]
    assert second["properties"]["fixRenames"] == [{"from": state, "to": ".standards/X.md"}]


def test_github_annotation_carries_help_and_owner():
    from standards_lint.syntax.data import replace

    from standards_lint.engine.run import Result

    result = lint(str(DEMO), use_git=False)
    f = replace(result.findings[0], help="Do this, then that.", owner="AUDITOR")
    line = render_github(Result([f], result.project)).strip()
    assert line.endswith(f"::{f.code} {f.message}%0Ahelp (AUDITOR): Do this, then that.")
