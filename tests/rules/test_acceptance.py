"""Tests of rules/acceptance.py (SL701-SL750)."""

from __future__ import annotations

import pytest

from standards_lint.engine.run import lint

from .conftest import RUNTIME, commit_tree, write_tree

CYCLE = "add-user-search-20261130T024423Z-b4750922"
SCOPE = f".standards/docs/scope/{CYCLE}.md"
SPEC = f".standards/docs/specs/{CYCLE}.md"
DEV = f".standards/docs/development/{CYCLE}.md"
VERIFY = f".standards/docs/verification/{CYCLE}.md"
REVIEW_FINAL = f".standards/docs/reviews/{CYCLE}/final-deliverable.md"


def state(
    ws="REVIEWING_IMPLEMENTATION",
    mode="STANDARD",
    *,
    scope=SCOPE,
    arch=SPEC,
    dev=DEV,
    policy="FULL_DELIVERABLE",
    kind="FORWARD",
    frm="TESTING",
    recovery=False,
):
    frames = ""
    if recovery:
        frames = (
            "\n### Frame 1\n\n`From`: `AWAITING_USER_SIGNOFF` `Owner`: `SCOPING` `FailureType`: `SCOPING`\n"
            "`Reason`: `A defect.` `ResumeAt`: `AWAITING_USER_SIGNOFF` `RerunThrough`: `SYNCHRONIZING`\n"
        )
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{CYCLE}` `Request`: `Add user search` `Scope`: `{scope}`
`Architecture`: `{arch}` `Development`: `{dev}` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `NONE` `Reason`: `Passed its gate.`

## Recovery

`Active`: `{"true" if recovery else "false"}`
{frames}
## Outstanding Obligations

`Active`: `false`
"""


def prov(artifact, kind=None):
    extra = f"ReviewKind: {kind}\n" if kind else ""
    return f"<!-- STANDARDS\nArtifact: {artifact}\nCycle: {CYCLE}\n{extra}-->\n\n"


SCOPE_TEXT = prov("SCOPE") + """# Search

## Work

- `AC-001`: Users can search by name.
- `AC-002`: The guide explains search.

## Retired Acceptance Identifiers

- `AC-003`: Retired because it was split.
"""

SPEC_TEXT = prov("ARCHITECTURE") + """# Technical Design

## Acceptance Coverage

- `AC-001`: Name index.
- `AC-002`: No architectural impact; Documenter owns it.
"""

DEV_TEXT = prov("DEVELOPMENT") + """# Development Plan

`Cycle`: `{c}` `Mode`: `AUTONOMOUS`
`User Style`: `NONE` `User Style Locked`: `true`
`Status`: `COMPLETE` `Verification Cadence`:
`AFTER_IMPLEMENTATION` `Current Increment`: `NONE`

## Build Steps

### DEV-001 — Search endpoint

`Status`: `DONE` `Depends On`: `NONE`
`Acceptance`: `AC-001`
""".format(c=CYCLE)


def verification(rows, status="COMPLETE", purpose="FULL", target="NONE", extra=""):
    return prov("VERIFICATION") + f"""# Verification Report

`Cycle`: `{CYCLE}` `Mode`: `VERIFY` `Status`: `{status}` `User Style`: `NONE`
`Assessment Purpose`: `{purpose}` `Assessment Target`: `{target}`

## Acceptance Evidence

{rows}
{extra}"""


VERIFY_OK = verification("| AC-001 | test/search.test.js | passed |\n| AC-002 | pending Documenter | pending |\n")


def tree(**over):
    files = {SCOPE: SCOPE_TEXT, SPEC: SPEC_TEXT, DEV: DEV_TEXT, VERIFY: VERIFY_OK}
    for key, value in over.items():
        path = {"scope": SCOPE, "spec": SPEC, "dev": DEV, "verify": VERIFY, "final": REVIEW_FINAL}[key]
        if value is None:
            files.pop(path, None)
        else:
            files[path] = value
    return files


def sl7(findings, code=None):
    return [f for f in findings if f.code.startswith("SL7") and (code is None or f.code == code)]


def where(findings):
    return [(f.code, f.path, f.line) for f in findings]


def found7(lint_tree, code=None, st=None, **files):
    """The SL7xx findings (only *code*'s when given) of the standard tree
    with *files* changed (see :func:`tree`), in STATE.md *st* (by default
    ``state()``)."""
    return sl7(lint_tree(tree(**files), state=st if st is not None else state()), code)


# -- the clean baseline ------------------------------------------------------------------
def test_clean_standard_cycle_has_no_acceptance_findings(lint_tree):
    assert found7(lint_tree) == []


# -- SL701 --------------------------------------------------------------------------------
def test_sl701_table_row_is_not_a_definition(lint_tree):
    scope = SCOPE_TEXT.replace("- `AC-001`: Users can search by name.", "| `AC-001` | Users can search by name. |")
    found = found7(lint_tree, "SL701", scope=scope)
    assert where(found) == [("SL701", SCOPE, 10)]
    assert "AC-001" in found[0].message


def test_sl701_heading_is_not_a_definition(lint_tree):
    scope = SCOPE_TEXT.replace("- `AC-001`: Users can search by name.", "### AC-001 — Search by name")
    assert where(found7(lint_tree, "SL701", scope=scope)) == [("SL701", SCOPE, 10)]


def test_sl701_accepts_plain_bold_numbered_and_task_items(lint_tree):
    scope = SCOPE_TEXT.replace(
        "- `AC-001`: Users can search by name.\n- `AC-002`: The guide explains search.",
        "- [ ] **AC-001**: Users can search by name.\n- See AC-001 for the rules.\n1. AC-002 — The guide explains search.",
    )
    assert found7(lint_tree, scope=scope) == []


def test_sl701_ignores_fenced_code(lint_tree):
    scope = SCOPE_TEXT + "\n```md\n| `AC-007` | Example |\n```\n"
    assert found7(lint_tree, "SL701", scope=scope) == []


def test_sl701_reads_through_comments(lint_tree):
    # The framework's checker reads the raw text, comments included
    # (lexicon: a commented-out `## Acceptance Evidence` still accounts for
    # its conditions), so a mention in a comment is a mention.
    scope = SCOPE_TEXT + "\n<!-- AC-008 is a note -->\n"
    found = found7(lint_tree, "SL701", scope=scope)
    assert len(found) == 1 and "AC-008" in found[0].message


