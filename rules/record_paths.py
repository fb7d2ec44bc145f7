"""Workflow Artifact Provenance / Workflow State Reference > Active Work: what
sits at the active cycle's fixed record paths, where the cycle's records are,
and what `Active Work.Scope`, `.Architecture` and `.Development` point to.

Records are read with :mod:`standards_lint.model.record_provenance` (every Markdown
file outside the installed runtime; a valid block makes the file a record
"even if it is later renamed or moved").
"""

from __future__ import annotations

import posixpath
from typing import Optional

from standards_lint.model.holding import holding
from standards_lint.syntax.protocol import (
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    record_path,
)
from standards_lint.engine.findings import Edit, Fix, Rename
from standards_lint.engine.rule import module_rules, replace, report, rule
from standards_lint.model.record_provenance import COLLISION, FIXED, blocks, current_cycle, only_record, placement
from standards_lint.syntax.provenance import label
from standards_lint.model.accessors import project_mode
from standards_lint.model.record_paths import POINTERS, active_work_field, kept_none, normalize_path, path_cycle
from standards_lint.fixes.records import move_fix, respelt_id_fix
from standards_lint.fixes.reveals import REVEALS

# The plan's fixed path is also named by Active Work.Development, which is
# where a wrong file there is reported (SL641/SL642); while Development is
# NONE no path names it, and the fixed path itself is checked.
COLLISION_CHECKED = FIXED[1:]
FIXED_TYPES = ("DEVELOPMENT", "VERIFICATION", "REVIEW", "DOCUMENTATION", "SYNCHRONIZATION")


def _fixed_paths(cycle: str):
    return [(art, kind, record_path(art, cycle, kind)) for art, kind in FIXED]


def _state_path(project):
    return project.state.path if project.state is not None else ".standards/STATE.md"


def _passed(project, state: str, owner: str) -> bool:
    """Whether the forward route has already passed *owner* when in *state*
    (Forward Transitions; greenfield audits after architecture, brownfield
    first).  States outside the route (sign-off, cancellation) never count."""
    mode = project_mode(project)
    routes = {
        "GREENFIELD": (ROUTE_STANDARD_GREENFIELD,),
        "BROWNFIELD": (ROUTE_STANDARD_BROWNFIELD,),
    }.get(mode, (ROUTE_STANDARD_GREENFIELD, ROUTE_STANDARD_BROWNFIELD))
    answers = set()
    for route in routes:
        if state not in route or owner not in route:
            return False
        answers.add(route.index(state) > route.index(owner))
    return answers == {True}


# -- fixed paths ----------------------------------------------------------------


def _fixed_path_findings(project):
    """(code, where, message, fix) for what sits at the fixed paths."""
    cycle = path_cycle(project)
    if cycle is None:
        return
    found = blocks(project)
    blocked_parents = set()
    dev = active_work_field(project, "Development")
    checked = COLLISION_CHECKED + ((FIXED[0],) if dev is not None and dev.value in ("NONE", "UNSET") else ())
    for art, kind, path in _fixed_paths(cycle):
        if (art, kind) not in checked:
            continue
        what = label(art, kind)
        k = project.kind(path)
        if k is None:
            # A file where a folder of the path must be prevents the location.
            parent = posixpath.dirname(path)
            while parent and parent != ".standards":
                pk = project.kind(parent)
                if pk is not None:
                    if pk != "dir" and parent not in blocked_parents:
                        blocked_parents.add(parent)
                        yield ("SL633", parent,
                               f"is not a folder, so this cycle's {what} record cannot be created at its "
                               f"fixed path {path}. {COLLISION}", None)
                    break
                parent = posixpath.dirname(parent)
            continue
        if k != "file":
            noun = "a folder" if k == "dir" else "not a regular file"
            yield ("SL633", path,
                   f"is {noun}, so this cycle's {what} record cannot be at its fixed path. {COLLISION}", None)
            continue
        block = found.get(path)
        if block is None:
            if project.text(path) is None:
                continue  # unreadable: reported by the engine
            yield ("SL630", path,
                   f"does not start with a STANDARDS provenance block, so it cannot be this cycle's "
                   f"{what} record. {COLLISION}", None)
            continue
        if not block.valid:
            continue  # SL600
        if (block.artifact, block.review_kind) != (art, kind):
            line = block.get("Artifact")
            yield ("SL632", (path, line.value_span),
                   f"must hold this cycle's {what} record, but holds {block.label}. {COLLISION}", None)
        elif block.cycle != cycle:
            line = block.get("Cycle")
            yield ("SL631", (path, line.value_span),
                   f"holds a {what} record for cycle `{block.cycle}`, not this cycle's {what} record "
                   f"(`{cycle}`). {COLLISION}", None)


