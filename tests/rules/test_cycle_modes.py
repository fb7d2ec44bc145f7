"""Tests of rules/cycle_modes.py (SL300-SL318)."""

from __future__ import annotations

import subprocess

import pytest

from standards_lint.engine.run import lint

from .conftest import RUNTIME, write_tree

CID = "add-user-search-20261130T024240Z-721b3054"
OLD = "old-change-20261129T010101Z-0a1b2c3d"
GREENFIELD_MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `GREENFIELD`\n"


def make_state(
    ws="AUDITING",
    mode="STANDARD",
    pending_mode="UNSET",
    cid=CID,
    policy="FULL_DELIVERABLE",
    scope="NONE",
    architecture="NONE",
    development="NONE",
    promotion="NONE",
    blocked="NONE",
    cadence="NONE",
    baseline="`BaselineReconciliation`: `NONE`",
    kind="INITIAL",
    origin="NONE",
    recovery="`Active`: `false`",
    obligations="`Active`: `false`",
):
    request = "UNSET" if cid == "UNSET" else "Add user search."
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `{pending_mode}`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{cid}` `Request`: `{request}` `Scope`: `{scope}`
`Architecture`: `{architecture}` `Development`: `{development}` `PromotionReason`: `{promotion}`
`AuditTarget`: `NONE` `BlockedOn`: `{blocked}` `PendingVerificationCadence`: `{cadence}`

{baseline}

## Handoff

`Kind`: `{kind}` `From`: `{origin}` `FailureType`: `NONE` `Reason`: `A reason.`

## Recovery

{recovery}

## Outstanding Obligations

{obligations}
"""


# Line numbers in make_state: header line 3, Active Work lines 8-10
# (CompletionPolicy and Scope on 8, Architecture, Development and
# PromotionReason on 9, BlockedOn and PendingVerificationCadence on 10),
# BaselineReconciliation 12, Handoff 16, Recovery 20, obligations 24.
BASELINE_LIST = f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{OLD}`\n  `Request`: `Old change.`"
FRAME = """`Active`: `true`

### Frame 1

`From`: `TESTING` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`
`Reason`: `A defect.` `ResumeAt`: `TESTING` `RerunThrough`: `NONE`"""


def found(findings, code):
    return [(f.path, f.line) for f in findings if f.code == code]


def run(lint_tree, files=None, **kw):
    return lint_tree(files or {}, state=make_state(**kw))


STATE = ".standards/STATE.md"


def test_clean_states_have_no_cycle_mode_findings(lint_tree):
    for kw in (
        dict(cid="UNSET", mode="UNSET", policy="NONE"),
        dict(ws="AUDITING", mode="DOCUMENTATION", policy="NONE"),
        dict(ws="DEVELOPING", mode="EXPEDITED", policy="NONE", development=".standards/docs/development/x.md"),
        dict(ws="DOCUMENTING", mode="STANDARD", kind="FORWARD", origin="REVIEWING_IMPLEMENTATION"),
    ):
        findings = run(lint_tree, **kw)
        assert [f.code for f in findings if f.code.startswith("SL3")] == [], kw


