"""What each STATE.md field means, for hovers in the editor.

Written for standards-lint from PROTOCOL.md (State Format, Cycle Modes,
Completion Policies, Handoff, Recovery Mechanics, Outstanding Obligations);
the allowed values come from :mod:`standards_lint.syntax.protocol`.
"""

from __future__ import annotations

from typing import Optional

from ..syntax.protocol import (
    COMPLETION_POLICIES,
    CYCLE_MODES,
    FAILURE_TYPES,
    HANDOFF_KINDS,
    ROLES,
    VERIFICATION_CADENCES,
    WORKFLOW_STATES,
)

_STATES = WORKFLOW_STATES
_WORK_STATES = tuple(s for s in WORKFLOW_STATES if s not in ("AWAITING_USER_SIGNOFF", "SIGNED_OFF", "CANCELLED"))

# name -> (protocol section, meaning, allowed values or a description of them)
FIELDS: dict[str, tuple[str, str, object]] = {
    "WorkflowState": (
        "Workflow State",
        "The one state the project is in now; the role owning it is the only one that may do workflow work. "
        "`SIGNED_OFF` and `CANCELLED` are terminal: no cycle is active.",
        _STATES,
    ),
    "CycleMode": (
        "Cycle Modes",
        "The assurance route of the active cycle: the standard workflow, the bounded expedited path, or the "
        "documentation-only path. `UNSET` while no cycle is active; terminal states reset it to `UNSET`.",
        CYCLE_MODES,
    ),
    "PendingCycleMode": (
        "Cycle Modes",
        "The mode the user explicitly chose for the next cycle, kept until that cycle starts; `UNSET` when no "
        "preference is recorded.",
        CYCLE_MODES,
    ),
    "PendingCycleRequest": (
        "Cycle Modes",
        "The request of a next cycle that cannot start yet because a user decision is open. It is `UNSET` exactly "
        "when `PendingCycleBlockedOn` is `NONE`.",
        "`UNSET` or the request text",
    ),
    "PendingCycleBlockedOn": (
        "Cycle Modes",
        "The open user question that holds `PendingCycleRequest` back; `NONE` when there is none.",
        "`NONE` or the question",
    ),
    "Id": (
        "Active Work",
        "The cycle's stable identifier, generated when the cycle starts and never reused; every record of the "
        "cycle carries it in its provenance block.",
        "`UNSET` or `<slug>-<YYYYMMDDTHHMMSSZ>-<8 hex>`",
    ),
    "Request": (
        "Active Work",
        "The user's request, kept in enough detail for the entry role to understand the work. In a "
        "`BaselineReconciliation` entry: the cancelled source cycle's request summary.",
        "`UNSET` or the request text",
    ),
    "CompletionPolicy": (
        "Completion Policies",
        "Where a standard cycle's work ends before sign-off: the full deliverable (documentation, final review, "
        "synchronization) or the implementation review plus the early-closure gate. `NONE` outside standard "
        "cycles; only the user selects the shorter policy.",
        COMPLETION_POLICIES,
    ),
    "Scope": (
        "Active Work",
        "Path of the cycle's scope record (acceptance conditions `AC-NNN`), written by the Scoper before its "
        "gate passes; `NONE` until then.",
        "`NONE` or a repository-relative path",
    ),
    "Architecture": (
        "Active Work",
        "Path of the cycle's design record, written by the Architect before its gate passes; `NONE` until then.",
        "`NONE` or a repository-relative path",
    ),
    "Development": (
        "Active Work",
        "Path of the cycle's development plan (`DEV-NNN` steps), written by the Developer before implementing; "
        "stays `NONE` in documentation cycles.",
        "`NONE` or a repository-relative path",
    ),
    "PromotionReason": (
        "Expedited Promotion",
        "Why an expedited cycle was promoted to the standard route; kept for the rest of the cycle.",
        "`NONE` or the reason",
    ),
    "AuditTarget": (
        "Active Work",
        "The focus of an in-progress targeted audit when nothing else records it; the Auditor clears it when the "
        "audit ends.",
        "`NONE`, a repository-relative path or an area label",
    ),
    "BlockedOn": (
        "Active Work",
        "The open user question that stops the current work from completing. Not for defects another role owns: "
        "those are routed as failures.",
        "`NONE` or the question",
    ),
    "PendingVerificationCadence": (
        "Active Work",
        "A verification cadence change the user asked for, waiting for the Developer to apply it. Coordination "
        "only, not the cadence in effect; never carried into a new cycle.",
        VERIFICATION_CADENCES,
    ),
    "BaselineReconciliation": (
        "Baseline Reconciliation Format",
        "Project changes left behind by cancelled cycles that the Auditor must reconcile before the current cycle "
        "relies on them: one list entry per source cycle, or `NONE`. Only the Auditor clears it.",
        "`NONE` or a list of `SourceCycle` + `Request` entries",
    ),
    "SourceCycle": (
        "Baseline Reconciliation Format",
        "The exact `Id` of the cancelled cycle whose changes are still to be reconciled; each source appears once.",
        "a cycle ID",
    ),
    "Kind": (
        "Handoff",
        "What the latest transition was: a normal forward step, a failure routed to its owner, a return from "
        "recovery, a sign-off, a cancellation, ...",
        HANDOFF_KINDS,
    ),
    "From": (
        "Handoff",
        "The state the transition (or, in a recovery frame, the interruption) came from.",
        _STATES,
    ),
    "FailureType": (
        "Failure Types",
        "Whose artifact or decision is defective; it decides the owning state the failure is routed to. `NONE` "
        "when the transition is not a failure.",
        ("NONE",) + FAILURE_TYPES,
    ),
    "Reason": (
        "Handoff",
        "A short account of the latest transition (in a frame or obligation: of the defect). Not durable storage "
        "for recovery or baseline obligations.",
        "text",
    ),
    "Active": (
        "Recovery Mechanics",
        "Whether the section holds entries: `true` exactly when at least one `### Frame N` (or "
        "`### Obligation N`) follows.",
        ("true", "false"),
    ),
    "Owner": (
        "Recovery Mechanics",
        "The state that owns the correction (in an obligation: the role that must correct the recorded defect).",
        _WORK_STATES + ROLES,
    ),
    "ResumeAt": (
        "Recovery Mechanics",
        "The state that was interrupted and is resumed (with `Handoff.Kind: RESUME`) when the frame is popped.",
        _STATES,
    ),
    "RerunThrough": (
        "Recovery Mechanics",
        "The last downstream state whose work must be redone after the correction before `ResumeAt`; `NONE` when "
        "no rerun is needed.",
        ("NONE",) + _WORK_STATES,
    ),
}

