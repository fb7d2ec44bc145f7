"""Which completed records `check` holds, and to what.

One decision, a function of the workflow state, the cycle's route,
`Recovery.Active` and its top frame, `Handoff.Kind`/`From` and the turn-end
flag, made here and asked by every rule that needs it (acceptance coverage,
partial assessments, Tester's assignment gates, required records, Active Work
paths).  PROTOCOL.md, Runtime Tools and Hooks:

* ``check`` holds the current state's own ``COMPLETE`` records to full
  acceptance coverage, and the current role's record to the gate of its
  assignment.  Outside recovery it also holds the records of every state the
  cycle has passed on its forward route and of the state a ``RESUME`` (or a
  valid ``FORWARD``) came from.  During recovery it holds only the current
  state's (and a ``RESUME``/``FORWARD`` source's), except when a ``FORWARD`` or
  ``RESUME`` enters a Reviewer state of a route with Developer and Tester
  gates, or a recovery ``RESUME`` returns to sign-off, where the full
  completion checks are kept; a ``FORWARD`` into sign-off during recovery,
  or a ``RESUME`` that leaves its frame there, is no return and holds
  nothing but the records before Reviewer entry (whose full Developer and
  Tester gates hold past it on a route that has them).  After a ``FORWARD``
  during recovery the source's own ``COMPLETE`` record is the rerun's to
  finish (a design, which has no Status, stays held).
* The Stop hook's turn-end check (``standards-lint --turn-end``): "the hook
  does not hold the current state's own `COMPLETE` records to full acceptance
  coverage; the role that owns the state reconciles them when it starts".
  During recovery it "instead holds those of the state named in
  `Handoff.From` after a `FORWARD`, `CHECKPOINT`, `RESUME`, or `FAILURE`
  handoff" (a ``FAILURE`` that pushed no frame started no recovery), applying "the gate for the persisted assignment" (a checkpoint's
  or scoped correction's partial record must still account for every
  condition), and "none while in `SCOPING`".

A state off the cycle's route (a DOCUMENTATION cycle moved to DEVELOPING) is
placed on the STANDARD route to decide what it has passed.
"""

from __future__ import annotations

from typing import Optional

from ..syntax.data import Frozen
from ..syntax.protocol import (
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    owner_mismatch,
)

# Handoffs after which the turn-end check holds Handoff.From's records.
HOOK_HANDOFFS = ("FORWARD", "CHECKPOINT", "RESUME", "FAILURE")
# States whose entry keeps the full completion checks, even during recovery
# (Full Verification Boundary: "Before either a FORWARD or recovery RESUME
# enters a Reviewer state, the full applicable [...] gates must hold"; and
# sign-off, which needs the whole cycle complete).
REVIEWER_STATES = ("REVIEWING_IMPLEMENTATION", "REVIEWING_FINAL")
FULL_CHECK_STATES = ("REVIEWING_IMPLEMENTATION", "REVIEWING_FINAL", "AWAITING_USER_SIGNOFF")
# Assessment Purposes of a partial Tester assignment (a checkpoint's increment
# assessment, a scoped correction): the turn-end check's partial gate.
PARTIAL_PURPOSES = ("INCREMENT", "CORRECTION")


def route_of(cycle_mode: Optional[str], project_mode: Optional[str]) -> tuple[str, ...]:
    """The cycle's forward route (Forward Transitions)."""
    if cycle_mode == "DOCUMENTATION":
        return ROUTE_DOCUMENTATION
    if cycle_mode == "EXPEDITED":
        return ROUTE_EXPEDITED
    if project_mode == "GREENFIELD":
        return ROUTE_STANDARD_GREENFIELD
    return ROUTE_STANDARD_BROWNFIELD


