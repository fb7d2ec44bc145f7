"""How one commit of the workflow is explained: the legal sequence of moves
that leads from the earlier version to the later one, as one agent would
have made and committed them one by one.

The moves are the protocol's, read from the model
(:mod:`standards_lint.model.moves`: the snapshot of a version, the routes,
the failure targets, the entry states):

- Forward Transitions and Handoff Rules: ``FORWARD`` to the route's next
  state, ``CHECKPOINT`` between Developer and Tester;
- Failure Handoffs and Recovery Mechanics: ``FAILURE`` and ``USER_REWORK``
  push a frame when the state changes (on top of the frames already there:
  "New failure or rework during recovery pushes another frame"), a
  same-state failure pushes none; ``RESUME`` pops the active frame at its
  owner (no rerun) or at its ``RerunThrough`` (the rerun boundary), or jumps
  to the earliest rerun state when the owner sets ``RerunThrough``;
- Expedited Promotion: ``PROMOTE``; User Decisions: ``SIGNOFF``, ``CANCEL``,
  ``NEW_CYCLE`` (also of a cycle started and ended inside the commit),
  ``COMPLETION_CHANGE``.

A commit holding several moves (a squash) is explained only when the later
tree could have come from them (Handoff Rules, 1: "Forward handoff requires
the current completion gate to pass"): every state the sequence leaves with a
normal ``FORWARD`` ("requires the full gate, even with frames active"; not
a rerun the active frame's owner planned, whose gates may be scoped; and not
entered again later in the commit, except under a frame the commit closes)
must have left in the later tree what its completion gate requires:
the record its owner keeps, of that cycle, ``COMPLETE`` where the record has
a ``Status`` (Standard Cycle Completion; Active Work: "Scoper, Architect, and
Developer must persist their artifact path before their normal completion
gate passes").  A history that keeps no record under ``.standards/docs/``
(STATE.md alone) shows no gate either way, and none is asked of it.  A
failure routes a defect of work the cycle produced: to a state before the
furthest it reached (the current state, or one a frame keeps), the project
context (``AUDITING``, the project's across cycles) excepted.  An
obligation removed inside a squash is settled when the sequence reached its owning state (Outstanding Obligations), as it would be
had each move been committed; a state entered only by a failure whose frame
the same commit closed again (no version and no frame shows it) settles
nothing.

The search is an iterative deepening over at most :data:`MAX_SQUASH` moves,
pruned by what the later version still needs (frames to pop and push, a
cycle to end and start, the recorded last move's ``From`` to reach), so a
squash costs what its length costs.  This module reads the model and the
later version's project; git is :mod:`.git`'s.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple, Optional

from ..model.moves import (
    MOVE_KINDS,
    Frame,
    Move,
    Obligation,
    Problem,
    Snapshot,
    Step,
    entry_states,
    failure_targets,
    is_move,
    next_state,
    obligations_kept,
    route,
    same_state_failure,
    standard_route,
)
from ..model.accessors import EXECUTION_MODES
from ..syntax.protocol import FAILURE_TARGETS, record_path

MAX_SQUASH = 6
MAX_NODES = 60000
# A cycle started and ended (cancelled, signed off) inside one commit: its ID
# shows in no version.
INTERIM = "(a cycle begun and ended inside the commit)"

# The record each state's owner keeps (Standard Cycle Completion; the model's
# STATE_RECORDS), and the Active Work field naming the others' records.
GATE_RECORDS = {
    "TESTING": ("VERIFICATION", None, "verification report"),
    "REVIEWING_IMPLEMENTATION": ("REVIEW", "IMPLEMENTATION", "implementation review"),
    "DOCUMENTING": ("DOCUMENTATION", None, "documentation record"),
    "REVIEWING_FINAL": ("REVIEW", "FINAL_DELIVERABLE", "final-deliverable review"),
    "SYNCHRONIZING": ("SYNCHRONIZATION", None, "synchronization record"),
}
GATE_FIELDS = {"SCOPING": ("Scope", "scope"), "ARCHITECTING": ("Architecture", "architecture"),
               "DEVELOPING": ("Development", "development plan")}


# -- the moves ------------------------------------------------------------------


class _Ctx(NamedTuple):
    target: Snapshot
    before_cid: str
    # the frames of the earlier version: a frame pushed inside the commit is a
    # new defect, never one of these popped and pushed again
    before_keys: frozenset = frozenset()


def _ctx(before: Snapshot, after: Snapshot) -> _Ctx:
    return _Ctx(after, before.cid, frozenset(f.key for f in before.frames))


def _new_cycles(s: Snapshot, ctx: _Ctx):
    """The cycles a start from *s* may begin: the later version's (never the
    cycle the commit began from: "a finished cycle is never reopened"), or
    one begun and ended inside the commit.  A cycle the later version shows
    ended (its `CycleMode` reset to `UNSET`) or never shows may have had any
    mode the project allows, each starting in its own first state (Start a
    cycle; Forward Transitions)."""
    t = ctx.target
    if t.cid != s.cid and t.cid != ctx.before_cid:
        for mode in _modes_of(t):
            yield t.cid, mode, t.policy
    if s.cid != INTERIM:
        for mode in _modes_of(t):
            yield INTERIM, mode, t.policy


def _modes_of(t: Snapshot) -> tuple:
    """The later version's mode, or, where it shows none (a finished cycle),
    every execution mode of its project mode (GREENFIELD: STANDARD only) that
    the project's framework release has (no DOCUMENTATION before 0.11.0)."""
    if t.mode in EXECUTION_MODES:
        return (t.mode,)
    return ("STANDARD",) if t.project_mode == "GREENFIELD" else tuple(m for m in EXECUTION_MODES if m in t.modes)


