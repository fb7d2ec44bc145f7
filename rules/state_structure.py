"""Persisted Workflow State / Workflow State Reference: the structure of
``.standards/STATE.md``.

The title, the five header fields, the four sections, every required field of
``Active Work``, ``Handoff``, ``Recovery`` and ``Outstanding Obligations``
exactly once with a valid value, the pending-cycle pairing, the terminal-state
reset of ``CycleMode`` (Cycle Modes rule 1), the inactive-cycle cadence, and
the **Baseline Reconciliation Format**.

Every rule stays silent about a STATE.md that holds merge-conflict markers:
the conflict rule (SL110) reports it, and its structure cannot be judged until
the user keeps exactly one side.
"""

from __future__ import annotations

from typing import Optional

from standards_lint.ast import Container, Field, ListItem
from standards_lint.findings import Edit, Fix
from standards_lint.protocol import (
    COMPLETION_POLICIES,
    PROJECT_MODES,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    ROUTE_STANDARD_BROWNFIELD,
    ROUTE_STANDARD_GREENFIELD,
    CYCLE_ID_RE,
    CYCLE_MODES,
    FAILURE_TYPES,
    HANDOFF_KINDS,
    PENDING_CYCLE_MODES,
    TERMINAL_STATES,
    VERIFICATION_CADENCES,
    WORKFLOW_STATES,
)
from standards_lint.rule import field_removal, module_rules, replace, report, rule
from standards_lint.state import ACTIVE_WORK_FIELDS, HANDOFF_FIELDS, HEADER_FIELDS, SECTIONS
from standards_lint.fixes.spelling import meant_value
from standards_lint.fixes.state import section_respell_fix

STATE_PATH = ".standards/STATE.md"
TITLE = "S.T.A.N.D.A.R.D.S. Workflow State"

BOOLEANS = ("true", "false")

# Fields whose value is one of a fixed set (Cycle Modes, Workflow States,
# Completion Policies, Active Work, Recovery).
ENUMS = {
    ("header", "WorkflowState"): WORKFLOW_STATES,
    ("header", "CycleMode"): CYCLE_MODES,
    ("header", "PendingCycleMode"): PENDING_CYCLE_MODES,
    ("Active Work", "CompletionPolicy"): COMPLETION_POLICIES,
    ("Active Work", "PendingVerificationCadence"): VERIFICATION_CADENCES,
    ("Recovery", "Active"): BOOLEANS,
    ("Outstanding Obligations", "Active"): BOOLEANS,
}


# -- helpers ------------------------------------------------------------------
def _state(project):
    """The STATE.md model, or None when absent, unreadable or conflicted."""
    st = project.state
    if st is None or project.conflicts(st.path):
        return None
    return st


def _fields(st, container: Optional[Container], name: str) -> list[Field]:
    """Every occurrence of *name* among *container*'s own fields (not those
    of its list items), in text order."""
    if container is None:
        return []
    return container.all_fields(name)


def _one(st, container: Optional[Container], name: str) -> Optional[Field]:
    found = _fields(st, container, name)
    return found[0] if len(found) == 1 else None


def _value(st, container: Optional[Container], name: str) -> Optional[str]:
    f = _one(st, container, name)
    return f.value if f is not None and f.value.strip() else None


def _containers(st) -> list[tuple[str, Optional[Container]]]:
    """(label, container) for the header and each section present once."""
    return [
        ("header", st.header),
        ("Active Work", st.section("Active Work")),
        ("Handoff", st.section("Handoff")),
        ("Recovery", st.section("Recovery")),
        ("Outstanding Obligations", st.section("Outstanding Obligations")),
    ]


def _where(st, container: Container):
    """A node to point at for something missing from *container*."""
    if container.heading is not None:
        return container.heading
    if st.doc.title is not None:
        return st.doc.title
    return STATE_PATH


def _qualified(label: str, name: str) -> str:
    if label == "header":
        return f"`{name}`"
    if label == "Active Work":
        return f"Active Work `{name}`"
    return f"{label}.{name}"


def _insert_after_last(st, container: Container, names: tuple, text: str) -> Optional[int]:
    """Offset just after the last of *names* present in *container*."""
    last = None
    for n in names:
        for f in _fields(st, container, n):
            if last is None or f.span.end > last:
                last = f.span.end
    return last


def _remove_field(text: str, f: Field) -> tuple[int, int]:
    """Span removing *f* and the single space that separates it."""
    return field_removal(text, f.span)


def _keep_determined(text: str, found: list, value: Optional[str]) -> Optional[Fix]:
    """For a field repeated with different values: keep the first copy that
    holds *value* (the one the rest of STATE.md determines), remove the
    others (unsafe); None when no copy holds it."""
    keep = next((f for f in found if f.value == value), None) if value is not None else None
    if keep is None:
        return None
    edits = tuple(Edit(STATE_PATH, *_remove_field(text, f), "") for f in found if f is not keep)
    return Fix(edits, "unsafe", f"Keep `{keep.name}`: `{value}` and remove the other copies")


def _only_allowed(st, label: str, name: str, values) -> Optional[str]:
    """Of the values of a repeated `CompletionPolicy`, the one the cycle's
    mode allows, when exactly one is: a STANDARD cycle has
    `FULL_DELIVERABLE` or `IMPLEMENTATION_REVIEWED`, an expedited or
    documentation cycle `NONE` (Completion Policies)."""
    if (label, name) != ("Active Work", "CompletionPolicy"):
        return None
    mode = _value(st, st.header, "CycleMode")
    allowed = {"STANDARD": ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"),
               "EXPEDITED": ("NONE",), "DOCUMENTATION": ("NONE",)}.get(mode or "")
    if allowed is None:
        return None
    return _only(v for v in values if v in allowed)


def _is_inactive(st) -> bool:
    """No cycle is active: none started yet, or the last one ended."""
    ws = _value(st, st.header, "WorkflowState")
    cid = _value(st, st.section("Active Work"), "Id")
    return ws in TERMINAL_STATES or cid == "UNSET"


