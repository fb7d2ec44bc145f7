"""Outputs and fixes over every failing parity case: the SARIF log validates
and has one result per JSON finding; --fix twice changes nothing the second
time, and the findings after fixing are a subset of those before."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from standards_lint.engine import lint, load_registry
from standards_lint.fixer import fix_project
from standards_lint.output import render_json
from standards_lint.sarif import render_sarif

from .parity import harness
from .test_sarif import _validator

FAILING = [c for c in harness.iter_cases() if c["expected"]["problems"]]
BASE = "/dev/shm" if os.path.isdir("/dev/shm") else None


def _counts(findings):
    """(code, path) -> how many: a fix may renumber a frame, which changes
    the wording of other findings about it but never adds one."""
    from collections import Counter

    return Counter((f.code, f.path) for f in findings)


def test_failing_case_count():
    assert len(FAILING) > 1500


# Repairing STATE.md (a repeated `WorkflowState`, `Recovery.Active: true`
# with no frame) can reveal a workflow problem the broken value hid: with
# recovery no longer "active", a checkpoint's gates apply.  On those cases the
# findings after fixing need not be a subset; they are counted instead.
STATE = ".standards/STATE.md"


def test_fix_is_idempotent_and_only_removes_findings():
    reg = load_registry()
    fixed_total = 0
    unmasked = []
    for case in FAILING:
        root = harness.materialize(case, BASE)
        try:
            before = lint(str(root), registry=reg).findings
            report, after = fix_project(str(root), registry=reg)
            fixed_total += len(report.fixed)
            before_c, after_c = _counts(before), _counts(after.findings)
            if not all(after_c[k] <= before_c[k] for k in after_c):
                assert any(e.path == STATE for f in report.fixed for e in f.fix.edits), case["id"]
                unmasked.append(case["id"])
            snapshot = {p: (root / p).read_bytes() for p in report.changed}
            again, _ = fix_project(str(root), registry=reg)
            assert again.changed == {} and again.fixed == [], case["id"]
            assert {p: (root / p).read_bytes() for p in snapshot} == snapshot, case["id"]
        finally:
            shutil.rmtree(root, ignore_errors=True)
    assert fixed_total > 0
    assert len(unmasked) < len(FAILING) // 20, unmasked


def test_sarif_has_one_result_per_json_finding(tmp_path):
    reg = load_registry()
    for case in FAILING:
        root = harness.materialize(case, str(tmp_path))
        try:
            result = lint(str(root), registry=reg)
            log = json.loads(render_sarif(result))
            findings = json.loads(render_json(result))["findings"]
            results = log["runs"][0]["results"]
            assert len(results) == len(findings), case["id"]
            assert [r["ruleId"] for r in results] == [f["code"] for f in findings]
        finally:
            shutil.rmtree(root, ignore_errors=True)


@pytest.mark.skipif(_validator() is None, reason="the SARIF validator (npm @microsoft/sarif-multitool) is not installed; .ci/run installs it")
def test_sarif_of_every_failing_case_validates(tmp_path):
    reg = load_registry()
    out_dir = tmp_path / "logs"
    out_dir.mkdir()
    for case in FAILING:
        root = harness.materialize(case, BASE)
        try:
            (out_dir / f"{case['id']}.sarif").write_text(render_sarif(lint(str(root), registry=reg)), encoding="utf-8")
        finally:
            shutil.rmtree(root, ignore_errors=True)
    report = tmp_path / "validation.sarif"
    proc = subprocess.run(
        [_validator(), "validate", str(out_dir / "*.sarif"), "--rule-kind", "Gh;Sarif", "-o", str(report)],
        capture_output=True, text=True, timeout=1800,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    import re

    scanned = re.search(r"([\d,]+) files scanned", proc.stdout)
    assert scanned and int(scanned.group(1).replace(",", "")) == len(FAILING), proc.stdout
    problems = []
    for run in json.loads(report.read_text())["runs"]:
        for r in run.get("results", []):
            if r.get("level", "warning") in ("error", "warning"):
                problems.append((r["ruleId"], r["message"].get("text", "")[:200]))
    assert problems == []
