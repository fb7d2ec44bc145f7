"""The turn-end check (`standards-lint --turn-end`, PROTOCOL.md, Runtime Tools
and Hooks): which completed records are held, plainly and at the end of a
turn.  The decision is `standards_lint.model.holding`; these tests show it on small
trees of their own and on the decision object itself."""

from __future__ import annotations

import pytest

from standards_lint.model.holding import Holding, route_of

from .test_acceptance import REVIEW_FINAL, VERIFY, prov, sl7, state, tree, verification, where, CYCLE

# A COMPLETE verification report that does not account for AC-002.
VERIFY_MISSES = verification("| AC-001 | test/search.test.js | passed |\n")
# An increment assessment (not COMPLETE) that does not account for AC-002.
PARTIAL_MISSES = verification("| AC-001 | test/search.test.js | passed |\n", status="IN_PROGRESS",
                              purpose="INCREMENT", target="Increment 1")
REVIEW_FINAL_MISSES = prov("REVIEW", "FINAL_DELIVERABLE") + f"""# Review Report

`Cycle`: `{CYCLE}` `ReviewKind`: `FINAL_DELIVERABLE`
`Status`: `COMPLETE` `User Style`: `NONE`

## Acceptance Evidence

AC-001: checked.
"""


def both(lint_tree, files, st, code):
    """(plain findings, turn-end findings) of *code*."""
    plain = [f for f in lint_tree(files, state=st) if f.code == code]
    turn_end = [f for f in lint_tree(files, state=st, turn_end=True) if f.code == code]
    return plain, turn_end


# -- the current state's own COMPLETE records ---------------------------------------------------
def test_own_complete_record_is_held_plainly_but_not_at_turn_end(lint_tree):
    plain, turn_end = both(lint_tree, tree(verify=VERIFY_MISSES), state("TESTING", kind="FORWARD", frm="DEVELOPING"),
                           "SL721")
    assert where(plain) == [("SL721", VERIFY, 8)]
    assert "AC-002" in plain[0].message
    assert turn_end == []


def test_own_final_review_is_left_to_reviewer_at_turn_end(lint_tree):
    st = state("REVIEWING_FINAL", kind="FORWARD", frm="DOCUMENTING")
    plain, turn_end = both(lint_tree, tree(final=REVIEW_FINAL_MISSES), st, "SL721")
    assert where(plain) == [("SL721", REVIEW_FINAL, 10)]
    assert turn_end == []


def test_passed_states_are_still_held_at_turn_end(lint_tree):
    # Outside recovery the records of states the cycle has passed stay held.
    plain, turn_end = both(lint_tree, tree(verify=VERIFY_MISSES), state(), "SL721")
    assert where(plain) == where(turn_end) == [("SL721", VERIFY, 8)]


# -- recovery: the state named in Handoff.From --------------------------------------------------
@pytest.mark.parametrize(
    "ws, kind",
    [
        ("REVIEWING_IMPLEMENTATION", "FORWARD"),
        ("DEVELOPING", "CHECKPOINT"),
        ("DEVELOPING", "RESUME"),
        ("DEVELOPING", "FAILURE"),
    ],
)
def test_recovery_turn_end_holds_the_records_of_handoff_from(lint_tree, ws, kind):
    st = state(ws, kind=kind, frm="TESTING", recovery=True)
    turn_end = sl7(lint_tree(tree(verify=VERIFY_MISSES), state=st, turn_end=True), "SL721")
    assert where(turn_end) == [("SL721", VERIFY, 8)]


@pytest.mark.parametrize("kind", ["CHECKPOINT", "FAILURE"])
def test_recovery_plain_check_does_not_hold_a_checkpoint_or_failure_source(lint_tree, kind):
    # During recovery `check` holds only the current state's records (and
    # those of a RESUME or FORWARD source); the hook adds Handoff.From's.
    st = state("DEVELOPING", kind=kind, frm="TESTING", recovery=True)
    plain, turn_end = both(lint_tree, tree(verify=VERIFY_MISSES), st, "SL721")
    assert plain == []
    assert where(turn_end) == [("SL721", VERIFY, 8)]


