import pytest

from .conftest import BROWNFIELD_MODE, CLEAN_STATE, RUNTIME, codes


def test_clean_project_has_no_findings(lint_tree):
    assert lint_tree({}) == []


def test_missing_mode_file(lint_tree):
    from .conftest import RUNTIME

    files = {k: v for k, v in RUNTIME.items() if not k.endswith("MODE.md")}
    findings = [f for f in lint_tree(files, with_runtime=False) if f.code == "SL101"]
    assert [f.path for f in findings] == [".standards/MODE.md"]


def test_merge_conflict_points_at_marker_line(lint_tree):
    state = "# S.T.A.N.D.A.R.D.S. Workflow State\n\n<<<<<<< HEAD\n`WorkflowState`: `AUDITING`\n=======\n"
    findings = [f for f in lint_tree({}, state=state) if f.code == "SL110"]
    assert len(findings) == 1
    assert (findings[0].path, findings[0].line, findings[0].column) == (".standards/STATE.md", 3, 1)
    assert "keeping exactly one cycle" in findings[0].message


def test_conflict_marker_inside_prose_is_not_a_conflict(lint_tree):
    findings = lint_tree({".standards/CONTEXT.md": "# Context\n\nThe text <<<<<<< is prose.\n"})
    assert "SL110" not in codes(findings)


# -- Branches and merges: a conflict stops every workflow rule ------------------
_BROKEN_STATE = CLEAN_STATE.replace("`Kind`: `INITIAL`", "`Kind`: `SIDEWAYS`").replace(
    "## Outstanding Obligations", "## outstanding obligations"
)


def _with_conflict(text: str) -> str:
    return text.replace(
        "## Handoff\n",
        "## Handoff\n\n<<<<<<< HEAD\n`Reason`: `ours`\n=======\n`Reason`: `theirs`\n>>>>>>> topic\n",
    )


def test_state_problems_are_reported_without_a_conflict(lint_tree):
    # The control: the same broken values are findings of the workflow rules.
    found = set(codes(lint_tree({}, state=_BROKEN_STATE)))
    assert {"SL201", "SL220"} <= found


@pytest.mark.parametrize("where", [".standards/STATE.md", ".standards/MODE.md", ".standards/CONTEXT.md"])
def test_conflict_in_a_workflow_file_stops_every_workflow_rule(lint_tree, where):
    files = {}
    state = _BROKEN_STATE
    marker = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> topic\n"
    if where == ".standards/STATE.md":
        state = _with_conflict(_BROKEN_STATE)
    elif where == ".standards/MODE.md":
        files[where] = BROWNFIELD_MODE + "\n" + marker
    else:
        files[where] = "# Project Context\n\n" + marker
    findings = lint_tree(files, state=state)
    assert codes(findings) and set(codes(findings)) == {"SL110"}
    assert all(f.path == where for f in findings)


def test_conflict_reports_still_run_beside_a_workflow_conflict(lint_tree):
    record = ".standards/docs/scope/notes.md"
    findings = lint_tree(
        {record: "# Notes\n\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> topic\n"},
        state=_with_conflict(CLEAN_STATE),
        with_runtime=True,
    )
    assert "SL110" in codes(findings)


def test_plugin_rules_stand_down_during_a_conflict_unless_declared(tmp_path):
    from standards_lint.engine.run import Registry, run_rules
    from standards_lint.engine.project import Project
    from standards_lint.engine.rule import report, rule

    @rule(code="XX001", name="always", section="Test", summary="Always reports.")
    def always(project):
        yield report(".standards/STATE.md", "always")

    @rule(code="XX002", name="always-even-now", section="Test", summary="Reports during conflicts.",
          during_conflict=True)
    def always_even_now(project):
        yield report(".standards/STATE.md", "always")

    from .conftest import write_tree

    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": _with_conflict(CLEAN_STATE)}))
    result = run_rules(Project(str(tmp_path), use_git=False), [always, always_even_now])
    assert [f.code for f in result.findings] == ["XX002"]
    write_tree(tmp_path, {".standards/STATE.md": CLEAN_STATE})
    result = run_rules(Project(str(tmp_path), use_git=False), [always, always_even_now])
    assert sorted(f.code for f in result.findings) == ["XX001", "XX002"]