def _emit(checks, project, code):
    """Report the findings of rule *code* among the (code, where, message,
    fix) that *checks* (one of this module's generators) yields; each group of
    rules shares one pass over the project."""
    for c, where, message, fix in checks(project):
        if c == code:
            yield report(where, message, fix)


_COLLISION_WHY = """PROTOCOL.md, Workflow Artifact Provenance: "Every other record is always
cycle-owned at its fixed path. Its provenance block must match `Active Work.Id`
and the path" and "An unrelated, unmarked, incorrectly marked, or
different-cycle or different-kind file at a fixed path is a collision, and so is
a non-directory or unsafe path that prevents the required location." A
collision is reported and blocks dependent work "without overwriting,
relabeling, or adopting it or silently choosing another path"."""


@rule(
    code="SL630",
    name="fixed-path-unmarked",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="A file at one of this cycle's fixed record paths has no provenance block.",
    explanation=f"""
**What it does.** Looks at the active cycle's fixed paths for the
verification report, both review reports, the documentation record and the
synchronization record (and the development plan's while `Active
Work.Development` is `NONE`: otherwise SL641/SL642 report what it names); a file there that does not begin with a
`<!-- STANDARDS` block (a leading blank line or conflict marker counts) is
reported.

**Why.** {_COLLISION_WHY}

**Fix safety.** No fix: the file's content belongs to whoever wrote it; the
user decides where it goes.
""",
    bad_example="`.standards/docs/verification/<Active Work.Id>.md`:\n\n# Verification Report\n\n`Status`: `COMPLETE`",
    good_example="`.standards/docs/verification/<Active Work.Id>.md`:\n\n<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: <Active Work.Id>\n-->",
    help="Leave the file unchanged and ask the user where it belongs (the cycle's record needs this path).",
    no_fix_reason="The file's content belongs to whoever wrote it; the user decides where it goes.",
)
def fixed_path_unmarked(project):
    yield from _emit(_fixed_path_findings, project, "SL630")


@rule(
    code="SL631",
    name="fixed-path-other-cycle",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="This cycle's fixed record path holds another cycle's record of the same type.",
    explanation=f"""
**What it does.** Reports a record of the right type (and review kind) at one
of the active cycle's fixed paths whose block names a different cycle.

**Why.** {_COLLISION_WHY} A different cycle "must never overwrite, repurpose,
or adopt it".

**Fix safety.** No fix: the other cycle's record must be preserved. This
holds also when the block's `Cycle` looks like a miscopy of this cycle's ID
(letter case, a character dropped): the protocol calls a "different-cycle ...
file at a fixed path" a collision, to be reported "without overwriting,
relabeling, or adopting it"; the user decides what the file is.
""",
    bad_example="<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: old-cycle-20260101T000000Z-00000000\n-->",
    good_example="<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: <Active Work.Id>\n-->",
    help="Leave the other cycle's record unchanged and ask the user how to resolve the collision.",
    no_fix_reason="A different-cycle file at a fixed path is a collision: it is preserved, never relabeled, even when its Cycle looks like a miscopy of this cycle's ID.",
)
def fixed_path_other_cycle(project):
    yield from _emit(_fixed_path_findings, project, "SL631")


