"""Moves between two versions of STATE.md, in the protocol's words.

A version of the workflow is read through the same model the rules read
(:func:`~standards_lint.model.model_of`); :func:`snapshot` takes from it what
a move changes: the cycle ID, the state, the cycle mode and completion
policy, the handoff, the recovery frames and the outstanding obligations.
The protocol's pieces a move is made of live here (the routes, the next
state, the failure targets, the entry states, whether obligations are kept,
a same-state failure), and the :class:`Move` the history rules receive;
which legal sequence of moves explains a commit, one move or several
squashed, is :mod:`standards_lint.history.explain`'s, built on them.

This module reads only the model; it never runs git (the history package
does, and hands the rules a :class:`Move`).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .holding import route_of
from ..syntax.protocol import (
    FAILURE_TARGETS,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    TERMINAL_STATES,
)

# Kinds that change the state or the stack (a handoff of these kinds records a move).
MOVE_KINDS = ("INITIAL", "FORWARD", "CHECKPOINT", "FAILURE", "RESUME", "PROMOTE", "USER_REWORK", "NEW_CYCLE",
              "SIGNOFF", "CANCEL", "COMPLETION_CHANGE")
# How many legal moves a squashed commit may hold before we stop looking.
_MAX_NODES = 20000


class Frame(NamedTuple):
    from_: str
    owner: str
    failure_type: str
    reason: str
    resume_at: str
    rerun_through: str

    @property
    def key(self) -> tuple:
        """What identifies the defect a frame preserves: everything but
        ``RerunThrough``, which the frame's owner sets when planning reruns."""
        return (self.from_, self.owner, self.failure_type, self.reason, self.resume_at)


class Obligation(NamedTuple):
    owner: str
    failure_type: str
    reason: str


class Snapshot(NamedTuple):
    """What a move changes, read from one version's model (raw text; ``?``
    for a value that cannot be read)."""

    cid: str
    state: str
    mode: str
    policy: str
    project_mode: str
    kind: str
    frm: str
    failure_type: str
    reason: str
    frames: tuple
    obligations: tuple
    blocked_on: str
    # The cycle modes the project's framework release has (model.releases):
    # what a cycle begun inside a squash may have been.
    modes: tuple = ("STANDARD", "EXPEDITED", "DOCUMENTATION")

    @property
    def terminal(self) -> bool:
        return self.state in TERMINAL_STATES

    @property
    def installed(self) -> bool:
        return self.cid in ("UNSET", "NONE", "?")


def _raw(v) -> str:
    return v.raw if v is not None and v.raw is not None and v.status in ("read", "invalid") else (
        v.value if v is not None and v.value is not None else "?")


def snapshot(model) -> Optional[Snapshot]:
    """The snapshot of one version, or None when its STATE.md is missing or
    its WorkflowState cannot be read."""
    wf = model.workflow
    if wf.sm is None or not wf.state.ok:
        return None
    frames = tuple(Frame(*(_raw(getattr(f, a)) for a in ("from_", "owner", "failure_type", "reason", "resume_at",
                                                            "rerun_through")))
                   for f in wf.recovery.entries)
    obligations = tuple(Obligation(_raw(o.owner), _raw(o.failure_type), _raw(o.reason))
                        for o in wf.obligations.entries)
    h = wf.handoff
    return Snapshot(_raw(wf.id), wf.state.value, _raw(wf.cycle_mode), _raw(wf.completion_policy),
                    wf.project_mode.value or "BROWNFIELD", _raw(h.kind), _raw(h.from_), _raw(h.failure_type),
                    _raw(h.reason), frames, obligations, _raw(wf.blocked_on),
                    tuple(m for m in wf.modes if m != "UNSET"))


# -- the route ---------------------------------------------------------------

def route(mode: str, policy: str, project_mode: str) -> tuple[str, ...]:
    r = route_of(mode if mode not in ("UNSET", "?") else None, project_mode)
    if mode not in ("DOCUMENTATION", "EXPEDITED") and policy == "IMPLEMENTATION_REVIEWED":
        i = r.index("REVIEWING_IMPLEMENTATION")
        r = r[:i + 1] + ("AWAITING_USER_SIGNOFF",)
    return r


