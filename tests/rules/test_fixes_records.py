"""Fixes of the record rules: `Status` COMPLETE once the cycle has passed a
record's gate (SL900, SL902, SL931), placeholder brackets around an allowed
value (SL902), entry renumbering (SL903), a link retargeted at the finding its
text names (SL904, SL906) and a record moved to its fixed path (SL930)."""

from __future__ import annotations

from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project

from . import test_acceptance as acc
from .conftest import RUNTIME, write_tree
from .test_fixes import (
    CID,
    DOC,
    IMPL,
    STATE_PATH,
    assert_second_run_is_idle,
    doc_record,
    findings,
    fixed_codes,
    read,
    record,
    review,
    state,
    tree,
)

SYNC = f".standards/docs/synchronization/{CID}.md"


def sync_record(header, body="Reconciled."):
    return (f"<!-- STANDARDS\nArtifact: SYNCHRONIZATION\nCycle: {CID}\n-->\n\n# Synchronization Record\n\n"
            f"{header}\n\n## Notes\n\n{body}\n")


# The synchronization record's gate passed, and Synchronizer still at work on it.
PAST_THE_GATE = state("AWAITING_USER_SIGNOFF", frm="SYNCHRONIZING")
AT_WORK = state("SYNCHRONIZING", frm="REVIEWING_FINAL")
COMPLETE = f"`Cycle`: `{CID}` `Status`: `COMPLETE`"


def sync_tree(tmp_path, header, st=PAST_THE_GATE, body="Reconciled."):
    return tree(tmp_path, {SYNC: sync_record(header, body)}, st=st)


def fixed_sync(root, code, applicability=None, replacement=None):
    """The synchronization record once every fix (unsafe ones too) is
    applied; before, the one *code* finding has a fix, of *applicability*
    and with *replacement* as its first edit when they are given."""
    (found,) = findings(root, code)
    assert found.fix is not None
    if applicability is not None:
        assert found.fix.applicability == applicability
    if replacement is not None:
        assert found.fix.edits[0].replacement == replacement
    fix_project(str(root), use_git=False, unsafe=True)
    return read(root, SYNC)


# -- SL931 / SL900: Status COMPLETE past the record's gate ------------------------


