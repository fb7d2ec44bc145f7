"""Moves between two versions of STATE.md, in the protocol's words.

A version of the workflow is read through the same model the rules read
(:func:`~standards_lint.model.model_of`); :func:`snapshot` takes from it what
a move changes: the cycle ID, the state, the cycle mode and completion
policy, the handoff, the recovery frames and the outstanding obligations.
:func:`explain` answers whether the protocol allows the later version to
follow the earlier one: as one move whose handoff records it, as several
legal moves squashed into one commit (the sequence is returned), or not at
all.  The moves are the protocol's own:

- Forward Transitions and Handoff Rules: ``FORWARD`` to the route's next
  state, ``CHECKPOINT`` between Developer and Tester;
- Failure Handoffs and Recovery Mechanics: ``FAILURE`` and ``USER_REWORK``
  push a frame when the state changes (``From`` = interrupted state,
  ``Owner`` = target, ``ResumeAt`` = interrupted state, ``RerunThrough:
  NONE``); ``RESUME`` pops the active frame at its owner (no rerun) or at
  its ``RerunThrough`` (rerun boundary), or jumps to the earliest rerun state
  when the owner sets ``RerunThrough``;
- Expedited Promotion: ``PROMOTE`` to ``AUDITING`` in ``STANDARD``,
  converting each frame whose ``RerunThrough`` is ``NONE`` into an
  obligation;
- User Decisions: ``SIGNOFF``, ``CANCEL``, ``NEW_CYCLE``,
  ``COMPLETION_CHANGE``.

This module reads only the model; it never runs git (the history package
does, and hands the rules a :class:`Move`).
"""

from __future__ import annotations

from collections import deque
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
MAX_SQUASH = 6
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
                    _raw(h.reason), frames, obligations, _raw(wf.blocked_on))


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


def _with(s: Snapshot, **kw) -> Snapshot:
    return s._replace(**kw)