def test_recovery_turn_end_holds_none_in_scoping(lint_tree):
    st = state("SCOPING", kind="FAILURE", frm="TESTING", recovery=True)
    plain, turn_end = both(lint_tree, tree(verify=VERIFY_MISSES), st, "SL721")
    assert plain == [] and turn_end == []


def test_recovery_turn_end_other_handoffs_hold_nothing_extra(lint_tree):
    st = state("DEVELOPING", kind="USER_REWORK", frm="TESTING", recovery=True)
    assert sl7(lint_tree(tree(verify=VERIFY_MISSES), state=st, turn_end=True), "SL721") == []


# -- partial records: increment assessments and scoped corrections -----------------------------
def test_partial_assessment_is_the_current_testers_gate_plainly(lint_tree):
    st = state("TESTING", kind="CHECKPOINT", frm="DEVELOPING")
    plain, turn_end = both(lint_tree, tree(verify=PARTIAL_MISSES), st, "SL722")
    assert where(plain) == [("SL722", VERIFY, 9)]
    assert turn_end == []  # Tester reconciles its own partial record when it starts


@pytest.mark.parametrize("purpose, target", [("INCREMENT", "Increment 1"), ("CORRECTION", "Repair assertion")])
def test_turn_end_holds_the_partial_record_handed_back_from_testing(lint_tree, purpose, target):
    # "a checkpoint or scoped corrective return does not assert full phase
    # completion": the partial record is allowed, but accounts for every ID.
    verify = verification("| AC-001 | t | passed |\n", status="IN_PROGRESS", purpose=purpose, target=target)
    st = state("DEVELOPING", kind="CHECKPOINT", frm="TESTING")
    plain, turn_end = both(lint_tree, tree(verify=verify), st, "SL722")
    assert plain == []
    assert where(turn_end) == [("SL722", VERIFY, 9)]
    assert "AC-002" in turn_end[0].message


def test_turn_end_partial_gate_follows_the_persisted_assignment(lint_tree):
    # "Apply the gate for the persisted assignment": only a partial one
    # (INCREMENT, CORRECTION) is held to the partial record's coverage.  A
    # report handed back from TESTING that persists no assignment (here cut
    # short after its provenance block: no Status, no Assessment Purpose) or
    # a FULL one has no partial gate at the end of the turn (h3-1000).
    st = state("DEVELOPING", kind="CHECKPOINT", frm="TESTING")
    bare = prov("VERIFICATION")
    full = verification("| AC-001 | t | passed |\n", status="IN_PROGRESS", purpose="FULL", target="NONE")
    for verify in (bare, full):
        assert sl7(lint_tree(tree(verify=verify), state=st, turn_end=True), "SL722") == []
    # During recovery, a RESUME into a Reviewer state from TESTING alike.
    st = state("REVIEWING_IMPLEMENTATION", kind="RESUME", frm="TESTING", recovery=True)
    assert sl7(lint_tree(tree(verify=bare), state=st, turn_end=True), "SL722") == []


def test_partial_record_that_accounts_for_every_id_passes_at_turn_end(lint_tree):
    verify = verification("| AC-001 | t | passed |\n| AC-002 | DEV-002 | AWAITING_IMPLEMENTATION |\n",
                          status="IN_PROGRESS", purpose="INCREMENT", target="Increment 1")
    st = state("DEVELOPING", kind="CHECKPOINT", frm="TESTING")
    assert sl7(lint_tree(tree(verify=verify), state=st, turn_end=True), "SL722") == []


def test_testers_assignment_gate_is_left_to_tester_at_turn_end(lint_tree):
    # Full verification wants FULL / NONE; at turn end Tester may be midway.
    verify = verification("| AC-001 | t | passed |\n| AC-002 | t | passed |\n", status="IN_PROGRESS",
                          purpose="INCREMENT", target="Increment 1")
    st = state("TESTING", kind="FORWARD", frm="DEVELOPING")
    plain, turn_end = both(lint_tree, tree(verify=verify), st, "SL854")
    assert [f.path for f in plain] == [VERIFY]
    assert turn_end == []


