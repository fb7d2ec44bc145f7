"""Split ``linter/status/document.py`` (the 891-line status module as
tools/relayer.py moves it) into the status package's modules, by top-level
definition, with the imports between them; then point its importers at them.

    python tools/split_status.py     # after tools/relayer.py, from the repository root

- ``next.py``: the words of roles and invocations and the next-action decision;
- ``document.py``: the status document (``status``, ``status_of``, the builder);
- ``render.py``: every definition from ``render`` on (text, JSON, Markdown and
  Mermaid, the hover);
- ``command.py``: ``USAGE`` and ``main``.

Mechanical, so it can be re-run on a newer main after tools/relayer.py (a new
function lands in the module its neighbours are in; an import between the
parts that would point upward fails the split).  It refuses a tree already
split (``linter/status/next.py`` exists).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

PATH = "linter/status/document.py"

DOCS = {
 "next": '''"""The next action of ``standards-lint status``: the one thing to do now
(``invoke`` the role that owns the state, with its Codex and Claude Code
commands; ``fix-first``; or ``decide``, for the user), decided from the
status document and the findings, and the words it is said in (roles,
invocations, the protocol's paths).  See :mod:`standards_lint.status.document`."""''',
 "render": '''"""The renderings of the status document: text (with colour), JSON,
Markdown with a Mermaid flowchart of the route, and the editor's hover.
Each is made from the document only (:func:`standards_lint.status.document.status_of`),
so every format says the same thing."""''',
 "command": '''"""``standards-lint status [PATH]``: the command line (options, the
configuration, the lint, the chosen rendering)."""''',
}


def split() -> None:
    src = open(PATH).read()
    lines = src.splitlines(keepends=True)
    tree = ast.parse(src)
    body = tree.body
    doc_end = body[0].end_lineno  # module docstring
    # assign each top-level statement to a target
    NEXT = {"WORKFLOW_ROLES", "REVIEW_KINDS", "INVOCATION", "RECOVERY_INVOCATION", "SESSION_PREFIX", "COLLISION_CODES",
            "CONFLICT_CODES", "USER", "STATE_PATH", "MODE_PATH",
            "role_name", "_cap", "skill_of", "invocation", "_set", "shorten", "REQUEST_WIDTH", "_finding_brief",
            "_nxt", "_count", "_owners_line", "_next", "_role_commands", "_resume_words", "_start_words", "_ended",
            "_pending_blocked", "_signoff"}
    RENDER_FROM = "render"
    COMMAND = {"USAGE", "main"}
    def name_of(n):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)): return n.name
        if isinstance(n, ast.Assign): return n.targets[0].id
        if isinstance(n, ast.AnnAssign): return n.target.id
        return None
    order = [name_of(n) for n in body]
    render_start = order.index(RENDER_FROM)
    usage_i = order.index("USAGE")
    parts = {"next": [], "document": [], "render": [], "command": []}
    defined = {}
    for i, n in enumerate(body):
        nm = name_of(n)
        if i == 0 or isinstance(n, (ast.ImportFrom, ast.Import)):
            continue
        if nm in COMMAND: t = "command"
        elif i >= render_start: t = "render"
        elif nm in NEXT: t = "next"
        else: t = "document"
        # include preceding comment/blank lines
        start = n.lineno - 1
        if hasattr(n, "decorator_list") and n.decorator_list: start = n.decorator_list[0].lineno - 1
        parts[t].append((start, n.end_lineno, nm, n))
        defined[nm] = t
    # names used by each part
    def used(n):
        return {x.id for x in ast.walk(n) if isinstance(x, ast.Name)}
    out = {}
    ORDER = ["next", "document", "render", "command"]
    for t in ORDER:
        need = {}
        for s, e, nm, n in parts[t]:
            for u in used(n):
                if u in defined and defined[u] != t:
                    need.setdefault(defined[u], set()).add(u)
        for d in need:
            assert ORDER.index(d) < ORDER.index(t), (t, d, need[d])
        chunks = []
        for s, e, nm, n in parts[t]:
            # keep comment lines directly above
            k = s
            while k > 0 and lines[k - 1].lstrip().startswith("#"):
                k -= 1
            chunks.append("".join(lines[k:e]))
        out[t] = (need, chunks)
        print(t, {k: sorted(v) for k, v in need.items()}, file=sys.stderr)
    parts = {t: ({k: sorted(v) for k, v in out[t][0].items()}, out[t][1]) for t in out}

    doc = ast.get_docstring(ast.parse(src), clean=False)
    doc_text = '"""' + doc.replace(
     "Layer: above rules and findings (beside outputs, fixes, server and hook).",
     "Layer: the status package, above the outputs (docs/architecture.md).  This\nmodule builds the document; the next action is :mod:`.next`, the renderings\n:mod:`.render`, the command line :mod:`.command`.") + '"""'
    DOCS["document"] = doc_text
    prev_multi = False
    for t in ["next", "document", "render", "command"]:
        need, chunks = parts[t]
        body = ""
        for c in chunks:
            c = c.rstrip("\n") + "\n"
            top = c.lstrip().startswith(("def ", "class ", "#")) or (body and body.rstrip().endswith(("}", ")")) and False)
            body += ("\n\n" if top and body else ("\n" if body and not body.endswith("\n\n") and (c.startswith("#") or prev_multi) else "")) + c
            prev_multi = c.count("\n") > 1
        prev_multi = False
        head = [DOCS[t], "", "from __future__ import annotations", ""]
        if "Optional" in body:
            head += ["from typing import Optional", ""]
        imps = [f"from .{m} import {', '.join(names)}" for m, names in need.items()]
        if imps:
            head += imps + [""]
        text = "\n".join(head) + "\n" + body
        # normalise blank lines: two before top-level def/class
        import re
        text = re.sub(r"\n{4,}", "\n\n\n", text)
        open(f"linter/status/{t}.py", "w").write(text)


# the importers: (file, old line, new lines)
IMPORTERS = (
    ("linter/cli.py", "from .status.document import main as status_main", "from .status.command import main as status_main"),
    ("linter/agents/hook.py", "        from ..status.document import next_sentence, status_of",
     "        from ..status.document import status_of\n        from ..status.render import next_sentence"),
    ("linter/lsp/server.py", "from ..status.document import status_hover", "from ..status.render import status_hover"),
    ("tests/test_status.py", "from standards_lint.status.document import mermaid, render, status, status_of",
     "from standards_lint.status.document import status, status_of\nfrom standards_lint.status.render import mermaid, render"),
)


def main() -> int:
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True, text=True).stdout.strip()
    os.chdir(root)
    if os.path.exists("linter/status/next.py"):
        print("linter/status/ is split already")
        return 0
    split()
    for path, old, new in IMPORTERS:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if old not in text:
            print(f"{path}: no {old.strip()!r}: check its imports of standards_lint.status by hand")
            continue
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace(old, new))
    subprocess.run(["git", "add", "linter/status"], check=True)
    print("split linter/status/document.py into next, document, render, command")
    return 0


if __name__ == "__main__":
    sys.exit(main())
