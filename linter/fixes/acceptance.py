"""The acceptance fixes several rules share: defining a condition the scope
leads with (proven harmless by re-running the scope's checks, which therefore
live here too), respelling a reference, and removing a duplicate definition."""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.syntax.data import replace
from standards_lint.engine.findings import Edit, Fix
from standards_lint.model.acceptance import (
    COVERAGE_TITLE,
    EVIDENCE_TITLE,
    FENCE_RE,
    HEADING_RE,
    ID_TOKEN,
    PREVIOUS_TITLE,
    RETIRED_TITLE,
    Context,
    complete_gaps,
    complete_records,
    design_gaps,
    doc_anchor,
    gaps_of,
    head_scope,
    heading_anchor,
    other_files,
    partial_gaps,
    record_scan,
    scan_text,
    scope_model,
    single_field,
    traced,
)
from standards_lint.engine.rule import report


# A line that leads with one ID: a table row whose first cell is the ID, a
# heading, a list item or a plain line starting with it.
_LEAD_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?P<heading>#{1,6})[ \t]+|(?P<bullet>(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)"
    r"|(?P<table>\|)[ \t]*)?(?P<id>" + ID_TOKEN + r")(?P<rest>.*)$"
)


_SEPARATOR_RE = re.compile(r"^[ \t]*(?::|-|\u2013|\u2014|\.)?[ \t]*")


def _condition_text(m: re.Match) -> Optional[str]:
    """The condition a leading line states after its ID, or None when it
    states none (or a table row holds more than one other cell)."""
    rest = m.group("rest")
    if m.group("table"):
        cells = rest.split("|")
        if cells[0].strip():
            return None  # the first cell holds more than the ID
        cells = [c.strip() for c in cells[1:]]
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) != 1:
            return None
        text = cells[0]
    else:
        if m.group("heading"):
            rest = re.sub(r"[ \t]+#+[ \t]*$", "", rest)
        text = _SEPARATOR_RE.sub("", rest, count=1).strip()
    return text or None


def definition_fix(ctx: Context, ac_id: str) -> Optional[Fix]:
    """Rewrite the one line of the scope that leads with *ac_id* (a table
    row, heading, plain line or list item without its colon) into the
    definition form the protocol fixes, ``- `AC-NNN`: <its text>``
    (Acceptance Traceability, rule 1).  None when no line or several lead
    with it, when the line states no condition, or when defining it would
    raise a finding the scope does not have now (a condition the design or a
    completed record would then have to account for)."""
    return _cached_fix(ctx, ("define", ac_id), lambda: _build_definition_fix(ctx, ac_id))


def _cached_fix(ctx: Context, key: tuple, build) -> Optional[Fix]:
    """A fix computed once per project (several findings offer it), and
    never for a "what if" context."""
    if not ctx.fixes:
        return None
    cache = ctx.project.__dict__.setdefault("_standards_lint_acceptance", {})
    if key not in cache:
        cache[key] = build()
    return cache[key]


def _heading_fix(ctx: Context, ac_id: str) -> Optional[Fix]:
    """The safe fix of a current condition that is current only because the
    `## Retired Acceptance Identifiers` or `## Previous Cycles` heading above
    it is indented (so not read as that heading): the heading written at
    the start of its line, as its author meant it.  One root fix, carried by
    every finding the condition's being current causes."""
    sc = ctx.scope
    if sc is None or not ctx.fixes or _conflicted(ctx, sc.path):
        return None
    under = {m.under for m in sc.current.get(ac_id, ())}
    if len(under) != 1 or not under & {RETIRED_TITLE, PREVIOUS_TITLE}:
        return None
    (title,) = under
    span = sc.scan.indented[title]
    text = ctx.project.text(sc.path) or ""
    indent = len(text[span.start:span.end]) - len(text[span.start:span.end].lstrip(" "))
    return Fix((Edit(sc.path, span.start, span.start + indent, ""),), "safe",
               f"Write `## {title}` at the start of its line, where it is read as that heading")


def _conflicted(ctx: Context, path: str) -> bool:
    """The file holds merge-conflict markers: a person resolves it, no fix."""
    doc = ctx.project.doc(path)
    return doc is None or bool(doc.conflicts)