class Holding(Frozen):
    """The inputs of the decision, and the questions rules ask of it."""

    __slots__ = ("state", "route", "standard_route", "recovery", "kind", "frm", "turn_end", "frames", "top_rerun",
                 "top_from", "top_mismatch", "top_owner")

    def __init__(self, state: Optional[str], route: tuple[str, ...], standard_route: tuple[str, ...],
                 recovery: Optional[str], kind: Optional[str], frm: Optional[str], turn_end: bool = False,
                 frames: int = 0, top_rerun: Optional[str] = None, top_from: Optional[str] = None,
                 top_mismatch: bool = False, top_owner: Optional[str] = None):
        setter = object.__setattr__
        setter(self, "state", state)  # WorkflowState
        setter(self, "route", route)
        setter(self, "standard_route", standard_route)  # the STANDARD route of the project mode
        setter(self, "recovery", recovery)  # Recovery.Active: "true", "false" or another (invalid) value
        setter(self, "kind", kind)  # Handoff.Kind
        setter(self, "frm", frm)  # Handoff.From
        setter(self, "turn_end", turn_end)
        setter(self, "frames", frames)  # recovery frames in the Recovery section
        setter(self, "top_rerun", top_rerun)  # the last frame's RerunThrough
        setter(self, "top_from", top_from)  # the last frame's From: the state the recovery interrupted
        setter(self, "top_mismatch", top_mismatch)  # the last frame's Owner does not own its FailureType
        setter(self, "top_owner", top_owner)  # the last frame's Owner

    def before(self, s: str) -> bool:
        """*s* comes before the current state on the cycle's forward route
        (for a state off that route, on the STANDARD route: a DOCUMENTATION
        cycle moved to DEVELOPING has still passed ARCHITECTING)."""
        route = self.route
        if self.state not in route:
            route = self.standard_route
        return s in route and self.state in route and route.index(s) < route.index(self.state)

    def from_held(self, s: str) -> bool:
        """*s* is the state the last RESUME (or a valid FORWARD) came from."""
        if s != self.frm:
            return False
        return self.kind == "RESUME" or (self.kind == "FORWARD" and self.before(s))

    def _hook_from(self, s: str) -> bool:
        """At turn end: *s* is the other state named in Handoff.From after a
        CHECKPOINT, RESUME or FAILURE handoff or a valid FORWARD (one from
        an earlier state of the route); none in SCOPING during recovery."""
        if s != self.frm or s == self.state or self.kind not in HOOK_HANDOFFS:
            return False
        if self.kind == "FAILURE" and self.recovery != "true":
            return False  # "During recovery": a FAILURE that pushed no frame started none
        if self.kind == "FORWARD" and not self.before(s):
            return False
        return not (self.recovery == "true" and self.state == "SCOPING")

    def passed_due(self, s: str, *, path: bool = False) -> bool:
        """Whether a state *s* the cycle has passed must already have left
        its artifact: its record, COMPLETE, or (*path*) its Active Work
        path or, for AUDITING in a DOCUMENTATION cycle, the project
        context.  Always outside recovery.  During recovery:

        * a record of a state before the one that just handed off with
          FORWARD, on the cycle's route (that state's gate needed it), and
          of the state that handed off with RESUME itself unless
          the top frame's owner is still correcting (its RerunThrough is
          NONE): the rerun has not reached the others (a FORWARD's own
          source record is the rerun's to finish, as the checker reads it);
          all without a frame to rerun (nor the RESUME's source when the top
          frame's rerun still passes it: after its Owner, up to its
          RerunThrough, Recovery Mechanics, 5-6); a FAILURE into sign-off holds them
          all, since sign-off needs every record, and so does a RESUME into
          sign-off that leaves a frame whose Owner does not own its
          FailureType (SL506): it names no correction whose rerun could
          re-establish them;
        * the record of the state a FORWARD into a Reviewer state came from,
          even while the frame's owner corrects: Reviewer entry keeps "full
          completion checks" (Runtime Tools and Hooks);
        * none after a FORWARD (outside sign-off) while the top frame's Owner
          does not own its FailureType (SL506): the frame names no correction
          whose gate the handoff passed; the checker reads it so, the
          protocol is silent;
        * a path after a FORWARD or RESUME, of the state named
          in Handoff.From and of every state before it on the route (every
          passed one when the current state is off the route), and of every
          passed state before the one the top frame interrupted (its
          `From`): those passed their gates before the recovery began, and
          "Scoper, Architect, and Developer must persist their artifact path
          before their normal completion gate passes" (Active Work); but not
          the path of the top frame's Owner or of a state after it while that
          owner still corrects (RerunThrough NONE, an Owner that owns the
          frame's FailureType): "After correcting the defect and passing its
          applicable gate, that owner decides which already-produced
          downstream work must be re-established" (Recovery Mechanics, 3).
        """
        if self.recovery != "true":
            return True
        if path:
            if self.kind not in ("FORWARD", "RESUME") or self.frm in (None, "NONE"):
                return False
            if self.frames == 0:
                return True  # no frame to rerun (the recovery rules report it): as outside recovery
            if self.state not in self.route:
                return True  # no place on the route to measure the rerun from: as outside recovery
            if self.kind == "RESUME" and not self.before(self.frm):
                return False  # a RESUME back from a later state: the rerun passes the states before again
            if (self.top_rerun == "NONE" and not self.top_mismatch and self.top_owner in self.route
                    and not self._before(s, self.top_owner)):
                return False  # the top frame's owner still corrects: its state and the ones after are the rerun's
            if self.top_from is not None and self.before(s) and self._before(s, self.top_from):
                return True
            return s == self.frm or self._before(s, self.frm)
        if self.state == "AWAITING_USER_SIGNOFF" and self.kind == "FAILURE":
            return True
        if s == "TESTING" and self._enters_reviewer():
            # "Before either a `FORWARD` or recovery `RESUME` enters a
            # Reviewer state, the full applicable Developer and Tester gates
            # must hold" (Full Verification Boundary): Tester's report is due
            # whatever the rerun still owes.
            return True
        if (s in REVIEWER_STATES and s != self.frm and self.state != "AWAITING_USER_SIGNOFF"
                and (self.frames == 0 or (self.top_owner is not None and self._before(self.top_owner, s)))):
            # A Reviewer's record whose review the top frame's rerun passes
            # again (its Owner comes before it) is the rerun's to redo: the
            # Reviewer reviews the corrected work anew.  Only the Reviewer
            # that handed off has finished it, and sign-off needs every one.
            return False
        if self.frames == 0:
            return True  # no frame to rerun (the recovery rules report it)
        if self.state == "AWAITING_USER_SIGNOFF" and self.kind == "RESUME" and self.top_mismatch:
            return True  # the frame left names no correction (SL506) that could hold sign-off's records back
        if self.top_mismatch and self.kind == "FORWARD" and self.state != "AWAITING_USER_SIGNOFF":
            return False
        if self.kind == "FORWARD" and self.state in REVIEWER_STATES and s == self.frm and self.before(s):
            return True
        if (self.kind == "FORWARD" and self.frm in self.route and s in self.route and self._before(s, self.frm)
                and (self.frm not in REVIEWER_STATES or "TESTING" in self.route)):
            # Passed before the state that handed off forward on the route: its
            # gate needed them.  A Reviewer's gate during a DOCUMENTATION
            # rerun holds no earlier record (its route has no Developer and
            # Tester gates to keep; the rerun finishes them).
            return True
        if s in ("DEVELOPING", "TESTING") and self.reviewer_entry_passed():
            return True  # the full Developer and Tester gates hold past Reviewer entry
        if self.top_rerun in (None, "NONE"):
            return False
        if self.kind != "RESUME" or s != self.frm:
            return False
        # A source the top frame's rerun still passes (after its Owner, up to RerunThrough)
        # is that rerun's to re-establish (Recovery Mechanics, 5-6).
        return not self._rerun_passes(s)

    def _enters_reviewer(self) -> bool:
        """Whether the handoff is a FORWARD or RESUME that entered a
        Reviewer state: into one, or from before the first Reviewer state to
        past it (the rerun's return skipped over it)."""
        if self.kind not in ("FORWARD", "RESUME") or "TESTING" not in self.route or self.state not in self.route:
            return False
        if self.state in REVIEWER_STATES:
            return True
        first = "REVIEWING_IMPLEMENTATION"
        return (self.frm in self.route and self._before(self.frm, first) and first in self.route
                and self._before(first, self.state))

    def _before(self, s: str, t: str) -> bool:
        route = self.route if t in self.route else self.standard_route
        return s in route and t in route and route.index(s) < route.index(t)

    def full_gates_due(self) -> bool:
        """Whether the full Developer and Tester gates apply to a state past
        TESTING: always outside recovery; during recovery only after a
        FORWARD or RESUME ("Before either a `FORWARD` or recovery `RESUME`
        enters a Reviewer state, the full applicable Developer and Tester
        gates must hold", Full Verification Boundary)."""
        return self.recovery != "true" or self.kind in ("FORWARD", "RESUME")

    def reviewer_entry_passed(self) -> bool:
        """A ``FORWARD`` or ``RESUME`` has brought the cycle to a Reviewer
        state or a later one, on a route with Developer and Tester gates:
        "Before either a `FORWARD` or recovery `RESUME` enters a Reviewer
        state, the full applicable Developer and Tester gates must hold for
        the current implementation, even if another recovery frame remains
        active" (Full Verification Boundary), whatever frame is left on the
        stack and whoever owns it; a state after a Reviewer state is reached
        only past that entry."""
        return self.kind in ("FORWARD", "RESUME") and "TESTING" in self.route and self._past_reviewer_entry()

    def relaxed(self, s: str) -> bool:
        """Whether the records of state *s* are left to their role: at turn
        end, the current state's own records are not held to completion."""
        return self.turn_end and s == self.state

    def partial(self, s: str, purpose: Optional[str]) -> bool:
        """Whether a record of state *s* that is not COMPLETE must still
        account for every current acceptance condition (a partial record:
        pending and awaiting-implementation entries allowed).  A plain check
        holds the current state's increment assessment; the turn-end check
        holds the record the turn handed off from *s* when the assignment it
        persists is a partial one (*purpose* `INCREMENT` or `CORRECTION`):
        "Apply the gate for the persisted assignment: a checkpoint or scoped
        corrective return does not assert full phase completion" but leaves
        every ID accounted for.  A `FULL` assignment's gate is full
        completion (:meth:`completion`), and a record that persists no
        readable assignment (no single `Assessment Purpose`, or an unknown
        one) has no partial gate to apply, as the checker reads it."""
        if not self.turn_end:
            return s == self.state and purpose == "INCREMENT"
        return self._hook_from(s) and purpose in PARTIAL_PURPOSES

    def completion(self, s: str, *, own: bool = True) -> bool:
        """Whether the COMPLETE records of state *s* are held to full
        acceptance coverage.  *own*: the record has a Status to claim
        completion with (a design has none; the turn-end check adds only
        COMPLETE records, so it holds a design where the plain one does)."""
        if s == self.state:
            return own and not self.turn_end
        hook = self.turn_end and own and self._hook_from(s)
        if self.recovery == "false":
            return self.before(s) or self.from_held(s) or hook
        if self.recovery != "true" or self.state == "SCOPING":
            return False
        if self._full_checks() and not (self.top_mismatch and self.kind == "FORWARD"):
            # (a frame whose Owner does not own its FailureType names no correction whose
            # gate the FORWARD passed: its source's record stays the rerun's, as below)
            return self.before(s)
        # Past a Reviewer entry (a FORWARD or RESUME into or beyond
        # REVIEWING_IMPLEMENTATION on a route with Developer and Tester gates):
        # that entry needed the full Developer and Tester gates (Full
        # Verification Boundary), so the records before it stay held, and a
        # Reviewer's FORWARD holds every record before the Reviewer state.
        if self.kind in ("FORWARD", "RESUME") and "TESTING" in self.route and self._past_reviewer_entry():
            if self._before(s, "REVIEWING_IMPLEMENTATION"):
                return True
            if self.kind == "FORWARD" and self.frm in REVIEWER_STATES and self.before(self.frm) and self._before(s, self.frm):
                return True
        if self.state == "AWAITING_USER_SIGNOFF" and self.kind in ("FORWARD", "RESUME"):
            # No recovery return: a FORWARD, or a RESUME that leaves its frame,
            # into sign-off asserts no gate (SL350); a RESUME's source passed
            # its own gate unless the frame's owner is still correcting.
            return hook or (self.kind == "RESUME" and self.top_rerun not in (None, "NONE") and self.from_held(s))
        if self.kind == "FORWARD" and own:
            return hook
        if self.kind == "RESUME" and s == "REVIEWING_IMPLEMENTATION" and "TESTING" in self.route:
            # "During recovery, when `check` otherwise holds only the current
            # state's `COMPLETE` records" (Runtime Tools and Hooks): the
            # implementation Reviewer's return to a later state is held at
            # turn end only (a RESUME from REVIEWING_FINAL must be COMPLETE,
            # "Reviewer has no corrective-return exception", and stays held).
            return hook
        return self.from_held(s) or hook

    def _rerun_passes(self, s: str) -> bool:
        """*s* lies in the top frame's rerun: after its Owner, up to its
        RerunThrough (Recovery Mechanics, 5-6): its work is that rerun's to
        re-establish."""
        if self.top_owner is None or self.top_rerun in (None, "NONE"):
            return False
        return self._before(self.top_owner, s) and not self._before(self.top_rerun, s)

    def _past_reviewer_entry(self) -> bool:
        """The current state is REVIEWING_IMPLEMENTATION or a later state of
        the cycle's route."""
        return self.state == "REVIEWING_IMPLEMENTATION" or self.before("REVIEWING_IMPLEMENTATION")

    def _full_checks(self) -> bool:
        """During recovery, whether the full completion checks are kept:
        when a FORWARD or recovery RESUME enters a Reviewer state of a route
        with Developer and Tester gates ("Before either a `FORWARD` or
        recovery `RESUME` enters a Reviewer state, the full applicable
        Developer and Tester gates must hold", Full Verification Boundary;
        a DOCUMENTATION route has none), and when a recovery RESUME returns
        to sign-off, which needs the whole cycle complete."""
        if self.state == "AWAITING_USER_SIGNOFF":
            return self.kind == "RESUME" and self.frames == 0
        return (self.state in FULL_CHECK_STATES and self.kind in ("FORWARD", "RESUME")
                and "TESTING" in self.route)


