"""The verification report (protocol/verification.md) of the live cycle."""

from __future__ import annotations

from typing import Optional

from standards_lint.ast import Document
from standards_lint.model.plan import cycle_record, live_cycle


def load_report(project) -> Optional[Document]:
    """The live cycle's verification report, or None (no live cycle, or no
    such record)."""
    if not live_cycle(project):
        return None
    return cycle_record(project, "VERIFICATION")
