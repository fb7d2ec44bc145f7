"""Record headers and entries: the `Status` of cycle records, template choices
left in a record header, entry-ID prefixes and references between records
(Workflow Artifact Provenance, and the record templates)."""

from __future__ import annotations

import posixpath
import re
from typing import Optional

from standards_lint.syntax.parser import LineIndex
from standards_lint.engine.findings import Edit, Fix
from standards_lint.syntax.protocol import VERIFICATION_CADENCES, record_path
from standards_lint.syntax.records import provenance_of
from standards_lint.engine.rule import module_rules, replace, report, rule, trim_fix
from standards_lint.fixes.records import complete_fix
from standards_lint.model.record_provenance import current_cycle
from standards_lint.model.cycle import complete_due, complete_holds
from standards_lint.model.plan import step_ids
from standards_lint.fixes.spelling import meant_value
from standards_lint.model.user_styles import persistable_selector
from standards_lint.fixes.reveals import REVEALS

STATUSES = ("IN_PROGRESS", "BLOCKED", "COMPLETE")
# Records whose header Status is IN_PROGRESS | BLOCKED | COMPLETE.
STATUS_ARTIFACTS = ("VERIFICATION", "REVIEW", "DOCUMENTATION", "SYNCHRONIZATION")
# Entry prefixes (Workflow Artifact Provenance, "Entries").
ENTRY_PREFIX = {"DOCUMENTATION": "DOC", "SYNCHRONIZATION": "D", "REVIEW": "F", "DEVELOPMENT": "DEV"}

_TEMPLATE_RE = re.compile(r" \| |^<.*>$")
_ENTRY_HEADING_RE = re.compile(r"^(DOC|D|F|DEV)-(\d+)\b")
# A `<path>.md#F-NNN` reference.  The path is a whole run of path
# characters (the lookbehind): a match found from inside a run is the one
# found from its start, and trying every start of a long run (a pasted hash
# or blob) rescanned the rest of it from each: quadratic (issue 43).
_F_PATH_REF_RE = re.compile(r"(?<![A-Za-z0-9_./-])([A-Za-z0-9_.\-/]+\.md)#(F-\d+)\b")
_F_MENTION_RE = re.compile(r"(?<![A-Za-z0-9#_-])F-\d+\b")
# A Markdown link target (from `](` to the first `)` or space) ends at that
# `)`; see :func:`_link_targets`.
_TARGET_END_RE = re.compile(r"[)\s]")
_DIGITS_RE = re.compile(r"\d+")
_DEV_MENTION_RE = re.compile(r"(?<![A-Za-z0-9#_-])DEV-\d+\b")
# The records whose bare DEV-NNN mentions must name a step of the plan, as the
# framework's checker reads them: the review reports and the verification
# report (its Acceptance Evidence cites the steps still to implement).
_DEV_MENTION_ARTIFACTS = ("REVIEW", "VERIFICATION")

# Header fields whose values the record templates enumerate, by artifact: a
# choice list of which exactly one member is such a value gets an (unsafe) fix.
ALLOWED_VALUES = {
    ("Status", "VERIFICATION"): STATUSES,
    ("Status", "REVIEW"): STATUSES,
    ("Status", "DOCUMENTATION"): STATUSES,
    ("Status", "SYNCHRONIZATION"): STATUSES,
    ("Status", "DEVELOPMENT"): ("PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE"),
    ("Mode", "DEVELOPMENT"): ("AUTONOMOUS", "STEPWISE", "CODE_WITH_ME"),
    ("Mode", "VERIFICATION"): ("VERIFY", "REVERIFY"),
    ("User Style Locked", "DEVELOPMENT"): ("false", "true"),
    ("Verification Cadence", "DEVELOPMENT"): tuple(c for c in VERIFICATION_CADENCES if c != "NONE"),
    ("Assessment Purpose", "VERIFICATION"): ("FULL", "INCREMENT", "CORRECTION"),
    ("Collaboration", "DOCUMENTATION"): ("AUTONOMOUS", "GUIDED"),
    ("Target", "DOCUMENTATION"): ("FILE", "FOLDER", "VERTICAL_SLICE", "ACTIVE_CHANGE"),
}


