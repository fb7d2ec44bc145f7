"""Workflow Artifact Provenance: the ``<!-- STANDARDS`` block a record begins
with (SL600), and the record's visible ``Cycle``/``ReviewKind`` header fields
(SL601, SL602).

The block and its defects are parsed by :mod:`standards_lint.syntax.provenance`.
Every Markdown file of the project is inspected except the installed runtime
under ``.standards/`` (cycle records under ``.standards/docs/`` are
inspected): a valid block makes a file a cycle record "even if it is later
renamed or moved".  :func:`~standards_lint.model.record_provenance.blocks` and
:func:`~standards_lint.model.record_provenance.placement`, which these rules
read, are shared with :mod:`standards_lint.rules.record_paths`.
"""

from __future__ import annotations

from standards_lint.syntax.protocol import record_path
from standards_lint.engine.rule import module_rules, replace, report, rule
from standards_lint.model.record_provenance import COLLISION, blocks, placement

# Records whose header shows `Cycle` (and `ReviewKind` in a review report).
HEADER_CYCLE_TYPES = ("DEVELOPMENT", "VERIFICATION", "REVIEW", "DOCUMENTATION", "SYNCHRONIZATION")


def header_field(doc, name):
    """The first `name` field of the record header (before the first ``##``)."""
    if doc is None or doc.header is None:
        return None
    return doc.header.field(name)


# -- rules ---------------------------------------------------------------------


@rule(
    code="SL600",
    name="malformed-provenance-block",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="A file begins with a `<!-- STANDARDS` block that is not well formed.",
    explanation="""
**What it does.** Reads the `<!-- STANDARDS` block at the top of every
Markdown file of the project (outside the installed runtime; cycle records under
`.standards/docs/` included) and reports each defect: a line other than
`Artifact: <TYPE>`, `Cycle: <cycle ID>` or `ReviewKind: <KIND>` (an invalid
cycle ID, a stray note, a merge-conflict marker), an unknown artifact type, a
key given twice, a `ReviewKind` on a non-REVIEW block, a REVIEW block without a
valid `ReviewKind`, or a block never closed with `-->` before a blank line.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: "A file that starts with a
malformed STANDARDS block (for example an unknown artifact type, an invalid
cycle ID, a missing or extra `ReviewKind`, or an unclosed block) is a collision
for every artifact type. Do not edit, adopt, or repair it." and "Report a
collision and block dependent work until the user resolves it".

**Fix safety.** No fix: the protocol forbids repairing the block; the user
decides what the file is.
""",
    bad_example="<!-- STANDARDS\nArtifact: SCOPE\nCycle: add-search-20261130T024551Z-bcf1ae8e\nReviewKind: IMPLEMENTATION\n-->",
    good_example="<!-- STANDARDS\nArtifact: SCOPE\nCycle: add-search-20261130T024551Z-bcf1ae8e\n-->",
    help="Leave the file unchanged and ask the user how to resolve the collision.",
    no_fix_reason="The protocol says to treat a malformed block as a collision: leave it unchanged and ask the user.",
)
def malformed_provenance_block(project):
    for rel, block in blocks(project).items():
        for detail, span in block.errors:
            yield report((rel, span), f"has a malformed provenance block ({detail}). {COLLISION}")


def _current_records(project):
    """The first record of each type of the active cycle (a second copy is
    SL634's business), for the types whose header shows `Cycle`."""
    first, _ = placement(project)
    return [b for b in first.values() if b.artifact in HEADER_CYCLE_TYPES]


def _visible_mismatch(project, key: str, artifacts):
    for block in _current_records(project):
        if block.artifact not in artifacts:
            continue
        doc = project.doc(block.path)
        if doc is None:
            continue
        field = header_field(doc, key)
        shown = field.value if field is not None else ""
        said = block.get(key).value
        if shown == said:
            continue
        where = (block.path, field.value_span) if field is not None else (block.path, block.get(key).span)
        what = f"shows {key} `{shown}`" if field is not None else f"has no visible `{key}` field in its header"
        fix = None
        # The block names the active cycle and sits at its fixed path, so
        # the block is right and the visible copy is not.
        # (A template placeholder left in the field is SL902's, which fixes it.)
        template = "|" in shown or shown.strip().startswith("<")
        if (field is not None and not field.bare and not template
                and block.path == record_path(block.artifact, block.cycle, block.review_kind)):
            fix = replace(block.path, field.span, f"`{key}`: `{said}`",
                          description=f"Show the block's {key} `{said}` in the header")
        yield report(
            where,
            f"{what} but its provenance block says `{said}`. The visible `{key}` field must match the block.",
            fix,
        )


@rule(
    code="SL601",
    name="record-cycle-mismatch",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="A current-cycle record's visible `Cycle` field differs from its provenance block.",
    explanation="""
**What it does.** For every record of the active cycle with a fixed path
(development plan, verification report, review reports, documentation and
synchronization records), compares the header's `Cycle` field with the
block's `Cycle`; a missing header field counts as empty.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: "Every other record is
always cycle-owned at its fixed path. Its provenance block must match
`Active Work.Id` and the path, and its visible `Cycle` field, plus the visible
`ReviewKind` field in a review report, must match the block."

**Fix safety.** Sometimes (safe): a record at its fixed path whose block names the active cycle has the right block, so the visible field is set to the block's value. Elsewhere, or with no visible field, no fix.
""",
    bad_example="<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: add-search-20261130T024551Z-bcf1ae8e\n-->\n\n# Verification Report\n\n`Cycle`: `old-cycle-20260101T000000Z-00000000`",
    good_example="<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: add-search-20261130T024551Z-bcf1ae8e\n-->\n\n# Verification Report\n\n`Cycle`: `add-search-20261130T024551Z-bcf1ae8e`",
    fix="sometimes",
    help="Make the visible `Cycle` field show the provenance block's cycle.",
    no_fix_reason="Only a record at its fixed path has a block known to be right; elsewhere which copy is wrong needs a person.",
)
def record_cycle_mismatch(project):
    yield from _visible_mismatch(project, "Cycle", HEADER_CYCLE_TYPES)


@rule(
    code="SL602",
    name="review-kind-mismatch",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="A current-cycle review report's visible `ReviewKind` differs from its provenance block.",
    explanation="""
**What it does.** For every review report of the active cycle, compares the
header's `ReviewKind` field with the block's `ReviewKind`; a missing header
field counts as empty.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: "its visible `Cycle`
field, plus the visible `ReviewKind` field in a review report, must match the
block." A review report uses "exactly one concrete kind matching its path and
the current review state".

**Fix safety.** Sometimes (safe): a report at its fixed path whose block names the active cycle has the right kind, so the visible field is set to the block's value. Elsewhere, or with no visible field, no fix.
""",
    bad_example="<!-- STANDARDS\nArtifact: REVIEW\nCycle: add-search-20261130T024551Z-bcf1ae8e\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`ReviewKind`: `FINAL_DELIVERABLE`",
    good_example="<!-- STANDARDS\nArtifact: REVIEW\nCycle: add-search-20261130T024551Z-bcf1ae8e\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`ReviewKind`: `IMPLEMENTATION`",
    fix="sometimes",
    help="Make the visible `ReviewKind` show the provenance block's kind.",
    no_fix_reason="Only a report at its fixed path has a kind known to be right; elsewhere a person must confirm it.",
)
def review_kind_mismatch(project):
    yield from _visible_mismatch(project, "ReviewKind", ("REVIEW",))


standards_lint_rules = module_rules(globals())