def successors(s: Snapshot, ctx: _Ctx):
    """Every legal move from *s*, as ``(Step, Snapshot)``.  The later
    version supplies what the protocol leaves to the role: a pushed frame's
    reason, a planned ``RerunThrough``, a new cycle's ID and mode."""
    t = ctx.target
    state = s.state
    if s.terminal or s.installed:
        if t.installed:
            return
        kind = "NEW_CYCLE" if s.terminal else "INITIAL"
        frm = state if s.terminal else "NONE"
        for cid, mode, policy in _new_cycles(s, ctx):
            for e in entry_states(mode, t.project_mode):
                yield Step(kind, frm, e, "clear"), s._replace(
                    cid=cid, state=e, mode=mode, policy=policy, frames=(), obligations=(), kind=kind, frm=frm)
        return
    live = s.frames[-1] if s.frames else None
    depth = len(s.frames)
    # FORWARD (a normal forward handoff, also during recovery)
    nxt = next_state(s, state)
    if nxt is not None:
        yield Step("FORWARD", state, nxt), s._replace(state=nxt, kind="FORWARD", frm=state)
        # the frame's owner plans its reruns and the earliest is the next state
        if live is not None and live.owner == state and live.rerun_through == "NONE":
            for rt in _rerun_choices(s, t):
                f = live._replace(rerun_through=rt)
                yield Step("FORWARD", state, nxt, "rerun"), s._replace(
                    state=nxt, kind="FORWARD", frm=state, frames=s.frames[:-1] + (f,))
    # CHECKPOINT: the incremental exchange between Developer and Tester
    if s.mode == "STANDARD" and state in ("DEVELOPING", "TESTING"):
        to = "TESTING" if state == "DEVELOPING" else "DEVELOPING"
        yield Step("CHECKPOINT", state, to), s._replace(state=to, kind="CHECKPOINT", frm=state)
    # FAILURE / USER_REWORK: a frame pushed on top when the state changes; at
    # AWAITING_USER_SIGNOFF only the user acts ("sign off, rework, or cancel")
    kinds = ("USER_REWORK",) if state == "AWAITING_USER_SIGNOFF" else ("FAILURE", "USER_REWORK")
    tf = t.frames[depth] if len(t.frames) > depth else None
    # a frame the later version does not hold must be closed again inside the
    # commit: one such frame at a time is as far as a squash goes
    transient_open = any(f.reason == "?" for f in s.frames)
    for kind in kinds:
        for ft in FAILURE_TARGETS:
            for to in failure_targets(s, ft):
                if _ahead(s, to):
                    continue
                if to == state:
                    if kind == t.kind and state == t.frm == t.state and ft == t.failure_type:
                        # a same-state failure records the handoff, no frame
                        yield Step(kind, state, state), s._replace(kind=kind, frm=state, failure_type=ft)
                    continue
                kept = tf is not None and (tf.from_, tf.owner, tf.failure_type, tf.resume_at) == (state, to, ft, state) \
                    and tf.key not in ctx.before_keys
                if not kept and transient_open:
                    continue
                frame = Frame(state, to, ft, tf.reason if kept else "?", state, "NONE")
                yield Step(kind, state, to, "push"), s._replace(state=to, kind=kind, frm=state, failure_type=ft,
                                                                frames=s.frames + (frame,))
    # RESUME: pop at the owner (no rerun) or at the rerun boundary
    if live is not None:
        if (live.owner == state and live.rerun_through == "NONE") or live.rerun_through == state:
            yield Step("RESUME", state, live.resume_at, "pop"), s._replace(
                state=live.resume_at, kind="RESUME", frm=state, frames=s.frames[:-1])
        # the owner sets RerunThrough and goes to the earliest rerun state
        if live.owner == state and live.rerun_through == "NONE":
            for rt in _rerun_choices(s, t):
                f = live._replace(rerun_through=rt)
                for to in _between(s, state, rt):
                    yield Step("RESUME", state, to, "rerun"), s._replace(
                        state=to, kind="RESUME", frm=state, frames=s.frames[:-1] + (f,))
        # a recovery-directed jump between rerun states
        if live.rerun_through not in ("NONE", "?") and live.owner != state:
            for to in _between(s, state, live.rerun_through):
                yield Step("RESUME", state, to), s._replace(state=to, kind="RESUME", frm=state)
    # PROMOTE (expedited only): frames without a rerun become obligations
    if s.mode == "EXPEDITED":
        converted = tuple(Obligation(f.owner, f.failure_type, f.reason) for f in s.frames
                          if f.rerun_through == "NONE")
        yield Step("PROMOTE", state, "AUDITING", "convert"), s._replace(
            state="AUDITING", mode="STANDARD", policy="FULL_DELIVERABLE", kind="PROMOTE", frm=state, frames=(),
            obligations=s.obligations + converted)
    # COMPLETION_CHANGE: the two state-changing routes
    if s.mode == "STANDARD" and state == "DOCUMENTING" and s.policy == "FULL_DELIVERABLE":
        yield Step("COMPLETION_CHANGE", state, "REVIEWING_IMPLEMENTATION"), s._replace(
            state="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE", frm=state)
    if s.mode == "STANDARD" and state == "AWAITING_USER_SIGNOFF" and s.policy == "IMPLEMENTATION_REVIEWED":
        yield Step("COMPLETION_CHANGE", state, "DOCUMENTING"), s._replace(
            state="DOCUMENTING", policy="FULL_DELIVERABLE", kind="COMPLETION_CHANGE", frm=state)
    # SIGNOFF: only with no outstanding obligation
    if state == "AWAITING_USER_SIGNOFF" and not s.obligations:
        yield Step("SIGNOFF", state, "SIGNED_OFF", "clear"), s._replace(
            state="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", frm=state, frames=())
    # CANCEL
    yield Step("CANCEL", state, "CANCELLED", "clear"), s._replace(
        state="CANCELLED", mode="UNSET", kind="CANCEL", frm=state, frames=(), obligations=())


