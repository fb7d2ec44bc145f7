"""The workflow as STATE.md and MODE.md record it, in the protocol's words.

PROTOCOL.md: Workflow States, Persisted Workflow State, Workflow State
Reference, Forward Transitions.  Each fact is computed once, on first use,
and every field is a :class:`~standards_lint.model.values.Value`.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Optional

from .holding import route_of
from ..syntax.protocol import (
    COMPLETION_POLICIES,
    CYCLE_MODES,
    FAILURE_TYPES,
    HANDOFF_KINDS,
    PROJECT_MODES,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    STATE_OWNERS,
    TERMINAL_STATES,
    VERIFICATION_CADENCES,
    WORKFLOW_STATES,
)
from .values import INVALID, MISSING, READ, Value, read_field

# The owning role of each state (PROTOCOL.md, Workflow States); USER for the
# user's states.
USER = "USER"
USER_STATES = ("AWAITING_USER_SIGNOFF",) + TERMINAL_STATES
_NUMBER = re.compile(r"^\s*(?:Frame|Obligation)\s+(\d+)\b")
FRAME_FIELDS = ("From", "Owner", "FailureType", "Reason", "ResumeAt", "RerunThrough")
OBLIGATION_FIELDS = FRAME_FIELDS


def owner_of(state: Optional[str]) -> Optional[str]:
    """The role that owns *state*, ``USER`` for the user's states, None for
    anything else."""
    if state in STATE_OWNERS:
        return STATE_OWNERS[state]
    return USER if state in USER_STATES else None


class Handoff:
    """``## Handoff``: the latest transition.  A repeated field reads as its
    first copy, as the framework's checker reads it (status ``repeated``)."""

    def __init__(self, section, kinds=HANDOFF_KINDS):
        self.node = section
        read = lambda name, choices=None: read_field(section, name, choices, first_of_repeated=True, what="## Handoff")
        self.kind = read("Kind", kinds)
        self.from_ = read("From", WORKFLOW_STATES + ("NONE",))
        self.failure_type = read("FailureType", FAILURE_TYPES + ("NONE",))
        self.reason = read("Reason")


class Frame:
    """A recovery frame (or an outstanding obligation, which has the same
    fields): ``number`` is the one its heading gives (else its position)."""

    def __init__(self, container, position: int, last: bool):
        self.node = container
        self.position = position
        m = _NUMBER.match(container.title)
        self.number = int(m.group(1)) if m else position
        self.last = last
        what = f"### {container.title}"
        self.from_ = read_field(container, "From", WORKFLOW_STATES, what=what)
        self.owner = read_field(container, "Owner", WORKFLOW_STATES, what=what)
        self.failure_type = read_field(container, "FailureType", FAILURE_TYPES, what=what)
        self.reason = read_field(container, "Reason", what=what)
        self.resume_at = read_field(container, "ResumeAt", WORKFLOW_STATES, what=what)
        self.rerun_through = read_field(container, "RerunThrough", WORKFLOW_STATES + ("NONE",), what=what)

    @property
    def title(self) -> str:
        return self.node.title

    def as_dict(self) -> dict:
        return {"number": self.number, "title": self.title, "line": self.node.span.line,
                **{name: getattr(self, attr).as_dict() for name, attr in (
                    ("From", "from_"), ("Owner", "owner"), ("FailureType", "failure_type"), ("Reason", "reason"),
                    ("ResumeAt", "resume_at"), ("RerunThrough", "rerun_through"))}}


class Stack:
    """``## Recovery`` or ``## Outstanding Obligations``: its ``Active`` flag
    and its entries, oldest first.  ``sections`` counts the exact headings
    (0 missing, 2+ repeated); the section read is the one every rule reads
    (:meth:`StateModel.section`: the first copy with content, or a heading
    only mis-cased or mis-spaced)."""

    def __init__(self, sm, title: str):
        self.title = title
        self.sections = len(sm.sections(title)) if sm is not None else 0
        self.node = sm.section(title) if sm is not None else None
        self.active = read_field(self.node, "Active", ("true", "false"), what=f"## {title}")
        subs = list(self.node.subsections) if self.node is not None else []
        self.entries = [Frame(c, i, i == len(subs)) for i, c in enumerate(subs, start=1)]

    @property
    def live(self) -> Optional[Frame]:
        """The newest entry: the frame whose Owner work returns from first."""
        return self.entries[-1] if self.entries else None

    def newest_first(self) -> list[Frame]:
        return list(reversed(self.entries))