# -- shared ----------------------------------------------------------------


def _active_cycle(project) -> Optional[str]:
    """The active cycle's ID (``model.record_provenance.current_cycle``),
    while no workflow file holds conflict markers."""
    return None if project.workflow_conflicted else current_cycle(project)


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
    """(applies, Status field): the header Status of the cycle's record of
    its type, found by provenance (at its fixed path, else the only one)."""
    if r.artifact not in STATUS_ARTIFACTS or r.project.record_of(r.cycle, r.artifact, r.review_kind) is not r:
        return False, None
    h = r.doc.header
    fields = h.all_fields("Status") if h is not None else []
    return True, (fields[0] if fields else None)


@rule(
    code="SL900",
    name="record-status-missing",
    section="Workflow Artifact Provenance",
    owner="record",
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

**Fix safety.** Sometimes (unsafe). Once the cycle has passed the record's
gate (the conditions of SL931), the protocol leaves one status: *"A normal
forward handoff past a role means its full gate passed"*, so the fix sets
`Status`: `COMPLETE` (a missing field is inserted where the template has it:
after `Cycle`, after `ReviewKind` in a review report, after `Mode` in a
verification report). It is offered only when what a COMPLETE record must
hold does hold (every current acceptance condition accounted for; a
verification report with `Assessment Purpose`: `FULL`, no
`AWAITING_IMPLEMENTATION` work and no recovery in progress), and is unsafe
because the alternative, routing the cycle back to the owner, is a person's
choice. Before the gate, no fix: only the owner knows the record's status.""",
    fix="sometimes",
    bad_example="""\
# Documentation Record

`Cycle`: `<Id>` `Status`: ``""",
    good_example="""\
# Documentation Record

`Cycle`: `<Id>` `Status`: `IN_PROGRESS`""",
    help="Give the record a `Status` in its header: IN_PROGRESS, BLOCKED or COMPLETE.",
    no_fix_reason="Before the cycle has passed the record's gate, or while what COMPLETE requires is missing, only the owner knows the record's status.",
)
def record_status_missing(project):
    for r in _current_records(project):
        applies, f = _status_field(r)
        if not applies:
            continue
        if f is None:
            where = r.doc.title if r.doc.title is not None else r.path
            yield report(where, f"has no `Status` field in its header; a {r.artifact} record's header needs "
                         "`Status`: `IN_PROGRESS`, `BLOCKED` or `COMPLETE`.", complete_fix(project, r.path))
        elif not f.value.strip():
            yield report(f, "has no `Status` field in its header: `Status` is empty; set `IN_PROGRESS`, "
                         "`BLOCKED` or `COMPLETE`.", complete_fix(project, r.path))


@rule(
    code="SL901",
    reveals=REVEALS["SL901"],
    name="record-status-invalid",
    section="Workflow Artifact Provenance",
    owner="record",
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

A status written with spaces inside its backticks (`` `COMPLETE ` ``) is
not one of them: the value is the text between the backticks.

**Fix safety.** Sometimes. A status padded with spaces inside its backticks
(`` `COMPLETE ` ``) is trimmed (safe: the text is the one written). Otherwise
unsafe: once the cycle has passed the record's
gate, whatever the value, SL900's fix: `COMPLETE`, where what a COMPLETE
record must hold does hold (see SL931). Before it, a value that is one status
misspelt, differing only in letter case (`complete`), a space for `_` (`IN
PROGRESS`) or one typo (`COMPLETES`), is respelt, to `COMPLETE` again only
where what it requires holds; the owner should confirm it. Entry statuses
(`OPEN`, `DONE`) before the gate have no fix: which record status they meant
is the owner's call.""",
    bad_example="""\
`Cycle`: `<Id>` `Status`: `DONE`""",
    good_example="""\
`Cycle`: `<Id>` `Status`: `COMPLETE`""",
    fix="sometimes",
    help="Set the record's `Status` to IN_PROGRESS, BLOCKED or COMPLETE.",
    no_fix_reason="Only a misspelt status has an unmistakable meaning, and only when that status may stand.",
)
def record_status_invalid(project):
    for r in _current_records(project):
        applies, f = _status_field(r)
        if not applies or f is None:
            continue
        v = f.value.strip()
        if not v or _is_template(v) or f.value in STATUSES:
            continue
        yield report(
            (f.path, f.value_span),
            f"Status `{f.value}` must be IN_PROGRESS, BLOCKED, or COMPLETE.",
            fix=_status_respelt(project, r, f),
        )