def standard_route(project_mode: str) -> tuple[str, ...]:
    return ROUTE_STANDARD_GREENFIELD if project_mode == "GREENFIELD" else ROUTE_STANDARD_BROWNFIELD


def next_state(s: Snapshot, state: str) -> Optional[str]:
    """The forward route's next state after *state* (the standard route's for
    a state the shorter policy's route omits, entered in recovery)."""
    r = route(s.mode, s.policy, s.project_mode)
    if state not in r:
        r = standard_route(s.project_mode)
    if state not in r or r.index(state) + 1 >= len(r):
        return None
    return r[r.index(state) + 1]


def failure_targets(s: Snapshot, failure_type: str) -> tuple[str, ...]:
    """Failure Handoffs: the states a failure of this type routes to in the
    cycle's mode."""
    targets = FAILURE_TARGETS.get(failure_type, ())
    if s.mode == "EXPEDITED":
        return tuple(t for t in targets if t in ("DEVELOPING", "REVIEWING_IMPLEMENTATION")
                     and failure_type in ("IMPLEMENTATION", "REVIEW"))
    if s.mode == "DOCUMENTATION":
        return tuple(t for t in targets if t in route(s.mode, s.policy, s.project_mode)
                     and t != "REVIEWING_IMPLEMENTATION")
    return targets


def entry_states(mode: str, project_mode: str) -> tuple[str, ...]:
    """Start a cycle: where a new cycle begins."""
    if mode == "EXPEDITED":
        return ("DEVELOPING", "AUDITING")
    if mode == "DOCUMENTATION":
        return ("AUDITING",)
    return ("SCOPING", "AUDITING") if project_mode == "GREENFIELD" else ("AUDITING",)


# -- one move ----------------------------------------------------------------

class Step(NamedTuple):
    """One legal move: its handoff kind, ``From``, the state reached and what
    it did to the stack (``push``, ``pop``, ``rerun``, ``clear``, ``convert``
    or "")."""

    kind: str
    frm: str
    to: str
    stack: str = ""



def obligations_kept(before: tuple, after: tuple, owners_reached) -> bool:
    """Outstanding Obligations: *after* is *before* with some obligations
    removed (renumbering is free), each by its owner: its owning state was
    reached (in *owners_reached*)."""
    i = 0
    for o in before:
        if i < len(after) and after[i] == o:
            i += 1
        elif o.owner not in owners_reached:
            return False
    return i == len(after)


def _core(s: Snapshot) -> tuple:
    return (s.cid, s.state, s.mode, s.policy, tuple(f.key + (f.rerun_through,) for f in s.frames))


def is_move(before: Snapshot, after: Snapshot) -> bool:
    """Whether the workflow moved: the state, cycle, mode or stack changed,
    or the handoff records another transition."""
    return (_core(before) != _core(after) or (before.kind, before.frm) != (after.kind, after.frm)
            or (after.kind in ("FAILURE", "USER_REWORK") and
                (before.failure_type, before.reason) != (after.failure_type, after.reason)))


def same_state_failure(before: Snapshot, after: Snapshot) -> bool:
    """Failure Handoffs: "A same-state failure records the handoff but does
    not create a recovery frame."  (also a same-state USER_REWORK)."""
    return (after.kind in ("FAILURE", "USER_REWORK") and after.frm == before.state == after.state
            and _core(before) == _core(after) and after.state in failure_targets(before, after.failure_type))


class Commit(NamedTuple):
    """One version's commit: hash (``WORKTREE`` for the working tree), date
    (ISO 8601), author, subject."""

    sha: str
    date: str
    author: str
    subject: str = ""

    @property
    def short(self) -> str:
        return self.sha[:10] if self.sha != "WORKTREE" else "the working tree"