def _determined_value(st, label: str, name: str) -> Optional[str]:
    """The value the protocol fixes for a missing field, when it does."""
    header = st.header
    aw = st.section("Active Work")
    mode = _value(st, header, "CycleMode")
    if label == "Active Work" and name == "PendingVerificationCadence":
        # Documentation cycles keep it NONE; inactive cycles require NONE.
        if mode == "DOCUMENTATION" or (mode == "UNSET" and _is_inactive(st)):
            return "NONE"
    if label == "Active Work" and name == "CompletionPolicy":
        # NONE before any cycle and for EXPEDITED or DOCUMENTATION cycles.
        if _value(st, aw, "Id") == "UNSET" or mode in ("EXPEDITED", "DOCUMENTATION"):
            return "NONE"
    if label == "Active Work" and name == "PromotionReason":
        # Only an expedited cycle's promotion (which makes it STANDARD) records
        # a reason; documentation cycles keep it NONE.
        if mode in ("EXPEDITED", "DOCUMENTATION") and _value(st, st.section("Handoff"), "Kind") != "PROMOTE":
            return "NONE"
    if label == "header" and name == "PendingCycleMode":
        # Only "While no cycle is active, or before the initialized first
        # cycle has received its request" may a preference be set; starting a
        # cycle makes it UNSET (Start a cycle).
        ws = _value(st, header, "WorkflowState")
        if ws in WORKFLOW_STATES and not _is_inactive(st) and _value(st, aw, "Id") not in (None, "NONE"):
            return "UNSET"
    if label == "header" and name == "PendingCycleRequest":
        # Paired: the request is UNSET exactly when the blocker is NONE.
        if _value(st, header, "PendingCycleBlockedOn") == "NONE":
            return "UNSET"
    if label == "header" and name == "PendingCycleBlockedOn":
        if _value(st, header, "PendingCycleRequest") == "UNSET":
            return "NONE"
    if name == "Active" and label in ("Recovery", "Outstanding Obligations"):
        # Active is true exactly when the section holds frames / obligations.
        sec = st.section(label)
        if sec is not None:
            return "true" if list(sec.subsections) else "false"
    if label == "Handoff" and name == "FailureType":
        # Only FAILURE and USER_REWORK handoffs route a failure type; every
        # other kind records NONE (Start a cycle, Checkpoint Handoffs,
        # Expedited Promotion, Sign off, Cancel, COMPLETION_CHANGE).
        kind = _value(st, st.section("Handoff"), "Kind")
        if kind in HANDOFF_KINDS and kind not in ("FAILURE", "USER_REWORK"):
            return "NONE"
    if label == "Active Work" and not _is_inactive(st):
        # "In documentation work ... `Development` remains `NONE` throughout
        # the cycle"; "In expedited work `Scope` and `Architecture` normally
        # remain `NONE` unless the cycle is promoted" (which makes it STANDARD).
        if name == "Development" and mode == "DOCUMENTATION":
            return "NONE"
        if (name in ("Scope", "Architecture") and mode == "EXPEDITED"
                and _value(st, st.section("Handoff"), "Kind") != "PROMOTE"):
            return "NONE"
    return None


def _initial_value(st, label: str, name: str) -> tuple[Optional[str], str]:
    """(value, "unsafe") for a missing Active Work field the protocol
    initializes when a cycle starts and that usually keeps that value, when
    the cycle is active; (None, "") otherwise.  Unsafe: a later value (a
    pending cadence request, a user question) may have been lost with the
    field."""
    if label != "Active Work":
        return None, ""
    aw = st.section("Active Work")
    cid = _value(st, aw, "Id")
    mode = _value(st, st.header, "CycleMode")
    if cid in (None, "UNSET", "NONE") or _is_inactive(st) or mode not in ("STANDARD", "EXPEDITED", "DOCUMENTATION"):
        return None, ""
    request = _value(st, aw, "Request") or ""
    if name == "CompletionPolicy":
        # "Each new standard cycle initializes FULL_DELIVERABLE unless the
        # user explicitly selects IMPLEMENTATION_REVIEWED" (Policy lifecycle).
        if mode == "STANDARD" and "IMPLEMENTATION_REVIEWED" not in request:
            return "FULL_DELIVERABLE", "unsafe"
        return None, ""
    # Start a cycle: "`AuditTarget`, and `BlockedOn` set to `NONE`;
    # `PendingVerificationCadence: NONE`".
    if name == "PendingVerificationCadence" and mode in ("STANDARD", "EXPEDITED"):
        if "INCREMENTAL" in request or "AFTER_IMPLEMENTATION" in request:
            return None, ""  # the request names a cadence: it may be pending
        return "NONE", "unsafe"
    if name in ("AuditTarget", "BlockedOn"):
        return "NONE", "unsafe"
    return None, ""


def _project_mode(project) -> Optional[str]:
    doc = project.mode_doc
    if doc is None or doc.header is None or project.conflicts(doc.path):
        return None
    found = doc.header.all_fields("ProjectMode")
    return found[0].value if len(found) == 1 and found[0].value in PROJECT_MODES else None


def _steps(route) -> set:
    return set(zip(route, route[1:]))


def _forward_steps(project, st) -> Optional[set]:
    """The (from, to) steps a normal FORWARD handoff may take in this cycle
    (Forward Transitions), or None when the route is not known: no single
    cycle mode, an unknown completion policy, or recovery frames (a corrective
    rerun may step through either standard route)."""
    if st.section("Recovery") is None or st.frames:
        return None
    mode = _value(st, st.header, "CycleMode")
    if mode == "DOCUMENTATION":
        return _steps(ROUTE_DOCUMENTATION)
    if mode == "EXPEDITED":
        return _steps(ROUTE_EXPEDITED)
    if mode != "STANDARD":
        return None
    # A greenfield cycle keeps its route after Developer makes the project
    # BROWNFIELD, so a BROWNFIELD project may be on either standard route.
    routes = (ROUTE_STANDARD_GREENFIELD,) if _project_mode(project) == "GREENFIELD" else (
        ROUTE_STANDARD_GREENFIELD, ROUTE_STANDARD_BROWNFIELD)
    policy = _value(st, st.section("Active Work"), "CompletionPolicy")
    out: set = set()
    for route in routes:
        if policy == "FULL_DELIVERABLE":
            out |= _steps(route)
        elif policy == "IMPLEMENTATION_REVIEWED":
            cut = route[: route.index("REVIEWING_IMPLEMENTATION") + 1] + ("AWAITING_USER_SIGNOFF",)
            out |= _steps(cut)
        else:
            return None
    return out


def _only(values) -> Optional[str]:
    values = set(values)
    return values.pop() if len(values) == 1 else None


def determined_from(project, st) -> Optional[str]:
    """The `Handoff.From` that the handoff's kind and `WorkflowState`
    determine, or None: `INITIAL` comes from `NONE` (Start a cycle),
    `SIGNOFF` from `AWAITING_USER_SIGNOFF` (Sign off), a `CHECKPOINT` from
    the other side of the STANDARD Developer/Tester exchange, and a
    `FORWARD` from the one state before `WorkflowState` on the cycle's route."""
    kind = _value(st, st.section("Handoff"), "Kind")
    ws = _value(st, st.header, "WorkflowState")
    if kind == "INITIAL":
        return "NONE"
    if ws not in WORKFLOW_STATES:
        return None
    if kind == "SIGNOFF":
        return "AWAITING_USER_SIGNOFF" if ws == "SIGNED_OFF" else None
    if kind == "CHECKPOINT":
        if _value(st, st.header, "CycleMode") != "STANDARD":
            return None
        return {"TESTING": "DEVELOPING", "DEVELOPING": "TESTING"}.get(ws)
    if kind == "FORWARD":
        steps = _forward_steps(project, st)
        return _only(a for a, b in steps if b == ws) if steps else None
    return None


