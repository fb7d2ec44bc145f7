"""Acceptance Traceability: `AC-NNN` identifiers in the active cycle's scope,
design and records.

PROTOCOL.md, Acceptance Traceability; Documentation Cycle Contract; Runtime
Tools and Hooks (which completed records `check` holds to full coverage);
protocol/expedited.md, Expedited Cycle Contract.

The rules share one analysis of the active cycle (:func:`analysis`):

* the scope is the file named by ``Active Work.Scope``; its conditions are
  list items that start with their ID.  Items under
  ``## Retired Acceptance Identifiers`` are retired; everything from
  ``## Previous Cycles`` to the end of the document is history.  A section
  heading counts at the start of its line only, as the framework reads it:
  under an indented `` ## Retired Acceptance Identifiers`` the conditions
  stay current, and the findings that causes carry the fix that writes the
  heading at the line start.
* the design is the file named by ``Active Work.Architecture``;
* the records are the valid records whose provenance names the active cycle.

A scope or design file is used only when it is a plain project document (no
provenance block) or a valid record of the active cycle with the right
artifact type; otherwise other rules report the mismatch and these stay
silent.
"""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.engine.findings import Edit, Fix
from standards_lint.engine.rule import module_rules, report, rule
from standards_lint.model.acceptance import Scan, analysis, other_files, record_scan, traced
from standards_lint.fixes.acceptance import (
    definition_fix,
    find_acceptance_id_current_and_retired,
    find_acceptance_id_defined_twice,
    find_acceptance_id_deleted,
    find_acceptance_numbering_not_continued,
    find_complete_record_acceptance_coverage,
    find_design_acceptance_coverage,
    find_documentation_cycle_without_conditions,
    find_partial_assessment_acceptance_coverage,
    find_previous_cycles_not_last,
    find_retired_acceptance_id_reused,
    respell_fix,
)


# -- scanning -----------------------------------------------------------------


# -- the scope ------------------------------------------------------------------


# -- the active cycle -------------------------------------------------------------


def _how_to_define(ac_id: str) -> str:
    """What defines a condition, with *ac_id* as the example."""
    return (f'Each condition must be a list item that starts with its ID, for example "- `{ac_id}`: <condition>"; '
            "a table row, heading, or prose mention does not define it.")


def _undefined(mentions, defined: set[str]):
    """The first of *mentions* of each ID that *defined* lacks."""
    done = set()
    for m in mentions:
        if m.id in defined or m.id in done:
            continue
        done.add(m.id)
        yield m


# -- rules: the scope ---------------------------------------------------------------
@rule(
    code="SL701",
    name="acceptance-condition-not-defined",
    section="Acceptance Traceability",
    owner="record",
    summary="The scope mentions an AC-NNN identifier that no list item defines as a condition.",
    explanation="""
**What it does.** Looks at every `AC-NNN` the active cycle's scope mentions
outside `## Previous Cycles` (and outside fenced code and HTML comments) and
reports each one that no list item defines, either as a current condition or
under `## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 1: "Define each
condition as a Markdown list item, bulleted or numbered, that starts with its
identifier followed by a colon or dash [...] A table row, heading, or prose
mention does not define a condition, and `check` reports an identifier the
scope mentions without defining. This applies to a reused project scope
document too."

**Fix safety.** Sometimes (unsafe): when exactly one line of the scope leads with the
identifier (a table row `| AC-001 | text |`, a heading, a plain line, or a
list item without its colon) and states a condition after it, that line is
rewritten into the form the protocol fixes, ``- `AC-001`: text``, keeping its
text. No fix in a scope holding merge-conflict markers, for a mention inside
a sentence, for several such lines, or when
defining the condition would raise a coverage finding the tree does not have
yet (a design or completed record that would then have to account for it):
only Scoper can say whether the mention is a condition, a typo, or stale
text.
""",
    bad_example="| `AC-001` | Users can search by name. |",
    good_example="- `AC-001`: Users can search by name.",
    fix="sometimes",
    help="Define the condition as a list item starting with its ID (`- `AC-001`: ...`), or remove the stray mention.",
    no_fix_reason="A mention inside a sentence, several leading lines, or a definition that would raise new coverage findings: only Scoper can say whether it is a condition to define, a typo, or stale text.",
)
def acceptance_condition_not_defined(project):
    ctx = analysis(project)
    if not traced(ctx):
        return
    sc = ctx.scope
    for m in _undefined(sc.present, sc.defined):
        yield report(
            (sc.path, m.span),
            f"{m.id} appears in the scope but is not defined as a condition. {_how_to_define(m.id)}",
            definition_fix(ctx, m.id),
        )


