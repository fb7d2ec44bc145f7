"""Project Modes: ``.standards/MODE.md`` holds ``ProjectMode`` exactly once,
``GREENFIELD`` or ``BROWNFIELD``.

The rules stay silent about a MODE.md with merge-conflict markers (SL110
reports those) and about a missing MODE.md (SL101).
"""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.protocol import PROJECT_MODES
from standards_lint.engine.rule import field_removal, module_rules, report, rule
from standards_lint.fixes.spelling import meant_value
from standards_lint.model.state_values import unconflicted

MODE_PATH = ".standards/MODE.md"
TITLE = "S.T.A.N.D.A.R.D.S. Project Mode"


def _mode_doc(project):
    return unconflicted(project, project.mode_doc)


def _mode_fields(doc):
    return [f for f in doc.fields if f.name == "ProjectMode"]


def inferred_project_mode(project) -> Optional[str]:
    """The project mode the rest of the project determines, or None when
    nothing does or two pieces of evidence disagree:

    - an `EXPEDITED` or `DOCUMENTATION` cycle mode or pending cycle mode in
      STATE.md: "`GREENFIELD` supports only `STANDARD`" (Cycle Modes rule 3);
    - a STANDARD cycle still in its starting state (`INITIAL` or `NEW_CYCLE`
      handoff): "`GREENFIELD` starts in `SCOPING`", "`BROWNFIELD` starts in
      `AUDITING`";
    - `BROWNFIELD` in the last commit's MODE.md: "The mode never reverts"."""
    seen = set()
    st = unconflicted(project, project.state)
    if st is not None:
        for name in ("CycleMode", "PendingCycleMode"):
            if st.value(st.header, name) in ("EXPEDITED", "DOCUMENTATION"):
                seen.add("BROWNFIELD")
        if st.cycle_mode == "STANDARD" and st.ho("Kind") in ("INITIAL", "NEW_CYCLE"):
            start = {"SCOPING": "GREENFIELD", "AUDITING": "BROWNFIELD"}.get(st.workflow_state or "")
            if start is not None:
                seen.add(start)
    head = project.head
    if head is not None:
        text = head.read(MODE_PATH)
        if text is not None:
            doc = project.parse(text.lstrip("\ufeff"), MODE_PATH)
            if [f.value for f in _mode_fields(doc)] == ["BROWNFIELD"]:
                seen.add("BROWNFIELD")
    return seen.pop() if len(seen) == 1 else None


def _set_mode_fix(doc, mode: Optional[str], field=None):
    """Write `ProjectMode`: *mode* in place of *field*, or after the title;
    None when no mode is known."""
    from standards_lint.engine.findings import Edit, Fix

    if not mode:
        return None
    text = doc.text
    line = f"`ProjectMode`: `{mode}`"
    if field is not None:
        edit = Edit(MODE_PATH, field.span.start, field.span.end, line)
    elif doc.title is not None:
        nl = "\r\n" if "\r\n" in text else "\n"
        edit = Edit(MODE_PATH, doc.title.span.end, doc.title.span.end, nl + nl + line)
    else:
        return None
    return Fix((edit,), "unsafe", f"Set ProjectMode to `{mode}`, the mode the project's state shows")


def _removals(doc, fields) -> tuple:
    """Edits removing *fields* from MODE.md, each with one space beside it."""
    from standards_lint.engine.findings import Edit

    return tuple(Edit(MODE_PATH, *field_removal(doc.text, f.span), "") for f in fields)


