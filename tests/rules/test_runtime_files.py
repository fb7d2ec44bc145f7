from .conftest import codes


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
