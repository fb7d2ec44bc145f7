"""A test plugin: one working rule and one that raises."""

from standards_lint.engine.rule import module_rules, report, rule


@rule(code="TST001", name="state-title", section="Persisted Workflow State",
      summary="STATE.md has a title.", explanation="Test rule.")
def state_title(project):
    state = project.state
    if state is not None and state.doc.title is None:
        yield report(state.path, "STATE.md has no title.")


@rule(code="TST002", name="always-raises", section="Persisted Workflow State",
      summary="Raises.", explanation="Test rule that raises.")
def always_raises(project):
    raise RuntimeError("boom")
    yield  # pragma: no cover


standards_lint_rules = module_rules(globals())