@rule(
    code="SL702",
    name="acceptance-id-defined-twice",
    section="Acceptance Traceability",
    owner="record",
    summary="An AC-NNN identifier is defined by more than one list item of the scope.",
    explanation="""
**What it does.** Reports an identifier that starts more than one current
condition, or more than one retired entry, in the active cycle's scope.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 1: Scoper represents
obligations "as one or more acceptance conditions with stable, unique
`AC-NNN` identifiers for the active cycle." Two conditions with one ID make
every downstream reference ambiguous.

**Fix safety.** Sometimes (safe): later list items that are exact copies of the first
definition (with their continuation lines) are removed, nothing is lost.
Differing texts, or a scope holding merge-conflict markers, have no fix: give one of the conditions a new ID with
`node .standards/bin/id.mjs next AC <scope>`, or merge them.
""",
    bad_example="- `AC-001`: Users can search by name.\n- `AC-001`: Results are sorted.",
    good_example="- `AC-001`: Users can search by name.\n- `AC-002`: Results are sorted.",
    fix="sometimes",
    help="Give one of the conditions a new ID with `node .standards/bin/id.mjs next AC <scope>`, or merge them.",
    no_fix_reason="Copies with different texts: which wording is meant is Scoper's call (give one a new ID, or merge them).",
)
def acceptance_id_defined_twice(project):
    yield from find_acceptance_id_defined_twice(analysis(project))


@rule(
    code="SL703",
    name="acceptance-id-current-and-retired",
    section="Acceptance Traceability",
    owner="record",
    summary="An AC-NNN identifier is both a current condition and a retired one.",
    explanation="""
**What it does.** Reports an identifier that the scope defines as a current
condition and also lists under `## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "Removed or replaced
identifiers remain in the scope's retired-identifier record [...] Never
renumber surviving identifiers or reuse retired ones within the cycle."

**Fix safety.** No fix: a new or replaced condition needs a new ID, and only
Scoper knows which entry is stale.
""",
    bad_example="- `AC-003`: Search is fast.\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Split.",
    good_example="- `AC-004`: Search is fast.\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Split.",
    help="Give the new or replaced condition a new ID, and keep the retired entry under Previous Cycles.",
    no_fix_reason="A new or replaced condition needs a new ID, and only Scoper knows which entry is stale.",
)
def acceptance_id_current_and_retired(project):
    yield from find_acceptance_id_current_and_retired(analysis(project))


@rule(
    code="SL704",
    name="previous-cycles-not-last",
    section="Acceptance Traceability",
    owner="record",
    summary="`## Previous Cycles` in the scope is not the last section, or holds all the conditions.",
    explanation="""
**What it does.** In a scope reused across cycles, reports conditions under
`## Previous Cycles` numbered after every current condition (a sign that this
cycle's conditions were written below that heading), and a scope whose only
conditions are under `## Previous Cycles`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 3: "numbering continues
from the highest identifier ever used in that document. Move the earlier
cycle's conditions [...] under a `## Previous Cycles` heading that stays the
document's last section [...] Everything under that heading is history, not
current obligations."

**Fix safety.** No fix: moving sections changes which conditions are current.
""",
    bad_example="## Work\n\n- `AC-004`: Now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.\n\n## More work\n\n- `AC-005`: Also now.",
    good_example="## Work\n\n- `AC-004`: Now.\n- `AC-005`: Also now.\n\n## Previous Cycles\n\n- `AC-001`: Earlier.",
    help="Keep `## Previous Cycles` last, holding only retired conditions.",
    no_fix_reason="Moving sections changes which conditions are current.",
)
def previous_cycles_not_last(project):
    yield from find_previous_cycles_not_last(analysis(project))


