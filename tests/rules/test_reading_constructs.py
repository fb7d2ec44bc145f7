"""How the workflow files are read where tools and people leave constructs
behind (the ``lexicon`` parity set shows the framework checker's reading, one
edit on a clean tree at a time).  Each test is one construct on a small tree
of its own, with the reading rule it pins."""

from __future__ import annotations

from .conftest import CLEAN_STATE, codes

TEMPLATE_NOTE = """<!-- When non-NONE, use one Markdown list entry per source cycle:
- `SourceCycle`: `<cancelled-cycle-id>`
  `Request`: `<source-cycle request summary>`
Preserve existing entries; see PROTOCOL.md, Baseline Reconciliation Format.
-->
"""


def errors(findings):
    return sorted(f.code for f in findings if f.severity == "error")


# -- HTML comments ----------------------------------------------------------------------
def test_clean_state_is_clean(lint_tree):
    assert errors(lint_tree({})) == []


def test_a_commented_out_section_is_still_read(lint_tree):
    st = CLEAN_STATE.replace("## Outstanding Obligations\n\n`Active`: `false`\n",
                             "<!--\n## Outstanding Obligations\n\n`Active`: `false`\n-->\n")
    assert errors(lint_tree({}, state=st)) == []


def test_a_commented_out_handoff_field_is_still_read(lint_tree):
    st = CLEAN_STATE.replace("`Reason`: `Installed.`", "<!-- `Reason`: `Installed.` -->")
    assert errors(lint_tree({}, state=st)) == []


def test_a_commented_out_active_work_field_is_missing(lint_tree):
    st = CLEAN_STATE.replace("`Scope`: `NONE`", "<!-- `Scope`: `NONE` -->")
    found = lint_tree({}, state=st)
    assert "SL202" in codes(found)
    assert any("Scope" in f.message for f in found if f.code == "SL202")


def test_the_install_templates_example_entry_in_active_work_is_no_entry(lint_tree):
    st = CLEAN_STATE.replace("`BaselineReconciliation`: `NONE`\n", "`BaselineReconciliation`: `NONE`\n\n" + TEMPLATE_NOTE)
    assert errors(lint_tree({}, state=st)) == []


# The Implementation-Reviewed Closure is read with its comments removed: a
# closure field in a comment is missing, a closure heading in a comment is no
# section, and a heading in a comment does not end the section.
def _closure_run(lint_tree, text, st=None):
    from .test_reviews import SIGNOFF, files, impl

    return lint_tree(files(impl(text)), state=st or SIGNOFF)


def test_a_commented_out_closure_field_is_missing(lint_tree):
    from .test_reviews import closure

    for name, line in (("Assessed Inputs", "`Assessed Inputs`: `Current scope and tests.`"),
                       ("Policy", "`Policy`: `IMPLEMENTATION_REVIEWED`")):
        text = closure().replace(line, f"<!-- {line} -->")
        found = [f for f in _closure_run(lint_tree, text) if f.code == "SL962"]
        assert len(found) == 1 and f"one concrete {name} field" in found[0].message and "missing" in found[0].message
    # A comment beside the fields is nothing to the closure.
    text = closure().replace("`User Reason`: `NONE`", "`User Reason`: `NONE` <!-- reviewed -->\n<!-- a note -->")
    assert [f.code for f in _closure_run(lint_tree, text) if f.code.startswith("SL96")] == []


def test_a_commented_out_closure_section_is_no_section(lint_tree):
    from .test_required_records import state
    from .test_reviews import closure

    text = "<!--\n" + closure() + "-->\n"
    # Sign-off readiness finds no closure assessment ...
    assert [f.code for f in _closure_run(lint_tree, text) if f.code.startswith("SL96")] == ["SL960"]
    # ... and outside sign-off there is no section whose fields to check.
    st = state("DOCUMENTING", frm="REVIEWING_IMPLEMENTATION")
    assert [f.code for f in _closure_run(lint_tree, text, st) if f.code.startswith("SL96")] == []


def test_a_commented_out_heading_does_not_end_the_closure_section(lint_tree):
    from .test_reviews import closure

    text = closure().replace("`Evidence`:", "<!--\n## Notes\n-->\n\n`Evidence`:")
    assert [f.code for f in _closure_run(lint_tree, text) if f.code.startswith("SL96")] == []


