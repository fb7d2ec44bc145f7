"""The real history of ../shared/corpus/kgforedglobalmcp-state-history/ (39
versions of one project's STATE.md, named by the commit they came from) as a
git repository, in the order the workflow went.

Cycles are ordered by the start time their IDs carry (ns-20261001T162834Z,
or-20261008T004926Z, de-20261008T145135Z).  Within a cycle the route, the
handoffs and the recovery stack give the order, with these choices where two
orders were possible:

- The six DEVELOPING versions with `FORWARD` from ARCHITECTING differ only in
  `Active Work.BlockedOn`: the one with `BlockedOn: NONE` (a898ac4f) is put
  first (the entry into DEVELOPING), then the blocked ones in the order of the
  plan step they wait on (DEV-004, -005, -015, -017, -018).
- Versions without a frame and of about 3 KB (the first pass to sign-off)
  come before those holding the user's SCOPING rework frame (4.2-5 KB), which
  come before those holding the ARCHITECTURE rework frame (~7 KB): the file
  grew as the cycle's history accumulated in it, and each rework frame's
  `From: AWAITING_USER_SIGNOFF` needs a sign-off-ready version before it.
- c3507dba (BlockedOn NONE) before 5e54e540 (blocked on DEV-024, same
  handoff): the block is set after the resume arrived.
- a87ae157 (4.2 KB, closes the SCOPING frame) before 7dcbc33b (6.7 KB, closes
  the ARCHITECTURE frame).

The corpus holds STATE.md alone; MODE.md says BROWNFIELD (DOCUMENTATION cycles
exist only in BROWNFIELD).  Commit dates are made up (one hour apart from
each cycle's start time), so durations in the story are those of the made-up
dates; authors are the role owning the state each version was written from.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from standards_lint.model.workflow import owner_of

from .gitrepo import Repo

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kgforedglobalmcp-state-history"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus/kgforedglobalmcp-state-history")

ORDER = [
    # cycle 1: ns-20261001T162834Z-142f2df1 (STANDARD)
    "e429c9ed", "a898ac4f", "255772c9", "19bcb440", "0be6494d", "a1207f48", "8d56cb73", "95bd6075", "062fb59c",
    "cbc3baf3", "2f9217d2", "2bb4b29c", "c39e8971", "19f47aeb", "75fa26fc", "c3507dba", "5e54e540", "b2878101",
    "b53325ea", "a6416413", "e8378187", "f541139e", "4fb23fe6", "93ff0e0c", "a87ae157", "87c3595f", "e10c1c8a",
    "7dcbc33b",
    # cycle 2: or-20261008T004926Z-6feb67d3 (DOCUMENTATION)
    "89c9f4c3", "c4e78102", "76762b87", "19dddf81", "2ba43c0e",
    # cycle 3: de-20261008T145135Z-ed1585e6 (DOCUMENTATION)
    "d0885867", "159fdcd2", "a16ac2e0", "94943111", "c5be9131", "70c68915",
]
STARTS = {"ns-": "2026-10-01T16:28:34+00:00", "or-": "2026-10-08T00:49:26+00:00", "de-": "2026-10-08T14:51:35+00:00"}
MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n"


def version(prefix: str) -> str:
    (path,) = CORPUS.glob(f"{prefix}*.STATE.md")
    return path.read_text(encoding="utf-8")


def build(root: Path) -> tuple[Repo, dict]:
    """The repository, and corpus prefix -> commit sha."""
    import re

    repo = Repo(root)
    shas = {}
    last_cycle = None
    for i, prefix in enumerate(ORDER):
        text = version(prefix)
        cid = re.search(r"`Id`:\s*`([^`]*)`", text).group(1)
        at = None
        if cid != last_cycle:
            at = datetime.fromisoformat(STARTS[_tag(cid)])
            last_cycle = cid
        frm = re.search(r"## Handoff\s+`Kind`:\s*`[A-Z_]+`\s*`From`:\s*`([A-Z_]+)`", text)
        author = (owner_of(frm.group(1)) if frm else None) or "USER"
        files = {".standards/STATE.md": text}
        if i == 0:
            files[".standards/MODE.md"] = MODE
        shas[prefix] = repo.commit(files, f"corpus {prefix}", author=author.title(), at=at)
    return repo, shas


def _tag(cid: str) -> str:
    stamp = cid.split("-")[-2]
    return {"20261001T162834Z": "ns-", "20261008T004926Z": "or-", "20261008T145135Z": "de-"}[stamp]
