"""Record headers and entries: the `Status` of cycle records, template choices
left in a record header, entry-ID prefixes and references between records
(Workflow Artifact Provenance, and the record templates)."""

from __future__ import annotations

import posixpath
import re
from typing import Optional

from standards_lint.parser import LineIndex
from standards_lint.protocol import TERMINAL_STATES, record_path
from standards_lint.records import provenance_of
from standards_lint.rule import module_rules, replace, report, rule

STATUSES = ("IN_PROGRESS", "BLOCKED", "COMPLETE")
# Records whose header Status is IN_PROGRESS | BLOCKED | COMPLETE.
STATUS_ARTIFACTS = ("VERIFICATION", "REVIEW", "DOCUMENTATION", "SYNCHRONIZATION")
# Entry prefixes (Workflow Artifact Provenance, "Entries").
ENTRY_PREFIX = {"DOCUMENTATION": "DOC", "SYNCHRONIZATION": "D", "REVIEW": "F", "DEVELOPMENT": "DEV"}

_TEMPLATE_RE = re.compile(r" \| |^<.*>$")
_ENTRY_HEADING_RE = re.compile(r"^(DOC|D|F|DEV)-(\d+)\b")
_F_PATH_REF_RE = re.compile(r"([A-Za-z0-9_.\-/]+\.md)#(F-\d+)\b")
_F_MENTION_RE = re.compile(r"(?<![A-Za-z0-9#_-])F-\d+\b")
_LINK_TARGET_RE = re.compile(r"\]\([^)\s]*#(F-\d+)\)")
_DEV_MENTION_RE = re.compile(r"(?<![A-Za-z0-9#_-])DEV-\d+\b")


# -- shared ----------------------------------------------------------------




def _conflicted(project, rel: str) -> bool:
    """True when the file holds merge-conflict markers, even inside comments."""
    return bool(project.conflicts(rel))


def _active_cycle(project) -> Optional[str]:
    """The active cycle's ID when STATE.md is usable and the cycle nonterminal."""
    st = project.state
    if st is None or project.workflow_conflicted:
        return None
    ws = st.workflow_state
    cid = st.aw("Id")
    if not ws or ws in TERMINAL_STATES or not cid or cid in ("UNSET", "NONE"):
        return None
    return cid


def _current_records(project):
    cid = _active_cycle(project)
    if cid is None:
        return []
    return [r for r in project.records if r.cycle == cid]


def _is_template(value: str) -> bool:
    return bool(_TEMPLATE_RE.search(value.strip()))


def _body(doc) -> tuple[str, int]:
    """The record's text after its provenance block, and that block's end offset."""
    start = doc.provenance.extent.end if doc.provenance is not None else 0
    return doc.text, start


def _entries(doc, prefix: str) -> set[str]:
    out = set()
    for h in doc.headings:
        if h.level < 2:
            continue
        m = _ENTRY_HEADING_RE.match(h.text.strip())
        if m and m.group(1) == prefix:
            out.add(f"{prefix}-{m.group(2)}")
    return out


def _span(doc, start: int, end: int):
    return (doc.path, LineIndex(doc.text).span(start, end))


# -- Status ---------------------------------------------------------------------


def _status_field(r):
    if r.artifact not in STATUS_ARTIFACTS or r.path != r.fixed_path:
        return False, None
    h = r.doc.header
    fields = h.all_fields("Status") if h is not None else []
    return True, (fields[0] if fields else None)


@rule(
    code="SL900",
    name="record-status-missing",
    section="Workflow Artifact Provenance",
    summary="A verification, review, documentation or synchronization record needs a Status in its header.",
    explanation="""\
**What it does.** For this cycle's verification report, review reports,
documentation record and synchronization record at their fixed paths, reports
a header (the part before the first `##` section) without a `Status` field, or
with an empty one.

**Why.** The record templates put `Status`: `IN_PROGRESS | BLOCKED | COMPLETE`
in the header that `artifact init` writes, and the workflow reads it:
*"`IN_PROGRESS` means reconciliation remains; `BLOCKED` means required
reconciliation cannot complete; `COMPLETE` means the full **Synchronization
Gate** passed"* (Synchronizer template; the other templates say the same).

**Fix safety.** No fix: only the owner knows the record's status.""",
    bad_example="""\
# Documentation Record

`Cycle`: `<Id>` `Status`: ``""",
    good_example="""\
# Documentation Record

`Cycle`: `<Id>` `Status`: `IN_PROGRESS`""",
)
def record_status_missing(project):
    for r in _current_records(project):
        applies, f = _status_field(r)
        if not applies:
            continue
        if f is None:
            where = r.doc.title if r.doc.title is not None else r.path
            yield report(where, f"has no `Status` field in its header; a {r.artifact} record's header needs "
                         "`Status`: `IN_PROGRESS`, `BLOCKED` or `COMPLETE`.")
        elif not f.value.strip():
            yield report(f, "has no `Status` field in its header: `Status` is empty; set `IN_PROGRESS`, "
                         "`BLOCKED` or `COMPLETE`.")


