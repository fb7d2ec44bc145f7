"""The project's protocol facts, computed once per run on first use.

``model_of(project)`` is the one entry point: rules, fixes, the status
command, the server and plugins all ask it, so each fact is computed once
and read the same way everywhere::

    m = model_of(project)
    m.workflow.state            # Value: WorkflowState
    m.workflow.passed           # states the cycle has passed on its route
    m.workflow.recovery.live    # the newest recovery frame, or None
    m.cycle.record("VERIFICATION").status
    m.cycle.required            # states whose records the mode and policy require
    m.plan.current              # the plan's Current Increment
    m.head                      # the same model of git HEAD, or None
"""

from __future__ import annotations

from functools import cached_property
from typing import Optional

from ..syntax.protocol import CYCLE_ID_RE, USABLE_CYCLE_ID_RE, record_path
from .cycle import required_states
from .values import MISSING, Value, read_field
from .workflow import Workflow

RECORD_STATUSES = ("IN_PROGRESS", "BLOCKED", "COMPLETE")
# The development plan's own statuses (the Developer's template): PROPOSED
# blocks implementation on the user's approval.
PLAN_STATUSES = ("PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE")
# Record types whose header keeps no Status (the Scoper's and Architect's
# templates).
NO_STATUS_ARTIFACTS = ("SCOPE", "ARCHITECTURE")
# The record each state's owner leaves: state -> (artifact, review kind).
# AUDITING leaves the project context (.standards/CONTEXT.md), not a record.
GATE_RECORDS = {
    "SCOPING": ("SCOPE", None),
    "ARCHITECTING": ("ARCHITECTURE", None),
    "DEVELOPING": ("DEVELOPMENT", None),
    "TESTING": ("VERIFICATION", None),
    "REVIEWING_IMPLEMENTATION": ("REVIEW", "IMPLEMENTATION"),
    "DOCUMENTING": ("DOCUMENTATION", None),
    "REVIEWING_FINAL": ("REVIEW", "FINAL_DELIVERABLE"),
    "SYNCHRONIZING": ("SYNCHRONIZATION", None),
}
CONTEXT_PATH = ".standards/CONTEXT.md"


class RecordFact:
    """One cycle record: where it is, and its header's Status."""

    def __init__(self, record):
        self.record = record
        self.path = record.path
        self.artifact = record.artifact
        self.review_kind = record.review_kind
        self.at_fixed_path = record.path == record.fixed_path

    @property
    def doc(self):
        """The whole record, parsed on first use."""
        return self.record.doc

    @property
    def keeps_status(self) -> bool:
        """Whether this record type has a header Status at all (scope and
        design records do not)."""
        return self.artifact not in NO_STATUS_ARTIFACTS

    @cached_property
    def status(self) -> Value:
        """The header's Status: one of RECORD_STATUSES, or for the
        development plan one of PLAN_STATUSES."""
        doc = self.record.doc
        choices = PLAN_STATUSES if self.artifact == "DEVELOPMENT" else RECORD_STATUSES
        return read_field(doc.header if doc is not None else None, "Status", choices,
                          what="the record's header")


class Cycle:
    """The active cycle: its Id and its records (fixed path first, then
    provenance)."""

    def __init__(self, project, workflow: Workflow):
        self.project = project
        self.workflow = workflow

    @property
    def id(self) -> Value:
        return self.workflow.id

    @cached_property
    def cid(self) -> Optional[str]:
        """The Id when it names a cycle (valid form; not UNSET or NONE)."""
        v = self.id.value
        return v if v is not None and v not in ("UNSET", "NONE") and USABLE_CYCLE_ID_RE.match(v) else None

    @property
    def active(self) -> bool:
        """A cycle is under way: a named Id and a live (non-terminal) state."""
        return self.cid is not None and self.workflow.state.ok and not self.workflow.terminal

    def record(self, artifact: str, review_kind: Optional[str] = None) -> Optional[RecordFact]:
        """*The* record of one type for this cycle: the one at its fixed
        path, else the only one of its type anywhere; None when there is
        none or several."""
        if self.cid is None:
            return None
        r = self.project.record_of(self.cid, artifact, review_kind if artifact == "REVIEW" else None)
        return RecordFact(r) if r is not None else None

    def record_for(self, state: str) -> Optional[RecordFact]:
        """The record *state*'s owner leaves (None for AUDITING)."""
        if state not in GATE_RECORDS:
            return None
        return self.record(*GATE_RECORDS[state])

    def fixed_path(self, state: str) -> Optional[str]:
        if state not in GATE_RECORDS or self.cid is None:
            return None
        art, kind = GATE_RECORDS[state]
        return record_path(art, self.cid, kind)

    @cached_property
    def records(self) -> dict[str, list[RecordFact]]:
        """artifact -> this cycle's records of that type (provenance)."""
        out: dict[str, list[RecordFact]] = {}
        if self.cid is None:
            return out
        for r in self.project.records_of(self.cid):
            out.setdefault(r.artifact, []).append(RecordFact(r))
        return out

    @cached_property
    def required(self) -> list[str]:
        """States whose records the cycle mode and completion policy require
        by sign-off."""
        wf = self.workflow
        return required_states(wf.cycle_mode.value, wf.completion_policy.value)[0]

    @cached_property
    def due_now(self) -> list[str]:
        """Required states the cycle has already passed: their records must
        exist now."""
        passed = set(self.workflow.passed)
        return [s for s in self.required if s in passed]

    @property
    def context_exists(self) -> bool:
        return self.project.kind(CONTEXT_PATH) == "file"


class Model:
    """Everything the protocol makes of one project's workflow files."""

    def __init__(self, project, *, head: bool = False):
        self.project = project
        self._is_head = head

    @property
    def release(self):
        """The framework release the project is checked by
        (:mod:`standards_lint.model.releases`)."""
        return self.project.release

    @cached_property
    def workflow(self) -> Workflow:
        p = self.project
        if self._is_head:
            return Workflow(p.head_state, None, p.release)
        return Workflow(p.state, p.mode_doc, p.release)

    @cached_property
    def cycle(self) -> Cycle:
        return Cycle(self.project, self.workflow)

    @property
    def conflicted(self) -> bool:
        """STATE.md, MODE.md or CONTEXT.md holds merge-conflict markers: the
        workflow stops until the user resolves them."""
        return self.project.workflow_conflicted

    @cached_property
    def plan(self):
        """The active cycle's development plan (steps, increments, cadence,
        current increment, suspended assignments), or None."""
        if self._is_head:
            return None
        from .plan import load_plan

        return load_plan(self.project)

    @cached_property
    def head(self) -> Optional["Model"]:
        """The same model of STATE.md at git HEAD, or None outside git or
        without a committed STATE.md."""
        if self._is_head or self.project.head_state is None:
            return None
        return Model(self.project, head=True)


def model_of(project) -> Model:
    """The project's model, built once per project (per run)."""
    m = project.__dict__.get("_standards_lint_model")
    if m is None:
        m = project.__dict__["_standards_lint_model"] = Model(project)
    return m


__all__ = ["Cycle", "GATE_RECORDS", "MISSING", "Model", "NO_STATUS_ARTIFACTS", "PLAN_STATUSES", "RecordFact",
           "model_of", "required_states"]