def _status_respelt(project, r, f):
    """The (unsafe) fix of an invalid Status.  Once the cycle has passed the
    record's gate, SL900's: COMPLETE, where what COMPLETE requires holds.
    Before it, a value that is one allowed status misspelt (letter case, a
    space for `_`, one typo: `COMPLETES`) is respelt, COMPLETE again only
    where what it requires holds.  A status written with spaces inside its
    backticks (`COMPLETE `) is trimmed first (safe: the text is determined)."""
    trimmed = trim_fix(f.path, f, STATUSES)
    if trimmed is not None:
        return trimmed
    if complete_due(project, r.path):
        return complete_fix(project, r.path)
    fix = meant_value(f.path, f, STATUSES)
    if fix is None:
        return None
    want = fix.edits[0].replacement
    if want == "COMPLETE" and not complete_holds(project, r):
        return None
    return Fix(fix.edits, "unsafe", f"Set Status to {want}")


# -- template choices -------------------------------------------------------------


@rule(
    code="SL902",
    name="record-header-template-choices",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="A record header field must hold one value, not the template's choices or placeholder.",
    explanation="""\
**What it does.** In this cycle's records, reports a header field whose value
still shows the template's alternatives (`A | B | C`) or a `<placeholder>`.

**Why.** `artifact init` writes the template header; the owner then records
one concrete value, e.g. *"Set `User Style` to the user's explicit selection
under the protocol's **User Styles**, or `NONE`."* (record templates). A
value with `|` is not a selectable user-style name either: *"Neither name for
`team | compact.md` can be persisted"* (Developer template).

**Fix safety.** Sometimes. The visible `Cycle` field, and `ReviewKind` in a
review report, get a safe fix setting the value of the record's provenance
block: *"its visible `Cycle` field, plus the visible `ReviewKind` field in a
review report, must match the block"* (Workflow Artifact Provenance); an
`Artifact` field listing the block's artifact type among its choices is set to
it the same way. A choice list of a field the templates enumerate (`Status`,
`Mode`, `Collaboration`, `Target`, `Assessment Purpose`, `Verification
Cadence`, `User Style Locked`) in which exactly one choice is an allowed value
gets an unsafe fix selecting it: the protocol rules out the others, but the
owner should confirm the choice. The `Status` choices of a record whose gate
the cycle has passed get SL900's fix (`COMPLETE`, unsafe, under the same
conditions). A single allowed value written in a placeholder's brackets
(`<FULL>`) gets a safe fix dropping the brackets: the value is already
written. A `User Style` naming a style by a stem entirely enclosed in
`<...>` gets an unsafe fix saving the full file name when exactly that file
is one of the role's styles: *"`<formal>.md` persists as `<formal>.md`, never
`<formal>`"* (User Styles); unsafe because the value might be a placeholder
rather than a selection. Otherwise no fix: which value applies is the owner's
decision; a `User Style` in particular is never inferred (*"Never infer a
style from ... another role's selection, or the mere presence of a file"*),
and `team | compact.md` has no name a record can save.""",
    bad_example="""\
`Mode`: `AUTONOMOUS | STEPWISE | CODE_WITH_ME`""",
    good_example="""\
`Mode`: `AUTONOMOUS`""",
    fix="sometimes",
    help="Replace the template's choices or placeholder with the one value that applies.",
    no_fix_reason="Outside the Cycle and ReviewKind fields the value is the record owner's choice.",
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
                    fix=_template_fix(r, f),
                )