# -- SL702 / SL703 ---------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "second"), [
    pytest.param("SL702", "- `AC-001`: Again.", id="sl702-duplicate-definition-points-at-second"),
    pytest.param("SL703", "- AC-003: Back.", id="sl703-current-and-retired"),
])
def test_second_definition(lint_tree, code, second):
    # The standard scope (one definition each, AC-003 only retired) is fine.
    assert found7(lint_tree, code) == []
    scope = SCOPE_TEXT.replace("- `AC-002`: The guide explains search.", f"- `AC-002`: The guide.\n{second}")
    assert where(found7(lint_tree, code, scope=scope)) == [(code, SCOPE, 12)]


# -- SL704 / SL750 ---------------------------------------------------------------------------
def test_sl704_condition_after_previous_cycles(lint_tree):
    scope = prov("SCOPE") + (
        "# Search\n\n## Work\n\n- `AC-004`: Now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.\n\n"
        "## Work\n\n- `AC-005`: Also now.\n"
    )
    spec = SPEC_TEXT.replace("`AC-001`: Name index.", "`AC-004`: Name index.").replace("- `AC-002`", "- `AC-001`")
    verify = verification("| AC-004 | t | passed |\n")
    found = found7(lint_tree, scope=scope, spec=spec, verify=verify)
    assert where(found) == [("SL704", SCOPE, 18)]


def test_sl704_only_previous_conditions(lint_tree):
    scope = prov("SCOPE") + "# Search\n\n## Previous Cycles\n\n- `AC-001`: Earlier.\n"
    found = found7(lint_tree, "SL704", scope=scope)
    assert where(found) == [("SL704", SCOPE, 8)]


def test_sl704_and_sl750_quiet_on_a_well_reused_scope(lint_tree):
    scope = prov("SCOPE") + "# Search\n\n- `AC-004`: Now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.\n"
    spec = SPEC_TEXT.replace("- `AC-001`: Name index.\n- `AC-002`: No architectural impact; Documenter owns it.",
                             "- `AC-004`: Name index.")
    verify = verification("| AC-004 | t | passed |\n")
    assert found7(lint_tree, scope=scope, spec=spec, verify=verify) == []