def successors(s: Snapshot, target: Snapshot):
    """Every legal move from *s*, as ``(Step, Snapshot)``.  *target* (the
    later version) supplies what the protocol leaves to the role: a pushed
    frame's type and reason, a planned ``RerunThrough``, a new cycle's ID
    and mode."""
    state = s.state
    if s.terminal:
        if not target.installed and target.cid != s.cid:
            for e in entry_states(target.mode, target.project_mode):
                yield Step("NEW_CYCLE", state, e, "clear"), _with(
                    s, cid=target.cid, state=e, mode=target.mode, policy=target.policy, frames=(), obligations=(),
                    kind="NEW_CYCLE", frm=state)
        return
    if s.installed and not target.installed:
        for e in entry_states(target.mode, target.project_mode):
            yield Step("INITIAL", "NONE", e), _with(s, cid=target.cid, state=e, mode=target.mode,
                                                      policy=target.policy, frames=(), obligations=(),
                                                      kind="INITIAL", frm="NONE")
        return
    if s.installed:
        return
    live = s.frames[-1] if s.frames else None
    depth = len(s.frames)
    # FORWARD (a normal forward handoff, also during recovery)
    nxt = next_state(s, state)
    if nxt is not None:
        yield Step("FORWARD", state, nxt), _with(s, state=nxt, kind="FORWARD", frm=state)
        # the frame's owner plans its reruns and the earliest is the next state
        if live is not None and live.owner == state and live.rerun_through == "NONE":
            for rt in _rerun_choices(s, target, depth):
                f = live._replace(rerun_through=rt)
                yield Step("FORWARD", state, nxt, "rerun"), _with(
                    s, state=nxt, kind="FORWARD", frm=state, frames=s.frames[:-1] + (f,))
    # CHECKPOINT: the incremental exchange between Developer and Tester
    if s.mode == "STANDARD" and state in ("DEVELOPING", "TESTING"):
        to = "TESTING" if state == "DEVELOPING" else "DEVELOPING"
        yield Step("CHECKPOINT", state, to), _with(s, state=to, kind="CHECKPOINT", frm=state)
    # FAILURE / USER_REWORK: push a frame when the state changes
    # at AWAITING_USER_SIGNOFF only the user acts: "available actions are sign
    # off, rework, or cancel" (User Decisions and Intervention)
    for kind in (("USER_REWORK",) if state == "AWAITING_USER_SIGNOFF" else ("FAILURE", "USER_REWORK")):
        for ft in FAILURE_TARGETS:
            for to in failure_targets(s, ft):
                if to == state:
                    continue  # a same-state failure is no move (the handoff alone changes)
                tf = target.frames[depth] if len(target.frames) > depth else None
                reason = tf.reason if tf is not None and tf.owner == to and tf.failure_type == ft else "?"
                frame = Frame(state, to, ft, reason, state, "NONE")
                yield Step(kind, state, to, "push"), _with(s, state=to, kind=kind, frm=state,
                                                           frames=s.frames + (frame,), failure_type=ft)
    # RESUME: pop at the owner (no rerun) or at the rerun boundary
    if live is not None:
        if (live.owner == state and live.rerun_through == "NONE") or live.rerun_through == state:
            yield Step("RESUME", state, live.resume_at, "pop"), _with(
                s, state=live.resume_at, kind="RESUME", frm=state, frames=s.frames[:-1])
        # the owner sets RerunThrough and goes to the earliest rerun state
        if live.owner == state and live.rerun_through == "NONE":
            for rt in _rerun_choices(s, target, depth):
                f = live._replace(rerun_through=rt)
                for to in _between(s, state, rt):
                    yield Step("RESUME", state, to, "rerun"), _with(
                        s, state=to, kind="RESUME", frm=state, frames=s.frames[:-1] + (f,))
        # a recovery-directed jump between rerun states
        if live.rerun_through not in ("NONE", "?") and live.owner != state:
            for to in _between(s, state, live.rerun_through):
                yield Step("RESUME", state, to), _with(s, state=to, kind="RESUME", frm=state)
    # PROMOTE (expedited only)
    if s.mode == "EXPEDITED":
        converted = tuple(Obligation(f.owner, f.failure_type, f.reason) for f in s.frames
                          if f.rerun_through == "NONE")
        yield Step("PROMOTE", state, "AUDITING", "convert"), _with(
            s, state="AUDITING", mode="STANDARD", policy="FULL_DELIVERABLE", kind="PROMOTE", frm=state, frames=(),
            obligations=s.obligations + converted)
    # COMPLETION_CHANGE: the two state-changing routes
    if s.mode == "STANDARD" and state == "DOCUMENTING" and s.policy == "FULL_DELIVERABLE":
        yield Step("COMPLETION_CHANGE", state, "REVIEWING_IMPLEMENTATION"), _with(
            s, state="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
            frm=state)
    if s.mode == "STANDARD" and state == "AWAITING_USER_SIGNOFF" and s.policy == "IMPLEMENTATION_REVIEWED":
        yield Step("COMPLETION_CHANGE", state, "DOCUMENTING"), _with(
            s, state="DOCUMENTING", policy="FULL_DELIVERABLE", kind="COMPLETION_CHANGE", frm=state)
    # SIGNOFF: only with no outstanding obligation
    if state == "AWAITING_USER_SIGNOFF" and not s.obligations:
        yield Step("SIGNOFF", state, "SIGNED_OFF", "clear"), _with(
            s, state="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", frm=state, frames=())
    # CANCEL
    yield Step("CANCEL", state, "CANCELLED", "clear"), _with(
        s, state="CANCELLED", mode="UNSET", kind="CANCEL", frm=state, frames=(), obligations=())


def _rerun_choices(s: Snapshot, target: Snapshot, depth: int) -> list[str]:
    """The ``RerunThrough`` the active frame's owner may set: the later
    version's, when it still holds the frame; else (a frame pushed and
    popped inside a squash) any state between the owner and ``ResumeAt``."""
    live = s.frames[depth - 1]
    tf = target.frames[depth - 1] if len(target.frames) >= depth else None
    if tf is not None and tf.key == live.key:
        return [tf.rerun_through] if tf.rerun_through != "NONE" else []
    states = _between(s, live.owner, live.resume_at)
    return [x for x in states if x != live.resume_at]


def _between(s: Snapshot, start: str, last: str) -> list[str]:
    """States on the route after *start* up to *last* (the standard route
    when the cycle's own route does not hold both)."""
    for r in (route(s.mode, s.policy, s.project_mode), standard_route(s.project_mode)):
        if last in r:
            end = r.index(last)
            begin = r.index(start) + 1 if start in r else 0
            return list(r[begin:end + 1])
    return []


# -- explaining a pair -------------------------------------------------------

def _core(s: Snapshot) -> tuple:
    return (s.cid, s.state, s.mode, s.policy, tuple(f.key + (f.rerun_through,) for f in s.frames))


def _matches(cand: Snapshot, after: Snapshot, visited: frozenset) -> bool:
    if _core(cand) != _core(after):
        return False
    return obligations_kept(cand.obligations, after.obligations, visited)


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


class Explanation(NamedTuple):
    """How the later version follows the earlier one: ``steps`` is the legal
    sequence (one step: a single move; none: no move at all), or None when
    no legal sequence of at most MAX_SQUASH moves explains it."""

    steps: Optional[tuple]

    @property
    def legal(self) -> bool:
        return self.steps is not None

    @property
    def squashed(self) -> bool:
        return self.steps is not None and len(self.steps) > 1


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


