"""The layers (docs/architecture.md): a rule module never imports another rule
module, the model and the shared fixes never import a rule module, and no rule
module grows past one protocol subsection's worth of lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
MAX_RULE_MODULE_LINES = 800


def _imports(path: Path, package: str):
    """(line, imported module) for every import in *path*, at module level
    or inside a function; relative imports resolved against *package*."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                names = [f"{module}.{a.name}" for a in node.names] if not node.module else [module]
            else:
                module = node.module or ""
                names = [module]
                if module == "standards_lint":  # from standards_lint import rules
                    names = [f"standards_lint.{a.name}" for a in node.names]
            for name in names:
                yield node.lineno, name


def _is_rules(module: str) -> bool:
    return module == "standards_lint.rules" or module.startswith("standards_lint.rules.")


def rule_module_violations(folder: Path = RULES) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.py")):
        for line, module in _imports(path, "standards_lint.rules"):
            if _is_rules(module):
                out.append(f"{path.name}:{line} imports {module}")
    return out


def model_violations(folder: Path, package: str) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.py")):
        for line, module in _imports(path, package):
            if _is_rules(module):
                out.append(f"{folder.name}/{path.name}:{line} imports {module}")
    return out


def long_rule_modules(folder: Path = RULES) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.py")):
        n = len(path.read_text("utf-8").splitlines())
        if n > MAX_RULE_MODULE_LINES:
            out.append(f"{path.name}: {n} lines")
    return out


def test_no_rule_module_imports_another():
    assert rule_module_violations() == []


def test_model_and_fixes_never_import_rules():
    assert model_violations(ROOT / "linter" / "model", "standards_lint.model") == []
    assert model_violations(ROOT / "linter" / "fixes", "standards_lint.fixes") == []


def test_no_rule_module_over_800_lines():
    assert long_rule_modules() == []


def test_the_checks_catch_planted_violations(tmp_path):
    """Each check fails on a tree that breaks it (a test that cannot fail
    is a defect)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.py").write_text(
        "from standards_lint.engine.rule import rule\n"
        "def f():\n"
        "    from standards_lint.rules.b import helper\n"
        "    return helper\n", "utf-8")
    (rules / "b.py").write_text("from .a import f\nimport standards_lint.rules.c\n", "utf-8")
    (rules / "c.py").write_text("from standards_lint import rules\nfrom standards_lint.model import plan\n", "utf-8")
    (rules / "d.py").write_text("x = 1\n" * (MAX_RULE_MODULE_LINES + 1), "utf-8")
    found = rule_module_violations(rules)
    assert found == [
        "a.py:3 imports standards_lint.rules.b",
        "b.py:1 imports standards_lint.rules.a",
        "b.py:2 imports standards_lint.rules.c",
        "c.py:1 imports standards_lint.rules",
    ]
    assert long_rule_modules(rules) == [f"d.py: {MAX_RULE_MODULE_LINES + 1} lines"]
    model = tmp_path / "model"
    model.mkdir()
    (model / "m.py").write_text("def g():\n    from ..rules.recovery import x\n", "utf-8")
    assert model_violations(model, "standards_lint.model") == ["model/m.py:2 imports standards_lint.rules.recovery"]


def test_nothing_below_the_history_package_imports_it():
    """The history reads the model and runs the rules; the model, the shared
    fixes and the rule modules never import it (standards_lint.history)."""
    bad = []
    for folder, package in ((ROOT / "linter" / "model", "standards_lint.model"),
                            (ROOT / "linter" / "fixes", "standards_lint.fixes"), (RULES, "standards_lint.rules")):
        for path in sorted(folder.glob("*.py")):
            for line, module in _imports(path, package):
                if module == "standards_lint.history" or module.startswith("standards_lint.history."):
                    bad.append(f"{path.name}:{line} imports {module}")
    assert bad == []
