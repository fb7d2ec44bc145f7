"""Moves across commits (``standards-lint history``): every move between two
consecutive versions of STATE.md is one the protocol allows, recorded by the
later version's handoff; a cycle keeps its ID; a finished cycle's records
never change; a plan's step IDs and a scope's acceptance IDs keep their
meaning; frames and obligations never vanish without the move that removes
them.

These rules are declared with ``scope="history"``: each receives a
:class:`~standards_lint.model.moves.Move` (two versions, their models and
commits), not a project, and a plain lint never runs them.  They read the
model only (``standards_lint.model.moves``); git is the history package's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from standards_lint.model.acceptance import heading_anchor
from standards_lint.model.plan import plan_path
from standards_lint.model.workflow import USER, owner_of
from standards_lint.engine.rule import module_rules, report, rule

if TYPE_CHECKING:  # a plain lint loads this module but never builds a Move
    from standards_lint.model.moves import Move

STATE_PATH = ".standards/STATE.md"
_COMMON = dict(section="Forward Transitions", scope="history", fix="none", beyond_checker=True)
NO_FIX = ("A move already committed cannot be unmade by an edit: the history is what happened. The role that "
          "made it, or the user, decides how to continue.")


def _where(move: Move, value):
    """The later version's field (its value), else the start of STATE.md."""
    span = value.span if value is not None else None
    return (STATE_PATH, span) if span is not None else STATE_PATH


def _mover(move: Move) -> str:
    b = move.before_snapshot
    return (owner_of(b.state) if b is not None else None) or USER


def _problem(move: Move, kind: str):
    p = move.problem
    return p if p is not None and p.kind == kind else None


def _stack_heading(stack):
    """Where a finding about a recovery or obligations stack of the later
    version points: its section heading, else the start of STATE.md."""
    if stack.node is not None and stack.node.heading is not None:
        return STATE_PATH, stack.node.heading.span
    return STATE_PATH


@rule(
    code="SL1001",
    name="illegal-move",
    owner="state",
    summary="The move a commit records (its handoff's Kind from the earlier state) is not one the protocol allows.",
    explanation="""
**What it does.** For two consecutive versions of STATE.md in which the
workflow moved, and whose later handoff names the earlier version's state as
`From`, checks that the recorded move is legal: `FORWARD` reaches the route's
next state, `FAILURE` and `USER_REWORK` reach the failure type's owning state
and push a frame, `RESUME` pops the active frame at its owner or its
`RerunThrough` and returns to `ResumeAt`, and so on.

**Why.** PROTOCOL.md, Forward Transitions: "The following normal forward
routes use the gates defined in **Handoff Rules**"; Handoff Rules: "Every
state-changing transition persists all applicable `WorkflowState`,
`CycleMode`, pending-cycle, `Active Work`, `Handoff`, `Recovery`, and
`Outstanding Obligations` changes". A step skipped (`FORWARD` from `SCOPING`
straight to `DEVELOPING`) passes gates nobody ran.

**Fix safety.** No fix: the move is in the history.
""",
    bad_example="commit 1: `WorkflowState`: `SCOPING`\ncommit 2: `WorkflowState`: `DEVELOPING` with `Kind`: `FORWARD` `From`: `SCOPING`",
    good_example="commit 2: `WorkflowState`: `ARCHITECTING` with `Kind`: `FORWARD` `From`: `SCOPING`",
    help="Find out which role took the move and why; route the work the skipped gates own (a FAILURE or USER_REWORK to their owner).",
    no_fix_reason=NO_FIX,
    **_COMMON,
)
def illegal_move(move: Move):
    p = _problem(move, "move")
    if p:
        wf = move.after.workflow
        yield report(_where(move, wf.handoff.kind), f"{move.commits()}: {p.detail}.", owner=_mover(move))