def explain(before: Snapshot, after: Snapshot) -> Explanation:
    """The legal sequence of moves leading from *before* to *after* whose
    last move is the one *after*'s handoff records."""
    if not is_move(before, after):
        ok = obligations_kept(before.obligations, after.obligations, {before.state})
        return Explanation(() if ok else None)
    if same_state_failure(before, after):
        ok = obligations_kept(before.obligations, after.obligations, {before.state})
        return Explanation((Step(after.kind, after.frm, after.state),) if ok else None)
    start = (before, (), frozenset({before.state}))
    queue = deque([start])
    seen = {(_core(before), before.obligations)}
    max_depth = max(len(before.frames), len(after.frames)) + 2
    nodes = 0
    shown = frozenset({before.state, after.state})
    while queue:
        s, path, visited = queue.popleft()
        if len(path) >= MAX_SQUASH:
            continue
        for step, nxt in successors(s, after):
            nodes += 1
            if len(nxt.frames) > max_depth:
                continue
            vis = visited | {nxt.state}
            npath = path + (step,)
            # an obligation's removal must show in a version of its owning
            # state, not in a state a squash passed through unseen
            if (step.kind, step.frm) == (after.kind, after.frm) and _matches(nxt, after, shown):
                return Explanation(npath)
            key = (_core(nxt), nxt.obligations)
            if key in seen or nodes > _MAX_NODES:
                continue
            seen.add(key)
            queue.append((nxt, npath, vis))
    return Explanation(None)


def single(before: Snapshot, after: Snapshot) -> Optional[Step]:
    """The one legal move that leads from *before* to *after* with the
    handoff *after* records, or None."""
    for step, nxt in successors(before, after):
        if (step.kind, step.frm) == (after.kind, after.frm) and _matches(nxt, after,
                                                                        frozenset({before.state, nxt.state})):
            return step
    return None


# -- the move a rule checks --------------------------------------------------

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

    @property
    def explanation(self) -> Optional[Explanation]:
        """:func:`explain` of the two snapshots (None when either cannot be
        read), computed once for every rule that asks."""
        if "explanation" not in self._snaps:
            b, a = self.before_snapshot, self.after_snapshot
            self._snaps["explanation"] = explain(b, a) if b is not None and a is not None else None
        return self._snaps["explanation"]

    @property
    def problem(self) -> Optional["Problem"]:
        """:func:`diagnose` of the pair: the one thing to report about an
        unexplained move, or None."""
        e = self.explanation
        if e is None:
            return None
        return diagnose(self.before_snapshot, self.after_snapshot, e)

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


__all__ = ["Commit", "Explanation", "Frame", "MAX_SQUASH", "Move", "Obligation", "Problem", "Snapshot", "Step", "diagnose", "explain",
           "is_move", "scope_of", "next_state", "route", "single", "snapshot", "successors"]


# -- what is wrong with an unexplained move ------------------------------------

# Kinds whose move removes frames: one (RESUME) or all (the rest).
_POPS = {"RESUME": 1, "SIGNOFF": None, "CANCEL": None, "PROMOTE": None, "NEW_CYCLE": None}


class Problem(NamedTuple):
    """Why no legal sequence explains a pair (one per pair): ``kind`` is
    ``cycle-id``, ``frame``, ``obligation``, ``from``, ``move`` or
    ``squash``; ``detail`` says what in words."""

    kind: str
    detail: str


def lost_frames(before: Snapshot, after: Snapshot) -> list[Frame]:
    keys = {f.key for f in after.frames}
    return [f for f in before.frames if f.key not in keys]


def dropped_obligations(before: Snapshot, after: Snapshot) -> list[Obligation]:
    left = list(after.obligations)
    out = []
    for o in before.obligations:
        if o in left:
            left.remove(o)
        else:
            out.append(o)
    return out


