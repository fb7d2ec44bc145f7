"""Tests of rules/state_structure.py (SL200-SL223)."""

from __future__ import annotations

import pytest

from .conftest import CLEAN_STATE

STATE = ".standards/STATE.md"
ID = "add-user-search-20260923T150000Z-a7f3c2e9"
OTHER = "change-cache-20260101T000000Z-0a1b2c3d"

ACTIVE = f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{ID}` `Request`: `Add user search.`
`Scope`: `NONE` `Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `FORWARD` `From`: `SCOPING` `FailureType`: `NONE` `Reason`: `Scope done.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


def only(findings, code):
    return [f for f in findings if f.code == code]


def where(f):
    return (f.path, f.line)


def reported_at(lint_tree, state, code, *lines):
    """The *code* findings of the STATE.md *state*: one on each of its
    *lines*, in order."""
    f = only(lint_tree({}, state=state), code)
    assert [where(x) for x in f] == [(STATE, line) for line in lines]
    return f


def baseline(entries: str, state: str = ACTIVE) -> str:
    return state.replace("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`:\n" + entries)


# -- clean ----------------------------------------------------------------------
@pytest.mark.parametrize("state", [CLEAN_STATE, ACTIVE])
def test_clean_states_have_no_structure_findings(lint_tree, state):
    assert [f for f in lint_tree({}, state=state) if f.code.startswith("SL2")] == []


def test_clean_baseline_list_is_accepted(lint_tree):
    state = baseline(f"\n- `SourceCycle`: `{OTHER}`\n  `Request`: `Change the cache.`\n")
    assert [f for f in lint_tree({}, state=state) if f.code.startswith("SL21")] == []


# -- SL200 ----------------------------------------------------------------------
def test_wrong_title(lint_tree):
    state = ACTIVE.replace("# S.T.A.N.D.A.R.D.S. Workflow State", "# Workflow state")
    f = reported_at(lint_tree, state, "SL200", 1)
    assert f[0].fix is not None


def test_missing_title(lint_tree):
    state = ACTIVE.replace("# S.T.A.N.D.A.R.D.S. Workflow State\n", "")
    assert len(only(lint_tree({}, state=state), "SL200")) == 1


# -- SL201 ----------------------------------------------------------------------
def test_miscased_section_is_missing(lint_tree):
    state = ACTIVE.replace("## Handoff", "## handoff")
    f = reported_at(lint_tree, state, "SL201", 14)
    assert "`## Handoff`" in f[0].message


def test_repeated_section_points_at_second(lint_tree):
    state = ACTIVE + "\n## Recovery\n\n`Active`: `false`\n"
    reported_at(lint_tree, state, "SL201", 26)


def test_sections_once_are_fine(lint_tree):
    assert only(lint_tree({}, state=ACTIVE), "SL201") == []


# -- SL202 ----------------------------------------------------------------------
def test_missing_header_field(lint_tree):
    state = ACTIVE.replace(" `PendingCycleMode`: `UNSET`", "")
    f = reported_at(lint_tree, state, "SL202", 1)
    assert "PendingCycleMode" in f[0].message


@pytest.mark.parametrize("drift,name,value", [
    ("`cycleMode`: `STANDARD`", "CycleMode", "STANDARD"),
    ("`COMPLETIONPOLICY`: `FULL_DELIVERABLE`", "CompletionPolicy", "FULL_DELIVERABLE"),
    (f"`id`: `{ID}`", "Id", ID),
])
def test_a_field_name_in_another_case_is_missing_and_its_fix_respells_the_name(lint_tree, tmp_path, drift, name, value):
    # The checker reads `cycleMode` as no CycleMode at all; the value is the
    # author's, so the fix respells the name and never infers another value
    # (an inferred `CycleMode` could contradict the one written).
    state = ACTIVE.replace(f"`{name}`: `{value}`", drift)
    f = only(lint_tree({}, state=state), "SL202")
    assert len(f) == 1 and name in f[0].message and "letter case" in f[0].message
    (edit,) = f[0].fix.edits
    assert f[0].fix.applicability == "safe"
    assert state[edit.start:edit.end] == drift.split(":")[0] and edit.replacement == f"`{name}`"
    fixed = state[:edit.start] + edit.replacement + state[edit.end:]
    assert fixed == ACTIVE