# -- the decision itself ------------------------------------------------------------------------
def holding(state, kind, frm, *, recovery="false", turn_end=False, mode="STANDARD"):
    return Holding(state=state, route=route_of(mode, "BROWNFIELD"), standard_route=route_of("STANDARD", "BROWNFIELD"),
                   recovery=recovery, kind=kind, frm=frm, turn_end=turn_end)


def test_holding_completion_table():
    h = holding("DOCUMENTING", "FORWARD", "REVIEWING_IMPLEMENTATION")
    assert h.completion("DOCUMENTING") and h.completion("TESTING") and not h.completion("REVIEWING_FINAL")
    t = holding("DOCUMENTING", "FORWARD", "REVIEWING_IMPLEMENTATION", turn_end=True)
    assert not t.completion("DOCUMENTING") and t.completion("TESTING") and not t.completion("REVIEWING_FINAL")
    r = holding("DEVELOPING", "FAILURE", "TESTING", recovery="true")
    assert not r.completion("TESTING") and r.completion("DEVELOPING")
    rt = holding("DEVELOPING", "FAILURE", "TESTING", recovery="true", turn_end=True)
    assert rt.completion("TESTING") and not rt.completion("DEVELOPING") and not rt.completion("ARCHITECTING")
    assert not holding("SCOPING", "FAILURE", "TESTING", recovery="true", turn_end=True).completion("TESTING")


def test_holding_a_forward_under_a_frame_that_names_no_correction_keeps_its_source_the_reruns():
    # FORWARD DOCUMENTING -> REVIEWING_FINAL while the top frame's Owner does not own its
    # FailureType (SL506): no correction's gate was passed, so the source's own COMPLETE record stays
    # the rerun's to finish; the records before Reviewer entry stay held.
    def h(mismatch):
        return Holding(state="REVIEWING_FINAL", route=route_of("STANDARD", "BROWNFIELD"),
                       standard_route=route_of("STANDARD", "BROWNFIELD"), recovery="true", kind="FORWARD",
                       frm="DOCUMENTING", frames=1, top_rerun="NONE", top_owner="DOCUMENTING", top_mismatch=mismatch)
    assert h(False).completion("DOCUMENTING") and not h(True).completion("DOCUMENTING")
    assert h(True).completion("TESTING")


def test_holding_turn_end_adds_only_status_records_and_valid_forwards():
    # A design has no Status to claim completion with: FAILURE from ARCHITECTING does not add it.
    rt = holding("TESTING", "FAILURE", "ARCHITECTING", recovery="true", turn_end=True)
    assert rt.completion("ARCHITECTING") and not rt.completion("ARCHITECTING", own=False)
    # A FORWARD from a later state is not a valid forward: nothing is added.
    bad = holding("AUDITING", "FORWARD", "DOCUMENTING", turn_end=True, mode="DOCUMENTATION")
    assert not bad.completion("DOCUMENTING")


def test_holding_partial_and_relaxed():
    assert holding("TESTING", "CHECKPOINT", "DEVELOPING").partial("TESTING", "INCREMENT")
    assert not holding("TESTING", "CHECKPOINT", "DEVELOPING").partial("TESTING", "CORRECTION")
    assert not holding("TESTING", "CHECKPOINT", "DEVELOPING", turn_end=True).partial("TESTING", "INCREMENT")
    assert holding("DEVELOPING", "RESUME", "TESTING", turn_end=True).partial("TESTING", "CORRECTION")
    assert not holding("DEVELOPING", "RESUME", "TESTING", turn_end=True).partial("TESTING", "FULL")
    assert not holding("DEVELOPING", "RESUME", "TESTING", turn_end=True).partial("TESTING", None)
    assert holding("TESTING", "FORWARD", "DEVELOPING", turn_end=True).relaxed("TESTING")
    assert not holding("TESTING", "FORWARD", "DEVELOPING").relaxed("TESTING")


