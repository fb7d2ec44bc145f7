"""Cycle IDs: the ID a record's path carries, and the IDs a record states."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.ast import Field
from standards_lint.model.record_provenance import project_records
from standards_lint.syntax.protocol import CYCLE_ID_RE, RECORD_DIRS, TERMINAL_STATES


_PATH_DIRS = tuple(d + "/" for d in RECORD_DIRS.values())


def path_ids(st) -> set:
    """Cycle IDs written into the Active Work paths: `Scope`, `Architecture`
    or `Development` naming `<record folder>/<cycle ID>.md`, the path
    `artifact init` creates from the cycle's ID."""
    out = set()
    for name in ("Scope", "Architecture", "Development"):
        v = st.aw(name)
        if not v:
            continue
        v = v.strip()
        for d in _PATH_DIRS:
            if v.startswith(d) and v.endswith(".md"):
                stem = v[len(d):-3]
                if CYCLE_ID_RE.match(stem):
                    out.add(stem)
    return out


def path_id(project) -> Optional[str]:
    """For a missing or empty `Active Work.Id`: the one generated cycle ID
    the Active Work paths are named after (Start a cycle sets them `NONE`;
    the roles of the cycle write the paths `artifact init` made from its
    ID), unless that ID is a `BaselineReconciliation` source or the cycle the
    last commit finished; None otherwise."""
    st = project.state
    if st is None:
        return None
    found = path_ids(st)
    if len(found) != 1:
        return None
    want = found.pop()
    return want if _available(project, st, want) else None


STATE_PATH = ".standards/STATE.md"


def id_field(project, st) -> Optional[Field]:
    """``Active Work.Id`` when it occurs once with a value in a STATE.md without
    conflict markers, else None."""
    if st is None or project.conflicts(st.path):
        return None
    aw = st.active_work
    if aw is None:
        return None
    found = aw.all_fields("Id")
    if len(found) != 1 or not found[0].value.strip():
        return None
    return found[0]


def _loose(value: str) -> str:
    return value.strip().lower().replace("_", "-")


def _one_edit(a: str, b: str) -> bool:
    """Whether *a* becomes *b* by inserting, deleting or replacing one
    character (a miscopy: a character doubled, dropped or mistyped)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def miscopies(value: str, generated: str, *, typo: bool = True) -> bool:
    """Whether *value* (not itself a generated ID) is a miscopy of the
    generated ID *generated*: the same but for letter case and `_` for `-`,
    and (with *typo*) at most one character inserted, dropped or replaced."""
    a, b = _loose(value), _loose(generated)
    return a == b or (typo and _one_edit(a, b))


def recorded_id(project, value: str) -> Optional[str]:
    """The one generated ID that *value* miscopies (see :func:`miscopies`)
    among the cycles the project has already written down: the records'
    provenance cycles and the cycle IDs in the Active Work paths; None when
    there is none or more than one."""
    recs = project_records(project)
    if any(b.cycle == value for b in recs):
        return None  # records already carry the value itself
    st = project.state
    # A typo (a character doubled, dropped or mistyped) counts only against
    # the ID the cycle's own Active Work paths are named after: a record
    # alone may be an older, finished cycle's, which is never reopened.
    paths = path_ids(st)
    recorded = {b.cycle for b in recs if b.cycle and CYCLE_ID_RE.match(b.cycle)}
    found = {c for c in recorded | paths if miscopies(value, c, typo=c in paths)}
    if len(found) != 1:
        return None
    want = found.pop()
    return want if _available(project, st, want) else None


def _available(project, st, cid: str) -> bool:
    """Whether *cid* may still be the active cycle's ID: it is neither a
    `BaselineReconciliation` source (a cancelled source's ID, SL215) nor the
    cycle the last commit finished (never reopened, SL261)."""
    items = st.active_work.items if st.active_work is not None else []
    if any(s.name == "SourceCycle" and s.value == cid for item in items for s in item.fields):
        return False
    finished = finished_at_head(project)
    return not (finished is not None and finished[0] == cid)


def finished_at_head(project) -> Optional[tuple[str, str]]:
    """``(Active Work.Id, WorkflowState)`` of the cycle the last commit
    finished: its STATE.md in `SIGNED_OFF` or `CANCELLED` with `CycleMode`
    reset to `UNSET`.  Cycle Modes, rule 1: the terminal states "reset
    `CycleMode` to `UNSET` after the completed or cancelled cycle's
    mode-specific transition rules have been applied"; a terminal state that
    still carries a mode has not finished them (SL204: it leaves unclear
    whether a cycle is active) and names no finished cycle.  None outside git
    or without such a commit."""
    head = project.head_state
    if head is None or head.workflow_state not in TERMINAL_STATES or head.cycle_mode != "UNSET":
        return None
    cid = head.aw("Id")
    return (cid, head.workflow_state) if cid else None