@rule(
    code="SL705",
    since="0.11.0",
    name="documentation-cycle-without-conditions",
    section="Documentation Cycle Contract",
    owner="record",
    summary="A DOCUMENTATION cycle past SCOPING has a scope with no current acceptance condition.",
    explanation="""
**What it does.** In a `DOCUMENTATION` cycle that has passed `SCOPING` (or
resumed from it), reports a scope that defines no current `AC-NNN` condition.

**Why.** PROTOCOL.md, Documentation Cycle Contract: "Scoper defines
audiences, documentation targets, editing boundaries, and acceptance
conditions", and before sign-off "Every current `AC-NNN` and relevant
technical criterion must have sufficient current evidence." A documentation
scope without conditions leaves nothing for the later roles to trace.

**Fix safety.** No fix: Scoper writes the conditions.
""",
    bad_example="# Greeting guide\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Retired old title.",
    good_example="# Greeting guide\n\n- `AC-001`: Explain the command and its output.",
    help="Write the cycle's current acceptance conditions in the scope.",
    no_fix_reason="Scoper writes the conditions.",
)
def documentation_cycle_without_conditions(project):
    yield from find_documentation_cycle_without_conditions(analysis(project))


@rule(
    code="SL750",
    name="acceptance-numbering-not-continued",
    section="Acceptance Traceability",
    owner="record",
    summary="In a reused scope, a condition of this cycle is numbered at or below an identifier under Previous Cycles.",
    explanation="""
**What it does.** In a scope that keeps earlier cycles under `## Previous
Cycles`, reports each current or retired condition of this cycle whose number
is not above every identifier used under `## Previous Cycles`. (When a
condition under `## Previous Cycles` is numbered above all of this cycle's
conditions, SL704 reports the misplaced heading instead, and this rule stays
silent.)

**Why.** PROTOCOL.md, Acceptance Traceability, rule 3: "When a cycle reuses
a canonical scope document that already holds another cycle's acceptance
conditions, numbering continues from the highest identifier ever used in that
document. [...] Everything under that heading is history, not current
obligations, and its identifiers are never used again in that document."
`node .standards/bin/id.mjs next AC <scope>` always hands out a number above
the highest one used.

**Fix safety.** No fix: renumbering a condition changes the references every
downstream record makes to it; Scoper must do it deliberately.
""",
    beyond_checker=True,
    bad_example="- `AC-002`: Export results.\n\n## Previous Cycles\n\n- `AC-001`: Search by name.\n- `AC-002`: Sort results.",
    good_example="- `AC-003`: Export results.\n\n## Previous Cycles\n\n- `AC-001`: Search by name.\n- `AC-002`: Sort results.",
    help="Renumber this cycle's condition above every identifier under Previous Cycles, and update every reference to it.",
    no_fix_reason="Renumbering a condition changes the references every downstream record makes to it; Scoper must do it deliberately.",
)
def acceptance_numbering_not_continued(project):
    yield from find_acceptance_numbering_not_continued(analysis(project))


# -- rules: downstream references -----------------------------------------------------
@rule(
    code="SL710",
    name="undefined-acceptance-reference",
    section="Acceptance Traceability",
    owner="record",
    summary="A design or cycle record mentions an AC-NNN identifier the scope does not define.",
    explanation="""
**What it does.** Checks every `AC-NNN` in the active cycle's design and
records (the development plan, verification, review, documentation and
synchronization records) against the scope: current, retired and previous
cycles' conditions are known; anything else is reported. A mention the scope
makes without defining it is reported as such. In the design, the history
under `## Previous Cycles` is skipped.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 6: "All downstream
coverage, work, and evidence references the same current IDs; downstream
roles do not invent substitute requirement IDs", and rule 4: "Downstream
roles reference IDs but do not redefine intent."

**Fix safety.** Sometimes (unsafe). A mention of an ID the scope mentions without
defining carries SL701's fix (the scope line rewritten into a definition),
when that fix exists. In a design or record held to account for every current
condition that mentions exactly one unknown ID, named by no other record, and
misses exactly one current condition, the unknown ID is respelt as the missing one (a miscopied
reference). Otherwise no fix: the reference may be a typo, a stale ID or a
condition the scope still lacks.
""",
    bad_example="| AC-009 | test/search.test.js | passed |   (the scope defines AC-001 and AC-002)",
    good_example="| AC-001 | test/search.test.js | passed |",
    fix="sometimes",
    help="Reference only conditions the scope defines: correct the ID, or have the scope define the condition.",
    no_fix_reason="Anything but one unknown ID and one missing condition in the same file: the reference may be a typo, a stale ID or a condition the scope still lacks.",
)
def undefined_acceptance_reference(project):
    ctx = analysis(project)
    if not traced(ctx):
        return
    sc = ctx.scope
    defined = sc.defined
    appears = sc.appears
    for scan, is_design in other_files(ctx):
        for m in _undefined((x for x in scan.mentions if not (is_design and x.previous)), defined):
            if m.id in appears:
                msg = (
                    f"mentions {m.id}, which appears in the scope {sc.path} but is not defined there as a "
                    f"condition. {_how_to_define(m.id)}"
                )
                fix = definition_fix(ctx, m.id)
            else:
                msg = f"mentions {m.id}, which is not defined in the scope {sc.path}."
                fix = respell_fix(ctx, scan.path)
            yield report((scan.path, m.span), msg, fix)