def test_holding_passed_due_table():
    def h(state, kind, frm, frames=1, rerun="SYNCHRONIZING", recovery="true", top_from=None, top_owner=None,
          mismatch=False):
        return Holding(state=state, route=route_of("STANDARD", "BROWNFIELD"),
                       standard_route=route_of("STANDARD", "BROWNFIELD"), recovery=recovery, kind=kind, frm=frm,
                       frames=frames, top_rerun=rerun, top_from=top_from, top_owner=top_owner, top_mismatch=mismatch)

    # Outside recovery every passed state is due.
    assert h("DOCUMENTING", "FAILURE", "TESTING", recovery="false").passed_due("TESTING")
    # Records: the state that handed off with RESUME, none while the owner corrects; a FORWARD's
    # own source is the rerun's to finish, except when it enters a Reviewer state (full checks);
    # after a FORWARD the states before its source too (its gate needed them), not after RESUME.
    assert h("DOCUMENTING", "RESUME", "REVIEWING_IMPLEMENTATION").passed_due("REVIEWING_IMPLEMENTATION")
    assert not h("DOCUMENTING", "FORWARD", "REVIEWING_IMPLEMENTATION").passed_due("REVIEWING_IMPLEMENTATION")
    assert h("REVIEWING_IMPLEMENTATION", "FORWARD", "TESTING", rerun="NONE").passed_due("TESTING")
    assert h("DOCUMENTING", "FORWARD", "REVIEWING_IMPLEMENTATION", rerun="NONE").passed_due("TESTING")
    assert not h("DOCUMENTING", "RESUME", "REVIEWING_IMPLEMENTATION").passed_due("SCOPING")
    # Past Reviewer entry (a FORWARD or RESUME into or beyond REVIEWING_IMPLEMENTATION) the Developer
    # and Tester records are due "even if another recovery frame remains active", its owner correcting
    # or not (Full Verification Boundary); a FAILURE enters nothing.
    for rerun in ("SYNCHRONIZING", "NONE"):
        assert h("DOCUMENTING", "RESUME", "REVIEWING_IMPLEMENTATION", rerun=rerun).passed_due("TESTING")
        assert h("REVIEWING_FINAL", "RESUME", "DEVELOPING", rerun=rerun).passed_due("DEVELOPING")
    assert not h("REVIEWING_FINAL", "FAILURE", "DOCUMENTING", rerun="NONE").passed_due("TESTING")
    assert not h("TESTING", "RESUME", "AUDITING", rerun="NONE").passed_due("DEVELOPING")
    assert not h("DOCUMENTING", "FORWARD", "REVIEWING_IMPLEMENTATION", rerun="NONE").passed_due(
        "REVIEWING_IMPLEMENTATION")
    assert not h("DOCUMENTING", "FAILURE", "REVIEWING_IMPLEMENTATION").passed_due("REVIEWING_IMPLEMENTATION")
    assert h("AWAITING_USER_SIGNOFF", "FAILURE", "REVIEWING_FINAL", rerun="NONE").passed_due("DOCUMENTING")
    # A RESUME into sign-off that leaves a frame holds back the records the rerun re-establishes;
    # a frame whose Owner does not own its FailureType (SL506) names no such correction, and sign-off
    # needs every record.  A FORWARD there asserts no return either way.
    assert h("AWAITING_USER_SIGNOFF", "RESUME", "AUDITING", rerun="NONE", mismatch=True).passed_due("REVIEWING_FINAL")
    assert not h("AWAITING_USER_SIGNOFF", "RESUME", "AUDITING", rerun="NONE").passed_due("REVIEWING_FINAL")
    assert not h("AWAITING_USER_SIGNOFF", "FORWARD", "SYNCHRONIZING", rerun="NONE",
                 mismatch=True).passed_due("SYNCHRONIZING")
    # A RESUME's source that the top frame's rerun still passes (after its Owner, up to its
    # RerunThrough) is that rerun's to re-establish; one outside that range is due.
    assert not h("DOCUMENTING", "RESUME", "REVIEWING_IMPLEMENTATION", rerun="REVIEWING_IMPLEMENTATION",
                 top_owner="TESTING").passed_due("REVIEWING_IMPLEMENTATION")
    assert h("DOCUMENTING", "RESUME", "REVIEWING_IMPLEMENTATION", rerun="REVIEWING_IMPLEMENTATION",
             top_owner="REVIEWING_IMPLEMENTATION").passed_due("REVIEWING_IMPLEMENTATION")
    assert h("REVIEWING_FINAL", "RESUME", "DOCUMENTING", rerun="REVIEWING_IMPLEMENTATION",
             top_owner="TESTING").passed_due("DOCUMENTING")
    # Paths: Handoff.From and every state before it, after FORWARD or RESUME.
    assert h("REVIEWING_IMPLEMENTATION", "RESUME", "TESTING").passed_due("SCOPING", path=True)
    assert not h("DEVELOPING", "FORWARD", "AUDITING").passed_due("SCOPING", path=True)
    # ... and every passed state before the one the top frame interrupted.
    assert h("DEVELOPING", "FORWARD", "AUDITING", top_from="REVIEWING_FINAL").passed_due("SCOPING", path=True)
    assert not h("DEVELOPING", "FORWARD", "AUDITING", top_from="SCOPING").passed_due("SCOPING", path=True)
    assert not h("TESTING", "FAILURE", "DEVELOPING").passed_due("SCOPING", path=True)
    # ... except the top frame owner's own state and those after it while that owner still corrects
    # (RerunThrough NONE): it has not yet passed its gate nor planned what is re-established (Recovery
    # Mechanics, 3).  A frame whose Owner does not own its FailureType names no such correction.
    assert not h("ARCHITECTING", "RESUME", "AUDITING", rerun="NONE", top_from="ARCHITECTING",
                 top_owner="SCOPING").passed_due("SCOPING", path=True)
    assert not h("REVIEWING_FINAL", "RESUME", "DOCUMENTING", rerun="NONE", top_from="SCOPING",
                 top_owner="AUDITING").passed_due("ARCHITECTING", path=True)
    assert h("ARCHITECTING", "RESUME", "AUDITING", rerun="ARCHITECTING", top_from="ARCHITECTING",
             top_owner="SCOPING").passed_due("SCOPING", path=True)
    assert h("ARCHITECTING", "RESUME", "AUDITING", rerun="NONE", top_from="ARCHITECTING", top_owner="SCOPING",
             mismatch=True).passed_due("SCOPING", path=True)
    assert h("TESTING", "FORWARD", "DEVELOPING", rerun="NONE", top_from="TESTING",
             top_owner="DEVELOPING").passed_due("ARCHITECTING", path=True)


