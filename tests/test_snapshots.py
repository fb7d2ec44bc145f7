"""Output snapshots (syrupy) of the demo project and a few parity cases,
beside explicit assertions on the fields that matter."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from standards_lint.output import formats as output
from standards_lint.engine.run import lint
from standards_lint.output.sarif import render_sarif

from .parity import harness

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"
CASES = ("mut-0047", "mut-0130", "suite-0196")


def _normalise_sarif(text: str, root: Path) -> dict:
    """The log with the machine's path replaced, and only the descriptors of
    rules that reported (the full catalogue is asserted elsewhere; a snapshot
    of it would change with every explanation edit)."""
    log = json.loads(text)
    run = log["runs"][0]
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///PROJECT/"
    used = {r["ruleId"] for r in run["results"]}
    rules = run["tool"]["driver"]["rules"]
    run["tool"]["driver"]["rules"] = {"count": len(rules), "reported": [r for r in rules if r["id"] in used]}
    run["tool"]["driver"]["version"] = run["tool"]["driver"]["semanticVersion"] = "VERSION"
    return log


@pytest.fixture(scope="module")
def demo_result():
    return lint(str(DEMO), use_git=False)


def test_demo_text(demo_result, snapshot):
    """The concise text, as from the repository's root: paths relative to it."""
    text = output.render_text(demo_result, cwd=str(ROOT))
    lines = text.splitlines()
    assert all(line.startswith("fixtures/demo/.standards/") for line in lines[:-1] if not line.startswith("  help"))
    assert lines[-1].startswith("Found ")
    assert text == snapshot


def test_demo_text_full(demo_result, snapshot):
    """The full text, as from inside the project: each finding's header line
    (the concise line), the source line with its span underlined, owner,
    help and the fix as a diff."""
    text = output.render_text(demo_result, output_format="full", cwd=str(DEMO))
    concise = output.render_text(demo_result, cwd=str(DEMO)).splitlines()
    headers = [line for line in text.splitlines() if line.startswith(".standards/")]
    assert headers == [line for line in concise if line.startswith(".standards/")]
    assert "31 | `Active`: `true`" in text
    assert "   |            ^^^^ SL501" in text
    assert "-`Active`: `true`" in text and "+`Active`: `false`" in text
    assert "\x1b" not in text
    assert text == snapshot


def test_demo_json(demo_result, snapshot):
    data = json.loads(output.render_json(demo_result))
    assert data["summary"]["errors"] == len([f for f in data["findings"] if f["severity"] == "error"]) > 0
    codes = {f["code"] for f in data["findings"]}
    assert "SL501" in codes  # Recovery.Active true without frames
    assert data == snapshot


def test_demo_sarif(demo_result, snapshot):
    full = json.loads(render_sarif(demo_result))
    assert len(full["runs"][0]["tool"]["driver"]["rules"]) >= 188
    log = _normalise_sarif(render_sarif(demo_result), DEMO)
    results = log["runs"][0]["results"]
    assert len(results) == len(demo_result.findings)
    assert {r["ruleId"] for r in results} == {f.code for f in demo_result.findings}
    assert log == snapshot


def test_demo_github(demo_result, snapshot):
    text = output.render_github(demo_result)
    assert text.count("\n") == len(demo_result.findings)
    assert text == snapshot


@pytest.mark.parametrize("case_id", CASES)
def test_parity_case_outputs(case_id, snapshot, tmp_path):
    case = next(c for c in harness.iter_cases() if c["id"] == case_id)
    root = harness.materialize(case, str(tmp_path))
    try:
        result = lint(str(root), use_git=False)
        data = json.loads(output.render_json(result))
        expected_files = {p["file"] for p in case["expected"]["problems"]}
        assert expected_files <= {f["path"] for f in data["findings"]}
        assert {"text": output.render_text(result, cwd=str(root)), "json": data,
                "sarif": _normalise_sarif(render_sarif(result), root)} == snapshot
    finally:
        shutil.rmtree(root, ignore_errors=True)
