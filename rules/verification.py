"""Rules on the active cycle's verification report
(``.standards/docs/verification/<cycle>.md``): assessment purpose and target,
what the current assignment requires of them, increment assessments and the
Tester checkpoint gate (PROTOCOL.md: Testable Increments, Checkpoint
Handoffs, Full Verification Boundary; skills/tester/template.md).
"""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.syntax.ast import Document
from standards_lint.engine.findings import Edit, Fix
from standards_lint.model.holding import holding, tester_record_relaxed
from standards_lint.syntax.protocol import record_path
from standards_lint.engine.rule import module_rules, report, rule, trim_fix
from standards_lint.fixes.plan import header_fields_once, handoff_heading_fix, increment_heading_fix
from standards_lint.model.plan import (
    REVIEWER_OR_LATER,
    cycle_id,
    fields,
    field_anchor,
    header_anchor,
    live_cycle,
    load_plan,
    one_field,
    stack_in_order,
    tester_assignment,
    valid_checkpoint,
    value_of,
)
from standards_lint.model.verification import load_report, report_assignment
from standards_lint.model.acceptance import partial_gaps_for

PURPOSES = ("FULL", "INCREMENT", "CORRECTION")
_INCREMENT_TARGET_RE = re.compile(r"^Increment (\d+)$")


def _purpose(doc: Document) -> Optional[str]:
    v = value_of(doc.header, "Assessment Purpose")
    return v if v in PURPOSES else None


def _target(doc: Document) -> Optional[str]:
    return value_of(doc.header, "Assessment Target")


def _where(doc: Document, name: str):
    return field_anchor(doc, one_field(doc.header, name))


def section_lines(doc: Document, title: str) -> list[str]:
    """Lines of the ``## title`` section (first one), after its heading."""
    for i, h in enumerate(doc.headings):
        if h.level == 2 and h.text == title:
            end = len(doc.text)
            for h2 in doc.headings[i + 1:]:
                if h2.level <= 2:
                    end = h2.span.start
                    break
            return doc.text[h.span.end:end].split("\n")
    return []


def increment_rows(doc: Document) -> list[tuple[int, str, int]]:
    """(increment, disposition, line offset) of the rows of the Increment
    Assessments table."""
    out = []
    for line in section_lines(doc, "Increment Assessments"):
        s = line.strip()
        if not s.startswith("|"):
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if not cells or not re.match(r"^\d+$", cells[0]):
            continue
        out.append((int(cells[0]), cells[-1], 0))
    return out


def _report_status(doc: Document) -> Optional[str]:
    return value_of(doc.header, "Status")


def assigned_assessment(project, doc: Document) -> Optional[tuple[str, str]]:
    """(purpose, target) that STATE.md fixes for Tester's report in TESTING:
    `FULL`/`NONE` for full verification after a handoff that is no
    checkpoint, `INCREMENT`/`Increment N` after a valid CHECKPOINT from
    DEVELOPING naming an increment the plan defines (Checkpoint Handoffs;
    Full Verification Boundary).  None when the Handoff section is not
    readable, for a correction or a restored assignment, or when the other
    purpose would raise what the report does not have now (a COMPLETE
    report is FULL; an increment assessment lists every current condition)."""
    st = project.state
    if st is None or st.workflow_state != "TESTING" or st.handoff is None or not st.ho("Kind"):
        return None
    if not stack_in_order(st):
        return None  # the frames' numbers tie suspended assignments to them: unknown
    plan = load_plan(project)
    a = tester_assignment(project, plan, doc)
    if a is None or a.restored or a.scoped:
        return None
    if a.kind == "FULL":
        if st.ho("Kind") == "CHECKPOINT":
            return None  # an invalid checkpoint: which half of the handoff is wrong is unknown
        return ("FULL", "NONE")
    if a.kind == "INCREMENT":
        m = _INCREMENT_TARGET_RE.match(a.target or "")
        if not m or plan is None or plan.increment(int(m.group(1))) is None:
            return None
        if _report_status(doc) == "COMPLETE":
            return None

        if partial_gaps_for(project, doc.path, "INCREMENT"):
            return None
        return ("INCREMENT", a.target)
    return None