def test_holding_full_gates_due():
    plain = holding("REVIEWING_IMPLEMENTATION", "CHECKPOINT", "TESTING")
    assert plain.full_gates_due()
    assert holding("REVIEWING_IMPLEMENTATION", "RESUME", "TESTING", recovery="true").full_gates_due()
    assert not holding("AWAITING_USER_SIGNOFF", "CHECKPOINT", "TESTING", recovery="true").full_gates_due()


def test_active_work_path_during_recovery_follows_handoff_from(lint_tree):
    # Scope NONE in DEVELOPING: outside recovery it is overdue; during recovery
    # after a FAILURE the rerun has not reached Scoper's gate.
    files = tree()
    assert "SL643" in [f.code for f in lint_tree(files, state=state("DEVELOPING", kind="FORWARD", frm="ARCHITECTING",
                                                                     scope="NONE"))]
    st = state("DEVELOPING", kind="FAILURE", frm="TESTING", scope="NONE", recovery=True)
    assert "SL643" not in [f.code for f in lint_tree(files, state=st)]


# -- recovery moves that leave or enter the rerun (unseen-4's move classes) ---------------------
REVIEW_IMPL = f".standards/docs/reviews/{CYCLE}/implementation.md"
REVIEW_IMPL_MISSES = prov("REVIEW", "IMPLEMENTATION") + f"""# Review Report

`Cycle`: `{CYCLE}` `ReviewKind`: `IMPLEMENTATION`
`Status`: `COMPLETE` `User Style`: `NONE`

## Acceptance Evidence

AC-001: checked.
"""