def determined_state(project, st) -> Optional[str]:
    """The `WorkflowState` that the handoff determines, or None: a
    `CHECKPOINT` hands the STANDARD Developer/Tester exchange to the other
    side, `SIGNOFF` ends in `SIGNED_OFF`, and a `FORWARD` moves to the one
    state after `Handoff.From` on the cycle's route."""
    ho = st.section("Handoff")
    kind, frm = _value(st, ho, "Kind"), _value(st, ho, "From")
    if frm not in WORKFLOW_STATES:
        return None
    if kind == "SIGNOFF":
        return "SIGNED_OFF" if frm == "AWAITING_USER_SIGNOFF" else None
    if kind == "CHECKPOINT":
        if _value(st, st.header, "CycleMode") != "STANDARD":
            return None
        return {"TESTING": "DEVELOPING", "DEVELOPING": "TESTING"}.get(frm)
    if kind == "FORWARD":
        steps = _forward_steps(project, st)
        return _only(b for a, b in steps if a == frm) if steps else None
    return None


def _start_state(project, st) -> Optional[str]:
    """The state a cycle starts in (Start a cycle), for a handoff that still
    records the start: `INITIAL`, or `NEW_CYCLE` from `SIGNED_OFF`.
    `AUDITING` while reconciliation is unresolved or in a documentation cycle;
    otherwise `DEVELOPING` for an expedited cycle, and the standard entry state
    for the project mode (`SCOPING` for GREENFIELD, `AUDITING` for BROWNFIELD).
    (After `CANCELLED` the cancelled changes may be retained: not known.)"""
    ho = st.section("Handoff")
    kind, frm = _value(st, ho, "Kind"), _value(st, ho, "From")
    if not (kind == "INITIAL" or (kind == "NEW_CYCLE" and frm == "SIGNED_OFF")):
        return None
    aw = st.section("Active Work")
    cid = _value(st, aw, "Id")
    if cid == "UNSET" and kind == "INITIAL":
        # Installation: "`SCOPING` for `GREENFIELD`, `AUDITING` for `BROWNFIELD`".
        return {"GREENFIELD": "SCOPING", "BROWNFIELD": "AUDITING"}.get(_project_mode(project) or "")
    if cid in (None, "UNSET", "NONE"):
        return None
    base = _fields(st, aw, "BaselineReconciliation")
    if len(base) != 1:
        return None
    mode = _value(st, st.header, "CycleMode")
    if mode == "DOCUMENTATION" or (base[0].bare and base[0].value == ""):
        return "AUDITING" if mode in CYCLE_MODES and mode != "UNSET" else None
    if base[0].value != "NONE":
        return None
    if mode == "EXPEDITED":
        return "DEVELOPING"
    if mode == "STANDARD":
        return {"GREENFIELD": "SCOPING", "BROWNFIELD": "AUDITING"}.get(_project_mode(project) or "")
    return None


def inferred_cycle_mode(st) -> Optional[str]:
    """The `CycleMode` the rest of STATE.md leaves possible, when exactly one
    is: `UNSET` in a terminal state (Cycle Modes rule 1) or before any cycle;
    otherwise the one mode consistent with `CompletionPolicy` (only STANDARD
    cycles have a policy), `Development` (NONE throughout a documentation
    cycle), `Scope`/`Architecture` (NONE in an unpromoted expedited cycle),
    the handoff kind (CHECKPOINT and PROMOTE are STANDARD's) and the mode's
    route holding `WorkflowState`."""
    ws = _value(st, st.header, "WorkflowState")
    if ws not in WORKFLOW_STATES:
        return None
    if ws in TERMINAL_STATES:
        return "UNSET"
    aw = st.section("Active Work")
    cid = _value(st, aw, "Id")
    if cid is None:
        return None
    if cid == "UNSET":
        return "UNSET"
    left = {"STANDARD", "EXPEDITED", "DOCUMENTATION"}
    policy = _value(st, aw, "CompletionPolicy")
    if policy in ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"):
        left &= {"STANDARD"}
    elif policy == "NONE":
        left -= {"STANDARD"}
    dev = _value(st, aw, "Development")
    if dev is not None and dev != "NONE":
        left.discard("DOCUMENTATION")
    if any((_value(st, aw, n) or "NONE") != "NONE" for n in ("Scope", "Architecture")):
        left.discard("EXPEDITED")
    if _value(st, st.section("Handoff"), "Kind") in ("CHECKPOINT", "PROMOTE"):
        left &= {"STANDARD"}
    if ws not in ROUTE_EXPEDITED:
        left.discard("EXPEDITED")
    if ws not in ROUTE_DOCUMENTATION:
        left.discard("DOCUMENTATION")
    return _only(left)


def _handoff_determined(project, st, label: str, name: str) -> Optional[str]:
    """A missing or empty value that the rest of STATE.md determines (unsafe:
    which of two disagreeing fields is wrong is not known)."""
    if label == "Handoff" and name == "From":
        return determined_from(project, st)
    if label == "header" and name == "WorkflowState":
        return determined_state(project, st) or _start_state(project, st)
    if label == "header" and name == "CycleMode":
        return inferred_cycle_mode(st)
    if label == "Active Work" and name == "Id" and _value(st, st.header, "WorkflowState") not in TERMINAL_STATES:
        from standards_lint.model.cycle_ids import path_id

        return path_id(project)
    return None


_POINTER_TYPES = {"Scope": "SCOPE", "Architecture": "ARCHITECTURE", "Development": "DEVELOPMENT"}


def _record_value(project, label: str, name: str) -> Optional[str]:
    """For a missing Active Work path field: the path of this cycle's one
    record of that type, when exactly one exists."""
    if label != "Active Work" or name not in _POINTER_TYPES:
        return None
    from standards_lint.model.record_provenance import placement

    art = _POINTER_TYPES[name]
    mode = _value(project.state, project.state.header, "CycleMode")
    if (mode == "EXPEDITED" and name != "Development") or (mode == "DOCUMENTATION" and name == "Development"):
        return None  # the mode keeps the field NONE
    first, seconds = placement(project)
    rec = first.get((art, None))
    if rec is None or any(b.artifact == art for b, _h in seconds):
        return None
    return rec.path