def _assignment_fix(project, doc: Document):
    """Set `Assessment Purpose` and `Assessment Target` (each written once)
    to what the assignment fixes (:func:`assigned_assessment`)."""
    want = assigned_assessment(project, doc)
    if want is None or doc.conflicts:
        return None
    edits = []
    for name, value in zip(("Assessment Purpose", "Assessment Target"), want):
        found = fields(doc.header, name)
        if len(found) != 1 or not found[0].value.strip():
            return None
        if found[0].value != value:
            edits.append(Edit(doc.path, found[0].value_span.start, found[0].value_span.end, value))
    if not edits:
        return None
    return Fix(tuple(edits), "unsafe", f"Record Tester's assignment: `Assessment Purpose`: `{want[0]}` and "
                                       f"`Assessment Target`: `{want[1]}`")


# ---------------------------------------------------------------------------
# Header fields
# ---------------------------------------------------------------------------


@rule(
    code="SL850",
    name="assessment-fields-once",
    section="Full Verification Boundary",
    owner="record",
    summary="`Assessment Purpose` and `Assessment Target` must each occur once, nonempty, in the report header.",
    explanation="""**What it does.** Reports a verification report whose header lacks, repeats
or leaves empty `Assessment Purpose` or `Assessment Target`.

**Why.** The Tester template: "`Assessment Purpose` and `Assessment Target` are
required. Initialize new reports with `FULL` and `NONE`, respectively. Missing, invalid,
repeated, or contradictory values are inconsistencies."

**Fix safety.** Sometimes (safe): copies of one value are dropped, keeping the first. A missing or empty field, or copies with different values, have no fix.""",
    bad_example="`Status`: `IN_PROGRESS` `User Style`: `NONE`\n`Assessment Purpose`: `FULL`",
    good_example="`Status`: `IN_PROGRESS` `User Style`: `NONE`\n`Assessment Purpose`: `FULL` `Assessment Target`: `NONE`",
    fix="sometimes",
    help="Write `Assessment Purpose` and `Assessment Target` once each in the report header.",
    no_fix_reason="The assessment's purpose and target are the Tester's assignment; only exact copies are dropped.",
)
def assessment_fields_once(project):
    doc = load_report(project)
    if doc is None:
        return
    yield from header_fields_once(doc, ("Assessment Purpose", "Assessment Target"), "report")


@rule(
    code="SL851",
    name="assessment-purpose-value",
    section="Full Verification Boundary",
    owner="record",
    summary="`Assessment Purpose` must be FULL, INCREMENT or CORRECTION.",
    explanation="""**What it does.** Checks the value of the report's `Assessment Purpose`.

**Why.** The Tester template defines three purposes: "`FULL`: reconcile the entire
current implementation contract; target `NONE`. `INCREMENT`: assess the assigned testable
outcome [...] `CORRECTION`: verify a specific owned correction or affected recovery
rerun".

**Fix safety.** Sometimes (safe): a value written with spaces inside its backticks (`` `FULL ` ``) that is allowed once trimmed is trimmed; the text is the one written. Otherwise no fix.""",
    fix="sometimes",
    bad_example="`Assessment Purpose`: `full`",
    good_example="`Assessment Purpose`: `FULL`",
    help="Set `Assessment Purpose` to FULL, INCREMENT or CORRECTION.",
    no_fix_reason="Which assessment the report is is the Tester's assignment.",
)
def assessment_purpose_value(project):
    doc = load_report(project)
    if doc is None:
        return
    f = one_field(doc.header, "Assessment Purpose")
    if f is not None and f.value not in PURPOSES:
        yield report((doc.path, f.value_span), f"`Assessment Purpose` is `{f.value}`; it must be FULL, INCREMENT or CORRECTION.",
                     trim_fix(doc.path, f, PURPOSES))


