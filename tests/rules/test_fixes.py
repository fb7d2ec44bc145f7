"""Protocol-determined fixes: SL904 (bare F-NNN with one defining report),
SL902 (template choices the provenance block or the allowed values decide)
and SL212 (empty BaselineReconciliation entries)."""

from __future__ import annotations

from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project

from .conftest import RUNTIME, write_tree

CID = "add-user-search-20261130T024329Z-59a270f5"
OTHER = "change-cache-20260101T000000Z-0a1b2c3d"
STATE_PATH = ".standards/STATE.md"
VER = f".standards/docs/verification/{CID}.md"
IMPL = f".standards/docs/reviews/{CID}/implementation.md"
FINAL = f".standards/docs/reviews/{CID}/final-deliverable.md"
DOC = f".standards/docs/documentation/{CID}.md"
PLAN = f".standards/docs/development/{CID}.md"


def state(ws="DOCUMENTING", frm="REVIEWING_IMPLEMENTATION", baseline="`BaselineReconciliation`: `NONE`"):
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `STANDARD` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{CID}` `Request`: `Add search.` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

{baseline}

## Handoff

`Kind`: `FORWARD` `From`: `{frm}` `FailureType`: `NONE` `Reason`: `Done.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


TITLES = {"VERIFICATION": "Verification Report", "REVIEW": "Review Report", "DOCUMENTATION": "Documentation Record",
          "DEVELOPMENT": "Development Plan"}


def record(artifact, header, kind=None, body=""):
    rk = f"ReviewKind: {kind}\n" if kind else ""
    return (f"<!-- STANDARDS\nArtifact: {artifact}\nCycle: {CID}\n{rk}-->\n\n# {TITLES[artifact]}\n\n"
            f"{header}\n\n## Notes\n\n{body}\n")


def review(kind, body):
    return record("REVIEW", f"`Cycle`: `{CID}` `ReviewKind`: `{kind}` `Status`: `IN_PROGRESS`", kind, body)


def doc_record(body):
    return record("DOCUMENTATION", f"`Cycle`: `{CID}` `Status`: `IN_PROGRESS`", body=body)


def tree(tmp_path, files, st=None):
    write_tree(tmp_path, {**RUNTIME, STATE_PATH: st or state(), **files})
    return tmp_path


def read(root, rel):
    with open(root / rel, encoding="utf-8", newline="") as fh:
        return fh.read()


def findings(root, code):
    return [f for f in lint(str(root), use_git=False).findings if f.code == code]


def fixed_codes(report):
    return sorted(f.code for f in report.fixed)


def assert_second_run_is_idle(root, unsafe):
    again, _ = fix_project(str(root), use_git=False, unsafe=unsafe)
    assert again.fixed == [] and again.changed == {}


# -- SL904: a bare F-NNN whose review report is determined ----------------------


def test_sl904_fix_names_the_only_defining_report(tmp_path):
    root = tree(tmp_path, {
        IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nText."),
        FINAL: review("FINAL_DELIVERABLE", "### F-002 — Typo\n\nText."),
        DOC: doc_record("See F-001; F-001 is fixed."),
    })
    (found,) = findings(root, "SL904")
    assert found.fix is not None and found.fix.applicability == "safe"
    text = read(root, DOC)
    # Every edit replaces exactly an `F-001` token.
    assert [text[e.start:e.end] for e in found.fix.edits] == ["F-001", "F-001"]
    assert IMPL in found.message
    report, result = fix_project(str(root), use_git=False)
    assert fixed_codes(report) == ["SL904"]
    assert read(root, DOC) == doc_record(f"See {IMPL}#F-001; {IMPL}#F-001 is fixed.")
    codes = {f.code for f in result.findings}
    assert not codes & {"SL904", "SL906", "SL907"}
    # (The implementation review, IN_PROGRESS past its gate, has SL931's unsafe fix.)
    assert_second_run_is_idle(root, unsafe=False)


def test_sl904_no_fix_when_both_reports_have_the_finding(tmp_path):
    body = "See F-001."
    root = tree(tmp_path, {
        IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nText."),
        FINAL: review("FINAL_DELIVERABLE", "### F-001 — Typo\n\nText."),
        DOC: doc_record(body),
    })
    (found,) = findings(root, "SL904")
    assert found.fix is None
    assert f"{IMPL}#F-001" in found.message and f"{FINAL}#F-001" in found.message
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert "SL904" not in fixed_codes(report)
    assert read(root, DOC) == doc_record(body)