@rule(
    code="SL901",
    name="record-status-invalid",
    section="Workflow Artifact Provenance",
    summary="A record's header Status must be IN_PROGRESS, BLOCKED or COMPLETE.",
    explanation="""\
**What it does.** For this cycle's verification report, review reports,
documentation record and synchronization record at their fixed paths, reports
a header `Status` that is not `IN_PROGRESS`, `BLOCKED` or `COMPLETE` (template
choices left in place are SL902's).

**Why.** The record templates define exactly these values: *"`IN_PROGRESS`
means assessment is underway; `BLOCKED` means required correction or evidence
prevents completion; neither is passing. `COMPLETE` requires the shared
Reviewer gate"* (Reviewer template). Entry statuses such as `OPEN` or `DONE`
belong to findings and plan steps, not to the record.

**Fix safety.** Sometimes: a value that differs only in letter case
(`complete`) can be upper-cased; the fix is marked unsafe because the owner
should confirm it.""",
    bad_example="""\
`Cycle`: `<Id>` `Status`: `DONE`""",
    good_example="""\
`Cycle`: `<Id>` `Status`: `COMPLETE`""",
    fix="sometimes",
)
def record_status_invalid(project):
    for r in _current_records(project):
        applies, f = _status_field(r)
        if not applies or f is None:
            continue
        v = f.value.strip()
        if not v or _is_template(v) or v in STATUSES:
            continue
        fix = None
        if v.upper() in STATUSES:
            fix = replace(f.path, f.value_span, v.upper(), safe=False, description=f"Set Status to {v.upper()}")
        yield report(
            (f.path, f.value_span),
            f"Status `{f.value}` must be IN_PROGRESS, BLOCKED, or COMPLETE.",
            fix=fix,
        )


# -- template choices -------------------------------------------------------------


@rule(
    code="SL902",
    name="record-header-template-choices",
    section="Workflow Artifact Provenance",
    summary="A record header field must hold one value, not the template's choices or placeholder.",
    explanation="""\
**What it does.** In this cycle's records, reports a header field whose value
still shows the template's alternatives (`A | B | C`) or a `<placeholder>`.

**Why.** `artifact init` writes the template header; the owner then records
one concrete value, e.g. *"Set `User Style` to the user's explicit selection
under the protocol's **User Styles**, or `NONE`."* (record templates). A
value with `|` is not a selectable user-style name either: *"Neither name for
`team | compact.md` can be persisted"* (Developer template).

**Fix safety.** No fix: which value applies is the owner's decision.""",
    bad_example="""\
`Mode`: `AUTONOMOUS | STEPWISE | CODE_WITH_ME`""",
    good_example="""\
`Mode`: `AUTONOMOUS`""",
)
def record_header_template_choices(project):
    for r in _current_records(project):
        h = r.doc.header
        if h is None:
            continue
        for f in h.fields:
            if _is_template(f.value):
                yield report(
                    (f.path, f.value_span),
                    f"field `{f.name}` still shows the template's choices (`{f.value}`); set one value.",
                )


# -- entries and references ---------------------------------------------------------


@rule(
    code="SL903",
    name="record-entry-prefix",
    section="Workflow Artifact Provenance",
    summary="Documentation records number entries DOC-NNN; synchronization records D-NNN.",
    explanation="""\
**What it does.** Reports a `### D-NNN` entry heading in this cycle's
documentation record and a `### DOC-NNN` entry heading in its synchronization
record.

**Why.** The Entries column of **Workflow Artifact Provenance**: documentation
record `### DOC-NNN`, synchronization record `### D-NNN`. *"The development
plan, review reports, documentation record, and synchronization record number
their entries as headings with the prefixes in the table."*

**Fix safety.** No fix: renumbering changes identifiers other records may cite.""",
    bad_example="""\
### D-001 — Old guide title   (in a documentation record)""",
    good_example="""\
### DOC-001 — Old guide title""",
)
def record_entry_prefix(project):
    wrong = {"DOCUMENTATION": ("D", "DOC", "documentation"), "SYNCHRONIZATION": ("DOC", "D", "synchronization")}
    for r in _current_records(project):
        if r.artifact not in wrong:
            continue
        bad, good, label = wrong[r.artifact]
        for h in r.doc.headings:
            m = _ENTRY_HEADING_RE.match(h.text.strip())
            if h.level >= 2 and m and m.group(1) == bad:
                yield report(
                    h,
                    f"numbers its discrepancies {bad}-NNN; {label} records use {good}-NNN "
                    f"(`{bad}-{m.group(2)}`).",
                )