def _build_definition_fix(ctx: Context, ac_id: str) -> Optional[Fix]:
    sc = ctx.scope
    if _conflicted(ctx, sc.path):
        return None
    text = ctx.project.text(sc.path) or ""
    candidates = []
    for mention in sc.present:
        if mention.id != ac_id or mention.definition:
            continue
        start = text.rfind("\n", 0, mention.span.start) + 1
        end = text.find("\n", mention.span.start)
        end = len(text) if end == -1 else end
        if end > start and text[end - 1] == "\r":
            end -= 1
        m = _LEAD_RE.match(text[start:end])
        if m is None or start + m.start("id") > mention.span.start or mention.span.start >= start + m.end("id"):
            continue
        candidates.append((start, end, m))
    if len(candidates) != 1:
        return None
    start, end, m = candidates[0]
    condition = _condition_text(m)
    if condition is None:
        return None
    prefix = m.group("indent") + m.group("bullet") if m.group("bullet") else "- "
    line = f"{prefix}`{ac_id}`: {condition}"
    new_text = text[:start] + line + text[end:]
    if not _harmless(ctx, new_text):
        return None
    return Fix((Edit(sc.path, start, end, line),), "unsafe", f"Define {ac_id} as a list item: {line}")


def _harmless(ctx: Context, new_scope_text: str) -> bool:
    """Whether the scope as *new_scope_text* raises no acceptance finding
    in a file beyond those it raises now, also once an active recovery is
    over (then every passed state's records are held: a recovery is no
    reason for a record to skip a condition the new text defines)."""
    holds = [ctx.hold]
    if ctx.hold.recovery == "true":
        holds.append(replace(ctx.hold, recovery="false"))
    return all(_harmless_under(replace(ctx, hold=h), new_scope_text) for h in holds)


def _harmless_under(ctx: Context, new_scope_text: str) -> bool:
    alt = replace(ctx, scope=scope_model(scan_text(ctx.scope.path, new_scope_text)), fixes=False)
    now = replace(ctx, fixes=False)
    for check in _SCOPE_CHECKS:
        before: dict[str, int] = {}
        for d in check(now):
            before[d.path] = before.get(d.path, 0) + 1
        after: dict[str, int] = {}
        for d in check(alt):
            after[d.path] = after.get(d.path, 0) + 1
        if any(n > before.get(p, 0) for p, n in after.items()):
            return False
    return True


def find_acceptance_id_defined_twice(ctx: Optional[Context]):
    """SL702's findings: an AC-NNN defined by more than one list item."""
    if not traced(ctx):
        return
    sc = ctx.scope
    reported = set()
    for group in (sc.current, sc.retired):
        for ac_id, defs in group.items():
            if len(defs) > 1 and ac_id not in reported:
                reported.add(ac_id)
                yield report(
                    (sc.path, defs[1].span),
                    f"{ac_id} is defined more than once (first on line {defs[0].span.line}). "
                    "Acceptance identifiers must be unique within the cycle.",
                    _duplicate_fix(ctx, ac_id, defs) if ctx.fixes else None,
                )


_ITEM_START_RE = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]")


def _item_block(text: str, line_start: int) -> tuple[int, int, str]:
    """(start, end, text) of the list item whose first line starts at
    *line_start*: that line and its continuation lines, up to a blank line,
    a heading or a list item no deeper than it; *end* includes the last
    line's ending."""
    def line_at(pos: int) -> tuple[str, int]:
        nl = text.find("\n", pos)
        return (text[pos:], len(text)) if nl == -1 else (text[pos:nl], nl + 1)

    first, end = line_at(line_start)
    m = _ITEM_START_RE.match(first)
    depth = len(m.group(1)) if m else 0
    while end < len(text):
        line, nxt = line_at(end)
        s = line.rstrip("\r")
        if not s.strip() or HEADING_RE.match(s) or FENCE_RE.match(s):
            break
        sub = _ITEM_START_RE.match(s)
        if sub and len(sub.group(1)) <= depth:
            break
        end = nxt
    return line_start, end, text[line_start:end]


def _blank(text: str, start: int, end: int) -> bool:
    return not text[start:end].strip()


def _duplicate_fix(ctx: Context, ac_id: str, defs: list) -> Optional[Fix]:
    """Remove the later list items defining *ac_id* when each is an exact
    copy of the first (line by line, trailing blanks aside): no text is lost.
    None when a copy differs (which wording is meant is Scoper's call) or
    two definitions share a line."""
    sc = ctx.scope
    if _conflicted(ctx, sc.path):
        return None
    text = ctx.project.text(sc.path) or ""
    starts = [text.rfind("\n", 0, d.span.start) + 1 for d in defs]
    if len(set(starts)) != len(starts):
        return None
    blocks = [_item_block(text, s) for s in starts]
    norm = lambda b: [l.rstrip() for l in b[2].rstrip("\r\n").split("\n")]
    if any(norm(b) != norm(blocks[0]) for b in blocks[1:]):
        return None
    edits = []
    for start, end, _ in blocks[1:]:
        # A copy standing between blank lines takes one of them along.
        prev = text.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
        after = text.find("\n", end)
        after = len(text) if after == -1 else after + 1
        if start > 0 and _blank(text, prev, start) and _blank(text, end, after):
            start = prev
        edits.append(Edit(sc.path, start, end, ""))
    if any(a.end > b.start for a, b in zip(edits, edits[1:])):
        return None
    return Fix(tuple(edits), "safe", f"Remove the {'copies' if len(edits) > 1 else 'copy'} of the {ac_id} definition")