@rule(
    code="SL852",
    name="full-assessment-target",
    section="Full Verification Boundary",
    owner="record",
    summary="A FULL assessment has `Assessment Target: NONE`.",
    explanation="""**What it does.** Reports a report with `Assessment Purpose: FULL` whose
`Assessment Target` is not `NONE`.

**Why.** The Tester template: "`FULL`: reconcile the entire current implementation
contract; target `NONE`." and Full Verification Boundary: "with
`Assessment Purpose: FULL` and `Assessment Target: NONE`".

**Fix safety.** Sometimes (unsafe): in `TESTING` with a readable Handoff and the
recovery stack in order (Active agreeing, frames numbered 1, 2, ...), Tester's
assignment fixes both values: `FULL`/`NONE` after a handoff that is no
checkpoint, `INCREMENT`/`Increment N` after a valid checkpoint naming an
increment the plan defines (not for a `COMPLETE` report, nor when the
increment assessment would then miss a current condition). Otherwise no fix:
the purpose may be the wrong half.
""",
    bad_example="`Assessment Purpose`: `FULL` `Assessment Target`: `Increment 1`",
    good_example="`Assessment Purpose`: `FULL` `Assessment Target`: `NONE`",
    fix="sometimes",
    help="Set `Assessment Target` to `NONE` for a FULL assessment, or correct the purpose.",
    no_fix_reason="Outside TESTING, without a readable Handoff, for a correction or restored assignment, or an invalid checkpoint: the purpose may be the wrong half.",
)
def full_assessment_target(project):
    doc = load_report(project)
    if doc is None or _purpose(doc) != "FULL":
        return
    t = _target(doc)
    if t is not None and t != "NONE":
        yield report(_where(doc, "Assessment Target"), f"A FULL assessment needs `Assessment Target`: `NONE`, not `{t}`.",
                     _assignment_fix(project, doc))


@rule(
    code="SL853",
    name="correction-target",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A CORRECTION assessment names its specific target.",
    explanation="""**What it does.** Reports a report with `Assessment Purpose: CORRECTION`
whose `Assessment Target` is `NONE`.

**Why.** The Tester template: "`CORRECTION`: verify a specific owned correction or
affected recovery rerun; target a concise description of that assignment." and "An
increment or correction requires its explicit target and scoped evidence before its gate
can pass."

**Fix safety.** No fix.""",
    bad_example="`Assessment Purpose`: `CORRECTION` `Assessment Target`: `NONE`",
    good_example="`Assessment Purpose`: `CORRECTION` `Assessment Target`: `Repair endpoint assertion`",
    help="Name the correction's specific target in `Assessment Target`.",
    no_fix_reason="The target is the recovery frame's correction, which the Tester knows.",
)
def correction_target(project):
    doc = load_report(project)
    if doc is None or _purpose(doc) != "CORRECTION":
        return
    if _target(doc) == "NONE":
        yield report(_where(doc, "Assessment Target"), "A CORRECTION assessment needs its specific target, not `NONE`.")


# ---------------------------------------------------------------------------
# What the current assignment requires
# ---------------------------------------------------------------------------


