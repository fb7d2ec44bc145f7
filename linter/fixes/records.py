"""Record fixes several rules share: moving a record to its fixed path, setting
a record's Status to COMPLETE, and respelling a miscopied cycle ID in paths."""

from __future__ import annotations

from standards_lint.engine.findings import Edit, Fix, Rename
from standards_lint.fixes.cycle_ids import respelt_id
from standards_lint.model.cycle import STATE_RECORDS, STATUS_AFTER, complete_due, complete_holds, record_holds
from standards_lint.model.record_paths import POINTERS, active_work_field, normalize_path, path_cycle
from standards_lint.model.record_provenance import placement
from standards_lint.syntax.protocol import record_path
from standards_lint.engine.rule import replace


def move_fix(project, b):
    """Move this cycle's one record of a type to its free fixed path (and
    keep Active Work.Development pointing at the plan)."""
    cycle = path_cycle(project)
    if cycle is None:
        return None
    _first, seconds = placement(project)
    if any((s.artifact, s.review_kind) == (b.artifact, b.review_kind) for s, _h in seconds):
        return None
    want = record_path(b.artifact, cycle, b.review_kind)
    if project.exists(want):
        return None
    edits = ()
    for name, (art, *_rest) in POINTERS.items():
        field = active_work_field(project, name)
        if field is None or normalize_path(field.value) != b.path:
            continue
        if art != b.artifact:
            return None  # another field names the file: moving it breaks that reference
        edits = (Edit(project.state.path, field.value_span.start, field.value_span.end, want),)
    return Fix(edits, "unsafe", f"Move {b.path} to {want}", (Rename(b.path, want),))


def respelt_id_fix(project, cured):
    """SL260's fix (Active Work.Id respelt to the generated ID it miscopies),
    for a finding that the respelt ID cures: ``cured(id)`` says whether it
    does (the record the field names is then this cycle's, or the plan then
    sits at its fixed path)."""
    respelt = respelt_id(project)
    if respelt is None or not cured(respelt[0]):
        return None
    return respelt[1]


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
        if f.value == "COMPLETE":
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


def moved_record_fix(project, path: str):
    """The fix of a record missing at its fixed *path*: SL635's move to the
    fixed path when this cycle's only record of that type sits elsewhere, or
    SL260's respelling of a miscopied `Active Work.Id` when the record sits
    at the fixed path of the ID it miscopies (the record is then found)."""
    cid = project.state.aw("Id")
    for art, kind in STATE_RECORDS.values():
        if record_path(art, cid, kind) != path:
            continue
        first, _seconds = placement(project)
        b = first.get((art, kind))
        if b is None:
            return respelt_id_fix(project, lambda want: record_holds(project, record_path(art, want, kind), art, kind, want))
        if b.cycle != cid or b.path == path:
            return None
        return move_fix(project, b)
    return None
