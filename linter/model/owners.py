"""Who must act on a finding.

PROTOCOL.md (Runtime Tools and Hooks): for each problem ``check`` reports, a
role fixes what it owns, routes what another role owns through Failure
Handoffs, and stops and reports to the user what no role can fix (a merge
conflict, a hand-edited file).  Every rule declares its owner once
(``@rule(owner=...)``); a rule may also compute it per finding
(``report(..., owner=...)``).

A declaration is one of:

- a role (``"SCOPER"`` ... ``"SYNCHRONIZER"``) or ``"USER"``;
- ``"record"``: the role that owns the record type of the file the finding
  is in (scope: Scoper, design: Architect, plan: Developer, verification:
  Tester, reviews: Reviewer, documentation: Documenter, synchronization:
  Synchronizer; ``CONTEXT.md``: Auditor; ``STATE.md``: as ``"state"``;
  anything else: the user);
- ``"state"``: the role of the state that wrote STATE.md last (the
  ``Handoff.From`` state's role, else the current ``WorkflowState``'s), or the
  user when no role can be named;
- a callable ``owner(project, diagnostic) -> str`` returning one of the above.
"""

from __future__ import annotations

from typing import Optional

from ..syntax.protocol import ROLES, STATE_OWNERS

USER = "USER"
OWNERS = ROLES + (USER,)
STRATEGIES = ("record", "state")

# Record type (provenance ``Artifact``) -> owning role.
ARTIFACT_OWNERS = {
    "SCOPE": "SCOPER",
    "ARCHITECTURE": "ARCHITECT",
    "DEVELOPMENT": "DEVELOPER",
    "VERIFICATION": "TESTER",
    "REVIEW": "REVIEWER",
    "DOCUMENTATION": "DOCUMENTER",
    "SYNCHRONIZATION": "SYNCHRONIZER",
}
# Record folders -> owning role, for a file without a valid provenance block.
_FOLDER_OWNERS = (
    (".standards/docs/scope/", "SCOPER"),
    (".standards/docs/specs/", "ARCHITECT"),
    (".standards/docs/development/", "DEVELOPER"),
    (".standards/docs/verification/", "TESTER"),
    (".standards/docs/reviews/", "REVIEWER"),
    (".standards/docs/documentation/", "DOCUMENTER"),
    (".standards/docs/synchronization/", "SYNCHRONIZER"),
)
STATE_PATH = ".standards/STATE.md"
CONTEXT_PATH = ".standards/CONTEXT.md"


def state_writer(project) -> str:
    """The role of the state that wrote STATE.md last, else the user.

    A handoff is written by the role of the state it leaves (``Handoff.From``);
    work inside a state is written by that state's role.  So: when STATE.md
    differs from the last commit but its handoff (kind, origin and workflow
    state) does not, the current ``WorkflowState``'s role edited it since;
    otherwise the ``Handoff.From`` state's role, else the current state's.
    The last commit's STATE.md is consulted only when a rule already read it
    (no extra git call).  A terminal or user-owned state names no role: the user."""
    cached = getattr(project, "_owner_state_writer", None)
    if cached is not None:
        return cached
    st = getattr(project, "state", None)
    if st is None:
        return USER
    frm = STATE_OWNERS.get(st.ho("From") or "")
    cur = STATE_OWNERS.get(st.workflow_state or "")
    writer = (cur if cur and _edited_within_state(project, st) else None) or frm or cur or USER
    try:
        project._owner_state_writer = writer
    except Exception:  # a read-only stand-in project
        pass
    return writer


def _edited_within_state(project, st) -> bool:
    """STATE.md changed since the last commit, with the same handoff and
    state as committed: the current state's role made the change."""
    known = getattr(project, "__dict__", {})
    if "head_state" not in known or project.head is None:
        return False
    head = project.head_state
    if head is None:
        return False
    if project.text(STATE_PATH) == project.head.read(STATE_PATH):
        return False
    same = lambda a, b: a == b and a is not None
    return (same(head.workflow_state, st.workflow_state) and same(head.ho("Kind"), st.ho("Kind"))
            and head.ho("From") == st.ho("From"))


def record_owner(project, path: str) -> str:
    """The role owning the file at *path* (project-relative)."""
    if path == STATE_PATH:
        return state_writer(project)
    if path == CONTEXT_PATH:
        return "AUDITOR"
    try:
        prov = project.blocks.get(path)
    except Exception:  # a broken block never stops owner resolution
        prov = None
    if prov is not None and getattr(prov, "valid", False):
        role = ARTIFACT_OWNERS.get(prov.artifact)
        if role:
            return role
    for folder, role in _FOLDER_OWNERS:
        if path.startswith(folder):
            return role
    return USER


def resolve(spec, project, diagnostic) -> str:
    """The owner of one finding: the diagnostic's own, else the rule's
    declaration resolved for this finding.  Never raises; the user when
    nothing better can be said."""
    value: Optional[str] = getattr(diagnostic, "owner", None) or spec or "record"
    try:
        if callable(value):
            value = value(project, diagnostic) or "record"
        if value == "record":
            return record_owner(project, diagnostic.path)
        if value == "state":
            return state_writer(project)
        return value if value in OWNERS else USER
    except Exception:
        return USER