@rule(
    code="SL1002",
    name="forged-handoff-from",
    owner="state",
    summary="The later version's `Handoff.From` is not the state the earlier version was in.",
    explanation="""
**What it does.** Reports a move whose handoff would be legal from the
earlier version's state, but whose `From` names another state.

**Why.** PROTOCOL.md, Recovery Mechanics and Workflow State Reference:
`From` records the source state of the transition ("`COMPLETION_CHANGE`
[...] records the source state in `From`"; a failure frame's "`From` =
interrupted state"). A `From` that is not where the workflow was hides which
gate the move left; the next role reads the handoff to know where it comes
from.

**Fix safety.** No fix: the handoff is history; a later move records the
right source.
""",
    bad_example="commit 1: `WorkflowState`: `DEVELOPING`\ncommit 2: `WorkflowState`: `TESTING` with `Kind`: `FORWARD` `From`: `ARCHITECTING`",
    good_example="commit 2: `WorkflowState`: `TESTING` with `Kind`: `FORWARD` `From`: `DEVELOPING`",
    help="Record the state the move left as `Handoff.From` in the next move, and say in its Reason that the earlier one was misrecorded.",
    no_fix_reason=NO_FIX,
    **_COMMON,
)
def forged_from(move: Move):
    p = _problem(move, "from")
    if p:
        wf = move.after.workflow
        yield report(_where(move, wf.handoff.from_), f"{move.commits()}: {p.detail}.", owner=_mover(move))


@rule(
    code="SL1003",
    name="squashed-moves",
    owner="state",
    severity="info",
    summary="One commit holds several legal moves; a legal sequence explains it.",
    explanation="""
**What it does.** Notes a commit whose STATE.md is several moves away from
the previous version's, when a legal sequence of moves (at most six) leads
there, ends with the move its handoff records, and could have left the later
tree: every state the sequence leaves with a normal `FORWARD` shows what its
completion gate requires (its owner's record of the cycle, `COMPLETE` where
it has a `Status`; the scope, architecture and plan named in `Active Work`).
The note lists the sequence. Whatever the sequence does (a cycle signed off
or cancelled, frames pushed and popped, obligations settled in their owning
state) counts as if each move had been committed.

**Why.** PROTOCOL.md, Handoff Rules: "Every state-changing transition
persists all applicable [...] changes before further role work and before
presenting any next-role invocation." Committing each move is the project's
choice (Commit Message Guidance), so a squash is legal, but the history then
cannot show who made each intermediate move or when.

**Fix safety.** No fix: nothing is wrong.
""",
    bad_example="commit 1: `SCOPING`; commit 2: `AUDITING`, `Kind`: `FORWARD` `From`: `ARCHITECTING` (greenfield)",
    good_example="commit 1: `SCOPING`; commit 2: `ARCHITECTING`; commit 3: `AUDITING`",
    help="Nothing to do; commit each move on its own to keep the story of the cycle complete.",
    no_fix_reason="Nothing is wrong: the note only says a commit held several moves.",
    **_COMMON,
)
def squashed(move: Move):
    e = move.explanation
    if e is not None and e.squashed:
        seq = ", ".join(f"{s.kind} {s.frm} -> {s.to}" for s in e.steps)
        wf = move.after.workflow
        yield report(_where(move, wf.handoff.kind), f"{move.commits()}: {len(e.steps)} moves in one commit ({seq}).",
                     owner=_mover(move))