def test_a_resume_into_signoff_that_leaves_its_frame_holds_no_later_record(lint_tree):
    # The frame left on the stack (SL350 reports it): the RESUME is no return
    # to sign-off, so no full completion checks of the records after Reviewer
    # entry; the final review stays the rerun's to finish (unseen4-0629, 0756).
    st = state("AWAITING_USER_SIGNOFF", kind="RESUME", frm="SYNCHRONIZING", recovery=True)
    plain, turn_end = both(lint_tree, tree(final=REVIEW_FINAL_MISSES), st, "SL721")
    assert plain == [] and turn_end == []
    assert "SL350" in [f.code for f in lint_tree(tree(final=REVIEW_FINAL_MISSES), state=st)]


def test_past_reviewer_entry_the_developer_and_tester_records_stay_held(lint_tree):
    # Reviewer entry needed the full Developer and Tester gates (Full
    # Verification Boundary), whether the cycle then moved on by FORWARD or a
    # frame-leaving RESUME (te-0206, te-0655, unseen4-0660).
    for st in (state("AWAITING_USER_SIGNOFF", kind="RESUME", frm="REVIEWING_FINAL", recovery=True),
               state("AWAITING_USER_SIGNOFF", kind="FORWARD", frm="REVIEWING_IMPLEMENTATION", recovery=True,
                     policy="IMPLEMENTATION_REVIEWED")):
        plain, turn_end = both(lint_tree, tree(verify=VERIFY_MISSES), st, "SL721")
        assert where(plain) == where(turn_end) == [("SL721", VERIFY, 8)]


def test_a_forward_during_the_rerun_leaves_its_source_record_to_the_rerun(lint_tree):
    # FORWARD REVIEWING_IMPLEMENTATION -> DOCUMENTING inside a SCOPING rerun:
    # the review report is the rerun's to finish plainly (unseen4-0787); the
    # turn-end check holds Handoff.From's record; Tester's report stays held.
    files = tree(verify=VERIFY_MISSES)
    files[REVIEW_IMPL] = REVIEW_IMPL_MISSES
    st = state("DOCUMENTING", kind="FORWARD", frm="REVIEWING_IMPLEMENTATION", recovery=True)
    plain, turn_end = both(lint_tree, files, st, "SL721")
    assert where(plain) == [("SL721", VERIFY, 8)]
    assert sorted(where(turn_end)) == sorted([("SL721", VERIFY, 8), ("SL721", REVIEW_IMPL, 10)])


def test_a_failure_that_pushed_no_frame_holds_no_source_at_turn_end(lint_tree):
    # "During recovery it instead holds those of the state named in
    # Handoff.From": a FAILURE with Recovery.Active false started no recovery
    # (a recovery rule reports the missing frame), so Tester's report is not added
    # (unseen4-0289).
    st = state("SCOPING", kind="FAILURE", frm="TESTING")
    assert sl7(lint_tree(tree(verify=VERIFY_MISSES), state=st, turn_end=True), "SL721") == []
    st = state("DEVELOPING", kind="FAILURE", frm="TESTING", recovery=True)
    assert where(sl7(lint_tree(tree(verify=VERIFY_MISSES), state=st, turn_end=True), "SL721")) == [("SL721", VERIFY, 8)]


def test_a_reviewers_forward_in_a_documentation_rerun_holds_no_earlier_record():
    # FORWARD REVIEWING_FINAL -> SYNCHRONIZING inside a SCOPING rerun of a
    # DOCUMENTATION cycle: the documentation record is the rerun's to finish
    # (unseen4-1138); on a STANDARD route the Reviewer's gate still needed it.
    def h(mode):
        return Holding(state="SYNCHRONIZING", route=route_of(mode, "BROWNFIELD"),
                       standard_route=route_of("STANDARD", "BROWNFIELD"), recovery="true", kind="FORWARD",
                       frm="REVIEWING_FINAL", frames=1, top_rerun="SYNCHRONIZING")

    assert not h("DOCUMENTATION").passed_due("DOCUMENTING")
    assert h("STANDARD").passed_due("DOCUMENTING")