def _is_placeholder(choice: str) -> bool:
    return choice.startswith("<") or choice.endswith(">")


def _template_fix(r, f):
    """The fix of a template value in header field *f* of record *r*, when the
    protocol determines the one value (see SL902's Fix safety)."""
    value = f.value.strip()
    choices = [c.strip() for c in value.split("|")]
    prov = r.provenance
    block = {
        "Cycle": prov.cycle,
        "ReviewKind": prov.review_kind if r.artifact == "REVIEW" else None,
    }
    if block.get(f.name):
        want = block[f.name]
        return replace(f.path, f.value_span, want, safe=True,
                       description=f"Set {f.name} to {want}, as the provenance block says")
    if f.name == "Artifact" and prov.artifact and prov.artifact in choices:
        return replace(f.path, f.value_span, prov.artifact, safe=True,
                       description=f"Set Artifact to {prov.artifact}, as the provenance block says")
    if f.name == "User Style":
        want = persistable_selector(r.project, r.artifact, value)
        if want is None:
            return None
        return replace(f.path, f.value_span, want, safe=False,
                       description=f"Save User Style as `{want}`, the style file's full name")
    if f.name == "Status" and r.artifact in STATUS_ARTIFACTS and len(choices) > 1 and _status_field(r)[1] is f:
        return complete_fix(r.project, r.path)  # the cycle has passed the record's gate
    allowed = ALLOWED_VALUES.get((f.name, r.artifact))
    if allowed is not None and len(choices) == 1 and value.startswith("<") and value.endswith(">"):
        inner = value[1:-1].strip()
        if inner in allowed:  # an allowed value written in the placeholder's brackets
            return replace(f.path, f.value_span, inner, safe=True,
                           description=f"Set {f.name} to {inner}, without the placeholder's brackets")
    if allowed is None or len(choices) < 2 or any(not c or _is_placeholder(c) for c in choices):
        return None
    valid = {c for c in choices if c in allowed}
    if len(valid) != 1:
        return None
    (want,) = valid
    return replace(f.path, f.value_span, want, safe=False,
                   description=f"Set {f.name} to {want}, the only allowed value among the choices")


# -- entries and references ---------------------------------------------------------


@rule(
    code="SL903",
    name="record-entry-prefix",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="Documentation records number entries DOC-NNN; synchronization records D-NNN.",
    explanation="""\
**What it does.** Reports a `### D-NNN` entry heading in this cycle's
documentation record and a `### DOC-NNN` entry heading in its synchronization
record.

**Why.** The Entries column of **Workflow Artifact Provenance**: documentation
record `### DOC-NNN`, synchronization record `### D-NNN`. *"The development
plan, review reports, documentation record, and synchronization record number
their entries as headings with the prefixes in the table."*

**Fix safety.** Sometimes (safe): the entry is renumbered with the record
type's prefix, in its heading and in every mention of it in the record (a
bare `D-001`, or the record's own `#D-001` anchor); a `<path>#D-NNN` naming
another record is left alone. No fix when another record of the cycle cites
the entry by path, since renumbering would change what it cites, or when the
new ID is already used in the record.""",
    fix="sometimes",
    bad_example="""\
### D-001 — Old guide title   (in a documentation record)""",
    good_example="""\
### DOC-001 — Old guide title""",
    help="Number the entries with the prefix the record type uses (documentation DOC-NNN, synchronization D-NNN), updating every reference.",
    no_fix_reason="Another record of the cycle cites the entry by path, or the new ID is already used in the record.",
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
                    fix=_renumber_fix(project, r, f"{bad}-{m.group(2)}", f"{good}-{m.group(2)}"),
                )


_D_PATH_REF_RE = re.compile(r"(?<![A-Za-z0-9_./-])([A-Za-z0-9_.\-/]+\.md)#((?:DOC|D)-\d+)\b")  # see _F_PATH_REF_RE