def _furthest(s: Snapshot) -> Optional[str]:
    """The furthest state the cycle's work reached, as the version shows it:
    the current state or an interrupted one a frame keeps (route order)."""
    order = standard_route(s.project_mode)
    reached = [x for x in (s.state, *(f.resume_at for f in s.frames), *(f.from_ for f in s.frames)) if x in order]
    return max(reached, key=order.index) if reached else None


def _ahead(s: Snapshot, to: str) -> bool:
    """Whether a failure routed to *to* would reach past the work the cycle
    produced ("A failure handoff routes a defect to its owning state"): *to*
    lies after the furthest state reached.  The project context is the
    project's, kept across cycles (Project context lifecycle): `AUDITING`
    is never ahead."""
    order = standard_route(s.project_mode)
    far = _furthest(s)
    return to != "AUDITING" and to in order and far is not None and order.index(to) > order.index(far)


def _rerun_choices(s: Snapshot, t: Snapshot) -> list:
    """The ``RerunThrough`` the active frame's owner may set: the later
    version's, when it still holds the frame; else (a frame closed inside the
    commit) any state between the owner and ``ResumeAt``."""
    depth = len(s.frames)
    live = s.frames[-1]
    tf = t.frames[depth - 1] if len(t.frames) >= depth else None
    if tf is not None and tf.key == live.key:
        return [tf.rerun_through] if tf.rerun_through != "NONE" else []
    return [x for x in _between(s, live.owner, live.resume_at) if x != live.resume_at]