def test_two_case_drifted_copies_get_no_respelling(lint_tree):
    state = ACTIVE.replace("`CycleMode`: `STANDARD`", "`cycleMode`: `STANDARD` `CYCLEMODE`: `EXPEDITED`")
    f = only(lint_tree({}, state=state), "SL202")
    assert len(f) == 1 and "letter case" not in f[0].message


def test_repeated_active_work_field_points_at_repeat_with_safe_fix(lint_tree):
    state = ACTIVE.replace("`Scope`: `NONE`", "`Scope`: `NONE` `Scope`: `NONE`")
    f = reported_at(lint_tree, state, "SL202", 9)
    assert f[0].fix is not None and f[0].fix.applicability == "safe"


def test_empty_value(lint_tree):
    state = ACTIVE.replace("`Request`: `Add user search.`", "`Request`: ``")
    reported_at(lint_tree, state, "SL202", 8)


def test_missing_cadence_in_documentation_cycle_has_safe_fix(lint_tree):
    state = ACTIVE.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `DOCUMENTATION`").replace(
        " `PendingVerificationCadence`: `NONE`", "")
    f = reported_at(lint_tree, state, "SL202", 6)
    assert f[0].fix.edits[0].replacement == " `PendingVerificationCadence`: `NONE`"


def test_missing_cadence_in_standard_cycle_has_unsafe_fix(lint_tree):
    # Start a cycle initializes it NONE; a pending request may have been lost.
    state = ACTIVE.replace(" `PendingVerificationCadence`: `NONE`", "")
    f = only(lint_tree({}, state=state), "SL202")
    assert len(f) == 1 and f[0].fix.applicability == "unsafe"
    assert f[0].fix.edits[0].replacement == " `PendingVerificationCadence`: `NONE`"


def test_missing_cadence_has_no_fix_when_the_request_names_a_cadence(lint_tree):
    state = ACTIVE.replace(" `PendingVerificationCadence`: `NONE`", "").replace(
        "`Request`: `Add user search.`", "`Request`: `Add user search, verified INCREMENTAL.`")
    f = only(lint_tree({}, state=state), "SL202")
    assert len(f) == 1 and f[0].fix is None


def test_missing_completion_policy_before_any_cycle_has_fix(lint_tree):
    state = CLEAN_STATE.replace("`CompletionPolicy`: `NONE` ", "")
    f = only(lint_tree({}, state=state), "SL202")
    assert len(f) == 1 and "`CompletionPolicy`: `NONE`" in f[0].fix.edits[0].replacement


def test_missing_recovery_active(lint_tree):
    state = ACTIVE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n")
    reported_at(lint_tree, state, "SL202", 18)


def test_missing_handoff_reason(lint_tree):
    state = ACTIVE.replace(" `Reason`: `Scope done.`", "")
    reported_at(lint_tree, state, "SL202", 14)


def test_repeated_handoff_field_is_not_sl202(lint_tree):
    state = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `FORWARD` `Kind`: `FORWARD`")
    assert only(lint_tree({}, state=state), "SL202") == []


def test_fields_of_a_missing_section_are_not_reported(lint_tree):
    state = ACTIVE.replace("## Handoff", "## Notes").replace(" `Reason`: `Scope done.`", "")
    assert [f for f in only(lint_tree({}, state=state), "SL202") if "Reason" in f.message] == []


def test_fields_of_a_mis_cased_section_are_read(lint_tree):
    # `## handoff` is found (and SL201 respells it): its missing Reason is reported.
    state = ACTIVE.replace("## Handoff", "## handoff").replace(" `Reason`: `Scope done.`", "")
    got = lint_tree({}, state=state)
    assert only(got, "SL201") and [f for f in only(got, "SL202") if "Reason" in f.message]


# -- SL203 ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "old,new,line",
    [
        ("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `TODO`", 3),
        ("`CycleMode`: `STANDARD`", "`CycleMode`: `standard`", 3),
        ("`PendingCycleMode`: `UNSET`", "`PendingCycleMode`: `<UNSET>`", 3),
        ("`CompletionPolicy`: `FULL_DELIVERABLE`", "`CompletionPolicy`: `FULL`", 8),
        ("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `NONES`", 10),
        ("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `no`", 20),
    ],
)
def test_invalid_enum_values(lint_tree, old, new, line):
    reported_at(lint_tree, ACTIVE.replace(old, new), "SL203", line)


