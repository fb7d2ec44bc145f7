"""The Tester checkpoint gate of rules/verification.py (SL861, SL862) when no
report of the cycle is at its fixed path: the finding both rules share points
at that path."""

from __future__ import annotations

import pytest

from .test_development_plan import REPORT_PATH, found, report, state, tree
from .test_verification import TESTER_CHECKPOINT, inc_plan

NO_REPORT = {
    "SL861": "A Tester checkpoint for Increment 1 needs an IN_PROGRESS report recording Increment 1 as VERIFIED; "
             "there is no report of this cycle here.",
    "SL862": "A Tester checkpoint needs persisted Execution Evidence in the report; there is no report of this "
             "cycle here.",
}


@pytest.mark.parametrize("code", sorted(NO_REPORT))
def test_checkpoint_without_report(lint_tree, code):
    [f] = found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan()), code)
    assert (f.path, f.message) == (REPORT_PATH, NO_REPORT[code])


@pytest.mark.parametrize("code", sorted(NO_REPORT))
def test_checkpoint_with_another_cycles_report(lint_tree, code):
    rows = "| 1 | Endpoint | tests | VERIFIED |\n"
    ours = report(purpose="INCREMENT", target="Increment 1", rows=rows)
    other = ours.replace("Cycle: add-user", "Cycle: other-user", 1)
    assert other != ours
    [f] = found(lint_tree, tree(st=state(**TESTER_CHECKPOINT), pl=inc_plan(), rp=other), code)
    assert (f.path, f.message) == (REPORT_PATH, NO_REPORT[code])


@pytest.mark.parametrize("code", sorted(NO_REPORT))
def test_no_checkpoint_no_finding(lint_tree, code):
    assert found(lint_tree, tree(st=state(ws="DEVELOPING"), pl=inc_plan()), code) == []
