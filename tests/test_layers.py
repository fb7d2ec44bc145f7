"""The layers (docs/architecture.md): each package of standards_lint imports
only the packages below it in LAYERS (the one place the order is written), a
rule module never imports another rule module, and no rule module grows past
one protocol subsection's worth of lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
MAX_RULE_MODULE_LINES = 800

# The packages of standards_lint, bottom first: each imports only those on
# earlier lines (the package root, ``standards_lint/__init__.py``: the
# version, the cache folder, sha256, is below them all). Packages on one line
# are side by side and never import each other. docs/architecture.md opens
# with the same map.
LAYERS = (
    ("syntax",),             # files, the LALR tables and parser, AST, STATE/record/provenance views
    ("model",),              # what the files mean: the workflow, the cycle, holding, owners
    ("engine",),             # project, rule declarations, plugins, config, suppressions, run, cache
    ("fixes",),              # the shared fix builders and the fixer
    ("api",),                # the surface plugins import
    ("rules",),              # the built-in rule modules (rules/)
    ("output",),             # text, JSON, GitHub, SARIF, the rule catalogue
    ("status", "history"),   # standards-lint status, standards-lint history
    ("lsp", "agents"),       # standards-lint server; standards-lint hook, standards-lint mcp
    ("cli",),                # the command line that wires them
    ("__main__",),           # python -m standards_lint
)


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


def _rank() -> dict[str, int]:
    return {name: i for i, line in enumerate(LAYERS) for name in line}


def _package_files(root: Path = ROOT):
    """(path, the layer it belongs to, its dotted package) for every module
    of standards_lint: linter/ and rules/."""
    for path in sorted((root / "linter").rglob("*.py")):
        parts = list(path.relative_to(root / "linter").with_suffix("").parts)
        layer = parts[0] if len(parts) > 1 or parts[0] in _rank() else "standards_lint"
        package = ".".join(["standards_lint", *(parts if parts[-1] == "__init__" else parts[:-1])])
        yield path, layer, package.removesuffix(".__init__")
    for path in sorted((root / "rules").glob("*.py")):
        yield path, "rules", "standards_lint.rules"


def _layer_of(module: str) -> str | None:
    """The layer an imported module is in (None outside standards_lint; the
    package root for its own attributes: __version__, cache_dir)."""
    parts = module.split(".")
    if parts[0] != "standards_lint":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in _rank() else "standards_lint"


def layer_violations(root: Path = ROOT) -> list[str]:
    """Every import of a package on the same line of LAYERS or above, and
    every module in a package LAYERS does not name."""
    rank = _rank()
    out = []
    for path, layer, package in _package_files(root):
        where = path.relative_to(root).as_posix()
        if layer != "standards_lint" and layer not in rank:
            out.append(f"{where}: package {layer} is not in LAYERS")
            continue
        for line, module in _imports(path, package):
            target = _layer_of(module)
            if target is None or target == layer or target == "standards_lint":
                continue
            if layer == "standards_lint":
                out.append(f"{where}:{line} imports {module} (the package root imports no layer)")
            elif target not in rank or rank[target] >= rank[layer]:
                out.append(f"{where}:{line} imports {module} ({layer} is below {target})"
                           if target in rank and rank[target] > rank[layer]
                           else f"{where}:{line} imports {module} ({target} beside {layer})")
    return out


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


def test_each_package_imports_only_the_layers_below_it():
    assert layer_violations() == []


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


def test_the_layer_check_catches_planted_violations(tmp_path):
    (tmp_path / "linter" / "model").mkdir(parents=True)
    (tmp_path / "linter" / "status").mkdir()
    (tmp_path / "linter" / "history").mkdir()
    (tmp_path / "linter" / "widgets").mkdir()
    (tmp_path / "rules").mkdir()
    (tmp_path / "linter" / "__init__.py").write_text("from .engine.run import lint\n", "utf-8")
    (tmp_path / "linter" / "model" / "m.py").write_text(
        "from ..syntax.ast import Document\nfrom .. import __version__\n"
        "def g():\n    from ..rules.recovery import x\n    from standards_lint.engine.project import Project\n", "utf-8")
    (tmp_path / "linter" / "status" / "s.py").write_text("from ..history import run_history\nfrom ..output import formats\n", "utf-8")
    (tmp_path / "linter" / "history" / "h.py").write_text("import standards_lint.lsp.core\n", "utf-8")
    (tmp_path / "linter" / "widgets" / "w.py").write_text("x = 1\n", "utf-8")
    (tmp_path / "rules" / "r.py").write_text("from standards_lint import history\nfrom standards_lint.fixes import state\n", "utf-8")
    assert layer_violations(tmp_path) == [
        "linter/__init__.py:1 imports standards_lint.engine.run (the package root imports no layer)",
        "linter/history/h.py:1 imports standards_lint.lsp.core (history is below lsp)",
        "linter/model/m.py:4 imports standards_lint.rules.recovery (model is below rules)",
        "linter/model/m.py:5 imports standards_lint.engine.project (model is below engine)",
        "linter/status/s.py:1 imports standards_lint.history (history beside status)",
        "linter/widgets/w.py: package widgets is not in LAYERS",
        "rules/r.py:1 imports standards_lint.history (rules is below history)",
    ]