@rule(
    code="SL632",
    name="fixed-path-wrong-artifact",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="This cycle's fixed record path holds a record of another type or review kind.",
    explanation=f"""
**What it does.** Reports a valid record at one of the active cycle's fixed
paths whose artifact type or review kind is not the one the path is for (for
example an `IMPLEMENTATION` review at `final-deliverable.md`).

**Why.** {_COLLISION_WHY} A review report uses "exactly one concrete kind
matching its path".

**Fix safety.** No fix: relabeling a record is forbidden.
""",
    bad_example="`.standards/docs/verification/<Active Work.Id>.md`:\n\n<!-- STANDARDS\nArtifact: ARCHITECTURE\nCycle: <Active Work.Id>\n-->",
    good_example="`.standards/docs/verification/<Active Work.Id>.md`:\n\n<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: <Active Work.Id>\n-->",
    help="Leave the record unchanged and ask the user how to resolve the collision.",
    no_fix_reason="Relabeling a record is forbidden.",
)
def fixed_path_wrong_artifact(project):
    yield from _emit(_fixed_path_findings, project, "SL632")


@rule(
    code="SL633",
    name="fixed-path-not-a-file",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="A folder or special file occupies one of this cycle's fixed record paths.",
    beyond_checker=True,
    explanation=f"""
**What it does.** Reports a folder, socket or dangling link at the active
cycle's fixed path for the verification report, a review report, the
documentation record or the synchronization record, and a file standing where
a folder of such a path must be (for example a file
`.standards/docs/reviews/<Active Work.Id>`).

**Why.** {_COLLISION_WHY}

**Fix safety.** No fix: the user decides what to do with the folder.
""",
    bad_example="`.standards/docs/verification/<Active Work.Id>.md/` is a folder.",
    good_example="`.standards/docs/verification/<Active Work.Id>.md` is a record file.",
    help="Ask the user to move the folder or file that blocks the fixed record path.",
    no_fix_reason="The user decides what to do with the folder.",
)
def fixed_path_not_a_file(project):
    yield from _emit(_fixed_path_findings, project, "SL633")


# -- where this cycle's records are --------------------------------------------------


def _artifact_line(b):
    return (b.path, b.get("Artifact").span)


def _placement_findings(project):
    """(code, where, message, fix) for where this cycle's records are."""
    cycle = path_cycle(project)
    if cycle is None:
        return
    first, seconds = placement(project)
    for b, head in seconds:
        yield ("SL634", _artifact_line(b),
               f"is a second {b.label} record for this cycle; {head.path} is the first. "
               "A cycle has one record of each type; do not adopt or merge it silently.", None)
    for b in first.values():
        if b.artifact in FIXED_TYPES:
            want = record_path(b.artifact, cycle, b.review_kind)
            if b.path != want:
                yield ("SL635", _artifact_line(b),
                       f"is this cycle's {b.label} record, but it must be at {want}.", move_fix(project, b))


@rule(
    code="SL634",
    name="duplicate-record",
    section="Workflow Artifact Provenance",
    owner="USER",
    summary="Two files carry this cycle's record of the same type (and review kind).",
    explanation="""
**What it does.** Among all records whose block names the active cycle, finds
a second record of the same artifact type and review kind. The one at a fixed
record path counts as the first; otherwise the first by path.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: each record type has one
location per cycle ("`.standards/docs/verification/<Active Work.Id>.md`", ...),
and "A valid provenance block makes the file a STANDARDS cycle-owned artifact
even if it is later renamed or moved", so a copy is a second record competing
with the first.

**Fix safety.** No fix: which copy is authoritative is the user's call.
""",
    bad_example="`archive/copy.md` and `.standards/docs/verification/<Active Work.Id>.md` both begin with\n\n<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: <Active Work.Id>\n-->",
    good_example="Only `.standards/docs/verification/<Active Work.Id>.md` carries the block.",
    help="Ask the user which copy is authoritative; do not adopt or merge the second silently.",
    no_fix_reason="Which copy is authoritative is the user's call.",
)
def duplicate_record(project):
    yield from _emit(_placement_findings, project, "SL634")


