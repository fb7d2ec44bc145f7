"""Tests of rules/handoff.py (SL401-SL420)."""

from __future__ import annotations

import pytest

from .conftest import BROWNFIELD_MODE

STATE = ".standards/STATE.md"
GREENFIELD_MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `GREENFIELD`\n"

TEMPLATE = """# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `add-user-search-20260923T150000Z-a7f3c2e9` `Request`: `Add user search.`
`Scope`: `NONE` `Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `{promotion}`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `{ft}` `Reason`:
`{reason}`

## Recovery

`Active`: `{active}`
{frames}
## Outstanding Obligations

`Active`: `{ob_active}`
{obligations}"""


def frame(n, frm, owner, ft, resume=None, rerun="NONE"):
    return (
        f"\n### Frame {n}\n\n`From`: `{frm}` `Owner`: `{owner}` `FailureType`: `{ft}`\n"
        f"`Reason`: `A defect.` `ResumeAt`: `{resume or frm}` `RerunThrough`: `{rerun}`\n"
    )


OBLIGATION = "\n### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION` `Reason`: `Old limit.`\n"


def state(*frames, ws="ARCHITECTING", mode="STANDARD", policy=None, kind="FORWARD", frm="SCOPING",
          ft="NONE", reason="Scope completed.", promotion="NONE", active=None, obligations=False):
    if policy is None:
        policy = "FULL_DELIVERABLE" if mode == "STANDARD" else "NONE"
    return TEMPLATE.format(
        ws=ws, mode=mode, policy=policy, kind=kind, frm=frm, ft=ft, reason=reason, promotion=promotion,
        active=active or ("true" if frames else "false"), frames="".join(frames),
        ob_active="true" if obligations else "false", obligations=OBLIGATION if obligations else "",
    )


def line_of(text, needle, nth=0):
    lines = [i for i, line in enumerate(text.split("\n"), start=1) if needle in line]
    return lines[nth]


@pytest.fixture
def run(lint_tree):
    def go(text, code, mode_file=BROWNFIELD_MODE, extra=None):
        files = {".standards/MODE.md": mode_file}
        files.update(extra or {})
        return [f for f in lint_tree(files, state=text) if f.code == code]

    return go


def one(findings, text, needle, code):
    assert [f.code for f in findings] == [code]
    f = findings[0]
    assert f.path == STATE
    assert f.line == line_of(text, needle)
    return f


