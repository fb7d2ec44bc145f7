"""Outstanding Obligations in `.standards/STATE.md` (PROTOCOL.md, Recovery
Mechanics): the Active flag, each obligation's fields, numbering and owner."""

from __future__ import annotations

import re

from standards_lint.fixes.recovery import active_mismatch, numbering_problems
from standards_lint.model.recovery import obligations, owners_text
from standards_lint.syntax.protocol import FAILURE_TYPES, owner_mismatch
from standards_lint.engine.rule import module_rules, report, rule


_OBLIGATION_HEAD = re.compile(r"^Obligation (\d+)$")


@rule(
    code="SL502",
    name="obligations-active-mismatch",
    section="Recovery Mechanics",
    owner="state",
    summary="`Outstanding Obligations.Active` must be `true` exactly when obligations exist.",
    explanation="""
**What it does.** Compares `Outstanding Obligations.Active` with the number of
`### Obligation N` entries.

**Why.** protocol/expedited.md, Outstanding Obligations: "When one or more
obligations exist, set `Active: true` and record each as a numbered
`### Obligation N` entry ... When the last obligation is removed, set
`Active: false` and remove the numbered entries."

**Fix safety.** Safe: the entries are the record; the fix sets `Active` to
match them.
""",
    fix="safe",
    bad_example="## Outstanding Obligations\n\n`Active`: `true`\n",
    good_example="## Outstanding Obligations\n\n`Active`: `false`\n",
    help="Set `Outstanding Obligations.Active` to match the entries.",
)
def obligations_active_mismatch(project):
    st = project.state
    if st is None:
        return
    yield from active_mismatch(
        project, st.obligations, len(obligations(project)), "obligation", "obligations", "Outstanding Obligations"
    )


@rule(
    code="SL508",
    name="obligation-field-missing",
    section="Recovery Mechanics",
    owner="state",
    summary="Each outstanding obligation records Owner, FailureType and Reason.",
    explanation="""
**What it does.** Checks that every `### Obligation N` entry has `Owner`,
`FailureType` and a nonempty `Reason`.

**Why.** protocol/expedited.md, Outstanding Obligations: "Each obligation
records `Owner`, `FailureType`, and `Reason`" and "record each as a numbered
`### Obligation N` entry containing `Owner`, `FailureType`, and `Reason`."
An obligation without them cannot be routed or verified as corrected.

**Fix safety.** No fix: the values come from the converted recovery frame.
""",
    bad_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION`",
    good_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION`\n`Reason`: `The retry test asserts the old limit.`",
    help="Give the obligation its Owner, FailureType and Reason from the converted recovery frame.",
    no_fix_reason="The values come from the converted recovery frame.",
)
def obligation_field_missing(project):
    for ob in obligations(project):
        for name in ("Owner", "FailureType", "Reason"):
            v = ob.get(name)
            if v.field is not None and (v.text is None or v.text.strip()):
                continue
            yield report(
                ob.where(name) if v.field is not None else ob.heading(),
                f"Obligation {ob.label}: `{name}` is missing; each obligation records Owner, FailureType and Reason.",
            )


@rule(
    code="SL521",
    name="obligation-numbering",
    section="Recovery Mechanics",
    owner="state",
    summary="Outstanding obligations are headed `### Obligation 1`, `### Obligation 2`, ... in order.",
    explanation="""
**What it does.** Checks that the entries under `## Outstanding Obligations`
are headed exactly `### Obligation N`, numbered from 1 without gaps.

**Why.** protocol/expedited.md, Outstanding Obligations: "record each as a
numbered `### Obligation N` entry ... When an obligation is removed, renumber
the remaining entries 1, 2, 3, ... in their existing order."

**Fix safety.** Renumbers the headings in order: safe when each heading is
`Obligation <number>`, unsafe when a heading carries other text, which the fix
drops.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 2\n\n`Owner`: `TESTING` ...",
    good_example="## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 1\n\n`Owner`: `TESTING` ...",
    help="Renumber the obligations `### Obligation 1`, `### Obligation 2`, ... in order.",
)
def obligation_numbering(project):
    yield from numbering_problems(
        obligations(project), "Obligation", _OBLIGATION_HEAD, "Outstanding Obligations",
        "Renumber the outstanding obligations in order.",
    )


@rule(
    code="SL522",
    name="obligation-owner",
    section="Recovery Mechanics",
    owner="state",
    summary="An obligation's `FailureType` is a failure type and its `Owner` the state owning it.",
    explanation="""
**What it does.** Checks each `### Obligation N`: `FailureType` must be a
failure type and `Owner` the workflow state that owns it (as for recovery
frames, SL506).

**Why.** protocol/expedited.md, Outstanding Obligations: "Each obligation
records `Owner`, `FailureType`, and `Reason`" and "An outstanding obligation
remains until its owning state is reached and the owner corrects and verifies
the specific defect". Obligations are converted from frames "preserving each
converted frame's" owner, so the owner follows PROTOCOL.md, Failure Handoffs:
"A failure handoff routes a defect to its owning state".

**Fix safety.** No fix: either value may be the wrong one.
""",
    beyond_checker=True,
    bad_example="### Obligation 1\n\n`Owner`: `DEVELOPING` `FailureType`: `VERIFICATION` `Reason`: `...`",
    good_example="### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION` `Reason`: `...`",
    help="Give the obligation a valid FailureType and the Owner state that owns it.",
    no_fix_reason="Either value may be the wrong one.",
)
def obligation_owner(project):
    for ob in obligations(project):
        ft, owner = ob.get("FailureType").text, ob.get("Owner").text
        if ob.get("FailureType").field is not None and ft is not None and ft not in FAILURE_TYPES:
            yield report(ob.where("FailureType"), f"Obligation {ob.label}: `FailureType` is `{ft}`, which is not a failure type.")
            continue
        if not owner_mismatch(ft, owner):
            continue
        yield report(
            ob.where("Owner"),
            f"Obligation {ob.label}: a {ft} obligation belongs to {owners_text(ft)}, not {owner}.",
        )


standards_lint_rules = module_rules(globals())
