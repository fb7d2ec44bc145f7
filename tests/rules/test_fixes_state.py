"""Fixes the state family's files determine: a stale recovery frame popped
(SL350, SL505-SL507, SL510-SL516, SL520), the forward step of a FORWARD
handoff (SL410, SL420, SL300, SL301), where a corrective handoff went
(SL402, SL403), a pushed frame's FailureType (SL506), an empty section's
`Active` flag (SL416) and the installed `INITIAL` kind (SL306, SL401)."""

from __future__ import annotations

from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project

from .conftest import CLEAN_STATE, RUNTIME, write_tree

CID = "add-user-search-20261130T024329Z-59a270f5"
STATE_PATH = ".standards/STATE.md"


def state(*, ws, mode="STANDARD", policy="FULL_DELIVERABLE", kind="FORWARD", frm="NONE", ft="NONE",
          active="false", frames="", ob_active="false", dev="NONE"):
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{CID}` `Request`: `Add search.` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `{dev}` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `{ft}` `Reason`: `Done.`

## Recovery

`Active`: `{active}`
{frames}
## Outstanding Obligations

`Active`: `{ob_active}`
"""


def frame(frm, owner, ft, resume, rerun, n=1):
    return (f"\n### Frame {n}\n\n`From`: `{frm}` `Owner`: `{owner}` `FailureType`: `{ft}`\n"
            f"`Reason`: `A defect.` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n")


TITLES = {"VERIFICATION": "Verification Report", "REVIEW": "Review Report", "DOCUMENTATION": "Documentation Record",
          "DEVELOPMENT": "Development Plan"}
PATHS = {
    "DEVELOPMENT": f".standards/docs/development/{CID}.md",
    "VERIFICATION": f".standards/docs/verification/{CID}.md",
    "IMPLEMENTATION": f".standards/docs/reviews/{CID}/implementation.md",
    "DOCUMENTATION": f".standards/docs/documentation/{CID}.md",
    "FINAL_DELIVERABLE": f".standards/docs/reviews/{CID}/final-deliverable.md",
}


def record(which, status="COMPLETE"):
    artifact = "REVIEW" if which in ("IMPLEMENTATION", "FINAL_DELIVERABLE") else which
    rk = f"ReviewKind: {which}\n" if artifact == "REVIEW" else ""
    shown = f" `ReviewKind`: `{which}`" if artifact == "REVIEW" else ""
    return {PATHS[which]: (f"<!-- STANDARDS\nArtifact: {artifact}\nCycle: {CID}\n{rk}-->\n\n# {TITLES[artifact]}\n\n"
                           f"`Cycle`: `{CID}`{shown} `Status`: `{status}`\n\n## Notes\n\nNone.\n")}


def tree(tmp_path, st, *records):
    files = {**RUNTIME, STATE_PATH: st}
    for r in records:
        files.update(r)
    write_tree(tmp_path, files)
    return tmp_path


def found(root, *wanted):
    return [f for f in lint(str(root), use_git=False).findings if f.code in wanted]


def read(root):
    with open(root / STATE_PATH, encoding="utf-8", newline="") as fh:
        return fh.read()


def fix(root):
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    again, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert again.fixed == [] and again.changed == {}
    return report


def fix_described(root, *codes):
    """The description of the one fix the findings of *codes* (one of
    each) share."""
    got = found(root, *codes)
    assert sorted(f.code for f in got) == sorted(codes)
    assert all(f.fix is not None for f in got)
    (description,) = {f.fix.description for f in got}
    return description


def fixed(root, *codes):
    """STATE.md once every fix is applied (:func:`fix`), no finding of
    *codes* left."""
    fix(root)
    assert found(root, *codes) == []
    return read(root)


def assert_no_fix(root, *codes):
    got = found(root, *codes)
    assert got and all(f.fix is None for f in got)


# -- a stale recovery frame -------------------------------------------------------

SIGNOFF_RECORDS = (record("DEVELOPMENT"), record("VERIFICATION"), record("IMPLEMENTATION"))


DEV = f".standards/docs/development/{CID}.md"


def signoff_state(frames="", active="true"):
    return state(ws="AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", frm="REVIEWING_IMPLEMENTATION",
                 active=active, frames=frames, dev=DEV)


def test_stale_frame_at_signoff_is_popped(tmp_path):
    # A FORWARD into sign-off from its source, every passed gate's record
    # COMPLETE, and a frame that contradicts itself (REVIEW is not owned by
    # DOCUMENTING) and the state: the frame is the odd one out.
    st = signoff_state(frame("DEVELOPING", "DOCUMENTING", "REVIEW", "DEVELOPING", "NONE"))
    root = tree(tmp_path, st, *SIGNOFF_RECORDS)
    assert fix_described(root, "SL350", "SL506", "SL507") == (
        "Remove stale recovery frame 1 (DEVELOPING -> DOCUMENTING, REVIEW) and set Recovery.Active to `false`")
    assert all(f.fix.applicability == "unsafe" for f in found(root, "SL350", "SL506", "SL507"))
    assert fixed(root, "SL350", "SL506", "SL507", "SL501") == signoff_state(active="false")


def test_frame_is_kept_when_a_passed_gate_is_not_complete(tmp_path):
    st = signoff_state(frame("DEVELOPING", "DOCUMENTING", "REVIEW", "DEVELOPING", "NONE"))
    root = tree(tmp_path, st, record("DEVELOPMENT"), record("VERIFICATION"), record("IMPLEMENTATION", "BLOCKED"))
    assert_no_fix(root, "SL350", "SL507")


def test_a_valid_frame_is_not_popped(tmp_path):
    # The frame is well formed: the state may be the stale part.
    st = signoff_state(frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING", "NONE"))
    assert_no_fix(tree(tmp_path, st, *SIGNOFF_RECORDS), "SL350", "SL507")


def test_frames_at_a_cycle_start_are_stale(tmp_path):
    st = state(ws="AUDITING", kind="INITIAL", active="true",
               frames=frame("TESTING", "SCOPING", "REVIEW", "TESTING", "NONE"))
    root = tree(tmp_path, st)
    assert fix_described(root, "SL506", "SL507").startswith("Remove stale recovery frame 1")
    assert fixed(root, "SL506", "SL507") == state(ws="AUDITING", kind="INITIAL")


def test_documentation_frame_with_an_omitted_owner_is_left_to_the_user(tmp_path):
    # Documentation Cycle Contract: a defect needing an omitted role is a
    # blocking user decision; the frame is never removed for it.
    st = state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL", active="true",
               frames=frame("SCOPING", "SYNCHRONIZING", "VERIFICATION", "SCOPING", "NONE"))
    assert_no_fix(tree(tmp_path, st), "SL506", "SL507", "SL512")


def test_frame_from_a_state_never_reached_is_stale(tmp_path):
    # A frame interrupted in SYNCHRONIZING, but no review record of this
    # cycle exists: the cycle never got there.
    st = state(ws="TESTING", policy="IMPLEMENTATION_REVIEWED", frm="DEVELOPING", active="true", dev=DEV,
               frames=frame("SYNCHRONIZING", "DEVELOPING", "DOCUMENTATION", "SYNCHRONIZING", "SYNCHRONIZING"))
    root = tree(tmp_path, st, record("DEVELOPMENT"))
    assert fix_described(root, "SL506").startswith("Remove stale recovery frame 1")
    assert fixed(root, "SL506") == state(ws="TESTING", policy="IMPLEMENTATION_REVIEWED", frm="DEVELOPING", dev=DEV)


# -- the forward step of a FORWARD handoff -----------------------------------------

DOC_RECORDS = (record("DOCUMENTATION"), record("FINAL_DELIVERABLE"))


def test_forward_into_an_omitted_state_takes_the_route_step(tmp_path):
    st = state(ws="TESTING", mode="DOCUMENTATION", policy="NONE", frm="REVIEWING_FINAL")
    root = tree(tmp_path, st, *DOC_RECORDS)
    assert fix_described(root, "SL300", "SL410") == (
        "Set WorkflowState to SYNCHRONIZING, the forward step from REVIEWING_FINAL")
    assert "`WorkflowState`: `SYNCHRONIZING`" in fixed(root, "SL300", "SL410")


def test_forward_step_needs_the_gate_record_complete(tmp_path):
    st = state(ws="TESTING", mode="DOCUMENTATION", policy="NONE", frm="REVIEWING_FINAL")
    assert_no_fix(tree(tmp_path, st, record("DOCUMENTATION"), record("FINAL_DELIVERABLE", "IN_PROGRESS")),
                  "SL300", "SL410")


def test_forward_skip_is_ambiguous(tmp_path):
    # DOCUMENTING -> SYNCHRONIZING skips REVIEWING_FINAL: either end may be wrong.
    st = state(ws="SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", frm="DOCUMENTING")
    root = tree(tmp_path, st, *DOC_RECORDS)
    (sl410,) = found(root, "SL410")
    assert sl410.fix is None


def test_forward_from_no_state_names_the_predecessor(tmp_path):
    st = state(ws="SYNCHRONIZING", mode="DOCUMENTATION", policy="NONE", frm="TODO")
    root = tree(tmp_path, st, *DOC_RECORDS)
    assert fix_described(root, "SL410") == (
        "Set Handoff.From to REVIEWING_FINAL, the state whose forward step is SYNCHRONIZING")
    assert "`From`: `REVIEWING_FINAL`" in fixed(root, "SL410")


# -- where a corrective handoff went ----------------------------------------------


def test_same_state_failure_keeps_the_state_at_its_origin(tmp_path):
    # No frame was pushed and the origin owns the failure type: the failure
    # stayed where it was found.  The edit also spans CycleMode (unchanged),
    # so SL204's reset of a terminal state's mode is not applied with it.
    st = state(ws="SIGNED_OFF", policy="IMPLEMENTATION_REVIEWED", kind="FAILURE", frm="REVIEWING_IMPLEMENTATION",
               ft="REVIEW")
    root = tree(tmp_path, st)
    assert fix_described(root, "SL402", "SL403") == (
        "Set WorkflowState to REVIEWING_IMPLEMENTATION, where the FAILURE handoff went")
    assert fixed(root, "SL402", "SL403", "SL204") == state(
        ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="FAILURE",
        frm="REVIEWING_IMPLEMENTATION", ft="REVIEW")


def test_failure_goes_to_the_owner_its_pushed_frame_names(tmp_path):
    st = state(ws="AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", kind="FAILURE",
               frm="REVIEWING_IMPLEMENTATION", ft="IMPLEMENTATION", active="true",
               frames=frame("REVIEWING_IMPLEMENTATION", "DEVELOPING", "IMPLEMENTATION", "REVIEWING_IMPLEMENTATION", "NONE"))
    root = tree(tmp_path, st)
    got = found(root, "SL402", "SL507")
    assert {f.fix.description for f in got} == {"Set WorkflowState to DEVELOPING, where the FAILURE handoff went"}


def test_pushed_frame_records_the_handoffs_failure_type(tmp_path):
    st = state(ws="ARCHITECTING", kind="FAILURE", frm="TESTING", ft="ARCHITECTURE", active="true",
               frames=frame("TESTING", "ARCHITECTING", "SCOPING", "TESTING", "NONE"))
    root = tree(tmp_path, st)
    assert fix_described(root, "SL506") == "Set frame 1's FailureType to ARCHITECTURE, the type its handoff routed"
    assert "`FailureType`: `ARCHITECTURE`\n`Reason`: `A defect.`" in fixed(root, "SL506")


# -- Active flags and the installed handoff ---------------------------------------


def test_completion_change_with_an_empty_obligations_flag(tmp_path):
    st = state(ws="DOCUMENTING", kind="COMPLETION_CHANGE", frm="AWAITING_USER_SIGNOFF", ob_active="true")
    root = tree(tmp_path, st)
    assert fix_described(root, "SL416") == "Set Outstanding Obligations.Active to `false`."
    fixed(root, "SL416", "SL502")


def test_unstarted_project_keeps_the_installed_kind(tmp_path):
    st = CLEAN_STATE.replace("`Kind`: `INITIAL`", "`Kind`: `FAILURE`")
    root = tree(tmp_path, st)
    assert fix_described(root, "SL306", "SL401") == "Set Handoff.Kind to INITIAL: no cycle has started"
    assert fixed(root, "SL306", "SL401") == CLEAN_STATE


def test_unstarted_kind_is_not_restored_when_the_handoff_has_an_origin(tmp_path):
    st = CLEAN_STATE.replace("`Kind`: `INITIAL` `From`: `NONE`", "`Kind`: `FAILURE` `From`: `TESTING`")
    root = tree(tmp_path, st)
    (sl306,) = found(root, "SL306")
    assert sl306.fix is None


def test_a_valid_frame_from_a_state_never_reached_is_stale(tmp_path):
    # Well formed, but interrupted in REVIEWING_IMPLEMENTATION while no
    # verification report of this cycle exists; the FORWARD explains the state.
    st = state(ws="DEVELOPING", frm="ARCHITECTING", active="true",
               frames=frame("REVIEWING_IMPLEMENTATION", "DOCUMENTING", "DOCUMENTATION", "REVIEWING_IMPLEMENTATION",
                            "NONE"))
    root = tree(tmp_path, st)
    assert fix_described(root, "SL507").startswith("Remove stale recovery frame 1")
    assert fixed(root, "SL507") == state(ws="DEVELOPING", frm="ARCHITECTING")


def test_a_valid_frame_after_a_reached_state_is_kept(tmp_path):
    st = state(ws="DEVELOPING", frm="ARCHITECTING", active="true",
               frames=frame("REVIEWING_IMPLEMENTATION", "DOCUMENTING", "DOCUMENTATION", "REVIEWING_IMPLEMENTATION",
                            "NONE"))
    root = tree(tmp_path, st, record("DEVELOPMENT"), record("VERIFICATION"))
    (sl507,) = found(root, "SL507")
    assert sl507.fix is None


def test_a_broken_frame_beside_a_same_state_failure_is_stale(tmp_path):
    # A same-state failure pushes no frame; this one came from elsewhere and
    # its Owner does not own its type.
    st = state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE", kind="FAILURE", frm="AUDITING",
               ft="PROJECT_CONTEXT", active="true", frames=frame("SCOPING", "ARCHITECTING", "SCOPING", "SCOPING", "NONE"))
    assert fix_described(tree(tmp_path, st), "SL506", "SL507").startswith("Remove stale recovery frame 1")


def test_documentation_cycle_that_has_only_started_is_in_auditing(tmp_path):
    st = state(ws="DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL")
    root = tree(tmp_path, st)
    assert fix_described(root, "SL309") == "Set WorkflowState to AUDITING: the DOCUMENTATION cycle has only started"
    assert fixed(root, "SL309") == state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL")


def test_documentation_cycle_with_records_keeps_its_state_for_a_person(tmp_path):
    st = state(ws="DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="INITIAL")
    root = tree(tmp_path, st, record("DOCUMENTATION", "IN_PROGRESS"))
    (sl309,) = found(root, "SL309")
    assert sl309.fix is None


def test_handoff_type_follows_the_frame_it_pushed(tmp_path):
    st = state(ws="ARCHITECTING", kind="USER_REWORK", frm="TESTING", ft="DOCUMENTATION", active="true",
               frames=frame("TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING", "NONE"))
    root = tree(tmp_path, st)
    assert fix_described(root, "SL402") == "Set Handoff.FailureType to ARCHITECTURE, the type its USER_REWORK routed"
    assert "`Kind`: `USER_REWORK` `From`: `TESTING` `FailureType`: `ARCHITECTURE`" in fixed(root, "SL402", "SL403")


def test_same_state_failure_names_the_type_its_state_owns(tmp_path):
    st = state(ws="AUDITING", kind="FAILURE", frm="AUDITING", ft="SCOPING")
    root = tree(tmp_path, st)
    assert fix_described(root, "SL402") == "Set Handoff.FailureType to PROJECT_CONTEXT, the type its FAILURE routed"
    fixed(root, "SL402")
