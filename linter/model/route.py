"""The cycle's route: the states each cycle mode's topology omits (PROTOCOL.md,
Forward Transitions; Documentation Cycle Contract; protocol/expedited.md), the
standard route's entry state per project mode, the forward tail
IMPLEMENTATION_REVIEWED omits and the completion policies each cycle mode
allows."""

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

# State-update rules: "Installation initializes from the selected mode
# template: `SCOPING` for `GREENFIELD`, `AUDITING` for `BROWNFIELD`"; a
# STANDARD cycle starts there too (Start a cycle).
ENTRY_STATE = {"GREENFIELD": "SCOPING", "BROWNFIELD": "AUDITING"}

# The forward tail that IMPLEMENTATION_REVIEWED replaces with
# REVIEWING_IMPLEMENTATION -> AWAITING_USER_SIGNOFF (Completion Policies).
FULL_DELIVERABLE_TAIL = ("DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING")

# Completion Policies: the policies each cycle mode allows.
ALLOWED_POLICIES = {
    "STANDARD": ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"),
    "EXPEDITED": ("NONE",),
    "DOCUMENTATION": ("NONE",),
}