class Move:
    """What a history rule receives: two consecutive versions of the
    workflow files (``before`` and ``after``, their models, snapshots and
    commits) and what the history knew before the later one.

    ``changed``: the paths under ``.standards/`` the later commit changed;
    ``finished``: cycle ID -> the commit that finished it (SIGNED_OFF or
    CANCELLED), for the cycles finished before the later version;
    ``cycles_seen``: every cycle ID an earlier version named;
    ``record_cycle``: path -> the cycle ID of the record's provenance in the
    earlier version (or the later one, for a new file)."""

    def __init__(self, before, after, before_commit: Commit, after_commit: Commit, *, changed=(),
                 finished=None, cycles_seen=(), record_cycle=None, before_project=None, after_project=None):
        self.before = before
        self.after = after
        self.before_commit = before_commit
        self.after_commit = after_commit
        self.changed = tuple(changed)
        self.finished = dict(finished or {})
        self.cycles_seen = frozenset(cycles_seen)
        self.record_cycle = dict(record_cycle or {})
        self.before_project = before_project
        self.after_project = after_project
        self._snaps: dict = {}

    def _snap(self, which: str) -> Optional[Snapshot]:
        if which not in self._snaps:
            model = getattr(self, which)
            self._snaps[which] = snapshot(model) if model is not None else None
        return self._snaps[which]

    @property
    def before_snapshot(self) -> Optional[Snapshot]:
        return self._snap("before")

    @property
    def after_snapshot(self) -> Optional[Snapshot]:
        return self._snap("after")

    # ``explanation`` and ``problem`` (the legal sequence of moves that
    # explains the pair, and the one thing to report otherwise) are the
    # history package's: standards_lint.history.explain.HistoryMove, the
    # Move the history rules receive.

    def commits(self) -> str:
        """Both commits, for a message."""
        return f"{self.before_commit.short} -> {self.after_commit.short}"

    def scopes(self):
        """``(before, after)``: the scope conditions
        (:class:`~standards_lint.model.acceptance.ScopeModel`) of both
        versions, when both name the same cycle and a scope the acceptance
        rules read (``Active Work.Scope``, a valid SCOPE record of the cycle
        or an unmarked project document) and the scope may differ (its path
        changed or the later commit changed it); else None."""
        if self.before_project is None or self.after_project is None:
            return None
        b, a = scope_of(self.before_project), scope_of(self.after_project)
        if b is None or a is None or b[0] != a[0]:
            return None
        if b[1].path == a[1].path and a[1].path not in self.changed:
            return None
        return b[1], a[1]


def scope_of(project):
    """``(cycle ID, ScopeModel)`` of the active cycle's scope as the
    acceptance rules read it (:mod:`~standards_lint.model.acceptance`), or
    None; once per project."""
    cache = project.__dict__.setdefault("_standards_lint_moves", {})
    if "scope" not in cache:
        cache["scope"] = _read_scope(project)
    return cache["scope"]


def _read_scope(project):
    from ..syntax.protocol import CYCLE_ID_RE
    from .acceptance import _usable, scan_text, scope_model

    st = project.state
    if st is None:
        return None
    cycle = st.aw("Id")
    if not cycle or not CYCLE_ID_RE.match(cycle):
        return None
    path = _usable(project, st.aw("Scope"), "SCOPE", cycle)
    if path is None:
        return None
    return cycle, scope_model(scan_text(path, (project.text(path) or "").lstrip("\ufeff")))


__all__ = ["Commit", "Frame", "Move", "Obligation", "Problem", "Snapshot", "Step", "entry_states", "failure_targets",
           "is_move", "next_state", "obligations_kept", "route", "same_state_failure", "scope_of", "snapshot",
           "standard_route"]


# -- what is wrong with an unexplained move ------------------------------------


class Problem(NamedTuple):
    """Why no legal sequence explains a pair (one per pair): ``kind`` is
    ``cycle-id``, ``frame``, ``obligation``, ``from``, ``move`` or
    ``squash``; ``detail`` says what in words."""

    kind: str
    detail: str

