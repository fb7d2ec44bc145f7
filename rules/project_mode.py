"""Project Modes: ``.standards/MODE.md`` holds ``ProjectMode`` exactly once,
``GREENFIELD`` or ``BROWNFIELD``.

The rules stay silent about a MODE.md with merge-conflict markers (SL110
reports those) and about a missing MODE.md (SL101).
"""

from __future__ import annotations


from standards_lint.protocol import PROJECT_MODES
from standards_lint.rule import module_rules, report, rule

MODE_PATH = ".standards/MODE.md"
TITLE = "S.T.A.N.D.A.R.D.S. Project Mode"


def _mode_doc(project):
    doc = project.mode_doc
    if doc is None or project.conflicts(doc.path):
        return None
    return doc


def _mode_fields(doc):
    return [f for f in doc.fields if f.name == "ProjectMode"]


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
(safe); a missing mode or two different modes are the user's decision.
""",
    fix="sometimes",
    bad_example="# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD` `ProjectMode`: `GREENFIELD`",
    good_example="# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`",
    help="Write `` `ProjectMode`: `GREENFIELD` `` or `` `ProjectMode`: `BROWNFIELD` `` once in MODE.md, as the project's installation chose.",
    no_fix_reason="A missing mode or two different modes are the user's decision.",
)
def project_mode_missing(project):
    from standards_lint.findings import Edit, Fix

    doc = _mode_doc(project)
    if doc is None:
        return
    found = _mode_fields(doc)
    if not found:
        yield report(doc.title or MODE_PATH,
                     "MODE.md has no `ProjectMode`; it must hold `` `ProjectMode`: `GREENFIELD` `` or "
                     "`` `ProjectMode`: `BROWNFIELD` ``.")
        return
    if len(found) > 1:
        values = list(dict.fromkeys(f.value for f in found))
        fix = None
        if len(values) == 1:
            text = doc.text
            edits = []
            for f in found[1:]:
                start, end = f.span.start, f.span.end
                if start > 0 and text[start - 1] == " ":
                    start -= 1
                elif end < len(text) and text[end] == " ":
                    end += 1
                edits.append(Edit(MODE_PATH, start, end, ""))
            fix = Fix(tuple(edits), "safe", "Remove the repeated `ProjectMode`")
        yield report(found[1], f"MODE.md has {len(found)} `ProjectMode` fields "
                               f"({', '.join('`%s`' % v for v in values)}); it must have exactly one.", fix=fix)
        return
    if not found[0].value.strip():
        yield report(found[0], "MODE.md `ProjectMode` is empty; it must be GREENFIELD or BROWNFIELD.")


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

**Fix safety.** Sometimes: a value that is one mode misspelt is corrected (the template's angle brackets, `<BROWNFIELD>`: safe; letter case: unsafe). Any other value is the user's decision.
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
    from standards_lint.rules.state_structure import meant_value

    yield report((MODE_PATH, f.value_span),
                 f"ProjectMode is `{f.value}`; it must be GREENFIELD or BROWNFIELD.",
                 meant_value(MODE_PATH, f, PROJECT_MODES))


standards_lint_rules = module_rules(globals())