@rule(
    code="SL720",
    name="design-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="The completed design does not account for every current acceptance condition.",
    explanation="""
**What it does.** Once the cycle has passed `ARCHITECTING` (or resumed from
it), reports each current `AC-NNN` of the scope that the design named by
`Active Work.Architecture` never mentions (history under `## Previous
Cycles` does not count). During recovery the design is held only when
Architect handed off, and at Reviewer entry.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 5: "Architect accounts
for every current ID with technical design coverage or an explicit
no-architectural-impact disposition"; Documentation Cycle Contract:
"Architect accounts for each acceptance condition with relevant technical
coverage or an explicit no-architectural-impact disposition".

**Fix safety.** Sometimes. When the condition is current only because the
`## Retired Acceptance Identifiers` (or `## Previous Cycles`) heading above
it is indented, which the framework does not read as that heading, the
heading is written at the start of its line (safe: the heading its author
meant; one fix for every finding it causes). Otherwise (unsafe): when the design mentions exactly one ID the scope
never mentions and misses exactly this one condition (and no other
record names the unknown ID), the unknown ID is respelt as it (SL710 carries
the same fix). Otherwise no fix: the coverage is Architect's design decision.
""",
    bad_example="## Acceptance Coverage\n\n- `AC-001`: Name index.   (the scope also defines AC-002)",
    good_example="## Acceptance Coverage\n\n- `AC-001`: Name index.\n- `AC-002`: No architectural impact; Documenter owns it.",
    fix="sometimes",
    help='Account for the condition in the design, or state "No architectural impact" for it.',
    no_fix_reason="The coverage is Architect's design decision; only a single miscopied ID is respelt.",
)
def design_acceptance_coverage(project):
    yield from find_design_acceptance_coverage(analysis(project))


@rule(
    code="SL721",
    name="complete-record-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="A COMPLETE verification, review, documentation or synchronization record omits a current AC.",
    explanation="""
**What it does.** For each `COMPLETE` verification report, review report,
documentation record and synchronization record of the active cycle that
`check` holds to full coverage, reports every current `AC-NNN` of the scope
that the record does not mention. A verification report accounts for IDs in
its `## Acceptance Evidence` section; text under `## Previous Cycles` never
counts. Which records are held follows PROTOCOL.md, Runtime Tools and Hooks:
the current state's own records, the records of states the cycle has passed
(outside recovery), the records of the state named in `Handoff.From` after a
`RESUME` (or `FORWARD`), none while in `SCOPING` during recovery, and full
checks at Reviewer entry and sign-off. The turn-end check (`--turn-end`)
leaves the current state's own records to its role and, during recovery,
holds those of the state named in `Handoff.From` after a `FORWARD`,
`CHECKPOINT`, `RESUME` or `FAILURE` handoff (`standards_lint.model.holding`).

**Why.** PROTOCOL.md, Acceptance Traceability, rule 7: "Tester accounts for
every current ID with verification evidence, a blocker, or [...] a pending
dependency", rule 9: acceptance changes "invalidate any completed downstream
artifact whose completion contract requires accounting for every current
ID"; the review, documentation and synchronization templates each say to
account for every current AC.

**Fix safety.** Sometimes. When the condition is current only because the
`## Retired Acceptance Identifiers` (or `## Previous Cycles`) heading above
it is indented, which the framework does not read as that heading, the
heading is written at the start of its line (safe: the heading its author
meant; one fix for every finding it causes). Otherwise (unsafe): when the record mentions exactly one ID the scope
never mentions (a verification report, in its Acceptance Evidence) and misses
exactly this one condition (and no other record names the unknown ID), the
unknown ID is respelt as it. Otherwise no fix: the owning role must assess the
missing condition.
""",
    bad_example="`Status`: `COMPLETE`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |   (the scope also defines AC-002)",
    good_example="`Status`: `COMPLETE`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |\n| AC-002 | pending Documenter | pending |",
    fix="sometimes",
    help="Assess the missing acceptance condition in the record before it is COMPLETE.",
    no_fix_reason="The owning role must assess the missing condition; only a single miscopied ID is respelt.",
)
def complete_record_acceptance_coverage(project):
    yield from find_complete_record_acceptance_coverage(analysis(project))