def test_valid_enum_values(lint_tree):
    assert only(lint_tree({}, state=ACTIVE), "SL203") == []


# -- SL204 ----------------------------------------------------------------------
def test_terminal_state_keeps_cycle_mode(lint_tree):
    state = ACTIVE.replace("`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `SIGNED_OFF`")
    f = reported_at(lint_tree, state, "SL204", 3)
    assert f[0].fix.applicability == "unsafe" and f[0].fix.edits[0].replacement == "UNSET"


def test_terminal_state_with_unset_mode(lint_tree):
    state = ACTIVE.replace("`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD`",
                           "`WorkflowState`: `CANCELLED` `CycleMode`: `UNSET`")
    assert only(lint_tree({}, state=state), "SL204") == []


# -- SL205 ----------------------------------------------------------------------
def test_request_without_blocker(lint_tree):
    state = ACTIVE.replace("`PendingCycleRequest`: `UNSET`", "`PendingCycleRequest`: `Add search.`")
    reported_at(lint_tree, state, "SL205", 4)


def test_blocker_without_request(lint_tree):
    state = ACTIVE.replace("`PendingCycleBlockedOn`: `NONE`", "`PendingCycleBlockedOn`: `Which mode?`")
    assert len(only(lint_tree({}, state=state), "SL205")) == 1


def test_paired_request_and_blocker(lint_tree):
    state = ACTIVE.replace("`PendingCycleRequest`: `UNSET`", "`PendingCycleRequest`: `Add search.`").replace(
        "`PendingCycleBlockedOn`: `NONE`", "`PendingCycleBlockedOn`: `Which mode?`")
    assert only(lint_tree({}, state=state), "SL205") == []


# -- SL206 ----------------------------------------------------------------------
def test_inactive_cycle_with_pending_cadence(lint_tree):
    state = CLEAN_STATE.replace("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `INCREMENTAL`")
    f = reported_at(lint_tree, state, "SL206", 10)
    assert f[0].fix.applicability == "safe"


def test_started_cycle_with_cycle_mode_unset_is_not_an_inactive_cadence(lint_tree):
    # The cycle has an ID, so it is active; CycleMode UNSET is the cycle-mode rules' finding.
    state = ACTIVE.replace("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `INCREMENTAL`")
    state = state.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `UNSET`")
    assert "`CycleMode`: `UNSET`" in state
    assert only(lint_tree({}, state=state), "SL206") == []


def test_active_cycle_may_have_pending_cadence(lint_tree):
    state = ACTIVE.replace("`PendingVerificationCadence`: `NONE`", "`PendingVerificationCadence`: `INCREMENTAL`")
    assert only(lint_tree({}, state=state), "SL206") == []


# -- SL210 / SL211 --------------------------------------------------------------
def test_missing_baseline(lint_tree):
    state = ACTIVE.replace("`BaselineReconciliation`: `NONE`\n", "")
    reported_at(lint_tree, state, "SL210", 6)


@pytest.mark.parametrize(
    "old,new",
    [
        ("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`: `[]`"),
        ("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`: `NONE` `BaselineReconciliation`: `NONE`"),
        ("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`:"),
    ],
)
def test_baseline_format(lint_tree, old, new):
    reported_at(lint_tree, ACTIVE.replace(old, new), "SL211", 12)


def test_baseline_none_is_fine(lint_tree):
    assert only(lint_tree({}, state=ACTIVE), "SL211") == []


# -- SL212 - SL215 ------------------------------------------------------------------
def test_incomplete_entry(lint_tree):
    state = baseline(f"- `SourceCycle`: `{OTHER}`\n")
    found = lint_tree({}, state=state)
    f = only(found, "SL212")
    assert [where(x) for x in f] == [(STATE, 13)]


def test_incomplete_entry_suppresses_source_checks(lint_tree):
    state = baseline("- `SourceCycle`: `not-an-id`\n- `SourceCycle`: `not-an-id`\n  `Request`: `Again.`\n")
    found = lint_tree({}, state=state)
    assert len(only(found, "SL212")) == 1
    assert only(found, "SL213") == [] and only(found, "SL214") == []


def test_source_not_cycle_id(lint_tree):
    state = baseline("- `SourceCycle`: `old-cycle-1`\n  `Request`: `Old work.`\n")
    reported_at(lint_tree, state, "SL213", 13)