# -- SL200 ----------------------------------------------------------------------
@rule(
    code="SL200",
    name="state-title",
    section="Persisted Workflow State",
    owner="state",
    summary="STATE.md starts with the title `# S.T.A.N.D.A.R.D.S. Workflow State`.",
    explanation="""
**What it does.** Checks that `.standards/STATE.md` has exactly the level-1
title `# S.T.A.N.D.A.R.D.S. Workflow State` before its fields.

**Why.** PROTOCOL.md, Persisted Workflow State: "`STATE.md` uses this shape:"
followed by a shape that opens with `# S.T.A.N.D.A.R.D.S. Workflow State`.
The title identifies the file as the workflow state to people and tools.

**Fix safety.** Safe: the title text is fixed by the protocol; a missing title
is inserted at the top, a different one replaced.
""",
    fix="safe",
    beyond_checker=True,
    bad_example="# Workflow state\n\n`WorkflowState`: `AUDITING` ...",
    good_example="# S.T.A.N.D.A.R.D.S. Workflow State\n\n`WorkflowState`: `AUDITING` ...",
    help="Make the first line `# S.T.A.N.D.A.R.D.S. Workflow State`.",
)
def state_title(project):
    st = _state(project)
    if st is None:
        return
    title = st.doc.title
    if title is None:
        fix = Fix((Edit(STATE_PATH, 0, 0, f"# {TITLE}\n\n"),), "safe", "Insert the STATE.md title")
        yield report(STATE_PATH, f"STATE.md has no title; it must start with `# {TITLE}`.", fix=fix)
    elif title.text != TITLE:
        fix = replace(STATE_PATH, title.span, f"# {TITLE}", description="Use the protocol's STATE.md title")
        yield report(title, f"STATE.md title is `{title.text}`; it must be `# {TITLE}`.", fix=fix)


# -- SL201 ----------------------------------------------------------------------
@rule(
    code="SL201",
    name="state-section-count",
    section="Persisted Workflow State",
    owner="state",
    summary="STATE.md has each of its four `##` sections exactly once.",
    explanation="""
**What it does.** Checks that `## Active Work`, `## Handoff`, `## Recovery`
and `## Outstanding Obligations` each occur exactly once in
`.standards/STATE.md`, with exactly that heading text.

**Why.** PROTOCOL.md, Persisted Workflow State: "`STATE.md` uses this shape"
with these four sections, and Workflow State Reference: "The subsections
follow the order of the shape example in **Persisted Workflow State**:
`Active Work`, `Handoff`, and `Recovery`." A missing or repeated section makes
the state ambiguous; no role can resume from it.

**Fix safety.** Sometimes: a heading that differs only in letter case or spacing is respelt (safe). Copies of a repeated section that hold nothing but the heading, or exactly the text of the copy that stays, are removed (safe: no text is lost). Which of two different copies is right, or what a missing section held, is the user's decision.
""",
    bad_example="## Active Work\n...\n## handoff\n...",
    good_example="## Active Work\n...\n## Handoff\n...",
    fix="sometimes",
    help="Keep exactly one `## Active Work`, `## Handoff`, `## Recovery` and `## Outstanding Obligations` section, merging or removing the extra copy.",
    no_fix_reason="Which of two different copies of a section is right, or what a missing one held, is the user's decision; a miscapitalised heading and an empty or identical copy are fixed.",
)
def state_section_count(project):
    st = _state(project)
    if st is None:
        return
    for title in SECTIONS:
        found = st.sections(title)
        if len(found) == 1:
            continue
        if not found:
            near = [s for s in st.doc.sections if s.title.strip().lower() == title.lower()]
            if near:
                where = near[0].heading
                msg = (f"STATE.md has no `## {title}` section; the heading `{near[0].heading.text.strip()}` "
                       f"must read exactly `## {title}`.")
                fix = section_respell_fix(st, title)
            else:
                where = st.doc.title or STATE_PATH
                msg = f"STATE.md has no `## {title}` section; it needs exactly one."
                fix = None
            yield report(where, msg, fix)
        else:
            yield report(found[1].heading,
                         f"STATE.md has {len(found)} `## {title}` sections; it needs exactly one.",
                         _repeat_fix(st, found, title))


def _repeat_fix(st, found, title: str) -> Optional[Fix]:
    """Remove the copies of a repeated section that hold nothing (only the
    heading) or exactly the text of a copy that stays; None when two copies
    with different content remain (which is right is the user's call)."""
    text = st.doc.text
    order = st.doc.sections
    spans = []
    for sec in found:
        i = order.index(sec)
        start = sec.heading.span.start
        end = order[i + 1].heading.span.start if i + 1 < len(order) else len(text)
        spans.append((start, sec.heading.span.end, end))
    bodies = [text[h:e] for _s, h, e in spans]
    full = [text[s:e] for s, _h, e in spans]
    keep = [i for i, b in enumerate(bodies) if b.strip()]
    if not keep:
        keep = [0]
    kept = {full[keep[0]].rstrip()}
    if any(full[i].rstrip() not in kept for i in keep[1:]):
        return None  # two copies with different content
    keep = keep[:1]
    edits = tuple(Edit(STATE_PATH, spans[i][0], spans[i][2], "") for i in range(len(found)) if i not in keep)
    if not edits:
        return None
    return Fix(edits, "safe", f"Remove the empty or identical copies of `## {title}`")