@rule(
    code="SL854",
    name="full-verification-purpose",
    section="Full Verification Boundary",
    owner="record",
    summary="Full verification in TESTING records `Assessment Purpose: FULL` and target NONE.",
    explanation="""**What it does.** In `TESTING` outside an incremental checkpoint and
outside a scoped recovery correction, Tester's assignment is full verification; reports a
report whose purpose is not `FULL` or whose target is not `NONE`.

**Why.**
> Only the full Tester gate permits a `COMPLETE` verification report and normal handoff
> to Reviewer, with `Assessment Purpose: FULL` and `Assessment Target: NONE`.
> (PROTOCOL.md, Full Verification Boundary)

A `CHECKPOINT` is only an increment assignment when it is valid: "With effective cadence
`INCREMENTAL` and no active recovery, `CHECKPOINT` permits only `DEVELOPING -> TESTING`
and `TESTING -> DEVELOPING`" (Checkpoint Handoffs).

**Fix safety.** Sometimes (unsafe): in `TESTING` with a readable Handoff and the
recovery stack in order (Active agreeing, frames numbered 1, 2, ...), Tester's
assignment fixes both values: `FULL`/`NONE` after a handoff that is no
checkpoint, `INCREMENT`/`Increment N` after a valid checkpoint naming an
increment the plan defines (not for a `COMPLETE` report, nor when the
increment assessment would then miss a current condition). When STATE.md's
Handoff is unread only because its heading is spelt in another letter case
(`## handoff`) and, read, it is a checkpoint assigning exactly the increment
the report records, the finding carries SL201's respelling of the heading
(safe). Otherwise no fix:
the report may belong to another assignment; the Tester confirms.
""",
    bad_example="`WorkflowState`: `TESTING` (after FORWARD) ... report: `Assessment Purpose`: `INCREMENT`",
    good_example="`WorkflowState`: `TESTING` (after FORWARD) ... report: `Assessment Purpose`: `FULL` `Assessment Target`: `NONE`",
    fix="sometimes",
    help="Record `Assessment Purpose`: `FULL` and `Assessment Target`: `NONE` for full verification.",
    no_fix_reason="Outside TESTING, without a readable Handoff, for a correction or restored assignment, or an invalid checkpoint: the report may belong to another assignment; the Tester confirms.",
)
def full_verification_purpose(project):
    doc, a = report_assignment(project) or (None, None)
    if a is None or a.kind != "FULL" or a.restored:
        return
    p, t = _purpose(doc), _target(doc)
    if p is None or t is None:
        return
    if p != "FULL" or t != "NONE":
        yield report(_where(doc, "Assessment Purpose"), f"Tester's assignment is full verification, so the report needs `Assessment Purpose`: `FULL` and `Assessment Target`: `NONE` (it has `{p}` / `{t}`).",
                     _assignment_fix(project, doc) or _read_handoff_fix(project, doc, p, t))


def _read_handoff_fix(project, doc: Document, purpose: str, target: str):
    """SL201's respelling of a `## handoff` heading, when the handoff it
    makes readable is a checkpoint assigning exactly the increment the report
    records (the assignment then is no full verification)."""
    h = handoff_heading_fix(project)
    if h is None:
        return None
    a = tester_assignment(project, load_plan(project), doc, st=h[0])
    if a is not None and a.kind == "INCREMENT" and not a.restored and (purpose, target) == ("INCREMENT", a.target):
        return h[1]
    return None


@rule(
    code="SL855",
    name="checkpoint-assessment-target",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A checkpoint assignment records `Assessment Purpose: INCREMENT` and `Assessment Target: Increment N`.",
    explanation="""**What it does.** In `TESTING` after a valid `CHECKPOINT` from `DEVELOPING`
naming `Increment N`, reports a report whose purpose is not `INCREMENT` or whose target is
not `Increment N`.

**Why.**
> Tester independently reconstructs that assignment, selects `VERIFY` or `REVERIFY` [...],
> records `Assessment Purpose: INCREMENT` and `Assessment Target: Increment N`
> (PROTOCOL.md, Checkpoint Handoffs)

**Fix safety.** Sometimes (unsafe): in `TESTING` with a readable Handoff and the
recovery stack in order (Active agreeing, frames numbered 1, 2, ...), Tester's
assignment fixes both values: `FULL`/`NONE` after a handoff that is no
checkpoint, `INCREMENT`/`Increment N` after a valid checkpoint naming an
increment the plan defines (not for a `COMPLETE` report, nor when the
increment assessment would then miss a current condition). Otherwise no fix:
the report may belong to another assignment; the Tester confirms.
""",
    bad_example="`Reason`: `Increment 1 ready.` ... report: `Assessment Target`: `Increment 2`",
    good_example="`Reason`: `Increment 1 ready.` ... report: `Assessment Purpose`: `INCREMENT` `Assessment Target`: `Increment 1`",
    fix="sometimes",
    help="Record `Assessment Purpose`: `INCREMENT` and `Assessment Target`: `Increment N` for the checkpoint's increment.",
    no_fix_reason="Outside TESTING, without a readable Handoff, for a correction or restored assignment, or an invalid checkpoint: the report may belong to another assignment; the Tester confirms.",
)
def checkpoint_assessment_target(project):
    if tester_record_relaxed(project):
        return
    st = project.state
    if st is None or st.workflow_state != "TESTING":
        return
    n = valid_checkpoint(st, "DEVELOPING")
    if n is None:
        return
    path = record_path("VERIFICATION", cycle_id(project))
    doc = load_report(project)
    if doc is None:
        if project.kind(path) == "file" and live_cycle(project):
            yield report(path, f"The checkpoint assigns Increment {n}; the report needs `Assessment Purpose`: `INCREMENT` and `Assessment Target`: `Increment {n}`.")
        return
    if _purpose(doc) == "INCREMENT" and _target(doc) == f"Increment {n}":
        return
    yield report(_where(doc, "Assessment Target"), f"The checkpoint assigns Increment {n}; the report needs `Assessment Purpose`: `INCREMENT` and `Assessment Target`: `Increment {n}`.",
                 _assignment_fix(project, doc))