def test_duplicate_source_with_fix(lint_tree):
    state = baseline(f"- `SourceCycle`: `{OTHER}`\n  `Request`: `A.`\n- `SourceCycle`: `{OTHER}`\n  `Request`: `B.`\n")
    f = reported_at(lint_tree, state, "SL214", 15)
    edit = f[0].fix.edits[0]
    fixed = state[: edit.start] + edit.replacement + state[edit.end:]
    assert fixed == baseline(f"- `SourceCycle`: `{OTHER}`\n  `Request`: `A.`\n")
    assert f[0].fix.applicability == "unsafe"


def test_duplicate_source_with_the_same_request_is_removed_safely(lint_tree):
    entry = f"- `SourceCycle`: `{OTHER}`\n  `Request`: `A.`\n"
    state = baseline(entry + entry.replace("`A.`", "`A.` "))
    (f,) = only(lint_tree({}, state=state), "SL214")
    edit = f.fix.edits[0]
    assert state[: edit.start] + edit.replacement + state[edit.end:] == baseline(entry)
    assert f.fix.applicability == "safe"


def test_lists_active_cycle(lint_tree):
    state = baseline(f"- `SourceCycle`: `{ID}`\n  `Request`: `This cycle.`\n")
    reported_at(lint_tree, state, "SL215", 13)


def test_distinct_sources_are_fine(lint_tree):
    state = baseline(f"- `SourceCycle`: `{OTHER}`\n  `Request`: `A.`\n"
                     "- `SourceCycle`: `old-work-20260102T000000Z-1b2c3d4e`\n  `Request`: `B.`\n")
    assert [f for f in lint_tree({}, state=state) if f.code in ("SL212", "SL213", "SL214", "SL215")] == []


# -- SL220 - SL223 ------------------------------------------------------------------
@pytest.mark.parametrize(
    "old,new,code",
    [
        ("`Kind`: `FORWARD`", "`Kind`: `NEW CYCLE`", "SL220"),
        ("`From`: `SCOPING`", "`From`: `REVIEWING FINAL`", "SL221"),
        ("`FailureType`: `NONE`", "`FailureType`: `TODO`", "SL222"),
    ],
)
def test_handoff_values(lint_tree, old, new, code):
    f = only(lint_tree({}, state=ACTIVE.replace(old, new)), code)
    assert [where(x) for x in f] == [(STATE, 16)]


def test_handoff_none_values_are_fine(lint_tree):
    found = lint_tree({}, state=CLEAN_STATE)
    assert [f for f in found if f.code in ("SL220", "SL221", "SL222")] == []


def test_repeated_handoff_field(lint_tree):
    state = ACTIVE.replace("`Kind`: `FORWARD`", "`Kind`: `FORWARD` `Kind`: `CHECKPOINT`")
    f = reported_at(lint_tree, state, "SL223", 16)
    assert f[0].fix is None


def test_conflicted_state_is_left_to_the_conflict_rule(lint_tree):
    state = ACTIVE.replace("## Handoff", "<<<<<<< HEAD\n## Handoff\n=======\n## Handoff\n>>>>>>> b")
    assert [f for f in lint_tree({}, state=state) if f.code.startswith("SL2")] == []


# -- the format is line-exact: a value re-wrapped onto the next line --------------
def test_baseline_none_on_the_next_line_is_not_the_format(lint_tree):
    state = ACTIVE.replace("`BaselineReconciliation`: `NONE`", "`BaselineReconciliation`:\n`NONE`")
    [f] = only(lint_tree({}, state=state), "SL211")
    assert where(f) == (STATE, 12) and "label's line" in f.message


@pytest.mark.parametrize("wrapped", ["Request", "SourceCycle"])
def test_baseline_entry_value_on_the_next_line_is_incomplete(lint_tree, wrapped):
    entry = f"- `SourceCycle`: `{OTHER}`\n  `Request`: `Change the cache.`\n"
    entry = entry.replace(f"`{wrapped}`: ", f"`{wrapped}`:\n")
    found = lint_tree({}, state=baseline(entry))
    [f] = only(found, "SL212")
    assert wrapped in f.message and "next line" in f.message
    assert where(f) == (STATE, 13 if wrapped == "SourceCycle" else 14)
    assert only(found, "SL211") == []


def test_other_fields_may_wrap_their_values(lint_tree):
    # Only the baseline format is line-exact; a wrapped Active Work value is fine.
    state = ACTIVE.replace("`Request`: ", "`Request`:\n", 1)
    assert state != ACTIVE
    assert [f for f in lint_tree({}, state=state) if f.code.startswith("SL2")] == []


