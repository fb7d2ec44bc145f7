"""The cycle and its records: which record each state's owner leaves
(STATE_RECORDS), each record's state and Status, and which records must
exist or be COMPLETE now (PROTOCOL.md, Cycle Records; Required Records)."""

from __future__ import annotations

from typing import Optional

from standards_lint.model.holding import holding
from standards_lint.model.acceptance import analysis, evidence_ids, record_scan, traced
from standards_lint.model.route import FULL_DELIVERABLE_TAIL
from standards_lint.syntax.protocol import (
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    TERMINAL_STATES,
    record_path,
)
from standards_lint.syntax.records import provenance_of


INCOMPLETE = ("IN_PROGRESS", "BLOCKED")


# The record each state's owner leaves behind: state -> (artifact, review kind).
STATE_RECORDS = {
    "TESTING": ("VERIFICATION", None),
    "REVIEWING_IMPLEMENTATION": ("REVIEW", "IMPLEMENTATION"),
    "DOCUMENTING": ("DOCUMENTATION", None),
    "REVIEWING_FINAL": ("REVIEW", "FINAL_DELIVERABLE"),
    "SYNCHRONIZING": ("SYNCHRONIZATION", None),
}


# Owners that may leave their record incomplete on a corrective return, and
# the final Reviewer interrupted by a failure: their records need not be
# COMPLETE after a non-forward handoff until sign-off readiness.
TAIL_STATES = FULL_DELIVERABLE_TAIL


class Cycle:
    """What the required-record rules need from STATE.md, or None."""

    def __init__(self, st):
        self.st = st
        self.ws = st.workflow_state
        self.mode = st.cycle_mode
        self.policy = st.aw("CompletionPolicy")
        self.cid = st.aw("Id")
        self.kind = st.ho("Kind")
        self.frm = st.ho("From")

    def path(self, state: str) -> str:
        art, kind = STATE_RECORDS[state]
        return record_path(art, self.cid, kind)

    def required(self) -> tuple[list[str], list[str]]:
        """(states whose records the mode and policy require, route order)."""
        return required_states(self.mode, self.policy)


def required_states(mode: Optional[str], policy: Optional[str]) -> tuple[list[str], list[str]]:
    """(states whose records the cycle mode and completion policy require,
    the route order to measure them on).  Standard Cycle Completion,
    Implementation-Reviewed Closure, Documentation and Expedited Cycle
    Contracts; an invalid policy decides nothing (SL3xx report it)."""
    order = list(ROUTE_STANDARD_BROWNFIELD)
    if mode == "STANDARD":
        if policy == "FULL_DELIVERABLE":
            return ["TESTING", "REVIEWING_IMPLEMENTATION", *TAIL_STATES], order
        if policy == "IMPLEMENTATION_REVIEWED":
            return ["TESTING", "REVIEWING_IMPLEMENTATION"], order
        return [], order
    if mode == "DOCUMENTATION":
        if policy != "NONE":
            return [], list(ROUTE_DOCUMENTATION)  # an invalid policy decides nothing (SL303 reports it)
        return list(TAIL_STATES), list(ROUTE_DOCUMENTATION)
    if mode == "EXPEDITED":
        if policy != "NONE":
            return [], list(ROUTE_EXPEDITED)  # an invalid policy decides nothing (SL3xx reports it)
        return ["REVIEWING_IMPLEMENTATION"], list(ROUTE_EXPEDITED)
    return [], []


def required_cycle(project) -> Optional[Cycle]:
    """The active cycle whose records may be due (:class:`Cycle`); None without a
    usable state, in a terminal state, or without a usable cycle ID."""
    st = project.state
    if st is None or project.workflow_conflicted:
        return None
    c = Cycle(st)
    if not c.ws or c.ws in TERMINAL_STATES or not c.cid or c.cid in ("UNSET", "NONE"):
        return None
    if "/" in c.cid or "\\" in c.cid or c.cid.startswith("."):
        return None
    return c