# -- one finding at the field the rule names, its message saying why --------------
@pytest.mark.parametrize(("text", "code", "needle", "says"), [
    pytest.param(state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE"), kind="FAILURE", frm="TESTING", ft="NONE"),
                 "SL401", "`Kind`: `FAILURE`", ("FAILURE handoff must name the FailureType",),
                 id="sl401-failure-without-failure-type"),
    pytest.param(state(ws="SCOPING", kind="USER_REWORK", frm="SCOPING", ft="NONE"),
                 "SL401", "`Kind`: `USER_REWORK`", ("earliest work the change invalidates",),
                 id="sl401-user-rework-without-failure-type"),
    pytest.param(state(ws="SCOPING", kind="FAILURE", frm="SCOPING", ft="ARCHITECTURE"),
                 "SL402", "`WorkflowState`", ("ARCHITECTURE failure belongs to ARCHITECTING", "SCOPING"),
                 id="sl402-failure-routed-to-wrong-state"),
    pytest.param(state(ws="ARCHITECTING", kind="FAILURE", frm="TESTING", ft="ARCHITECTURE"),
                 "SL403", "`Active`: `false`", ("`From`: `TESTING` and `Owner`: `ARCHITECTING`",),
                 id="sl403-state-changing-failure-without-frame"),
    pytest.param(state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE"),
                       frame(2, "ARCHITECTING", "SCOPING", "SCOPING"),
                       ws="ARCHITECTING", kind="FAILURE", frm="TESTING", ft="ARCHITECTURE"),
                 "SL403", "### Frame 2", ("Frame 2",), id="sl403-last-frame-in-document-order-must-match"),
    pytest.param(state(ws="DOCUMENTING", mode="DOCUMENTATION", kind="FAILURE", frm="DOCUMENTING", ft="VERIFICATION"),
                 "SL404", "`Kind`: `FAILURE`", ("omits the TESTER", "BlockedOn"),
                 id="sl404-documentation-cannot-route-to-omitted-owner"),
    pytest.param(state(ws="DOCUMENTING", mode="DOCUMENTATION", kind="USER_REWORK", frm="DOCUMENTING", ft="REVIEW"),
                 "SL404", "`WorkflowState`", ("REVIEWING_FINAL",),
                 id="sl404-documentation-review-goes-to-final-review"),
    pytest.param(state(frame(1, "TESTING", "AUDITING", "PROJECT_CONTEXT"), ws="AUDITING", mode="DOCUMENTATION",
                       kind="FAILURE", frm="TESTING", ft="PROJECT_CONTEXT"),
                 "SL408", "`Kind`: `FAILURE`", ("`TESTING`",), id="sl408-documentation-failure-from-omitted-state"),
    pytest.param(state(ws="REVIEWING_FINAL", mode="DOCUMENTATION", kind="FORWARD", frm="ARCHITECTING"),
                 "SL410", "`Kind`: `FORWARD`", ("ARCHITECTING -> REVIEWING_FINAL",),
                 id="sl410-documentation-forward-skip"),
    pytest.param(state(ws="SCOPING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 2 ready."),
                 "SL411", "`Kind`: `CHECKPOINT`", ("DEVELOPING -> SCOPING",),
                 id="sl411-checkpoint-outside-developer-tester-exchange"),
    pytest.param(state(ws="REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="DEVELOPING", reason="Implementation done."),
                 "SL420", "`Kind`: `FORWARD`", ("DEVELOPING -> REVIEWING_IMPLEMENTATION", "TESTING"),
                 id="sl420-standard-forward-skip"),
])
def test_reported(run, text, code, needle, says):
    f = one(run(text, code), text, needle, code)
    assert all(part in f.message for part in says), f.message


# -- no finding --------------------------------------------------------------------
@pytest.mark.parametrize(("text", "code"), [
    pytest.param(state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE"), kind="FAILURE", frm="TESTING",
                       ft="ARCHITECTURE"), "SL401", id="sl401-failure-with-failure-type"),
    # An unknown failure type is left to the structure rules.
    pytest.param(state(ws="SCOPING", kind="FAILURE", frm="SCOPING", ft="TODO"), "SL402",
                 id="sl402-unknown-failure-type"),
    pytest.param(state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE"), ws="ARCHITECTING", kind="FAILURE",
                       frm="TESTING", ft="ARCHITECTURE"), "SL403", id="sl403-matching-frame"),
    pytest.param(state(ws="SCOPING", kind="USER_REWORK", frm="SCOPING", ft="SCOPING"), "SL403",
                 id="sl403-same-state-failure"),
    pytest.param(state(ws="REVIEWING_FINAL", mode="DOCUMENTATION", kind="FAILURE", frm="REVIEWING_FINAL", ft="REVIEW"),
                 "SL404", id="sl404-documentation-included-owner"),
    pytest.param(state(ws="DOCUMENTING", mode="STANDARD", kind="FAILURE", frm="DOCUMENTING", ft="VERIFICATION"),
                 "SL404", id="sl404-standard-cycle"),
    pytest.param(state(ws="REVIEWING_FINAL", mode="DOCUMENTATION", kind="FORWARD", frm="DOCUMENTING", ft="NONE"),
                 "SL405", id="sl405-documentation-forward-without-failure-type"),
    pytest.param(state(ws="TESTING", mode="STANDARD", kind="FORWARD", frm="DEVELOPING", ft="REVIEW"),
                 "SL405", id="sl405-standard-cycle"),
    pytest.param(state(ws="DOCUMENTING", mode="DOCUMENTATION", kind="FORWARD", frm="ARCHITECTING"),
                 "SL410", id="sl410-documentation-forward-step"),
])
def test_not_reported(run, text, code):
    assert run(text, code) == []


