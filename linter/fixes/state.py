"""STATE.md fixes several rules share."""

from __future__ import annotations

from typing import Iterator, Optional

from standards_lint.syntax.ast import Field
from standards_lint.engine.findings import Edit, Fix
from standards_lint.fixes.handoff import forward_state_fix
from standards_lint.model.accessors import at, header_field, state_in_mode, workflow_state
from standards_lint.model.route import OMITTED_STATES
from standards_lint.model.state_values import STATE_PATH
from standards_lint.engine.rule import Diagnostic, field_removal, replace, report


def section_respell_fix(st, title: str) -> Optional[Fix]:
    """SL201's fix for a missing ``## title`` section whose heading is spelt
    in another letter case or spacing (``## handoff``): respell the one such
    heading; None when there is none or several."""
    near = [s for s in st.doc.sections if s.title.strip().lower() == title.lower()]
    if len(near) != 1:
        return None
    return replace(STATE_PATH, near[0].heading.span, f"## {title}",
                   description=f"Spell the heading `## {title}`")


def remove_field_span(text: str, f: Field) -> tuple[int, int]:
    """Span removing *f* and the single space that separates it."""
    return field_removal(text, f.span)


def keep_determined_fix(text: str, found: list, value: Optional[str]) -> Optional[Fix]:
    """For a field repeated with different values: keep the first copy that
    holds *value* (the one the rest of STATE.md determines), remove the
    others (unsafe); None when no copy holds it."""
    keep = next((f for f in found if f.value == value), None) if value is not None else None
    if keep is None:
        return None
    edits = tuple(Edit(STATE_PATH, *remove_field_span(text, f), "") for f in found if f is not keep)
    return Fix(edits, "unsafe", f"Keep `{keep.name}`: `{value}` and remove the other copies")


def set_value_fix(field: Field, value: str, name: str, why: str = "") -> Fix:
    """The unsafe fix that sets *field* (*name* in the description) to
    *value*: the value is determined, but another field may be the real
    mistake."""
    return replace(field.path, field.value_span, value, safe=False, description=f"Set {name} to {value}{why}")


def omitted_state_findings(project, mode: str, message: str) -> Iterator[Diagnostic]:
    """SL300/SL301: a *mode* cycle (DOCUMENTATION or EXPEDITED) in a
    WorkflowState its topology omits, reported at WorkflowState with *message*
    (``{ws}`` names the state) and the forward-step fix."""
    sm = state_in_mode(project, mode)
    if sm is None:
        return
    ws = workflow_state(sm)
    if ws in OMITTED_STATES[mode]:
        yield report(at(header_field(sm, "WorkflowState")), message.format(ws=ws), forward_state_fix(project))
