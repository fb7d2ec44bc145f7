"""Record provenance: which Markdown files are cycle records (their STANDARDS
provenance blocks), the current cycle, and where each record is placed."""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.protocol import TERMINAL_STATES, record_path


COLLISION = "Treat it as a collision: leave it unchanged and ask the user how to resolve it."


def blocks(project) -> dict:
    """path -> Block for every inspected Markdown file that begins with one."""
    return project.blocks


def project_records(project) -> list:
    """Blocks that are valid: the project's cycle records, by path."""
    return [b for b in blocks(project).values() if b.valid]


def current_cycle(project) -> Optional[str]:
    """Active Work.Id of the active cycle: None when no cycle is recorded
    (UNSET/NONE/empty) or the cycle has ended (SIGNED_OFF, CANCELLED)."""
    state = project.state
    if state is None:
        return None
    value = state.aw("Id")
    if value is None or value.strip() in ("", "UNSET", "NONE"):
        return None
    if state.workflow_state in TERMINAL_STATES:
        return None
    return value


# Fixed record paths, in the order they are inspected; a record at one of them
# is the first of its type for the cycle, before records elsewhere (by path).
FIXED = (
    ("DEVELOPMENT", None),
    ("VERIFICATION", None),
    ("REVIEW", "IMPLEMENTATION"),
    ("REVIEW", "FINAL_DELIVERABLE"),
    ("DOCUMENTATION", None),
    ("SYNCHRONIZATION", None),
)


def placement(project):
    """(first, seconds) among the records of the active cycle: ``first`` maps
    (artifact, review kind) to its first record; ``seconds`` lists
    (record, first record) for every further record of the same kind."""
    cached = getattr(project, "_sl6_placement", None)
    if cached is not None:
        return cached
    first: dict = {}
    seconds: list = []
    cycle = current_cycle(project)
    if cycle is not None:
        mine = [b for b in project_records(project) if b.cycle == cycle]
        # A record at its own type's fixed path is the first of its kind (the
        # scope and the design have no fixed path: Active Work names them);
        # among the rest, the first by path.
        fixed = {record_path(a, cycle, k): (a, k) for a, k in FIXED}
        own = [b for b in mine if fixed.get(b.path) == (b.artifact, b.review_kind)]
        ordered = own + sorted((b for b in mine if b not in own), key=lambda b: b.path)
        for b in ordered:
            key = (b.artifact, b.review_kind)
            if key in first:
                seconds.append((b, first[key]))
            else:
                first[key] = b
    project._sl6_placement = (first, seconds)
    return first, seconds


def only_record(project, art: str):
    """This cycle's one record of type *art* (not a review report), or None
    when there is none or more than one (which copy counts is then the
    user's call, SL634)."""
    first, seconds = placement(project)
    rec = first.get((art, None))
    if rec is None or any(b.artifact == art for b, _head in seconds):
        return None
    return rec