# -- SL202 ----------------------------------------------------------------------
@rule(
    code="SL202",
    name="state-field-missing",
    section="Workflow State Reference",
    owner="state",
    summary="Every required STATE.md field occurs exactly once with a nonempty value.",
    explanation="""
**What it does.** Checks that each required field occurs exactly once with a
nonempty value: the header's `WorkflowState`, `CycleMode`, `PendingCycleMode`,
`PendingCycleRequest` and `PendingCycleBlockedOn`; Active Work's `Id`,
`Request`, `CompletionPolicy`, `Scope`, `Architecture`, `Development`,
`PromotionReason`, `AuditTarget`, `BlockedOn` and
`PendingVerificationCadence`; Handoff's `Kind`, `From`, `FailureType` and
`Reason` (present and nonempty); `Active` of Recovery and of Outstanding
Obligations. Fields of a section that is missing or repeated are left to
SL201.

**Why.** PROTOCOL.md, Persisted Workflow State gives the shape with every one
of these fields, and Workflow State Reference defines each; of
`PendingVerificationCadence` it says: "This field is required; a missing,
invalid, or repeated value is an inconsistency." `Handoff`: "Use `NONE` for
inapplicable fields" -- a field is never simply left out.

**Fix safety.** Sometimes: a duplicate with the same value is removed (safe).
A missing field is inserted only where the protocol fixes its value:
`PendingVerificationCadence: NONE` in a documentation or inactive cycle,
`CompletionPolicy: NONE` before any cycle or in an expedited or documentation
cycle, and the paired `PendingCycleRequest: UNSET` /
`PendingCycleBlockedOn: NONE`, `Recovery`/`Outstanding Obligations` `Active`
from their entries, `Handoff.FailureType: NONE` for a kind other than
`FAILURE` and `USER_REWORK` (only those route a failure), `PromotionReason:
NONE` in an expedited (not being promoted) or documentation cycle,
`Development: NONE` in a documentation cycle and `Scope`/`Architecture: NONE`
in an expedited one ("remains `NONE`"), and an Active Work path naming this
cycle's only record of its type. In an active cycle, a field that **Start a
cycle** initializes and that later holds only an occasional value gets that
initial value as an unsafe fix (the later value may have been lost with the
field): a STANDARD cycle's `CompletionPolicy` gets `FULL_DELIVERABLE` (not
offered when the request names `IMPLEMENTATION_REVIEWED`),
`PendingVerificationCadence` gets `NONE` (not offered when the request names a
cadence), and `AuditTarget` and `BlockedOn` get `NONE`. Unsafe too, because
another field may be the wrong one: `Handoff.From` and `WorkflowState` where
the handoff determines them (`INITIAL` from `NONE`; `SIGNOFF` from
`AWAITING_USER_SIGNOFF` into `SIGNED_OFF`; a STANDARD `CHECKPOINT` between
`DEVELOPING` and `TESTING`; a `FORWARD`, without recovery frames, one step of
the cycle's route, when exactly one step fits; a handoff still recording the
start of the cycle, the state **Start a cycle** enters), and `CycleMode` where exactly
one mode fits the rest of STATE.md (`UNSET` when terminal or before any cycle;
else by `CompletionPolicy`, the Active Work paths a mode keeps `NONE`,
`CHECKPOINT`/`PROMOTE` handoffs and the mode's route holding `WorkflowState`);
a field repeated with different values keeps the copy holding the value the
protocol or the rest of STATE.md determines (unsafe). A missing or empty `Id`
of an active cycle gets the one cycle ID the Active Work paths are named after
(`.standards/docs/scope/<ID>.md`; unsafe), unless it is a baseline source or
the cycle the last commit finished. Otherwise no fix.
""",
    fix="sometimes",
    bad_example="`AuditTarget`: `NONE` `BlockedOn`: `NONE`",
    good_example="`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`",
    help="Write the field once with its current value (the protocol's shape lists every field; use `NONE` where it does not apply).",
    no_fix_reason="The value of most missing fields is a fact of the cycle that only its roles know.",
)
def state_field_missing(project):
    st = _state(project)
    if st is None:
        return
    text = st.doc.text
    wanted = {
        "header": HEADER_FIELDS,
        "Active Work": ACTIVE_WORK_FIELDS,
        "Handoff": HANDOFF_FIELDS,
        "Recovery": ("Active",),
        "Outstanding Obligations": ("Active",),
    }
    for label, container in _containers(st):
        if container is None:
            continue
        for name in wanted[label]:
            found = _fields(st, container, name)
            q = _qualified(label, name)
            if not found:
                fix = None
                value = _determined_value(st, label, name) or _record_value(project, label, name)
                applicability = "safe"
                if value is None:
                    value, applicability = _initial_value(st, label, name)
                if value is None:
                    value, applicability = _handoff_determined(project, st, label, name), "unsafe"
                at = _insert_after_last(st, container, wanted[label], text)
                insert = f" `{name}`: `{value}`"
                if at is None and container.heading is not None and not container.fields:
                    # A section left with no field: the field goes under its heading.
                    at = container.heading.span.end
                    nl = "\r\n" if "\r\n" in text else "\n"
                    insert = f"{nl}{nl}`{name}`: `{value}`"
                if value is not None and at is not None:
                    fix = Fix((Edit(STATE_PATH, at, at, insert),), applicability,
                              f"Insert `{name}`: `{value}`")
                where_text = "the STATE.md header" if label == "header" else f"`## {label}`"
                yield report(_where(st, container), f"{q} is missing from {where_text}; it must occur exactly once.",
                             fix=fix)
                continue
            if len(found) > 1 and label != "Handoff":
                values = {f.value for f in found}
                fix = None
                if len(values) == 1:
                    edits = tuple(Edit(STATE_PATH, *_remove_field(text, f), "") for f in found[1:])
                    fix = Fix(edits, "safe", f"Remove the repeated `{name}`")
                else:
                    fix = _keep_determined(text, found, _determined_value(st, label, name)
                                           or _handoff_determined(project, st, label, name)
                                           or _only_allowed(st, label, name, values))
                shown = ", ".join(f"`{v}`" for v in dict.fromkeys(f.value for f in found))
                yield report(found[1], f"{q} occurs {len(found)} times ({shown}); it must occur exactly once.",
                             fix=fix)
                continue
            for f in found:
                if not f.value.strip():
                    value = _determined_value(st, label, name) or _record_value(project, label, name)
                    safe = True
                    if value is None:
                        value, applicability = _initial_value(st, label, name)
                        safe = applicability == "safe"
                    if value is None:
                        value, safe = _handoff_determined(project, st, label, name), False
                    fix = None
                    if value is not None and len(found) == 1:
                        fix = replace(STATE_PATH, f.span, f"`{name}`: `{value}`", safe=safe,
                                      description=f"Set `{name}` to `{value}`")
                    yield report((STATE_PATH, f.span), f"{q} is empty; it needs a value.", fix=fix)
                    break


# -- SL203 ----------------------------------------------------------------------
@rule(
    code="SL203",
    name="state-field-invalid",
    section="Workflow State Reference",
    owner="state",
    summary="A STATE.md field with a fixed set of values holds something else.",
    explanation="""
**What it does.** Checks the fields whose values the protocol enumerates:
`WorkflowState` (a workflow state), `CycleMode` and `PendingCycleMode`
(`UNSET`, `STANDARD`, `EXPEDITED`, `DOCUMENTATION`), Active Work
`CompletionPolicy` (`NONE`, `FULL_DELIVERABLE`, `IMPLEMENTATION_REVIEWED`) and
`PendingVerificationCadence` (`NONE`, `INCREMENTAL`, `AFTER_IMPLEMENTATION`),
and `Active` of Recovery and Outstanding Obligations (`true` or `false`).
Values are case-sensitive.

**Why.** PROTOCOL.md, Cycle Modes lists `CycleMode` and `PendingCycleMode`
values; Workflow States lists the states; Workflow State Reference:
"`CompletionPolicy`: required `NONE`, `FULL_DELIVERABLE`, or
`IMPLEMENTATION_REVIEWED`" and "`PendingVerificationCadence`: `NONE`,
`INCREMENTAL`, or `AFTER_IMPLEMENTATION` ... a missing, invalid, or repeated
value is an inconsistency."

**Fix safety.** Sometimes: the template's angle brackets around a valid value are dropped (safe); a value differing only in letter case, spaces or hyphens from exactly one allowed value, or one typo away from exactly one, is respelt (unsafe: a state change the user confirms). Any other value is replaced (unsafe) by the value the rest of STATE.md determines, where SL202 would insert one for the missing field: `Active` from the frames or obligations, `CompletionPolicy: NONE` outside a standard cycle, `PendingVerificationCadence: NONE` in a documentation or inactive cycle, `WorkflowState` from the handoff's route and `CycleMode` from the fields a mode fixes. Otherwise no fix.
""",
    bad_example="`WorkflowState`: `REVIEWING IMPLEMENTATION`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION`",
    fix="sometimes",
    help="Replace the value with one of the listed values, the one the cycle is actually in.",
    no_fix_reason="A value that is not a misspelling of exactly one allowed value has no unmistakable intent.",
)
def state_field_invalid(project):
    st = _state(project)
    if st is None:
        return
    for label, container in _containers(st):
        if container is None:
            continue
        for (lab, name), allowed in ENUMS.items():
            if lab != label:
                continue
            f = _one(st, container, name)
            if f is None or not f.value.strip() or f.value in allowed:
                continue
            q = _qualified(label, name)
            yield report((STATE_PATH, f.value_span),
                         f"{q} is `{f.value}`, which is not one of {', '.join(allowed)}.",
                         meant_value(STATE_PATH, f, allowed) or _invalid_value_fix(project, st, label, name, f))