def _renumber_fix(project, r, old: str, new: str):
    """Renumber the entry *old* of record *r* to *new*: its heading and every
    mention of it in the record (bare, or as the record's own `#old` anchor).
    Safe when no other record of the cycle refers to it by path and *new* is
    not already used in the record; otherwise no fix."""
    text = r.doc.text
    _body_text, start = _body(r.doc)
    taken = re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(new) + r"(?![A-Za-z0-9_])")
    if taken.search(text, start):
        return None  # the new ID is already in use: renumbering would merge two entries
    for other in _current_records(project):
        if other.path == r.path:
            continue
        for m in _D_PATH_REF_RE.finditer(other.doc.text):
            if m.group(2) == old and _resolve(project, other.path, m.group(1)) == r.path:
                return None  # another record cites the entry: renumbering changes its citation
    mention = re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(old) + r"(?![A-Za-z0-9_])")
    index = LineIndex(text)
    edits = []
    for m in mention.finditer(text, start):
        if text[m.start() - 1:m.start()] == "#":
            ref = _D_PATH_REF_RE.match(text, _ref_start(text, m.start() - 1))
            own_anchor = text[m.start() - 2:m.start() - 1] == "("
            if not own_anchor and (ref is None or ref.end() != m.end()
                                   or _resolve(project, r.path, ref.group(1)) != r.path):
                continue  # another record's entry, by path
        edits.append(Edit(r.path, m.start(), m.end(), new))
    if not edits:
        return None
    return Fix(tuple(edits), "safe", f"Renumber {old} to {new} (heading and mentions in this record)")


def _ref_start(text: str, hash_at: int) -> int:
    """Where the path text ending at the `#` at *hash_at* starts."""
    i = hash_at
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_.-/"):
        i -= 1
    return i


def _f_path_refs(doc, start: int):
    """(path text, F-id, start, end) of every `<path>.md#F-NNN` reference."""
    for m in _F_PATH_REF_RE.finditer(doc.text, start):
        yield m.group(1), m.group(2), m.start(), m.end()


def _bare_f(doc, start: int):
    """(F-id, start, end) of F-NNN mentions not preceded by a path."""
    text = doc.text
    target = _link_targets(text)
    for m in _F_MENTION_RE.finditer(text, start):
        if target(m.end()) == m.group(0):
            continue  # Markdown link text whose target names the same entry
        yield m.group(0), m.start(), m.end()


def _link_targets(text: str):
    """A function of an offset *p* (increasing from call to call): the
    `F-NNN` a link target `](...#F-NNN)` starting at *p* names, else None.

    The target runs from `](` to the first `)` or space and must end in
    `#F-NNN)`.  Mentions in one long word share that end: it is found, and
    the `#F-NNN` before it read, once for all of them (a regex from each
    mention rescanned the rest of the word: quadratic, issue 43)."""
    end = -1  # the first `)` or space at or after the last offset searched
    named: dict[int, Optional[tuple[int, str]]] = {}

    def target(p: int) -> Optional[str]:
        nonlocal end
        if not text.startswith("](", p):
            return None
        if p + 2 > end:
            m = _TARGET_END_RE.search(text, p + 2)
            end = m.start() if m is not None else len(text)
        if end not in named:
            hash_at = text.rfind("#F-", p + 2, end) if text.startswith(")", end) else -1
            ok = hash_at != -1 and _DIGITS_RE.fullmatch(text, hash_at + 3, end) is not None
            named[end] = (hash_at, text[hash_at + 1:end]) if ok else None
        found = named[end]
        return found[1] if found is not None and found[0] >= p + 2 else None

    return target


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
    owner="record",
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

**Fix safety.** Sometimes. When exactly one review report of the active cycle
at its fixed path (`implementation.md` or `final-deliverable.md`) has a
`### F-NNN` heading, the record the mention names is determined, and a safe
fix writes `<that report's path>#F-NNN` for every bare mention of that ID in
the record. When both reports have the finding, or neither does, no fix: the
message names the two possible forms, and the owner picks one. When every
mention is the text of a link whose target names a finding its report does
not have (`[F-001](<path>#F-002)`, SL906), the fix is SL906's instead
(unsafe): the target is pointed at the finding the link text names.""",
    bad_example="""\
