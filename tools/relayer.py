"""Regroup ``linter/`` into one package per layer (issue 35), mechanically.

    python tools/relayer.py          # from the repository root; --dry-run lists the moves

The move map below is the one place that says where each module went.  The
script

1. ``git mv``s every module of the map (skipping those already moved),
2. creates each new package's ``__init__.py`` (one docstring line),
3. rewrites every reference to a moved module in the tracked ``.py``,
   ``.toml``, ``.md``, ``.yml``, ``.yaml``, ``.cfg`` files and
   ``.gitattributes``: ``standards_lint.x`` (imports, entry points,
   ``python -m``, strings), relative imports (``from .x import``,
   ``from ..x import``, ``from . import x``), ``from standards_lint import x``,
   and paths (``linter/x.py``),
4. adds the new packages to ``pyproject.toml``'s package list and
   ``package-dir`` table.

It is purely mechanical, so it can be re-run on a newer main (new functions
in moved modules, new imports of old paths in new files).  Run on a tree it
has already moved, it moves nothing and rewrites only references that are
still unambiguous old names (an old module whose name is now a package,
``engine``, ``output``, ``status``, is then left alone).  Hand-made changes
(the status split, the layer table, the docs) are separate commits.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

# old module (under linter/) -> new module (dotted, under standards_lint)
MOVES = {
    # syntax: bytes to an AST and the views of STATE.md, records, provenance
    "data": "syntax.data",
    "source": "syntax.source",
    "protocol": "syntax.protocol",
    "ast": "syntax.ast",
    "lalr": "syntax.lalr",
    "_markdown_tables": "syntax._markdown_tables",
    "parser": "syntax.parser",
    "build_parser": "syntax.build_parser",
    "provenance": "syntax.provenance",
    "state": "syntax.state",
    "records": "syntax.records",
    # model: what the files mean (beside the existing modules)
    "holding": "model.holding",
    "owners": "model.owners",
    # engine: the project, rules and plugins, configuration, the run, the cache
    "engine": "engine.run",
    "project": "engine.project",
    "rule": "engine.rule",
    "findings": "engine.findings",
    "hookspecs": "engine.hookspecs",
    "config": "engine.config",
    "suppress": "engine.suppress",
    "cache": "engine.cache",
    "links": "engine.links",
    # fixes: the shared fix builders (already there) and the fixer
    "fixer": "fixes.fixer",
    # output: the formats, SARIF, the rule catalogue
    "output": "output.formats",
    "sarif": "output.sarif",
    "catalogue": "output.catalogue",
    # integrations
    "status": "status.document",
    "server": "lsp.server",
    "lsp_core": "lsp.core",
    "lsp_fields": "lsp.fields",
    "hook": "agents.hook",
    "mcp": "agents.mcp",
}

PACKAGES = {
    "syntax": "Syntax: reading files, the grammar's LALR tables and parser, the AST and the views of STATE.md, records and provenance blocks.",
    "engine": "The engine: the project, rule declarations and plugins, configuration, suppressions, the run and its result cache.",
    "output": "Output: the text, JSON, GitHub and SARIF formats and the rule catalogue.",
    "status": "`standards-lint status`: where the workflow stands and the one next action.",
    "lsp": "`standards-lint server`: the language server and the editor model it answers from.",
    "agents": "For agents: the Stop hook (`standards-lint hook`) and the MCP server (`standards-lint mcp`).",
}

SUFFIXES = (".py", ".toml", ".md", ".yml", ".yaml", ".cfg")
NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def sh(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def new_submodules() -> dict[str, set[str]]:
    """package -> its module names, for the old names that are now packages."""
    subs: dict[str, set[str]] = {}
    for new in MOVES.values():
        pkg, _, mod = new.rpartition(".")
        subs.setdefault(pkg, set()).add(mod)
    for pkg in list(subs):
        folder = os.path.join("linter", pkg)
        if os.path.isdir(folder):
            subs[pkg] |= {f[:-3] for f in os.listdir(folder) if f.endswith(".py")}
            subs[pkg] |= {d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d))}
    return subs


def move(dry: bool) -> tuple[bool, list[str]]:
    """git mv each module: (was the tree still in the old layout, the old
    names moved now)."""
    old_layout = False
    moved = []
    for old, new in MOVES.items():
        src = os.path.join("linter", old + ".py")
        dst = os.path.join("linter", *new.split(".")) + ".py"
        if not os.path.isfile(src):
            continue
        old_layout = True
        moved.append(old)
        print(f"git mv {src} {dst}")
        if not dry:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            sh("git", "mv", src, dst)
    for pkg, doc in PACKAGES.items():
        init = os.path.join("linter", pkg, "__init__.py")
        if not os.path.exists(init) and not dry:
            with open(init, "w", encoding="utf-8") as f:
                f.write(f'"""{doc}"""\n')
            sh("git", "add", init)
    return old_layout, moved


def colliding() -> set[str]:
    """Old module names that are now package names (engine, output, status)."""
    return {old for old in MOVES if old in {n.split(".")[0] for n in MOVES.values()}}


def rewrite_dotted(text: str, ambiguous_ok: bool, subs: dict[str, set[str]]) -> str:
    """standards_lint.OLD[.x] -> standards_lint.NEW[.x]."""
    collide = colliding()

    def sub(m: re.Match) -> str:
        old, rest = m.group(1), m.group(2) or ""
        if old not in MOVES:
            return m.group(0)
        if old in collide:
            nxt = rest[1:]
            if nxt and nxt in subs.get(old, ()):  # already the package's module
                return m.group(0)
            if not ambiguous_ok:
                return m.group(0)
        return "standards_lint." + MOVES[old] + rest

    return re.sub(rf"(?<![\w.])standards_lint\.({NAME})((?:\.{NAME})?)", sub, text)


def rewrite_dunder_import(text: str) -> str:
    """``__import__("standards_lint.pkg.mod").mod`` -> ``...).pkg.mod``: the
    attribute chain after ``__import__`` (which returns the top package)
    follows the module's new path."""

    def sub(m: re.Match) -> str:
        path, attr = m.group(1), m.group(2)
        parts = path.split(".")
        if len(parts) < 2 or attr == parts[0] or attr != parts[-1]:
            return m.group(0)
        return f'__import__("standards_lint.{path}").{path}'

    return re.sub(rf'__import__\("standards_lint\.({NAME}(?:\.{NAME})*)"\)\.({NAME})', sub, text)