@rule(
    code="SL1004",
    name="unexplained-move",
    owner="state",
    summary="No legal sequence of moves leads from the earlier version to the later one.",
    explanation="""
**What it does.** Reports a commit whose handoff names a `From` other than
the earlier version's state (so it claims moves the history does not show)
when no legal sequence of at most six moves, ending with the move the
handoff records, leads from the earlier version to the later one and could
have left the later tree. A sequence that passes a state whose completion
gate the later tree does not show (a `FORWARD` from `TESTING` with no
verification report, a plan still `IN_PROGRESS` after a `FORWARD` from
`DEVELOPING`) explains nothing: the message names the sequence and what is
missing. (A history that keeps no record under `.standards/docs/`, STATE.md
alone, is not held to gates.)

**Why.** PROTOCOL.md, Handoff Rules: "Every state-changing transition
persists all applicable `WorkflowState`, [...] `Handoff`, `Recovery`, and
`Outstanding Obligations` changes". A squash of legal moves is fine
(SL1003); a version no sequence of moves can reach was edited by hand
(Persisted Workflow State, Manual edits: "Editing them by hand is
unsupported"). Handoff Rules, 1: "Forward handoff requires the current
completion gate to pass": a squash that skips a role's work is no squash.

**Fix safety.** No fix.
""",
    bad_example="commit 1: `DEVELOPING`, no verification report; commit 2: `REVIEWING_IMPLEMENTATION`, `Kind`: `FORWARD` `From`: `TESTING`, still no report",
    good_example="commit 2 also holds the plan `COMPLETE` and the verification report `COMPLETE` (a full assessment)",
    help="Find out how the workflow got here; route the skipped work to its owners with FAILURE or USER_REWORK.",
    no_fix_reason=NO_FIX,
    **_COMMON,
)
def unexplained(move: Move):
    p = _problem(move, "squash")
    if p:
        wf = move.after.workflow
        yield report(_where(move, wf.handoff.from_), f"{move.commits()}: {p.detail}.", owner=_mover(move))


@rule(
    code="SL1010",
    name="frame-vanished",
    owner="state",
    summary="A recovery frame disappeared without the move that removes it.",
    explanation="""
**What it does.** Reports a recovery frame of the earlier version that the
later one no longer holds, when the later handoff is not a move that removes
it: `RESUME` pops the active frame only; `SIGNOFF`, `CANCEL`, `PROMOTE` and
`NEW_CYCLE` clear the stack; and no legal sequence of moves ending with the
recorded one removes it either (a `RESUME` then a new `FAILURE` in one commit
pops one frame and pushes another: no finding). A frame the later version
still holds (same `From`, `Owner`, `FailureType`, `Reason`, `ResumeAt`) is
the same frame, never one popped and pushed again.

**Why.** PROTOCOL.md, Recovery Mechanics: "Preserve nesting. New failure or
rework during recovery pushes another frame. Never overwrite older frames.
The last frame is active." and "Recovery ends only when the stack is
empty." A frame that vanishes drops the defect it preserves and the route
back to the interrupted work.

**Fix safety.** No fix: restore the frame from the earlier commit if the
defect is still open.
""",
    bad_example="commit 1: `### Frame 1` (TESTING -> ARCHITECTING); commit 2: no frame, `Kind`: `FORWARD`",
    good_example="commit 2: no frame, `Kind`: `RESUME` `From`: `ARCHITECTING`, `WorkflowState`: `TESTING`",
    help="Restore the frame from the earlier commit, unless its owner corrected the defect: then record the RESUME that pops it.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Recovery Mechanics"),
)
def frame_vanished(move: Move):
    p = _problem(move, "frame")
    if p:
        yield report(_stack_heading(move.after.workflow.recovery), f"{move.commits()}: {p.detail}.",
                     owner=_mover(move))


@rule(
    code="SL1012",
    name="obligation-dropped",
    owner="state",
    summary="An outstanding obligation disappeared before its owning state was reached.",
    explanation="""
**What it does.** Reports an outstanding obligation of the earlier version
that the later one no longer holds, when neither version is in the
obligation's owning state (and the move is not a cancellation or a new
cycle).

**Why.** protocol/expedited.md, Outstanding Obligations: "An outstanding
obligation remains until its owning state is reached and the owner corrects
and verifies the specific defect recorded by the obligation." and "User
sign-off is unavailable while any outstanding obligation remains."

**Fix safety.** No fix: restore the obligation from the earlier commit.
""",
    bad_example="commit 1 (AUDITING): `### Obligation 1` `Owner`: `TESTING`; commit 2 (SCOPING): no obligation",
    good_example="commit 2 (SCOPING): `### Obligation 1` still there, removed only in TESTING once verified",
    help="Restore the obligation from the earlier commit; its owner removes it once the defect is corrected and verified.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Outstanding Obligations"),
)
def obligation_dropped(move: Move):
    p = _problem(move, "obligation")
    if p:
        yield report(_stack_heading(move.after.workflow.obligations), f"{move.commits()}: {p.detail}.",
                     owner=_mover(move))


