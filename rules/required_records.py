"""Required cycle records: which records must exist, and be COMPLETE, once the
active cycle has moved past their owner's state, after a RESUME or a
COMPLETION_CHANGE handoff, and in a DOCUMENTATION cycle (Standard Cycle
Completion, Documentation Cycle Contract, Corrective Returns, Project context
lifecycle).

Every rule here stays silent when STATE.md or MODE.md is unusable (missing,
conflicted, without a readable workflow state or cycle) and only reads records
through their fixed paths.
"""

from __future__ import annotations

from standards_lint.model.holding import holding
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.cycle import required_cycle, required_record_problems
from standards_lint.fixes.records import complete_fix, moved_record_fix
from standards_lint.fixes.reveals import REVEALS

CONTEXT_PATH = ".standards/CONTEXT.md"


# -- shared model -----------------------------------------------------------


def _where(path: str, field):
    return (path, field.value_span) if field is not None else path


def _emit(project, code, fix=None):
    for fcode, path, msg, field in required_record_problems(project):
        if fcode == code:
            yield report(_where(path, field), msg, fix(project, path) if fix is not None else None)


# -- rules ------------------------------------------------------------------


@rule(
    code="SL930",
    reveals=REVEALS["SL930"],
    name="passed-state-record-missing",
    section="Standard Cycle Completion",
    owner="record",
    summary="A record whose owner's state the cycle has passed must exist at its fixed path.",
    explanation="""\
**What it does.** Compares `WorkflowState` with the route of the active cycle
mode and completion policy. For each state the cycle has already passed whose
owner leaves a record (Tester's verification report, the implementation and
final-deliverable review reports, Documenter's documentation record and
Synchronizer's record), it reports the record when nothing is at its fixed path.
During an active recovery rerun only the record of the role that just handed
off is checked; while the frame owner is still correcting nothing is checked,
except the source of a FORWARD into a Reviewer state (Reviewer entry keeps the
full completion checks). A FORWARD under a frame whose Owner does not own its
`FailureType` (SL506) checks none.

**Why.** *"Scope, architecture, verification, and review records remain
required workflow evidence even when project-facing documentation is not
required."* (Completion Policies) and *"Every other record is always
cycle-owned at its fixed path."* (Workflow Artifact Provenance). A role cannot
have passed its gate without persisting its record.

**Fix safety.** Sometimes (unsafe): when this cycle's only record of the
type sits at another path (a record *"even if it is later renamed or
moved"*, Workflow Artifact Provenance), the fix is SL635's: move it to its
fixed path, as one rename. When `Active Work.Id` miscopies the cycle ID
and the record sits at that ID's fixed path, the fix is SL260's: respell the
Id, and the record is found. Otherwise no fix: the owning role must produce the record. Its skill's
`template.md` gives only the shape; the content (the evidence, the findings,
the `Status` the gate passed with) is the role's work, which the protocol does
not determine. A record written from the template would claim a gate that
never ran (and be reported as incomplete at once).""",
    bad_example="""\
`WorkflowState`: `DOCUMENTING` with no file at
`.standards/docs/reviews/<Id>/implementation.md`.""",
    good_example="""\
`.standards/docs/reviews/<Id>/implementation.md` exists with current-cycle
provenance and `Status`: `COMPLETE`.""",
    help="Write the record (with current-cycle provenance at its fixed path) before the cycle moves past its owner's state.",
    fix="sometimes",
    no_fix_reason="Unless the record exists at another path, the owning role must produce the record; its template gives the shape, not the evidence or findings the protocol leaves to the role.",
)
def passed_state_record_missing(project):
    yield from _emit(project, "SL930", moved_record_fix)