def _invalid_value_fix(project, st, label: str, name: str, f: Field) -> Optional[Fix]:
    """Unsafe fix of an enumerated value that is no misspelling: the value
    the rest of STATE.md determines for the field (as for a missing one),
    when there is one; the invalid value may have meant something else."""
    value = _determined_value(st, label, name) or _handoff_determined(project, st, label, name)
    if value is None:
        return None
    return replace(STATE_PATH, f.value_span, value, safe=False,
                   description=f"Set {_qualified(label, name)} to `{value}`, the value the rest of STATE.md determines")


# -- SL204 ----------------------------------------------------------------------
@rule(
    code="SL204",
    name="terminal-cycle-mode",
    section="Cycle Modes",
    owner="state",
    summary="SIGNED_OFF and CANCELLED reset CycleMode to UNSET.",
    explanation="""
**What it does.** Checks that when `WorkflowState` is `SIGNED_OFF` or
`CANCELLED`, `CycleMode` is `UNSET`.

**Why.** PROTOCOL.md, Cycle Modes rule 1: "Terminal `SIGNED_OFF` and retained
`CANCELLED` states reset `CycleMode` to `UNSET` after the completed or
cancelled cycle's mode-specific transition rules have been applied". A
terminal state that still carries a mode leaves it unclear whether a cycle is
active.

**Fix safety.** Unsafe: setting `CycleMode: UNSET` is right if the cycle did
end; if `WorkflowState` is the wrong field, the fix hides that.
""",
    fix="unsafe",
    bad_example="`WorkflowState`: `SIGNED_OFF` `CycleMode`: `STANDARD`",
    good_example="`WorkflowState`: `SIGNED_OFF` `CycleMode`: `UNSET`",
    help="Set `CycleMode` to `UNSET` if the cycle really ended; otherwise correct `WorkflowState`.",
)
def terminal_cycle_mode(project):
    st = _state(project)
    if st is None:
        return
    ws = _value(st, st.header, "WorkflowState")
    mode = _one(st, st.header, "CycleMode")
    if ws not in TERMINAL_STATES or mode is None or mode.value not in CYCLE_MODES or mode.value == "UNSET":
        return
    fix = replace(STATE_PATH, mode.value_span, "UNSET", safe=False, description="Reset CycleMode to UNSET")
    yield report((STATE_PATH, mode.value_span),
                 f"WorkflowState is {ws}, so the cycle has ended and CycleMode must be reset to UNSET; "
                 f"it is {mode.value}.", fix=fix)


# -- SL205 ----------------------------------------------------------------------
@rule(
    code="SL205",
    name="pending-request-pairing",
    section="Cycle Modes",
    owner="state",
    summary="PendingCycleRequest is UNSET exactly when PendingCycleBlockedOn is NONE.",
    explanation="""
**What it does.** Checks the pairing of the two pre-cycle fields: a saved
`PendingCycleRequest` needs the `PendingCycleBlockedOn` question that blocks
it, and a blocker needs its request.

**Why.** PROTOCOL.md, Cycle Modes: "`PendingCycleRequest` and
`PendingCycleBlockedOn` are paired: the request is `UNSET` exactly when the
blocker is `NONE`."

**Fix safety.** No fix: either the request or the question is missing, and
only the user knows which.
""",
    bad_example="`PendingCycleRequest`: `Add search.` `PendingCycleBlockedOn`: `NONE`",
    good_example="`PendingCycleRequest`: `Add search.` `PendingCycleBlockedOn`: `Choose a mode supported by GREENFIELD.`",
    help="Either record the pending request and its blocking question, or set `PendingCycleRequest`: `UNSET` and `PendingCycleBlockedOn`: `NONE`.",
    no_fix_reason="Either the request or the question is missing, and only the user knows which.",
)
def pending_request_pairing(project):
    st = _state(project)
    if st is None:
        return
    req = _one(st, st.header, "PendingCycleRequest")
    blk = _one(st, st.header, "PendingCycleBlockedOn")
    if req is None or blk is None or not req.value.strip() or not blk.value.strip():
        return
    if (req.value == "UNSET") == (blk.value == "NONE"):
        return
    if req.value == "UNSET":
        yield report((STATE_PATH, blk.value_span),
                     f"PendingCycleBlockedOn is `{blk.value}` but PendingCycleRequest is UNSET; "
                     "a pre-cycle blocker needs the blocked request (they are paired).")
    else:
        yield report((STATE_PATH, blk.value_span),
                     f"PendingCycleRequest holds `{req.value}` but PendingCycleBlockedOn is NONE; "
                     "a saved request needs the pre-cycle question that blocks it (they are paired).")