@rule(
    code="SL120",
    name="project-mode-missing",
    section="Project Modes",
    owner="USER",
    summary="MODE.md holds `ProjectMode` exactly once with a value.",
    explanation="""
**What it does.** Checks that `.standards/MODE.md` has exactly one nonempty
`` `ProjectMode`: `...` `` field.

**Why.** PROTOCOL.md, Project Modes: "Choose the initial mode from project
state at installation", and roles read `.standards/MODE.md` before workflow
work ("Before workflow work, read `.standards/PROTOCOL.md`,
`.standards/MODE.md`, and `.standards/STATE.md`"). Without one mode, the
standard cycle's start state (`SCOPING` for `GREENFIELD`, `AUDITING` for
`BROWNFIELD`) and the modes a project supports are unknown.

**Fix safety.** Sometimes: a repeated field with the same value is removed
(safe). A missing or empty mode, or two different ones, get the mode the rest
of the project shows, as an unsafe fix: `BROWNFIELD` for an `EXPEDITED` or
`DOCUMENTATION` cycle or pending cycle mode ("`GREENFIELD` supports only
`STANDARD`") and when the last commit's MODE.md says `BROWNFIELD` ("The mode
never reverts"); for a STANDARD cycle still in its starting state, `GREENFIELD`
in `SCOPING` and `BROWNFIELD` in `AUDITING`. No fix when nothing shows the
mode or the evidence disagrees: the mode is the user's decision.
""",
    fix="sometimes",
    bad_example="# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD` `ProjectMode`: `GREENFIELD`",
    good_example="# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`",
    help="Write `` `ProjectMode`: `GREENFIELD` `` or `` `ProjectMode`: `BROWNFIELD` `` once in MODE.md, as the project's installation chose.",
    no_fix_reason="Unless the cycle modes, a cycle's starting state or the last commit's MODE.md show the mode, a missing mode or two different modes are the user's decision.",
)
def project_mode_missing(project):
    from standards_lint.engine.findings import Fix

    doc = _mode_doc(project)
    if doc is None:
        return
    found = _mode_fields(doc)
    if not found:
        mode = inferred_project_mode(project)
        yield report(doc.title or MODE_PATH,
                     "MODE.md has no `ProjectMode`; it must hold `` `ProjectMode`: `GREENFIELD` `` or "
                     "`` `ProjectMode`: `BROWNFIELD` ``.", _set_mode_fix(doc, mode))
        return
    if len(found) > 1:
        values = list(dict.fromkeys(f.value for f in found))
        fix = None
        if len(values) == 1:
            fix = Fix(_removals(doc, found[1:]), "safe", "Remove the repeated `ProjectMode`")
        else:
            mode = inferred_project_mode(project)
            keep = next((f for f in found if f.value == mode), None) if mode else None
            if keep is not None:
                fix = Fix(_removals(doc, [f for f in found if f is not keep]), "unsafe",
                          f"Keep `ProjectMode`: `{mode}`, the mode the project's state shows")
        yield report(found[1], f"MODE.md has {len(found)} `ProjectMode` fields "
                               f"({', '.join('`%s`' % v for v in values)}); it must have exactly one.", fix=fix)
        return
    if not found[0].value.strip():
        mode = inferred_project_mode(project)
        yield report(found[0], "MODE.md `ProjectMode` is empty; it must be GREENFIELD or BROWNFIELD.",
                     _set_mode_fix(doc, mode, found[0]))


@rule(
    code="SL121",
    name="project-mode-invalid",
    section="Project Modes",
    owner="USER",
    summary="`ProjectMode` is GREENFIELD or BROWNFIELD.",
    explanation="""
**What it does.** Checks that the value of `ProjectMode` in
`.standards/MODE.md` is exactly `GREENFIELD` or `BROWNFIELD` (case-sensitive).

**Why.** PROTOCOL.md, Project Modes:
"ProjectMode - GREENFIELD - BROWNFIELD". Any other value leaves the project
baseline undefined.

**Fix safety.** Sometimes: a value that is one mode misspelt is corrected (spaces inside its backticks, `` `BROWNFIELD ` ``, or the template's angle brackets, `<BROWNFIELD>`: safe; letter case: unsafe). Any other value is the user's decision.
""",
    bad_example="`ProjectMode`: `brownfield`",
    good_example="`ProjectMode`: `BROWNFIELD`",
    fix="sometimes",
    help="Set `ProjectMode` to `GREENFIELD` or `BROWNFIELD`, the mode the project was installed with.",
    no_fix_reason="The mode is chosen from the project's state (and never reverts from BROWNFIELD); only a misspelling of one mode is fixed.",
)
def project_mode_invalid(project):
    doc = _mode_doc(project)
    if doc is None:
        return
    found = _mode_fields(doc)
    if len(found) != 1 or not found[0].value.strip() or found[0].value in PROJECT_MODES:
        return
    f = found[0]

    yield report((MODE_PATH, f.value_span),
                 f"ProjectMode is `{f.value}`; it must be GREENFIELD or BROWNFIELD.",
                 meant_value(MODE_PATH, f, PROJECT_MODES))


standards_lint_rules = module_rules(globals())
