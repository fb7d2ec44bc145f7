"""SL213: a miscopied BaselineReconciliation source gets the generated ID its
records name."""

from __future__ import annotations

from standards_lint.fixes.fixer import fix_project

from .test_fixes import CID, OTHER, STATE_PATH, findings, read, state, tree

SCOPE = f".standards/docs/scope/{CID}.md"


def scope(cycle=CID):
    return f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {cycle}\n-->\n\n# Scope\n\n- `AC-001`: Search works.\n"


def baseline_state(source):
    entry = f"`BaselineReconciliation`:\n\n- `SourceCycle`: `{source}`\n  `Request`: `Change the cache.`"
    return state(baseline=entry)


def test_sl213_miscopied_source_gets_the_records_cycle(tmp_path):
    old = f".standards/docs/scope/{OTHER}.md"
    root = tree(tmp_path, {old: scope(OTHER)}, baseline_state(OTHER.upper()))
    [f] = findings(root, "SL213")
    assert f.fix is not None and f.fix.applicability == "unsafe"
    report, _ = fix_project(str(root), use_git=False, unsafe=True)
    assert "SL213" in [x.code for x in report.fixed]
    assert read(root, STATE_PATH) == baseline_state(OTHER)
    assert findings(root, "SL213") == []


def test_sl213_no_fix_without_a_matching_record(tmp_path):
    root = tree(tmp_path, {}, baseline_state("not-an-id"))
    [f] = findings(root, "SL213")
    assert f.fix is None


def test_sl213_no_fix_when_the_match_is_the_active_cycle(tmp_path):
    root = tree(tmp_path, {SCOPE: scope()}, baseline_state(CID.upper()))
    [f] = findings(root, "SL213")
    assert f.fix is None