@rule(
    code="SL1020",
    name="cycle-id-changed",
    owner="state",
    summary="`Active Work.Id` changed while the cycle was still active.",
    explanation="""
**What it does.** Reports a commit that changes `Active Work.Id` while the
earlier version's cycle was neither signed off nor cancelled, when no legal
sequence (a cancellation and a new cycle) explains it.

**Why.** PROTOCOL.md, Active Work: "`Id`: stable, user-readable identifier
generated by `cycle.mjs new` [...] It is never reused by another cycle."
protocol/user-decisions.md, Start a cycle: "A cycle starts from the
installed state [...] or from `SIGNED_OFF` or retained `CANCELLED`; a
finished cycle is never reopened." An ID changed mid-cycle detaches the
cycle from its records.

**Fix safety.** No fix.
""",
    bad_example="commit 1: `Id`: `a-20260101T000000Z-00000000` (DEVELOPING); commit 2: `Id`: `b-20260102T000000Z-11111111` (DEVELOPING)",
    good_example="commit 2 keeps `Id`: `a-20260101T000000Z-00000000`",
    help="Restore the cycle's ID; to start another cycle, cancel this one first (or sign it off).",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Cycle IDs"),
)
def cycle_id_changed(move: Move):
    p = _problem(move, "cycle-id")
    if p:
        yield report(_where(move, move.after.workflow.id), f"{move.commits()}: {p.detail}.", owner=_mover(move))


@rule(
    code="SL1022",
    name="cycle-id-reused-in-history",
    owner="state",
    summary="A new cycle takes the ID of a cycle an earlier commit already named.",
    explanation="""
**What it does.** Reports a commit that starts a cycle (its `Active Work.Id`
differs from the earlier version's) with an ID some earlier commit of the
history already named.

**Why.** protocol/user-decisions.md, Cycle IDs: "Every cycle has a unique
ID." and "Never write a cycle ID yourself or reuse one." The last commit
alone cannot show a reuse of an older cycle's ID (SL261 compares with it);
the history can.

**Fix safety.** No fix: get a new ID from the tool.
""",
    bad_example="commit 1: cycle `a-...`; commit 5: cycle `b-...`; commit 9: `Kind`: `NEW_CYCLE` with `Id`: `a-...` again",
    good_example="commit 9: `Kind`: `NEW_CYCLE` with an ID from `node .standards/bin/cycle.mjs new`",
    help="Get a new ID from `node .standards/bin/cycle.mjs new` and use it for the new cycle.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Cycle IDs"),
)
def cycle_id_reused(move: Move):
    b, a = move.before_snapshot, move.after_snapshot
    if b is None or a is None or a.cid == b.cid or a.installed:
        return
    if a.cid in move.cycles_seen:
        yield report(_where(move, move.after.workflow.id),
                     f"{move.commits()}: the new cycle's ID `{a.cid}` was already used by an earlier cycle.",
                     owner=_mover(move))


@rule(
    code="SL1021",
    name="finished-record-changed",
    owner="record",
    summary="A record of a signed-off or cancelled cycle changed in a later commit.",
    explanation="""
**What it does.** Reports a cycle record under `.standards/docs/` (found by
its provenance `Cycle`) that a commit changes or deletes after the commit
in which its cycle was signed off or cancelled: the commit whose explained
moves sign it off or cancel it, squashed or not (a `SIGNOFF` and the next
cycle's `NEW_CYCLE` in one commit finish the old cycle there), or whose
`NEW_CYCLE` leaves it. A Project Reset (STATE.md back to the installed state)
may delete records.

**Why.** PROTOCOL.md, Active Work: "Never overwrite or repurpose an artifact
belonging to another cycle."; protocol/user-decisions.md, Start a cycle: "a
finished cycle is never reopened." A finished cycle's records are the
evidence its sign-off rested on.

**Fix safety.** No fix: restore the record from the commit that finished
the cycle.
""",
    bad_example="commit 7 signs off cycle `a-...`; commit 12 edits `.standards/docs/scope/a-....md`",
    good_example="commit 12 writes the new cycle's own scope record",
    help="Restore the record as it was when its cycle finished; record new work in the current cycle's own records.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Active Work"),
)
def finished_record_changed(move: Move):
    a = move.after_snapshot
    if a is not None and a.installed:
        return  # Project Reset
    for path in move.changed:
        cid = move.record_cycle.get(path)
        if cid is not None and cid in move.finished:
            deleted = move.after_project is not None and move.after_project.kind(path) is None
            yield report(path, f"{move.commits()}: the record of cycle `{cid}`, finished at "
                               f"{move.finished[cid][:10]}, was {'deleted' if deleted else 'changed'}.")


