"""Review reports: the Implementation-Reviewed Closure assessment of the
implementation review report (Standard Cycle Completion, Implementation-Reviewed
Closure, Sign-off Readiness and Freshness, Review Kinds)."""

from __future__ import annotations

from standards_lint.model.plan import record_at
from standards_lint.syntax.protocol import TERMINAL_STATES, record_path
from standards_lint.syntax.records import closure_sections
from standards_lint.engine.rule import module_rules, report, rule

# Every rule here reads the closure sections through `closure_sections` (what
# lies in an HTML comment is no part of them for the framework's checker).
CLOSURE_FIELDS = (
    "Policy",
    "Eligibility",
    "User Choice",
    "User Reason",
    "Assessed Inputs",
    "Evidence",
    "Unmet Requirements",
    "Omitted Phases",
    "Omitted Guarantees",
)
ELIGIBILITIES = ("NOT_ASSESSED", "INELIGIBLE", "ELIGIBLE")
POLICIES = ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED")
# ELIGIBLE needs these to name something.
ELIGIBLE_NOT_NONE = ("User Choice", "Assessed Inputs", "Evidence", "Omitted Guarantees")




def _conflicted(project, rel: str) -> bool:
    """True when the file holds merge-conflict markers, even inside comments."""
    return bool(project.conflicts(rel))


def _active(project):
    """(state model, cycle id) of an active cycle whose STATE.md is usable, else None."""
    st = project.state
    if st is None or project.workflow_conflicted:
        return None
    cid = st.aw("Id")
    ws = st.workflow_state
    if not ws or ws in TERMINAL_STATES or not cid or cid in ("UNSET", "NONE"):
        return None
    if "/" in cid or "\\" in cid or cid.startswith("."):
        return None
    return st, cid


def _implementation_report(project, cid: str):
    """This cycle's implementation review document at its fixed path, or None."""
    return record_at(project, record_path("REVIEW", cid, "IMPLEMENTATION"), "REVIEW", cid, "IMPLEMENTATION")


def _concrete(value: str) -> bool:
    v = value.strip()
    return bool(v) and not (v.startswith("<") and v.endswith(">")) and " | " not in v


def _field_ok(name: str, fields: list) -> bool:
    if len(fields) != 1 or not _concrete(fields[0].value):
        return False
    if name == "Eligibility":
        return fields[0].value in ELIGIBILITIES
    if name == "Policy":
        return fields[0].value in POLICIES
    return True


def _one(section, name: str):
    found = section.all_fields(name)
    return found[0] if len(found) == 1 and _field_ok(name, found) else None


def _active_report(project):
    """The active cycle's implementation review report, or None."""
    a = _active(project)
    return _implementation_report(project, a[1]) if a is not None else None


def _signoff_report(project):
    """The implementation review report of an active STANDARD cycle under
    `CompletionPolicy`: `IMPLEMENTATION_REVIEWED` in `AWAITING_USER_SIGNOFF`
    (where the closure decides sign-off readiness), or None."""
    a = _active(project)
    if a is None:
        return None
    st, cid = a
    if st.cycle_mode != "STANDARD" or st.aw("CompletionPolicy") != "IMPLEMENTATION_REVIEWED":
        return None
    if st.workflow_state != "AWAITING_USER_SIGNOFF":
        return None
    return _implementation_report(project, cid)


def _only_section(doc):
    """The one `## Implementation-Reviewed Closure` section of *doc*, or None."""
    secs = closure_sections(doc)
    return secs[0] if len(secs) == 1 else None


def _closure_section(project):
    """The one `## Implementation-Reviewed Closure` section of the active
    cycle's implementation review report, or None."""
    return _only_section(_active_report(project))


