"""Rules of the Implementation and Verification Recovery Gates
(PROTOCOL.md): `### Suspended Assignment N` entries in the development plan
and the verification report, the saved assignment a scoped recovery needs,
and what a resumed or scoped Tester assignment requires of the report.
"""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.syntax.ast import Container, Document
from standards_lint.model.holding import tester_record_relaxed
from standards_lint.engine.rule import heading_fix, module_rules, report, rule
from standards_lint.model.plan import (
    POSITIVE_RE,
    SUSPENDED_RE,
    active_frames,
    cycle_id,
    developer_unfinished_for_report,
    fields,
    fields_not_once,
    frame_number,
    frame_value,
    header_anchor,
    load_plan,
    one_field,
    plan_path,
    report_suspended,
    scoped_developer,
    suspended_for,
    value_of,
)
from standards_lint.model.verification import load_report, report_assignment
from standards_lint.syntax.protocol import record_path as protocol_record_path

SUSPENDED_FIELDS = ("Recovery Frame", "Recovery Reason", "Purpose", "Target", "Assessed Inputs", "Next Action")
_INCREMENT_TARGET_RE = re.compile(r"^Increment [1-9]\d*$")

_WHY = """> In Developer's `Plan Notes` or Tester's `Resume or Handoff`, use a
> `### Suspended Assignment N` entry with these required fields: `Recovery Frame`,
> `Recovery Reason`, `Purpose`, `Target`, `Assessed Inputs`, `Next Action` [...]
> Select one concrete value for each field. (PROTOCOL.md, Implementation and
> Verification Recovery Gates)"""


def _suspended_docs(project) -> list[tuple[Document, list[Container]]]:
    """The live cycle's development plan and verification report (those
    that are readable), each with its suspended-assignment entries."""
    out = []
    plan = load_plan(project)
    if plan is not None:
        out.append((plan.doc, plan.suspended))
    rep = load_report(project)
    if rep is not None:
        out.append((rep, report_suspended(rep)))
    return out


def _entries(project) -> list[tuple[Document, Container]]:
    return [(doc, c) for doc, entries in _suspended_docs(project) for c in entries]


@rule(
    code="SL880",
    name="suspended-assignment-fields",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="Each `### Suspended Assignment N` needs every required field exactly once, nonempty.",
    explanation=f"""**What it does.** Reports a suspended-assignment entry in the development
plan or the verification report that lacks, repeats or leaves empty one of
`Recovery Frame`, `Recovery Reason`, `Purpose`, `Target`, `Assessed Inputs`,
`Next Action`.

**Why.**
{_WHY}

**Fix safety.** No fix.""",
    bad_example="### Suspended Assignment 1\n\n`Recovery Frame`: `1` `Purpose`: `DEVELOPMENT` `Target`: `NONE`",
    good_example="### Suspended Assignment 1\n\n`Recovery Frame`: `1` `Recovery Reason`: `A defect.`\n`Purpose`: `DEVELOPMENT` `Target`: `NONE`\n`Assessed Inputs`: `endpoint content` `Next Action`: `finish DEV-002`",
    help="Give the suspended assignment every required field once, with a value.",
    no_fix_reason="The saved assignment is a record of what was interrupted.",
)
def suspended_assignment_fields(project):
    for doc, c in _entries(project):
        m = SUSPENDED_RE.match(c.title)
        for name, found in fields_not_once(c, SUSPENDED_FIELDS):
            where = (doc.path, found[1].span) if len(found) > 1 else (
                (doc.path, found[0].value_span) if found else c.heading)
            yield report(where, f"Suspended Assignment {m.group(1)} needs `{name}` exactly once with a value.")