@rule(
    code="SL635",
    reveals=REVEALS["SL635"],
    name="record-wrong-path",
    section="Workflow Artifact Provenance",
    owner="record",
    summary="This cycle's plan, report or record is not at its fixed path.",
    explanation="""
**What it does.** Reports a record of the active cycle whose type has a fixed
path (development plan, verification report, review reports, documentation and
synchronization records) but which sits somewhere else. Scope and design may
live in existing project documents and are not checked here.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: "Every other record is
always cycle-owned at its fixed path. Its provenance block must match
`Active Work.Id` and the path".

**Fix safety.** Sometimes (unsafe): moves the record to its fixed path (one atomic rename; `--diff` shows it as `rename from`/`rename to`), updating `Active Work.Development` when it named the plan. No fix when the fixed path is taken or the cycle has two records of the type.
""",
    bad_example="`plans/<Active Work.Id>.md` begins with\n\n<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: <Active Work.Id>\n-->",
    good_example="The plan is `.standards/docs/development/<Active Work.Id>.md`.",
    fix="sometimes",
    help="Move the record to its fixed path (and update `Active Work.Development` for the plan).",
    no_fix_reason="The fixed path is occupied, or the cycle has more than one record of the type.",
)
def record_wrong_path(project):
    yield from _emit(_placement_findings, project, "SL635")


@rule(
    code="SL636",
    name="corrective-resume-record-missing",
    section="Corrective Returns",
    owner="record",
    summary="A DOCUMENTATION cycle resumed from Documenter or Synchronizer without that role's record.",
    explanation="""
**What it does.** When a `DOCUMENTATION` cycle's handoff is a `RESUME` from
`DOCUMENTING` or `SYNCHRONIZING`, the documentation or synchronization record
of the active cycle must exist at its fixed path.

**Why.** PROTOCOL.md, Corrective Returns: a Documenter or Synchronizer return
applies only when "its record has valid current-cycle provenance, and the
frame's specific correction has been verified", and "A qualifying Documenter or
Synchronizer return retains its valid current-cycle record and verified
correction evidence".

**Fix safety.** No fix: the role must write its record.
""",
    bad_example="`Kind`: `RESUME` `From`: `SYNCHRONIZING` with no `.standards/docs/synchronization/<Active Work.Id>.md`",
    good_example="The synchronization record exists with the active cycle's block.",
    help="Write the role's record with current-cycle provenance at its fixed path before resuming.",
    no_fix_reason="The role must write its record.",
)
def corrective_resume_record_missing(project):
    state = project.state
    cycle = path_cycle(project)
    if state is None or cycle is None or state.cycle_mode != "DOCUMENTATION" or state.ho("Kind") != "RESUME":
        return
    art = {"DOCUMENTING": "DOCUMENTATION", "SYNCHRONIZING": "SYNCHRONIZATION"}.get(state.ho("From") or "")
    if art is None:
        return
    path = record_path(art, cycle)
    if project.kind(path) is None:
        yield report(
            path,
            f"must exist with current-cycle provenance for a corrective RESUME handoff from "
            f"{state.ho('From')}; the {art} record of cycle `{cycle}` is missing.",
        )


# -- Active Work paths ----------------------------------------------------------------


def _pointer_fix(project, name: str, field):
    """Point the Active Work field at this cycle's one record of its type;
    a plan away from its fixed path moves there in the same fix.  None when
    no single record of the right type exists, or its fixed path is taken."""
    art = POINTERS[name][0]
    if kept_none(project.state.cycle_mode, name):
        return None  # the mode keeps the field NONE (SL311, SL313)
    cycle = path_cycle(project)
    rec = only_record(project, art) if cycle is not None else None
    if rec is None:
        return None
    state = project.state.path
    if art in FIXED_TYPES:
        want = record_path(art, cycle)
        if rec.path != want:
            if project.exists(want):
                return None
            edits = () if field.value == want else (Edit(state, field.value_span.start, field.value_span.end, want),)
            return Fix(edits, "unsafe", f"Move this cycle's {art} record {rec.path} to {want} and point "
                                        f"Active Work.{name} at it", (Rename(rec.path, want),))
    if field.value == rec.path:
        return None
    return replace(state, field.value_span, rec.path, safe=True,
                   description=f"Point Active Work.{name} at this cycle's {art} record {rec.path}")