def _f_path_refs(doc, start: int):
    """(path text, F-id, start, end) of every `<path>.md#F-NNN` reference."""
    for m in _F_PATH_REF_RE.finditer(doc.text, start):
        yield m.group(1), m.group(2), m.start(), m.end()


def _bare_f(doc, start: int):
    """(F-id, start, end) of F-NNN mentions not preceded by a path."""
    text = doc.text
    for m in _F_MENTION_RE.finditer(text, start):
        link = _LINK_TARGET_RE.match(text, m.end())
        if link is not None and link.group(1) == m.group(0):
            continue  # Markdown link text whose target names the same entry
        yield m.group(0), m.start(), m.end()


def _resolve(project, referrer: str, target: str) -> Optional[str]:
    """The repository path a reference names, or None when it leaves the repository."""
    candidates = []
    if target.startswith("/"):
        return None
    rel = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), target))
    direct = posixpath.normpath(target)
    for c in (direct, rel):
        if c.startswith("../") or c == "..":
            continue
        candidates.append(c)
    for c in candidates:
        if project.kind(c) == "file":
            return c
    return None


@rule(
    code="SL904",
    name="entry-reference-without-record",
    section="Workflow Artifact Provenance",
    summary="Outside a review report, a finding ID must name its review report.",
    explanation="""\
**What it does.** In this cycle's records other than review reports, reports an
`F-NNN` mention that is not preceded by the report's path (`<path>#F-NNN`).

**Why.** *"When a record refers to an entry in another record, it names that
record's path with the identifier, for example
`.standards/docs/reviews/<Active Work.Id>/implementation.md#F-003`; a path
relative to the referring file, as in a Markdown link, also works."* (Workflow
Artifact Provenance). Both review kinds number findings from F-001, so a bare
ID is ambiguous.

**Fix safety.** No fix: which report is meant cannot be told.""",
    bad_example="""\
See F-001.""",
    good_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-001.""",
)
def entry_reference_without_record(project):
    for r in _current_records(project):
        if r.artifact == "REVIEW":
            continue
        body, start = _body(r.doc)
        seen = set()
        for fid, s, e in _bare_f(r.doc, start):
            if fid in seen:
                continue
            seen.add(fid)
            yield report(
                _span(r.doc, s, e),
                f"mentions {fid} without naming its record. Write it as <path>#{fid}, e.g. "
                f".standards/docs/reviews/<cycle>/implementation.md#{fid}.",
            )


@rule(
    code="SL905",
    name="review-finding-mention-undefined",
    section="Workflow Artifact Provenance",
    summary="A review report's bare F-NNN mention must be one of its own `### F-NNN` findings.",
    explanation="""\
**What it does.** In this cycle's review reports, reports an `F-NNN` mention
without a path when the report has no `### F-NNN` finding heading.

**Why.** Findings are *"stable report-local finding IDs"*; *"Refer to a finding
in another report by path and ID"* (Reviewer template). A bare ID in a report
therefore names one of its own findings.

**Fix safety.** No fix.""",
    bad_example="""\
F-004 is fixed by DEV-002.   (no `### F-004` in the report)""",
    good_example="""\
### F-004 — Missing escape""",
)
def review_finding_mention_undefined(project):
    for r in _current_records(project):
        if r.artifact != "REVIEW":
            continue
        own = _entries(r.doc, "F")
        body, start = _body(r.doc)
        seen = set()
        for fid, s, e in _bare_f(r.doc, start):
            if fid in own or fid in seen:
                continue
            seen.add(fid)
            yield report(
                _span(r.doc, s, e),
                f"mentions {fid}, but it has no `### {fid}` entry. If it is another record's entry, "
                f"write it as <path>#{fid}.",
            )