# -- SL206 ----------------------------------------------------------------------
@rule(
    code="SL206",
    name="inactive-pending-cadence",
    section="Workflow State Reference",
    owner="state",
    summary="With no active cycle, PendingVerificationCadence is NONE.",
    explanation="""
**What it does.** Checks that `Active Work.PendingVerificationCadence` is
`NONE` while `CycleMode` is `UNSET` and no cycle is active (none started, or
the state is terminal). A started cycle whose `CycleMode` is `UNSET` is
reported by the cycle-mode rules instead.

**Why.** PROTOCOL.md, Workflow State Reference: "Initialize and clear it under
the cycle lifecycle rules; never carry it into a new cycle." Installation
initializes `Active Work.PendingVerificationCadence: NONE`, and **Start a
cycle** persists `PendingVerificationCadence: NONE`; a pending cadence request
belongs to an active cycle's Developer.

**Fix safety.** Safe: with no cycle active the value must be `NONE`.
""",
    fix="safe",
    bad_example="`WorkflowState`: `SIGNED_OFF` `CycleMode`: `UNSET` ... `PendingVerificationCadence`: `INCREMENTAL`",
    good_example="`WorkflowState`: `SIGNED_OFF` `CycleMode`: `UNSET` ... `PendingVerificationCadence`: `NONE`",
    help="Set `PendingVerificationCadence` to `NONE` (no cycle is active).",
)
def inactive_pending_cadence(project):
    st = _state(project)
    if st is None:
        return
    if _value(st, st.header, "CycleMode") != "UNSET" or not _is_inactive(st):
        return  # a started cycle with CycleMode UNSET is the cycle-mode rules' finding (SL3xx)
    f = _one(st, st.section("Active Work"), "PendingVerificationCadence")
    if f is None or f.value not in VERIFICATION_CADENCES or f.value == "NONE":
        return
    fix = replace(STATE_PATH, f.value_span, "NONE", safe=True,
                  description="Clear the pending verification cadence")
    yield report((STATE_PATH, f.value_span),
                 f"No cycle is active (CycleMode is UNSET), so PendingVerificationCadence must be NONE; "
                 f"it is {f.value}.", fix=fix)


# -- Baseline Reconciliation Format -------------------------------------------
def _baseline(st):
    """(field, entries) when Active Work holds BaselineReconciliation once in
    the list form, else None."""
    aw = st.section("Active Work")
    found = _fields(st, aw, "BaselineReconciliation")
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


def _own_line(text: str, f: Field) -> bool:
    ls = text.rfind("\n", 0, f.span.start) + 1
    le = text.find("\n", f.span.end)
    le = len(text) if le == -1 else le
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
    st = _state(project)
    if st is None:
        return
    aw = st.section("Active Work")
    if aw is None or _fields(st, aw, "BaselineReconciliation"):
        return
    yield report(aw.heading, "Active Work has no `BaselineReconciliation`; write `` `BaselineReconciliation`: `NONE` `` "
                             "or the list of unresolved cancelled source cycles.", fix=_initial_baseline_fix(st, aw))


def _initial_baseline_fix(st, aw) -> Optional[Fix]:
    """Unsafe fix while the handoff is still `INITIAL`: the installed state or
    the first cycle, which no cancelled cycle preceded (a cancellation is
    followed by a `NEW_CYCLE`), so there is no source to reconcile and the
    value is `NONE`.  Inserted on its own line after the last Active Work
    field; unsafe, because the kind may be the wrong field."""
    if _value(st, st.section("Handoff"), "Kind") != "INITIAL" or not aw.fields or aw.items:
        return None
    text = st.doc.text
    last = max(f.span.end for f in aw.fields)
    eol = text.find("\n", last)
    eol = len(text) if eol == -1 else eol
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
    st = _state(project)
    if st is None:
        return
    found = _fields(st, st.section("Active Work"), "BaselineReconciliation")
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
        if _own_line(text, f):
            ls = text.rfind("\n", 0, f.span.start) + 1
            le = text.find("\n", f.span.end)
            edits.append((ls, len(text) if le == -1 else le + 1))
        else:
            edits.append(_remove_field(text, f))
    first = found[0]
    ls = text.rfind("\n", 0, first.span.start) + 1
    le = text.find("\n", first.span.end)
    le = len(text) if le == -1 else le
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
    st = _state(project)
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


def _item_lines(text: str, item: ListItem) -> Optional[tuple[int, int]]:
    """The whole lines of *item* with their line ending, when nothing else
    shares them."""
    ls = text.rfind("\n", 0, item.span.start) + 1
    le = text.find("\n", item.span.end)
    le = len(text) if le == -1 else le + 1
    if text[ls:item.span.start].strip() or text[item.span.end:le].strip():
        return None
    return ls, le


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
    st = _state(project)
    if st is None:
        return
    entries = _checked_entries(st) or ()
    cid = _value(st, st.section("Active Work"), "Id")
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
    from standards_lint.model.record_provenance import project_records

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
    st = _state(project)
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
        line_start = text.rfind("\n", 0, start) + 1
        if not text[line_start:start].strip():
            start = line_start
        end = max([item.span.end] + [f.span.end for f in item.fields])
        nl = text.find("\n", end)
        end = len(text) if nl == -1 else nl + 1
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
    st = _state(project)
    if st is None:
        return
    cid = _value(st, st.section("Active Work"), "Id")
    if cid is None or cid == "UNSET":
        return
    for item, src, _req in _checked_entries(st) or ():
        if src.value == cid:
            yield report((STATE_PATH, src.value_span),
                         f"BaselineReconciliation lists the active cycle `{cid}` itself; it lists only cancelled "
                         "source cycles.")


# -- Handoff values ------------------------------------------------------------
def _handoff_values(st, name: str):
    ho = st.section("Handoff")
    for f in _fields(st, ho, name):
        if f.value.strip():
            yield f


@rule(
    code="SL220",
    name="handoff-kind-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.Kind is one of the protocol's handoff kinds.",
    explanation="""
**What it does.** Checks that `Handoff.Kind` is one of `INITIAL`, `FORWARD`,
`CHECKPOINT`, `FAILURE`, `RESUME`, `PROMOTE`, `USER_REWORK`, `NEW_CYCLE`,
`SIGNOFF`, `CANCEL`, `COMPLETION_CHANGE`.

**Why.** PROTOCOL.md, Workflow State Reference, Handoff: "`Handoff.Kind` is
one of `INITIAL`, `FORWARD`, `CHECKPOINT`, `FAILURE`, `RESUME`, `PROMOTE`,
`USER_REWORK`, `NEW_CYCLE`, `SIGNOFF`, `CANCEL`, or `COMPLETION_CHANGE`."

**Fix safety.** Sometimes: a value that is one kind misspelt (letter case,
spaces or hyphens for underscores, one typo) is respelt (unsafe: the user
confirms the transition). Otherwise no fix: the kind records which transition
happened.
""",
    fix="sometimes",
    bad_example="`Kind`: `NEW CYCLE`",
    good_example="`Kind`: `NEW_CYCLE`",
    help="Set `Handoff.Kind` to the kind of the last transition (INITIAL, NEW_CYCLE, FORWARD, FAILURE, USER_REWORK, RESUME, CHECKPOINT, PROMOTE or COMPLETION_CHANGE).",
    no_fix_reason="Unless the value is one kind misspelt, the kind records which transition happened.",
)
def handoff_kind_unknown(project):
    yield from _handoff_value_not_in(project, "Kind", HANDOFF_KINDS, "Handoff.Kind `{value}` is not a handoff kind; "
                                     f"use one of {', '.join(HANDOFF_KINDS)}.",
                                     lambda st, f: meant_value(STATE_PATH, f, HANDOFF_KINDS))


