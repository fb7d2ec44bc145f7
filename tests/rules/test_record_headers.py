"""Tests of rules/record_headers.py (SL900-SL929)."""

from .test_required_records import CID, DOC, IMPL, SYNC, VER, record, state

ACTIVE = state("TESTING", frm="DEVELOPING")
PLAN = f".standards/docs/development/{CID}.md"


def of(findings, code):
    return [f for f in findings if f.code == code]


def test_sl900_empty_status(lint_tree):
    found = of(lint_tree({VER: record("VERIFICATION", "")}, state=ACTIVE), "SL900")
    assert [(f.path, f.line) for f in found] == [(VER, 8)]


def test_sl900_missing_status(lint_tree):
    text = record("VERIFICATION", "IN_PROGRESS").replace(" `Status`: `IN_PROGRESS`", "")
    found = of(lint_tree({VER: text}, state=ACTIVE), "SL900")
    assert [(f.path, f.line) for f in found] == [(VER, 6)]


def test_sl900_silent_with_status(lint_tree):
    assert of(lint_tree({VER: record("VERIFICATION", "IN_PROGRESS")}, state=ACTIVE), "SL900") == []


def test_sl901_invalid_status_with_fix(lint_tree):
    found = of(lint_tree({VER: record("VERIFICATION", "complete")}, state=ACTIVE), "SL901")
    assert [(f.path, f.line) for f in found] == [(VER, 8)]
    assert found[0].fix is not None


def test_sl901_silent_for_valid_and_template(lint_tree):
    assert of(lint_tree({VER: record("VERIFICATION", "BLOCKED")}, state=ACTIVE), "SL901") == []
    assert of(lint_tree({VER: record("VERIFICATION", "IN_PROGRESS | BLOCKED | COMPLETE")}, state=ACTIVE), "SL901") == []


def test_sl902_template_choices(lint_tree):
    found = of(lint_tree({VER: record("VERIFICATION", "IN_PROGRESS | BLOCKED | COMPLETE")}, state=ACTIVE), "SL902")
    assert [(f.path, f.line) for f in found] == [(VER, 8)]
    assert "`IN_PROGRESS | BLOCKED | COMPLETE`" in found[0].message


def test_sl902_silent_for_one_value(lint_tree):
    assert of(lint_tree({VER: record("VERIFICATION", "IN_PROGRESS")}, state=ACTIVE), "SL902") == []


def test_sl903_documentation_uses_doc_prefix(lint_tree):
    text = record("DOCUMENTATION", "IN_PROGRESS", body="### D-001 — Old style\n\nText.")
    found = of(lint_tree({DOC: text}, state=ACTIVE), "SL903")
    assert [(f.path, f.line) for f in found] == [(DOC, 12)]


def test_sl903_silent_for_doc_prefix(lint_tree):
    text = record("DOCUMENTATION", "IN_PROGRESS", body="### DOC-001 — Old style\n\nText.")
    assert of(lint_tree({DOC: text}, state=ACTIVE), "SL903") == []


def test_sl904_bare_finding_in_other_record(lint_tree):
    text = record("DOCUMENTATION", "IN_PROGRESS", body="See F-001.")
    found = of(lint_tree({DOC: text}, state=ACTIVE), "SL904")
    assert [(f.path, f.line, f.column) for f in found] == [(DOC, 12, 5)]


def test_sl904_silent_with_path(lint_tree):
    files = {IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug\n\nText."),
             DOC: record("DOCUMENTATION", "IN_PROGRESS", body=f"See {IMPL}#F-001.")}
    found = lint_tree(files, state=ACTIVE)
    assert of(found, "SL904") == [] and of(found, "SL906") == [] and of(found, "SL907") == []


def test_sl905_review_mentions_unknown_own_finding(lint_tree):
    text = record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug\n\nF-004 is open.")
    found = of(lint_tree({IMPL: text}, state=ACTIVE), "SL905")
    assert [(f.path, f.line) for f in found] == [(IMPL, 15)]


def test_sl905_silent_for_own_finding(lint_tree):
    text = record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug\n\nF-001 is open.")
    assert of(lint_tree({IMPL: text}, state=ACTIVE), "SL905") == []


def test_sl906_reference_to_missing_finding(lint_tree):
    files = {IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug"),
             SYNC: record("SYNCHRONIZATION", "IN_PROGRESS", body=f"See ../reviews/{CID}/implementation.md#F-007.")}
    found = of(lint_tree(files, state=ACTIVE), "SL906")
    assert [(f.path, f.line) for f in found] == [(SYNC, 12)]


def test_sl907_reference_to_non_record(lint_tree):
    files = {SYNC: record("SYNCHRONIZATION", "IN_PROGRESS", body="See docs/notes.md#F-001.")}
    found = of(lint_tree(files, state=ACTIVE), "SL907")
    assert [(f.path, f.line) for f in found] == [(SYNC, 12)]