def _path_ref_problems(project):
    """(code, record, start, end, message) for every `<path>#F-NNN` reference problem."""
    out = []
    for r in _current_records(project):
        body, start = _body(r.doc)
        for target, fid, s, e in _f_path_refs(r.doc, start):
            resolved = _resolve(project, r.path, target)
            doc = project.doc(resolved) if resolved is not None else None
            prov = provenance_of(doc) if doc is not None else None
            if prov is None:
                out.append(("SL907", r, s, e, f"refers to {target}#{fid}, but {target} is not a STANDARDS record."))
            elif fid not in _entries(doc, "F"):
                out.append(("SL906", r, s, e, f"refers to {target}#{fid}, but that file has no {fid}."))
    return out


@rule(
    code="SL906",
    name="entry-reference-target-missing",
    section="Workflow Artifact Provenance",
    summary="A `<path>#F-NNN` reference must name a finding the referenced report has.",
    explanation="""\
**What it does.** In this cycle's records, reports a `<path>#F-NNN` reference
whose report exists as a STANDARDS record but has no `### F-NNN` heading.

**Why.** *"When a record refers to an entry in another record, it names that
record's path with the identifier"* (Workflow Artifact Provenance); the entry
must be there for the reference to resolve.

**Fix safety.** No fix.""",
    bad_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-007.   (no F-007 there)""",
    good_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-001.""",
)
def entry_reference_target_missing(project):
    for code, r, s, e, msg in _path_ref_problems(project):
        if code == "SL906":
            yield report(_span(r.doc, s, e), msg)


@rule(
    code="SL907",
    name="entry-reference-not-record",
    section="Workflow Artifact Provenance",
    summary="A `<path>#F-NNN` reference must name a STANDARDS record.",
    explanation="""\
**What it does.** In this cycle's records, reports a `<path>#F-NNN` reference
whose path does not resolve (from the repository root or from the referring
file) to a file with a valid STANDARDS provenance block.

**Why.** *"When a record refers to an entry in another record, it names that
record's path with the identifier ... a path relative to the referring file, as
in a Markdown link, also works."* (Workflow Artifact Provenance). Review
reports are cycle-owned records with provenance.

**Fix safety.** No fix.""",
    bad_example="""\
See .standards/docs/reviews/OTHER/implementation.md#F-001.   (no such record)""",
    good_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-001.""",
)
def entry_reference_not_record(project):
    for code, r, s, e, msg in _path_ref_problems(project):
        if code == "SL907":
            yield report(_span(r.doc, s, e), msg)


@rule(
    code="SL908",
    name="dev-step-mention-undefined",
    section="Workflow Artifact Provenance",
    summary="A DEV-NNN mention in a review report must be a step of this cycle's development plan.",
    explanation="""\
**What it does.** In this cycle's review reports, reports a `DEV-NNN` mention
that is not a `### DEV-NNN` step of this cycle's development plan (the record
at `Active Work.Development`, or at the plan's fixed path).

**Why.** *"Acceptance identifiers (`AC-NNN`) and development steps (`DEV-NNN`)
of the active cycle are referred to without a path."* (Workflow Artifact
Provenance), so a bare DEV ID names a step of the active plan.

**Fix safety.** No fix.""",
    bad_example="""\
F-004 is fixed by DEV-009.   (the plan has DEV-001 and DEV-002)""",
    good_example="""\
F-004 is fixed by DEV-002.""",
)
def dev_step_mention_undefined(project):
    cid = _active_cycle(project)
    if cid is None:
        return
    plan_path = project.state.aw("Development")
    if not plan_path or plan_path in ("NONE", "UNSET") or project.kind(plan_path) != "file":
        plan_path = record_path("DEVELOPMENT", cid)
    if project.kind(plan_path) != "file":
        return
    plan = project.doc(plan_path)
    p = provenance_of(plan) if plan is not None else None
    if p is None or p[0] != "DEVELOPMENT" or p[1] != cid:
        return
    steps = _entries(plan, "DEV")
    for r in _current_records(project):
        if r.artifact != "REVIEW":
            continue
        body, start = _body(r.doc)
        seen = set()
        for m in _DEV_MENTION_RE.finditer(r.doc.text, start):
            d = m.group(0)
            if d in steps or d in seen:
                continue
            seen.add(d)
            yield report(_span(r.doc, m.start(), m.end()), f"mentions {d}, which is not a step in the development plan.")


standards_lint_rules = module_rules(globals())
