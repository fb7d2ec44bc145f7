"""Workflow Artifact Provenance: the block at the top of a record (SL600) and
the record header's visible Cycle/ReviewKind (SL601, SL602)."""

from standards_lint.syntax.provenance import parse_block

CYCLE = "add-user-search-20261130T024551Z-bcf1ae8e"
VERIF = f".standards/docs/verification/{CYCLE}.md"
IMPL = f".standards/docs/reviews/{CYCLE}/implementation.md"


def active_state(cycle=CYCLE, ws="TESTING"):
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `STANDARD` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{cycle}` `Request`: `Add user search`
`Scope`: `.standards/docs/scope/{cycle}.md`
`Architecture`: `.standards/docs/specs/{cycle}.md` `Development`: `.standards/docs/development/{cycle}.md`
`PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `FORWARD` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`: `Plan complete.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


def block(artifact, cycle=CYCLE, kind=None, extra=""):
    k = f"ReviewKind: {kind}\n" if kind else ""
    return f"<!-- STANDARDS\nArtifact: {artifact}\nCycle: {cycle}\n{k}{extra}-->\n"


def found(findings, code):
    return [(f.path, f.line) for f in findings if f.code == code]


# -- SL600 ------------------------------------------------------------------------


def test_unknown_artifact_anywhere_in_the_project(lint_tree):
    findings = lint_tree({"docs/notes/broken.md": block("VERIFICATON", "x-1")})
    assert found(findings, "SL600") == [("docs/notes/broken.md", 2)]
    assert "unknown Artifact `VERIFICATON`" in [f for f in findings if f.code == "SL600"][0].message


def test_invalid_cycle_id_is_an_unexpected_line(lint_tree):
    text = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: not a cycle\n-->\n\n# Scope\n"
    findings = lint_tree({f".standards/docs/scope/{CYCLE}.md": text})
    hits = [f for f in findings if f.code == "SL600"]
    assert [(f.line, f.column) for f in hits] == [(3, 1)]
    assert "unexpected provenance line `Cycle: not a cycle`" in hits[0].message


def test_conflict_marker_inside_the_block(lint_tree):
    text = "<!-- STANDARDS\n<<<<<<< HEAD\nArtifact: SCOPE\n=======\ntheirs\n>>>>>>> branch\nArtifact: SCOPE\nCycle: a-1\n-->\n"
    findings = lint_tree({"docs/scope.md": text})
    hits = [f for f in findings if f.code == "SL600"]
    assert hits[0].line == 2 and "`<<<<<<< HEAD`" in hits[0].message


def test_review_kind_rules(lint_tree):
    findings = lint_tree(
        {
            "a.md": block("SCOPE", kind="IMPLEMENTATION"),
            "b.md": block("REVIEW"),
            "c.md": block("REVIEW", kind="IMPLEMENTATION", extra="ReviewKind: IMPLEMENTATION\n"),
        }
    )
    hits = {f.path: f for f in findings if f.code == "SL600"}
    assert "only REVIEW blocks may have `ReviewKind`" in hits["a.md"].message and hits["a.md"].line == 4
    assert "a REVIEW block needs `ReviewKind: IMPLEMENTATION`" in hits["b.md"].message
    assert "`ReviewKind` appears twice" in hits["c.md"].message and hits["c.md"].line == 5


def test_unclosed_block(lint_tree):
    text = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: a-1\n\n# Scope\n"
    findings = lint_tree({"docs/scope.md": text})
    hits = [f for f in findings if f.code == "SL600"]
    assert [(f.line, "never closed" in f.message) for f in hits] == [(1, True)]


def test_well_formed_blocks_and_runtime_files_are_quiet(lint_tree):
    findings = lint_tree(
        {
            "docs/scope.md": block("SCOPE", "old-cycle-1"),
            "docs/review.md": block("REVIEW", kind="FINAL_DELIVERABLE"),
            # the installed runtime is not inspected, only .standards/docs/
            ".standards/NOTES.md": block("NOPE", "x-1"),
            # not at the very start: no block at all
            "docs/late.md": "\n" + block("NOPE", "x-1"),
        }
    )
    assert found(findings, "SL600") == []


def test_parse_block_needs_the_first_line():
    assert parse_block("x.md", "\n" + block("SCOPE")) is None
    assert parse_block("x.md", "# Title\n" + block("SCOPE")) is None
    b = parse_block("x.md", "\ufeff" + block("SCOPE"))
    assert b is not None and b.valid and b.cycle == CYCLE


# -- SL601 / SL602 -------------------------------------------------------------------