def record_state(project, path: str, cid: str):
    """('missing'|'foreign'|'ok', status value or None, status field or None)."""
    if project.kind(path) != "file":
        return "missing", None, None
    doc = project.doc(path)
    if doc is None:
        return "foreign", None, None
    p = provenance_of(doc)
    if p is None or p[1] != cid:
        return "foreign", None, None
    fields = doc.header.all_fields("Status") if doc.header is not None else []
    if not fields:
        return "ok", None, None
    return "ok", fields[0].value, fields[0]


def _header_cycle_contradicts(project, path: str, cid: str) -> bool:
    doc = project.doc(path)
    found = doc.header.all_fields("Cycle") if doc is not None and doc.header is not None else []
    return not found or found[0].value != cid  # a missing Cycle reads as empty


def _special(project, c: Cycle) -> dict:
    """Findings of the handoff-specific checks: path -> (code, message, field)."""
    out: dict = {}
    h = holding(project)
    if (c.mode in ("STANDARD", "EXPEDITED") and c.kind == "COMPLETION_CHANGE"
            and h is not None and h.passed_due("REVIEWING_IMPLEMENTATION")):
        p = c.path("REVIEWING_IMPLEMENTATION")
        state, value, field = record_state(project, p, c.cid)
        if state == "missing":
            out[p] = ("SL935", "The implementation review report must exist for a COMPLETION_CHANGE handoff, "
                      "but it does not; a policy change needs a completed implementation review.", None)
        elif state == "ok" and value in INCOMPLETE and c.ws != "REVIEWING_IMPLEMENTATION":
            out[p] = ("SL935", f"The implementation review report must be COMPLETE for a COMPLETION_CHANGE handoff; "
                      f"its Status is `{value}`.", field)
    if c.kind == "RESUME" and c.frm in TAIL_STATES and c.mode in ("STANDARD", "DOCUMENTATION"):
        p = c.path(c.frm)
        state, value, field = record_state(project, p, c.cid)
        if c.mode == "STANDARD" and c.policy == "IMPLEMENTATION_REVIEWED" and c.ws == "AWAITING_USER_SIGNOFF":
            if state != "ok":
                out[p] = ("SL934", f"A direct recovery return from {c.frm} to sign-off requires this record to exist "
                          "with current-cycle provenance and be COMPLETE, but it does not exist as this cycle's record.", None)
            elif value in INCOMPLETE:
                out[p] = ("SL934", f"must be COMPLETE for a direct recovery return from {c.frm} to sign-off; its Status is "
                          f"`{value}`. An incomplete corrective return must rerun implementation Reviewer "
                          "(RerunThrough REVIEWING_IMPLEMENTATION) instead.", field)
        elif c.frm == "REVIEWING_FINAL" and c.mode == "DOCUMENTATION":
            if state != "ok":
                out[p] = ("SL932", "The final-deliverable review must exist as this cycle's record for a successful "
                          "RESUME handoff from REVIEWING_FINAL; Reviewer has no corrective-return exception.", None)
            elif value in INCOMPLETE:
                out[p] = ("SL932", "The final-deliverable review must be COMPLETE for a successful RESUME handoff from "
                          f"REVIEWING_FINAL; its Status is `{value}`.", field)
        elif c.mode == "DOCUMENTATION" and state == "missing":
            # Reported by the provenance rules (SL636); only suppress the generic check here.
            out[p] = (None, "", None)
    return out


def _passed(project, c: Cycle, special: dict) -> list:
    """Findings of the 'passed its owner's state' checks: (code, path, message, field)."""
    req, order = c.required()
    if c.ws not in order:
        order = list(ROUTE_STANDARD_BROWNFIELD)  # a state off the cycle's route: the STANDARD order
    if c.ws not in order:
        return []
    cands = [s for s in req if s in order and order.index(s) < order.index(c.ws)]
    if c.kind == "FORWARD" and c.frm in req and c.frm in TAIL_STATES and c.frm not in cands:
        # A tail role that just handed off forward has finished its record,
        # wherever the handoff went (the route itself is SL410/SL420's).
        cands.append(c.frm)
    h = holding(project)
    cands = [s for s in cands if h is not None and h.passed_due(s)]
    out = []
    for s in cands:
        p = c.path(s)
        if p in special:
            continue
        state, value, field = record_state(project, p, c.cid)
        if state == "missing":
            out.append(("SL930", p, f"The cycle has passed {s}, so this record must exist, but it does not.", None))
        elif state == "ok" and _must_be_complete(project, c, s, p):
            if value in INCOMPLETE:
                out.append(("SL931", p, f"The cycle has passed {s}, so this record must be COMPLETE; its Status is `{value}`.", field))
            else:
                out.append((GATE_PASSED, p, s, field))  # no finding: the record whose Status COMPLETE is due
    return out