See F-001.""",
    good_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-001.""",
    fix="sometimes",
    help="Write the finding reference as `<review report path>#F-NNN`.",
    no_fix_reason="No single review report of the cycle has that finding.",
)
def entry_reference_without_record(project):
    current = _current_records(project)
    reviews = [(rv, _entries(rv.doc, "F")) for rv in current if rv.artifact == "REVIEW"]
    for r in current:
        if r.artifact == "REVIEW":
            continue
        body, start = _body(r.doc)
        mentions: dict[str, list[tuple[int, int]]] = {}
        for fid, s, e in _bare_f(r.doc, start):
            mentions.setdefault(fid, []).append((s, e))
        for fid, spans in mentions.items():
            s, e = spans[0]
            message, fix = _bare_f_advice(r, fid, spans, [rv for rv, ids in reviews if fid in ids])
            yield report(_span(r.doc, s, e), message, fix=fix)


def _bare_f_advice(r, fid: str, spans, definers):
    """(message, fix) for the bare *fid* mentions at *spans* of record *r*,
    given the review reports of the cycle that define *fid*."""
    message, fix = _bare_f_message(r, fid, spans, definers)
    retarget = [_retarget_edit(r, s, e) for s, e in spans]
    if all(retarget):
        # Every mention is the text of a link whose target names a finding
        # its report lacks (SL906): pointing the target at the finding the
        # text names makes the mention a link to it.
        fix = Fix(tuple(retarget), "unsafe", f"Point the link at {fid}, the finding its text names")
    return message, fix


def _bare_f_message(r, fid: str, spans, definers):
    if len(definers) == 1 and definers[0].path == definers[0].fixed_path:
        target = f"{definers[0].path}#{fid}"
        index = LineIndex(r.doc.text)
        edits = [replace(r.path, index.span(s, e), target).edits[0] for s, e in spans]
        fix = Fix(tuple(edits), "safe", f"Name the record: {target}")
        return (f"mentions {fid} without naming its record; only {definers[0].path} has {fid}, "
                f"so write it as {target}."), fix
    forms = " or ".join(f"{record_path('REVIEW', r.cycle, kind)}#{fid}"
                        for kind in ("IMPLEMENTATION", "FINAL_DELIVERABLE"))
    if len(definers) > 1:
        why = f"more than one review report of this cycle has {fid}"
    else:
        why = f"no review report of this cycle at its fixed path has {fid}"
    return f"mentions {fid} without naming its record ({why}). Write it as <path>#{fid}: {forms}.", None