def test_sl750_numbering_restarted_below_history(lint_tree):
    scope = prov("SCOPE") + (
        "# Search\n\n- `AC-001`: Export.\n- `AC-004`: Now.\n\n## Previous Cycles\n\n"
        "- `AC-001`: Earlier.\n- `AC-002`: Also earlier.\n"
    )
    spec = SPEC_TEXT.replace("`AC-002`: No architectural impact", "`AC-004`: No architectural impact")
    verify = verification("| AC-001 | t | passed |\n| AC-004 | t | passed |\n")
    found = found7(lint_tree, scope=scope, spec=spec, verify=verify)
    assert where(found) == [("SL750", SCOPE, 8)]


# -- SL705 ----------------------------------------------------------------------------------
def _doc_state(ws="ARCHITECTING", kind="FORWARD", frm="SCOPING"):
    return state(ws, "DOCUMENTATION", dev="NONE", policy="NONE", kind=kind, frm=frm)


def test_sl705_documentation_scope_without_conditions(lint_tree):
    scope = prov("SCOPE") + "# Guide\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Old title.\n"
    spec = prov("ARCHITECTURE") + "# Existing contracts\n"
    found = found7(lint_tree, "SL705", st=_doc_state(), scope=scope, spec=spec, dev=None, verify=None)
    assert where(found) == [("SL705", SCOPE, 6)]


def test_sl705_during_a_rerun_follows_the_holding_decision(lint_tree):
    # A RESUME that leaves its DOCUMENTING frame in sign-off returns nothing
    # (SL350, SL507 report the frame): SCOPING's gate is the rerun's, as the
    # checker reads it (unseen4-0104); with the frame popped it is held.
    scope = prov("SCOPE") + "# Guide\n"
    frame = ("`Active`: `true`\n\n### Frame 1\n\n`From`: `AWAITING_USER_SIGNOFF` `Owner`: `DOCUMENTING` "
             "`FailureType`: `DOCUMENTATION`\n`Reason`: `A defect.` `ResumeAt`: `AWAITING_USER_SIGNOFF` "
             "`RerunThrough`: `NONE`\n")
    popped = _doc_state("AWAITING_USER_SIGNOFF", "RESUME", "DOCUMENTING")
    left = popped.replace("`Active`: `false`\n", frame, 1)
    files = tree(scope=scope, spec=None, dev=None, verify=None)
    assert sl7(lint_tree(files, state=left), "SL705") == []
    assert where(sl7(lint_tree(files, state=popped), "SL705")) == [("SL705", SCOPE, 6)]


def test_sl705_not_while_scoping(lint_tree):
    scope = prov("SCOPE") + "# Guide\n"
    found = lint_tree(tree(scope=scope, spec=None, dev=None, verify=None),
                      state=_doc_state("SCOPING", "FORWARD", "AUDITING"))
    assert sl7(found, "SL705") == []


# -- SL710 -----------------------------------------------------------------------------------
def test_sl710_record_mentions_unknown_id(lint_tree):
    verify = verification("| AC-001 | t | passed |\n| AC-002 | pending | pending |\n\nSee AC-009.\n")
    found = found7(lint_tree, "SL710", verify=verify)
    assert where(found) == [("SL710", VERIFY, 16)]
    assert "is not defined in the scope" in found[0].message


def test_sl710_mention_the_scope_makes_without_defining(lint_tree):
    scope = SCOPE_TEXT + "\n## Assumptions\n\nAC-005 may follow.\n"
    verify = verification("| AC-001 | t | passed |\n| AC-002 | p | pending |\n| AC-005 | later | pending |\n")
    found = found7(lint_tree, "SL710", scope=scope, verify=verify)
    assert where(found) == [("SL710", VERIFY, 15)]
    assert "appears in the scope" in found[0].message


def test_sl710_retired_and_previous_ids_are_known(lint_tree):
    verify = VERIFY_OK + "\nSuperseded: AC-003.\n"
    assert found7(lint_tree, "SL710", verify=verify) == []


