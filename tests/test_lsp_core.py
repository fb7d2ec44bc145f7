"""The language server's project model (standards_lint.lsp.core), in
process: caches, the same findings as the command line, fix-all, the
workflow graph's links and outlines, hovers, positions."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from standards_lint.lsp.core import (
    Lines,
    Session,
    definition,
    field_hover,
    identifier_at,
    outline,
    references,
    rule_hover,
    utf16_units,
)

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo"
CYCLE = "add-user-search-20261130T024246Z-0db7f414"
STATE = ".standards/STATE.md"
SCOPE = f".standards/docs/scope/{CYCLE}.md"
SPEC = f".standards/docs/specs/{CYCLE}.md"
REVIEW = f".standards/docs/reviews/{CYCLE}/final-deliverable.md"
SYNC = f".standards/docs/synchronization/{CYCLE}.md"
DOC = f".standards/docs/documentation/{CYCLE}.md"


@pytest.fixture
def demo(tmp_path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def _cli(root: Path) -> list[tuple]:
    r = subprocess.run([sys.executable, "-m", "standards_lint", str(root), "--format", "json", "--no-cache"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode in (0, 1), r.stderr
    return sorted((f["code"], f["path"], f["line"], f["column"], f["severity"]) for f in json.loads(r.stdout)["findings"])


def _keys(run) -> list[tuple]:
    return sorted((f.code, f.path, f.line, f.column, f.severity) for f in run.findings)


def test_findings_are_the_command_lines_with_configuration_and_suppressions(demo):
    (demo / "standards-lint.toml").write_text(
        'ignore = ["SL215"]\nseverity = { SL931 = "warning" }\n', encoding="utf-8")
    state = demo / STATE
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace("## Recovery\n", "## Recovery\n\n<!-- standards-lint-disable-next-line SL501 -->\n"),
                     encoding="utf-8")
    run = Session(str(demo)).lint()
    assert _keys(run) == _cli(demo)
    codes = {f.code for f in run.findings}
    assert "SL215" not in codes and "SL501" not in codes and "SL214" in codes
    assert [f.severity for f in run.findings if f.code == "SL931"] == ["warning"]


def test_invalid_configuration_is_reported_not_linted(demo):
    (demo / "standards-lint.toml").write_text('ignore = ["SL9999"]\n', encoding="utf-8")
    s = Session(str(demo))
    assert s.lint() is None
    assert "SL9999" in s.config_error
    # Repaired on disk: picked up on the next run.
    (demo / "standards-lint.toml").write_text('ignore = ["SL215"]\n', encoding="utf-8")
    run = s.lint()
    assert run is not None and "SL215" not in {f.code for f in run.findings}


def test_only_what_changed_is_parsed_again(demo):
    s = Session(str(demo))
    first = s.lint()
    parsed = s.parse.parsed
    assert parsed >= 3
    s.lint()
    assert s.parse.parsed == parsed  # nothing changed: nothing parsed
    text = s.text(STATE)
    s.set_text(STATE, text.replace("`Active`: `true`", "`Active`: `false`", 1))
    run = s.lint()
    assert s.parse.parsed == parsed + 1  # only the edited buffer
    assert "SL501" in {f.code for f in first.findings} and "SL501" not in {f.code for f in run.findings}
    # Closing the buffer: the disk's text again (already parsed once).
    s.set_text(STATE, None)
    assert "SL501" in {f.code for f in s.lint().findings}


def test_disk_changes_and_new_files_are_seen(demo):
    s = Session(str(demo))
    assert "SL931" in {f.code for f in s.lint().by_path.get(SYNC, [])}
    sync = demo / SYNC
    sync.write_text(sync.read_text(encoding="utf-8").replace("`IN_PROGRESS`", "`COMPLETE`"), encoding="utf-8")
    assert SYNC not in s.lint().by_path  # a changed size is a changed file
    # A new Markdown file with a conflict marker: seen once the tree is re-walked.
    (demo / ".standards" / "CONTEXT.md").write_text("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n", encoding="utf-8")
    s.invalidate()
    assert any(f.path == ".standards/CONTEXT.md" for f in s.lint().findings)


def test_fix_all_makes_the_fixers_edits(demo):
    s = Session(str(demo))
    s.lint()
    after = s.fix_all(STATE)
    assert after is not None and "## Recovery\n\n`Active`: `false`" in after
    other = demo.parent / "cli"
    shutil.copytree(demo, other)
    subprocess.run([sys.executable, "-m", "standards_lint", str(other), "--fix", "--no-cache"],
                   capture_output=True, timeout=120)
    assert (other / STATE).read_text(encoding="utf-8") == after
    assert (demo / STATE).read_text(encoding="utf-8") != after  # nothing written


def _at(text: str, needle: str, skip: int = 0) -> int:
    return text.index(needle) + skip


def test_definitions_across_the_workflow_graph(demo):
    s = Session(str(demo))
    state = s.text(STATE)
    # A record path in Active Work -> that file.
    (t,) = definition(s, STATE, _at(state, SCOPE, 3))
    assert (t.path, t.span.line) == (SCOPE, 1)
    # AC-NNN -> its definition in the active scope (a retired one too).
    spec = s.text(SPEC)
    (t,) = definition(s, SPEC, _at(spec, "AC-002", 1))
    scope = s.text(SCOPE)
    assert (t.path, t.span.start) == (SCOPE, scope.index("AC-002"))
    s.set_text(SPEC, spec + "\nAC-003 was retired.\n")
    (t,) = definition(s, SPEC, _at(s.text(SPEC), "AC-003", 2))
    assert (t.path, t.span.start) == (SCOPE, scope.index("AC-003"))
    # DEV-NNN in Depends On -> the step of the development plan Active Work names.
    plan = ".standards/docs/development/plan.md"
    (demo / ".standards/docs/development").mkdir(parents=True)
    (demo / plan).write_text("# Plan\n\n## Steps\n\n### DEV-001 — First\n\n`Status`: `DONE`\n\n"
                             "### DEV-002 — Second\n\n`Status`: `PENDING` `Depends On`: `DEV-001`\n",
                             encoding="utf-8")
    s.invalidate()
    s.set_text(STATE, state.replace("`Development`: `NONE`", f"`Development`: `{plan}`"))
    text = s.text(plan)
    (t,) = definition(s, plan, _at(text, "`DEV-001`\n", 2))
    assert (t.path, t.span.start) == (plan, text.index("### DEV-001"))
    # F-NNN -> the review finding.
    review = s.text(REVIEW) + "\n## Findings\n\n### F-001 — A gap\n\nSee F-001.\n"
    s.set_text(REVIEW, review)
    (t,) = definition(s, REVIEW, _at(review, "See F-001", 5))
    assert (t.path, t.span.start) == (REVIEW, review.index("### F-001"))
    # Nothing to follow: nothing.
    assert definition(s, STATE, 0) == []


def test_references_list_every_record_citing_an_id(demo):
    s = Session(str(demo))
    spec = s.text(SPEC)
    refs = references(s, SPEC, _at(spec, "AC-001", 1))
    assert {r.path for r in refs} == {SCOPE, SPEC, REVIEW, SYNC, DOC}
    without = references(s, SPEC, _at(spec, "AC-001", 1), include_declaration=False)
    assert SCOPE not in {r.path for r in without}
    assert references(s, SPEC, 0) == []


def test_outlines_of_state_and_records(demo):
    s = Session(str(demo))
    state = s.text(STATE)
    framed = state.replace(
        "## Recovery\n\n`Active`: `true`\n",
        "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `TESTING` `Owner`: `ARCHITECTING`\n")
    s.set_text(STATE, framed)
    symbols = outline(s.doc(STATE))
    names = [(x.name, x.kind) for x in symbols]
    assert ("WorkflowState", "field") in names
    assert [n for n, k in names if k == "section"] == ["Active Work", "Handoff", "Recovery", "Outstanding Obligations"]
    recovery = next(x for x in symbols if x.name == "Recovery")
    assert [(c.name, c.kind) for c in recovery.children] == [("Frame 1", "frame")]
    assert recovery.span.start <= recovery.children[0].span.start <= recovery.children[0].span.end <= recovery.span.end
    scope = outline(s.doc(SCOPE))
    conditions = [x for x in scope if x.kind == "condition"]
    assert [c.name for c in conditions] == ["AC-001", "AC-002"]
    retired = next(x for x in scope if x.name == "Retired Acceptance Identifiers")
    assert [c.name for c in retired.children] == ["AC-003"]


def test_hovers(demo):
    s = Session(str(demo))
    run = s.lint()
    f = next(f for f in run.findings if f.code == "SL501")
    rule = s.registry.by_code()["SL501"]
    text = rule_hover(rule, f, "https://example.invalid/SL501.md")
    assert text.startswith("**SL501** `recovery-active-mismatch` (error)")
    assert "**Protocol section:** Recovery Mechanics" in text
    assert "> Keep the frame on the stack." in text
    assert "**Fix safety.** Safe" in text and "This finding's fix is safe" in text
    assert "(https://example.invalid/SL501.md)" in text
    doc = s.doc(STATE)
    rerun = field_hover(doc, doc.text.index("`WorkflowState`") + 2)
    assert "**`WorkflowState`**" in rerun and "`SIGNED_OFF`" in rerun
    active = field_hover(doc, doc.text.index("`Active`") + 2)
    assert "stack" in active  # the Recovery section's meaning of Active
    assert field_hover(doc, doc.text.index("# S.T.A.N.D.A.R.D.S.")) is None


def test_positions_in_utf16_units():
    text = "a\n`X`: `\U0001F600 é true`\n"
    lines = Lines(text, utf16_units)
    col = text.split("\n")[1].index("true") + 1  # 1-based column in characters
    assert lines.position(2, col) == (1, col - 1 + 1)  # the emoji is two UTF-16 units
    assert lines.offset(1, col - 1 + 1) == text.index("true")
    assert lines.offset_position(text.index("true")) == (1, col)
    assert Lines("abc").position(1, 3) == (0, 2)


def test_identifier_at():
    text = "see `AC-012`, DEV-3 and F-7; XAC-1 is none"
    assert identifier_at(text, text.index("AC-012") + 3)[0] == "AC-012"
    assert identifier_at(text, text.index("DEV-3"))[0] == "DEV-3"
    assert identifier_at(text, text.index("F-7") + 3)[0] == "F-7"
    assert identifier_at(text, text.index("XAC-1") + 2) is None



def test_the_plain_linter_never_imports_the_servers_dependencies(demo):
    code = (
        "import sys\n"
        "from standards_lint.cli import main\n"
        f"status = main([{str(demo)!r}, '--no-cache', '--format', 'json'])\n"
        "main(['rules'])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs'))\n"
        "print('LOADED', loaded, status)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "LOADED [] 1" in r.stdout, r.stdout[-500:] + r.stderr[-500:]


def test_field_hover_lists_the_values_of_the_projects_release():
    from standards_lint.lsp.fields import describe
    from standards_lint.model.releases import release_named

    newest = describe("CycleMode", "")
    assert "`DOCUMENTATION`" in newest
    old = describe("CycleMode", "", release_named("0.10.0"))
    assert "`EXPEDITED`" in old and "`DOCUMENTATION`" not in old
    assert "`COMPLETION_CHANGE`" not in describe("Kind", "Handoff", release_named("0.9.1"))
    assert "`COMPLETION_CHANGE`" in describe("Kind", "Handoff", release_named("0.10.0"))
    policy = describe("CompletionPolicy", "Active Work", release_named("0.9.1"))
    assert "0.8.0" in policy and "not read" in policy and "Allowed values" not in policy
    assert "Allowed values" in describe("CompletionPolicy", "Active Work", release_named("0.12.1"))