@rule(
    code="SL221",
    name="handoff-from-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.From is a workflow state or NONE.",
    explanation="""
**What it does.** Checks that `Handoff.From` is a workflow state or `NONE`.

**Why.** PROTOCOL.md, Handoff Rules and Workflow State Reference: the handoff
"records the source state in `From`", and "Use `NONE` for inapplicable
fields".

**Fix safety.** Sometimes (unsafe): when the handoff's kind and
`WorkflowState` determine the source -- `INITIAL` from `NONE`, `SIGNOFF` from
`AWAITING_USER_SIGNOFF`, a STANDARD `CHECKPOINT` from the other side of the
Developer/Tester exchange, a `FORWARD` (without recovery frames) from the one
state before `WorkflowState` on the cycle's route -- `From` is set to it.
Unsafe: the kind or the state may be the wrong field. Otherwise a value that
is one state misspelt is respelt (unsafe). Otherwise no fix: the source state
is a fact of the last transition.
""",
    fix="sometimes",
    bad_example="`From`: `REVIEWING FINAL`",
    good_example="`From`: `REVIEWING_FINAL`",
    help="Set `Handoff.From` to the state the last transition left (or `NONE` for INITIAL).",
    no_fix_reason="Unless the handoff's kind and route determine it, the source state is a fact of the last transition.",
)
def handoff_from_unknown(project):
    def fix(st, f):
        if len(_fields(st, st.section("Handoff"), "From")) != 1:
            return None
        want = determined_from(project, st)
        if want is None:
            return meant_value(STATE_PATH, f, ("NONE",) + WORKFLOW_STATES)
        return replace(STATE_PATH, f.value_span, want, safe=False,
                       description=f"Set Handoff.From to `{want}`, the state the handoff's route determines")

    yield from _handoff_value_not_in(project, "From", ("NONE",) + WORKFLOW_STATES,
                                     "Handoff.From `{value}` is not a workflow state (or NONE).", fix)


def _handoff_value_not_in(project, name: str, allowed, message: str, fix=None):
    """A finding at each `Handoff.<name>` value outside `allowed`;
    ``fix(st, field)`` makes its fix."""
    st = _state(project)
    if st is None:
        return
    for f in _handoff_values(st, name):
        if f.value not in allowed:
            yield report((STATE_PATH, f.value_span), message.format(value=f.value),
                         fix(st, f) if fix is not None else None)


@rule(
    code="SL222",
    name="handoff-failure-type-unknown",
    section="Workflow State Reference",
    owner="state",
    summary="Handoff.FailureType is a failure type or NONE.",
    explanation="""
**What it does.** Checks that `Handoff.FailureType` is one of the failure
types (`SCOPING`, `ARCHITECTURE`, `PROJECT_CONTEXT`, `IMPLEMENTATION`,
`VERIFICATION`, `DOCUMENTATION`, `REVIEW`, `SYNCHRONIZATION`) or `NONE`.

**Why.** PROTOCOL.md, Failure Types lists the types; Workflow State Reference:
"Use `NONE` for inapplicable fields."

**Fix safety.** Sometimes (unsafe): a handoff kind other than `FAILURE` and
`USER_REWORK` routes no failure, so its `FailureType` is set to `NONE`; for
those two, a value that is one type misspelt is respelt. Unsafe: the kind may
be the wrong field. Otherwise no fix: the type decides who owns the
correction.
""",
    fix="sometimes",
    bad_example="`FailureType`: `TODO`",
    good_example="`FailureType`: `NONE`",
    help="Set `Handoff.FailureType` to the failure type being routed, or `NONE`.",
    no_fix_reason="Unless the handoff kind routes no failure or the value is one type misspelt, the type decides who owns the correction.",
)
def handoff_failure_type_unknown(project):
    def fix(st, f):
        kind = _value(st, st.section("Handoff"), "Kind")
        if len(_fields(st, st.section("Handoff"), "FailureType")) == 1 and _determined_value(
                st, "Handoff", "FailureType") == "NONE" and kind is not None:
            return replace(STATE_PATH, f.value_span, "NONE", safe=False,
                           description=f"Set Handoff.FailureType to `NONE`: a {kind} handoff routes no failure")
        return meant_value(STATE_PATH, f, ("NONE",) + FAILURE_TYPES)

    yield from _handoff_value_not_in(project, "FailureType", ("NONE",) + FAILURE_TYPES,
                                     "Handoff.FailureType `{value}` is not a failure type (or NONE).", fix)


@rule(
    code="SL223",
    name="handoff-field-repeated",
    section="Workflow State Reference",
    owner="state",
    summary="Each Handoff field occurs once.",
    explanation="""
**What it does.** Checks that `Kind`, `From`, `FailureType` and `Reason` each
occur at most once in `## Handoff` (a missing one is SL202).

**Why.** PROTOCOL.md, Workflow State Reference, Handoff: "`Reason` describes
only the latest transition", and the handoff records one transition: one kind,
one source state, one failure type. Two `Kind` values leave the last
transition ambiguous; every rule that routes by the handoff reads the first
one, as the framework's checker does.

**Fix safety.** Safe when the copies hold the same value (the repeat is
removed). For `From` copies that differ, when the handoff's kind and
`WorkflowState` determine the source (as for SL221) and one copy holds it,
the other copies are removed (unsafe). Otherwise no fix.
""",
    fix="sometimes",
    beyond_checker=True,
    bad_example="`Kind`: `INITIAL` `Kind`: `CHECKPOINT` `From`: `NONE`",
    good_example="`Kind`: `INITIAL` `From`: `NONE`",
    help="Keep each Handoff field once, with the value of the last transition.",
    no_fix_reason="The copies hold different values; which one the last transition wrote is not known.",
)
def handoff_field_repeated(project):
    st = _state(project)
    if st is None:
        return
    ho = st.section("Handoff")
    text = st.doc.text
    for name in HANDOFF_FIELDS:
        found = _fields(st, ho, name)
        if len(found) < 2:
            continue
        fix = None
        if len({f.value for f in found}) == 1:
            fix = Fix(tuple(Edit(STATE_PATH, *_remove_field(text, f), "") for f in found[1:]), "safe",
                      f"Remove the repeated `{name}`")
        elif name == "From":
            fix = _keep_determined(text, found, determined_from(project, st))
        shown = ", ".join(f"`{v}`" for v in dict.fromkeys(f.value for f in found))
        yield report(found[1], f"Handoff.{name} occurs {len(found)} times ({shown}); it must occur once.", fix=fix)


standards_lint_rules = module_rules(globals())