@rule(
    code="SL885",
    name="suspended-assignment-values",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A suspended assignment's Recovery Frame, Purpose and Target must be valid choices that fit together.",
    explanation=f"""**What it does.** Checks the values of a `### Suspended Assignment N` entry:
`Recovery Frame` a positive frame number; `Purpose` one of `DEVELOPMENT`, `FULL`,
`INCREMENT`, `CORRECTION`; `Target` `NONE` for `DEVELOPMENT` and `FULL`, `Increment N` for `INCREMENT`, and a
specific correction (not `NONE`) for `CORRECTION`.

**Why.**
{_WHY}

> `DEVELOPMENT` represents Developer's overall implementation assignment, and `FULL`
> represents Tester's overall assessment; both use target `NONE`. `INCREMENT` names the
> assigned increment and `CORRECTION` names the specific correction.

**Fix safety.** No fix.""",
    beyond_checker=True,
    bad_example="`Purpose`: `INCREMENT` `Target`: `NONE`",
    good_example="`Purpose`: `INCREMENT` `Target`: `Increment 1`",
    help="Give the suspended assignment a valid Recovery Frame, Purpose and Target that fit together.",
    no_fix_reason="The saved values record what was interrupted.",
)
def suspended_assignment_values(project):
    for doc, c in _entries(project):
        num = SUSPENDED_RE.match(c.title).group(1)
        frame = one_field(c, "Recovery Frame")
        if frame is not None and not POSITIVE_RE.match(frame.value):
            yield report((doc.path, frame.value_span), f"Suspended Assignment {num}: `Recovery Frame` must be a frame number, not `{frame.value}`.")
        purpose = one_field(c, "Purpose")
        if purpose is None:
            continue
        p = purpose.value
        if p not in ("DEVELOPMENT", "FULL", "INCREMENT", "CORRECTION"):
            yield report((doc.path, purpose.value_span), f"Suspended Assignment {num}: `Purpose` must be DEVELOPMENT, FULL, INCREMENT or CORRECTION, not `{p}`.")
            continue
        target = one_field(c, "Target")
        if target is None:
            continue
        t = target.value
        if p in ("DEVELOPMENT", "FULL") and t != "NONE":
            yield report((doc.path, target.value_span), f"Suspended Assignment {num}: a {p} assignment uses `Target`: `NONE`, not `{t}`.")
        elif p == "INCREMENT" and not _INCREMENT_TARGET_RE.match(t):
            yield report((doc.path, target.value_span), f"Suspended Assignment {num}: an INCREMENT assignment targets `Increment N`, not `{t}`.")
        elif p == "CORRECTION" and t == "NONE":
            yield report((doc.path, target.value_span), f"Suspended Assignment {num}: a CORRECTION assignment names its specific correction, not `NONE`.")