def find_acceptance_id_current_and_retired(ctx: Optional[Context]):
    """SL703's findings: an AC-NNN both current and retired."""
    if not traced(ctx):
        return
    sc = ctx.scope
    for ac_id, defs in sc.current.items():
        if ac_id in sc.retired:
            yield report(
                (sc.path, defs[0].span),
                f"{ac_id} is both current and retired (retired on line {sc.retired[ac_id][0].span.line}). "
                "Retired identifiers are never reused; give the condition a new ID.",
            )


def find_previous_cycles_not_last(ctx: Optional[Context]):
    """SL704's findings: Previous Cycles is not the scope's last section."""
    if not traced(ctx):
        return
    sc = ctx.scope
    if not sc.previous:
        return
    if not sc.current:
        yield report(
            heading_anchor(sc.scan, PREVIOUS_TITLE),
            'has conditions only under Previous Cycles. Keep "## Previous Cycles" as the document\'s '
            "last section, with this cycle's conditions above it.",
        )
        return
    top = max(int(i[3:]) for i in sc.current)
    for ac_id, defs in sc.previous.items():
        if int(ac_id[3:]) > top:
            yield report(
                (sc.path, defs[0].span),
                f"{ac_id} is under Previous Cycles but numbered after this cycle's conditions. Keep "
                "\"## Previous Cycles\" as the document's last section, with this cycle's conditions above it.",
            )


def find_documentation_cycle_without_conditions(ctx: Optional[Context]):
    """SL705's findings: a DOCUMENTATION cycle past SCOPING whose scope defines no
    current condition."""
    project = ctx.project if ctx is not None else None
    if not traced(ctx) or ctx.mode != "DOCUMENTATION":
        return
    if ctx.scope.current:
        return
    if (ctx.before("SCOPING") and ctx.hold.passed_due("SCOPING")) or ctx.from_held("SCOPING"):
        # During recovery the rerun decides when SCOPING's gate is held again
        # (Holding.passed_due): a RESUME that leaves its frame returns nothing.
        yield report(
            doc_anchor(project, ctx.scope.path),
            "A DOCUMENTATION cycle needs current acceptance conditions after SCOPING completes; this "
            "scope defines none.",
        )


def find_acceptance_numbering_not_continued(ctx: Optional[Context]):
    """SL750's findings: a condition numbered at or below the history's highest
    ID."""
    if not traced(ctx):
        return
    sc = ctx.scope
    history = [m for m in sc.scan.mentions if m.previous]
    if not history or not sc.current:
        return
    top_current = max(int(i[3:]) for i in sc.current)
    if any(int(i[3:]) > top_current for i in sc.previous):
        return  # SL704 reports the misplaced Previous Cycles heading
    highest = max(history, key=lambda m: m.number)
    for group in (sc.current, sc.retired):
        for ac_id, defs in group.items():
            if int(ac_id[3:]) <= highest.number:
                yield report(
                    (sc.path, defs[0].span),
                    f"{ac_id} is numbered at or below {highest.id}, which is already used under Previous "
                    f"Cycles (line {highest.span.line}). Numbering continues from the highest identifier ever "
                    "used in the document; get a new ID with `node .standards/bin/id.mjs next AC <scope>`.",
                )


def find_design_acceptance_coverage(ctx: Optional[Context]):
    """SL720's findings: a current condition the design does not account for."""
    missing = design_gaps(ctx)
    if not missing:
        return
    where = _section_anchor(ctx, ctx.design, COVERAGE_TITLE)
    for ac_id in missing:
        yield report(
            where,
            f'does not account for {ac_id}. Every current acceptance condition needs design coverage or '
            '"No architectural impact".',
            _heading_fix(ctx, ac_id) or respell_fix(ctx, ctx.design.path),
        )


def find_complete_record_acceptance_coverage(ctx: Optional[Context]):
    """SL721's findings: a COMPLETE record that does not account for a current
    condition."""
    if not traced(ctx):
        return
    for r, owner, status in complete_records(ctx):
        for ac_id in complete_gaps(ctx, r, owner, status) or ():
            yield report(
                (r.path, status.value_span),
                f"is COMPLETE but does not account for {ac_id}, a current acceptance condition of the "
                f"scope {ctx.scope.path}.",
                _heading_fix(ctx, ac_id) or respell_fix(ctx, r.path),
            )