@rule(
    code="SL1030",
    name="plan-step-meaning-changed",
    owner="DEVELOPER",
    summary="A development plan step ID names a different step than it did in the earlier commit.",
    explanation="""
**What it does.** Compares the active cycle's development plan in two
consecutive versions: a step ID (`### DEV-NNN: title`) present in both must
keep its title. A renumbered plan shows as steps whose IDs now name other
work.

**Why.** The Developer's plan template: steps are referred to by ID from
the verification increments, the Tester's assessment targets, recovery
frames and reviews (PROTOCOL.md, Testable Increments: increments name
"Development Steps" by ID). An ID that changes meaning makes every earlier
reference point at other work.

**Fix safety.** No fix: give the new step a new ID and restore the old one.
""",
    bad_example="commit 1: `### DEV-002: Add the parser`; commit 2: `### DEV-002: Write the docs`",
    good_example="commit 2: `### DEV-002: Add the parser` and `### DEV-003: Write the docs`",
    help="Restore the step's title under its ID and give new work a new, unused ID.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Testable Increments"),
)
def plan_step_meaning(move: Move):
    b, a = move.before_snapshot, move.after_snapshot
    if b is None or a is None or b.cid != a.cid:
        return
    if move.after_project is not None and plan_path(move.after_project) not in move.changed:
        return  # the plan did not change: nothing to compare (and nothing read)
    pb, pa = move.before.plan, move.after.plan
    if pb is None or pa is None or pa.path not in move.changed:
        return
    old = {s.id: _title(s) for s in pb.steps}
    for s in pa.steps:
        if s.id in old and old[s.id] != _title(s):
            yield report(s.container.heading,
                         f"{move.commits()}: plan step {s.id} was `{old[s.id]}` and is now `{_title(s)}`.")


def _title(step) -> str:
    title = step.container.title
    rest = title.split(step.id, 1)[-1]
    return " ".join(rest.lstrip(" :-\u2013\u2014").split())


@rule(
    code="SL1009",
    name="unreadable-version",
    owner="USER",
    severity="warning",
    summary="A commit's STATE.md cannot be read (no readable `WorkflowState`), so the moves into and out of it are not checked.",
    explanation="""
**What it does.** Reports a version of STATE.md in the history whose
`WorkflowState` cannot be read (the file does not parse as the template's
shape, or the value is missing, repeated or not allowed). The moves on
either side of it are not checked; the rest of the history is.

**Why.** PROTOCOL.md, Persisted Workflow State: "`.standards/STATE.md` is
the authoritative, branch-persisted, version-controlled record needed to
resume workflow work across sessions or agents." A version nobody can read
resumed nothing; the plain lint of that commit says what is wrong with it.

**Fix safety.** No fix: the commit is history.
""",
    bad_example="commit 4: `WorkflowState`: `DEVELOPNG`",
    good_example="commit 4: `WorkflowState`: `DEVELOPING`",
    help="Run `standards-lint` on that commit (`git worktree add /tmp/c COMMIT`) to see what is wrong; later commits are checked as usual.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Persisted Workflow State"),
)
def unreadable_version(move: Move):
    p = move.after_project
    if p is None or p.kind(STATE_PATH) != "file" or move.after_snapshot is not None:
        return
    v = move.after.workflow.state
    yield report(_where(move, v), f"{move.commits()}: STATE.md at {move.after_commit.short} has no readable "
                                  f"`WorkflowState` ({v.describe()}); the moves into and out of it are not checked.")