@rule(
    code="SL856",
    name="reviewer-entry-full-purpose",
    section="Full Verification Boundary",
    owner="record",
    summary="Entering a Reviewer state (or later) needs a FULL assessment, even during recovery.",
    explanation="""**What it does.** From `REVIEWING_IMPLEMENTATION` on, reports an
unfinished verification report whose `Assessment Purpose` is `INCREMENT` or `CORRECTION`.
During recovery it is held after the `FORWARD` or `RESUME` that entered the state,
whatever frame remains on the stack.

**Why.**
> Before either a `FORWARD` or recovery `RESUME` enters a Reviewer state, the full
> applicable Developer and Tester gates must hold for the current implementation, even if
> another recovery frame remains active. [...] Checkpoint passes, targeted corrections,
> and report labels cannot replace full completion. (PROTOCOL.md, Full Verification
> Boundary)

**Fix safety.** No fix.""",
    bad_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` ... report: `Assessment Purpose`: `INCREMENT`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION` ... report: `Assessment Purpose`: `FULL`",
    help="Complete a FULL assessment before entering the Reviewer state.",
    no_fix_reason="The assessment is the Tester's work.",
)
def reviewer_entry_full_purpose(project):
    st = project.state
    doc = load_report(project)
    if doc is None or st is None or st.cycle_mode != "STANDARD":
        return
    if st.workflow_state not in REVIEWER_OR_LATER:
        return
    h = holding(project)
    if h is not None and not h.full_gates_due():
        return
    p = _purpose(doc)
    if p is None or p == "FULL" or _report_status(doc) == "COMPLETE":
        return
    yield report(_where(doc, "Assessment Purpose"), f"The cycle is in {st.workflow_state}; entering a Reviewer state needs `Assessment Purpose`: `FULL`, even during recovery (it is `{p}`).")


@rule(
    code="SL857",
    name="complete-report-full-purpose",
    section="Full Verification Boundary",
    owner="record",
    summary="A COMPLETE report has `Assessment Purpose: FULL`.",
    explanation="""**What it does.** Reports a verification report with `Status: COMPLETE`
whose `Assessment Purpose` is `INCREMENT` or `CORRECTION`.

**Why.** The Tester template: "`COMPLETE` requires purpose `FULL` and the full shared
Tester gate". Full Verification Boundary: "Only the full Tester gate permits a `COMPLETE`
verification report".

**Fix safety.** No fix.""",
    bad_example="`Status`: `COMPLETE` ... `Assessment Purpose`: `CORRECTION`",
    good_example="`Status`: `COMPLETE` ... `Assessment Purpose`: `FULL` `Assessment Target`: `NONE`",
    help="Set `Assessment Purpose`: `FULL` on a COMPLETE report, or reopen it.",
    no_fix_reason="Which half is wrong is the Tester's call.",
)
def complete_report_full_purpose(project):
    doc = load_report(project)
    if doc is None or _report_status(doc) != "COMPLETE":
        return
    p = _purpose(doc)
    if p is not None and p != "FULL":
        yield report(_where(doc, "Assessment Purpose"), f"A COMPLETE report needs `Assessment Purpose`: `FULL`, not `{p}`.")