def _pointer_checks(project):
    """(code, where, message, fix) for the Active Work path fields."""
    cycle = current_cycle(project)
    if cycle is None:
        return
    found = blocks(project)
    for name, (art, _owner, _role, _noun) in POINTERS.items():
        field = active_work_field(project, name)
        if field is None or field.value.strip() in ("NONE", ""):
            continue
        value, where = field.value, (field.path, field.value_span)
        path = normalize_path(value)
        k = project.kind(path) if path is not None else None
        if k is None:
            yield ("SL640", where, f"Active Work.{name} points to {value}, which does not exist.",
                   _pointer_fix(project, name, field))
        elif k != "file":
            yield ("SL640", where, f"Active Work.{name} points to {value}, which is not a file.",
                   _pointer_fix(project, name, field))
        else:
            block = found.get(path)
            if block is not None and block.valid and (block.artifact != art or block.cycle != cycle):
                fix = _pointer_fix(project, name, field)
                if fix is None and block.artifact == art:
                    fix = respelt_id_fix(project, lambda want: block.cycle == want)
                yield ("SL641", where,
                       f"Active Work.{name} points to {value}, which is a {block.label} record for cycle "
                       f"`{block.cycle}`, not this cycle's {art}. Correct the reference; never adopt "
                       "or rewrite another cycle's artifact.", fix)
        if name == "Development" and "/" not in cycle:
            want = record_path("DEVELOPMENT", cycle)
            if path != want:
                fix = _pointer_fix(project, name, field)
                if fix is None:
                    fix = respelt_id_fix(project, lambda cid: path == record_path("DEVELOPMENT", cid))
                yield ("SL642", where,
                       f"Active Work.Development points to {value}, but this cycle's DEVELOPMENT record "
                       f"must be at {want}.", fix)


@rule(
    code="SL640",
    reveals=REVEALS["SL640"],
    name="active-work-path-missing",
    section="Active Work",
    owner="state",
    summary="Active Work.Scope, .Architecture or .Development names a path that does not exist.",
    explanation="""
**What it does.** Checks that a non-`NONE` `Scope`, `Architecture` or
`Development` value in Active Work names an existing file.

**Why.** PROTOCOL.md, Active Work: "`Scope`, `Architecture`, and
`Development`: repository-relative paths to the owning artifacts, or `NONE`
until created. Scoper, Architect, and Developer must persist their artifact
path before their normal completion gate passes."

**Fix safety.** Sometimes: when this cycle has exactly one record of the field's type, the field is pointed at it (safe); a plan away from its fixed path is moved there in the same fix, one atomic rename that `--diff` shows (unsafe). Otherwise no fix.
""",
    bad_example="`Scope`: `docs/scope/missing.md`",
    good_example="`Scope`: `.standards/docs/scope/<Active Work.Id>.md` (the file exists)",
    fix="sometimes",
    help="Point the field at this cycle's record of that type, or create the artifact at the named path.",
    no_fix_reason="No single record of the right type for this cycle exists to point at.",
)
def active_work_path_missing(project):
    yield from _emit(_pointer_checks, project, "SL640")