def reviewer_entered(state: Optional[str], kind: Optional[str]) -> bool:
    """A FORWARD or RESUME has entered a Reviewer state: "Before either a
    `FORWARD` or recovery `RESUME` enters a Reviewer state, the full
    applicable Developer and Tester gates must hold for the current
    implementation, even if another recovery frame remains active" (Full
    Verification Boundary), so no frame keeps their scoped exemptions."""
    return state in REVIEWER_STATES and kind in ("FORWARD", "RESUME")


def holding(project) -> Optional[Holding]:
    """The project's holding decision (None without a readable STATE.md)."""
    cache = project.__dict__.setdefault("_standards_lint_holding", {})
    if "h" not in cache:
        cache["h"] = _build(project)
    return cache["h"]


def _build(project) -> Optional[Holding]:
    st = project.state
    if st is None:
        return None
    project_mode = None
    if project.mode_doc is not None:
        found = project.mode_doc.header.all_fields("ProjectMode") if project.mode_doc.header is not None else []
        project_mode = found[0].value if len(found) == 1 else None
    return Holding(
        state=st.workflow_state,
        route=route_of(st.cycle_mode, project_mode),
        standard_route=route_of("STANDARD", project_mode),
        recovery=st.value(st.recovery, "Active"),
        kind=st.ho("Kind"),
        frm=st.ho("From"),
        turn_end=bool(getattr(project, "turn_end", False)),
        frames=len(st.frames),
        top_rerun=st.value(st.frames[-1], "RerunThrough") if st.frames else None,
        top_from=st.value(st.frames[-1], "From") if st.frames else None,
        top_owner=st.value(st.frames[-1], "Owner") if st.frames else None,
        top_mismatch=bool(st.frames) and owner_mismatch(st.value(st.frames[-1], "FailureType"),
                                                         st.value(st.frames[-1], "Owner")),
    )


def tester_record_relaxed(project) -> bool:
    """At turn end in TESTING: the verification report is the current
    state's own record, so its assignment gate is left to Tester."""
    h = holding(project)
    return h is not None and h.relaxed("TESTING")