@rule(
    code="SL881",
    name="scoped-recovery-suspended-assignment",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A role interrupted during scoped recovery must save its assignment for the new frame and its reason.",
    explanation="""**What it does.** When a recovery frame interrupts Developer or Tester and
that role owns another frame of the stack (an earlier one it was correcting,
or a later one it is correcting now: nested scoped recovery), reports the
role's artifact (plan or report), unless it is `COMPLETE` (a finished
assignment has nothing unfinished to suspend), if it holds no `### Suspended Assignment`
whose `Recovery Frame` and `Recovery Reason` match the interrupting frame.
Only entries under the plan's `## Plan Notes` and the report's first `## Resume
or Handoff` count (a setext or otherwise unread heading leaves them under the
section above). When the artifact is kept at another path (SL635), the
finding points at the path where it belongs.

**Why.**
> Before replacing a Developer or Tester assignment during corrective routing, persist
> its purpose, target, assessed input identities, and next action in that role's existing
> artifact. Associate the saved assignment with the recovery frame and its specific
> reason; a frame number alone may be reused after it is popped. (PROTOCOL.md,
> Implementation and Verification Recovery Gates)

**Fix safety.** No fix.""",
    bad_example="Frame 2 (`From`: `TESTING`, `Reason`: `A defect.`) ... report: Suspended Assignment for frame 2 with `Recovery Reason`: `Another defect.`",
    good_example="Frame 2 (`From`: `TESTING`, `Reason`: `A defect.`) ... report: Suspended Assignment for frame 2 with `Recovery Reason`: `A defect.`",
    help="Save the interrupted assignment (with its frame and reason) as a `### Suspended Assignment N`.",
    no_fix_reason="What the role was doing is only known to it.",
)
def scoped_recovery_suspended_assignment(project):
    st = project.state
    if st is None or st.cycle_mode != "STANDARD":
        return
    frames = active_frames(st)
    if len(frames) < 2:
        return
    plan = load_plan(project)
    rep = load_report(project)
    for k, fr in enumerate(frames, 1):
        role = frame_value(fr, "From")
        if role == "DEVELOPING":
            doc, saved = (plan.doc, plan.suspended) if plan is not None else (None, [])
        elif role == "TESTING":
            doc, saved = (rep, report_suspended(rep)) if rep is not None else (None, [])
        else:
            continue
        if doc is not None and value_of(doc.header, "Status") == "COMPLETE":
            continue  # the role's artifact is finished: no unfinished assignment to suspend
        # Scoped recovery: the role this frame interrupted owns another frame
        # of the stack (an earlier one it was correcting, or a later one it is
        # correcting now); either way its interrupted assignment is restored
        # from the saved entry.
        if not any(frame_value(f, "Owner") == role for i, f in enumerate(frames, 1) if i != k):
            continue
        n = frame_number(fr, k, literal=True)
        if doc is None:
            # The role's record is kept elsewhere (SL635): the saved assignment
            # is not where the role restores it from.  A record never written,
            # or a file at the path that is not this cycle's record, is another
            # rule's finding.
            cid = cycle_id(project)
            artifact = "DEVELOPMENT" if role == "DEVELOPING" else "VERIFICATION"
            path = plan_path(project) if role == "DEVELOPING" else (
                protocol_record_path(artifact, cid) if cid is not None else None)
            if path is not None and project.kind(path) is None and project.records_of(cid, artifact):
                yield report(path, f"Recovery frame {n} interrupted scoped {role} work; save a `### Suspended "
                                   f"Assignment` for Frame {n} with its Recovery Reason (the record is not at its path).")
            continue
        if suspended_for(saved, n, frame_value(fr, "Reason")):
            continue
        yield report(
            doc.title or (doc.path, header_anchor(doc)),
            f"Recovery frame {n} interrupted scoped {role} work; save a `### Suspended Assignment` for Frame {n} with its Recovery Reason.",
        )


def _report_pt(rep: Document) -> tuple[Optional[str], Optional[str]]:
    return value_of(rep.header, "Assessment Purpose"), value_of(rep.header, "Assessment Target")


def _purpose_where(rep: Document):
    f = one_field(rep.header, "Assessment Purpose") or next(iter(fields(rep.header, "Assessment Purpose")), None)
    return (rep.path, f.value_span) if f is not None else (rep.path, header_anchor(rep))


@rule(
    code="SL882",
    name="restore-suspended-assessment",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="On RESUME to TESTING, Tester restores the assignment it saved for the popped frame.",
    explanation="""**What it does.** In `TESTING` after a `RESUME`, finds the latest
`### Suspended Assignment` of the verification report for the frame just popped and
reports a report whose `Assessment Purpose`/`Assessment Target` do not restore it.

**Why.**
> When the role receives its corresponding `RESUME`, restore the assignment and reconcile
> changed inputs. [...] the latest entry for a frame is its saved assignment.
> (PROTOCOL.md, Implementation and Verification Recovery Gates)

**Fix safety.** No fix.""",
    bad_example="Suspended Assignment (frame 1): `Purpose`: `INCREMENT` `Target`: `Increment 1` ... header: `Assessment Purpose`: `CORRECTION`",
    good_example="Suspended Assignment (frame 1): `Purpose`: `INCREMENT` `Target`: `Increment 1` ... header: `Assessment Purpose`: `INCREMENT` `Assessment Target`: `Increment 1`",
    help="Restore the assignment saved for the popped frame on RESUME to TESTING.",
    no_fix_reason="Restoring it is the Tester's work.",
)
def restore_suspended_assessment(project):
    rep, a = report_assignment(project) or (None, None)
    if a is None or not a.restored or a.kind == "FULL":
        return
    p, t = _report_pt(rep)
    if p == a.kind and t == a.target:
        return
    yield report(_purpose_where(rep), f"Restore the suspended {a.kind} assessment for {a.target} before continuing (the header has `{p}` / `{t}`).")