@rule(
    code="SL641",
    reveals=REVEALS["SL641"],
    name="active-work-path-other-record",
    section="Workflow Artifact Provenance",
    owner="state",
    summary="An Active Work path names another cycle's record or a record of another type.",
    explanation="""
**What it does.** Reports `Active Work.Scope`, `.Architecture` or
`.Development` naming a file whose provenance block is valid but names another
cycle or another artifact type than the field's (SCOPE, ARCHITECTURE,
DEVELOPMENT). An unmarked project document is fine for Scope and Architecture.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: "An `Active Work`
reference to another cycle's artifact is inconsistent with the active cycle. Do
not overwrite or silently repair that artifact; correct the reference without
mutating it."

**Fix safety.** Sometimes: when this cycle has exactly one record of the field's type, the field is pointed at it (safe); a plan away from its fixed path is moved there in the same fix, one atomic rename that `--diff` shows (unsafe). When `Active Work.Id` itself is a miscopy of the generated ID the named record carries (SL260), the finding carries SL260's unsafe fix, which makes the record this cycle's. No fix for a record whose own block names a miscopy of this cycle's ID: the protocol forbids repairing or relabeling that artifact ("correct the reference without mutating it"), and with no other record of the type there is nothing to point at.
""",
    bad_example="`Scope`: `docs/scope/old.md` (its block says `Cycle: old-cycle-20260101T000000Z-00000000`)",
    good_example="`Scope`: `.standards/docs/scope/<Active Work.Id>.md`",
    fix="sometimes",
    help="Point the field at this cycle's own record; never adopt or rewrite the other cycle's artifact.",
    no_fix_reason="No single record of the right type for this cycle exists to point at, and the record named is not this cycle's under a miscopied Active Work.Id; the named artifact itself is never repaired.",
)
def active_work_path_other_record(project):
    yield from _emit(_pointer_checks, project, "SL641")


@rule(
    code="SL642",
    reveals=REVEALS["SL642"],
    name="development-path-not-fixed",
    section="Active Work",
    owner="state",
    summary="Active Work.Development is not this cycle's fixed development-plan path.",
    fix="sometimes",
    explanation="""
**What it does.** Checks that a non-`NONE` `Active Work.Development` is
`.standards/docs/development/<Active Work.Id>.md`.

**Why.** PROTOCOL.md, Workflow Artifact Provenance: the development plan's
location is `.standards/docs/development/<Active Work.Id>.md`, and "Every other
record is always cycle-owned at its fixed path"; "`Active Work.Development`
names the plan".

**Fix safety.** Sometimes: when this cycle's plan is at the fixed path the field is pointed there (safe); a plan elsewhere is moved to the fixed path and the field updated in one fix (unsafe). When `Active Work.Id` is a miscopy of a generated ID (SL260) and the field names that ID's fixed plan path, the finding carries SL260's unsafe fix. No fix when no plan of this cycle exists or the fixed path is taken.
""",
    bad_example="`Development`: `plans/<Active Work.Id>.md`",
    good_example="`Development`: `.standards/docs/development/<Active Work.Id>.md`",
    help="Point `Active Work.Development` at `.standards/docs/development/<Active Work.Id>.md` and keep the plan there.",
    no_fix_reason="No plan of this cycle exists to point at or move, or the fixed path is taken.",
)
def development_path_not_fixed(project):
    yield from _emit(_pointer_checks, project, "SL642")


def _none_checks(project):
    """(code, where, message, fix) for Scope/Architecture/Development left NONE."""
    state = project.state
    if state is None or current_cycle(project) is None:
        return
    ws, mode = state.workflow_state, state.cycle_mode
    kind, origin = state.ho("Kind"), state.ho("From")
    if ws is None or mode is None:
        return
    for name, (_art, owner, role, noun) in POINTERS.items():
        field = active_work_field(project, name)
        if field is None or field.value != "NONE":
            continue
        where = (field.path, field.value_span)
        if name == "Development":
            if mode not in ("STANDARD", "EXPEDITED", "UNSET"):
                continue  # documentation cycles keep it NONE
        elif mode not in ("STANDARD", "DOCUMENTATION"):
            continue  # expedited cycles keep Scope and Architecture NONE
        if name != "Development" and kind == "RESUME" and origin == owner:
            h = holding(project)
            if h is None or not (h.recovery == "true" and h.frames == 0):
                # A RESUME that left `Active`: `true` and no frame (SL501) shows no frame
                # popped after its owner's gate ("After correcting the defect and passing its
                # applicable gate", Recovery Mechanics, 3-4): no successful return to hold.
                yield ("SL644", where,
                       f"Active Work.{name} is NONE, but a successful RESUME from {owner} requires its completed "
                       f"{noun}; {role} persists the path before its gate passes.",
                       _pointer_fix(project, name, field))
            continue
        if kind == "PROMOTE" and mode == "STANDARD":
            continue  # a just-promoted cycle re-enters the standard route
        h = holding(project)
        if _passed(project, ws, owner) and h is not None and h.passed_due(owner, path=True):
            cycle_word = f"this {mode} cycle" if name != "Development" else "this cycle"
            yield ("SL643", where,
                   f"Active Work.{name} is NONE, but {cycle_word} is already in {ws}, past {owner}; "
                   f"{role} must persist the {noun} path before its gate passes.",
                   _pointer_fix(project, name, field))


