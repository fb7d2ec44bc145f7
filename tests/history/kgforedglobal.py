"""The second real project (../shared/corpus/kgforedglobal/) as a git
repository: its newest tree (``latest/``, the records of both cycles) in the
first commit with the first of its 19 STATE.md versions, then each later
version of STATE.md committed over it, in the order its README gives (read
from the cycles' start times, the routes, the handoffs and the stack).

The files the harvest did not recover are filled in as the parity cases do
(MODE.md BROWNFIELD, VERSION.json 0.12.1, INSTALLATION.json, PROTOCOL.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from standards_lint.model.workflow import owner_of

from .gitrepo import Repo

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kgforedglobal"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus/kgforedglobal")
STATE = ".standards/STATE.md"
FILLED = {
    ".standards/MODE.md": "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n",
    ".standards/VERSION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S.",\n  "version": "0.12.1"\n}\n',
    ".standards/INSTALLATION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S."\n}\n',
    ".standards/PROTOCOL.md": "<!-- standards:framework-owned -->\n\n# S.T.A.N.D.A.R.D.S. Protocol\n",
}


def order() -> list:
    """The 8-character names of the STATE.md versions, in workflow order."""
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    block = readme.split("went in this order", 1)[1].split("```", 2)[1]
    return block.split()


def versions() -> list:
    """``[(name, text)]`` of STATE.md in workflow order."""
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest if isinstance(manifest, list) else manifest.get("versions", manifest.get("files", []))
    by_name = {}
    for e in entries:
        if e["path"] == STATE or e["path"].endswith("STATE.md"):
            by_name[e["sha"][:8]] = e
    folder = CORPUS / "versions" / STATE.replace("/", "__")
    out = []
    for name in order():
        sha = by_name[name]["sha"]
        out.append((name, (folder / f"{sha[:12]}.md").read_text(encoding="utf-8")))
    return out


def latest() -> dict:
    root = CORPUS / "latest"
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*"))
            if p.is_file()}


def build(root: Path) -> tuple:
    """The repository, and version name -> commit sha."""
    repo = Repo(root)
    shas = {}
    tree = dict(latest(), **FILLED)
    for i, (name, text) in enumerate(versions()):
        frm = re.search(r"## Handoff\s+`Kind`:\s*`[A-Z_]+`\s*`From`:\s*`([A-Z_]+)`", text)
        author = (owner_of(frm.group(1)) if frm else None) or "USER"
        files = dict(tree, **{STATE: text}) if i == 0 else {STATE: text}
        shas[name] = repo.commit(files, f"kgforedglobal {name}", author=author.title())
    return repo, shas