# -- heading levels in STATE.md -----------------------------------------------------------
def test_a_trailing_colon_keeps_the_section(lint_tree):
    st = CLEAN_STATE.replace("## Handoff\n", "## Handoff:\n")
    assert errors(lint_tree({}, state=st)) == []


def test_a_level_three_heading_is_still_the_section(lint_tree):
    st = CLEAN_STATE.replace("## Handoff\n", "### Handoff\n")
    assert errors(lint_tree({}, state=st)) == []


def test_a_level_one_heading_loses_the_section(lint_tree):
    st = CLEAN_STATE.replace("## Recovery\n", "# Recovery\n")
    found = [f for f in lint_tree({}, state=st) if f.code == "SL201"]
    assert len(found) == 1 and "Recovery" in found[0].message


def test_a_level_three_section_does_not_end_the_section_above_it(lint_tree):
    # `## Recovery` runs to the next `##` heading, so it holds the `Active`
    # of a `### Outstanding Obligations` below it too: repeated.
    st = CLEAN_STATE.replace("## Outstanding Obligations\n", "### Outstanding Obligations\n")
    found = lint_tree({}, state=st)
    assert [f.code for f in found if f.severity == "error" and "Active" in f.message and "Recovery" in f.message]


# -- look-alike characters ------------------------------------------------------------------
def test_a_no_break_space_after_a_colon_is_a_space(lint_tree):
    st = CLEAN_STATE.replace("`Scope`: `NONE`", "`Scope`:\u00a0`NONE`").replace("`Active`: `false`", "`Active`:\u3000`false`")
    assert errors(lint_tree({}, state=st)) == []


def test_a_zero_width_space_after_a_colon_is_no_space(lint_tree):
    st = CLEAN_STATE.replace("`Scope`: `NONE`", "`Scope`:\u200b`NONE`")
    assert any(f.code == "SL202" and "Scope" in f.message for f in lint_tree({}, state=st))


# -- setext titles ----------------------------------------------------------------------------
def test_a_record_without_an_atx_title_has_no_header():
    # The checker finds a record's header after its `# Title` line; under a
    # setext title (`Title` over `===`) the header holds nothing for it.
    from standards_lint.syntax.parser import parse_markdown

    body = "`Cycle`: `x-20261130T024253Z-72ffb0a9` `Status`: `COMPLETE`\n\n## Section\n"
    atx = parse_markdown("# Synchronization Record\n\n" + body, ".standards/docs/synchronization/a.md")
    setext = parse_markdown("Synchronization Record\n======================\n\n" + body, ".standards/docs/synchronization/a.md")
    assert [f.name for f in atx.header.fields] == ["Cycle", "Status"]
    assert setext.header.fields == [] and [f.name for f in setext.fields] == ["Cycle", "Status"]


def test_a_state_file_with_a_setext_title_keeps_its_header_and_reports_the_title(lint_tree):
    st = CLEAN_STATE.replace("# S.T.A.N.D.A.R.D.S. Workflow State\n",
                             "S.T.A.N.D.A.R.D.S. Workflow State\n==================================\n")
    assert errors(lint_tree({}, state=st)) == ["SL200"]


# -- acceptance mentions in fenced code -------------------------------------------------------
def test_fenced_mentions_count_in_records_but_not_in_the_scope():
    from standards_lint.model.acceptance import scan_text, scope_model

    text = "# Record\n\n## Acceptance Coverage\n\n```text\nAC-099 in an example\n## Not a heading\n```\n"
    scan = scan_text("r.md", text)
    [m] = scan.mentions
    assert (m.id, m.fenced, m.section) == ("AC-099", True, "Acceptance Coverage")
    assert scope_model(scan).appears == set()


def test_a_trailing_colon_keeps_the_retired_section():
    from standards_lint.model.acceptance import scan_text, scope_model

    scope = scope_model(scan_text("s.md", "# Scope\n\n## Retired Acceptance Identifiers:\n\n- `AC-003`: gone.\n"))
    assert set(scope.retired) == {"AC-003"} and not scope.current