@rule(
    code="SL858",
    name="complete-report-awaiting-implementation",
    section="Full Verification Boundary",
    owner="record",
    summary="A COMPLETE report cannot keep AWAITING_IMPLEMENTATION acceptance work.",
    explanation="""**What it does.** Reports a verification report with `Status: COMPLETE`
that still lists acceptance work as `AWAITING_IMPLEMENTATION`.

**Why.** `AWAITING_IMPLEMENTATION` marks partial assignments (Tester template, Acceptance
Evidence). "For a scoped return, [...] Tester keeps its report `IN_PROGRESS` or `BLOCKED`.
Only full completion permits `COMPLETE`." (PROTOCOL.md, Implementation and Verification
Recovery Gates)

**Fix safety.** No fix.""",
    bad_example="`Status`: `COMPLETE` ...\n\n| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
    good_example="`Status`: `IN_PROGRESS` ...\n\n| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
    help="Assess the remaining acceptance work before marking the report COMPLETE.",
    no_fix_reason="The assessment is the Tester's work.",
)
def complete_report_awaiting_implementation(project):
    doc = load_report(project)
    if doc is None or _report_status(doc) != "COMPLETE":
        return
    idx = doc.text.find("AWAITING_IMPLEMENTATION")
    if idx < 0:
        return
    line = doc.text.count("\n", 0, idx) + 1
    from standards_lint.syntax.ast import Span

    col = idx - (doc.text.rfind("\n", 0, idx) + 1) + 1
    span = Span(line, col, line, col + len("AWAITING_IMPLEMENTATION"), idx, idx + len("AWAITING_IMPLEMENTATION"))
    yield report((doc.path, span), "The report is COMPLETE but still holds AWAITING_IMPLEMENTATION acceptance work.")


# ---------------------------------------------------------------------------
# Increment assessments
# ---------------------------------------------------------------------------


def _plan_increments(project) -> set[int]:
    """The increment numbers the plan defines (a misheaded `###  Increment N`
    defines none: SL820 reports it, and its heading fix is carried here)."""
    plan = load_plan(project)
    return {inc.number for inc in plan.defined_increments} if plan is not None else set()


def _misheaded_fix(project, number: int):
    plan = load_plan(project)
    return increment_heading_fix(plan, number) if plan is not None else None


@rule(
    code="SL859",
    name="assessment-target-increment-defined",
    section="Testable Increments",
    owner="record",
    summary="An `Assessment Target: Increment N` must name an increment of the development plan.",
    explanation="""**What it does.** Reports an `Assessment Target` of the form `Increment N`
when the development plan has no `### Increment N`.

**Why.** "Tester records assessments in the existing cycle verification report and never
edits the plan" — increments are the Developer's plan-local references (PROTOCOL.md,
Testable Increments); "Every checkpoint requires a defined increment."

**Fix safety.** Sometimes (safe): when the plan has the increment under a heading
not written exactly `### Increment N`, SL820's fix writes it so. Otherwise no fix.""",
    fix="sometimes",
    bad_example="`Assessment Target`: `Increment 2` (the plan defines only Increment 1)",
    good_example="`Assessment Target`: `Increment 1`",
    help="Name an increment the development plan defines in `Assessment Target`.",
    no_fix_reason="Which increment was assessed is the Tester's record.",
)
def assessment_target_increment_defined(project):
    doc = load_report(project)
    if doc is None:
        return
    t = _target(doc)
    m = _INCREMENT_TARGET_RE.match(t or "")
    if not m:
        return
    if int(m.group(1)) not in _plan_increments(project):
        yield report(_where(doc, "Assessment Target"), f"`Assessment Target` names Increment {m.group(1)}, which has no definition in the development plan.",
                     _misheaded_fix(project, int(m.group(1))))