# Meanings that depend on where the field is.
_BY_SECTION = {
    ("Recovery/Frame", "From"): "The state that was interrupted when the frame was pushed.",
    ("Recovery/Frame", "Reason"): "What defect the frame is correcting.",
    ("Outstanding Obligations/Obligation", "Reason"): "The specific defect the owner must correct and verify.",
    ("Outstanding Obligations", "Active"): "Whether obligations are outstanding: `true` exactly when at least one "
                                           "`### Obligation N` follows.",
    ("Recovery", "Active"): "Whether recovery is in progress: `true` exactly when the stack holds at least one "
                            "`### Frame N`.",
}


def describe(name: str, section: str = "", release=None) -> Optional[str]:
    """Markdown for a hover on the field *name* (inside *section*), with the
    values the project's framework *release* allows (a
    :class:`~standards_lint.model.releases.Release`; None: the newest)."""
    entry = FIELDS.get(name)
    if entry is None:
        return None
    where, meaning, allowed = entry
    meaning = _BY_SECTION.get((section, name), meaning)
    if release is not None:
        if allowed is CYCLE_MODES:
            allowed = release.cycle_modes
        elif allowed is HANDOFF_KINDS:
            allowed = release.handoff_kinds
        if name in release.derived and section in ("", "Active Work"):
            return (f"**`{name}`** ({section or 'Active Work'})\n\nFramework {release.name}, the release this "
                    f"project runs, has no `{name}`: the field is not read, and a STANDARD cycle completes the whole "
                    f"standard workflow. It is required from 0.10.0 on.\n\nPROTOCOL.md, {where}.")
    if isinstance(allowed, tuple):
        values = ", ".join(f"`{v}`" for v in allowed)
    else:
        values = str(allowed)
    place = f" ({section})" if section else ""
    return f"**`{name}`**{place}\n\n{meaning}\n\n**Allowed values:** {values}\n\nPROTOCOL.md, {where}."