@rule(
    code="SL931",
    name="passed-state-record-incomplete",
    section="Standard Cycle Completion",
    owner="record",
    summary="A record whose owner's state the cycle has passed must be COMPLETE.",
    explanation="""\
**What it does.** For each record the cycle has passed (see SL930) that is
this cycle's record at its fixed path, reports a `Status` of `IN_PROGRESS` or
`BLOCKED`. Documenter's, final Reviewer's and Synchronizer's records may stay
incomplete after a non-forward handoff before sign-off readiness, because a
corrective return or an interrupted final review leaves them so.

**Why.** *"Persist the correction evidence and remaining work, leaving the
record `IN_PROGRESS` or `BLOCKED` while its full gate is unmet. ... Do not ...
take a normal forward handoff on the strength of the correction."* (Corrective
Returns). A normal forward handoff past a role means its full gate passed, and
its record says so with `COMPLETE`.

**Fix safety.** Sometimes (unsafe): the fix sets `Status`: `COMPLETE` when
what a COMPLETE record of the type must hold does hold, so that no other
rule then objects: every current acceptance condition accounted for (SL721);
for a verification report `Assessment Purpose`: `FULL` (SL857), no
`AWAITING_IMPLEMENTATION` work (SL858) and no recovery in progress (SL885).
It is unsafe because the other way out, routing the cycle back to the
owner, is a person's choice. Otherwise no fix: only the owner can complete
its gate.""",
    fix="sometimes",
    bad_example="""\
`WorkflowState`: `REVIEWING_IMPLEMENTATION` after a FORWARD handoff from
TESTING, while the verification report shows `Status`: `IN_PROGRESS`.""",
    good_example="""\
The verification report shows `Status`: `COMPLETE` before Tester hands off.""",
    help="Complete the record's gate (`Status`: `COMPLETE`), or route the cycle back to its owner.",
    no_fix_reason="What a COMPLETE record must hold is missing: only the owner can complete its gate.",
)
def passed_state_record_incomplete(project):
    yield from _emit(project, "SL931", complete_fix)


@rule(
    code="SL932",
    name="resume-from-final-review-record",
    section="Documentation Cycle Contract",
    owner="record",
    summary="A RESUME from REVIEWING_FINAL needs a COMPLETE final-deliverable review.",
    explanation="""\
**What it does.** In a DOCUMENTATION cycle whose handoff is `RESUME` from
`REVIEWING_FINAL`, reports the final-deliverable review report when it is not
this cycle's record at its fixed path, or when its `Status` is not `COMPLETE`.

**Why.** Only Documenter and Synchronizer may return without passing their
full gate: *"Documenter and Synchronizer may therefore plan resumption without
passing their full gate."* (Corrective Returns). A Reviewer that resumes
another role has passed its gate, so its report is complete.

**Fix safety.** No fix.""",
    bad_example="""\
`Kind`: `RESUME` `From`: `REVIEWING_FINAL` with the final-deliverable review
at `Status`: `IN_PROGRESS`.""",
    good_example="""\
The final-deliverable review shows `Status`: `COMPLETE`.""",
    help="Complete the final-deliverable review before resuming from REVIEWING_FINAL.",
    no_fix_reason="The review is the Reviewer's work.",
)
def resume_from_final_review_record(project):
    yield from _emit(project, "SL932")


@rule(
    code="SL934",
    since="0.10.0",
    name="direct-return-signoff-record",
    section="Corrective Returns",
    owner="record",
    summary="A direct recovery return to sign-off needs the returning role's COMPLETE record.",
    explanation="""\
**What it does.** In a STANDARD cycle under `IMPLEMENTATION_REVIEWED` that is in
`AWAITING_USER_SIGNOFF` after a `RESUME` from `DOCUMENTING`, `REVIEWING_FINAL`
or `SYNCHRONIZING`, reports that role's record when it is missing or not
`COMPLETE`.

**Why.** *"A same-state correction, a downstream rerun that does not own the
active frame, or a direct return to `AWAITING_USER_SIGNOFF` cannot use this
exception."* and *"If `ResumeAt` is `AWAITING_USER_SIGNOFF` under
`IMPLEMENTATION_REVIEWED`, a verified corrective return must keep the frame and
rerun implementation Reviewer before resuming sign-off readiness."* (Corrective
Returns).

**Fix safety.** No fix: route the incomplete correction through implementation
Reviewer.""",
    bad_example="""\
`WorkflowState`: `AWAITING_USER_SIGNOFF`, `Kind`: `RESUME` `From`:
`SYNCHRONIZING`, synchronization record `Status`: `IN_PROGRESS`.""",
    good_example="""\
Synchronizer keeps the frame, sets `RerunThrough`: `REVIEWING_IMPLEMENTATION`
and hands off to Reviewer.""",
    help="Complete the returning role's record, or route the incomplete correction through implementation review.",
    no_fix_reason="Route the incomplete correction through implementation Reviewer.",
)
def direct_return_signoff_record(project):
    yield from _emit(project, "SL934")