_RETIRED = "Retired Acceptance Identifiers"
_AC_WHY = """PROTOCOL.md, Acceptance Traceability, 2: "During REPLAN, preserve an
identifier when meaning is unchanged. New or materially replaced conditions
receive previously unused identifiers. Removed or replaced identifiers remain
in the scope's retired-identifier record: list items in the same form under a
`## Retired Acceptance Identifiers` heading. Never renumber surviving
identifiers or reuse retired ones within the cycle." Glossary: a **retired
acceptance identifier** is "retained so it cannot be reused"."""


@rule(
    code="SL1031",
    name="acceptance-id-vanished",
    owner="record",
    summary="An acceptance ID the earlier version's scope defined is neither current nor retired in the later one.",
    explanation=f"""
**What it does.** Compares the active cycle's scope (as `Active Work.Scope`
names it) in two consecutive versions of the same cycle: every `AC-NNN` the
earlier version defines, as a current condition or under `## Retired
Acceptance Identifiers`, must still be defined in the later version, as one
or the other. Whether a condition's wording keeps its meaning is the
Scoper's judgement and is not checked.

**Why.** {_AC_WHY} An identifier that vanishes can be handed out again, and
every record that names it then points at another condition.

**Fix safety.** No fix: list the identifier under `## Retired Acceptance
Identifiers` (or restore its condition).
""",
    bad_example="commit 1: `- `AC-002`: Search by tag.`; commit 2: no `AC-002` anywhere in the scope",
    good_example="commit 2: `## Retired Acceptance Identifiers` with `- `AC-002`: Search by tag (dropped).`",
    help="Restore the condition, or list the identifier under `## Retired Acceptance Identifiers` so it is never reused.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Acceptance Traceability"),
)
def acceptance_id_vanished(move: Move):
    pair = move.scopes()
    if pair is None:
        return
    before, after = pair
    for ac in _ordered(list(before.current) + list(before.retired)):
        if ac not in after.current and ac not in after.retired:
            was = "a current condition" if ac in before.current else "retired"
            yield report(heading_anchor(after.scan, _RETIRED),
                         f"{move.commits()}: `{ac}` was {was} in the scope and is now neither a current condition "
                         f"nor under `## {_RETIRED}`.")


@rule(
    code="SL1032",
    name="retired-acceptance-id-reused",
    owner="record",
    summary="An acceptance ID the earlier version's scope listed as retired is defined again as a current condition.",
    explanation=f"""
**What it does.** Compares the active cycle's scope in two consecutive
versions of the same cycle: an `AC-NNN` the earlier version lists under `##
Retired Acceptance Identifiers` must not be defined as a current condition in
the later one.

**Why.** {_AC_WHY} A retired identifier reused names two conditions: the
records of the old one now seem to account for the new one.

**Fix safety.** No fix: give the condition a new identifier
(`node .standards/bin/id.mjs next AC <scope>`).
""",
    bad_example="commit 1: `## Retired Acceptance Identifiers` `- `AC-002`: Old.`; commit 2: `- `AC-002`: New.` as a current condition",
    good_example="commit 2: `- `AC-003`: New.`, `AC-002` still retired",
    help="Give the condition a new identifier from `node .standards/bin/id.mjs next AC <scope>` and keep the old one retired.",
    no_fix_reason=NO_FIX,
    **dict(_COMMON, section="Acceptance Traceability"),
)
def retired_acceptance_id_reused(move: Move):
    pair = move.scopes()
    if pair is None:
        return
    before, after = pair
    for ac in _ordered(after.current):
        if ac in before.retired:
            yield report((after.path, after.current[ac][0].span),
                         f"{move.commits()}: `{ac}` was retired in the scope and is defined again as a current "
                         f"condition.")


def _ordered(ids) -> list:
    return sorted(set(ids), key=lambda i: int(i[3:]))


def _release_adds(move: Move) -> list:
    """The Active Work fields the release after an upgrade requires and the
    one before did not (:mod:`standards_lint.model.releases`)."""
    before, after = move.before_project.release, move.after_project.release
    return [n for n in after.active_work_fields if n not in before.active_work_fields]