def _between(s: Snapshot, start: str, last: str) -> list:
    """States on the route after *start* up to *last* (the standard route
    when the cycle's own route does not hold both)."""
    for r in (route(s.mode, s.policy, s.project_mode), standard_route(s.project_mode)):
        if last in r:
            end = r.index(last)
            begin = r.index(start) + 1 if start in r else 0
            return list(r[begin:end + 1])
    return []


# -- the search -------------------------------------------------------------------


def core(s: Snapshot) -> tuple:
    return (s.cid, s.state, s.mode, s.policy, tuple(f.key + (f.rerun_through,) for f in s.frames))


def _needs(s: Snapshot, t: Snapshot) -> int:
    """A lower bound of the moves still needed from *s* to reach *t*'s cycle,
    stack and state."""
    if s.cid != t.cid:
        return (0 if s.terminal or s.installed else 1) + 1 + len(t.frames)
    k = 0
    while k < len(s.frames) and k < len(t.frames) and s.frames[k].key == t.frames[k].key:
        k += 1
    pops = len(s.frames) - k
    if pops and s.mode == "EXPEDITED" and t.mode != "EXPEDITED":
        pops = 1  # PROMOTE clears the stack at once
    n = pops + len(t.frames) - k
    if n == 0 and (s.state, s.mode, s.policy) != (t.state, t.mode, t.policy):
        n = 1
    return n


class Explanation(NamedTuple):
    """How the later version follows the earlier one.

    ``steps``: the legal sequence (one step: a single move; none: no move at
    all), or None when no legal sequence of at most MAX_SQUASH moves explains
    the commit; ``path``: the snapshot after each step; ``gate``: when some
    sequence led there but left a state whose gate the later tree does not
    show, that sequence and why (``(steps, words)``)."""

    steps: Optional[tuple]
    path: tuple = ()
    gate: Optional[tuple] = None

    @property
    def legal(self) -> bool:
        return self.steps is not None

    @property
    def squashed(self) -> bool:
        return self.steps is not None and len(self.steps) > 1


