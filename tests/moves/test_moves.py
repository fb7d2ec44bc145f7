"""The workflow moves agents make, each done right and with its typical slip.

Every move starts from a tree the framework's checker finds clean (a clean
case of the suite set, chosen by what it is, not by its ID) and is made the
way an agent makes it (``tests/moves/edit.py``).  No parity set holds the
checker's verdict on these trees, so each expectation is read from the
protocol's words, quoted in the row or the test; where the protocol is silent
the test says so.  A legal move must lint clean; a slip must be reported with
the rule whose words it breaks, and with nothing a legal move would not also
produce.
"""

from __future__ import annotations

import gzip
import json
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import pytest

from standards_lint.engine.run import lint
from tests.moves import edit as E
from tests.rules.conftest import commit_tree, write_tree

SUITE = Path(__file__).resolve().parents[2] / "fixtures" / "parity" / "suite.jsonl.gz"
NEW_ID = "add-export-20261204T101010Z-1a2b3c4d"


@lru_cache(maxsize=None)
def _clean_trees() -> tuple:
    out = []
    with gzip.open(SUITE, "rt", encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            st = case["files"].get(E.STATE, "")
            if case["expected"]["problems"] or case.get("git") != "none" or "## Handoff" not in st:
                continue
            out.append(case["files"])
    return tuple(out)


def base(state: str, mode: str = "STANDARD", policy: Optional[str] = None, *, kind: Optional[str] = None,
         cadence: Optional[str] = None, plan: Optional[str] = None, own: Optional[str] = None,
         frames: int = 0) -> dict:
    """The first clean suite tree in ``state`` with these properties (``own``:
    the Status of the record the state's role finishes)."""
    for files in _clean_trees():
        st = files[E.STATE]
        if E.field(st, "WorkflowState") != state or E.field(st, "CycleMode") != mode:
            continue
        if policy is not None and E.field(st, "CompletionPolicy") != policy:
            continue
        if kind is not None and E.field(st, "Kind") != kind:
            continue
        if st.count("### Frame ") != frames:
            continue
        dev = files.get(E.field(st, "Development") or "", "")
        if cadence is not None and E.field(dev, "Verification Cadence") != cadence:
            continue
        if plan is not None and E.field(dev, "Status") != plan:
            continue
        if own is not None and E.field(files.get(E.source_record(files, state) or "", ""), "Status") != own:
            continue
        return dict(files)
    raise LookupError((state, mode, policy, kind, cadence, plan, frames))


def errors(tmp_path: Path, files: dict, *, head: Optional[dict] = None, turn_end: bool = False) -> set[str]:
    """The codes of the error findings on ``files``; with ``head``, inside a
    git repository whose last commit holds ``head`` (the move made against
    the last commit)."""
    root = tmp_path / "tree"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    if head is not None:
        commit_tree(root, head)
        for entry in root.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    write_tree(root, files)
    result = lint(str(root), use_git=head is not None, turn_end=turn_end)
    return {f.code for f in result.findings if str(f.severity).lower() == "error"}


# -- bases ---------------------------------------------------------------------

def in_testing_increment() -> dict:
    """Tester assessing Increment 1 of an incremental plan (CHECKPOINT in)."""
    return base("TESTING", policy="FULL_DELIVERABLE", kind="CHECKPOINT", cadence="INCREMENTAL")


def in_testing_full() -> dict:
    """Tester's full assessment after a COMPLETE plan (FORWARD in)."""
    return base("TESTING", policy="FULL_DELIVERABLE", kind="FORWARD", plan="COMPLETE", own="IN_PROGRESS")


def developing() -> dict:
    return base("DEVELOPING", policy="FULL_DELIVERABLE", kind="FORWARD", cadence="AFTER_IMPLEMENTATION")


def awaiting_signoff() -> dict:
    return base("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED")


def cancelled() -> dict:
    return base("CANCELLED", mode="UNSET", policy="NONE")


def signed_off() -> dict:
    return base("SIGNED_OFF", mode="UNSET", policy="FULL_DELIVERABLE")


def expedited() -> dict:
    return base("DEVELOPING", mode="EXPEDITED", policy="NONE")


def expedited_review() -> dict:
    """An expedited cycle just handed to its implementation review."""
    return E.forward(E.complete_record(expedited(), "DEVELOPING"))


def documenting() -> dict:
    return base("DOCUMENTING", mode="DOCUMENTATION", policy="NONE")


def final_review() -> dict:
    return base("REVIEWING_FINAL", mode="DOCUMENTATION", policy="NONE")


def _routed(tree: dict) -> dict:
    return E.route_failure(tree, "IMPLEMENTATION", "DEVELOPING")


def _nested(tree: dict) -> dict:
    return E.route_failure(_routed(tree), "ARCHITECTURE", "ARCHITECTING")


def _baseline_of(tree: dict) -> str:
    st = tree[E.STATE]
    return (f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{E.field(st, 'Id')}`\n"
            f"  `Request`: `{E.field(st, 'Request')}`\n")


# (id, base, move, the error codes the moved tree must get: exactly these)
MOVES: list[tuple[str, Callable[[], dict], Callable[[dict], dict], set[str]]] = [
    # A failure routed to an earlier owner.  "For FAILURE or USER_REWORK moving
    # to a different state, push a frame with From = interrupted state, Owner =
    # corrective target, applicable FailureType and Reason, ResumeAt =
    # interrupted state, and RerunThrough: NONE." (Recovery Mechanics 1)
    ("route-failure", in_testing_increment, _routed, set()),
    ("route-failure-full-assessment", in_testing_full, _routed, set()),
    ("route-failure-to-architect", in_testing_full, lambda t: E.route_failure(t, "ARCHITECTURE", "ARCHITECTING"), set()),
    ("route-failure-to-scoper", in_testing_full, lambda t: E.route_failure(t, "SCOPING", "SCOPING"), set()),
    ("route-failure-no-frame", in_testing_increment,
     lambda t: E.route_failure(t, "IMPLEMENTATION", "DEVELOPING", push=False), {"SL403"}),
    ("route-failure-recovery-left-inactive", in_testing_increment,
     lambda t: E.route_failure(t, "IMPLEMENTATION", "DEVELOPING", active=False), {"SL501"}),
    # The frame's FailureType is another owner's: "Route it to the owner of the
    # defective artifact" (Failure Types).
    ("route-failure-frame-failure-type", in_testing_increment,
     lambda t: E.route_failure(t, "IMPLEMENTATION", "DEVELOPING", frame_failure="ARCHITECTURE"), {"SL506"}),
    # The frame names another Owner than the state the failure went to.
    ("route-failure-frame-owner", in_testing_increment,
     lambda t: E.route_failure(t, "IMPLEMENTATION", "DEVELOPING", owner="ARCHITECTING"),
     {"SL403", "SL506", "SL507"}),
    # The failure sent to a role that does not own its type ("IMPLEMENTATION
    # failure -> DEVELOPING", Failure Handoffs).
    ("route-failure-wrong-owner", in_testing_full, lambda t: E.route_failure(t, "IMPLEMENTATION", "ARCHITECTING"),
     {"SL402", "SL506"}),

    # A correction resumed.  "No rerun: pop the frame and transition directly
    # to ResumeAt with Handoff.Kind: RESUME." (Recovery Mechanics 4).  Tester's
    # increment assessment was saved as a Suspended Assignment when the failure
    # was routed, so the resumed assessment may stay partial (Implementation
    # and Verification Recovery Gates).
    ("resume", in_testing_increment, lambda t: E.resume(_routed(t)), set()),
    ("resume-full-assessment", in_testing_full, lambda t: E.resume(_routed(t)), set()),
    ("resume-frame-left", in_testing_full, lambda t: E.resume(_routed(t), pop="none"), {"SL507"}),
    # "Recovery ends only when the stack is empty" (8): Active with no frame.
    ("resume-recovery-left-active", in_testing_full, lambda t: E.resume(_routed(t), active=True), {"SL501"}),
    # Nested: "The last frame is active" (2); the inner frame resumes first.
    ("nested-route", in_testing_increment, _nested, set()),
    ("nested-resume", in_testing_increment, lambda t: E.resume(_nested(t)), set()),
    ("nested-resume-both", in_testing_increment, lambda t: E.resume(E.resume(_nested(t))), set()),
    ("nested-resume-outer-frame-popped", in_testing_increment, lambda t: E.resume(_nested(t), pop="first"), {"SL507"}),
    # A FORWARD while the frame's owner is still correcting: the frame is not
    # done (RerunThrough NONE keeps the state at its Owner).
    ("forward-during-correction", in_testing_full, lambda t: E.forward(_routed(t)), {"SL507"}),

    # A step finished and handed forward: "Transition only after the current
    # role passes its gate" (Forward Transitions); the record it finishes is
    # COMPLETE (Standard Cycle Completion).
    ("forward", developing, lambda t: E.forward(E.complete_record(t, "DEVELOPING")), set()),
    ("forward-record-unfinished", developing, E.forward, {"SL816"}),
    # Two steps at once: "one step at a time" along the route.
    ("forward-two-steps", developing, lambda t: E.forward(E.complete_record(t, "DEVELOPING"), 2),
     {"SL420", "SL930"}),
    ("forward-tester", in_testing_full, lambda t: E.forward(E.complete_record(t, "TESTING")), set()),
    ("forward-tester-report-unfinished", in_testing_full, E.forward, {"SL931"}),
    # Tester hands forward after an increment while the plan is unfinished:
    # Full Verification Boundary ("Reviewer entry requires ... COMPLETE plan").
    ("forward-after-increment", in_testing_increment, lambda t: E.forward(E.complete_record(t, "TESTING")),
     {"SL816", "SL858"}),

    # Block: a question in Active Work.BlockedOn blocks nothing structural.
    ("block", in_testing_full, E.block, set()),
    ("block-awaiting-signoff", awaiting_signoff, E.block, {"SL352"}),

    # Cancel (user-decisions.md, Cancel an active cycle): CANCELLED,
    # CycleMode UNSET, Handoff CANCEL from the interrupted state, recovery
    # and obligations cleared.
    ("cancel", in_testing_full, E.cancel, set()),
    ("cancel-during-recovery", in_testing_full, lambda t: E.cancel(_routed(t)), set()),
    ("cancel-recovery-kept", in_testing_full, lambda t: E.cancel(_routed(t), clear_recovery=False), {"SL351", "SL507"}),
    ("cancel-cycle-mode-kept", in_testing_full, lambda t: E.cancel(t, cycle_mode="STANDARD"), {"SL204"}),

    # Sign off (Sign off): SIGNED_OFF, CycleMode UNSET, Handoff SIGNOFF.
    ("sign-off", awaiting_signoff, E.sign_off, set()),
    ("sign-off-cycle-mode-kept", awaiting_signoff, lambda t: E.sign_off(t, cycle_mode="STANDARD"), {"SL204"}),

    # A new cycle (Start a cycle): from a terminal state, Handoff NEW_CYCLE
    # from that state; the brownfield entry state is AUDITING.
    ("new-cycle-after-sign-off", signed_off, lambda t: E.new_cycle(t, NEW_ID), set()),
    ("new-cycle-after-cancel", cancelled, lambda t: E.new_cycle(t, NEW_ID), set()),
    ("new-cycle-after-cancel-baseline", cancelled, lambda t: E.new_cycle(t, NEW_ID, baseline=_baseline_of(t)), set()),
    ("new-cycle-handoff-forward", signed_off, lambda t: E.new_cycle(t, NEW_ID, kind="FORWARD"), {"SL420"}),
    ("new-cycle-handoff-initial", cancelled, lambda t: E.new_cycle(t, NEW_ID, kind="INITIAL"), {"SL421"}),
    # "CycleMode never remains UNSET once a cycle has started."
    ("new-cycle-mode-unset", signed_off, lambda t: E.new_cycle(t, NEW_ID, mode="UNSET"), {"SL307"}),
    ("new-cycle-id-not-generated", signed_off, lambda t: E.new_cycle(t, "Add-Export-20261204T101010Z-1a2b3c4d"),
     {"SL260"}),
    # "Unresolved reconciliation requires an Auditor-first STANDARD or
    # DOCUMENTATION cycle, never EXPEDITED."
    ("new-cycle-expedited-with-baseline", cancelled,
     lambda t: E.new_cycle(t, NEW_ID, mode="EXPEDITED", policy="NONE", state="DEVELOPING", baseline=_baseline_of(t)),
     {"SL314"}),
    ("new-cycle-expedited", cancelled,
     lambda t: E.new_cycle(t, NEW_ID, mode="EXPEDITED", policy="NONE", state="DEVELOPING"), set()),
    ("new-cycle-expedited-policy-kept", cancelled,
     lambda t: E.new_cycle(t, NEW_ID, mode="EXPEDITED", policy="FULL_DELIVERABLE", state="DEVELOPING"), {"SL303"}),
    ("new-cycle-documentation-not-in-auditing", cancelled,
     lambda t: E.new_cycle(t, NEW_ID, mode="DOCUMENTATION", policy="NONE", state="SCOPING"), {"SL309"}),
    # EXPEDITED: "only IMPLEMENTATION -> DEVELOPING and implementation REVIEW
    # -> REVIEWING_IMPLEMENTATION are valid failure routes" (Failure Handoffs).
    ("expedited-forward", expedited, lambda t: E.forward(E.complete_record(t, "DEVELOPING")), set()),
    ("expedited-route-failure", expedited_review, _routed, set()),
    ("expedited-resume", expedited_review, lambda t: E.resume(_routed(t)), set()),
    ("expedited-route-to-skipped-role", expedited_review, lambda t: E.route_failure(t, "SCOPING", "SCOPING"),
     {"SL301", "SL516"}),
    ("expedited-forward-to-sign-off-from-developing", expedited,
     lambda t: E.forward(E.complete_record(t, "DEVELOPING"), 2), {"SL354", "SL930"}),
    ("expedited-cancel", expedited, E.cancel, set()),
    # DOCUMENTATION: "only owners included in Documentation Cycle Contract are
    # valid failure targets"; a same-state failure pushes no frame.
    ("documentation-route-failure", documenting, lambda t: E.route_failure(t, "ARCHITECTURE", "ARCHITECTING"), set()),
    ("documentation-resume", documenting,
     lambda t: E.resume(E.route_failure(t, "ARCHITECTURE", "ARCHITECTING")), set()),
    ("documentation-route-to-omitted-owner", documenting, _routed, {"SL300", "SL404", "SL511", "SL512"}),
    ("documentation-same-state-failure", final_review,
     lambda t: E.route_failure(t, "REVIEW", "REVIEWING_FINAL", push=False), set()),
    ("documentation-review-routes-to-documenter", final_review,
     lambda t: E.resume(E.route_failure(t, "DOCUMENTATION", "DOCUMENTING")), set()),
    ("documentation-cancel", documenting, E.cancel, set()),
    ("new-cycle-baseline-lists-itself", cancelled,
     lambda t: E.new_cycle(t, E.field(t[E.STATE], "Id"), baseline=_baseline_of(t)), {"SL215"}),
]


@pytest.mark.parametrize("start, move, want", [pytest.param(b, m, w, id=i) for i, b, m, w in MOVES])
def test_move(tmp_path, start, move, want):
    before = start()
    assert errors(tmp_path, before) == set(), "the base tree must be clean"
    assert errors(tmp_path, move(before)) == want


@pytest.mark.parametrize("start, move, want", [pytest.param(b, m, w, id=i) for i, b, m, w in MOVES])
def test_move_against_the_last_commit(tmp_path, start, move, want):
    """The same move made on a committed tree: the rules that compare with
    HEAD (a finished cycle's ID, a retired condition, a DONE step) have
    nothing to add to a move that keeps the cycle, its conditions and its
    steps."""
    before = start()
    after = move(before)
    reopened = E.field(after[E.STATE], "Id") == E.field(before[E.STATE], "Id") and \
        E.field(before[E.STATE], "WorkflowState") in ("SIGNED_OFF", "CANCELLED")
    assert errors(tmp_path, after, head=before) == want | ({"SL261"} if reopened else set())


def test_a_finished_cycle_reopened_is_seen_only_against_the_last_commit(tmp_path):
    """"A finished cycle is never reopened" (Start a cycle): a new cycle under
    the ID of the cycle the last commit ended.  Without git there is no
    earlier version to compare with, and the protocol gives no other sign."""
    for finished in (signed_off(), cancelled()):
        reopened = E.new_cycle(finished, E.field(finished[E.STATE], "Id"))
        assert errors(tmp_path, reopened) == set()
        assert errors(tmp_path, reopened, head=finished) == {"SL261"}


def test_the_stop_hook_sees_the_same_moves(tmp_path):
    """At the end of a turn (``--turn-end``) the checker relaxes only the
    acceptance coverage of the current state's own records: no move here
    turns on that, so every legal move is clean and every slip is reported
    the same way."""
    for _, start, move, want in MOVES:
        assert errors(tmp_path, move(start()), turn_end=True) == want


def test_a_resumed_tester_restores_the_saved_assignment(tmp_path):
    """Tester's increment assessment interrupted by a routed failure is saved
    (Suspended Assignment: Purpose INCREMENT, Target Increment 1) and
    restored on RESUME, so the unfinished plan is no defect; without that
    record the resumed Tester holds a full assignment, which needs a COMPLETE
    plan ("The checker uses these records to distinguish scoped work from
    full assignments")."""
    start = in_testing_increment()
    routed = _routed(start)
    report = E.record_path(start, "TESTING")
    assert "`Purpose`: `INCREMENT` `Target`: `Increment 1`" in routed[report]
    assert errors(tmp_path, E.resume(routed)) == set()
    unsaved = E.resume(E.route_failure(start, "IMPLEMENTATION", "DEVELOPING", save=False))
    assert "SL816" in errors(tmp_path, unsaved)


def _history_errors(tmp_path: Path, before: dict, after: dict) -> list[dict]:
    """The history rules' errors on the move HEAD -> working tree (what the
    Stop hook adds to the lint when STATE.md changed)."""
    from standards_lint.history.run import history_rules, run_history

    root = tmp_path / "repo"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    commit_tree(root, before)
    for entry in root.iterdir():
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    write_tree(root, after)
    result = run_history(str(root), since="HEAD", worktree=True, rules=history_rules())
    return [f for f in result.findings if f["severity"] == "error"]


@pytest.mark.parametrize("start, move", [pytest.param(b, m, id=i) for i, b, m, w in MOVES if not w])
def test_a_legal_move_passes_the_hooks_move_check(tmp_path, start, move):
    """The Stop hook also checks the move itself (HEAD -> working tree,
    docs/history.md); a legal move must pass it, or the hook would send an
    agent back for doing the right thing."""
    before = start()
    assert _history_errors(tmp_path, before, move(before)) == []


@pytest.mark.parametrize("start, move, reason", [
    pytest.param(in_testing_full, lambda t: E.cancel(t, cycle_mode="STANDARD"),
                 "(it sets `CycleMode` to `UNSET`; the later version keeps `STANDARD`)", id="cancel-mode-kept"),
    pytest.param(awaiting_signoff, lambda t: E.sign_off(t, cycle_mode="STANDARD"),
                 "(it sets `CycleMode` to `UNSET`; the later version keeps `STANDARD`)", id="sign-off-mode-kept"),
    pytest.param(cancelled, lambda t: E.new_cycle(t, NEW_ID, kind="INITIAL"),
                 "(only the first cycle records `INITIAL`; a cycle started from a terminal state records `NEW_CYCLE`)",
                 id="initial-after-cancel"),
    pytest.param(cancelled, lambda t: E.new_cycle(t, NEW_ID, mode="DOCUMENTATION", policy="NONE", state="SCOPING"),
                 "(a `DOCUMENTATION` cycle starts in `AUDITING`)", id="documentation-entry"),
    pytest.param(signed_off, lambda t: E.new_cycle(t, E.field(t[E.STATE], "Id")),
                 "(a finished cycle is never reopened: a new cycle needs a new ID)", id="reopened"),
    pytest.param(cancelled, lambda t: E.new_cycle(t, NEW_ID, mode="EXPEDITED", policy="NONE", state="SCOPING"),
                 "(an `EXPEDITED` cycle starts in `DEVELOPING` or `AUDITING`)", id="expedited-entry"),
    pytest.param(in_testing_full, lambda t: E.route_failure(t, "IMPLEMENTATION", "DEVELOPING", push=False),
                 # the move's kind and target are right: the message says what it left undone, never that
                 # the failure routes where it went (issue 34: a message that contradicts its verdict)
                 "as recorded: a `FAILURE` to another state pushes a frame with From and ResumeAt `TESTING`, Owner "
                 "`DEVELOPING`, RerunThrough `NONE` on top of the frames there (Recovery Mechanics, 1 and 2), so the "
                 "stack would be `TESTING -> DEVELOPING` (IMPLEMENTATION, ResumeAt `TESTING`, RerunThrough `NONE`); "
                 "the later version has no frame",
                 id="failure-without-frame"),
])
def test_an_illegal_ending_or_start_says_why(tmp_path, start, move, reason):
    """SL1001 names what the move fails to do, not only that it is illegal
    (user-decisions.md: Sign off, Cancel an active cycle, Start a cycle)."""
    before = start()
    found = _history_errors(tmp_path, before, move(before))
    assert [f["code"] for f in found] == ["SL1001"]
    assert found[0]["message"].endswith(f"is not a move the protocol allows {reason}.")


def _drop_first_step(tree: dict) -> dict:
    out = _routed(tree)
    dev = E.field(out[E.STATE], "Development")
    plan = out[dev]
    out[dev] = plan[:plan.index("### DEV-001")] + plan[plan.index("### DEV-002"):]
    return out


def _scope_edit(old: str, new: str):
    def move(tree: dict) -> dict:
        out = E.route_failure(tree, "SCOPING", "SCOPING")
        scope = E.field(out[E.STATE], "Scope")
        assert old in out[scope]
        out[scope] = out[scope].replace(old, new)
        return out
    return move


@pytest.mark.parametrize("start, move, plain, against_head", [
    # "completed steps are never removed or renumbered" (Testable Increments)
    pytest.param(in_testing_increment, _drop_first_step, {"SL812", "SL826"}, {"SL812", "SL815", "SL826"},
                 id="developer-drops-a-done-step"),
    # Acceptance Traceability: a condition is retired, never deleted, and a
    # retired ID is never used again.
    pytest.param(in_testing_full, _scope_edit("- `AC-002`: The guide explains search.\n", ""),
                 {"SL710"}, {"SL710", "SL740"}, id="scoper-deletes-a-condition"),
    pytest.param(in_testing_full, _scope_edit("- `AC-002`: The guide explains search.\n",
                                              "- `AC-002`: The guide explains search.\n- `AC-003`: Reused.\n"),
                 {"SL703"}, {"SL703", "SL741"}, id="scoper-reuses-a-retired-id"),
])
def test_a_correction_that_rewrites_history(tmp_path, start, move, plain, against_head):
    """What only the last commit shows (the checker's HEAD comparisons): a
    DONE step gone, a condition deleted, a retired ID reused."""
    before = start()
    after = move(before)
    assert errors(tmp_path, after) == plain
    assert errors(tmp_path, after, head=before) == against_head
