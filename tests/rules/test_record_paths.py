"""Fixed record paths, second records, misplaced records and Active Work paths
(SL630-SL644)."""

from .test_provenance import CYCLE, block

SCOPE = f".standards/docs/scope/{CYCLE}.md"
SPECS = f".standards/docs/specs/{CYCLE}.md"
DEV = f".standards/docs/development/{CYCLE}.md"
VERIF = f".standards/docs/verification/{CYCLE}.md"
IMPL = f".standards/docs/reviews/{CYCLE}/implementation.md"
FINAL = f".standards/docs/reviews/{CYCLE}/final-deliverable.md"
DOCS = f".standards/docs/documentation/{CYCLE}.md"
SYNC = f".standards/docs/synchronization/{CYCLE}.md"


def state(ws="TESTING", mode="STANDARD", scope=SCOPE, arch=SPECS, dev=DEV, kind="FORWARD", frm="DEVELOPING",
          cycle=CYCLE, policy=None):
    policy = policy or ("FULL_DELIVERABLE" if mode == "STANDARD" else "NONE")
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{cycle}` `Request`: `Add user search`
`Scope`: `{scope}`
`Architecture`: `{arch}`
`Development`: `{dev}`
`PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `NONE` `Reason`: `Next.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


RECORDS = {
    SCOPE: block("SCOPE") + "\n# Scope\n\n- `AC-001`: Search by name.\n",
    SPECS: block("ARCHITECTURE") + "\n# Design\n",
    DEV: block("DEVELOPMENT") + f"\n# Development Plan\n\n`Cycle`: `{CYCLE}`\n",
}


def found(findings, code):
    return [(f.path, f.line) for f in findings if f.code == code]


def run(lint_tree, files, **kw):
    tree = dict(RECORDS)
    tree.update(files)
    return lint_tree({k: v for k, v in tree.items() if v is not None}, state=state(**kw))


# -- what sits at a fixed path --------------------------------------------------------


def test_unmarked_file_at_fixed_path(lint_tree):
    findings = run(lint_tree, {DOCS: "# Documentation Record\n"})
    assert found(findings, "SL630") == [(DOCS, 1)]


def test_leading_blank_line_is_no_block(lint_tree):
    findings = run(lint_tree, {VERIF: "\n" + block("VERIFICATION")})
    assert found(findings, "SL630") == [(VERIF, 1)]


def test_other_cycles_record_at_fixed_path(lint_tree):
    findings = run(lint_tree, {VERIF: block("VERIFICATION", "old-cycle-1")})
    assert found(findings, "SL631") == [(VERIF, 3)]
    assert "`old-cycle-1`" in [f for f in findings if f.code == "SL631"][0].message


def test_the_plans_fixed_path_is_checked_while_development_is_none(lint_tree):
    # With Active Work.Development naming the plan, a wrong record there is
    # reported on STATE.md (SL641); while it is NONE (a DOCUMENTATION cycle,
    # or before DEVELOPING) no path names it, so the fixed path itself is.
    other = {DEV: block("DEVELOPMENT", CYCLE.replace("-", "_", 1))}
    findings = run(lint_tree, other, ws="AUDITING", mode="DOCUMENTATION", arch="NONE", dev="NONE", kind="INITIAL",
                   frm="NONE")
    assert found(findings, "SL631") == [(DEV, 3)]
    findings = run(lint_tree, other)
    assert found(findings, "SL631") == [] and found(findings, "SL641")


def test_wrong_kind_at_fixed_path(lint_tree):
    findings = run(lint_tree, {FINAL: block("REVIEW", kind="IMPLEMENTATION")})
    assert found(findings, "SL632") == [(FINAL, 2)]
    assert "holds REVIEW IMPLEMENTATION" in [f for f in findings if f.code == "SL632"][0].message
    # ... and it is this cycle's implementation review in the wrong place
    assert found(findings, "SL635") == [(FINAL, 2)]


def test_folder_at_fixed_path(lint_tree):
    findings = run(lint_tree, {SYNC + "/note.md": "# Note\n"})
    assert found(findings, "SL633") == [(SYNC, 1)]


def test_file_where_the_review_folder_must_be(lint_tree):
    findings = run(lint_tree, {f".standards/docs/reviews/{CYCLE}": "not a folder\n"})
    assert found(findings, "SL633") == [(f".standards/docs/reviews/{CYCLE}", 1)]


def test_fixed_paths_holding_their_records_are_quiet(lint_tree):
    findings = run(
        lint_tree,
        {
            VERIF: block("VERIFICATION") + f"\n# Verification Report\n\n`Cycle`: `{CYCLE}`\n",
            IMPL: block("REVIEW", kind="IMPLEMENTATION")
            + f"\n# Review\n\n`Cycle`: `{CYCLE}` `ReviewKind`: `IMPLEMENTATION`\n",
            "docs/scope/old.md": block("SCOPE", "old-cycle-1"),
        },
    )
    assert [f for f in findings if f.code.startswith("SL6")] == []


# -- where this cycle's records are -------------------------------------------------------


def test_second_record_for_the_cycle(lint_tree):
    findings = run(lint_tree, {VERIF: block("VERIFICATION"), "archive/copy.md": block("VERIFICATION")})
    hits = [f for f in findings if f.code == "SL634"]
    assert [(f.path, f.line) for f in hits] == [("archive/copy.md", 2)]
    assert VERIF in hits[0].message


def test_record_at_fixed_path_is_first_even_if_it_sorts_later(lint_tree):
    findings = run(lint_tree, {VERIF: block("VERIFICATION"), SCOPE: block("VERIFICATION")})
    assert found(findings, "SL634") == [(SCOPE, 2)]


def test_record_away_from_its_fixed_path(lint_tree):
    findings = run(lint_tree, {"docs/elsewhere/report.md": block("VERIFICATION")})
    assert found(findings, "SL635") == [("docs/elsewhere/report.md", 2)]
    assert found(findings, "SL634") == []


def test_scope_outside_the_docs_folder_is_fine(lint_tree):
    findings = run(lint_tree, {SCOPE: None, "docs/requirements.md": block("SCOPE")}, scope="docs/requirements.md")
    assert found(findings, "SL635") == [] and found(findings, "SL640") == []


# -- corrective RESUME -------------------------------------------------------------------


def test_documentation_resume_from_synchronizing_needs_the_record(lint_tree):
    findings = run(lint_tree, {}, ws="REVIEWING_FINAL", mode="DOCUMENTATION", dev="NONE", kind="RESUME",
                   frm="SYNCHRONIZING")
    assert found(findings, "SL636") == [(SYNC, 1)]


def test_documentation_resume_with_the_record_is_quiet(lint_tree):
    findings = run(lint_tree, {SYNC: block("SYNCHRONIZATION") + f"\n`Cycle`: `{CYCLE}`\n"}, ws="REVIEWING_FINAL",
                   mode="DOCUMENTATION", dev="NONE", kind="RESUME", frm="SYNCHRONIZING")
    assert found(findings, "SL636") == []


# -- Active Work paths -----------------------------------------------------------------


def test_pointer_to_missing_file(lint_tree):
    findings = run(lint_tree, {}, scope="docs/scope/missing.md")
    assert found(findings, "SL640") == [(".standards/STATE.md", 9)]


def test_pointer_to_other_cycles_record(lint_tree):
    findings = run(lint_tree, {"docs/scope/old.md": block("SCOPE", "old-cycle-1")}, scope="docs/scope/old.md")
    assert found(findings, "SL641") == [(".standards/STATE.md", 9)]


def test_pointer_to_record_of_another_type(lint_tree):
    findings = run(lint_tree, {VERIF: block("VERIFICATION")}, arch=VERIF)
    assert found(findings, "SL641") == [(".standards/STATE.md", 10)]


def test_pointer_to_unmarked_project_document_is_fine(lint_tree):
    findings = run(lint_tree, {"docs/design.md": "# Design\n"}, arch="docs/design.md")
    assert found(findings, "SL640") == [] and found(findings, "SL641") == []


def test_development_must_be_at_fixed_path(lint_tree):
    plan = block("DEVELOPMENT") + f"\n`Cycle`: `{CYCLE}`\n"
    findings = run(lint_tree, {DEV: None, "plans/plan.md": plan}, dev="plans/plan.md")
    hits = [f for f in findings if f.code == "SL642"]
    assert [(f.path, f.line) for f in hits] == [(".standards/STATE.md", 11)]
    assert hits[0].fix is not None and hits[0].fix.edits[0].replacement == DEV
    assert found(findings, "SL635") == [("plans/plan.md", 2)]


def test_none_after_the_owning_phase(lint_tree):
    findings = run(lint_tree, {}, scope="NONE", arch="NONE", dev="NONE", ws="TESTING")
    assert sorted(found(findings, "SL643")) == [(".standards/STATE.md", 9), (".standards/STATE.md", 10),
                                                (".standards/STATE.md", 11)]


def test_none_before_the_owning_phase_is_fine(lint_tree):
    # brownfield: AUDITING comes before SCOPING
    findings = run(lint_tree, {}, scope="NONE", arch="NONE", dev="NONE", ws="AUDITING", kind="INITIAL", frm="NONE")
    assert found(findings, "SL643") == []
    # expedited cycles keep Scope and Architecture NONE
    findings = run(lint_tree, {}, scope="NONE", arch="NONE", ws="REVIEWING_IMPLEMENTATION", mode="EXPEDITED")
    assert found(findings, "SL643") == []


def test_greenfield_audit_comes_after_architecture(lint_tree):
    files = dict(RECORDS)
    files[".standards/MODE.md"] = "# Mode\n\n`ProjectMode`: `GREENFIELD`\n"
    findings = lint_tree(files, state=state(scope="NONE", ws="AUDITING", kind="FORWARD", frm="ARCHITECTING"))
    assert found(findings, "SL643") == [(".standards/STATE.md", 9)]


def test_none_on_resume_from_scoping(lint_tree):
    findings = run(lint_tree, {}, scope="NONE", ws="AUDITING", mode="DOCUMENTATION", dev="NONE", kind="RESUME",
                   frm="SCOPING")
    assert found(findings, "SL644") == [(".standards/STATE.md", 9)]
    assert found(findings, "SL643") == []


def test_none_on_resume_that_left_recovery_active_without_a_frame(lint_tree):
    # The RESUME popped the last frame but left `Active`: `true` (SL501): no frame shows a
    # return after the owner's gate, so neither the source's path (SL644) nor SL643 is held.
    st = state(scope="NONE", ws="ARCHITECTING", kind="RESUME", frm="SCOPING").replace(
        "## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
    assert "`Active`: `true`" in st
    findings = lint_tree(dict(RECORDS), state=st)
    assert found(findings, "SL501") and found(findings, "SL644") == [] and found(findings, "SL643") == []
    # The same RESUME with the stack left consistent is held.
    findings = run(lint_tree, {}, scope="NONE", ws="ARCHITECTING", kind="RESUME", frm="SCOPING")
    assert found(findings, "SL644") == [(".standards/STATE.md", 9)]


def test_a_record_at_another_types_fixed_path_is_not_first_for_that(lint_tree):
    # A SCOPE record standing at the verification report's path: the scope has
    # no fixed path, so the first SCOPE record is the first by path.
    findings = run(lint_tree, {VERIF: block("SCOPE")})
    assert found(findings, "SL634") == [(VERIF, 2)]
    assert SCOPE in [f for f in findings if f.code == "SL634"][0].message


def test_among_records_off_their_fixed_path_the_first_by_path_is_first(lint_tree):
    # At the documentation record's path, it sorts before the scope folder.
    findings = run(lint_tree, {DOCS: block("SCOPE")})
    assert found(findings, "SL634") == [(SCOPE, 2)]


def test_during_recovery_the_paths_of_states_passed_before_the_interrupted_one_are_due(lint_tree):
    # A FORWARD from SCOPING during recovery holds SCOPING's path and the
    # ones before it; the top frame interrupted AWAITING_USER_SIGNOFF, so
    # ARCHITECTING had passed its gate before the recovery began: its path is due.
    frame = ("`Active`: `true`\n\n### Frame 1\n\n`From`: `AWAITING_USER_SIGNOFF` `Owner`: `SCOPING` "
             "`FailureType`: `SCOPING`\n`Reason`: `A defect.` `ResumeAt`: `AWAITING_USER_SIGNOFF` "
             "`RerunThrough`: `SYNCHRONIZING`")
    st = state(ws="SYNCHRONIZING", mode="DOCUMENTATION", arch="NONE", dev="NONE", frm="SCOPING").replace(
        "## Recovery\n\n`Active`: `false`", "## Recovery\n\n" + frame)
    findings = lint_tree({k: v for k, v in RECORDS.items() if k != SPECS and k != DEV}, state=st)
    assert [f.message.split(" is NONE")[0] for f in findings if f.code == "SL643"] == ["Active Work.Architecture"]
    # Interrupted in SCOPING: ARCHITECTING had not passed before the recovery.
    st2 = st.replace("`From`: `AWAITING_USER_SIGNOFF`", "`From`: `SCOPING`")
    assert [f for f in lint_tree({k: v for k, v in RECORDS.items() if k != SPECS and k != DEV}, state=st2)
            if f.code == "SL643"] == []


def test_a_resume_back_from_a_later_state_leaves_the_earlier_paths_to_the_rerun(lint_tree):
    # A SCOPING frame that interrupted TESTING, rerun through
    # REVIEWING_IMPLEMENTATION, resumed back at TESTING: the RESUME comes
    # from a later state, so the rerun passes SCOPING again and Scope NONE is
    # not "already past SCOPING" here (unseen4-0741, as the checker reads it);
    # the same frame in REVIEWING_IMPLEMENTATION after a RESUME from TESTING is.
    frame = ("`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `SCOPING` `FailureType`: `SCOPING`\n"
             "`Reason`: `A defect.` `ResumeAt`: `TESTING` `RerunThrough`: `REVIEWING_IMPLEMENTATION`")

    def sl643(ws, frm):
        st = state(ws=ws, scope="NONE", kind="RESUME", frm=frm).replace("`Active`: `false`", frame, 1)
        return [f for f in lint_tree({k: v for k, v in RECORDS.items() if k != SCOPE}, state=st) if f.code == "SL643"]

    assert sl643("TESTING", "REVIEWING_IMPLEMENTATION") == []
    assert [f.message.split(" is NONE")[0] for f in sl643("REVIEWING_IMPLEMENTATION", "TESTING")] == ["Active Work.Scope"]


def test_a_resume_with_recovery_left_on_and_no_frame_holds_every_passed_path(lint_tree):
    # Recovery.Active left `true` after the last frame was popped (SL5xx
    # reports it): no frame to rerun, so the passed states' paths are due as
    # outside recovery (unseen4-0371); a FAILURE that pushed no frame is no
    # return and holds none (te-0439).
    def sl643(kind):
        st = state(ws="REVIEWING_FINAL", dev="NONE", kind=kind, frm="AUDITING").replace(
            "`Active`: `false`", "`Active`: `true`", 1)
        return [f.message.split(" is NONE")[0] for f in lint_tree({k: v for k, v in RECORDS.items() if k != DEV}, state=st)
                if f.code == "SL643"]

    assert sl643("RESUME") == ["Active Work.Development"]
    assert sl643("FAILURE") == []