@pytest.mark.parametrize(("code", "flagged", "line", "clean"), [
    pytest.param("SL300",
                 dict(ws="TESTING", mode="DOCUMENTATION", policy="NONE", kind="FORWARD", origin="DOCUMENTING"), 3,
                 dict(ws="DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="FORWARD", origin="ARCHITECTING"),
                 id="sl300-documentation-omitted-state"),
    pytest.param("SL301",
                 dict(ws="TESTING", mode="EXPEDITED", policy="NONE", kind="FORWARD", origin="DEVELOPING"), 3,
                 dict(ws="REVIEWING_IMPLEMENTATION", mode="EXPEDITED", policy="NONE", kind="FORWARD",
                      origin="DEVELOPING"),
                 id="sl301-expedited-omitted-state"),
    pytest.param("SL304", dict(cid="UNSET", mode="UNSET", policy="IMPLEMENTATION_REVIEWED"), 8,
                 dict(cid="UNSET", mode="UNSET", policy="NONE"), id="sl304-unstarted-policy"),
    pytest.param("SL306", dict(cid="UNSET", mode="UNSET", policy="NONE", kind="FAILURE"), 16,
                 dict(cid="UNSET", mode="UNSET", policy="NONE"), id="sl306-unstarted-handoff"),
    pytest.param("SL307", dict(ws="SCOPING", mode="UNSET"), 3,
                 dict(ws="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", origin="AWAITING_USER_SIGNOFF"),
                 id="sl307-active-cycle-mode-unset"),
    pytest.param("SL309",
                 dict(ws="DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="NEW_CYCLE", origin="SIGNED_OFF"), 3,
                 dict(ws="DOCUMENTING", mode="DOCUMENTATION", policy="NONE", kind="FORWARD", origin="ARCHITECTING"),
                 id="sl309-documentation-entry"),
    pytest.param("SL311",
                 dict(mode="DOCUMENTATION", policy="NONE", development=f".standards/docs/development/{CID}.md"), 9,
                 dict(mode="DOCUMENTATION", policy="NONE"), id="sl311-documentation-development"),
    pytest.param("SL312", dict(mode="DOCUMENTATION", policy="NONE", promotion="Need tests"), 9,
                 dict(mode="STANDARD", promotion="Need tests"), id="sl312-documentation-promotion"),
    pytest.param("SL313", dict(ws="DEVELOPING", mode="EXPEDITED", policy="NONE", scope=".standards/docs/scope/x.md"), 8,
                 dict(ws="DEVELOPING", mode="EXPEDITED", policy="NONE"), id="sl313-expedited-scope"),
    pytest.param("SL315", dict(ws="DEVELOPING", mode="EXPEDITED", policy="NONE", cadence="INCREMENTAL"), 10,
                 dict(ws="DEVELOPING", mode="EXPEDITED", policy="NONE", cadence="AFTER_IMPLEMENTATION"),
                 id="sl315-expedited-incremental"),
    pytest.param("SL318", dict(ws="SCOPING", mode="DOCUMENTATION", policy="NONE", kind="FORWARD", origin="AUDITING",
                               obligations="`Active`: `true`"), 24,
                 dict(ws="AUDITING", mode="STANDARD", kind="PROMOTE", origin="DEVELOPING", promotion="Tests",
                      obligations="`Active`: `true`"), id="sl318-documentation-obligations"),
])
def test_reported_at_its_field(lint_tree, code, flagged, line, clean):
    """*flagged* is reported at STATE.md's *line*; the *clean* state is not."""
    assert found(run(lint_tree, **flagged), code) == [(STATE, line)]
    assert found(run(lint_tree, **clean), code) == []


def test_sl302_implementation_reviewed_tail(lint_tree):
    kw = dict(ws="SYNCHRONIZING", policy="IMPLEMENTATION_REVIEWED", kind="FORWARD", origin="REVIEWING_FINAL")
    assert found(run(lint_tree, **kw), "SL302") == [(STATE, 3)]
    # Recovery routing may enter the omitted tail.
    frame = FRAME.replace("`Owner`: `DEVELOPING`", "`Owner`: `SYNCHRONIZING`").replace(
        "`FailureType`: `IMPLEMENTATION`", "`FailureType`: `SYNCHRONIZATION`"
    )
    assert found(run(lint_tree, recovery=frame, **kw), "SL302") == []
    assert found(run(lint_tree, **dict(kw, policy="FULL_DELIVERABLE")), "SL302") == []


def test_sl303_policy_mode_mismatch(lint_tree):
    f = run(lint_tree, ws="AUDITING", mode="DOCUMENTATION", policy="FULL_DELIVERABLE")
    hits = [x for x in f if x.code == "SL303"]
    assert [(x.path, x.line) for x in hits] == [(STATE, 8)]
    assert hits[0].fix is not None and hits[0].fix.edits[0].replacement == "NONE"
    f = run(lint_tree, ws="AUDITING", mode="STANDARD", policy="NONE")
    assert found(f, "SL303") == [(STATE, 8)]
    assert found(run(lint_tree, ws="AUDITING", mode="STANDARD", policy="IMPLEMENTATION_REVIEWED"), "SL303") == []


def test_sl303_no_fix_when_the_state_is_not_the_modes_either(lint_tree):
    # DOCUMENTING is not an EXPEDITED state (SL301): CycleMode may be the wrong field.
    f = run(lint_tree, ws="DOCUMENTING", mode="EXPEDITED", policy="FULL_DELIVERABLE")
    [hit] = [x for x in f if x.code == "SL303"]
    assert hit.fix is None
    f = run(lint_tree, ws="DEVELOPING", mode="EXPEDITED", policy="FULL_DELIVERABLE")
    [hit] = [x for x in f if x.code == "SL303"]
    assert hit.fix is not None and hit.fix.applicability == "unsafe"


def test_sl305_unstarted_workflow_state(lint_tree):
    f = run(lint_tree, ws="TESTING", cid="UNSET", mode="UNSET", policy="NONE")
    assert found(f, "SL305") == [(STATE, 3)]
    # GREENFIELD installs SCOPING.
    f = run(lint_tree, {".standards/MODE.md": GREENFIELD_MODE}, ws="SCOPING", cid="UNSET", mode="UNSET", policy="NONE")
    assert found(f, "SL305") == []
    f = run(lint_tree, {".standards/MODE.md": GREENFIELD_MODE}, ws="AUDITING", cid="UNSET", mode="UNSET", policy="NONE")
    assert found(f, "SL305") == [(STATE, 3)]


def test_sl308_greenfield_modes(lint_tree):
    gf = {".standards/MODE.md": GREENFIELD_MODE}
    f = run(lint_tree, gf, ws="SCOPING", cid="UNSET", mode="UNSET", policy="NONE", pending_mode="DOCUMENTATION")
    assert found(f, "SL308") == [(STATE, 3)]
    f = run(lint_tree, gf, ws="DEVELOPING", mode="EXPEDITED", policy="NONE")
    assert found(f, "SL308") == [(STATE, 3)]
    f = run(lint_tree, gf, ws="SCOPING", cid="UNSET", mode="UNSET", policy="NONE", pending_mode="STANDARD")
    assert found(f, "SL308") == []
    # BROWNFIELD supports every mode.
    f = run(lint_tree, ws="AUDITING", mode="DOCUMENTATION", policy="NONE")
    assert found(f, "SL308") == []


def test_sl310_documentation_cadence(lint_tree):
    f = run(lint_tree, mode="DOCUMENTATION", policy="NONE", cadence="INCREMENTAL")
    hits = [x for x in f if x.code == "SL310"]
    assert [(x.path, x.line) for x in hits] == [(STATE, 10)]
    assert hits[0].fix.applicability == "safe"
    assert found(run(lint_tree, mode="DOCUMENTATION", policy="NONE"), "SL310") == []


def test_sl314_expedited_baseline(lint_tree):
    f = run(lint_tree, ws="DEVELOPING", mode="EXPEDITED", policy="NONE", baseline=BASELINE_LIST)
    assert found(f, "SL314") == [(STATE, 12)]
    # A malformed list is another rule's problem.
    bad = f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{OLD}`"
    assert found(run(lint_tree, ws="DEVELOPING", mode="EXPEDITED", policy="NONE", baseline=bad), "SL314") == []
    assert found(run(lint_tree, ws="AUDITING", mode="STANDARD", baseline=BASELINE_LIST), "SL314") == []


def test_sl316_stale_pending_cadence(lint_tree):
    kw = dict(ws="REVIEWING_IMPLEMENTATION", cadence="INCREMENTAL", kind="FORWARD", origin="TESTING")
    hits = [x for x in run(lint_tree, **kw) if x.code == "SL316"]
    assert [(x.path, x.line) for x in hits] == [(STATE, 10)]
    assert hits[0].fix.edits[0].replacement == "NONE"
    # Before Reviewer, or while recovery still routes back to Developer (a
    # FAILURE into the Reviewer state entered nothing).
    assert found(run(lint_tree, **dict(kw, ws="TESTING")), "SL316") == []
    frame = FRAME.replace("`ResumeAt`: `TESTING`", "`ResumeAt`: `DEVELOPING`")
    assert found(run(lint_tree, recovery=frame, **dict(kw, kind="FAILURE")), "SL316") == []
    # A FORWARD or RESUME that enters the Reviewer state establishes the full
    # Developer and Tester gates "even if another recovery frame remains
    # active" (Full Verification Boundary): the frame schedules nothing more
    # (unseen4-0680).
    assert found(run(lint_tree, recovery=frame, **kw), "SL316") == [(STATE, 10)]
    assert found(run(lint_tree, recovery=frame, **dict(kw, kind="RESUME")), "SL316") == [(STATE, 10)]


def test_sl316_during_recovery_only_after_a_forward_or_resume_into_reviewer(lint_tree):
    # A frame that routes back to no Developer or Tester work: a RESUME into
    # REVIEWING_IMPLEMENTATION establishes the full gates, so the intent is
    # stale; with an unreadable kind (` RESUME`, SL220) that is unknown.
    frame = FRAME.replace("`Owner`: `DEVELOPING`", "`Owner`: `SCOPING`").replace(
        "`RerunThrough`: `NONE`", "`RerunThrough`: `REVIEWING_IMPLEMENTATION`")
    kw = dict(ws="REVIEWING_IMPLEMENTATION", cadence="AFTER_IMPLEMENTATION", origin="TESTING", recovery=frame)
    assert found(run(lint_tree, kind="RESUME", **kw), "SL316") == [(STATE, 10)]
    assert found(run(lint_tree, kind=" RESUME", **kw), "SL316") == []
    assert found(run(lint_tree, kind="FAILURE", **kw), "SL316") == []


def _git_tree(tmp_path, head_state, work_state):
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path)}
    files = dict(RUNTIME)
    files[STATE] = head_state
    write_tree(tmp_path, files)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", *args], cwd=tmp_path, env=env, check=True, capture_output=True)
    write_tree(tmp_path, {STATE: work_state})
    return lint(str(tmp_path), use_git=True).findings


def test_sl317_documentation_converted(tmp_path):
    head = make_state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE")
    f = _git_tree(tmp_path, head, make_state(ws="AUDITING", mode="STANDARD"))
    assert found(f, "SL317") == [(STATE, 3)]


def test_sl317_new_cycle_id_is_not_a_conversion(tmp_path):
    head = make_state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE")
    other = "next-change-20261130T030000Z-0b1c2d3e"
    f = _git_tree(tmp_path, head, make_state(ws="AUDITING", mode="STANDARD", cid=other))
    assert found(f, "SL317") == []


@pytest.mark.parametrize("ended", [("SIGNED_OFF", "SIGNOFF"), ("CANCELLED", "CANCEL")])
def test_sl317_documentation_cycle_under_the_id_the_last_commit_finished(tmp_path, ended):
    # The finished cycle's mode was reset to UNSET; the working tree carries its ID as a DOCUMENTATION cycle.
    ws, kind = ended
    head = make_state(ws=ws, mode="UNSET", kind=kind, origin="AUDITING")
    f = _git_tree(tmp_path, head, make_state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE", kind="NEW_CYCLE",
                                             origin=ws))
    assert found(f, "SL317") == [(STATE, 3)] and found(f, "SL261")


def test_sl317_a_terminal_state_that_kept_its_mode_finished_no_cycle(tmp_path):
    # CANCELLED with CycleMode kept (SL204 at that commit): the ending is unfinished, so no cycle was
    # finished under the ID: neither a conversion nor a reopened ID (SL261).
    head = make_state(ws="CANCELLED", mode="STANDARD", kind="CANCEL", origin="AUDITING")
    f = _git_tree(tmp_path, head, make_state(ws="AUDITING", mode="DOCUMENTATION", policy="NONE", kind="NEW_CYCLE",
                                             origin="CANCELLED"))
    assert found(f, "SL317") == [] and found(f, "SL261") == []


def test_sl317_a_new_standard_cycle_under_a_finished_id_is_sl261_only(tmp_path):
    head = make_state(ws="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", origin="AWAITING_USER_SIGNOFF")
    f = _git_tree(tmp_path, head, make_state(ws="AUDITING", kind="NEW_CYCLE", origin="SIGNED_OFF"))
    assert found(f, "SL317") == [] and found(f, "SL261")


def test_conflicted_state_silences_cycle_mode_rules(lint_tree):
    state = make_state(ws="TESTING", mode="DOCUMENTATION", policy="NONE").replace(
        "## Handoff", "<<<<<<< HEAD\n=======\n>>>>>>> other\n\n## Handoff"
    )
    f = lint_tree({}, state=state)
    assert [x.code for x in f if x.code.startswith("SL3")] == []


def test_sl319_standard_to_expedited_in_place(tmp_path):
    head = make_state(ws="DEVELOPING", mode="STANDARD", kind="FORWARD", origin="ARCHITECTING")
    work = make_state(ws="DEVELOPING", mode="EXPEDITED", policy="NONE", kind="FORWARD", origin="ARCHITECTING")
    f = _git_tree(tmp_path, head, work)
    assert found(f, "SL319") == [(STATE, 3)]
    assert found(f, "SL317") == []


def test_sl319_promotion_is_allowed(tmp_path):
    head = make_state(ws="DEVELOPING", mode="EXPEDITED", policy="NONE")
    work = make_state(ws="AUDITING", mode="STANDARD", kind="PROMOTE", origin="DEVELOPING", promotion="Need tests")
    f = _git_tree(tmp_path, head, work)
    assert found(f, "SL319") == []


def test_sl302_reads_what_recovery_active_declares(lint_tree):
    kw = dict(ws="SYNCHRONIZING", policy="IMPLEMENTATION_REVIEWED", origin="REVIEWING_FINAL")
    frame = FRAME.replace("`Owner`: `DEVELOPING`", "`Owner`: `SYNCHRONIZING`").replace(
        "`FailureType`: `IMPLEMENTATION`", "`FailureType`: `SYNCHRONIZATION`"
    )
    # A frame under `Active`: `false` (SL501): the recovery is not active, so
    # the omitted tail is entered without it.
    stray = frame.replace("`Active`: `true`", "`Active`: `false`")
    assert stray != frame
    f = run(lint_tree, recovery=stray, **kw)
    assert found(f, "SL302") == [(STATE, 3)] and found(f, "SL501")