def find_partial_assessment_acceptance_coverage(ctx: Optional[Context]):
    """SL722's findings: a partial assessment that does not list every current
    condition."""
    if not traced(ctx):
        return
    for r in ctx.records:
        missing = partial_gaps(ctx, r)
        if not missing:
            continue
        purpose = single_field(r.doc.header, "Assessment Purpose")
        where = (r.path, purpose.value_span) if purpose is not None else heading_anchor(record_scan(ctx, r), EVIDENCE_TITLE)
        for ac_id in missing:
            yield report(
                where,
                f"the partial assessment does not account for {ac_id}. List every current acceptance "
                "condition in Acceptance Evidence, with AWAITING_IMPLEMENTATION for work still to come.",
                respell_fix(ctx, r.path),
            )


def respell_fix(ctx: Context, path: str) -> Optional[Fix]:
    """Respell the one identifier the design or record at *path* mentions
    that the scope never mentions as the one current condition the file is
    held to account for and does not (rule 6: downstream roles "do not invent
    substitute requirement IDs"; rules 5 and 7: they account for every
    current ID).  One unknown ID and one missing condition: the reference
    was miscopied.  None unless both are exactly one."""
    return _cached_fix(ctx, ("respell", path), lambda: _build_respell_fix(ctx, path))


def _build_respell_fix(ctx: Context, path: str) -> Optional[Fix]:
    missing = gaps_of(ctx, path)
    if missing is None or len(missing) != 1 or _conflicted(ctx, path):
        return None
    files = {scan.path: (scan, is_design) for scan, is_design in other_files(ctx)}
    if path not in files:
        return None
    scan, is_design = files[path]
    sc = ctx.scope
    unknown = [m for m in scan.mentions
               if not (is_design and m.previous) and m.id not in sc.defined and m.id not in sc.appears]
    if len({m.id for m in unknown}) != 1 or any(m.previous for m in unknown):
        return None
    # Another file naming the same unknown ID: the scope may be what changed
    # (a renumbered condition), and which side to respell is Scoper's call.
    for other, other_design in files.values():
        if other.path != path and any(m.id == unknown[0].id and not (other_design and m.previous) for m in other.mentions):
            return None
    record = next((r for r in ctx.records if r.path == path), None)
    if record is not None and record.artifact == "VERIFICATION" and not any(m.section == EVIDENCE_TITLE for m in unknown):
        return None  # the respelt mention would still not account for it
    old, new = unknown[0].id, missing[0]
    edits = tuple(Edit(path, m.span.start, m.span.end, new) for m in unknown)
    what = "design" if is_design else "record"
    return Fix(edits, "unsafe", f"Respell {old} as {new}, the one current condition the {what} does not account for")


def _section_anchor(ctx: Context, scan, title: str):
    """Where a finding about the file of *scan* points: its ``## title``
    heading, else the document's title, else its path."""
    where = heading_anchor(scan, title)
    return doc_anchor(ctx.project, scan.path) if isinstance(where, str) else where


def _head_scope(ctx: Optional[Context]):
    """The scope at the last commit, where traceability applies, else None."""
    return head_scope(ctx) if traced(ctx) else None


def find_acceptance_id_deleted(ctx: Optional[Context]):
    """SL740's findings: a condition defined at the last commit that is gone (not
    retired)."""
    head = _head_scope(ctx)
    if head is None:
        return
    now = ctx.scope.defined
    where = _section_anchor(ctx, ctx.scope.scan, RETIRED_TITLE)
    for ac_id in sorted(head.defined, key=lambda i: (int(i[3:]), i)):
        if ac_id not in now:
            yield report(
                where,
                f'{ac_id} was in the last commit but is gone now. Move it under "Retired Acceptance '
                'Identifiers" instead of deleting it.',
            )


def find_retired_acceptance_id_reused(ctx: Optional[Context]):
    """SL741's findings: a condition retired at the last commit that is current
    again."""
    head = _head_scope(ctx)
    if head is None:
        return
    for ac_id, defs in ctx.scope.current.items():
        if ac_id in head.retired:
            yield report(
                (ctx.scope.path, defs[0].span),
                f"{ac_id} was retired in the last commit and cannot be used again; give the condition a new ID.",
            )


# The rules whose findings follow from the scope's conditions: a fix that
# defines a condition must not raise one of them anywhere (_harmless).
_SCOPE_CHECKS = (
    find_acceptance_id_defined_twice,
    find_acceptance_id_current_and_retired,
    find_previous_cycles_not_last,
    find_documentation_cycle_without_conditions,
    find_acceptance_numbering_not_continued,
    find_design_acceptance_coverage,
    find_complete_record_acceptance_coverage,
    find_partial_assessment_acceptance_coverage,
    find_acceptance_id_deleted,
    find_retired_acceptance_id_reused,
)
