"""Every parity case, in both modes: standards-lint meets what the framework's
checker found (``expected``) and what its Stop hook's turn-end check found
(``expected_turn_end``, with ``--turn-end``)."""

from __future__ import annotations

import json
import os

from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

from standards_lint.engine.run import load_registry
from standards_lint.output.formats import render_json
from standards_lint.output.sarif import render_sarif

from collections import Counter

from ..test_status import status_problems
from . import harness

ROWS = harness.load_map()
KNOWN = harness.load_known()
CASES = list(harness.iter_cases())
# The newest sets' cases still read differently, by class (open_cases.toml):
# strict xfails, so a case that starts to pass must leave the list.
_OPEN = tomllib.loads((Path(__file__).parent / "open_cases.toml").read_text(encoding="utf-8")).get("open", [])
OPEN = {cid: entry["class"] for entry in _OPEN for cid in entry["cases"]}
BASE = "/dev/shm" if os.path.isdir("/dev/shm") else None


def test_case_count():
    counts = {}
    for c in CASES:
        family = c["id"].rsplit("-", 1)[0]
        counts[family] = counts.get(family, 0) + 1
    assert len(CASES) == (892 + 1351 + 40 + 739 + 901 + 663 + 1031 + 867 + 1147 + 29 + 881
                          + 3 * (700 + 69)), counts
    # Every case of the sets before unseen-5 keeps the turn-end verdict;
    # unseen-5 keeps it for 443, each older release's set for about half.
    older = [c for c in CASES if c["id"].startswith(("v0", "rw0"))]
    assert all("expected_turn_end" in c for c in CASES if not c["id"].startswith(("h5-", "v0", "rw0")))
    assert sum("expected_turn_end" in c for c in CASES if c["id"].startswith("h5-")) == 443
    assert 1000 < sum("expected_turn_end" in c for c in older) < len(older)


def _problems(outcome) -> list[str]:
    return (
        [f"unmapped: {p['file']}: {p['message']}" for p in outcome.unmapped]
        + [f"missing: {p['file']}: {p['message']}" for p in outcome.missing]
        + [f"extra: {harness._fmt_finding(f)}" for f in outcome.extra]
        + [f"internal: {harness._fmt_finding(f)}" for f in outcome.internal]
    )


def test_open_cases_are_few_and_only_of_the_newest_sets():
    ids = {c["id"] for c in CASES}
    assert set(OPEN) <= ids
    assert all(cid.startswith(("h3-", "lex-", "h5-")) for cid in OPEN)
    assert len(OPEN) <= 30


def _param(case):
    reason = OPEN.get(case["id"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_parity_case(case):
    """One materialized tree, checked plainly and at the end of a turn, its
    status (the next action) from the plain run, and for a failing case the
    SARIF log of that run (one result per JSON finding)."""
    results, sarif = {}, []

    def outputs(mode, result):
        # A failing case's SARIF log has one result per JSON finding, in
        # order (the same run: each tree materialized and linted once).
        if mode == "plain" and case["expected"]["problems"]:
            log = json.loads(render_sarif(result))
            found = [f["code"] for f in json.loads(render_json(result))["findings"]]
            if [r["ruleId"] for r in log["runs"][0]["results"]] != found:
                sarif.append(f"[sarif] the log's results are not the JSON findings {found}")

    outcomes = harness.run_case_modes(case, ROWS, load_registry(), BASE, KNOWN, results=results, inspect=outputs)
    problems = [f"[{mode}] {p}" for mode, o in outcomes.items() for p in _problems(o)] + sarif
    # `standards-lint status` on the same run: valid JSON naming a next action
    # (tests/test_status.py, issue 20), materialized and linted once.
    problems += [f"[status] {p}" for p in status_problems(case, results["plain"], Counter())]
    assert not problems, "\n".join(problems)


# Every tree of the two real projects: the first one's versions (`realworld`),
# the second one's (`realworld-2`, and its trees in the first acceptance set).
REAL = [c for c in CASES if c["id"].startswith(("mcp-", "rw2-", "kg-"))]


def test_real_projects_get_no_error_the_checker_does_not_report():
    """On both real projects, every version: a rule the checker lacks gives
    no error-severity finding (issue 37).  Such a finding is a warning unless
    the protocol's text makes it a violation of the files themselves, and
    none of those fires on a real project today."""
    assert len({c["id"].split("-", 1)[0] for c in REAL}) == 3 and len(REAL) >= 40 + 29
    registry = load_registry()
    errors, warned = [], Counter()
    for case in REAL:
        o = harness.run_case(case, ROWS, registry, BASE, KNOWN, "plain")
        for f in o.beyond:
            if f.severity == "error":
                errors.append(f"{case['id']}: {harness._fmt_finding(f)}")
            else:
                warned[f.code] += 1
    assert not errors, "\n".join(errors)
    # The second project saves a developer style it does not carry: reported,
    # as a warning the user owns (SL990).
    assert warned["SL990"] >= 19