# -- SL402 -------------------------------------------------------------------------
def test_review_rework_may_go_to_either_reviewer_state(run):
    for ws in ("REVIEWING_IMPLEMENTATION", "REVIEWING_FINAL"):
        text = state(ws=ws, kind="USER_REWORK", frm=ws, ft="REVIEW")
        assert run(text, "SL402") == []
    text = state(ws="DOCUMENTING", kind="USER_REWORK", frm="DOCUMENTING", ft="REVIEW")
    f = one(run(text, "SL402"), text, "`WorkflowState`", "SL402")
    assert "REVIEW rework" in f.message


# -- SL405 -------------------------------------------------------------------------
def test_documentation_forward_with_failure_type(run):
    text = state(ws="REVIEWING_FINAL", mode="DOCUMENTATION", kind="FORWARD", frm="DOCUMENTING", ft="REVIEW")
    f = one(run(text, "SL405"), text, "`Kind`: `FORWARD`", "SL405")
    assert f.fix is not None and f.fix.applicability == "unsafe"


# -- SL407 -------------------------------------------------------------------------
def test_documentation_initial_from_must_be_none(run):
    text = state(ws="AUDITING", mode="DOCUMENTATION", kind="INITIAL", frm="SCOPING")
    f = one(run(text, "SL407"), text, "`Kind`: `INITIAL`", "SL407")
    assert f.fix is not None


def test_documentation_new_cycle_from_terminal_state(run):
    text = state(ws="AUDITING", mode="DOCUMENTATION", kind="NEW_CYCLE", frm="SCOPING")
    f = one(run(text, "SL407"), text, "`Kind`: `NEW_CYCLE`", "SL407")
    assert "SIGNED_OFF or CANCELLED" in f.message and f.fix is None
    for frm in ("SIGNED_OFF", "CANCELLED"):
        assert run(state(ws="AUDITING", mode="DOCUMENTATION", kind="NEW_CYCLE", frm=frm), "SL407") == []
    assert run(state(ws="AUDITING", mode="DOCUMENTATION", kind="INITIAL", frm="NONE"), "SL407") == []


# -- SL408 / SL409 -----------------------------------------------------------------
def test_documentation_resume_from_signoff_is_not_a_role(run):
    text = state(ws="SCOPING", mode="DOCUMENTATION", kind="RESUME", frm="AWAITING_USER_SIGNOFF")
    assert run(text, "SL408") == []
    one(run(text, "SL409"), text, "`Kind`: `RESUME`", "SL409")


def test_documentation_resume_from_included_role_is_fine(run):
    text = state(ws="ARCHITECTING", mode="DOCUMENTATION", kind="RESUME", frm="SCOPING")
    assert run(text, "SL408") == [] and run(text, "SL409") == []


# -- SL411 / SL412 -----------------------------------------------------------------
def test_checkpoint_during_recovery(run):
    text = state(frame(1, "DEVELOPING", "TESTING", "VERIFICATION"), ws="TESTING", kind="CHECKPOINT",
                 frm="DEVELOPING", reason="Increment 1 ready.")
    f = one(run(text, "SL411"), text, "`Kind`: `CHECKPOINT`", "SL411")
    assert "recovery is active" in f.message
    assert run(text, "SL412") == []