@rule(
    code="SL883",
    name="scoped-correction-purpose",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A scoped Tester correction records `Assessment Purpose: CORRECTION` with its specific target.",
    explanation="""**What it does.** In `TESTING` while Tester owns a recovery frame that is
still being corrected and Developer's interrupted work is saved (scoped recovery),
reports a report whose purpose is not `CORRECTION` or whose target is `NONE`.

**Why.** The Tester template: "`CORRECTION`: verify a specific owned correction or
affected recovery rerun; target a concise description of that assignment." and
"Checkpoint passes, targeted corrections, and report labels cannot replace full
completion" (Full Verification Boundary).

**Fix safety.** No fix.""",
    bad_example="Frame 1 owned by TESTING ... report: `Assessment Purpose`: `FULL` `Assessment Target`: `NONE`",
    good_example="Frame 1 owned by TESTING ... report: `Assessment Purpose`: `CORRECTION` `Assessment Target`: `Repair endpoint assertion`",
    help="Record `Assessment Purpose`: `CORRECTION` with the frame's specific target.",
    no_fix_reason="The target is the correction the Tester performs.",
)
def scoped_correction_purpose(project):
    rep, a = report_assignment(project) or (None, None)
    if a is None or a.kind != "CORRECTION" or not a.scoped:
        return
    p, t = _report_pt(rep)
    if p == "CORRECTION" and t not in (None, "NONE"):
        return
    yield report(_purpose_where(rep), "This is a scoped Tester correction: record `Assessment Purpose`: `CORRECTION` with the specific correction as `Assessment Target`.")


@rule(
    code="SL884",
    name="scoped-recovery-complete-report",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A COMPLETE report in TESTING needs Developer's full completion, scoped recovery or not.",
    explanation="""**What it does.** In `TESTING`, reports a `COMPLETE` verification report
while the development plan's `Status` is not `COMPLETE` (a `Status` the plan
does not hold counts as not `COMPLETE`), whether or not recovery is scoped (the
plan holds Developer's suspended assignment for an active frame; the message
says which). In other states the report is judged by their own gates: at
Reviewer entry the unfinished plan itself is reported (SL816), and during a
rerun before `TESTING` the report waits for Tester. At the end of a turn in
`TESTING` the report is Tester's own record and is left to Tester.

**Why.**
> Only the full Tester gate permits a `COMPLETE` verification report and normal
> handoff to Reviewer (PROTOCOL.md, Full Verification Boundary)

after Developer has marked the plan `COMPLETE`; and
> For a scoped return, Developer keeps its plan `IN_PROGRESS`; Tester keeps its report
> `IN_PROGRESS` or `BLOCKED`. Only full completion permits `COMPLETE`.
> (PROTOCOL.md, Implementation and Verification Recovery Gates)

**Fix safety.** No fix.""",
    bad_example="Plan: Suspended Assignment for frame 1 (`DEVELOPMENT`) ... report `Status`: `COMPLETE`",
    good_example="Plan: Suspended Assignment for frame 1 (`DEVELOPMENT`) ... report `Status`: `IN_PROGRESS`",
    help="Keep the report IN_PROGRESS until Developer's plan is COMPLETE (and during scoped recovery).",
    no_fix_reason="Reopening the report is the Tester's call.",
)
def scoped_recovery_complete_report(project):
    if tester_record_relaxed(project):
        return
    rep = load_report(project)
    st = project.state
    if rep is None or st is None:
        return
    if value_of(rep.header, "Status") != "COMPLETE":
        return
    plan = load_plan(project)
    if not developer_unfinished_for_report(st, plan):
        return
    f = one_field(rep.header, "Status")
    if scoped_developer(st, plan):
        msg = "The report is COMPLETE, but recovery is scoped and Developer's implementation is unfinished; keep it IN_PROGRESS or BLOCKED."
    else:
        msg = (f"The report is COMPLETE, but Developer's plan is not (its Status is `{plan.status or 'missing'}`); "
               "only full Developer completion permits a COMPLETE report: keep it IN_PROGRESS or BLOCKED.")
    yield report((rep.path, f.value_span), msg)


