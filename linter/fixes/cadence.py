"""Verification cadence fixes several rules share."""

from __future__ import annotations

from standards_lint.model.accessors import at, aw_field
from standards_lint.engine.rule import replace, report


def clear_pending_cadence_fix(sm, message: str):
    """A finding at PendingVerificationCadence whose safe fix sets it to NONE."""
    field = aw_field(sm, "PendingVerificationCadence")
    return report(
        at(field), message,
        fix=replace(field.path, field.value_span, "NONE", description="Clear PendingVerificationCadence"),
    )