def test_sl931_sets_complete_once_the_cycle_has_passed_the_gate(tmp_path):
    # DOCUMENTING after a FORWARD handoff from REVIEWING_IMPLEMENTATION.
    root = tree(tmp_path, {IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nFixed.")})
    (found,) = findings(root, "SL931")
    assert found.fix is not None and found.fix.applicability == "unsafe"
    assert "COMPLETE" in found.fix.description
    report, _ = fix_project(str(root), use_git=False)
    assert "SL931" not in fixed_codes(report)  # unsafe: not applied without --unsafe-fixes
    report, result = fix_project(str(root), use_git=False, unsafe=True)
    assert "SL931" in fixed_codes(report)
    assert read(root, IMPL) == review("IMPLEMENTATION", "### F-001 — Bug\n\nFixed.").replace(
        "`Status`: `IN_PROGRESS`", "`Status`: `COMPLETE`")
    assert not [f for f in result.findings if f.code == "SL931"]
    assert_second_run_is_idle(root, unsafe=True)


def _acceptance_tree(tmp_path, verification):
    files = {acc.SCOPE: acc.SCOPE_TEXT, acc.SPEC: acc.SPEC_TEXT, acc.DEV: acc.DEV_TEXT, acc.VERIFY: verification}
    write_tree(tmp_path, {**RUNTIME, STATE_PATH: acc.state("REVIEWING_IMPLEMENTATION", frm="TESTING"), **files})
    return tmp_path


def _sl931(root):
    return [f for f in lint(str(root), use_git=False).findings if f.code == "SL931"]


def test_sl931_fix_only_when_the_report_accounts_for_every_condition(tmp_path):
    rows = "| AC-001 | test/search.test.js | passed |\n"
    root = _acceptance_tree(tmp_path, acc.verification(rows, status="IN_PROGRESS"))
    (found,) = _sl931(root)
    assert found.fix is None  # COMPLETE would not account for AC-002 (SL721)
    before = lint(str(root), use_git=False).findings
    rows += "| AC-002 | pending Documenter | pending |\n"
    write_tree(root, {acc.VERIFY: acc.verification(rows, status="IN_PROGRESS")})
    (found,) = _sl931(root)
    assert found.fix is not None and found.fix.applicability == "unsafe"
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, acc.VERIFY) == acc.verification(rows, status="COMPLETE")
    after = lint(str(root), use_git=False).findings
    assert not [f for f in after if f.code == "SL931"]
    assert {f.code for f in after} <= {f.code for f in before}


def test_sl931_no_fix_for_a_verification_report_not_assessed_in_full(tmp_path):
    rows = "| AC-001 | test/search.test.js | passed |\n| AC-002 | pending Documenter | pending |\n"
    root = _acceptance_tree(tmp_path, acc.verification(rows, status="BLOCKED", purpose="INCREMENT"))
    (found,) = _sl931(root)
    assert found.fix is None  # COMPLETE requires purpose FULL (SL857)
    fix_project(str(root), use_git=False, unsafe=True)
    assert "`Status`: `BLOCKED`" in read(root, acc.VERIFY)


def test_sl900_inserts_complete_where_the_template_has_status(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}`\n`User Style`: `NONE`")
    assert fixed_sync(root, "SL900", "unsafe") == sync_record(f"{COMPLETE}\n`User Style`: `NONE`")
    assert findings(root, "SL900") == [] and findings(root, "SL931") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl900_fills_an_empty_status(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: ``")
    assert fixed_sync(root, "SL900") == sync_record(COMPLETE)
    assert findings(root, "SL900") == []


def test_sl900_no_fix_while_the_owner_is_at_work(tmp_path):
    header = f"`Cycle`: `{CID}`\n`User Style`: `NONE`"
    root = sync_tree(tmp_path, header, st=AT_WORK)
    (found,) = findings(root, "SL900")
    assert found.fix is None
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, SYNC) == sync_record(header)


def test_sl902_status_choices_past_the_gate_become_complete(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: `IN_PROGRESS | BLOCKED | COMPLETE`")
    assert fixed_sync(root, "SL902", "unsafe") == sync_record(COMPLETE)
    assert findings(root, "SL902") == []


# -- SL903: entry prefixes --------------------------------------------------------


def test_sl903_renumbers_the_entry_and_its_mentions(tmp_path):
    body = (f"### D-001 — Old guide\n\nSee D-001 and [it](#D-001); not D-0011.\n"
            f"The synchronization record has {SYNC}#D-001.")
    root = tree(tmp_path, {DOC: doc_record(body)})
    (found,) = findings(root, "SL903")
    assert found.fix is not None and found.fix.applicability == "safe"
    report, _ = fix_project(str(root), use_git=False)
    assert "SL903" in fixed_codes(report)
    want = (f"### DOC-001 — Old guide\n\nSee DOC-001 and [it](#DOC-001); not D-0011.\n"
            f"The synchronization record has {SYNC}#D-001.")
    assert read(root, DOC) == doc_record(want)
    assert findings(root, "SL903") == []
    assert_second_run_is_idle(root, unsafe=False)


def test_sl903_no_fix_when_another_record_cites_the_entry(tmp_path):
    body = "### D-001 — Old guide\n\nText."
    root = tree(tmp_path, {DOC: doc_record(body),
                           IMPL: review("IMPLEMENTATION", f"### F-001 — Guide\n\nSee {DOC}#D-001.")})
    (found,) = findings(root, "SL903")
    assert found.fix is None
    fix_project(str(root), use_git=False)
    assert read(root, DOC) == doc_record(body)


def test_sl903_no_fix_when_the_new_id_is_taken(tmp_path):
    body = "### D-001 — Old guide\n\nText.\n\n### DOC-001 — New guide\n\nText."
    root = tree(tmp_path, {DOC: doc_record(body)})
    (found,) = findings(root, "SL903")
    assert found.fix is None


def test_sl903_synchronization_record_uses_d(tmp_path):
    body = "### DOC-002 — Drift\n\nDOC-002 is reconciled."
    header = f"`Cycle`: `{CID}` `Status`: `IN_PROGRESS`"
    root = sync_tree(tmp_path, header, st=AT_WORK, body=body)
    (found,) = findings(root, "SL903")
    fix_project(str(root), use_git=False)
    assert read(root, SYNC) == sync_record(header, "### D-002 — Drift\n\nD-002 is reconciled.")
    assert findings(root, "SL903") == []


# -- SL906 / SL904: a link whose target names another finding -----------------------


def test_sl906_points_the_link_at_the_finding_its_text_names(tmp_path):
    rel = f"../reviews/{CID}/implementation.md"
    body = f"Fixes [F-001]({rel}#F-002)."
    root = tree(tmp_path, {IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nText."), DOC: doc_record(body)})
    (sl906,) = findings(root, "SL906")
    (sl904,) = findings(root, "SL904")
    assert sl906.fix is not None and sl906.fix.applicability == "unsafe"
    assert sl904.fix == sl906.fix  # the bare-looking link text has the same root fix
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, DOC) == doc_record(f"Fixes [F-001]({rel}#F-001).")
    assert findings(root, "SL906") == [] and findings(root, "SL904") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl906_no_fix_for_a_plain_reference(tmp_path):
    body = f"See {IMPL}#F-007."
    root = tree(tmp_path, {IMPL: review("IMPLEMENTATION", "### F-001 — Bug\n\nText."), DOC: doc_record(body)})
    (found,) = findings(root, "SL906")
    assert found.fix is None


# -- SL930: the record exists at another path ------------------------------------------


def test_sl930_moves_the_cycle_record_to_its_fixed_path(tmp_path):
    elsewhere = "docs/moved.md"
    text = review("IMPLEMENTATION", "### F-001 — Bug\n\nFixed.").replace("`IN_PROGRESS`", "`COMPLETE`")
    root = tree(tmp_path, {elsewhere: text})
    (found,) = [f for f in findings(root, "SL930") if f.path == IMPL]
    assert found.fix is not None and found.fix.applicability == "unsafe"
    assert [(r.old, r.new) for r in found.fix.renames] == [(elsewhere, IMPL)]
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert report.renamed == {elsewhere: IMPL}
    assert not (root / elsewhere).exists() and read(root, IMPL) == text
    assert [f for f in findings(root, "SL930") if f.path == IMPL] == []


def test_sl930_no_fix_when_no_record_exists(tmp_path):
    root = tree(tmp_path, {})
    found = [f for f in findings(root, "SL930") if f.path == IMPL]
    assert len(found) == 1 and found[0].fix is None


def test_sl930_carries_the_respelt_id_when_the_record_sits_at_the_ids_fixed_path(tmp_path):
    # Active Work.Id miscopies the cycle ID (upper case); the review report is
    # at the real ID's fixed path, so the "missing" record is found once the
    # Id is respelt (SL260's fix, carried by SL930).
    text = review("IMPLEMENTATION", "### F-001 — Bug\n\nFixed.").replace("`IN_PROGRESS`", "`COMPLETE`")
    st = state().replace(f"`Id`: `{CID}`", f"`Id`: `{CID.upper()}`")
    root = tree(tmp_path, {IMPL: text}, st=st)
    (found,) = [f for f in findings(root, "SL930") if "reviews" in f.path]
    (sl260,) = findings(root, "SL260")
    assert found.fix is not None and found.fix.applicability == "unsafe"
    assert found.fix.edits == sl260.fix.edits and found.fix.edits[0].replacement == CID
    fix_project(str(root), use_git=False, unsafe=True)
    assert f"`Id`: `{CID}`" in read(root, STATE_PATH)
    assert [f for f in findings(root, "SL930") if "reviews" in f.path] == []


def test_sl930_no_respelt_id_when_the_record_is_not_there(tmp_path):
    st = state().replace(f"`Id`: `{CID}`", f"`Id`: `{CID.upper()}`")
    root = tree(tmp_path, {}, st=st)
    assert all(f.fix is None for f in findings(root, "SL930"))


# -- SL901: a misspelt status -----------------------------------------------------------


def test_sl901_respells_a_status_one_typo_away(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: `COMPLETES`")
    assert fixed_sync(root, "SL901", "unsafe") == sync_record(COMPLETE)
    assert findings(root, "SL901") == [] and findings(root, "SL931") == []


def test_sl901_past_the_gate_sets_complete(tmp_path):
    for value in ("IN PROGRESS", "OPEN"):
        root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: `{value}`")
        assert fixed_sync(root, "SL901", replacement="COMPLETE") == sync_record(COMPLETE), value
        assert findings(root, "SL901") == [] and findings(root, "SL931") == []


def test_sl901_respells_in_progress_before_the_gate(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: `IN PROGRESS`", st=AT_WORK)
    assert fixed_sync(root, "SL901") == sync_record(f"`Cycle`: `{CID}` `Status`: `IN_PROGRESS`")


def test_sl901_no_fix_for_an_entry_status(tmp_path):
    root = sync_tree(tmp_path, f"`Cycle`: `{CID}` `Status`: `OPEN`", st=AT_WORK)
    (found,) = findings(root, "SL901")
    assert found.fix is None


# -- SL902: a style stem in angle brackets -------------------------------------------------

PLAN = f".standards/docs/development/{CID}.md"


def plan(style):
    header = (f"`Cycle`: `{CID}` `Mode`: `STEPWISE`\n`User Style`: `{style}` `User Style Locked`: `true`\n"
              "`Status`: `APPROVED` `Verification Cadence`: `AFTER_IMPLEMENTATION` `Current Increment`: `NONE`")
    return record("DEVELOPMENT", header, body="### DEV-001 — Search\n\n`Status`: `PENDING` `Depends On`: `NONE`")


def test_sl902_style_stem_in_brackets_is_saved_by_its_full_name(tmp_path):
    styles = {".standards/user-styles/developer/<formal>.md": "Formal.\n",
              ".standards/user-styles/developer/tony.md": "Tony.\n"}
    root = tree(tmp_path, {PLAN: plan("<formal>"), **styles}, st=state("DEVELOPING", frm="ARCHITECTING"))
    (found,) = findings(root, "SL902")
    assert found.fix is not None and found.fix.applicability == "unsafe"
    fix_project(str(root), use_git=False, unsafe=True)
    assert read(root, PLAN) == plan("<formal>.md")
    assert findings(root, "SL902") == [] and findings(root, "SL990") == []


def test_sl902_no_style_is_inferred(tmp_path):
    styles = {".standards/user-styles/developer/<identifier>.md": "Odd.\n",
              ".standards/user-styles/developer/team | compact.md": "Team.\n"}
    for style in ("<identifier>", "<casual>", "team | compact.md", "NONE | <identifier>"):
        root = tree(tmp_path, {PLAN: plan(style), **styles}, st=state("DEVELOPING", frm="ARCHITECTING"))
        (found,) = findings(root, "SL902")
        assert found.fix is None, style