def test_testers_report_is_held_complete_whatever_its_header_cycle(lint_tree):
    # Past TESTING the report's Status must be COMPLETE even when its header
    # Cycle is unreadable (an emphasized `*`Cycle`*`, SL601): the Reviewer
    # state needs the full Tester gate (unseen4-0354).  Other records whose
    # header contradicts their block keep their Status untrusted (te-0242).
    report = verification("| AC-001 | t | passed |\n| AC-002 | t | passed |\n", status="IN_PROGRESS")
    emphasized = report.replace("`Cycle`: `", "*`Cycle`*: `", 1)
    assert emphasized != report
    st = state("REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING")
    got = lint_tree(tree(verify=emphasized), state=st)
    assert [f.path for f in got if f.code == "SL931"] == [VERIFY]
    assert "SL601" in [f.code for f in got]


def test_holding_passed_due_across_reviewer_entry():
    """Read from the older releases' verdicts (fixtures/parity/versions) and
    the protocol's words, during recovery."""
    def h(state, kind, frm, owner, frames=1):
        return Holding(state=state, route=route_of("STANDARD", "BROWNFIELD"),
                       standard_route=route_of("STANDARD", "BROWNFIELD"), recovery="true", kind=kind, frm=frm,
                       frames=frames, top_rerun="SYNCHRONIZING", top_owner=owner)

    # "Before either a `FORWARD` or recovery `RESUME` enters a Reviewer
    # state, the full applicable Developer and Tester gates must hold": into a
    # Reviewer state, or from before the first one to past it.
    assert h("REVIEWING_FINAL", "RESUME", "DOCUMENTING", "ARCHITECTING").passed_due("TESTING")
    assert h("DOCUMENTING", "RESUME", "DEVELOPING", "SCOPING").passed_due("TESTING")
    # The implementation review under a frame whose Owner comes before it is
    # the rerun's to redo; not under an Owner after it, nor at sign-off.
    assert not h("SYNCHRONIZING", "FORWARD", "REVIEWING_FINAL", "SCOPING").passed_due("REVIEWING_IMPLEMENTATION")
    assert not h("REVIEWING_FINAL", "RESUME", "AUDITING", None, frames=0).passed_due("REVIEWING_IMPLEMENTATION")
    assert h("REVIEWING_FINAL", "FORWARD", "DOCUMENTING", "DOCUMENTING").passed_due("REVIEWING_IMPLEMENTATION")
    assert h("AWAITING_USER_SIGNOFF", "FORWARD", "SYNCHRONIZING", "SCOPING").passed_due("REVIEWING_IMPLEMENTATION")


def test_holding_completion_of_a_reviewers_resume_source():
    """"During recovery, when `check` otherwise holds only the current
    state's `COMPLETE` records, the hook instead holds those of the state
    named in `Handoff.From`" (Runtime Tools and Hooks): the implementation
    review a RESUME came back from is held at turn end only; the final
    review a RESUME came from stays held (it must be COMPLETE: "Reviewer has
    no corrective-return exception")."""
    def h(state, frm, mode, turn_end):
        return Holding(state=state, route=route_of(mode, "BROWNFIELD"),
                       standard_route=route_of("STANDARD", "BROWNFIELD"), recovery="true", kind="RESUME", frm=frm,
                       frames=1, top_rerun="SYNCHRONIZING", top_owner="SCOPING", turn_end=turn_end)

    assert not h("DOCUMENTING", "REVIEWING_IMPLEMENTATION", "STANDARD", False).completion("REVIEWING_IMPLEMENTATION")
    assert h("DOCUMENTING", "REVIEWING_IMPLEMENTATION", "STANDARD", True).completion("REVIEWING_IMPLEMENTATION")
    assert h("SYNCHRONIZING", "REVIEWING_FINAL", "DOCUMENTATION", False).completion("REVIEWING_FINAL")
