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


from typing import Optional

from standards_lint.holding import holding
from standards_lint.protocol import (
    HANDOFF_KINDS,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    TERMINAL_STATES,
    record_path,
)
from standards_lint.findings import Edit, Fix
from standards_lint.records import provenance_of
from standards_lint.rule import module_rules, replace, report, rule

CONTEXT_PATH = ".standards/CONTEXT.md"
STATUSES = ("IN_PROGRESS", "BLOCKED", "COMPLETE")
INCOMPLETE = ("IN_PROGRESS", "BLOCKED")

# The record each state's owner leaves behind: state -> (artifact, review kind).
STATE_RECORDS = {
    "TESTING": ("VERIFICATION", None),
    "REVIEWING_IMPLEMENTATION": ("REVIEW", "IMPLEMENTATION"),
    "DOCUMENTING": ("DOCUMENTATION", None),
    "REVIEWING_FINAL": ("REVIEW", "FINAL_DELIVERABLE"),
    "SYNCHRONIZING": ("SYNCHRONIZATION", None),
}
# Owners that may leave their record incomplete on a corrective return, and
# the final Reviewer interrupted by a failure: their records need not be
# COMPLETE after a non-forward handoff until sign-off readiness.
TAIL_STATES = ("DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING")


# -- shared model -----------------------------------------------------------


class _Cycle:
    """What the required-record rules need from STATE.md, or None."""

    def __init__(self, st):
        self.st = st
        self.ws = st.workflow_state
        self.mode = st.cycle_mode
        self.policy = st.aw("CompletionPolicy")
        self.cid = st.aw("Id")
        self.kind = st.ho("Kind")
        self.frm = st.ho("From")

    def path(self, state: str) -> str:
        art, kind = STATE_RECORDS[state]
        return record_path(art, self.cid, kind)

    def required(self) -> tuple[list[str], list[str]]:
        """(states whose records the mode and policy require, route order)."""
        order = list(ROUTE_STANDARD_BROWNFIELD)
        if self.mode == "STANDARD":
            if self.policy == "FULL_DELIVERABLE":
                return ["TESTING", "REVIEWING_IMPLEMENTATION", *TAIL_STATES], order
            if self.policy == "IMPLEMENTATION_REVIEWED":
                return ["TESTING", "REVIEWING_IMPLEMENTATION"], order
            return [], order
        if self.mode == "DOCUMENTATION":
            return list(TAIL_STATES), list(ROUTE_DOCUMENTATION)
        if self.mode == "EXPEDITED":
            if self.policy != "NONE":
                return [], list(ROUTE_EXPEDITED)  # an invalid policy decides nothing (SL3xx reports it)
            return ["REVIEWING_IMPLEMENTATION"], list(ROUTE_EXPEDITED)
        return [], []




def _conflicted(project, rel: str) -> bool:
    """True when the file holds merge-conflict markers, even inside comments."""
    return bool(project.conflicts(rel))


def _cycle(project) -> Optional[_Cycle]:
    st = project.state
    if st is None or project.workflow_conflicted:
        return None
    c = _Cycle(st)
    if not c.ws or c.ws in TERMINAL_STATES or not c.cid or c.cid in ("UNSET", "NONE"):
        return None
    if "/" in c.cid or "\\" in c.cid or c.cid.startswith("."):
        return None
    return c


def _record(project, path: str, cid: str):
    """('missing'|'foreign'|'ok', status value or None, status field or None)."""
    if project.kind(path) != "file":
        return "missing", None, None
    doc = project.doc(path)
    if doc is None:
        return "foreign", None, None
    p = provenance_of(doc)
    if p is None or p[1] != cid:
        return "foreign", None, None
    fields = doc.header.all_fields("Status") if doc.header is not None else []
    if not fields:
        return "ok", None, None
    return "ok", fields[0].value, fields[0]


def _header_cycle_contradicts(project, path: str, cid: str) -> bool:
    doc = project.doc(path)
    found = doc.header.all_fields("Cycle") if doc is not None and doc.header is not None else []
    return not found or found[0].value != cid  # a missing Cycle reads as empty


def _where(path: str, field):
    return (path, field.value_span) if field is not None else path


