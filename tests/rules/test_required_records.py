"""Tests of rules/required_records.py (SL930-SL959)."""

CID = "add-user-search-20261130T024329Z-59a270f5"


def state(ws, mode="STANDARD", policy="FULL_DELIVERABLE", kind="FORWARD", frm="TESTING", recovery=""):
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{CID}` `Request`: `Add search.` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `NONE` `Reason`: `Done.`

## Recovery

`Active`: `{'true' if recovery else 'false'}`
{recovery}
## Outstanding Obligations

`Active`: `false`
"""


def record(artifact, status, kind=None, body=""):
    rk = f"ReviewKind: {kind}\n" if kind else ""
    title = {"VERIFICATION": "Verification Report", "REVIEW": "Review Report", "DOCUMENTATION": "Documentation Record",
             "SYNCHRONIZATION": "Synchronization Record", "DEVELOPMENT": "Development Plan"}[artifact]
    return (f"<!-- STANDARDS\nArtifact: {artifact}\nCycle: {CID}\n{rk}-->\n\n# {title}\n\n"
            f"`Cycle`: `{CID}` `Status`: `{status}`\n\n## Notes\n\n{body}\n")


VER = f".standards/docs/verification/{CID}.md"
IMPL = f".standards/docs/reviews/{CID}/implementation.md"
FINAL = f".standards/docs/reviews/{CID}/final-deliverable.md"
DOC = f".standards/docs/documentation/{CID}.md"
SYNC = f".standards/docs/synchronization/{CID}.md"
CLEAN_IMPL_CLOSURE = """## Implementation-Reviewed Closure

`Policy`: `IMPLEMENTATION_REVIEWED` `Eligibility`: `ELIGIBLE` `User Choice`: `User asked.`
`User Reason`: `NONE` `Assessed Inputs`: `Current scope.` `Evidence`: `Tests passed.`
`Unmet Requirements`: `NONE` `Omitted Phases`: `DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING`
`Omitted Guarantees`: `Normal tail omitted.`
"""


def of(findings, code):
    return [f for f in findings if f.code == code]


def test_sl930_missing_record_after_passing_state(lint_tree):
    found = of(lint_tree({VER: record("VERIFICATION", "COMPLETE")},
                         state=state("DOCUMENTING", frm="REVIEWING_IMPLEMENTATION")), "SL930")
    assert [(f.path, f.line) for f in found] == [(IMPL, 1)]


def test_sl930_silent_when_records_exist(lint_tree):
    files = {VER: record("VERIFICATION", "COMPLETE"), IMPL: record("REVIEW", "COMPLETE", "IMPLEMENTATION")}
    assert of(lint_tree(files, state=state("DOCUMENTING", frm="REVIEWING_IMPLEMENTATION")), "SL930") == []


def test_sl930_silent_while_frame_owner_corrects(lint_tree):
    frame = ("\n### Frame 1\n\n`From`: `DOCUMENTING` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n"
             "`Reason`: `Bug.` `ResumeAt`: `DOCUMENTING` `RerunThrough`: `NONE`\n")
    st = state("DOCUMENTING", kind="FAILURE", frm="DOCUMENTING", recovery=frame)
    assert of(lint_tree({}, state=st), "SL930") == []


def test_sl931_incomplete_record_after_forward(lint_tree):
    found = of(lint_tree({VER: record("VERIFICATION", "IN_PROGRESS")},
                         state=state("REVIEWING_IMPLEMENTATION", frm="TESTING")), "SL931")
    assert [(f.path, f.line) for f in found] == [(VER, 8)]
    assert "`IN_PROGRESS`" in found[0].message


def test_sl931_documentation_may_stay_incomplete_after_resume(lint_tree):
    files = {VER: record("VERIFICATION", "COMPLETE"), IMPL: record("REVIEW", "COMPLETE", "IMPLEMENTATION"),
             DOC: record("DOCUMENTATION", "IN_PROGRESS")}
    assert of(lint_tree(files, state=state("REVIEWING_FINAL", kind="RESUME", frm="DOCUMENTING")), "SL931") == []


def test_sl932_resume_from_final_review(lint_tree):
    files = {DOC: record("DOCUMENTATION", "COMPLETE"), FINAL: record("REVIEW", "BLOCKED", "FINAL_DELIVERABLE"),
             ".standards/CONTEXT.md": "# Context\n\nok\n"}
    st = state("DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="RESUME", frm="REVIEWING_FINAL")
    found = of(lint_tree(files, state=st), "SL932")
    assert [(f.path, f.line) for f in found] == [(FINAL, 9)]
    files[FINAL] = record("REVIEW", "COMPLETE", "FINAL_DELIVERABLE")
    assert of(lint_tree(files, state=st), "SL932") == []


def test_sl934_direct_return_to_signoff(lint_tree):
    files = {VER: record("VERIFICATION", "COMPLETE"),
             IMPL: record("REVIEW", "COMPLETE", "IMPLEMENTATION") + "\n" + CLEAN_IMPL_CLOSURE,
             SYNC: record("SYNCHRONIZATION", "IN_PROGRESS")}
    st = state("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", kind="RESUME", frm="SYNCHRONIZING")
    found = of(lint_tree(files, state=st), "SL934")
    assert [(f.path, f.line) for f in found] == [(SYNC, 8)]
    files[SYNC] = record("SYNCHRONIZATION", "COMPLETE")
    assert of(lint_tree(files, state=st), "SL934") == []


def test_sl935_completion_change_needs_review(lint_tree):
    st = state("DOCUMENTING", kind="COMPLETION_CHANGE", frm="AWAITING_USER_SIGNOFF")
    files = {VER: record("VERIFICATION", "COMPLETE")}
    found = of(lint_tree(files, state=st), "SL935")
    assert [(f.path, f.line) for f in found] == [(IMPL, 1)]
    files[IMPL] = record("REVIEW", "COMPLETE", "IMPLEMENTATION")
    assert of(lint_tree(files, state=st), "SL935") == []


def test_sl936_documentation_cycle_without_implementation_records(lint_tree):
    plan = f".standards/docs/development/{CID}.md"
    st = state("AUDITING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL", frm="NONE")
    found = of(lint_tree({plan: record("DEVELOPMENT", "IN_PROGRESS")}, state=st), "SL936")
    assert [(f.path, f.line) for f in found] == [(plan, 1)]


def test_sl936_silent_without_implementation_records(lint_tree):
    st = state("AUDITING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL", frm="NONE")
    assert of(lint_tree({DOC: record("DOCUMENTATION", "IN_PROGRESS")}, state=st), "SL936") == []


def test_sl937_documentation_context(lint_tree):
    st = state("SCOPING", mode="DOCUMENTATION", policy="NONE", frm="AUDITING")
    found = of(lint_tree({}, state=st), "SL937")
    assert [(f.path, f.line) for f in found] == [(".standards/CONTEXT.md", 1)]
    assert of(lint_tree({".standards/CONTEXT.md": "# Context\n\nFacts.\n"}, state=st), "SL937") == []


def test_sl937_an_unreadable_handoff_kind_does_not_silence_it_outside_recovery(lint_tree):
    # Outside recovery the handoff decides nothing here: a padded or unknown
    # Kind (SL220) leaves the context still due past AUDITING.
    for kind in ("FORWARD ", "TODO"):
        st = state("SCOPING", mode="DOCUMENTATION", policy="NONE", kind=kind, frm="AUDITING")
        assert [f.path for f in of(lint_tree({}, state=st), "SL937")] == [".standards/CONTEXT.md"], kind


def test_sl937_silent_in_auditing(lint_tree):
    st_audit = state("AUDITING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL", frm="NONE")
    assert of(lint_tree({}, state=st_audit), "SL937") == []


def test_a_tail_role_that_handed_off_forward_has_finished_its_record(lint_tree):
    # SYNCHRONIZING -> REVIEWING_FINAL leaves the route (SL410), but Synchronizer
    # handed off forward, so its record must exist.
    st = state("REVIEWING_FINAL", mode="DOCUMENTATION", policy="NONE", frm="SYNCHRONIZING")
    paths = [f.path for f in lint_tree({}, state=st) if f.code == "SL930"]
    assert SYNC in paths


def test_a_forward_handoff_back_from_testing_passes_nothing(lint_tree):
    # TESTING -> DEVELOPING goes back up the route (SL420): the cycle has not
    # passed TESTING, so no verification report is due yet.
    st = state("DEVELOPING", frm="TESTING")
    assert VER not in [f.path for f in lint_tree({}, state=st) if f.code == "SL930"]


def test_sl931_a_checkpoint_is_no_corrective_return(lint_tree):
    # After a RESUME a passed tail record may still be incomplete (a corrective
    # return pending); a CHECKPOINT is never a corrective return, so the
    # final-deliverable review the cycle has passed must be COMPLETE.
    files = {DOC: record("DOCUMENTATION", "COMPLETE"), FINAL: record("REVIEW", "IN_PROGRESS", "FINAL_DELIVERABLE")}
    st = state("SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", kind="CHECKPOINT", frm="AUDITING")
    assert [f.path for f in of(lint_tree(files, state=st), "SL931")] == [FINAL]
    st = state("SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", kind="RESUME", frm="AUDITING")
    assert of(lint_tree(files, state=st), "SL931") == []


def test_a_documentation_cycle_with_an_invalid_policy_decides_no_record(lint_tree):
    # A DOCUMENTATION cycle's policy is NONE; any other (SL303) leaves which
    # records the cycle requires unknown, so the required-record rules stand
    # down, as for an EXPEDITED cycle with an invalid policy.
    st = state("SYNCHRONIZING", mode="DOCUMENTATION", policy="IMPLEMENTATION_REVIEWED", frm="REVIEWING_FINAL")
    found = lint_tree({FINAL: record("REVIEW", "COMPLETE", "FINAL_DELIVERABLE")}, state=st)
    assert of(found, "SL930") == [] and of(found, "SL303")
    st = state("SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", frm="REVIEWING_FINAL")
    found = lint_tree({FINAL: record("REVIEW", "COMPLETE", "FINAL_DELIVERABLE")}, state=st)
    assert [f.path for f in of(found, "SL930")] == [DOC]


def test_during_recovery_a_forward_leaves_the_records_before_its_source_due(lint_tree):
    # FORWARD from REVIEWING_IMPLEMENTATION while the top frame's owner is
    # still correcting (RerunThrough NONE): the source's own record may wait
    # for the rerun, but TESTING, passed before it, must have left its report.
    frame = ("\n### Frame 1\n\n`From`: `ARCHITECTING` `Owner`: `ARCHITECTING` `FailureType`: `ARCHITECTURE`\n"
             "`Reason`: `A defect.` `ResumeAt`: `ARCHITECTING` `RerunThrough`: `NONE`\n")
    st = state("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", frm="REVIEWING_IMPLEMENTATION",
               recovery=frame)
    found = lint_tree({IMPL: record("REVIEW", "BLOCKED", "IMPLEMENTATION")}, state=st)
    assert [f.path for f in of(found, "SL930")] == [VER]
    assert of(found, "SL931") == []


def _frame(frm, owner, ft, resume, rerun="NONE"):
    return (f"\n### Frame 1\n\n`From`: `{frm}` `Owner`: `{owner}` `FailureType`: `{ft}`\n"
            f"`Reason`: `A defect.` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n")


def test_a_forward_into_a_reviewer_state_during_recovery_holds_its_source_record(lint_tree):
    # Documenter hands off FORWARD to final Reviewer while its own frame is
    # still open (RerunThrough NONE): Reviewer entry keeps the full completion
    # checks (PROTOCOL.md, Runtime Tools and Hooks), so the record of the state
    # the FORWARD came from must be COMPLETE; SL551 reports the frame.
    st = state("REVIEWING_FINAL", mode="DOCUMENTATION", policy="NONE", frm="DOCUMENTING",
               recovery=_frame("REVIEWING_FINAL", "DOCUMENTING", "DOCUMENTATION", "REVIEWING_FINAL"))
    found = lint_tree({DOC: record("DOCUMENTATION", "IN_PROGRESS")}, state=st)
    assert [f.path for f in of(found, "SL931")] == [DOC]
    # The same FORWARD into a non-Reviewer state leaves the source's record
    # to the rerun while the frame's owner still corrects.
    st = state("SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", frm="REVIEWING_FINAL",
               recovery=_frame("SYNCHRONIZING", "REVIEWING_FINAL", "REVIEW", "SYNCHRONIZING"))
    found = lint_tree({DOC: record("DOCUMENTATION", "COMPLETE"), FINAL: record("REVIEW", "IN_PROGRESS", "FINAL_DELIVERABLE")},
                      state=st)
    assert of(found, "SL931") == []


def test_a_forward_under_a_frame_whose_owner_does_not_own_its_type_passes_nothing(lint_tree):
    # The top frame's Owner does not own its FailureType (SL506): the frame
    # names no correction whose gate the FORWARD could have passed, so, as
    # the framework's checker reads it, no record is due from the handoff
    # (the protocol is silent; the checker reports only the frame).
    frame = _frame("SCOPING", "REVIEWING_FINAL", "DOCUMENTATION", "SCOPING")
    st = state("REVIEWING_FINAL", frm="DOCUMENTING", recovery=frame)
    found = lint_tree({VER: record("VERIFICATION", "COMPLETE"), IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION")},
                      state=st)
    assert of(found, "SL930") == [] and of(found, "SL931") == []
    assert of(found, "SL506")
    # With the frame's Owner the state owning DOCUMENTATION, the review
    # passed before the FORWARD's source is due again.
    frame = _frame("SCOPING", "DOCUMENTING", "DOCUMENTATION", "SCOPING")
    found = lint_tree({VER: record("VERIFICATION", "COMPLETE"), IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION")},
                      state=state("REVIEWING_FINAL", frm="DOCUMENTING", recovery=frame))
    assert [f.path for f in of(found, "SL931")] == [IMPL]