def test_sl904_no_fix_when_no_report_has_the_finding(tmp_path):
    body = "See F-003."
    root = tree(tmp_path, {IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nText."), DOC: doc_record(body)})
    (found,) = findings(root, "SL904")
    assert found.fix is None
    assert f"{IMPL}#F-003" in found.message and f"{FINAL}#F-003" in found.message
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, DOC) == doc_record(body)


# -- SL902: template choices the protocol decides --------------------------------


def test_sl902_cycle_and_review_kind_follow_the_provenance_block(tmp_path):
    header = "`Cycle`: `<Active Work.Id>` `ReviewKind`: `IMPLEMENTATION | FINAL_DELIVERABLE` `Status`: `IN_PROGRESS`"
    root = tree(tmp_path, {FINAL: record("REVIEW", header, "FINAL_DELIVERABLE")},
                st=state("REVIEWING_FINAL", frm="DOCUMENTING"))
    found = findings(root, "SL902")
    assert [(f.line, f.fix.applicability) for f in found] == [(9, "safe"), (9, "safe")]
    report, _ = fix_project(str(root), use_git=False)
    assert fixed_codes(report) == ["SL902", "SL902"]
    want = f"`Cycle`: `{CID}` `ReviewKind`: `FINAL_DELIVERABLE` `Status`: `IN_PROGRESS`"
    assert read(root, FINAL) == record("REVIEW", want, "FINAL_DELIVERABLE")
    assert findings(root, "SL902") == []
    assert_second_run_is_idle(root, unsafe=True)


def verification_sl902(tmp_path, header):
    """A tree whose verification report (in TESTING) has *header*, and its
    SL902 findings."""
    root = tree(tmp_path, {VER: record("VERIFICATION", header)}, st=state("TESTING", frm="DEVELOPING"))
    return root, findings(root, "SL902")


def test_sl902_artifact_field_follows_the_block(tmp_path):
    header = f"`Cycle`: `{CID}` `Artifact`: `VERIFICATION | REVIEW` `Status`: `IN_PROGRESS`"
    root, (found,) = verification_sl902(tmp_path, header)
    assert found.fix.applicability == "safe"
    fix_project(str(root), use_git=False)
    assert read(root, VER) == record("VERIFICATION", header.replace("VERIFICATION | REVIEW", "VERIFICATION"))
    assert_second_run_is_idle(root, unsafe=True)


def test_sl902_one_allowed_choice_is_an_unsafe_fix(tmp_path):
    header = f"`Cycle`: `{CID}` `Mode`: `VERIFY | RECHECK` `Status`: `IN_PROGRESS`"
    root, (found,) = verification_sl902(tmp_path, header)
    assert found.fix.applicability == "unsafe"
    assert found.message == "field `Mode` still shows the template's choices (`VERIFY | RECHECK`); set one value."
    report, _ = fix_project(str(root), use_git=False)
    assert "SL902" not in fixed_codes(report)
    assert read(root, VER) == record("VERIFICATION", header)
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, VER) == record("VERIFICATION", header.replace("VERIFY | RECHECK", "VERIFY"))
    assert_second_run_is_idle(root, unsafe=True)


def test_sl902_no_fix_when_the_owner_must_choose(tmp_path):
    header = (f"`Cycle`: `{CID}` `Mode`: `VERIFY | REVERIFY` `Status`: `IN_PROGRESS`\n"
              "`User Style`: `NONE | <identifier>` `Assessment Purpose`: `<INCREMENTAL>`")
    root, found = verification_sl902(tmp_path, header)
    assert len(found) == 3 and all(f.fix is None for f in found)
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert "SL902" not in fixed_codes(report)
    assert read(root, VER) == record("VERIFICATION", header)


def test_sl902_allowed_value_in_placeholder_brackets_is_a_safe_fix(tmp_path):
    header = f"`Cycle`: `{CID}` `Mode`: `VERIFY` `Status`: `IN_PROGRESS`\n`Assessment Purpose`: `<INCREMENT>`"
    root, (found,) = verification_sl902(tmp_path, header)
    assert found.fix.applicability == "safe" and "INCREMENT" in found.fix.description
    report, _ = fix_project(str(root), use_git=False)
    assert fixed_codes(report) == ["SL902"]
    assert read(root, VER) == record("VERIFICATION", header.replace("<INCREMENT>", "INCREMENT"))
    assert findings(root, "SL902") == []
    assert_second_run_is_idle(root, unsafe=True)


# -- SL212: empty BaselineReconciliation entries -----------------------------------

ENTRY = f"- `SourceCycle`: `{OTHER}`\n  `Request`: `Change the cache.`\n"


def baseline_state(entries, newline="\n"):
    return state(baseline="`BaselineReconciliation`:\n" + entries).replace("\n", newline)


def test_sl212_empty_entry_is_removed_by_an_unsafe_fix(tmp_path):
    st = baseline_state(f"{ENTRY}- \n", newline="\r\n")
    root = tree(tmp_path, {}, st=st)
    (found,) = findings(root, "SL212")
    assert found.fix.applicability == "unsafe" and found.line == 15
    fix_project(str(root), use_git=False)
    assert read(root, STATE_PATH) == st
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert fixed_codes(report) == ["SL212"]
    assert read(root, STATE_PATH) == baseline_state(ENTRY, newline="\r\n")
    assert findings(root, "SL212") == [] and findings(root, "SL211") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl212_only_empty_entries_become_none(tmp_path):
    root = tree(tmp_path, {}, st=baseline_state("-\n-"))
    found = findings(root, "SL212")
    assert len(found) == 2 and all(f.fix.applicability == "unsafe" for f in found)
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, STATE_PATH) == state()
    assert [f for f in lint(str(root), use_git=False).findings if f.code.startswith("SL21")] == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl212_no_fix_for_an_entry_with_content(tmp_path):
    third = "drop-cache-20260102T000000Z-1b2c3d4e"  # no other entry holds this source
    st = baseline_state(f"{ENTRY}- `SourceCycle`: `{third}`\n- cancelled cache work\n")
    root = tree(tmp_path, {}, st=st)
    found = findings(root, "SL212")
    assert len(found) == 2 and all(f.fix is None for f in found)
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, STATE_PATH) == st