@rule(
    code="SL860",
    name="increment-assessment-defined",
    section="Testable Increments",
    owner="record",
    summary="Each Increment Assessments row must name an increment of the development plan.",
    explanation="""**What it does.** Reports a row of the report's `## Increment Assessments`
table whose increment number has no `### Increment N` in the development plan.

**Why.** The Tester template: "Reference the Developer-owned increment definition and the
evidence required by **Checkpoint Handoffs**." Increment numbers are plan-local
references (PROTOCOL.md, Testable Increments).

**Fix safety.** Sometimes (safe): when the plan has the increment under a heading
not written exactly `### Increment N`, SL820's fix writes it so. Otherwise no fix.""",
    fix="sometimes",
    bad_example="| 3 | Endpoint / AC-001 | ... | VERIFIED |  (the plan defines Increments 1 and 2)",
    good_example="| 1 | Endpoint / AC-001 | ... | VERIFIED |",
    help="Name only increments of the development plan in Increment Assessments.",
    no_fix_reason="Which increment was assessed is the Tester's record.",
)
def increment_assessment_defined(project):
    doc = load_report(project)
    if doc is None:
        return
    defined = _plan_increments(project)
    reported: set[int] = set()
    for n, _disp, _ in increment_rows(doc):
        if n in defined or n in reported:
            continue
        reported.add(n)
        where = _section_heading(doc, "Increment Assessments")
        yield report(where, f"The Increment Assessments table records Increment {n}, which has no development-plan definition.",
                     _misheaded_fix(project, n))


def _section_heading(doc: Document, title: str):
    for s in doc.sections:
        if s.title == title and s.heading is not None:
            return s.heading
    return (doc.path, header_anchor(doc))


def report_path(project) -> Optional[str]:
    """The fixed path of this cycle's verification report, from Active
    Work.Id as written (a malformed Id is still the name roles use)."""
    st = project.state
    cid = st.aw("Id") if st is not None else None
    if not cid or cid in ("NONE", "UNSET") or "/" in cid:
        return None
    return record_path("VERIFICATION", cid)


def tester_checkpoint(project) -> Optional[int]:
    st = project.state
    if st is None or st.workflow_state != "DEVELOPING":
        return None
    return valid_checkpoint(st, "TESTING")


def _checkpoint_gate(project, check, no_report: str):
    """After a Tester checkpoint for Increment N: the findings of
    *check*(N, report), or *no_report* (its ``{n}`` the increment) at the
    report's fixed path when the live cycle has no report there (nothing is
    saved)."""
    n = tester_checkpoint(project)
    if n is None:
        return
    doc = load_report(project)
    if doc is not None:
        yield from check(n, doc)
    elif live_cycle(project) and report_path(project):
        yield report(report_path(project), no_report.format(n=n))


@rule(
    code="SL861",
    name="tester-checkpoint-verified",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A Tester checkpoint needs an IN_PROGRESS report recording the increment as VERIFIED.",
    explanation="""**What it does.** After a `CHECKPOINT` from `TESTING` naming `Increment N`,
reports a verification report that is not `IN_PROGRESS`, whose `Assessment Purpose` is
not `INCREMENT` (as written: `Increment` is not it), or whose Increment Assessments do
not record Increment N as `VERIFIED`, and reports at the report's fixed path when no
report of this cycle is there at all.

**Why.**
> Tester [...] records `Assessment Purpose: INCREMENT` and `Assessment Target:
> Increment N` [...] Before Tester returns a checkpoint to Developer: [...] the increment
> assessment and remaining acceptance work are saved, with the report still `IN_PROGRESS`
> while full verification remains unfinished (PROTOCOL.md, Checkpoint Handoffs)

**Fix safety.** No fix.""",
    bad_example="| 1 | Endpoint / AC-001 | ... | BLOCKED |  (after CHECKPOINT `Increment 1 verified.`)",
    good_example="| 1 | Endpoint / AC-001 | ... | VERIFIED |",
    help="Record the increment as VERIFIED in an IN_PROGRESS report before the checkpoint.",
    no_fix_reason="The verification is the Tester's work.",
)
def tester_checkpoint_verified(project):
    yield from _checkpoint_gate(project, _increment_verified, "A Tester checkpoint for Increment {n} needs an IN_PROGRESS "
                                "report recording Increment {n} as VERIFIED; there is no report of this cycle here.")


