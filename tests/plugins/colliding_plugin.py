"""Declares a code that good_plugin already declares."""

from standards_lint.engine.rule import module_rules, rule


@rule(code="TST001", name="duplicate", section="x", summary="dup", explanation="dup")
def duplicate(project):
    return ()


standards_lint_rules = module_rules(globals())
