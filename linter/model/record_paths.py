"""Record paths: the Active Work path fields (`Scope`, `Architecture`,
`Development`) and the repository-relative paths they name."""

from __future__ import annotations

import posixpath
from typing import Optional

from standards_lint.model.record_provenance import current_cycle


# Active Work path fields: expected artifact, owning state, owning role, noun.
POINTERS = {
    "Scope": ("SCOPE", "SCOPING", "Scoper", "scope"),
    "Architecture": ("ARCHITECTURE", "ARCHITECTING", "Architect", "design"),
    "Development": ("DEVELOPMENT", "DEVELOPING", "Developer", "plan"),
}


def kept_none(mode: Optional[str], name: str) -> bool:
    """Whether a cycle of *mode* keeps the Active Work path field *name*
    ``NONE``: Scope and Architecture in an EXPEDITED cycle, Development in a
    DOCUMENTATION cycle (Active Work)."""
    return (mode == "EXPEDITED" and name != "Development") or (mode == "DOCUMENTATION" and name == "Development")


def path_cycle(project) -> Optional[str]:
    """The current cycle's ID when it can name a record path (no slash, not ``.``
    or ``..``), else None."""
    cycle = current_cycle(project)
    if cycle is None or "/" in cycle or "\\" in cycle or cycle in (".", ".."):
        return None
    return cycle


def active_work_field(project, name):
    """The Active Work field *name* when it occurs once, else None."""
    state = project.state
    if state is None:
        return None
    return state.one(state.active_work, name)


def normalize_path(value: str) -> Optional[str]:
    """The repository-relative path an Active Work value names, or None when
    it cannot name a file inside the repository."""
    v = value.strip().replace("\\", "/")
    if not v or v.startswith("/") or (len(v) > 1 and v[1] == ":"):
        return None
    p = posixpath.normpath(v)
    if p == "." or p == ".." or p.startswith("../"):
        return None
    return p