class _Search:
    def __init__(self, before: Snapshot, after: Snapshot, gate):
        self.before, self.after, self.gate = before, after, gate
        self.ctx = _ctx(before, after)
        self.nodes = 0
        self.gate_failure = None
        self.seen: dict = {}

    def run(self) -> Explanation:
        for limit in range(1, MAX_SQUASH + 1):
            self.seen.clear()
            found = self._dfs(self.before, (), frozenset({self.before.state}), frozenset(), limit)
            if found is not None:
                return Explanation(tuple(s for s, _ in found), tuple(n for _, n in found))
            if self.nodes > MAX_NODES:
                break
        return Explanation(None, (), self.gate_failure)

    def _dfs(self, s, path, visited, pending, limit):
        a = self.after
        depth = len(path)
        for step, nxt in successors(s, self.ctx):
            self.nodes += 1
            if self.nodes > MAX_NODES:
                return None
            npath = path + ((step, nxt),)
            # the states reached where an owner may settle its obligation: not one
            # reached under a frame the commit also closed again (no trace of it)
            transient = any(f.reason == "?" for f in nxt.frames)
            vis = visited if transient else visited | {nxt.state}
            # the gates still to show: states left by a normal FORWARD and not entered again
            # (entered under a frame the commit closes again, the owner returns with its gate
            # passed: Recovery Mechanics, 3)
            if transient:
                pend = pending
            else:
                pend = frozenset(p for p in pending if p[0] != nxt.state)
            # a normal FORWARD needs the full gate "even with frames active"; a rerun the frame's owner
            # planned uses the applicable (possibly scoped) gates, not held here
            live = s.frames[-1] if s.frames else None
            if step.kind == "FORWARD" and step.stack == "" and (live is None or live.rerun_through in ("NONE", "?")):
                pend = pend | {(s.state, s.cid, s.mode, s.policy)}
            if (step.kind, step.frm) == (a.kind, a.frm) and core(nxt) == core(a) and \
                    obligations_kept(self._obligations_before(npath), a.obligations, vis):
                why = self.gate(pend) if self.gate is not None and len(npath) > 1 else None
                if why is None:
                    return npath
                if self.gate_failure is None:
                    self.gate_failure = (tuple(x for x, _ in npath), why)
            left = limit - depth - 1
            if left <= 0:
                continue
            need = _needs(nxt, a)
            if nxt.state != a.frm and a.kind not in ("INITIAL",):
                need = max(need, 2)
            if max(need, 1) > left:
                continue
            # a node reached before with as many moves left explains nothing new
            key = (core(nxt), nxt.obligations, vis, pend)
            if self.seen.get(key, -1) >= left:
                continue
            self.seen[key] = left
            found = self._dfs(nxt, npath, vis, pend, limit)
            if found is not None:
                return found
        return None

    @staticmethod
    def _obligations_before(npath) -> tuple:
        """The obligations the last step leaves (removals by their owners
        are judged against the states the sequence reached)."""
        return npath[-1][1].obligations


def explain(before: Snapshot, after: Snapshot, gate=None) -> Explanation:
    """The legal sequence of moves leading from *before* to *after* whose
    last move is the one *after*'s handoff records; *gate(pending)* says why
    the later tree does not show a passed gate (None when it does)."""
    if not is_move(before, after):
        ok = obligations_kept(before.obligations, after.obligations, {before.state})
        return Explanation(() if ok else None)
    if same_state_failure(before, after):
        ok = obligations_kept(before.obligations, after.obligations, {before.state})
        return Explanation((Step(after.kind, after.frm, after.state),) if ok else None, (after,))
    return _Search(before, after, gate).run()


def single(before: Snapshot, after: Snapshot) -> Optional[tuple]:
    """``(Step, Snapshot)`` of the one legal move that leads from *before* to
    *after* with the handoff *after* records, or None."""
    for step, nxt in successors(before, _ctx(before, after)):
        if (step.kind, step.frm) == (after.kind, after.frm) and core(nxt) == core(after) and \
                obligations_kept(nxt.obligations, after.obligations, {before.state, nxt.state}):
            return step, nxt
    return None


# -- the gates the later tree must show --------------------------------------------