def test_sl710_design_history_is_skipped(lint_tree):
    spec = SPEC_TEXT + "\n## Previous Cycles\n\n- AC-900: From another scope.\n"
    assert found7(lint_tree, "SL710", spec=spec) == []


# -- SL720 ------------------------------------------------------------------------------------
def test_sl720_design_misses_a_condition(lint_tree):
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    verify = verification("| AC-001 | t | passed |\n| AC-002 | p | pending |\n")
    found = found7(lint_tree, "SL720", spec=spec, verify=verify)
    assert where(found) == [("SL720", SPEC, 8)]
    assert "AC-002" in found[0].message


def test_sl720_not_while_architecting(lint_tree):
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    found = lint_tree(tree(spec=spec, dev=None, verify=None),
                      state=state("ARCHITECTING", dev="NONE", kind="FORWARD", frm="SCOPING"))
    assert sl7(found, "SL720") == []


def test_sl720_not_during_recovery_after_a_developer_handoff(lint_tree):
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    found = lint_tree(tree(spec=spec), state=state("TESTING", kind="FORWARD", frm="DEVELOPING", recovery=True))
    assert sl7(found, "SL720") == []


# -- SL721 ---------------------------------------------------------------------------------------
def test_sl721_complete_verification_misses_a_condition(lint_tree):
    verify = verification("| AC-001 | t | passed |\n")
    found = found7(lint_tree, "SL721", verify=verify)
    assert where(found) == [("SL721", VERIFY, 8)]


def test_sl721_previous_cycles_text_does_not_count(lint_tree):
    review = prov("REVIEW", "FINAL_DELIVERABLE") + f"""# Review Report

`Cycle`: `{CYCLE}` `ReviewKind`: `FINAL_DELIVERABLE`
`Status`: `COMPLETE` `User Style`: `NONE`

## Acceptance Evidence

AC-001: checked.

## Previous Cycles

AC-002: historical mention.
"""
    found = found7(lint_tree, st=state("DOCUMENTING", kind="FORWARD", frm="REVIEWING_FINAL"), final=review)
    assert found == []  # REVIEWING_FINAL comes later: not held yet
    found = found7(lint_tree, "SL721", st=state("SYNCHRONIZING", kind="FORWARD", frm="REVIEWING_FINAL"), final=review)
    assert where(found) == [("SL721", REVIEW_FINAL, 10)]


def test_sl721_in_progress_report_is_not_held(lint_tree):
    verify = verification("| AC-001 | t | passed |\n", status="IN_PROGRESS")
    assert found7(lint_tree, "SL721", verify=verify) == []


def test_sl721_verification_counts_only_acceptance_evidence(lint_tree):
    verify = verification("| AC-001 | t | passed |\n", extra="\n## Increment Assessments\n\n| 2 | AC-002 | x | SUPERSEDED |\n")
    assert where(found7(lint_tree, "SL721", verify=verify)) == [("SL721", VERIFY, 8)]


# -- SL722 ---------------------------------------------------------------------------------------
def test_sl722_increment_assessment_misses_a_condition(lint_tree):
    verify = verification("| AC-001 | t | passed |\n", status="IN_PROGRESS", purpose="INCREMENT", target="Increment 1")
    found = lint_tree(tree(verify=verify), state=state("TESTING", kind="CHECKPOINT", frm="DEVELOPING"))
    assert where(sl7(found, "SL722")) == [("SL722", VERIFY, 9)]


def test_sl722_awaiting_implementation_row_accounts(lint_tree):
    verify = verification("| AC-001 | t | passed |\n| AC-002 | DEV-002 | AWAITING_IMPLEMENTATION |\n",
                          status="IN_PROGRESS", purpose="INCREMENT", target="Increment 1")
    found = lint_tree(tree(verify=verify), state=state("TESTING", kind="CHECKPOINT", frm="DEVELOPING"))
    assert sl7(found, "SL722") == []


# -- SL730 ---------------------------------------------------------------------------------------
def test_sl730_expedited_record_uses_ids(lint_tree):
    st = state("DEVELOPING", "EXPEDITED", scope="NONE", arch="NONE", policy="NONE", kind="FORWARD", frm="NONE")
    found = sl7(lint_tree({DEV: DEV_TEXT}, state=st))
    assert where(found) == [("SL730", DEV, 18)]
    assert "(AC-001)" in found[0].message