def test_sl212_partial_copy_of_a_complete_entry_is_removed(tmp_path):
    for entries in (f"- `SourceCycle`: `{OTHER}`\n{ENTRY}", f"{ENTRY}- `SourceCycle`: `{OTHER}`\n"):
        st = baseline_state(entries)
        root = tree(tmp_path, {}, st=st)
        (found,) = findings(root, "SL212")
        assert found.fix is not None and found.fix.applicability == "unsafe"
        report, _ = fix_project(str(root), use_git=False, unsafe=True)
        assert fixed_codes(report) == ["SL212"]
        assert read(root, STATE_PATH) == baseline_state(ENTRY)
        assert [f for f in lint(str(root), use_git=False).findings if f.code.startswith("SL21")] == []
        assert_second_run_is_idle(root, unsafe=True)


def test_sl212_no_fix_when_the_copy_holds_more_than_the_key(tmp_path):
    st = baseline_state(f"- `SourceCycle`: `{OTHER}` (cache rework)\n{ENTRY}")
    root = tree(tmp_path, {}, st=st)
    (found,) = findings(root, "SL212")
    assert found.fix is None


# -- SL211: BaselineReconciliation NONE written twice -----------------------------


def test_sl211_repeated_none_is_removed_safely(tmp_path):
    for twice in ("`BaselineReconciliation`: `NONE` `BaselineReconciliation`: `NONE`",
                  "`BaselineReconciliation`: `NONE`\n`BaselineReconciliation`: `NONE`"):
        root = tree(tmp_path, {}, st=state(baseline=twice))
        (found,) = findings(root, "SL211")
        assert found.fix is not None and found.fix.applicability == "safe"
        fix_project(str(root), use_git=False)
        assert read(root, STATE_PATH) == state()
        assert findings(root, "SL211") == []
        assert_second_run_is_idle(root, unsafe=True)


def test_sl211_no_fix_for_a_repeat_with_another_value_or_list(tmp_path):
    for twice in ("`BaselineReconciliation`: `NONE` `BaselineReconciliation`: `[]`",
                  f"`BaselineReconciliation`: `NONE`\n`BaselineReconciliation`:\n{ENTRY}"):
        root = tree(tmp_path, {}, st=state(baseline=twice))
        (found,) = findings(root, "SL211")
        assert found.fix is None


# -- SL635 / SL642: a plan away from its fixed path moves there ------------------


def test_sl642_moves_the_plan_to_its_fixed_path_and_repoints_development(tmp_path):
    elsewhere = f"plans/{CID}.md"
    plan = record("DEVELOPMENT", f"`Cycle`: `{CID}` `Status`: `IN_PROGRESS`")
    st = state("DEVELOPING", frm="ARCHITECTING").replace("`Development`: `NONE`", f"`Development`: `{elsewhere}`")
    root = tree(tmp_path, {elsewhere: plan}, st=st)
    (found,) = findings(root, "SL642")
    assert found.fix.applicability == "unsafe"
    assert [(r.old, r.new) for r in found.fix.renames] == [(elsewhere, PLAN)]
    safe_only, _ = fix_project(str(root), use_git=False)
    assert (root / elsewhere).exists() and not (root / PLAN).exists()  # a move is never safe
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert report.renamed == {elsewhere: PLAN}
    assert not (root / elsewhere).exists() and read(root, PLAN) == plan
    assert f"`Development`: `{PLAN}`" in read(root, STATE_PATH)
    assert not findings(root, "SL642") and not findings(root, "SL635") and not findings(root, "SL640")
    assert_second_run_is_idle(root, unsafe=True)


def test_sl640_points_at_this_cycles_only_record_and_refuses_when_two_exist(tmp_path):
    scope = f".standards/docs/scope/{CID}.md"
    text = f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {CID}\n-->\n\n# Scope\n\n- `AC-001`: Search works.\n"
    st = state("SCOPING", frm="AUDITING").replace("`Scope`: `NONE`", "`Scope`: `docs/missing.md`")
    root = tree(tmp_path, {scope: text}, st=st)
    (found,) = findings(root, "SL640")
    assert found.fix.applicability == "safe" and found.fix.edits[0].replacement == scope
    second = tree(tmp_path / "two", {scope: text, "docs/copy.md": text}, st=st)
    (found,) = findings(second, "SL640")
    assert found.fix is None and found.help