def _upgrade_value(st, name: str):
    """The value the protocol fixes for a field an upgrade must add, or
    None when a person decides it: `CompletionPolicy` is `NONE` before any
    cycle and in an EXPEDITED (or DOCUMENTATION) cycle; a STANDARD cycle's
    policy is the user's choice ("Only an explicit user choice authorizes
    selecting or withdrawing `IMPLEMENTATION_REVIEWED`").
    `PendingVerificationCadence` is `NONE` before any cycle and in a
    terminal state."""
    cid = st.aw("Id")
    if name == "CompletionPolicy":
        return "NONE" if cid == "UNSET" or st.cycle_mode in ("EXPEDITED", "DOCUMENTATION") else None
    if name == "PendingVerificationCadence":
        return "NONE" if cid == "UNSET" or st.workflow_state in ("SIGNED_OFF", "CANCELLED") else None
    return None


@rule(
    code="SL1040",
    name="upgrade-field-missing",
    owner="USER",
    summary="A framework upgrade leaves STATE.md without a field the new release requires.",
    explanation="""
**What it does.** At a commit that upgrades the framework (it changes only
the installed runtime: `.standards/VERSION.json`, `PROTOCOL.md`, the
protocol chapters...), compares the release before and after
(`.standards/VERSION.json`, see [releases](../releases.md)) and reports each
Active Work field the new release requires that the old one did not, when
STATE.md still lacks it: `CompletionPolicy` from 0.10.0.

**Why.** From that commit on, the project's own checker is the new
release's, and it holds STATE.md to the new shape: PROTOCOL.md, Completion
Policies (0.10.0): "`Active Work.CompletionPolicy` is required in
`.standards/STATE.md`. A missing, invalid, or repeated value is an
inconsistency." The values are fixed where the protocol fixes them
("Installation and project reset initialize `CompletionPolicy: NONE`"; "Each
expedited cycle uses `NONE`"), and otherwise the user's: "Only an explicit
user choice authorizes selecting or withdrawing `IMPLEMENTATION_REVIEWED`."

**Fix safety.** No fix in the history (a commit is what happened): the
message names the value where the protocol fixes it, and `standards-lint
--fix` inserts it in the working tree (SL202).
""",
    bad_example="VERSION.json 0.9.1 -> 0.10.0, STATE.md unchanged: no `CompletionPolicy` in `## Active Work`.",
    good_example="The upgrade commit also adds `` `CompletionPolicy`: `NONE` `` (no cycle yet) to `## Active Work`.",
    help="Add the field to `## Active Work` with the value the protocol fixes; for an active STANDARD cycle the "
         "user chooses its CompletionPolicy (FULL_DELIVERABLE unless they choose IMPLEMENTATION_REVIEWED).",
    no_fix_reason="A commit cannot be changed by a fix; the working tree's SL202 fixes what the protocol fixes.",
    section="Workflow State Reference",
    scope="upgrade",
    fix="none",
    beyond_checker=True,
)
def upgrade_field_missing(move: Move):
    st = move.after_project.state
    if st is None or st.active_work is None:
        return
    release = move.after_project.release
    for name in _release_adds(move):
        if st.active_work.all_fields(name):
            continue
        value = _upgrade_value(st, name)
        where = (STATE_PATH, st.active_work.heading.span) if st.active_work.heading is not None else STATE_PATH
        if value is not None:
            yield report(where, f"The upgrade to framework {release.name} requires Active Work `{name}`, which "
                                f"STATE.md lacks; the protocol fixes it here: insert `` `{name}`: `{value}` ``.",
                         help=f"Insert `` `{name}`: `{value}` `` in `## Active Work` (`standards-lint --fix` does "
                              "it in the working tree).")
        else:
            yield report(where, f"The upgrade to framework {release.name} requires Active Work `{name}`, which "
                                "STATE.md lacks; the user chooses its value for the active cycle.",
                         help=f"Ask the user which `{name}` the active cycle uses (a STANDARD cycle: "
                              "FULL_DELIVERABLE unless they choose IMPLEMENTATION_REVIEWED), then add it to "
                              "`## Active Work`.")


standards_lint_rules = module_rules(globals())