class Workflow:
    """STATE.md's workflow facts.  ``state`` is None when STATE.md is absent
    or unreadable: every fact then reads ``missing``."""

    def __init__(self, state_model, mode_doc=None, release=None):
        self.sm = state_model
        self.mode_doc = mode_doc
        # The framework release the project runs (model.releases): which
        # cycle modes and handoff kinds are values at all.
        self.modes = release.cycle_modes if release is not None else CYCLE_MODES
        self.kinds = release.handoff_kinds if release is not None else HANDOFF_KINDS

    # -- header ---------------------------------------------------------------
    def _header(self, name: str, choices=None) -> Value:
        header = self.sm.header if self.sm is not None else None
        if self.sm is None:
            return Value(name, MISSING, why="STATE.md is missing or unreadable")
        return read_field(header, name, choices, what="the STATE.md header")

    def _aw(self, name: str, choices=None) -> Value:
        if self.sm is None:
            return Value(name, MISSING, why="STATE.md is missing or unreadable")
        return read_field(self.sm.active_work, name, choices, what="## Active Work")

    @cached_property
    def state(self) -> Value:
        """``WorkflowState``."""
        return self._header("WorkflowState", WORKFLOW_STATES)

    @cached_property
    def cycle_mode(self) -> Value:
        return self._header("CycleMode", self.modes)

    @cached_property
    def pending_mode(self) -> Value:
        return self._header("PendingCycleMode", self.modes)

    @cached_property
    def pending_request(self) -> Value:
        return self._header("PendingCycleRequest")

    @cached_property
    def pending_blocked_on(self) -> Value:
        return self._header("PendingCycleBlockedOn")

    @cached_property
    def project_mode(self) -> Value:
        """``ProjectMode`` from MODE.md."""
        if self.mode_doc is None:
            return Value("ProjectMode", MISSING, why="MODE.md is missing or unreadable")
        doc = self.mode_doc
        found = [f for f in doc.fields if f.name == "ProjectMode"]
        if not found:
            return Value("ProjectMode", MISSING, why="`ProjectMode` is not in MODE.md")
        if len(found) > 1:
            return Value("ProjectMode", "repeated", found[0].value, None, found[0], found, why="repeated in MODE.md")
        f = found[0]
        if f.value not in PROJECT_MODES:
            return Value("ProjectMode", INVALID, f.value, None, f, found, why="not an allowed value")
        return Value("ProjectMode", READ, f.value, f.value, f, found)

    # -- Active Work ----------------------------------------------------------
    def active(self, name: str) -> Value:
        """Any Active Work field, read as text."""
        return self._aw(name)

    @cached_property
    def id(self) -> Value:
        return self._aw("Id")

    @cached_property
    def request(self) -> Value:
        return self._aw("Request")

    @cached_property
    def completion_policy(self) -> Value:
        return self._aw("CompletionPolicy", COMPLETION_POLICIES)

    @cached_property
    def blocked_on(self) -> Value:
        """``Active Work.BlockedOn``: an unanswered user question, or NONE."""
        return self._aw("BlockedOn")

    @cached_property
    def promotion_reason(self) -> Value:
        return self._aw("PromotionReason")

    @cached_property
    def audit_target(self) -> Value:
        return self._aw("AuditTarget")

    @cached_property
    def pending_cadence(self) -> Value:
        return self._aw("PendingVerificationCadence", VERIFICATION_CADENCES)

    @cached_property
    def baseline(self) -> Value:
        """``BaselineReconciliation``: `NONE`, or the bare label of a list."""
        return self._aw("BaselineReconciliation")

    @cached_property
    def baseline_form(self) -> Optional[str]:
        """How ``BaselineReconciliation`` is written (Baseline Reconciliation
        Format): ``"NONE"``; ``"list"``, the bare label followed by its
        entries (``baseline`` then reads ``invalid``, empty, since the label
        has no value of its own); None for anything else (missing, repeated,
        another value, a bare label with no entry)."""
        v = self.baseline
        if v.is_("NONE"):
            return "NONE"
        if v.status == INVALID and v.node is not None and v.node.bare and self.baseline_entries:
            return "list"
        return None

    @cached_property
    def baseline_entries(self) -> list[dict]:
        """The list entries under ``BaselineReconciliation``: SourceCycle and
        Request of each, as Values."""
        if self.sm is None or self.baseline.node is None:
            return []
        f = self.baseline.node
        aw = self.sm.active_work
        items = [i for i in aw.items if i.span.start > f.span.start] if aw is not None else []
        out = []
        for item in items:
            out.append({"SourceCycle": _item_value(item, "SourceCycle"), "Request": _item_value(item, "Request"),
                        "node": item})
        return out

    @cached_property
    def record_paths(self) -> dict[str, Value]:
        """The Active Work paths: Scope, Architecture, Development."""
        return {name: self._aw(name) for name in ("Scope", "Architecture", "Development")}

    # -- handoff, recovery, obligations ---------------------------------------
    @cached_property
    def handoff(self) -> Handoff:
        return Handoff(self.sm.handoff if self.sm is not None else None, self.kinds)

    @cached_property
    def recovery(self) -> Stack:
        """The recovery stack (oldest first; ``recovery.live`` is the newest)."""
        return Stack(self.sm, "Recovery")

    @cached_property
    def obligations(self) -> Stack:
        return Stack(self.sm, "Outstanding Obligations")

    # -- the route ------------------------------------------------------------
    @cached_property
    def route(self) -> tuple[str, ...]:
        """The cycle's forward route (Forward Transitions), from the cycle
        mode and the project mode; the project's STANDARD route when the
        mode is UNSET or unreadable."""
        mode = self.cycle_mode.value if self.cycle_mode.ok else None
        pm = self.project_mode.value
        return route_of(mode, pm)

    @cached_property
    def standard_route(self) -> tuple[str, ...]:
        return ROUTE_STANDARD_GREENFIELD if self.project_mode.value == "GREENFIELD" else ROUTE_STANDARD_BROWNFIELD

    @cached_property
    def positions(self) -> list[tuple[str, str]]:
        """The route as ``(state, status)`` pairs: ``passed``, ``current`` or
        ``remaining``.  A terminal state follows the route: SIGNED_OFF after
        every state passed; CANCELLED after the states before the one it was
        cancelled from (Handoff.From).  A state off the cycle's route is
        placed on the STANDARD route.  An unreadable state: every state
        ``remaining``, none current."""
        ws = self.state.value
        route = self.route
        if ws is not None and ws not in route and ws not in TERMINAL_STATES and ws in self.standard_route:
            route = self.standard_route
        if ws == "SIGNED_OFF":
            return [(s, "passed") for s in route] + [(ws, "current")]
        if ws == "CANCELLED":
            frm = self.handoff.from_.value
            cut = route.index(frm) if frm in route else 0
            return [(s, "passed" if i < cut else "remaining") for i, s in enumerate(route)] + [(ws, "current")]
        if ws not in route:
            return [(s, "remaining") for s in route]
        i = route.index(ws)
        return [(s, "passed" if j < i else "current" if j == i else "remaining") for j, s in enumerate(route)]

    def _where(self, status: str) -> tuple[str, ...]:
        return tuple(s for s, st in self.positions if st == status)

    @property
    def passed(self) -> tuple[str, ...]:
        return self._where("passed")

    @property
    def current(self) -> Optional[str]:
        cur = self._where("current")
        return cur[0] if cur else None

    @property
    def remaining(self) -> tuple[str, ...]:
        return self._where("remaining")

    @property
    def owner(self) -> Optional[str]:
        """The role owning the current state (``USER`` for the user's)."""
        return owner_of(self.state.value)

    @property
    def terminal(self) -> bool:
        return self.state.value in TERMINAL_STATES

    @property
    def in_recovery(self) -> bool:
        return self.recovery.active.is_("true")


def _item_value(item, name: str) -> Value:
    found = [f for f in item.fields if f.name == name]
    if not found:
        return Value(name, MISSING, why=f"`{name}` is not in the entry")
    if len(found) > 1:
        return Value(name, "repeated", found[0].value, None, found[0], found, why="repeated in the entry")
    f = found[0]
    if not f.value.strip():
        return Value(name, INVALID, f.value, None, f, found, why="empty")
    return Value(name, READ, f.value, f.value, f, found)
