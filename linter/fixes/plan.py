"""Development plan checks and fixes several rules share: header fields held
exactly once, and the Handoff heading respelling a plan finding may carry."""

from __future__ import annotations

from standards_lint.syntax.ast import Document
from standards_lint.engine.findings import Edit, Fix
from standards_lint.fixes.state import section_respell_fix
from standards_lint.model.plan import field_anchor, fields_not_once, stack_in_order
from standards_lint.engine.rule import field_removal, heading_fix, report


def header_fields_once(doc: Document, names, record: str):
    """Findings for header fields *names* of *doc* that are missing, empty
    or repeated (each must appear exactly once with a value)."""
    for name, found in fields_not_once(doc.header, names):
        where = (doc.path, found[1].span) if len(found) > 1 else field_anchor(doc, found[0] if found else None)
        what = "is repeated" if len(found) > 1 else ("is empty" if found else "is missing")
        fix = None
        if len(found) > 1 and len({f.value for f in found}) == 1 and found[0].value.strip():
            # Copies of one value: dropping the repeats loses nothing.
            fix = Fix(tuple(Edit(doc.path, *_field_removal(doc.text, f), "") for f in found[1:]), "safe",
                      f"Remove the repeated `{name}`")
        yield report(where, f"`{name}` {what}; the {record} header needs it exactly once with a value.", fix)


def _field_removal(text: str, f) -> tuple[int, int]:
    """Span removing field *f*: its whole line when it stands alone there,
    else the field and the one space separating it."""
    line_start = text.rfind("\n", 0, f.span.start) + 1
    nl = text.find("\n", f.span.end)
    line_end = len(text) if nl == -1 else nl + 1
    if not text[line_start:f.span.start].strip() and not text[f.span.end:line_end].strip():
        return line_start, line_end
    return field_removal(text, f.span)


def handoff_heading_fix(project):
    """(the STATE.md model with its Handoff read, SL201's fix) when the
    Handoff section is unreadable only because its heading is spelt in
    another letter case (`## handoff`) and SL201 respells it; else None.
    A finding that reads the unknown handoff and would go away once it is
    read may carry that fix."""
    cache = project.__dict__.setdefault("_standards_lint_plan", {})
    if "handoff_fix" not in cache:
        cache["handoff_fix"] = _handoff_heading_fix(project)
    return cache["handoff_fix"]


def _handoff_heading_fix(project):
    from standards_lint.syntax.state import StateModel

    st = project.state
    if st is None or st.sections("Handoff") or not stack_in_order(st):
        return None
    near = [c for c in st.doc.sections if c.title.strip().lower() == "handoff"]
    if len(near) != 1 or project.conflicts(st.path):
        return None  # SL201 is silent on a conflicted STATE.md
    fix = section_respell_fix(st, "Handoff")
    if fix is None:
        return None
    alt = StateModel(st.doc, st.derived)
    alt.__dict__["handoff"] = near[0]
    return alt, fix


def increment_heading_fix(plan, number=None):
    """The safe fix writing the misheaded increment headings of *plan* (of
    *number*, or all) as `### Increment N`: one root fix, carried by the
    findings their not being read causes."""
    edits = []
    for inc in plan.increments:
        if inc.misheaded and (number is None or inc.number == number):
            fix = heading_fix(plan.doc, inc.container.heading)
            if fix is not None:
                edits.extend(fix.edits)
    if not edits or plan.doc.conflicts:
        return None
    return Fix(tuple(edits), "safe", "Write the increment heading as `### Increment N`")