@rule(
    code="SL722",
    name="partial-assessment-acceptance-coverage",
    section="Acceptance Traceability",
    owner="record",
    summary="An increment assessment in TESTING does not account for every current AC.",
    explanation="""
**What it does.** While the cycle is in `TESTING`, reports each current
`AC-NNN` missing from the `## Acceptance Evidence` section of a verification
report whose `Assessment Purpose` is `INCREMENT` and that is not yet
`COMPLETE`. The turn-end check (`--turn-end`) leaves Tester's own report to
Tester and instead holds the report a turn handed back from `TESTING` (after
a `CHECKPOINT`, `RESUME`, `FAILURE` or valid `FORWARD`) when the assignment
it persists is a partial one (`Assessment Purpose` `INCREMENT` or
`CORRECTION`): "Apply the gate for the persisted assignment: a checkpoint or
scoped corrective return does not assert full phase completion", but the
partial record still accounts for every ID. A `FULL` assignment's gate is
full completion, and a report with no readable purpose has no partial gate.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 7: "Tester accounts for
every current ID [...] During partial development, `AWAITING_IMPLEMENTATION`
identifies approved future steps or increments [...] Pending and awaiting
implementation are not verification evidence and must be resolved under the
same ID." An increment assessment still lists every current ID, with the
not-yet-implemented ones as `AWAITING_IMPLEMENTATION`.

**Fix safety.** Sometimes (unsafe): when the report's Acceptance Evidence mentions
exactly one ID the scope never mentions and misses exactly this one
condition (and no other record names the unknown ID), the unknown ID is
respelt as it. Otherwise no fix: Tester records the disposition.
""",
    bad_example="`Assessment Purpose`: `INCREMENT`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |",
    good_example="`Assessment Purpose`: `INCREMENT`\n\n## Acceptance Evidence\n\n| AC-001 | test/search.test.js | passed |\n| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
    fix="sometimes",
    help="Record the increment assessment's disposition for every current acceptance condition.",
    no_fix_reason="Tester records the disposition; only a single miscopied ID is respelt.",
)
def partial_assessment_acceptance_coverage(project):
    yield from find_partial_assessment_acceptance_coverage(analysis(project))


# -- rules: expedited cycles ---------------------------------------------------------------
@rule(
    code="SL730",
    name="expedited-acceptance-ids",
    section="Expedited Cycle Contract",
    owner="record",
    summary="A record of an EXPEDITED cycle uses AC-NNN identifiers.",
    explanation="""
**What it does.** In an `EXPEDITED` cycle, reports every record of the cycle
that mentions `AC-NNN` identifiers.

**Why.** PROTOCOL.md, Acceptance Traceability: "`EXPEDITED` cycles do not
fabricate Scoper-owned acceptance conditions or substitute identifiers."
protocol/expedited.md, Expedited Cycle Contract: "Scope-level acceptance
traceability does not apply."

**Fix safety.** Sometimes (unsafe): in a development plan whose every AC mention is a
build step's `Acceptance` value listing only AC IDs, those values become
`EXPEDITED_REQUEST` (Developer template: "In `EXPEDITED`, use
`EXPEDITED_REQUEST` rather than fabricating acceptance IDs"). Otherwise no
fix: describe the work against `Active Work.Request` instead, or promote the
cycle.
""",
    bad_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`\n`Acceptance`: `AC-001`",
    good_example="### DEV-001 — Search endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`",
    fix="sometimes",
    help="Describe the work against `Active Work.Request` instead of AC IDs, or promote the cycle.",
    no_fix_reason="Mentions outside the plan steps' `Acceptance` values: describe the work against `Active Work.Request` instead, or promote the cycle.",
)
def expedited_acceptance_ids(project):
    ctx = analysis(project)
    if ctx is None or ctx.mode != "EXPEDITED":
        return
    for r in project.records_of(ctx.cycle):
        scan = record_scan(ctx, r)
        ids = scan.ids(scan.mentions)
        if ids:
            ids = sorted(ids, key=lambda i: (int(i[3:]), i))
            yield report(
                (r.path, scan.mentions[0].span),
                f"uses acceptance IDs ({', '.join(ids)}), but EXPEDITED cycles have none.",
                _expedited_request_fix(r, scan),
            )