def _increment_verified(n: int, doc: Document):
    """SL861: the report is IN_PROGRESS and records Increment *n* VERIFIED."""
    rows = [d for k, d, _ in increment_rows(doc) if k == n]
    # An increment assessment is one whose `Assessment Purpose` is
    # `INCREMENT` as written (Checkpoint Handoffs: Tester "records
    # `Assessment Purpose: INCREMENT`"): a case-drifted `Increment` is no
    # such assessment, as every value the protocol spells is read exactly.
    purpose = value_of(doc.header, "Assessment Purpose")
    if (_report_status(doc) == "IN_PROGRESS" and purpose == "INCREMENT" and rows
            and rows[-1].upper().startswith("VERIFIED")):
        return
    detail = ("" if purpose == "INCREMENT" else
              " in an INCREMENT assessment; its `Assessment Purpose` is "
              + (f"`{purpose}`" if purpose is not None else "missing or repeated"))
    yield report(_section_heading(doc, "Increment Assessments"), f"A Tester checkpoint for Increment {n} needs an IN_PROGRESS report recording Increment {n} as VERIFIED{detail}.")


@rule(
    code="SL862",
    name="tester-checkpoint-evidence",
    section="Checkpoint Handoffs",
    owner="record",
    summary="A Tester checkpoint needs persisted Execution Evidence.",
    explanation="""**What it does.** After a `CHECKPOINT` from `TESTING`, reports a verification
report whose `## Execution Evidence` section is missing or empty.

**Why.**
> the selected outcome and affected completed behavior have sufficient current evidence
> and the report identifies assessed content, actual results, and any justified evidence
> reuse (PROTOCOL.md, Checkpoint Handoffs)

**Fix safety.** No fix.""",
    bad_example="## Execution Evidence\n\n## Open Findings and Dependencies",
    good_example="## Execution Evidence\n\n`npm test` in the root; exit 0, 3 passes.",
    help="Persist the Execution Evidence before the checkpoint.",
    no_fix_reason="The evidence is the Tester's to produce.",
)
def tester_checkpoint_evidence(project):
    yield from _checkpoint_gate(project, _evidence_persisted, "A Tester checkpoint needs persisted Execution Evidence "
                                "in the report; there is no report of this cycle here.")


def _evidence_persisted(_n: int, doc: Document):
    """SL862: the report's Execution Evidence section holds something."""
    body = [l for l in section_lines(doc, "Execution Evidence") if l.strip() and l.strip() != "---"]
    if body:
        return
    yield report(_section_heading(doc, "Execution Evidence"), "A Tester checkpoint needs persisted Execution Evidence in the report.")


@rule(
    code="SL863",
    name="increment-assessment-target-format",
    section="Checkpoint Handoffs",
    owner="record",
    summary="An INCREMENT assessment targets `Increment N`.",
    explanation="""**What it does.** Reports a report with `Assessment Purpose: INCREMENT`
whose `Assessment Target` is not of the form `Increment N`, including a target
that is missing or repeated (SL850 reports the field itself): the purpose is
known, and it asks for one explicit increment.

**Why.** The Tester template: "`INCREMENT`: assess the assigned testable outcome and
affected completed behavior; target `Increment N`, matching the increment assigned at
handoff." Checkpoint Handoffs: Tester "records `Assessment Purpose: INCREMENT` and
`Assessment Target: Increment N`".

**Fix safety.** No fix.""",
    bad_example="`Assessment Purpose`: `INCREMENT` `Assessment Target`: `NONE`",
    good_example="`Assessment Purpose`: `INCREMENT` `Assessment Target`: `Increment 1`",
    help="Set `Assessment Target` to `Increment N` for an INCREMENT assessment.",
    no_fix_reason="Which increment is assessed is the Tester's assignment.",
)
def increment_assessment_target_format(project):
    doc = load_report(project)
    if doc is None or _purpose(doc) != "INCREMENT":
        return
    t = _target(doc)
    if t is None:
        found = fields(doc.header, "Assessment Target")
        where = (doc.path, found[0].value_span) if found else _where(doc, "Assessment Target")
        state = "repeated" if len(found) > 1 else ("empty" if found else "missing")
        yield report(where, f"An INCREMENT assessment targets one `Increment N`, but `Assessment Target` is {state}.")
    elif not re.match(r"^Increment [1-9]\d*$", t):
        yield report(_where(doc, "Assessment Target"), f"An INCREMENT assessment targets `Increment N`, not `{t}`.")


standards_lint_rules = module_rules(globals())