@rule(
    code="SL886",
    name="suspended-assignment-numbers",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="Suspended assignment entries use unique numbers within their artifact.",
    explanation="""**What it does.** Reports a `### Suspended Assignment N` whose number was
already used by an earlier entry of the same plan or report: among the
entries under the plan's `## Plan Notes` and under the report's first
`## Resume or Handoff` (a second copy of that section, as a merge that kept
both sides leaves it, is not read, as the framework reads it).

**Why.**
> Append entries with unique numbers within the artifact; the latest entry for a frame is
> its saved assignment. (PROTOCOL.md, Implementation and Verification Recovery Gates)

**Fix safety.** No fix: renumbering could change which entry is the latest.""",
    bad_example="### Suspended Assignment 1\n...\n### Suspended Assignment 1",
    good_example="### Suspended Assignment 1\n...\n### Suspended Assignment 2",
    help="Number suspended assignment entries uniquely within the artifact.",
    no_fix_reason="Renumbering could change which entry is the latest.",
)
def suspended_assignment_numbers(project):
    seen: dict[str, set[str]] = {}
    for doc, c in _entries(project):
        num = SUSPENDED_RE.match(c.title).group(1)
        used = seen.setdefault(doc.path, set())
        if num in used:
            yield report(c.heading, f"Suspended Assignment {num} is numbered like an earlier entry; append entries with unique numbers.")
        used.add(num)


_SUSPENDED_TITLE_RE = re.compile(r"^Suspended Assignment\b")


@rule(
    code="SL887",
    name="suspended-assignment-heading",
    section="Implementation and Verification Recovery Gates",
    owner="record",
    summary="A suspended assignment is headed `### Suspended Assignment N`, N a positive number.",
    explanation=f"""**What it does.** Reports a `### Suspended Assignment ...` heading of the
development plan or the verification report whose number is not a positive
number, or that ends in a closing sequence (`### Suspended Assignment 3 ###`).
The entry is still read by its number (CommonMark drops the closing
sequence), so its fields are checked; but the framework reads the heading
literally, takes `3 ###` for the number and rejects it.

**Why.**
{_WHY}

**Fix safety.** Sometimes (safe): a closing sequence is dropped, which is the
heading's spelling. A number that is not positive has no fix: which entry it
is (and which is the latest) is the role's record.""",
    fix="sometimes",
    bad_example="### Suspended Assignment 3 ###",
    good_example="### Suspended Assignment 3",
    help="Head the entry `### Suspended Assignment N`, with its positive number and nothing after it.",
    no_fix_reason="A missing or non-positive number: which entry it is is the role's record.",
)
def suspended_assignment_heading(project):
    for doc, _ in _suspended_docs(project):
        for h in doc.headings:
            if h.level != 3 or not _SUSPENDED_TITLE_RE.match(h.text):
                continue
            written = doc.text[h.span.start:h.span.end].strip()
            m = SUSPENDED_RE.match(h.text)
            if m is not None and int(m.group(1)) > 0:
                if h.closed:
                    yield report(h, f"The heading `{written}` ends in a closing sequence, which the framework reads "
                                    f"as part of the assignment number; write `{h.canonical}`.",
                                 heading_fix(doc, h, f"Drop the closing sequence: `{h.canonical}`"))
                continue
            yield report(h, f"The heading `{written}` needs a positive assignment number: "
                            "`### Suspended Assignment N`.")


standards_lint_rules = module_rules(globals())