def rewrite_paths(text: str) -> str:
    """linter/OLD.py -> linter/NEW.py (docs, comments, .gitattributes)."""

    def sub(m: re.Match) -> str:
        old = m.group(1)
        return "linter/" + MOVES[old].replace(".", "/") + ".py" if old in MOVES else m.group(0)

    return re.sub(rf"(?<![\w/])linter/({NAME})\.py\b", sub, text)


def module_of(path: str) -> str | None:
    """The dotted module a .py file under linter/ is, in the current layout."""
    parts = os.path.normpath(path).split(os.sep)
    if parts[0] != "linter":
        return None
    mod = [p[:-3] if p.endswith(".py") else p for p in parts[1:]]
    if mod[-1] == "__init__":
        mod = mod[:-1]
    return ".".join(["standards_lint", *mod])


def rewrite_relative(text: str, path: str, moved_from: dict[str, str], old_layout: bool,
                     subs: dict[str, set[str]]) -> str:
    """Relative imports of a module under linter/: resolved against where
    the file was, mapped, and written relative to where it is."""
    now = module_of(path)
    if now is None:
        return text
    was = moved_from.get(now, now)
    is_pkg = path.endswith("__init__.py")
    was_pkg = was.split(".") if is_pkg else was.split(".")[:-1]
    now_pkg = now.split(".") if is_pkg else now.split(".")[:-1]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = was_pkg[: len(was_pkg) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
        names = [a.name for a in node.names]
        if node.module is None and target == "standards_lint":
            # from . import x, y: x may be a moved module
            movedn = [n for n in names if n in MOVES and (old_layout or n not in colliding())]
            if not movedn:
                new_target, new_names = target, None
            else:
                if len(names) != 1:
                    continue  # left for a person (none in the tree)
                new_full = "standards_lint." + MOVES[names[0]]
                new_target, new_names = new_full.rpartition(".")[0], names[0]
                if MOVES[names[0]].split(".")[-1] != names[0]:
                    new_names = f"{MOVES[names[0]].split('.')[-1]} as {names[0]}"
        else:
            new_target, new_names = map_module(target, old_layout, subs), None
        if new_target == target and was_pkg == now_pkg and new_names is None:
            continue
        rel = relative(now_pkg, new_target.split("."))
        seg = lines[node.lineno - 1]
        if node.lineno != node.end_lineno and new_names is not None:
            continue
        old_head = re.match(r"(\s*from\s+)(\.+[\w.]*)(\s+import\s+)", seg)
        if not old_head:
            continue
        head = old_head.group(1) + rel + old_head.group(3)
        rest = seg[old_head.end():]
        if new_names is not None:
            rest = re.sub(rf"^{names[0]}\b", new_names, rest)
        edits.append((node.lineno - 1, head + rest))
    for i, line in edits:
        lines[i] = line
    return "".join(lines)


def map_module(full: str, old_layout: bool = True, subs: dict[str, set[str]] | None = None) -> str:
    parts = full.split(".")
    if len(parts) >= 2 and parts[0] == "standards_lint" and parts[1] in colliding():
        if not old_layout or (len(parts) > 2 and parts[2] in (subs or {}).get(parts[1], ())):
            return full  # already the package (or one of its modules)
    if len(parts) >= 2 and parts[0] == "standards_lint" and parts[1] in MOVES:
        return "standards_lint." + MOVES[parts[1]] + ("." + ".".join(parts[2:]) if parts[2:] else "")
    return full


def relative(from_pkg: list[str], target: list[str]) -> str:
    common = 0
    while common < min(len(from_pkg), len(target)) and from_pkg[common] == target[common]:
        common += 1
    up = len(from_pkg) - common
    return "." * (up + 1) + ".".join(target[common:])


def rewrite_from_package(text: str) -> str:
    """from standards_lint import x[, y]  ->  from standards_lint.pkg import x
    (one statement per package; in a line of its own, or in a string of
    ``;``-separated statements)."""

    def sub(m: re.Match) -> str:
        lead, body = m.group(1), m.group(2)
        names = [n.strip() for n in body.split(",")]
        if not any(n.split(" as ")[0].strip() in MOVES for n in names):
            return m.group(0)
        groups: dict[str, list[str]] = {}
        for n in names:
            name, _, alias = (x.strip() for x in n.partition(" as "))
            alias = alias or name
            if name in MOVES:
                pkg, _, mod = ("standards_lint." + MOVES[name]).rpartition(".")
            else:
                pkg, mod = "standards_lint", name
            groups.setdefault(pkg, []).append(mod if mod == alias else f"{mod} as {alias}")
        stmts = [f"from {pkg} import {', '.join(ns)}" for pkg, ns in groups.items()]
        sep = ("\n" + lead) if lead.strip() == "" and (m.start() == 0 or text[m.start() - 1] == "\n") else "; "
        return lead + sep.join(stmts)

    return re.sub(rf"(^[ \t]*|(?<=; )|(?<=[\"']))from standards_lint import ({NAME}(?: as {NAME})?(?:, *{NAME}(?: as {NAME})?)*)(?=[ \t]*(?:#.*)?$|;|[\"'])",
                  sub, text, flags=re.M)


def update_pyproject(text: str) -> str:
    m = re.search(r"^packages = \[(.*)\]$", text, re.M)
    have = re.findall(r'"([^"]+)"', m.group(1))
    for pkg in PACKAGES:
        full = f"standards_lint.{pkg}"
        if full not in have:
            have.insert(have.index("standards_lint.rules"), full)
    text = text[: m.start()] + "packages = [" + ", ".join(f'"{p}"' for p in have) + "]" + text[m.end():]
    for pkg in PACKAGES:
        line = f'"standards_lint.{pkg}" = "linter/{pkg}"\n'
        if line not in text:
            anchor = '"standards_lint.rules" = "rules"\n'
            text = text.replace(anchor, line + anchor)
    return text


def main(argv: list[str]) -> int:
    dry = "--dry-run" in argv
    root = sh("git", "rev-parse", "--show-toplevel").strip()
    os.chdir(root)
    old_layout, moved = move(dry)
    if dry:
        return 0
    # where each file moved by this run was (a file moved by an earlier run
    # has had its relative imports rewritten already)
    moved_from = {"standards_lint." + MOVES[old]: "standards_lint." + old for old in moved}
    subs = new_submodules()
    files = [f for f in sh("git", "ls-files").splitlines()
             if (f.endswith(SUFFIXES) or f == ".gitattributes") and os.path.isfile(f)
             and not f.startswith("tools/relayer.py")]
    changed = 0
    for f in files:
        with open(f, encoding="utf-8", newline="") as fh:
            try:
                text = fh.read()
            except UnicodeDecodeError:
                continue
        new = text
        new = rewrite_dotted(new, old_layout, subs)  # first: its output has no bare old name
        if f.endswith(".py"):
            new = rewrite_relative(new, f, moved_from, old_layout, subs)
            new = rewrite_from_package(new)
            new = rewrite_dunder_import(new)
        new = rewrite_paths(new)
        if f == "pyproject.toml":
            new = update_pyproject(new)
        if new != text:
            with open(f, "w", encoding="utf-8", newline="") as fh:
                fh.write(new)
            changed += 1
    print(f"{len(MOVES)} modules mapped, {changed} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