def test_sl730_expedited_record_without_ids(lint_tree):
    st = state("DEVELOPING", "EXPEDITED", scope="NONE", arch="NONE", policy="NONE", kind="FORWARD", frm="NONE")
    assert sl7(lint_tree({DEV: DEV_TEXT.replace("`Acceptance`: `AC-001`\n", "")}, state=st)) == []


# -- SL740 / SL741 (git) ----------------------------------------------------------------------------
def _git_lint(tmp_path, committed: dict, now: dict):
    commit_tree(tmp_path, committed)
    write_tree(tmp_path, now)
    return lint(str(tmp_path), use_git=True).findings


def _full(**over):
    files = dict(RUNTIME)
    files[".standards/STATE.md"] = state()
    files.update(tree(**over))
    return files


def test_sl740_deleted_identifier(tmp_path):
    scope = SCOPE_TEXT.replace("- `AC-002`: The guide explains search.\n", "")
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    verify = verification("| AC-001 | t | passed |\n")
    found = sl7(_git_lint(tmp_path, _full(), {SCOPE: scope, SPEC: spec, VERIFY: verify}))
    assert where(found) == [("SL740", SCOPE, 12)]


def test_sl740_retiring_is_fine(tmp_path):
    scope = SCOPE_TEXT.replace("- `AC-002`: The guide explains search.\n", "") + "- `AC-002`: Dropped.\n"
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    verify = verification("| AC-001 | t | passed |\n")
    assert sl7(_git_lint(tmp_path, _full(), {SCOPE: scope, SPEC: spec, VERIFY: verify})) == []


def test_sl741_retired_identifier_reused(tmp_path):
    scope = SCOPE_TEXT.replace(
        "- `AC-002`: The guide explains search.\n", "- `AC-002`: The guide explains search.\n- `AC-003`: Back.\n"
    ).replace("\n## Retired Acceptance Identifiers\n\n- `AC-003`: Retired because it was split.\n", "")
    spec = SPEC_TEXT + "- `AC-003`: Index again.\n"
    verify = verification("| AC-001 | t | passed |\n| AC-002 | p | pending |\n| AC-003 | t | passed |\n")
    found = sl7(_git_lint(tmp_path, _full(), {SCOPE: scope, SPEC: spec, VERIFY: verify}))
    assert where(found) == [("SL741", SCOPE, 12)]


def test_no_git_no_comparison(lint_tree):
    scope = SCOPE_TEXT.replace("- `AC-002`: The guide explains search.\n", "")
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    verify = verification("| AC-001 | t | passed |\n")
    assert found7(lint_tree, scope=scope, spec=spec, verify=verify) == []


# -- robustness ----------------------------------------------------------------------------------------
def test_scope_of_another_cycle_is_not_used(lint_tree):
    other = SCOPE_TEXT.replace(f"Cycle: {CYCLE}", "Cycle: old-cycle-20251130T024423Z-00000000").replace(
        "- `AC-002`: The guide explains search.\n", "")
    files = tree()
    files["docs/old.md"] = other
    found = lint_tree(files, state=state(scope="docs/old.md"))
    assert sl7(found) == []


def test_broken_state_does_not_raise(lint_tree):
    st = state().replace("`Id`: `" + CYCLE + "`", "`Id`: `x` `Id`: `y`")
    found = lint_tree(tree(), state=st)
    assert [f for f in found if f.code == "SL001"] == []


# -- an indented section heading (` ## Retired Acceptance Identifiers`) ----------------
def test_an_indented_retired_heading_is_not_read_and_carries_its_fix(tmp_path):
    # The framework reads a section heading only at the start of its line:
    # under ` ## Retired ...`, AC-003 is still a current condition, so the
    # COMPLETE design and report that no longer account for it are reported,
    # each with the one safe fix that writes the heading where it is read.
    from standards_lint.fixes.fixer import fix_project

    scope = SCOPE_TEXT.replace("\n## Retired Acceptance Identifiers", "\n ## Retired Acceptance Identifiers")
    write_tree(tmp_path, {**RUNTIME, ".standards/STATE.md": state(), **tree(scope=scope)})
    found = sl7(lint(str(tmp_path), use_git=False).findings)
    assert sorted((f.code, f.path) for f in found) == [("SL720", SPEC), ("SL721", VERIFY)]
    assert all("AC-003" in f.message for f in found)
    fixes = {f.fix for f in found}
    assert len(fixes) == 1
    (fix,) = fixes
    assert fix.applicability == "safe" and [(e.path, e.replacement) for e in fix.edits] == [(SCOPE, "")]
    fix_project(str(tmp_path), use_git=False)
    assert (tmp_path / SCOPE).read_text(encoding="utf-8") == SCOPE_TEXT
    assert sl7(lint(str(tmp_path), use_git=False).findings) == []