def _special(project, c: _Cycle) -> dict:
    """Findings of the handoff-specific checks: path -> (code, message, field)."""
    out: dict = {}
    h = holding(project)
    if (c.mode in ("STANDARD", "EXPEDITED") and c.kind == "COMPLETION_CHANGE"
            and h is not None and h.passed_due("REVIEWING_IMPLEMENTATION")):
        p = c.path("REVIEWING_IMPLEMENTATION")
        state, value, field = _record(project, p, c.cid)
        if state == "missing":
            out[p] = ("SL935", "The implementation review report must exist for a COMPLETION_CHANGE handoff, "
                      "but it does not; a policy change needs a completed implementation review.", None)
        elif state == "ok" and value in INCOMPLETE and c.ws != "REVIEWING_IMPLEMENTATION":
            out[p] = ("SL935", f"The implementation review report must be COMPLETE for a COMPLETION_CHANGE handoff; "
                      f"its Status is `{value}`.", field)
    if c.kind == "RESUME" and c.frm in TAIL_STATES and c.mode in ("STANDARD", "DOCUMENTATION"):
        p = c.path(c.frm)
        state, value, field = _record(project, p, c.cid)
        if c.mode == "STANDARD" and c.policy == "IMPLEMENTATION_REVIEWED" and c.ws == "AWAITING_USER_SIGNOFF":
            if state != "ok":
                out[p] = ("SL934", f"A direct recovery return from {c.frm} to sign-off requires this record to exist "
                          "with current-cycle provenance and be COMPLETE, but it does not exist as this cycle's record.", None)
            elif value in INCOMPLETE:
                out[p] = ("SL934", f"must be COMPLETE for a direct recovery return from {c.frm} to sign-off; its Status is "
                          f"`{value}`. An incomplete corrective return must rerun implementation Reviewer "
                          "(RerunThrough REVIEWING_IMPLEMENTATION) instead.", field)
        elif c.frm == "REVIEWING_FINAL" and c.mode == "DOCUMENTATION":
            if state != "ok":
                out[p] = ("SL932", "The final-deliverable review must exist as this cycle's record for a successful "
                          "RESUME handoff from REVIEWING_FINAL; Reviewer has no corrective-return exception.", None)
            elif value in INCOMPLETE:
                out[p] = ("SL932", "The final-deliverable review must be COMPLETE for a successful RESUME handoff from "
                          f"REVIEWING_FINAL; its Status is `{value}`.", field)
        elif c.mode == "DOCUMENTATION" and state == "missing":
            # Reported by the provenance rules (SL636); only suppress the generic check here.
            out[p] = (None, "", None)
    return out


def _passed(project, c: _Cycle, special: dict) -> list:
    """Findings of the 'passed its owner's state' checks: (code, path, message, field)."""
    req, order = c.required()
    if c.ws not in order:
        order = list(ROUTE_STANDARD_BROWNFIELD)  # a state off the cycle's route: the STANDARD order
    if c.ws not in order:
        return []
    cands = [s for s in req if s in order and order.index(s) < order.index(c.ws)]
    if c.kind == "FORWARD" and c.frm in req and c.frm in TAIL_STATES and c.frm not in cands:
        # A tail role that just handed off forward has finished its record,
        # wherever the handoff went (the route itself is SL410/SL420's).
        cands.append(c.frm)
    h = holding(project)
    cands = [s for s in cands if h is not None and h.passed_due(s)]
    out = []
    for s in cands:
        p = c.path(s)
        if p in special:
            continue
        state, value, field = _record(project, p, c.cid)
        if state == "missing":
            out.append(("SL930", p, f"The cycle has passed {s}, so this record must exist, but it does not.", None))
        elif state == "ok" and _must_be_complete(project, c, s, p):
            if value in INCOMPLETE:
                out.append(("SL931", p, f"The cycle has passed {s}, so this record must be COMPLETE; its Status is `{value}`.", field))
            else:
                out.append((_GATE_PASSED, p, s, field))  # no finding: the record whose Status COMPLETE is due
    return out


# A `_passed` row that is no finding: the cycle has passed the record's gate,
# so its Status must be COMPLETE, whatever it says now (see complete_due).
_GATE_PASSED = "gate-passed"


def _must_be_complete(project, c: _Cycle, s: str, p: str) -> bool:
    """Whether the record at *p*, of the state *s* the cycle has passed, must
    be COMPLETE (SL931's conditions, whatever its Status says now)."""
    if _header_cycle_contradicts(project, p, c.cid):
        return False  # the header contradicts the block (SL9xx): its Status is not trusted
    if s in TAIL_STATES and c.kind != "FORWARD" and c.ws != "AWAITING_USER_SIGNOFF":
        return False  # an incomplete corrective return may still be pending
    return True


def _findings(project) -> list:
    cache = getattr(project, "_rr_required_findings", None)
    if cache is not None:
        return cache
    out = []
    c = _cycle(project)
    if c is not None:
        special = _special(project, c)
        for p, (code, msg, field) in special.items():
            if code is not None:
                out.append((code, p, msg, field))
        out.extend(_passed(project, c, special))
    project._rr_required_findings = out
    return out


