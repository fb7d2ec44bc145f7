"""SL260: a miscopied Active Work.Id gets the generated ID its records name."""

from __future__ import annotations

from standards_lint.fixes.fixer import fix_project

from .test_fixes import CID, OTHER, STATE_PATH, assert_second_run_is_idle, findings, read, state, tree

SCOPE = f".standards/docs/scope/{CID}.md"
PLAN = f".standards/docs/development/{CID}.md"


def scope(cycle=CID):
    return f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {cycle}\n-->\n\n# Scope\n\n- `AC-001`: Search works.\n"


def miscopied(value):
    return state().replace(f"`Id`: `{CID}`", f"`Id`: `{value}`")


def test_sl260_upper_case_id_gets_the_records_id(tmp_path):
    root = tree(tmp_path, {SCOPE: scope()}, miscopied(CID.upper()))
    [f] = findings(root, "SL260")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    safe_only, _ = fix_project(str(root), use_git=False, unsafe=False)
    assert "SL260" not in [x.code for x in safe_only.fixed]
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert "SL260" in [x.code for x in report.fixed]
    # The Id is the records' one; the scope then counts as this cycle's, and
    # SL643 points Active Work.Scope at it in the next pass.
    assert read(root, STATE_PATH) == state().replace("`Scope`: `NONE`", f"`Scope`: `{SCOPE}`")
    assert findings(root, "SL260") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl260_underscore_for_hyphen_is_fixed(tmp_path):
    root = tree(tmp_path, {SCOPE: scope()}, miscopied(CID.replace("-", "_", 1)))
    [f] = findings(root, "SL260")
    assert f.fix is not None
    assert f.fix.edits[0].replacement == CID


def test_sl260_no_fix_without_a_matching_record(tmp_path):
    root = tree(tmp_path, {SCOPE: scope(OTHER)}, miscopied(CID.upper()))
    [f] = findings(root, "SL260")
    assert f.fix is None


def test_sl260_no_fix_when_the_value_differs_otherwise(tmp_path):
    root = tree(tmp_path, {SCOPE: scope()}, miscopied(CID + "xy"))
    [f] = findings(root, "SL260")
    assert f.fix is None


def pointed(value):
    return miscopied(value).replace("`Scope`: `NONE`", f"`Scope`: `{SCOPE}`")


def test_sl260_one_character_doubled_or_dropped_is_a_miscopy_of_the_paths_id(tmp_path):
    for value in (CID + "x", CID[:-1], CID[:-1] + "g"):
        root = tree(tmp_path, {SCOPE: scope()}, pointed(value))
        [f] = findings(root, "SL260")
        assert f.fix is not None and f.fix.edits[0].replacement == CID, value


def test_sl260_a_typo_of_a_record_alone_is_no_evidence(tmp_path):
    # Only a record names the ID (it may be an older, finished cycle's).
    root = tree(tmp_path, {SCOPE: scope()}, miscopied(CID + "x"))
    [f] = findings(root, "SL260")
    assert f.fix is None


def test_sl260_two_candidate_ids_give_no_fix(tmp_path):
    near = CID[:-1] + ("0" if CID[-1] != "0" else "1")  # one character from CID
    other = f".standards/docs/specs/{near}.md"
    st = pointed(CID[:-1]).replace("`Architecture`: `NONE`", f"`Architecture`: `{other}`")
    root = tree(tmp_path, {SCOPE: scope()}, st)
    [f] = findings(root, "SL260")
    assert f.fix is None


def test_sl260_the_id_in_an_active_work_path_is_evidence(tmp_path):
    # The scope's block is malformed (no record), but Active Work.Scope holds
    # the path `artifact init` made from the generated ID.
    broken = scope().replace("-->\n", "Note: hand edit\n-->\n")
    st = miscopied(CID.upper()).replace("`Scope`: `NONE`", f"`Scope`: `{SCOPE}`")
    root = tree(tmp_path, {SCOPE: broken}, st)
    [f] = findings(root, "SL260")
    assert f.fix is not None and f.fix.edits[0].replacement == CID
    fix_project(str(root), use_git=False, unsafe=True)
    assert f"`Id`: `{CID}`" in read(root, STATE_PATH)
    assert findings(root, "SL260") == []


def test_sl641_and_sl642_caused_by_the_miscopied_id_carry_its_fix(tmp_path):
    plan = scope().replace("Artifact: SCOPE", "Artifact: DEVELOPMENT")
    st = miscopied(CID.upper()).replace("`Development`: `NONE`", f"`Development`: `{PLAN}`")
    root = tree(tmp_path, {SCOPE: scope(), PLAN: plan}, st)
    [sl260] = findings(root, "SL260")
    [sl641] = findings(root, "SL641")
    [sl642] = findings(root, "SL642")
    assert sl260.fix is not None
    assert sl641.fix == sl260.fix and sl642.fix == sl260.fix
    fix_project(str(root), use_git=False, unsafe=True)
    assert f"`Id`: `{CID}`" in read(root, STATE_PATH)
    assert findings(root, "SL641") == [] and findings(root, "SL642") == []
    assert_second_run_is_idle(root, unsafe=True)


def test_sl641_for_a_record_of_another_real_cycle_gets_no_id_fix(tmp_path):
    # The Id is a miscopy of CID, but the field names OTHER's record: the
    # respelt Id would not make it this cycle's, so the finding keeps no fix.
    other_scope = f".standards/docs/scope/{OTHER}.md"
    st = miscopied(CID.upper()).replace("`Scope`: `NONE`", f"`Scope`: `{other_scope}`")
    root = tree(tmp_path, {SCOPE: scope(), other_scope: scope(OTHER)}, st)
    [sl641] = findings(root, "SL641")
    assert sl641.fix is None


def test_sl260_a_record_cycle_not_in_the_generated_form_is_no_candidate(tmp_path):
    twin = CID[:-8] + CID[-8:].upper()  # upper-case hex: not a generated ID
    root = tree(tmp_path, {SCOPE: scope(), "docs/old.md": scope(twin)}, miscopied(CID.upper()))
    [f] = findings(root, "SL260")
    assert f.fix is not None and f.fix.edits[0].replacement == CID


def test_sl260_no_fix_when_the_id_is_a_baseline_source(tmp_path):
    entry = f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{CID}`\n  `Request`: `Old work.`"
    st = state(baseline=entry).replace(f"`Id`: `{CID}`", f"`Id`: `{CID.upper()}`")
    root = tree(tmp_path, {SCOPE: scope()}, st)
    [f] = findings(root, "SL260")
    assert f.fix is None