def test_a_retired_heading_with_extra_spaces_or_a_closing_sequence_is_read(lint_tree):
    for heading in ("##  Retired Acceptance Identifiers", "## Retired Acceptance Identifiers ##"):
        scope = SCOPE_TEXT.replace("## Retired Acceptance Identifiers", heading)
        assert found7(lint_tree, scope=scope) == [], heading


# -- which records recovery holds at Reviewer entry and sign-off -----------------------
def test_during_recovery_a_forward_into_sign_off_holds_no_passed_record(lint_tree):
    # Sign-off during recovery is reached by a recovery RESUME; a FORWARD
    # into it (SL350 reports the frames left) asserts no gate, so only the
    # turn-end check holds the record of the state it came from.
    impl = f".standards/docs/reviews/{CYCLE}/implementation.md"
    review = prov("REVIEW", "IMPLEMENTATION") + (
        f"# Review Report\n\n`Cycle`: `{CYCLE}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `COMPLETE` "
        "`User Style`: `NONE`\n\nAC-001 has evidence.\n")
    files = {**tree(), impl: review}
    st = state("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", kind="FORWARD",
               frm="REVIEWING_IMPLEMENTATION", recovery=True)
    assert sl7(lint_tree(files, state=st), "SL721") == []
    assert [f.path for f in sl7(lint_tree(files, state=st, turn_end=True), "SL721")] == [impl]
    # A RESUME into sign-off holds its source (the frame it leaves is past its correction).
    st = state("AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", kind="RESUME",
               frm="REVIEWING_IMPLEMENTATION", recovery=True)
    assert impl in [f.path for f in sl7(lint_tree(files, state=st), "SL721")]


def test_during_recovery_reviewer_entry_of_a_documentation_cycle_holds_its_source_only(lint_tree):
    # "the full applicable Developer and Tester gates" at Reviewer entry: a
    # DOCUMENTATION route has none, so the design (ARCHITECTING, passed) is
    # not held after DOCUMENTING forwards into REVIEWING_FINAL; in a STANDARD
    # cycle entering REVIEWING_IMPLEMENTATION it is.
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    doc_st = state("REVIEWING_FINAL", "DOCUMENTATION", policy="NONE", dev="NONE", kind="FORWARD", frm="DOCUMENTING",
                   recovery=True)
    assert found7(lint_tree, "SL720", st=doc_st, spec=spec, dev=None, verify=None) == []
    std_st = state("REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING", recovery=True)
    assert [f.path for f in found7(lint_tree, "SL720", st=std_st, spec=spec)] == [SPEC]


def test_during_recovery_a_reviewer_forward_keeps_the_records_before_it_held(lint_tree):
    # Implementation Reviewer hands off FORWARD to Documenter during a rerun:
    # its entry needed "the full applicable Developer and Tester gates" (Full
    # Verification Boundary), so the design and the verification report,
    # passed before it, stay held to full coverage; the review report itself
    # is not required yet (the rerun carries it), as the checker reads it.
    spec = SPEC_TEXT.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
    st = state("DOCUMENTING", kind="FORWARD", frm="REVIEWING_IMPLEMENTATION", recovery=True)
    found = lint_tree(tree(spec=spec), state=st)
    assert [(f.code, f.path) for f in sl7(found, "SL720")] == [("SL720", SPEC)]
    assert [f for f in found if f.code == "SL930"] == []
    # A Developer's FORWARD to Tester in the same rerun holds neither.
    st = state("TESTING", kind="FORWARD", frm="DEVELOPING", recovery=True)
    assert sl7(lint_tree(tree(spec=spec), state=st), "SL720") == []