def gate_check(project, after: Snapshot, before_project=None):
    """A function of the pending gates (``(state, cycle, mode, policy)``)
    that says, in words, each the later *project* does not show (route
    order), or None."""
    def check(pending) -> Optional[str]:
        # a history that keeps no record in git (STATE.md alone) shows no gate
        if project is None or all(p is None or p.kind(".standards/docs") != "dir"
                                  for p in (project, before_project)):
            return None
        st = project.state
        order = {x: i for i, x in enumerate(standard_route("BROWNFIELD"))}
        out = []
        for state, cid, mode, policy in sorted(pending, key=lambda p: (order.get(p[0], 99), p)):
            why = _gate(project, st, state, cid, mode, policy, after)
            if why:
                out.append(f"`{state}` was left with `FORWARD`, but {why}")
        return "; ".join(out) or None

    return check


def _gate(project, st, state, cid, mode, policy, after) -> Optional[str]:
    if cid == INTERIM or project is None:
        return None
    if state in GATE_RECORDS:
        art, kind, what = GATE_RECORDS[state]
        path = record_path(art, cid, kind)
        return _record(project, path, cid, f"its {what}")
    if state in GATE_FIELDS and st is not None and after.cid == cid:
        name, what = GATE_FIELDS[state]
        if mode == "DOCUMENTATION" and state == "DEVELOPING":
            return None
        path = st.aw(name)
        if not path or path in ("NONE", "UNSET"):
            return f"`Active Work.{name}` is `{path or 'missing'}`: no {what} was persisted"
        return _record(project, path, cid, f"its {what}")
    return None


def _record(project, path: str, cid: str, what: str) -> Optional[str]:
    if project.kind(path) != "file":
        return f"{what} `{path}` is missing"
    block = project.provenance(path)
    if block is not None and block.valid and block.cycle != cid:
        return f"{what} `{path}` belongs to cycle `{block.cycle}`"
    doc = project.doc(path)
    fields = doc.header.all_fields("Status") if doc is not None and doc.header is not None else []
    if fields and fields[0].value != "COMPLETE":
        return f"{what} `{path}` has `Status`: `{fields[0].value}`, not `COMPLETE`"
    return None


# -- what is wrong with an unexplained move ----------------------------------------

# Kinds whose move removes frames: one (RESUME) or all (the rest).
_POPS = {"RESUME": 1, "SIGNOFF": None, "CANCEL": None, "PROMOTE": None, "NEW_CYCLE": None}


def lost_frames(before: Snapshot, after: Snapshot) -> list:
    keys = {f.key for f in after.frames}
    return [f for f in before.frames if f.key not in keys]


def dropped_obligations(before: Snapshot, after: Snapshot) -> list:
    left = list(after.obligations)
    out = []
    for o in before.obligations:
        if o in left:
            left.remove(o)
        else:
            out.append(o)
    return out


def _seq(steps) -> str:
    return ", ".join(f"{s.kind} {s.frm} -> {s.to}" for s in steps)