# A `_passed` row that is no finding: the cycle has passed the record's gate,
# so its Status must be COMPLETE, whatever it says now (see complete_due).
GATE_PASSED = "gate-passed"


def _must_be_complete(project, c: Cycle, s: str, p: str) -> bool:
    """Whether the record at *p*, of the state *s* the cycle has passed, must
    be COMPLETE (SL931's conditions, whatever its Status says now)."""
    if s != "TESTING" and _header_cycle_contradicts(project, p, c.cid):
        # The header contradicts the block (SL9xx): its Status is not trusted.
        # Tester's report is read whatever its header says: a Reviewer state
        # needs the full Tester gate (Full Verification Boundary), and the
        # checker holds the report to it (unseen4-0354).
        return False
    if s in TAIL_STATES and c.kind not in ("FORWARD", "CHECKPOINT") and c.ws != "AWAITING_USER_SIGNOFF":
        # An incomplete corrective return may still be pending.  A CHECKPOINT
        # is never one (only a DEVELOPING <-> TESTING exchange; SL411 reports
        # it anywhere else), so it leaves the passed tail records due.
        return False
    return True


def required_record_problems(project) -> list:
    """The required-record problems of the project, computed once: (code, path,
    message, field) rows; a row whose code is :data:`GATE_PASSED` is no finding
    but a record whose Status COMPLETE is due."""
    cache = getattr(project, "_rr_required_findings", None)
    if cache is not None:
        return cache
    out = []
    c = required_cycle(project)
    if c is not None:
        special = _special(project, c)
        for p, (code, msg, field) in special.items():
            if code is not None:
                out.append((code, p, msg, field))
        out.extend(_passed(project, c, special))
    project._rr_required_findings = out
    return out


# Where the record templates put `Status` in the header: after this field.
STATUS_AFTER = {
    "VERIFICATION": "Mode",
    "REVIEW": "ReviewKind",
    "DOCUMENTATION": "Cycle",
    "SYNCHRONIZATION": "Cycle",
}


def complete_holds(project, record) -> bool:
    """What a COMPLETE record of this type must hold, as the other rules
    check it: every current acceptance condition accounted for (SL721); a
    verification report with no purpose but FULL (SL857), without
    AWAITING_IMPLEMENTATION work (SL858), and outside recovery (SL885)."""
    ctx = analysis(project)
    if ctx is None:
        return False
    if traced(ctx):
        covered = evidence_ids(record_scan(ctx, record), record.artifact)
        if any(ac not in covered for ac in ctx.scope.current):
            return False
    if record.artifact == "VERIFICATION":
        if any(f.value != "FULL" for f in record.doc.header.all_fields("Assessment Purpose")):
            return False
        if "AWAITING_IMPLEMENTATION" in record.doc.text or project.state.frames:
            return False
    return True


def record_holds(project, path: str, art: str, kind, cid: str) -> bool:
    """Whether this cycle *cid* has its record of (*art*, *kind*) at *path*."""
    rec = project.record_of(cid, art, kind)
    return rec is not None and rec.path == path


def complete_due(project, path: str) -> bool:
    """Whether the cycle has passed the gate of this cycle's record at *path*
    (at its fixed path), so that its `Status` must be `COMPLETE` (SL931)."""
    return any(code in ("SL931", GATE_PASSED) and p == path for code, p, _m, _f in required_record_problems(project))