def test_visible_cycle_must_match_block(lint_tree):
    text = block("VERIFICATION") + "\n# Verification Report\n\n`Cycle`: `other-cycle` `Status`: `IN_PROGRESS`\n"
    findings = lint_tree({VERIF: text}, state=active_state())
    assert found(findings, "SL601") == [(VERIF, 8)]


def test_missing_visible_cycle_counts_as_empty(lint_tree):
    text = block("VERIFICATION") + "\n# Verification Report\n\n`Status`: `IN_PROGRESS`\n"
    findings = lint_tree({VERIF: text}, state=active_state())
    assert found(findings, "SL601") == [(VERIF, 3)]


def test_visible_cycle_matching_or_other_cycles_record_is_quiet(lint_tree):
    good = block("VERIFICATION") + f"\n# Verification Report\n\n`Cycle`: `{CYCLE}`\n"
    old = block("VERIFICATION", "old-cycle-1") + "\n# Old\n\n`Cycle`: `something-else`\n"
    findings = lint_tree({VERIF: good, "archive/old.md": old}, state=active_state())
    assert found(findings, "SL601") == []


def test_scope_records_have_no_visible_cycle(lint_tree):
    findings = lint_tree({f".standards/docs/scope/{CYCLE}.md": block("SCOPE") + "\n# Scope\n"}, state=active_state())
    assert found(findings, "SL601") == []


def test_visible_review_kind_must_match_block(lint_tree):
    text = block("REVIEW", kind="IMPLEMENTATION") + (
        f"\n# Review Report\n\n`Cycle`: `{CYCLE}` `ReviewKind`: `FINAL_DELIVERABLE`\n"
    )
    findings = lint_tree({IMPL: text}, state=active_state(ws="REVIEWING_IMPLEMENTATION"))
    assert found(findings, "SL602") == [(IMPL, 9)]
    assert found(findings, "SL601") == []


def test_visible_review_kind_matching_is_quiet(lint_tree):
    text = block("REVIEW", kind="IMPLEMENTATION") + (
        f"\n# Review Report\n\n`Cycle`: `{CYCLE}` `ReviewKind`: `IMPLEMENTATION`\n"
    )
    findings = lint_tree({IMPL: text}, state=active_state(ws="REVIEWING_IMPLEMENTATION"))
    assert found(findings, "SL602") == []


def test_no_header_checks_after_sign_off(lint_tree):
    text = block("VERIFICATION") + "\n# Verification Report\n\n`Cycle`: `other-cycle`\n"
    findings = lint_tree({VERIF: text}, state=active_state(ws="SIGNED_OFF").replace("`STANDARD`", "`UNSET`"))
    assert found(findings, "SL601") == []


# -- Branches and merges (SL110 as the checker has it, SL111 beyond it) ----------------


def test_conflict_marker_inside_a_state_comment_is_a_conflict(lint_tree):
    from .conftest import CLEAN_STATE

    state = CLEAN_STATE.replace(
        "## Handoff", "<!-- note\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n-->\n\n## Handoff"
    )
    findings = lint_tree({}, state=state)
    assert found(findings, "SL110") == [(".standards/STATE.md", 15)]


CONFLICTED_SCOPE = block("SCOPE") + "\n# Scope\n\n<<<<<<< HEAD\n- `AC-001`: A.\n=======\n- `AC-001`: B.\n>>>>>>> branch\n"


def test_conflict_in_a_record_is_sl111_not_sl110(lint_tree):
    findings = lint_tree({f".standards/docs/scope/{CYCLE}.md": CONFLICTED_SCOPE}, state=active_state())
    assert found(findings, "SL110") == []
    assert found(findings, "SL111") == [(f".standards/docs/scope/{CYCLE}.md", 8)]


def test_older_cycle_records_are_read_for_conflicts_only_with_all_cycles(lint_tree):
    other = "older-work-20250101T000000Z-0000beef"
    older = {f".standards/docs/scope/{other}.md": CONFLICTED_SCOPE.replace(CYCLE, other)}
    assert found(lint_tree(older, state=active_state()), "SL111") == []
    assert found(lint_tree(older, state=active_state(), all_cycles=True), "SL111") == [
        (f".standards/docs/scope/{other}.md", 8)
    ]


def test_conflict_in_a_plain_file_under_standards_is_sl111(lint_tree):
    text = "# Notes\n\n<<<<<<< HEAD\nA\n=======\nB\n>>>>>>> branch\n"
    findings = lint_tree({".standards/docs/notes/n.md": text}, state=active_state())
    assert found(findings, "SL111") == [(".standards/docs/notes/n.md", 3)]


def test_no_conflict_no_sl111(lint_tree):
    findings = lint_tree({f".standards/docs/scope/{CYCLE}.md": block("SCOPE") + "\n# Scope\n\nText ======= here.\n"})
    assert found(findings, "SL111") == []
