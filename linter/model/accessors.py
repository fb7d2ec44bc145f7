"""The basic accessors of STATE.md and MODE.md: one value each, read the same
way for every rule (a value that is missing, repeated or not one of the
protocol's words reads as None; the STATE.md structure rules report those)."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.protocol import COMPLETION_POLICIES, HANDOFF_KINDS, PROJECT_MODES, WORKFLOW_STATES


EXECUTION_MODES = ("STANDARD", "EXPEDITED", "DOCUMENTATION")
CADENCES = ("INCREMENTAL", "AFTER_IMPLEMENTATION")


def conflicted(project) -> bool:
    """True when STATE.md, MODE.md or CONTEXT.md holds merge-conflict markers:
    every workflow role stops there, so no workflow rule applies."""
    return project.workflow_conflicted


def state_of(project):
    """The STATE.md model when workflow rules apply, else None."""
    sm = project.state
    if sm is None or conflicted(project):
        return None
    return sm


def project_mode(project) -> Optional[str]:
    """``ProjectMode`` from MODE.md when it occurs once with a valid value,
    read as the Project Modes rules read it (any field of MODE.md); None
    when MODE.md is absent, unreadable or holds merge-conflict markers.
    Every rule that branches on the project mode reads it here."""
    doc = project.mode_doc
    if doc is None or project.conflicts(doc.path):
        return None
    found = [f for f in doc.fields if f.name == "ProjectMode"]
    if len(found) != 1 or found[0].value not in PROJECT_MODES:
        return None
    return found[0].value


def header_field(sm, name):
    """The STATE.md header field *name* when it occurs once, else None."""
    return sm.one(sm.header, name)


def aw_field(sm, name):
    """The Active Work field *name* when it occurs once, else None."""
    return sm.one(sm.active_work, name)


def ho_field(sm, name):
    """The Handoff field *name* when it occurs once, else None."""
    return sm.one(sm.handoff, name)


def valid(field, choices) -> Optional[str]:
    """The field's value when it is one of *choices*, else None."""
    if field is None or field.value not in choices:
        return None
    return field.value


def holds_value(field) -> bool:
    """Whether *field* occurs and holds something other than a blank value or
    ``NONE``."""
    return field is not None and bool(field.value.strip()) and field.value != "NONE"


def aw_values(sm, *names) -> list:
    """The Active Work fields among *names* that occur once and hold a value
    other than ``NONE`` (what a field the cycle must keep ``NONE`` holds
    instead)."""
    return [field for field in (aw_field(sm, name) for name in names) if holds_value(field)]


def state_in_mode(project, mode: str):
    """The STATE.md model when workflow rules apply and ``CycleMode`` is
    *mode*, else None."""
    sm = state_of(project)
    if sm is None or cycle_mode(sm) != mode:
        return None
    return sm


def unstarted_state(project):
    """The STATE.md model when workflow rules apply and no cycle has started
    (``Active Work.Id`` is ``UNSET``), else None."""
    sm = state_of(project)
    if sm is None or sm.aw("Id") != "UNSET":
        return None
    return sm


def workflow_state(sm) -> Optional[str]:
    """``WorkflowState`` when it occurs once with a valid state, else None."""
    return valid(header_field(sm, "WorkflowState"), WORKFLOW_STATES)


def cycle_mode(sm) -> Optional[str]:
    """``CycleMode`` when it occurs once with a valid mode (``UNSET`` included),
    else None."""
    return valid(header_field(sm, "CycleMode"), ("UNSET",) + EXECUTION_MODES)


def completion_policy(sm) -> Optional[str]:
    """``Active Work.CompletionPolicy`` when it occurs once with a valid policy,
    else None."""
    return valid(aw_field(sm, "CompletionPolicy"), COMPLETION_POLICIES)


def handoff_kind(sm) -> Optional[str]:
    """``Handoff.Kind`` when it occurs once with a valid kind, else None."""
    return valid(ho_field(sm, "Kind"), HANDOFF_KINDS)


def pending_cadence(sm) -> Optional[str]:
    """``Active Work.PendingVerificationCadence`` when it occurs once with a valid
    value, else None."""
    return valid(aw_field(sm, "PendingVerificationCadence"), ("NONE",) + CADENCES)


def frame_values(sm) -> Optional[list[dict]]:
    """One dict of field values per recovery frame; None without a single
    Recovery section."""
    if sm.recovery is None:
        return None
    return [{f.name: f.value for f in frame.fields} for frame in sm.frames]


def baseline_status(sm) -> Optional[str]:
    """``"NONE"``, ``"LIST"`` (unresolved reconciliation in the documented
    list form, every entry with both ``SourceCycle`` and ``Request``), or None
    when the value is missing or malformed (another rule reports that)."""
    f = sm.baseline_field
    if f is None:
        return None
    entries = sm.baseline_entries
    if not f.bare and f.value == "NONE" and not entries:
        return "NONE"
    if f.bare and entries:
        for item in entries:
            names = [x.name for x in item.fields]
            if names.count("SourceCycle") != 1 or names.count("Request") != 1:
                return None
            if any(not x.value.strip() for x in item.fields if x.name in ("SourceCycle", "Request")):
                return None
        return "LIST"
    return None


def at(field):
    """Where to point for a field: its value."""
    return (field.path, field.value_span)