@rule(
    code="SL905",
    name="review-finding-mention-undefined",
    section="Workflow Artifact Provenance",
    owner="record",
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
    help="Refer only to `### F-NNN` findings of this report, or use `<path>#F-NNN` for another report's.",
    no_fix_reason="Whether the ID is a typo or names another report's finding is the Reviewer's call.",
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
    """(code, record, start, end, message, fix) for every `<path>#F-NNN` reference problem."""
    out = []
    for r in _current_records(project):
        body, start = _body(r.doc)
        for target, fid, s, e in _f_path_refs(r.doc, start):
            resolved = _resolve(project, r.path, target)
            doc = project.doc(resolved) if resolved is not None else None
            prov = provenance_of(doc) if doc is not None else None
            if prov is None:
                out.append(("SL907", r, s, e, f"refers to {target}#{fid}, but {target} is not a STANDARDS record.", None))
            elif fid not in _entries(doc, "F"):
                out.append(("SL906", r, s, e, f"refers to {target}#{fid}, but that file has no {fid}.",
                            _link_text_fix(r, s, e, fid, _entries(doc, "F"))))
    return out


_LINK_TEXT_BEFORE_RE = re.compile(r"\[(F-\d+)\]\($")


def _link_text_fix(r, s: int, e: int, fid: str, defined: set):
    """A `[F-001](<path>#F-002)` link whose target names a finding the report
    lacks while its text names one it has: the (unsafe) fix points the target
    at the finding the link text names."""
    text = r.doc.text
    m = _LINK_TEXT_BEFORE_RE.search(text, max(0, s - 16), s)
    if m is None or m.end() != s or text[e:e + 1] != ")" or m.group(1) not in defined:
        return None
    want = m.group(1)
    return replace(r.path, LineIndex(text).span(e - len(fid), e), want, safe=False,
                   description=f"Point the link at {want}, the finding its text names")


def _retarget_edit(r, s: int, e: int):
    """The edit of :func:`_link_text_fix` for the link whose text is the
    F-NNN mention at [s, e) of record *r*, or None."""
    text = r.doc.text
    if text[s - 1:s] != "[" or text[e:e + 2] != "](":
        return None
    m = _F_PATH_REF_RE.match(text, e + 2)
    if m is None:
        return None
    resolved = _resolve(r.project, r.path, m.group(1))
    doc = r.project.doc(resolved) if resolved is not None else None
    if doc is None or provenance_of(doc) is None or m.group(2) in _entries(doc, "F"):
        return None
    fix = _link_text_fix(r, m.start(), m.end(), m.group(2), _entries(doc, "F"))
    return fix.edits[0] if fix is not None else None


@rule(
    code="SL906",
    name="entry-reference-target-missing",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="A `<path>#F-NNN` reference must name a finding the referenced report has.",
    explanation="""\
**What it does.** In this cycle's records, reports a `<path>#F-NNN` reference
whose report exists as a STANDARDS record but has no `### F-NNN` heading.

**Why.** *"When a record refers to an entry in another record, it names that
record's path with the identifier"* (Workflow Artifact Provenance); the entry
must be there for the reference to resolve.

**Fix safety.** Sometimes (unsafe): when the reference is the target of a
Markdown link whose text is a finding ID the report does have
(`[F-001](<path>#F-002)`), the target is pointed at that finding, the value
already written in the link; the owner should confirm which of the two was
meant. Otherwise no fix.""",
    fix="sometimes",
    bad_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-007.   (no F-007 there)""",
    good_example="""\
See .standards/docs/reviews/<Id>/implementation.md#F-001.""",
    help="Refer to a finding the referenced report has, or add the finding there.",
    no_fix_reason="Unless a link's text names a finding the report has, whether the reference or the report is wrong needs a person.",
)
def entry_reference_target_missing(project):
    for code, r, s, e, msg, fix in _path_ref_problems(project):
        if code == "SL906":
            yield report(_span(r.doc, s, e), msg, fix=fix)


@rule(
    code="SL907",
    name="entry-reference-not-record",
    section="Workflow Artifact Provenance",
    owner="record",
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
    help="Point the `<path>#F-NNN` reference at a STANDARDS review record.",
    no_fix_reason="Which report was meant needs a person.",
)
def entry_reference_not_record(project):
    for code, r, s, e, msg, _fix in _path_ref_problems(project):
        if code == "SL907":
            yield report(_span(r.doc, s, e), msg)


@rule(
    code="SL908",
    name="dev-step-mention-undefined",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="A DEV-NNN mention in a review or verification report must be a step of this cycle's development plan.",
    explanation="""\
**What it does.** In this cycle's review reports and verification report,
reports a `DEV-NNN` mention that is not a `### DEV-NNN` step of this cycle's
development plan (the record at `Active Work.Development`, or at the plan's
fixed path), read as the plan's own rules read its steps: a `#### DEV-NNN`
heading is no step.

**Why.** *"Acceptance identifiers (`AC-NNN`) and development steps (`DEV-NNN`)
of the active cycle are referred to without a path."* (Workflow Artifact
Provenance), so a bare DEV ID names a step of the active plan.

**Fix safety.** No fix.""",
    bad_example="""\
F-004 is fixed by DEV-009.   (the plan has DEV-001 and DEV-002)""",
    good_example="""\
F-004 is fixed by DEV-002.""",
    help="Name only steps of this cycle's development plan.",
    no_fix_reason="Whether the step is missing or the ID is a typo needs a person.",
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
    steps = step_ids(plan)
    for r in _current_records(project):
        if r.artifact not in _DEV_MENTION_ARTIFACTS:
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
