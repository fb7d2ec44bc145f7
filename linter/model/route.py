"""The cycle's route: the states each cycle mode's topology omits (PROTOCOL.md,
Forward Transitions; Documentation Cycle Contract; protocol/expedited.md)."""

from __future__ import annotations


# States each cycle mode's topology includes (Forward Transitions).
DOCUMENTATION_OMITTED = ("DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION")


EXPEDITED_OMITTED = (
    "SCOPING",
    "ARCHITECTING",
    "AUDITING",
    "TESTING",
    "DOCUMENTING",
    "REVIEWING_FINAL",
    "SYNCHRONIZING",
)

# The states each reduced mode omits, by CycleMode.
OMITTED_STATES = {"DOCUMENTATION": DOCUMENTATION_OMITTED, "EXPEDITED": EXPEDITED_OMITTED}
