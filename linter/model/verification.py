"""The verification report (protocol/verification.md) of the live cycle."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.ast import Document
from standards_lint.model.holding import tester_record_relaxed
from standards_lint.model.plan import Assignment, cycle_record, live_cycle, load_plan, tester_assignment


def load_report(project) -> Optional[Document]:
    """The live cycle's verification report, or None (no live cycle, or no
    such record)."""
    if not live_cycle(project):
        return None
    return cycle_record(project, "VERIFICATION")


def report_assignment(project) -> Optional[tuple[Document, Optional[Assignment]]]:
    """(the report, Tester's current assignment) where the report is held to
    that assignment now: a readable report of the live cycle, except at turn
    end in TESTING, where the report is Tester's own record
    (:func:`~standards_lint.model.holding.tester_record_relaxed`).  The assignment
    is None where there is none (:func:`~standards_lint.model.plan.tester_assignment`)."""
    if tester_record_relaxed(project):
        return None
    doc = load_report(project)
    if doc is None:
        return None
    return doc, tester_assignment(project, load_plan(project), doc)