def test_checkpoint_reason_names_one_increment(run):
    text = state(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 and Increment 2 ready.")
    assert run(text, "SL411") == []
    f = run(text, "SL412")
    assert [x.code for x in f] == ["SL412"] and f[0].line == line_of(text, "`Increment 1 and")
    text = state(ws="DEVELOPING", kind="CHECKPOINT", frm="TESTING", reason="Increment 1 verified.")
    assert run(text, "SL411") == [] and run(text, "SL412") == []


# -- SL413 / SL414 -----------------------------------------------------------------
def test_promote_needs_reason(run):
    text = state(ws="AUDITING", kind="PROMOTE", frm="DEVELOPING", promotion="NONE")
    one(run(text, "SL413"), text, "`PromotionReason`", "SL413")
    text = state(ws="AUDITING", kind="PROMOTE", frm="DEVELOPING", promotion="Needs Tester-owned verification.")
    assert run(text, "SL413") == []


def test_promote_sets_standard_auditing(run):
    text = state(ws="ARCHITECTING", kind="PROMOTE", frm="TESTING", promotion="Needs formal scope.")
    f = one(run(text, "SL414"), text, "`WorkflowState`", "SL414")
    assert "STANDARD and ARCHITECTING" in f.message
    text = state(ws="AUDITING", kind="PROMOTE", frm="DEVELOPING", promotion="Needs formal scope.")
    assert run(text, "SL414") == []


# -- SL415 - SL418 -----------------------------------------------------------------
def test_completion_change_route(run):
    text = state(ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
                 frm="TESTING", reason="User selected IMPLEMENTATION_REVIEWED.")
    one(run(text, "SL415"), text, "`Kind`: `COMPLETION_CHANGE`", "SL415")
    for frm, ws, policy in (("DOCUMENTING", "REVIEWING_IMPLEMENTATION", "IMPLEMENTATION_REVIEWED"),
                            ("AWAITING_USER_SIGNOFF", "DOCUMENTING", "FULL_DELIVERABLE")):
        text = state(ws=ws, policy=policy, kind="COMPLETION_CHANGE", frm=frm, reason="User changed the policy.")
        assert run(text, "SL415") == []


def test_completion_change_needs_no_recovery_or_obligations(run):
    text = state(ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
                 frm="DOCUMENTING", reason="User selected IMPLEMENTATION_REVIEWED.", obligations=True)
    f = one(run(text, "SL416"), text, "`Active`: `true`", "SL416")
    assert "outstanding obligations remain" in f.message
    text = state(ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
                 frm="DOCUMENTING", reason="User selected IMPLEMENTATION_REVIEWED.")
    assert run(text, "SL416") == []


def test_completion_change_reason_and_failure_type(run):
    text = state(ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
                 frm="DOCUMENTING", reason="NONE", ft="REVIEW")
    f = run(text, "SL417")
    assert [x.code for x in f] == ["SL417"] and f[0].line == line_of(text, "`Reason`:") + 1
    f = one(run(text, "SL418"), text, "`Kind`: `COMPLETION_CHANGE`", "SL418")
    assert f.fix is not None
    text = state(ws="REVIEWING_IMPLEMENTATION", policy="IMPLEMENTATION_REVIEWED", kind="COMPLETION_CHANGE",
                 frm="DOCUMENTING", reason="User selected IMPLEMENTATION_REVIEWED.")
    assert run(text, "SL417") == [] and run(text, "SL418") == []


# -- SL420 (beyond the checker) ----------------------------------------------------
def test_standard_forward_follows_project_mode_route(run):
    gf = state(ws="AUDITING", kind="FORWARD", frm="ARCHITECTING")
    assert run(gf, "SL420", mode_file=GREENFIELD_MODE) == []
    one(run(gf, "SL420", mode_file=BROWNFIELD_MODE), gf, "`Kind`: `FORWARD`", "SL420")
    bf = state(ws="DEVELOPING", kind="FORWARD", frm="ARCHITECTING")
    assert run(bf, "SL420", mode_file=BROWNFIELD_MODE) == []
    one(run(bf, "SL420", mode_file=GREENFIELD_MODE), bf, "`Kind`: `FORWARD`", "SL420")


def test_recovery_and_other_kinds_are_left_alone(run):
    # A recovery-directed jump recorded as RESUME is not checked.
    assert run(state(ws="TESTING", kind="RESUME", frm="ARCHITECTING"), "SL420") == []
    # During recovery a greenfield-started cycle (now BROWNFIELD) may still step ARCHITECTING -> AUDITING.
    text = state(frame(1, "TESTING", "ARCHITECTING", "ARCHITECTURE", rerun="DEVELOPING"), ws="AUDITING",
                 kind="FORWARD", frm="ARCHITECTING")
    assert run(text, "SL420") == []


def test_expedited_forward(run):
    ok = state(ws="REVIEWING_IMPLEMENTATION", mode="EXPEDITED", kind="FORWARD", frm="DEVELOPING")
    assert run(ok, "SL420") == []
    bad = state(ws="DEVELOPING", mode="EXPEDITED", kind="FORWARD", frm="DEVELOPING")
    one(run(bad, "SL420"), bad, "`Kind`: `FORWARD`", "SL420")


# -- tolerance ---------------------------------------------------------------------
def test_repeated_handoff_field_is_read_as_its_first_occurrence(run):
    # As the framework's checker reads it; SL223 reports the repetition.
    single = state(ws="SCOPING", kind="FAILURE", frm="SCOPING", ft="ARCHITECTURE")
    text = single.replace("`FailureType`: `ARCHITECTURE`", "`FailureType`: `ARCHITECTURE` `FailureType`: `SCOPING`")
    assert run(single, "SL402") != []
    for code in ("SL401", "SL402", "SL404"):
        assert [f.message for f in run(text, code)] == [f.message for f in run(single, code)]
    assert run(text, "SL223") != []


def test_missing_handoff_section_keeps_rules_silent(run):
    no_handoff = state().replace("## Handoff", "## Handover")
    for code in ("SL401", "SL410", "SL420"):
        assert run(no_handoff, code) == []


def test_merge_conflict_suspends_the_rules(run):
    text = state(ws="SCOPING", kind="FAILURE", frm="SCOPING", ft="ARCHITECTURE")
    assert run(text, "SL402") != []
    conflicted = BROWNFIELD_MODE + "<<<<<<< HEAD\n=======\n>>>>>>> other\n"
    assert run(text, "SL402", mode_file=conflicted) == []


# -- SL419 / SL421 (beyond the checker) --------------------------------------------
def test_non_failure_handoff_with_failure_type(run):
    text = state(ws="AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", kind="RESUME",
                 frm="REVIEWING_IMPLEMENTATION", ft="SYNCHRONIZATION")
    f = one(run(text, "SL419"), text, "`Kind`: `RESUME`", "SL419")
    assert "SYNCHRONIZATION" in f.message and f.fix is not None
    text = state(ws="SIGNED_OFF", mode="UNSET", kind="CANCEL", frm="TESTING", ft="REVIEW")
    f = one(run(text, "SL419"), text, "`Kind`: `CANCEL`", "SL419")
    assert f.message.startswith("A CANCEL")


def test_non_failure_handoff_rule_leaves_other_codes_alone(run):
    # DOCUMENTATION forward handoffs are SL405; unknown values are SL222; failures need a type.
    assert run(state(ws="REVIEWING_FINAL", mode="DOCUMENTATION", frm="DOCUMENTING", ft="REVIEW"), "SL419") == []
    assert run(state(ws="ARCHITECTING", frm="SCOPING", ft="TODO"), "SL419") == []
    assert run(state(ws="ARCHITECTING", kind="FAILURE", frm="TESTING", ft="ARCHITECTURE"), "SL419") == []


def test_cycle_entry_origin_outside_documentation(run):
    text = state(ws="REVIEWING_IMPLEMENTATION", kind="NEW_CYCLE", frm="ARCHITECTING")
    f = one(run(text, "SL421"), text, "`Kind`: `NEW_CYCLE`", "SL421")
    assert f.fix is None
    text = state(ws="AUDITING", kind="INITIAL", frm="TESTING")
    f = one(run(text, "SL421"), text, "`Kind`: `INITIAL`", "SL421")
    assert f.fix is not None
    assert run(state(ws="AUDITING", kind="NEW_CYCLE", frm="CANCELLED"), "SL421") == []
    assert run(state(ws="AUDITING", kind="INITIAL", frm="NONE"), "SL421") == []
    # DOCUMENTATION cycles are SL407's.
    assert run(state(ws="AUDITING", mode="DOCUMENTATION", kind="INITIAL", frm="TESTING"), "SL421") == []


# -- an Active flag that contradicts its stack: rules read the declaration -------------
def test_checkpoint_reads_what_recovery_active_declares(run):
    cp = dict(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")
    # Active `true` with no frames (SL501): the recovery is declared active.
    declared = state(**cp, active="true")
    assert run(declared, "SL501") and run(declared, "SL411")
    # A frame under Active `false` (SL501): the declaration says inactive, so the
    # checkpoint itself is not reported for an active recovery.
    stray = state(frame(1, "DEVELOPING", "TESTING", "VERIFICATION"), **cp, active="false")
    assert run(stray, "SL501") and not run(stray, "SL411")