@rule(
    code="SL935",
    since="0.10.0",
    name="completion-change-review-record",
    section="Completion Policies",
    owner="record",
    summary="A COMPLETION_CHANGE handoff needs this cycle's completed implementation review.",
    explanation="""\
**What it does.** In a STANDARD cycle whose handoff is `COMPLETION_CHANGE`,
reports a missing implementation review report, and an incomplete one unless
the cycle is now in `REVIEWING_IMPLEMENTATION`.

**Why.** *"The implementation review must have passed and remain applicable to
current inputs"* and, for withdrawal, *"the completed implementation review and
its supporting full verification must remain applicable to current inputs."*
(user-decisions.md, Change completion policy).

**Fix safety.** No fix.""",
    bad_example="""\
`Kind`: `COMPLETION_CHANGE` `From`: `AWAITING_USER_SIGNOFF` with the
implementation review at `Status`: `IN_PROGRESS`.""",
    good_example="""\
The implementation review shows `Status`: `COMPLETE`.""",
    help="Complete this cycle's implementation review before a COMPLETION_CHANGE.",
    no_fix_reason="The review is the Reviewer's work.",
)
def completion_change_review_record(project):
    yield from _emit(project, "SL935")


@rule(
    code="SL936",
    since="0.11.0",
    name="documentation-omitted-owner-record",
    section="Documentation Cycle Contract",
    owner="USER",
    summary="A DOCUMENTATION cycle has no development plan, verification report or implementation review.",
    explanation="""\
**What it does.** In an active DOCUMENTATION cycle, reports every file whose
provenance block makes it this cycle's development plan, verification report
or implementation review report.

**Why.** *"Development, Testing, and Implementation Review are intentionally
omitted, not pending work. ... do not fabricate current-cycle records or claim
formal implementation verification."* (Documentation Cycle Contract).

**Fix safety.** No fix: the record must be removed or the cycle changed by an
explicit user decision.""",
    bad_example="""\
`CycleMode`: `DOCUMENTATION` and `.standards/docs/development/<Id>.md` with
`Artifact: DEVELOPMENT` for this cycle.""",
    good_example="""\
A DOCUMENTATION cycle with scope, design, documentation, final review and
synchronization records only.""",
    help="Remove the plan, verification or implementation review from the DOCUMENTATION cycle, or change the cycle by an explicit user decision.",
    no_fix_reason="The record must be removed or the cycle changed by an explicit user decision.",
)
def documentation_omitted_owner_record(project):
    c = required_cycle(project)
    if c is None or c.mode != "DOCUMENTATION":
        return
    for r in project.records:
        if r.cycle != c.cid:
            continue
        if r.artifact in ("DEVELOPMENT", "VERIFICATION") or (r.artifact == "REVIEW" and r.review_kind == "IMPLEMENTATION"):
            yield report(
                r.provenance,
                f"This is a current-cycle {r.artifact}{' ' + r.review_kind if r.review_kind else ''} record, but "
                "DOCUMENTATION omits this owner; a current-cycle implementation record cannot be fabricated "
                "or adopted as documentation evidence.",
            )


@rule(
    code="SL937",
    since="0.11.0",
    name="documentation-context-missing",
    section="Project context lifecycle",
    owner="AUDITOR",
    summary="A DOCUMENTATION cycle past AUDITING needs a nonempty .standards/CONTEXT.md.",
    explanation="""\
**What it does.** In an active DOCUMENTATION cycle whose `WorkflowState` is no
longer `AUDITING`, reports `.standards/CONTEXT.md` when it is missing or empty.

**Why.** *"Before entering `AWAITING_USER_SIGNOFF`, all six included roles must
have passed their applicable full gates ... The scope and architecture
references, current Auditor context, documentation record ..."* (Documentation
Cycle Contract) and *"Auditor creates or refreshes it when `AUDITING` runs."*
(Project context lifecycle). A documentation cycle starts in AUDITING, so
every later state follows an audit that wrote the context.

**Fix safety.** No fix: Auditor writes the context.""",
    bad_example="""\
`CycleMode`: `DOCUMENTATION`, `WorkflowState`: `ARCHITECTING`, no
`.standards/CONTEXT.md`.""",
    good_example="""\
`.standards/CONTEXT.md` holds Auditor's project context.""",
    help="Write `.standards/CONTEXT.md` during AUDITING.",
    no_fix_reason="Auditor writes the context.",
)
def documentation_context_missing(project):
    c = required_cycle(project)
    if c is None or c.mode != "DOCUMENTATION" or c.ws == "AUDITING":
        return
    # Outside recovery the handoff is not read: an unreadable Handoff.Kind
    # (SL220) silences this only where the kind decides it (passed_due).
    h = holding(project)
    if h is None or not h.passed_due("AUDITING", path=True):
        return  # during recovery the rerun has not handed off from Auditor's context yet
    text = project.text(CONTEXT_PATH) if project.kind(CONTEXT_PATH) == "file" else None
    if text is None or not text.strip():
        yield report(
            CONTEXT_PATH,
            f"is missing or empty; a DOCUMENTATION cycle in {c.ws} requires Auditor-owned context after AUDITING.",
        )


standards_lint_rules = module_rules(globals())
