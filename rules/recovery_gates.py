"""(being written)"""

from standards_lint.rule import module_rules

standards_lint_rules = module_rules(globals())