# -- no silence behind a broken section heading or a repeated section -------------------
# A frame whose FailureType is no failure type (SL504), to see the Recovery
# section read.
BAD_FRAME = ACTIVE.replace("## Recovery\n\n`Active`: `false`", """## Recovery

`Active`: `true`

### Frame 1

`From`: `ARCHITECTING` `Owner`: `SCOPING` `FailureType`: `SCOPE`
`Reason`: `A defect.` `ResumeAt`: `ARCHITECTING` `RerunThrough`: `NONE`""").replace(
    "`WorkflowState`: `ARCHITECTING`", "`WorkflowState`: `SCOPING`").replace(
    "`Kind`: `FORWARD` `From`: `SCOPING`", "`Kind`: `FAILURE` `From`: `ARCHITECTING`").replace(
    "`FailureType`: `NONE` `Reason`: `Scope done.`", "`FailureType`: `SCOPING` `Reason`: `A defect.`")


def test_the_frames_are_checked_under_a_correct_recovery_heading(lint_tree):
    got = lint_tree({}, state=BAD_FRAME)
    assert only(got, "SL504") and not only(got, "SL201")


@pytest.mark.parametrize("heading", ["##  Recovery", "## recovery", "## RECOVERY"])
def test_a_mis_spaced_or_mis_cased_section_heading_is_found_and_reported(lint_tree, heading):
    state = BAD_FRAME.replace("## Recovery", heading)
    got = lint_tree({}, state=state)
    [f] = only(got, "SL201")
    assert f.line == state.splitlines().index(heading) + 1 and "`## Recovery`" in f.message
    assert f.fix is not None and f.fix.applicability == "safe"
    assert [e.replacement for e in f.fix.edits] == ["## Recovery"]
    assert only(got, "SL504"), "the frames under the heading are still checked"


def test_an_indented_section_heading_and_a_closing_sequence_are_read_as_the_framework_reads_them(lint_tree):
    for heading in (" ## Recovery", "## Recovery ##"):
        got = lint_tree({}, state=BAD_FRAME.replace("## Recovery", heading))
        assert not only(got, "SL201") and only(got, "SL504"), heading


def test_a_repeated_section_is_read_as_its_first_copy_with_content(lint_tree):
    # Two copies of `## Recovery`: SL201 reports the repetition, and the
    # frames of the first copy are still checked; an empty first copy (only
    # the heading) is skipped, as the repetition's fix removes it.
    frames = BAD_FRAME[BAD_FRAME.index("## Recovery"):BAD_FRAME.index("## Outstanding")]
    state = BAD_FRAME.replace("## Outstanding", frames + "## Outstanding")
    got = lint_tree({}, state=state)
    assert only(got, "SL201") and only(got, "SL504")
    assert only(got, "SL201")[0].fix is not None  # identical copies: one is removed
    state = BAD_FRAME.replace("## Recovery", "## Recovery\n\n## Recovery")
    got = lint_tree({}, state=state)
    assert only(got, "SL201") and only(got, "SL504")


def test_an_active_under_a_frame_is_recovery_s_too(lint_tree):
    # `# Outstanding Obligations` one level up does not end `## Recovery` for
    # the framework (a section runs to the next `##` heading), so its
    # `Active` is a second Recovery.Active, here under the last frame
    # (unseen4-1144); reported, with no fix (which copy is meant is unknown).
    frame = ("`Active`: `true`\n\n### Frame 1\n\n`From`: `ARCHITECTING` `Owner`: `SCOPING` `FailureType`: `SCOPING`\n"
             "`Reason`: `A defect.` `ResumeAt`: `ARCHITECTING` `RerunThrough`: `NONE`\n")
    st = ACTIVE.replace("`Active`: `false`\n", frame, 1).replace("## Outstanding Obligations", "# Outstanding Obligations")
    dups = [f for f in lint_tree({}, state=st) if f.code == "SL202" and "Recovery.Active" in f.message]
    assert len(dups) == 1 and "occurs 2 times" in dups[0].message and dups[0].fix is None
    ok = ACTIVE.replace("`Active`: `false`\n", frame, 1)
    assert [f for f in lint_tree({}, state=ok) if f.code == "SL202"] == []