@rule(
    code="SL643",
    reveals=REVEALS["SL643"],
    name="active-work-path-none-after-phase",
    section="Active Work",
    owner="state",
    summary="Active Work.Scope, .Architecture or .Development is still NONE after its owner's phase.",
    explanation="""
**What it does.** Once the workflow state lies past `SCOPING`, `ARCHITECTING`
or `DEVELOPING` on the project's forward route (greenfield: scoping,
architecture, audit; brownfield: audit first), the matching Active Work path
must not be `NONE`. Scope and Architecture are checked in STANDARD and
DOCUMENTATION cycles, Development in STANDARD and EXPEDITED cycles.

**Why.** PROTOCOL.md, Active Work: "Scoper, Architect, and Developer must
persist their artifact path before their normal completion gate passes. In
expedited work `Scope` and `Architecture` normally remain `NONE` unless the
cycle is promoted; `Development` is still Developer-owned and is created before
implementation begins. In documentation work, Scoper and Architect still
persist their paths; `Development` remains `NONE` throughout the cycle."

**Fix safety.** Sometimes: when this cycle has exactly one record of the field's type, the field is pointed at it (safe); a plan away from its fixed path is moved there in the same fix, one atomic rename that `--diff` shows (unsafe). Otherwise no fix.
""",
    bad_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Scope`: `NONE`",
    good_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Scope`: `.standards/docs/scope/<Active Work.Id>.md`",
    fix="sometimes",
    help="Persist the artifact's path in Active Work before the owner's gate passes.",
    no_fix_reason="No single record of the right type for this cycle exists to point at.",
)
def active_work_path_none_after_phase(project):
    yield from _emit(_none_checks, project, "SL643")


@rule(
    code="SL644",
    name="active-work-path-none-on-resume",
    section="Active Work",
    owner="state",
    summary="A RESUME from SCOPING or ARCHITECTING leaves Active Work.Scope or .Architecture NONE.",
    explanation="""
**What it does.** When the handoff is a `RESUME` from `SCOPING` (or
`ARCHITECTING`) in a STANDARD or DOCUMENTATION cycle, `Active Work.Scope` (or
`Active Work.Architecture`) must name the completed artifact. A `RESUME` that
left `Recovery.Active` `true` with no frame (SL501) shows no frame popped after
its owner's gate, so no successful return is held.

**Why.** PROTOCOL.md, Active Work: "Scoper, Architect, and Developer must
persist their artifact path before their normal completion gate passes."
Recovery Mechanics: the frame owner resumes only "After correcting the defect
and passing its applicable gate".

**Fix safety.** Sometimes: when this cycle has exactly one record of the field's type, the field is pointed at it (safe); a plan away from its fixed path is moved there in the same fix, one atomic rename that `--diff` shows (unsafe). Otherwise no fix.
""",
    bad_example="`Kind`: `RESUME` `From`: `SCOPING` ... `Scope`: `NONE`",
    good_example="`Kind`: `RESUME` `From`: `SCOPING` ... `Scope`: `.standards/docs/scope/<Active Work.Id>.md`",
    fix="sometimes",
    help="Persist the completed artifact's path in Active Work before resuming.",
    no_fix_reason="No single record of the right type for this cycle exists to point at.",
)
def active_work_path_none_on_resume(project):
    yield from _emit(_none_checks, project, "SL644")


standards_lint_rules = module_rules(globals())