def diagnose(before: Snapshot, after: Snapshot, e: Explanation) -> Optional[Problem]:
    """None when the pair is explained; else the one problem to report, the
    most specific first, in words that never name as allowed what they
    report."""
    if e.legal:
        return None
    if after.cid != before.cid and not before.terminal and not before.installed and \
            after.kind not in ("CANCEL", "NEW_CYCLE", "SIGNOFF") and e.gate is None:
        return Problem("cycle-id", f"`Active Work.Id` changed from `{before.cid}` to `{after.cid}` while the cycle "
                                   f"was in `{before.state}`")
    lost = lost_frames(before, after) if after.cid == before.cid else []
    allowed = _POPS.get(after.kind, 0)
    if lost and allowed is not None and len(lost) > allowed and e.gate is None:
        f = lost[0]
        return Problem("frame", f"the recovery frame `{f.from_} -> {f.owner}` ({f.failure_type}: {f.reason}, "
                                f"ResumeAt `{f.resume_at}`) is gone, and no legal sequence of moves ending with the "
                                f"recorded `{after.kind}` removes it")
    if after.kind not in ("CANCEL", "NEW_CYCLE") and after.cid == before.cid and e.gate is None:
        reached = {before.state, after.state}
        gone = [o for o in dropped_obligations(before, after) if o.owner not in reached]
        if gone:
            o = gone[0]
            return Problem("obligation", f"the outstanding obligation `{o.owner}` ({o.failure_type}: {o.reason}) "
                                         f"is gone, but its owning state `{o.owner}` was not reached")
    gate = (f"; the moves that would lead there ({_seq(e.gate[0])}) need what the later tree does not show: "
            f"{e.gate[1]}") if e.gate is not None else ""
    if after.frm != before.state and after.kind in MOVE_KINDS and after.kind != "INITIAL":
        if single(before, after._replace(frm=before.state)) is not None:
            return Problem("from", f"the handoff says `From`: `{after.frm}`, but the earlier version was in "
                                   f"`{before.state}`" + (gate and f" (and as a squash{gate[1:]})"))
        return Problem("squash", f"the handoff records `{after.kind}` from `{after.frm}` to `{after.state}`, and no "
                                 f"legal sequence of moves leads there from `{before.state}`{gate}")
    if e.gate is not None:
        return Problem("squash", f"the handoff records `{after.kind}` from `{after.frm}` to `{after.state}`, and no "
                                 f"legal sequence of moves leads there from `{before.state}`{gate}")
    return Problem("move", f"`{after.kind}` from `{before.state}` to `{after.state}` is not a move the protocol "
                           f"allows{_why(before, after)}")


def _frames(frames) -> str:
    if not frames:
        return "no frame"
    return ", ".join(f"`{f.from_} -> {f.owner}` ({f.failure_type}, ResumeAt `{f.resume_at}`, RerunThrough "
                     f"`{f.rerun_through}`)" for f in frames)


def _difference(made: Snapshot, after: Snapshot) -> str:
    """What the later version holds otherwise than the move makes it."""
    if made.cid != after.cid:
        return f"it keeps `Active Work.Id` `{made.cid}`; the later version has `{after.cid}`"
    if made.mode != after.mode:
        return f"it leaves `CycleMode` `{made.mode}`; the later version has `{after.mode}`"
    if made.policy != after.policy:
        return f"it leaves `CompletionPolicy` `{made.policy}`; the later version has `{after.policy}`"
    if core(made) != core(after):
        return f"it leaves the recovery stack {_frames(made.frames)}; the later version has {_frames(after.frames)}"
    return "the outstanding obligations differ"


def _why(before: Snapshot, after: Snapshot) -> str:
    """Why the recorded move is not one the protocol allows: what that move
    does, in the protocol's words, that the later version does not show."""
    ctx = _ctx(before, after)
    same = [(st, n) for st, n in successors(before, ctx) if (st.kind, st.frm, st.to) == (after.kind, before.state,
                                                                                        after.state)]
    if after.kind in ("SIGNOFF", "CANCEL"):
        return _why_ending(before, after)
    if after.kind in ("NEW_CYCLE", "INITIAL"):
        return _why_start(before, after)
    if same:
        made = same[0][1]
        if after.kind in ("FAILURE", "USER_REWORK") and same[0][0].stack == "push":
            return (f" as recorded: a `{after.kind}` to another state pushes a frame with From and ResumeAt "
                    f"`{before.state}`, Owner `{after.state}`, RerunThrough `NONE` on top of the frames there "
                    f"(Recovery Mechanics, 1 and 2), so the stack would be {_frames(made.frames)}; the later version "
                    f"has {_frames(after.frames)}")
        return f" as recorded ({_difference(made, after)})"
    if after.kind == "FORWARD":
        nxt = next_state(before, before.state)
        return f" (the route's next state after `{before.state}` is `{nxt}`)" if nxt else \
            f" (`{before.state}` has no forward successor)"
    if after.kind in ("FAILURE", "USER_REWORK"):
        if before.state == "AWAITING_USER_SIGNOFF" and after.kind == "FAILURE":
            return " (at `AWAITING_USER_SIGNOFF` only the user acts: sign off, rework, or cancel)"
        t = failure_targets(before, after.failure_type)
        if after.state in t and _ahead(before, after.state):
            return (f" (a failure routes a defect of work the cycle produced to its owning state; `{after.state}` "
                    f"lies ahead of `{_furthest(before)}`, the furthest the cycle reached)")
        article = "an" if after.failure_type[:1] in "AEIOU" else "a"
        return f" ({article} `{after.failure_type}` failure routes to {', '.join(f'`{x}`' for x in t) or 'no state'} " \
               f"in `{before.mode}`, with a frame pushed)"
    if after.kind == "RESUME":
        live = before.frames[-1] if before.frames else None
        if live is None:
            return " (no recovery frame is active)"
        if live.rerun_through not in ("NONE", "?") and before.state != live.rerun_through:
            return (f" (the active frame reruns through `{live.rerun_through}`: it is popped there, back to "
                    f"`{live.resume_at}`)")
        return f" (the active frame resumes at `{live.resume_at}`)"
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