_STEP_TITLE_RE = re.compile(r"^DEV-\d+(?!\d)")
_AC_LIST_RE = re.compile(r"^[ \t]*AC-\d+(?:[ \t]*,[ \t]*AC-\d+)*[ \t]*$")


def _expedited_request_fix(record, scan: Scan) -> Optional[Fix]:
    """In a development plan whose every AC mention is a build step's
    `Acceptance` value listing only AC IDs, set those values to
    `EXPEDITED_REQUEST` (Developer template: "In `EXPEDITED`, use
    `EXPEDITED_REQUEST` rather than fabricating acceptance IDs")."""
    if record.artifact != "DEVELOPMENT" or record.doc.conflicts:
        return None
    values = []
    doc = record.doc
    for sec in ([doc.header] if doc.header is not None else []) + list(doc.sections):
        for sub in sec.subsections:
            if not _STEP_TITLE_RE.match(sub.title):
                continue
            for f in sub.all_fields("Acceptance"):
                if _AC_LIST_RE.match(f.value):
                    values.append(f.value_span)
    if not values:
        return None
    if any(not any(v.start <= m.span.start and m.span.end <= v.end for v in values) for m in scan.mentions):
        return None
    edits = tuple(Edit(record.path, v.start, v.end, "EXPEDITED_REQUEST") for v in values)
    return Fix(edits, "unsafe", "Set the steps' `Acceptance` to `EXPEDITED_REQUEST` (an EXPEDITED cycle has no AC IDs)")


# -- rules: comparisons with the last commit ---------------------------------------------------


@rule(
    code="SL740",
    name="acceptance-id-deleted",
    section="Acceptance Traceability",
    owner="record",
    summary="An acceptance identifier defined in the last commit's scope has vanished from the scope.",
    explanation="""
**What it does.** Inside a git repository, compares the scope with its
version in the last commit and reports each identifier the commit defined
(current, retired or under `## Previous Cycles`) that the working scope no
longer defines anywhere.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "Removed or replaced
identifiers remain in the scope's retired-identifier record: list items in
the same form under a `## Retired Acceptance Identifiers` heading."

**Fix safety.** No fix: the retirement reason is Scoper's to write.
""",
    bad_example="(committed) - `AC-001`: Users can search.   (now) the line is deleted",
    good_example="## Retired Acceptance Identifiers\n\n- `AC-001`: Removed; search is out of scope.",
    help="Restore the condition, or retire it under `## Previous Cycles` with its reason.",
    no_fix_reason="The retirement reason is Scoper's to write.",
)
def acceptance_id_deleted(project):
    yield from find_acceptance_id_deleted(analysis(project))


@rule(
    code="SL741",
    name="retired-acceptance-id-reused",
    section="Acceptance Traceability",
    owner="record",
    summary="An identifier retired in the last commit is a current condition again.",
    explanation="""
**What it does.** Inside a git repository, reports each current condition of
the scope whose identifier the last commit's scope listed under
`## Retired Acceptance Identifiers`.

**Why.** PROTOCOL.md, Acceptance Traceability, rule 2: "New or materially
replaced conditions receive previously unused identifiers. [...] Never
renumber surviving identifiers or reuse retired ones within the cycle."

**Fix safety.** No fix: the condition needs a new ID from
`node .standards/bin/id.mjs next AC <scope>`.
""",
    bad_example="(committed) ## Retired Acceptance Identifiers\n- `AC-003`: Split.\n(now) - `AC-003`: Back again.",
    good_example="(now) - `AC-005`: Back again.",
    help="Give the condition a new ID from `node .standards/bin/id.mjs next AC <scope>`.",
    no_fix_reason="The condition needs a new ID from `node .standards/bin/id.mjs next AC <scope>`.",
)
def retired_acceptance_id_reused(project):
    yield from find_retired_acceptance_id_reused(analysis(project))


standards_lint_rules = module_rules(globals())