def _emit(project, code, fix=None):
    for fcode, path, msg, field in _findings(project):
        if fcode == code:
            yield report(_where(path, field), msg, fix(project, path) if fix is not None else None)


# Where the record templates put `Status` in the header: after this field.
STATUS_AFTER = {
    "VERIFICATION": "Mode",
    "REVIEW": "ReviewKind",
    "DOCUMENTATION": "Cycle",
    "SYNCHRONIZATION": "Cycle",
}


def complete_fix(project, path: str):
    """The (unsafe) fix setting `Status` to `COMPLETE` in this cycle's record
    at *path*, when the cycle has passed its owner's gate (SL931's
    conditions) and what a COMPLETE record of its type must then hold does
    hold (:func:`complete_holds`), so the fix makes no new finding.  A
    missing `Status` is inserted where the record template has it."""
    if not complete_due(project, path):
        return None
    record = next((r for r in project.records if r.path == path), None)
    if record is None or record.doc.header is None:
        return None
    header = record.doc.header
    fields = header.all_fields("Status")
    if len(fields) > 1 or not complete_holds(project, record):
        return None
    description = "Set Status to COMPLETE: the cycle has passed this record's gate"
    if fields:
        f = fields[0]
        if f.value.strip() == "COMPLETE":
            return None
        if not f.value.strip() or f.bare:
            return replace(path, f.span, "`Status`: `COMPLETE`", safe=False, description=description)
        return replace(path, f.value_span, "COMPLETE", safe=False, description=description)
    anchors = header.all_fields(STATUS_AFTER.get(record.artifact, "Cycle")) or header.all_fields("Cycle")
    if not anchors or anchors[0].bare:
        return None
    at = anchors[0].span.end  # after the first (a repeated field is another finding)
    return Fix((Edit(path, at, at, " `Status`: `COMPLETE`"),), "unsafe",
               "Insert `Status`: `COMPLETE` (the cycle has passed this record's gate)")


def complete_holds(project, record) -> bool:
    """What a COMPLETE record of this type must hold, as the other rules
    check it: every current acceptance condition accounted for (SL721); a
    verification report with no purpose but FULL (SL857), without
    AWAITING_IMPLEMENTATION work (SL858), and outside recovery (SL885)."""
    from standards_lint.model.acceptance import evidence_ids, record_scan, traced, analysis

    ctx = analysis(project)
    if ctx is None:
        return False
    if traced(ctx):
        covered = evidence_ids(record_scan(ctx, record), record.artifact)
        if any(ac not in covered for ac in ctx.scope.current):
            return False
    if record.artifact == "VERIFICATION":
        if any(f.value.strip() != "FULL" for f in record.doc.header.all_fields("Assessment Purpose")):
            return False
        if "AWAITING_IMPLEMENTATION" in record.doc.text or project.state.frames:
            return False
    return True


def moved_record_fix(project, path: str):
    """The fix of a record missing at its fixed *path*: SL635's move to the
    fixed path when this cycle's only record of that type sits elsewhere, or
    SL260's respelling of a miscopied `Active Work.Id` when the record sits
    at the fixed path of the ID it miscopies (the record is then found)."""
    from standards_lint.model.record_provenance import placement
    from standards_lint.rules.record_paths import _move_fix, _respelt_id_fix

    cid = project.state.aw("Id")
    for art, kind in STATE_RECORDS.values():
        if record_path(art, cid, kind) != path:
            continue
        first, _seconds = placement(project)
        b = first.get((art, kind))
        if b is None:
            return _respelt_id_fix(project, lambda want: _holds(project, record_path(art, want, kind), art, kind, want))
        if b.cycle != cid or b.path == path:
            return None
        return _move_fix(project, b)
    return None


def _holds(project, path: str, art: str, kind, cid: str) -> bool:
    """Whether this cycle *cid* has its record of (*art*, *kind*) at *path*."""
    rec = project.record_of(cid, art, kind)
    return rec is not None and rec.path == path


def complete_due(project, path: str) -> bool:
    """Whether the cycle has passed the gate of this cycle's record at *path*
    (at its fixed path), so that its `Status` must be `COMPLETE` (SL931)."""
    return any(code in ("SL931", _GATE_PASSED) and p == path for code, p, _m, _f in _findings(project))


# -- rules ------------------------------------------------------------------


@rule(
    code="SL930",
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
off is checked; while the frame owner is still correcting nothing is checked.

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
    c = _cycle(project)
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
    c = _cycle(project)
    if c is None or c.mode != "DOCUMENTATION" or c.ws == "AUDITING" or c.kind not in HANDOFF_KINDS:
        return
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