# -- the move a rule checks --------------------------------------------------------


class HistoryMove(Move):
    """The :class:`~standards_lint.model.moves.Move` the history rules
    receive, explained by this module: squashes held to the gates of the
    states they pass, frames pushed on frames, cycles begun and ended inside
    a commit.  *snapshots*: the two versions' snapshots, when the history
    has read them already."""

    def __init__(self, *args, snapshots=None, **kw):
        super().__init__(*args, **kw)
        if snapshots is not None:
            self._snaps["before"], self._snaps["after"] = snapshots

    def scopes(self):
        """As :meth:`Move.scopes`, without reading either scope when the
        later commit changed neither the scope nor where STATE.md points to
        it (the scope model is that file's and those two fields')."""
        b, a = self.before_project, self.after_project
        sb = b.state if b is not None else None
        sa = a.state if a is not None else None
        if sb is None or sa is None:
            return None
        path = sa.aw("Scope")
        if (sb.aw("Scope"), sb.aw("Id")) == (path, sa.aw("Id")) and \
                (not path or posixpath.normpath(path) not in self.changed):
            return None
        return super().scopes()

    @property
    def explanation(self) -> Optional[Explanation]:
        if "explanation" not in self._snaps:
            b, a = self.before_snapshot, self.after_snapshot
            self._snaps["explanation"] = (explain(b, a, gate_check(self.after_project, a, self.before_project))
                                          if b is not None and a is not None else None)
        return self._snaps["explanation"]

    @property
    def problem(self) -> Optional[Problem]:
        if "problem" not in self._snaps:
            e = self.explanation
            self._snaps["problem"] = diagnose(self.before_snapshot, self.after_snapshot, e) if e is not None else None
        return self._snaps["problem"]


def finished_by(before: Snapshot, after: Snapshot, e: Optional[Explanation]) -> list:
    """The cycles this commit finishes, as its moves do one by one: a
    ``SIGNOFF`` or ``CANCEL`` ends the cycle it leaves, a ``NEW_CYCLE``
    from a terminal state the cycle it leaves (never a cycle begun inside
    the commit, whose ID no version shows)."""
    out = []
    if e is not None and e.steps:
        cid = before.cid
        for step, snap in zip(e.steps, e.path or ()):
            if step.kind in ("SIGNOFF", "CANCEL", "NEW_CYCLE") and cid not in (INTERIM, "UNSET", "NONE", "?"):
                out.append(cid)
            cid = snap.cid
    if after.terminal and not after.installed:
        out.append(after.cid)
    if before.terminal and after.cid != before.cid and not before.installed:
        out.append(before.cid)
    return list(dict.fromkeys(out))


__all__ = ["Explanation", "HistoryMove", "INTERIM", "MAX_SQUASH", "diagnose", "explain", "finished_by",
           "gate_check", "single", "successors"]
