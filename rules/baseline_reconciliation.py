"""`Baseline Reconciliation` in `.standards/STATE.md` (PROTOCOL.md, Baseline
Reconciliation Format): `NONE`, or the list form with one `SourceCycle`
and one `Request` per entry."""

from __future__ import annotations

from typing import Optional, Union

from standards_lint.syntax.ast import Field, ListItem
from standards_lint.engine.findings import Edit, Fix
from standards_lint.fixes.state import remove_field_span
from standards_lint.model.state_values import STATE_PATH, state_fields, state_model, state_value
from standards_lint.syntax.protocol import CYCLE_ID_RE
from standards_lint.engine.rule import module_rules, replace, report, rule
from standards_lint.model.record_provenance import project_records
from standards_lint.fixes.reveals import REVEALS


def _baseline(st):
    """(field, entries) when Active Work holds BaselineReconciliation once in
    the list form, else None."""
    aw = st.section("Active Work")
    found = state_fields(st, aw, "BaselineReconciliation")
    if len(found) != 1:
        return None
    return found[0]


def _entries(st, f: Field) -> list[tuple[ListItem, list[Field]]]:
    aw = st.section("Active Work")
    out = []
    for item in aw.items:
        if item.span.start <= f.span.start:
            continue
        out.append((item, list(item.fields)))
    return out


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the line holding *start* begins and the line holding *end* ends
    (its line break, or the end of the text)."""
    le = text.find("\n", end)
    return text.rfind("\n", 0, start) + 1, len(text) if le == -1 else le


def _own_line(text: str, f: Field) -> bool:
    ls, le = _line_bounds(text, f.span.start, f.span.end)
    return not text[ls:f.span.start].strip() and not text[f.span.end:le].strip()


def _value_on_label_line(f: Field) -> bool:
    """The format is line-exact ("use exactly: `BaselineReconciliation`:
    `NONE`"; an entry is "- `SourceCycle`: `<id>`" and "`Request`: `<summary>`"):
    a value re-wrapped onto the next line is not that format."""
    return f.bare or f.value_span.line == f.name_span.line


def _join_value(text: str, f: Field) -> Optional[Fix]:
    """Safe fix of a value re-wrapped onto the next line: put it back on the
    label's line, after one space (nothing but the line break changes)."""
    colon = text.find(":", f.name_span.end, f.value_span.start)
    if colon == -1:
        return None
    tick = colon + 1
    while tick < f.value_span.start and text[tick] in " \t\r\n":
        tick += 1
    if tick >= f.value_span.start or text[tick] != "`" or "\n" not in text[colon + 1:tick]:
        return None
    return Fix((Edit(STATE_PATH, colon + 1, tick, " "),), "safe", f"Put `{f.name}`'s value on its label's line")


def _format_problem(st, f: Field) -> Optional[str]:
    text = st.doc.text
    if not f.bare:
        if not _value_on_label_line(f):
            return f"its value `{f.value}` must stand on the label's line"
        if f.value == "NONE":
            return None if _own_line(text, f) else "it must stand on its own line"
        return f"its value is `{f.value}`"
    if not _own_line(text, f):
        return "it must stand on its own line"
    entries = _entries(st, f)
    if not entries:
        return "the label is not followed by a list of entries"
    return None


@rule(
    code="SL210",
    name="baseline-missing",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="Active Work has a `BaselineReconciliation` field.",
    explanation="""
**What it does.** Checks that `## Active Work` holds `BaselineReconciliation`.

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "Within `Active Work`,
store `BaselineReconciliation` on its own line. When no obligation exists, use
exactly: `` `BaselineReconciliation`: `NONE` ``". Without the field no role can
tell whether cancelled cycles left unreconciled changes.

**Fix safety.** Sometimes (unsafe): while `Handoff.Kind` is still `INITIAL`
(the installed state or the first cycle: a cancellation is followed by a
`NEW_CYCLE`), no cancelled cycle can have left an obligation, so
`` `BaselineReconciliation`: `NONE` `` is inserted on its own line. Otherwise
no fix: the protocol says "do not infer entries or discard obligations";
whether the value is `NONE` or a list is for the user to say.
""",
    fix="sometimes",
    bad_example="## Active Work\n\n`Id`: `UNSET` ... `PendingVerificationCadence`: `NONE`\n\n## Handoff",
    good_example="## Active Work\n\n`Id`: `UNSET` ... `PendingVerificationCadence`: `NONE`\n\n`BaselineReconciliation`: `NONE`",
    help="Add `` `BaselineReconciliation`: `NONE` `` to Active Work, or the list of unresolved cancelled source cycles.",
    no_fix_reason='Unless the handoff is still INITIAL, the protocol says "do not infer entries or discard obligations"; whether the value is `NONE` or a list is for the user to say.',
)
def baseline_missing(project):
    st = state_model(project)
    if st is None:
        return
    aw = st.section("Active Work")
    if aw is None or state_fields(st, aw, "BaselineReconciliation"):
        return
    yield report(aw.heading, "Active Work has no `BaselineReconciliation`; write `` `BaselineReconciliation`: `NONE` `` "
                             "or the list of unresolved cancelled source cycles.", fix=_initial_baseline_fix(st, aw))


def _initial_baseline_fix(st, aw) -> Optional[Fix]:
    """Unsafe fix while the handoff is still `INITIAL`: the installed state or
    the first cycle, which no cancelled cycle preceded (a cancellation is
    followed by a `NEW_CYCLE`), so there is no source to reconcile and the
    value is `NONE`.  Inserted on its own line after the last Active Work
    field; unsafe, because the kind may be the wrong field."""
    if state_value(st, st.section("Handoff"), "Kind") != "INITIAL" or not aw.fields or aw.items:
        return None
    text = st.doc.text
    last = max(f.span.end for f in aw.fields)
    eol = _line_bounds(text, last, last)[1]
    if text[eol - 1:eol] == "\r":
        eol -= 1
    nl = "\r\n" if "\r\n" in text else "\n"
    return Fix((Edit(STATE_PATH, eol, eol, f"{nl}{nl}`BaselineReconciliation`: `NONE`"),), "unsafe",
               "Insert `BaselineReconciliation`: `NONE`: no cancelled cycle precedes an INITIAL handoff")


@rule(
    code="SL211",
    name="baseline-format",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="`BaselineReconciliation` is `NONE` or a label followed by a list of entries, once, on its own line.",
    explanation="""
**What it does.** Checks that `BaselineReconciliation` occurs once, on its own
line, and is either exactly `` `NONE` `` or a bare `` `BaselineReconciliation`: ``
label followed by a Markdown list.

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "store
`BaselineReconciliation` on its own line. When no obligation exists, use
exactly: `` `BaselineReconciliation`: `NONE` ``. Otherwise use a nonempty
Markdown list with both required fields in each entry" and "An empty list is
represented as `NONE`, not an empty string or `[]`. A value that does not match
this format is invalid workflow state."

**Fix safety.** Sometimes (safe): `` `BaselineReconciliation`: `NONE` ``
written more than once loses nothing when the later copies are removed, so
they are; a `NONE` re-wrapped onto the next line is put back on the label's
line. Anything else has no fix: "do not infer entries or discard
obligations".
""",
    fix="sometimes",
    bad_example="`BaselineReconciliation`: `[]`",
    good_example="`BaselineReconciliation`: `NONE`",
    help="Keep one `BaselineReconciliation`, on its own line: `NONE`, or the label followed by one list entry per source cycle.",
    no_fix_reason='Only a repeated `NONE` is removed; otherwise "do not infer entries or discard obligations".',
)
def baseline_format(project):
    st = state_model(project)
    if st is None:
        return
    found = state_fields(st, st.section("Active Work"), "BaselineReconciliation")
    if len(found) > 1:
        yield report(found[1], f"BaselineReconciliation occurs {len(found)} times; it must occur once, as `NONE` "
                               "or a list of `SourceCycle`/`Request` entries.", fix=_repeated_none_fix(st, found))
        return
    if not found:
        return
    problem = _format_problem(st, found[0])
    if problem:
        f = found[0]
        fix = None
        if not f.bare and not _value_on_label_line(f) and f.value == "NONE":
            fix = _join_value(st.doc.text, f)
        yield report(f, f"BaselineReconciliation must be `NONE` or a list of `SourceCycle`/`Request` "
                        f"entries; {problem}.", fix=fix)


def _repeated_none_fix(st, found) -> Optional[Fix]:
    """Safe fix of `BaselineReconciliation`: `NONE` written more than once:
    remove the later copies (each says the same, so nothing is lost), when
    the first then stands on its own line.  Copies in the list form, or with
    other values, get no fix ("do not infer entries or discard obligations")."""
    if any(f.bare or f.value != "NONE" or not _value_on_label_line(f) for f in found):
        return None
    text = st.doc.text
    edits = []
    for f in found[1:]:
        lines = _item_lines(text, f)
        edits.append(lines if lines is not None else remove_field_span(text, f))
    first = found[0]
    ls, le = _line_bounds(text, first.span.start, first.span.end)
    rest = "".join(ch for i, ch in enumerate(text[ls:le], ls)
                   if not (first.span.start <= i < first.span.end) and not any(a <= i < b for a, b in edits))
    if rest.strip():
        return None
    return Fix(tuple(Edit(STATE_PATH, a, b, "") for a, b in edits), "safe",
               "Remove the repeated `BaselineReconciliation`: `NONE`")


def _list_entries(st):
    """The entries of a well-formed list-form BaselineReconciliation."""
    f = _baseline(st)
    if f is None or not f.bare or _format_problem(st, f):
        return None
    return _entries(st, f)


def _complete(fields: list[Field]) -> Optional[tuple[Field, Field]]:
    src = [f for f in fields if f.name == "SourceCycle"]
    req = [f for f in fields if f.name == "Request"]
    if len(src) != 1 or len(req) != 1 or not src[0].value.strip() or not req[0].value.strip():
        return None
    if not (_value_on_label_line(src[0]) and _value_on_label_line(req[0])):
        return None
    return src[0], req[0]


@rule(
    code="SL212",
    reveals=REVEALS["SL212"],
    name="baseline-entry-incomplete",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="Every BaselineReconciliation entry has one `SourceCycle` and one `Request`.",
    explanation="""
**What it does.** Checks that each list entry under `BaselineReconciliation`
holds exactly one nonempty `SourceCycle` and one nonempty `Request`.

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "Otherwise use a
nonempty Markdown list with both required fields in each entry" and
"`SourceCycle` is the cancelled source's exact cycle `Id` ... `Request` is
that source's brief persisted request summary."

**Fix safety.** Sometimes. A value re-wrapped onto the next line is put back
on its label's line (safe: only the line break changes). An empty entry (a
bare list marker, with neither field nor any other text) records nothing, so an unsafe fix removes
its line; when every entry is empty, the fix writes
`` `BaselineReconciliation`: `NONE` `` instead, since "An empty list is
represented as `NONE`". Both are unsafe because the owner may have meant to
fill the entry in. An entry holding only a `SourceCycle` that another,
complete entry also holds is a partial copy of that source's entry ("It is
the unique key"): an unsafe fix removes it. Any other entry with some content
gets no fix: the missing ID or summary must come from the cancelled cycle's
records, and "do not infer entries or discard obligations".
""",
    fix="sometimes",
    bad_example="`BaselineReconciliation`:\n- `SourceCycle`: `change-cache-20260101T000000Z-0a1b2c3d`",
    good_example="`BaselineReconciliation`:\n- `SourceCycle`: `change-cache-20260101T000000Z-0a1b2c3d`\n  `Request`: `Change the cache.`",
    help="Give the entry exactly one `SourceCycle` (the cancelled cycle's Id) and one `Request` (its request summary).",
    no_fix_reason="The missing value is the cancelled cycle's Id or request, which only its history holds.",
)
def baseline_entry_incomplete(project):
    st = state_model(project)
    if st is None:
        return
    entries = _list_entries(st)
    for item, fields in entries or ():
        if _complete(fields) is None:
            wrapped = [f for f in fields if f.name in ("SourceCycle", "Request") and not _value_on_label_line(f)]
            if wrapped:
                yield report(wrapped[0], f"BaselineReconciliation entry needs `{wrapped[0].name}` with its value on the "
                                         "same line (`` `Name`: `value` ``); here the value is on the next line.",
                             fix=_join_value(st.doc.text, wrapped[0]))
                continue
            have = sorted({f.name for f in fields if f.name in ("SourceCycle", "Request")})
            yield report(item, "BaselineReconciliation entry needs exactly one `SourceCycle` and one `Request`"
                               f" (it has {', '.join('`%s`' % h for h in have) or 'neither'}).",
                         fix=_empty_entry_fix(st, entries, item) or _partial_copy_fix(st, entries, item, fields))


def _item_lines(text: str, item: Union[ListItem, Field]) -> Optional[tuple[int, int]]:
    """The whole lines of *item* with their line ending, when nothing else
    shares them."""
    ls, le = _line_bounds(text, item.span.start, item.span.end)
    if text[ls:item.span.start].strip() or text[item.span.end:le].strip():
        return None
    return ls, min(le + 1, len(text))


def _is_empty_entry(item: ListItem) -> bool:
    return not item.fields and not item.codes and not item.text.strip()


def _empty_entry_fix(st, entries, item: ListItem) -> Optional[Fix]:
    """Unsafe fix of an empty entry: remove its line, or write `NONE` when
    every entry is empty (see SL212's Fix safety)."""
    if not _is_empty_entry(item):
        return None
    text = st.doc.text
    if all(_is_empty_entry(i) for i, _ in entries):
        label = _baseline(st)
        if label is None:
            return None
        last = max(i.span.end for i, _ in entries)
        between = text[label.span.end:last]
        markers = {i.marker for i, _ in entries}
        if any(line.strip() and line.strip() not in markers for line in between.split("\n")):
            return None
        return Fix((Edit(label.path, label.span.start, last, "`BaselineReconciliation`: `NONE`"),), "unsafe",
                   "Write BaselineReconciliation as NONE: every entry is empty")
    lines = _item_lines(text, item)
    if lines is None:
        return None
    return Fix((Edit(item.path, lines[0], lines[1], ""),), "unsafe", "Remove the empty entry")


def _partial_copy_fix(st, entries, item: ListItem, fields) -> Optional[Fix]:
    """Unsafe fix of an entry that holds only a `SourceCycle` another,
    complete entry also holds: remove it.  `SourceCycle` "is the unique key",
    so the complete entry is that source's entry and the partial copy adds
    nothing to it; unsafe because the owner may have meant another source."""
    if len(fields) != 1 or fields[0].name != "SourceCycle" or item.codes:
        return None
    src = fields[0]
    if not src.value.strip() or not _value_on_label_line(src):
        return None
    text = st.doc.text
    rest = text[item.span.start:src.span.start] + text[src.span.end:item.span.end]
    if rest.strip() != item.marker:
        return None
    if not any(other is not item and (pair := _complete(of)) is not None and pair[0].value == src.value
               for other, of in entries):
        return None
    lines = _item_lines(text, item)
    if lines is None:
        return None
    return Fix((Edit(item.path, lines[0], lines[1], ""),), "unsafe",
               f"Remove the partial entry for `{src.value}`; its complete entry stays")


def _checked_entries(st):
    """Entries when every one is complete (the checker validates sources only
    then), else None."""
    entries = _list_entries(st)
    if not entries:
        return None
    out = []
    for item, fields in entries:
        pair = _complete(fields)
        if pair is None:
            return None
        out.append((item, pair[0], pair[1]))
    return out


@rule(
    code="SL213",
    name="baseline-source-not-cycle-id",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="A BaselineReconciliation `SourceCycle` is a generated cycle ID.",
    explanation="""
**What it does.** Checks that each `SourceCycle` has the form of an ID that
`cycle.mjs new` generates (`<slug>-<YYYYMMDDTHHMMSSZ>-<8 hex>`).

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "`SourceCycle` is the
cancelled source's exact cycle `Id`, not the new cycle's ID. It is the unique
key". Anything else cannot name a cancelled cycle.

**Fix safety.** Sometimes (unsafe): when the value differs from a generated
ID only in letter case or in `_` for `-`, and exactly one cycle named by the
project's records (their provenance `Cycle`) is that ID, the entry gets it --
the entry is kept, only its key is respelt. Not offered when that ID is the
active cycle's or another entry's. Otherwise no fix: copy the cancelled cycle's
`Active Work.Id` exactly ("do not infer entries").
""",
    bad_example="- `SourceCycle`: `old-cycle-1`\n  `Request`: `Old work.`",
    good_example="- `SourceCycle`: `old-work-20260101T000000Z-0a1b2c3d`\n  `Request`: `Old work.`",
    fix="sometimes",
    help="Copy the cancelled cycle's `Active Work.Id` exactly into `SourceCycle`.",
    no_fix_reason="Unless the project's records name exactly one generated ID the value miscopies, copy the cancelled cycle's `Active Work.Id` exactly.",
)
def baseline_source_not_cycle_id(project):
    st = state_model(project)
    if st is None:
        return
    entries = _checked_entries(st) or ()
    cid = state_value(st, st.section("Active Work"), "Id")
    listed = {src.value for _item, src, _req in entries}
    for item, src, _req in entries:
        if not CYCLE_ID_RE.match(src.value):
            fix = None
            want = _recorded_cycle(project, src.value)
            if want is not None and want != cid and want not in listed:
                fix = replace(STATE_PATH, src.value_span, want, safe=False,
                              description=f"Set the source to `{want}`, the cycle its records name")
            yield report((STATE_PATH, src.value_span),
                         f"BaselineReconciliation source `{src.value}` is not a cycle ID; copy the cancelled "
                         "cycle's Active Work.Id exactly.", fix)


def _recorded_cycle(project, value: str) -> Optional[str]:
    """The one generated ID among the records' provenance cycles that *value*
    miscopies (letter case, `_` for `-`), or None."""
    def loose(v: str) -> str:
        return v.strip().lower().replace("_", "-")

    found = {b.cycle for b in project_records(project)
             if b.cycle and CYCLE_ID_RE.match(b.cycle) and loose(b.cycle) == loose(value)}
    return found.pop() if len(found) == 1 else None


@rule(
    code="SL214",
    name="baseline-duplicate-source",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="A BaselineReconciliation source is listed once.",
    explanation="""
**What it does.** Checks that no `SourceCycle` appears in two entries.

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "It is the unique key"
and "Append a newly obligated source only if its ID is absent; never replace
older sources with the latest cancellation or duplicate an existing ID."

**Fix safety.** The fix removes the later entry, keeping the first
`Request` summary. Safe when both summaries are the same (nothing is lost);
unsafe when they differ: check that the removed summary held nothing the
first lacks, or merge it into the first.
""",
    fix="sometimes",
    bad_example="- `SourceCycle`: `a-20260101T000000Z-0a1b2c3d`\n  `Request`: `A.`\n- `SourceCycle`: `a-20260101T000000Z-0a1b2c3d`\n  `Request`: `A again.`",
    good_example="- `SourceCycle`: `a-20260101T000000Z-0a1b2c3d`\n  `Request`: `A.`",
    help="Keep one entry per source cycle, merging the request summaries if they differ.",
)
def baseline_duplicate_source(project):
    st = state_model(project)
    if st is None:
        return
    entries = _checked_entries(st) or ()
    text = st.doc.text
    seen: dict[str, int] = {}
    first_request: dict[str, str] = {}
    for item, src, req in entries:
        seen[src.value] = seen.get(src.value, 0) + 1
        first_request.setdefault(src.value, " ".join(req.value.split()))
        if seen[src.value] != 2:
            continue
        # A copy with the same Request loses nothing; a different summary may
        # hold what the first lacks.
        same = " ".join(req.value.split()) == first_request[src.value]
        start = item.span.start
        end = max([item.span.end] + [f.span.end for f in item.fields])
        line_start, line_end = _line_bounds(text, start, end)
        if not text[line_start:start].strip():
            start = line_start
        end = min(line_end + 1, len(text))
        fix = Fix((Edit(STATE_PATH, start, end, ""),), "safe" if same else "unsafe",
                  "Remove the repeated entry" if same else "Remove the repeated entry (its Request differs)")
        yield report((STATE_PATH, src.value_span),
                     f"BaselineReconciliation lists `{src.value}` more than once; each source cycle has one entry.",
                     fix=fix)


@rule(
    code="SL215",
    name="baseline-lists-active-cycle",
    section="Baseline Reconciliation Format",
    owner="state",
    summary="BaselineReconciliation never lists the active cycle itself.",
    explanation="""
**What it does.** Checks that no `SourceCycle` equals `Active Work.Id`.

**Why.** PROTOCOL.md, Baseline Reconciliation Format: "`SourceCycle` is the
cancelled source's exact cycle `Id`, not the new cycle's ID." The active cycle
is not a cancelled source.

**Fix safety.** No fix: the entry probably meant a different (cancelled)
cycle's ID, and its `Request` records that source's unresolved changes;
removing it would discard an obligation ("do not infer entries or discard
obligations", Baseline Reconciliation Format).
""",
    bad_example="`Id`: `a-20260101T000000Z-0a1b2c3d` ...\n- `SourceCycle`: `a-20260101T000000Z-0a1b2c3d`",
    good_example="`Id`: `b-20260102T000000Z-1b2c3d4e` ...\n- `SourceCycle`: `a-20260101T000000Z-0a1b2c3d`",
    help="Remove the active cycle from BaselineReconciliation, or replace it with the cancelled source cycle's Id it was meant to name.",
    no_fix_reason="The entry probably meant a different (cancelled) cycle's ID; removing it would discard an obligation (\"do not infer entries or discard obligations\").",
)
def baseline_lists_active_cycle(project):
    st = state_model(project)
    if st is None:
        return
    cid = state_value(st, st.section("Active Work"), "Id")
    if cid is None or cid == "UNSET":
        return
    for item, src, _req in _checked_entries(st) or ():
        if src.value == cid:
            yield report((STATE_PATH, src.value_span),
                         f"BaselineReconciliation lists the active cycle `{cid}` itself; it lists only cancelled "
                         "source cycles.")


standards_lint_rules = module_rules(globals())