@rule(
    code="SL960",
    since="0.10.0",
    name="closure-assessment-missing",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="IMPLEMENTATION_REVIEWED sign-off readiness needs an Implementation-Reviewed Closure section.",
    explanation="""\
**What it does.** When a STANDARD cycle under `CompletionPolicy`:
`IMPLEMENTATION_REVIEWED` is in `AWAITING_USER_SIGNOFF`, reports this cycle's
implementation review report when it has no `## Implementation-Reviewed
Closure` section.

**Why.** *"Use the implementation report's `Implementation-Reviewed Closure`
section and structured fields in the Reviewer template. ... Only current
`ELIGIBLE` closure and a `COMPLETE` implementation review permit
shorter-policy sign-off readiness. The checker requires that explicit
assessment and its recorded prerequisites"* (Implementation-Reviewed Closure).

**Fix safety.** No fix: Reviewer must assess closure eligibility.""",
    bad_example="""\
`WorkflowState`: `AWAITING_USER_SIGNOFF`, `CompletionPolicy`:
`IMPLEMENTATION_REVIEWED`, implementation report without a closure section.""",
    good_example="""\
## Implementation-Reviewed Closure

`Policy`: `IMPLEMENTATION_REVIEWED` `Eligibility`: `ELIGIBLE` ...""",
    help="Add the Implementation-Reviewed Closure assessment to the implementation review report.",
    no_fix_reason="Reviewer must assess closure eligibility.",
)
def closure_assessment_missing(project):
    doc = _signoff_report(project)
    if doc is None or closure_sections(doc):
        return
    where = doc.title if doc.title is not None else doc.path
    yield report(
        where,
        "IMPLEMENTATION_REVIEWED sign-off readiness requires an Implementation-Reviewed Closure assessment "
        "in this implementation review report; ordinary review completion does not establish it.",
    )


@rule(
    code="SL961",
    since="0.10.0",
    name="closure-not-eligible",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="IMPLEMENTATION_REVIEWED sign-off readiness needs Closure Eligibility ELIGIBLE.",
    explanation="""\
**What it does.** When a STANDARD cycle under `IMPLEMENTATION_REVIEWED` is in
`AWAITING_USER_SIGNOFF`, reports the closure section's `Eligibility` when it is
`NOT_ASSESSED` or `INELIGIBLE`.

**Why.** *"Its `Eligibility` is `NOT_ASSESSED`, `INELIGIBLE`, or `ELIGIBLE`,
independently of ordinary review `Status`. Only current `ELIGIBLE` closure and a
`COMPLETE` implementation review permit shorter-policy sign-off readiness."*
(Implementation-Reviewed Closure).

**Fix safety.** No fix: Reviewer must reassess, or the user may choose
full-deliverable completion.""",
    bad_example="""\
`Eligibility`: `NOT_ASSESSED` while `WorkflowState` is `AWAITING_USER_SIGNOFF`.""",
    good_example="""\
`Eligibility`: `ELIGIBLE` with its recorded prerequisites.""",
    help="Reassess closure eligibility, or choose full-deliverable completion.",
    no_fix_reason="Reviewer must reassess, or the user may choose full-deliverable completion.",
)
def closure_not_eligible(project):
    sec = _only_section(_signoff_report(project))
    if sec is None:
        return
    f = _one(sec, "Eligibility")
    if f is None or f.value == "ELIGIBLE":
        return
    yield report(
        (f.path, f.value_span),
        f"IMPLEMENTATION_REVIEWED sign-off readiness requires Closure Eligibility ELIGIBLE, but it is `{f.value}`; "
        "ordinary review completion is insufficient.",
    )