def test_sl908_review_mentions_unknown_step(lint_tree):
    plan = record("DEVELOPMENT", "IN_PROGRESS", body="### DEV-001 — Step")
    files = {PLAN: plan, IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="DEV-009 and DEV-001.")}
    found = of(lint_tree(files, state=ACTIVE), "SL908")
    assert [(f.path, f.line, f.column) for f in found] == [(IMPL, 13, 1)]


def test_sl908_silent_for_known_step(lint_tree):
    plan = record("DEVELOPMENT", "IN_PROGRESS", body="### DEV-001 — Step")
    files = {PLAN: plan, IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="DEV-001 is done.")}
    assert of(lint_tree(files, state=ACTIVE), "SL908") == []


def test_sl908_verification_report_mentions_a_step_headed_one_level_too_deep(lint_tree):
    # A `#### DEV-NNN` heading is no step of the plan (as the plan's own rules
    # read it, SL826), so the verification report's mention of it names no
    # step; the report's mentions are checked as a review report's are.
    plan = record("DEVELOPMENT", "IN_PROGRESS", body="### DEV-001 — Step\n\n#### DEV-002 — Box")
    ver = record("VERIFICATION", "IN_PROGRESS", body="| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |\n\nDEV-001 passed.")
    found = of(lint_tree({PLAN: plan, VER: ver}, state=ACTIVE), "SL908")
    assert [(f.path, f.line, f.column) for f in found] == [(VER, 12, 12)]
    assert "DEV-002" in found[0].message
    fixed = plan.replace("#### DEV-002", "### DEV-002")
    assert of(lint_tree({PLAN: fixed, VER: ver}, state=ACTIVE), "SL908") == []


def test_sl908_review_mention_of_a_step_headed_one_level_too_deep(lint_tree):
    plan = record("DEVELOPMENT", "IN_PROGRESS", body="#### DEV-001 — Step")
    files = {PLAN: plan, IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="DEV-001 is done.")}
    assert [f.path for f in of(lint_tree(files, state=ACTIVE), "SL908")] == [IMPL]


def test_sl904_link_text_with_matching_target_is_named(lint_tree):
    files = {IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug"),
             DOC: record("DOCUMENTATION", "IN_PROGRESS", body=f"Fixes [F-001](../reviews/{CID}/implementation.md#F-001).")}
    assert of(lint_tree(files, state=ACTIVE), "SL904") == []


def test_sl904_link_text_with_other_target_is_bare(lint_tree):
    files = {IMPL: record("REVIEW", "IN_PROGRESS", "IMPLEMENTATION", body="### F-001 — Bug\n\n### F-002 — Bug"),
             DOC: record("DOCUMENTATION", "IN_PROGRESS", body=f"Also [F-001](../reviews/{CID}/implementation.md#F-002).")}
    found = of(lint_tree(files, state=ACTIVE), "SL904")
    assert [(f.path, f.line, f.column) for f in found] == [(DOC, 12, 7)]


def test_sl900_misfiled_record_is_found_by_its_provenance(lint_tree):
    # The cycle's only VERIFICATION record sits in the scope folder: its header
    # is still this cycle's report and is checked where it is.
    text = record("VERIFICATION", "IN_PROGRESS").replace(" `Status`: `IN_PROGRESS`", "")
    misfiled = VER.replace("/verification/", "/scope/")
    found = of(lint_tree({misfiled: text}, state=ACTIVE), "SL900")
    assert [f.path for f in found] == [misfiled]


def test_sl900_second_record_beside_the_fixed_one_is_not_read(lint_tree):
    text = record("VERIFICATION", "IN_PROGRESS").replace(" `Status`: `IN_PROGRESS`", "")
    misfiled = VER.replace("/verification/", "/scope/")
    files = {misfiled: text, VER: record("VERIFICATION", "IN_PROGRESS")}
    assert of(lint_tree(files, state=ACTIVE), "SL900") == []


def test_record_headers_are_checked_behind_an_unreadable_workflow_state(lint_tree):
    # A repeated or missing WorkflowState silences the rules that branch on the
    # state, not a record's own header: its template choices are a problem in
    # any state of the active cycle.
    files = {VER: record("VERIFICATION", "IN_PROGRESS | BLOCKED | COMPLETE")}
    repeated = ACTIVE.replace("`WorkflowState`: `TESTING`", "`WorkflowState`: `TESTING` `WorkflowState`: `TESTING`")
    missing = ACTIVE.replace("`WorkflowState`: `TESTING` ", "")
    assert repeated != ACTIVE and missing != ACTIVE
    for st in (repeated, missing):
        found = lint_tree(files, state=st)
        assert "SL202" in {f.code for f in found}  # the state is unreadable ...
        assert [(f.path, f.line) for f in of(found, "SL902")] == [(VER, 8)]  # ... and the record still checked


def test_record_headers_stand_down_on_conflict_markers(lint_tree):
    conflicted = ACTIVE.replace("## Handoff", "<<<<<<< ours\n=======\n>>>>>>> theirs\n\n## Handoff")
    found = lint_tree({VER: record("VERIFICATION", "IN_PROGRESS | BLOCKED | COMPLETE")}, state=conflicted)
    assert "SL110" in {f.code for f in found}
    assert of(found, "SL902") == []
