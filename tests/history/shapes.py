"""The histories of issue 34 on real trees (the parity suite's clean cases,
moved with tests/moves): two illegal ones a squash must not hide, and the
same shapes done legally.

Each function returns the trees to commit, in order; the last is the one
the finding (or none) is about.
"""

from __future__ import annotations

from tests.moves import chains as C
from tests.moves import edit as E
from tests.moves.test_moves import NEW_ID, awaiting_signoff, base

QUESTION = "Which export format should be kept?"


def developing_with_report() -> dict:
    """Developer at work after a checkpoint: the plan and the Tester's
    report (IN_PROGRESS) are there."""
    return base("DEVELOPING", policy="FULL_DELIVERABLE", kind="CHECKPOINT", cadence="AFTER_IMPLEMENTATION")


def report_path(tree: dict) -> str:
    return E.record_path(tree, "TESTING")


def _to_review(tree: dict) -> dict:
    """The state a squash of two forward handoffs leaves: REVIEWING_IMPLEMENTATION,
    `FORWARD` from TESTING, the question answered."""
    st = E.set_field(tree[E.STATE], "BlockedOn", "NONE")
    st = E.set_field(st, "WorkflowState", "REVIEWING_IMPLEMENTATION")
    st = E.replace_section(st, "Handoff", E.render_handoff("FORWARD", "TESTING", "NONE", "Gate passed."))
    return E.with_state(tree, st)


def forged_forward() -> list:
    """DEVELOPING, blocked on a user question, with no verification report;
    then straight to REVIEWING_IMPLEMENTATION, `Kind: FORWARD`, `From:
    TESTING`, and nothing else: Tester never ran."""
    start = E.block(developing_with_report(), QUESTION)
    start = {k: v for k, v in start.items() if k != report_path(start)}
    return [start, _to_review(start)]


def legal_forward_squash() -> list:
    """The same two moves made: the plan completed (the pending cadence
    applied), forward to TESTING, the report completed (a full assessment
    with the last step's condition verified), forward: one commit."""
    start = E.block(developing_with_report(), QUESTION)
    done = E.complete_record(start, "DEVELOPING")
    done = E.with_state(done, E.set_field(done[E.STATE], "PendingVerificationCadence", "NONE"))
    done = E.complete_record(done, "TESTING")
    report = report_path(done)
    done[report] = done[report].replace("| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
                                        "| AC-004 | test/search.test.js | passed |")
    return [start, _to_review(done)]


def signed_off_and_next_cycle(edit_finished: bool) -> list:
    """Sign-off and the next cycle's start in one commit (as both real
    projects do), then a commit editing a record: the finished cycle's
    verification report reopened (Status back to IN_PROGRESS, a line added),
    or the new cycle's own report written."""
    start = awaiting_signoff()
    nxt = E.new_cycle(E.sign_off(start), NEW_ID)
    later = dict(nxt)
    old = report_path(start)
    if edit_finished:
        text = later[old].replace("`Status`: `COMPLETE`", "`Status`: `IN_PROGRESS`", 1)
        later[old] = text.rstrip("\n") + "\n\nOne more check to run.\n"
    else:
        own = report_path(nxt)
        later[own] = later[old].replace(E.field(start[E.STATE], "Id"), NEW_ID).replace(
            "`Status`: `COMPLETE`", "`Status`: `IN_PROGRESS`", 1)
    return [start, nxt, later]


def two_failures_in_one_commit() -> list:
    """Tester routes an implementation failure; Developer finds the defect is
    the design's and routes it on: two frames pushed, one commit."""
    start = base("TESTING", policy="FULL_DELIVERABLE", kind="FORWARD", plan="COMPLETE", own="IN_PROGRESS")
    once = C.fail("IMPLEMENTATION", "DEVELOPING", 1)(start)
    return [start, once, C.fail("ARCHITECTURE", "ARCHITECTING", 2)(once)]


def resume_then_failure_in_one_commit() -> list:
    """A frame popped by RESUME and another pushed by a new FAILURE, one
    commit."""
    start = base("TESTING", policy="FULL_DELIVERABLE", kind="FORWARD", plan="COMPLETE", own="IN_PROGRESS")
    routed = C.fail("IMPLEMENTATION", "DEVELOPING", 1)(start)
    back = C.resume(routed)
    return [start, routed, back, C.fail("IMPLEMENTATION", "DEVELOPING", 2)(back)]


def cancel_and_next_cycle_after_sign_off() -> list:
    """After a sign-off, a cycle started, cancelled and the next one started,
    one commit."""
    start = base("SIGNED_OFF", mode="UNSET", policy="FULL_DELIVERABLE")
    first = E.new_cycle(start, C.new_cycle_id(1))
    cancelled = E.cancel(first)
    return [start, first, cancelled, E.new_cycle(cancelled, C.new_cycle_id(2))]