@rule(
    code="SL962",
    since="0.10.0",
    name="closure-field-not-concrete",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="Each Implementation-Reviewed Closure field occurs exactly once with a concrete value.",
    explanation="""\
**What it does.** In this cycle's implementation review report, checks each
field of the closure section (`Policy`, `Eligibility`, `User Choice`, `User
Reason`, `Assessed Inputs`, `Evidence`, `Unmet Requirements`, `Omitted Phases`,
`Omitted Guarantees`): it must occur exactly once, with a nonempty value that
is not a template placeholder; `Policy` must be a standard completion policy
and `Eligibility` one of `NOT_ASSESSED`, `INELIGIBLE`, `ELIGIBLE`.

**Why.** *"Keep each field exactly once with a concrete value."* (Reviewer
template, Implementation-Reviewed Closure).

**Fix safety.** No fix.""",
    bad_example="""\
## Implementation-Reviewed Closure

`Policy`: `IMPLEMENTATION_REVIEWED` `Policy`: `IMPLEMENTATION_REVIEWED`""",
    good_example="""\
## Implementation-Reviewed Closure

`Policy`: `IMPLEMENTATION_REVIEWED` `Eligibility`: `NOT_ASSESSED` ...""",
    help="Give each Implementation-Reviewed Closure field exactly one concrete value.",
    no_fix_reason="The values are the Reviewer's assessment.",
)
def closure_field_not_concrete(project):
    sec = _closure_section(project)
    if sec is None:
        return
    for name in CLOSURE_FIELDS:
        found = sec.all_fields(name)
        if _field_ok(name, found):
            continue
        where = found[1] if len(found) > 1 else (found[0] if found else sec.heading)
        detail = (
            "is missing" if not found else
            f"occurs {len(found)} times" if len(found) > 1 else
            f"has the value `{found[0].value}`"
        )
        yield report(where, f"Implementation-Reviewed Closure requires one concrete {name} field; `{name}` {detail}.")


@rule(
    code="SL963",
    since="0.10.0",
    name="closure-eligible-prerequisites",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="ELIGIBLE closure needs user choice, inputs, evidence, omitted guarantees and no unmet requirements.",
    explanation="""\
**What it does.** When the closure section's `Eligibility` is `ELIGIBLE`,
reports `User Choice`, `Assessed Inputs`, `Evidence` or `Omitted Guarantees`
set to `NONE`, and `Unmet Requirements` set to anything but `NONE`.

**Why.** *"An eligible conclusion requires non-`NONE` choice, input identities,
evidence, and omitted guarantees, with `Unmet Requirements: NONE`. An
ineligible conclusion names the unmet requirements, owners, and needed evidence
or user action."* (Reviewer template) and *"If the ordinary implementation gate
passes but closure eligibility does not, keep those conclusions distinct and
record the unmet requirement and its owner."* (Implementation-Reviewed
Closure).

**Fix safety.** No fix: whether closure is eligible is Reviewer's judgement.""",
    bad_example="""\
`Eligibility`: `ELIGIBLE` `Assessed Inputs`: `NONE`""",
    good_example="""\
`Eligibility`: `ELIGIBLE` `Assessed Inputs`: `Current scope, design and test content.`""",
    help="Record the user's choice, inputs, evidence and omitted guarantees, with no unmet requirements, or mark the closure INELIGIBLE.",
    no_fix_reason="Whether closure is eligible is Reviewer's judgement.",
)
def closure_eligible_prerequisites(project):
    sec = _closure_section(project)
    if sec is None:
        return
    elig = _one(sec, "Eligibility")
    if elig is None or elig.value != "ELIGIBLE":
        return
    for name in ELIGIBLE_NOT_NONE:
        f = _one(sec, name)
        if f is not None and f.value == "NONE":
            yield report((f.path, f.value_span), f"ELIGIBLE closure requires {name}, not NONE.")
    f = _one(sec, "Unmet Requirements")
    if f is not None and f.value != "NONE":
        yield report(
            (f.path, f.value_span),
            "ELIGIBLE closure requires Unmet Requirements NONE; record remaining work as INELIGIBLE "
            "and route it to its owner.",
        )