def diagnose(before: Snapshot, after: Snapshot, explanation: Explanation) -> Optional[Problem]:
    """None when the pair is explained; else the one problem to report, the
    most specific first."""
    if explanation.legal:
        return None
    if after.cid != before.cid and not before.terminal and not before.installed:
        return Problem("cycle-id", f"`Active Work.Id` changed from `{before.cid}` to `{after.cid}` while the cycle "
                                   f"was in `{before.state}`")
    lost = lost_frames(before, after)
    allowed = _POPS.get(after.kind, 0)
    if lost and allowed is not None and len(lost) > allowed:
        f = lost[0] if allowed == 0 else lost[0] if lost[-1] != before.frames[-1] else lost[0]
        return Problem("frame", f"the recovery frame `{f.from_} -> {f.owner}` ({f.failure_type}: {f.reason}, "
                                f"ResumeAt `{f.resume_at}`) is gone, and the handoff `{after.kind}` removes "
                                + ("no frame" if allowed == 0 else "only the active frame"))
    if after.kind not in ("CANCEL", "NEW_CYCLE"):
        reached = {before.state, after.state}
        gone = [o for o in dropped_obligations(before, after) if o.owner not in reached]
        if gone:
            o = gone[0]
            return Problem("obligation", f"the outstanding obligation `{o.owner}` ({o.failure_type}: {o.reason}) "
                                         f"is gone, but its owning state `{o.owner}` was not reached")
    if after.frm != before.state and after.kind in MOVE_KINDS and after.kind not in ("INITIAL",):
        if single(before, after._replace(frm=before.state)) is not None:
            return Problem("from", f"the handoff says `From`: `{after.frm}`, but the earlier version was in "
                                   f"`{before.state}`")
        return Problem("squash", f"the handoff records `{after.kind}` from `{after.frm}` to `{after.state}`, and no "
                                 f"legal sequence of moves leads there from `{before.state}`")
    return Problem("move", f"`{after.kind}` from `{before.state}` to `{after.state}` is not a move the protocol "
                           f"allows{_why(before, after)}")


def _why(before: Snapshot, after: Snapshot) -> str:
    if after.kind == "FORWARD":
        nxt = next_state(before, before.state)
        return f" (the route's next state after `{before.state}` is `{nxt}`)" if nxt else \
            f" (`{before.state}` has no forward successor)"
    if after.kind in ("FAILURE", "USER_REWORK"):
        t = failure_targets(before, after.failure_type)
        article = "an" if after.failure_type[:1] in "AEIOU" else "a"
        return f" ({article} `{after.failure_type}` failure routes to {', '.join(f'`{x}`' for x in t) or 'no state'} in " \
               f"`{before.mode}`, with a frame pushed)"
    if after.kind == "RESUME":
        live = before.frames[-1] if before.frames else None
        return (f" (the active frame resumes at `{live.resume_at}`)" if live else " (no recovery frame is active)")
    if after.kind in ("SIGNOFF", "CANCEL"):
        return _why_ending(before, after)
    if after.kind in ("NEW_CYCLE", "INITIAL"):
        return _why_start(before, after)
    return ""


def _why_ending(before: Snapshot, after: Snapshot) -> str:
    """Sign off and Cancel an active cycle (user-decisions.md): what the
    later version does not do of what the move must."""
    target = "SIGNED_OFF" if after.kind == "SIGNOFF" else "CANCELLED"
    if before.terminal or before.installed:
        return " (no cycle is active to end)"
    if after.kind == "SIGNOFF" and before.state != "AWAITING_USER_SIGNOFF":
        return " (a cycle is signed off only from `AWAITING_USER_SIGNOFF`)"
    if after.kind == "SIGNOFF" and before.obligations:
        return " (sign-off needs the outstanding obligations settled first)"
    if after.state != target:
        return f" (`{after.kind}` leads to `{target}`)"
    if after.mode != "UNSET":
        return f" (it sets `CycleMode` to `UNSET`; the later version keeps `{after.mode}`)"
    if after.frames:
        return " (it clears the recovery stack; the later version keeps its frames)"
    if after.kind == "CANCEL" and after.obligations:
        return " (it clears the outstanding obligations; the later version keeps them)"
    if after.cid != before.cid:
        return f" (it keeps `Active Work.Id`; the later version changes it to `{after.cid}`)"
    return ""


def _why_start(before: Snapshot, after: Snapshot) -> str:
    """Start a cycle (user-decisions.md): from the installed state with
    ``INITIAL``, from a terminal state with ``NEW_CYCLE``, under a new ID,
    in the mode's entry state."""
    if after.kind == "INITIAL" and not before.installed:
        return (" (only the first cycle records `INITIAL`; a cycle started from a terminal state records `NEW_CYCLE`)"
                if before.terminal else " (a cycle starts only from the installed or a terminal state)")
    if after.kind == "NEW_CYCLE" and not before.terminal:
        return (" (the first cycle records `INITIAL`)" if before.installed
                else f" (a new cycle starts only after sign-off or cancellation; `{before.state}` is active)")
    if after.cid == before.cid:
        return " (a finished cycle is never reopened: a new cycle needs a new ID)"
    entry = entry_states(after.mode, after.project_mode)
    if after.state not in entry:
        article = "an" if after.mode[:1] in "AEIOU" else "a"
        return f" ({article} `{after.mode}` cycle starts in {' or '.join(f'`{e}`' for e in entry)})"
    if after.frames:
        return " (a new cycle starts with recovery inactive)"
    return ""