@rule(
    code="SL964",
    since="0.10.0",
    name="closure-outside-implementation-report",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="The Implementation-Reviewed Closure section belongs only in the implementation review report.",
    explanation="""\
**What it does.** Reports a `## Implementation-Reviewed Closure` section in any
of this cycle's records other than the implementation review report (for
example the final-deliverable review).

**Why.** *"Include this section only in the implementation report when
assessing shorter standard completion. ... Omit it for reports that have never
assessed this policy, including expedited and final review."* (Reviewer
template) and *"this remains implementation review, not a third review kind or
a substitute final review."* (Review Gates).

**Fix safety.** No fix: move the assessment to the implementation report.""",
    bad_example="""\
`final-deliverable.md` with `## Implementation-Reviewed Closure`.""",
    good_example="""\
Only `implementation.md` holds the closure section.""",
    help="Move the closure assessment into the implementation review report.",
    no_fix_reason="Move the assessment to the implementation report.",
)
def closure_outside_implementation_report(project):
    a = _active(project)
    if a is None:
        return
    st, cid = a
    for r in project.records:
        if r.cycle != cid or (r.artifact == "REVIEW" and r.review_kind == "IMPLEMENTATION"):
            continue
        for sec in closure_sections(r.doc):
            yield report(
                sec.heading if sec.heading is not None else r.path,
                f"Implementation-Reviewed Closure belongs only in the implementation review report, not in this "
                f"{r.artifact}{' ' + r.review_kind if r.review_kind else ''} record.",
            )


@rule(
    code="SL965",
    since="0.10.0",
    name="closure-section-repeated",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="Keep exactly one current Implementation-Reviewed Closure section.",
    explanation="""\
**What it does.** Reports every `## Implementation-Reviewed Closure` section
after the first in this cycle's implementation review report.

**Why.** *"Keep exactly one current section with this heading. Before replacing
a previous assessment, preserve its conclusion, inputs, evidence, and reason for
supersession under a separate `## Closure Assessment History` heading."*
(Reviewer template).

**Fix safety.** No fix: which assessment is current is Reviewer's call.""",
    bad_example="""\
Two `## Implementation-Reviewed Closure` sections.""",
    good_example="""\
One current section and a `## Closure Assessment History` section.""",
    help="Keep exactly one current Implementation-Reviewed Closure section.",
    no_fix_reason="Which assessment is current is Reviewer's call.",
)
def closure_section_repeated(project):
    doc = _active_report(project)
    if doc is None:
        return
    secs = closure_sections(doc)
    for sec in secs[1:]:
        yield report(
            sec.heading if sec.heading is not None else doc.path,
            "Keep exactly one current Implementation-Reviewed Closure section; retain superseded conclusions "
            "under a different heading such as `## Closure Assessment History`.",
        )


@rule(
    code="SL966",
    since="0.10.0",
    name="closure-ineligible-without-unmet",
    section="Implementation-Reviewed Closure",
    owner="record",
    summary="INELIGIBLE closure must name its unmet requirements.",
    beyond_checker=True,
    explanation="""\
**What it does.** When the closure section's `Eligibility` is `INELIGIBLE`,
reports `Unmet Requirements`: `NONE`.

**Why.** *"An ineligible conclusion names the unmet requirements, owners, and
needed evidence or user action."* (Reviewer template) and *"If the ordinary
implementation gate passes but closure eligibility does not, keep those
conclusions distinct and record the unmet requirement and its owner."*
(Implementation-Reviewed Closure). The framework's checker does not test this.

**Fix safety.** No fix: only Reviewer knows what is unmet.""",
    bad_example="""\
`Eligibility`: `INELIGIBLE` `Unmet Requirements`: `NONE`""",
    good_example="""\
`Eligibility`: `INELIGIBLE` `Unmet Requirements`: `Documenter must supply guide evidence for AC-002.`""",
    help="Name the unmet requirements of the INELIGIBLE closure.",
    no_fix_reason="Only Reviewer knows what is unmet.",
)
def closure_ineligible_without_unmet(project):
    sec = _closure_section(project)
    if sec is None:
        return
    elig = _one(sec, "Eligibility")
    unmet = _one(sec, "Unmet Requirements")
    if elig is None or unmet is None or elig.value != "INELIGIBLE":
        return
    if unmet.value == "NONE":
        yield report(
            (unmet.path, unmet.value_span),
            "INELIGIBLE closure must name the unmet requirements, their owners and the evidence or user action "
            "still needed; `Unmet Requirements` is `NONE`.",
        )


standards_lint_rules = module_rules(globals())
