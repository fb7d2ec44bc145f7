"""Persisted Workflow State / Workflow State Reference: the structure of
``.standards/STATE.md``.

The title, the five header fields, the four sections, every required field of
``Active Work``, ``Handoff``, ``Recovery`` and ``Outstanding Obligations``
exactly once with a valid value, the pending-cycle pairing, the terminal-state
reset of ``CycleMode`` (Cycle Modes rule 1) and the inactive-cycle cadence.
The Baseline Reconciliation Format is checked in ``baseline_reconciliation``,
the Handoff values in ``handoff_values``.

Every rule stays silent about a STATE.md that holds merge-conflict markers:
the conflict rule (SL110) reports it, and its structure cannot be judged until
the user keeps exactly one side.
"""

from __future__ import annotations

from typing import Optional

from standards_lint.syntax.ast import Container, Field
from standards_lint.engine.findings import Edit, Fix
from standards_lint.syntax.protocol import (
    COMPLETION_POLICIES,
    ROUTE_DOCUMENTATION,
    ROUTE_EXPEDITED,
    CYCLE_MODES,
    PENDING_CYCLE_MODES,
    TERMINAL_STATES,
    VERIFICATION_CADENCES,
    WORKFLOW_STATES,
)
from standards_lint.engine.rule import heading_fix, module_rules, replace, report, rule
from standards_lint.syntax.state import HANDOFF_FIELDS, HEADER_FIELDS, SECTIONS
from standards_lint.fixes.spelling import meant_value
from standards_lint.fixes.state import keep_determined_fix, remove_field_span, section_respell_fix
from standards_lint.model.state_values import (
    STATE_PATH,
    declared_project_mode,
    determined_from,
    determined_value,
    handoff_step_end,
    is_inactive,
    only_value,
    state_fields,
    state_model,
    state_one,
    state_value,
)
from standards_lint.model.record_paths import kept_none
from standards_lint.model.record_provenance import only_record
from standards_lint.model.cycle_ids import path_id
from standards_lint.model.route import ALLOWED_POLICIES, ENTRY_STATE
from standards_lint.fixes.reveals import REVEALS

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
        for f in state_fields(st, container, n):
            if last is None or f.span.end > last:
                last = f.span.end
    return last


def _only_allowed(st, label: str, name: str, values) -> Optional[str]:
    """Of the values of a repeated `CompletionPolicy`, the one the cycle's
    mode allows, when exactly one is: a STANDARD cycle has
    `FULL_DELIVERABLE` or `IMPLEMENTATION_REVIEWED`, an expedited or
    documentation cycle `NONE` (Completion Policies)."""
    if (label, name) != ("Active Work", "CompletionPolicy"):
        return None
    mode = state_value(st, st.header, "CycleMode")
    allowed = ALLOWED_POLICIES.get(mode or "")
    if allowed is None:
        return None
    return only_value(v for v in values if v in allowed)


def _initial_value(st, label: str, name: str) -> tuple[Optional[str], str]:
    """(value, "unsafe") for a missing Active Work field the protocol
    initializes when a cycle starts and that usually keeps that value, when
    the cycle is active; (None, "") otherwise.  Unsafe: a later value (a
    pending cadence request, a user question) may have been lost with the
    field."""
    if label != "Active Work":
        return None, ""
    aw = st.section("Active Work")
    cid = state_value(st, aw, "Id")
    mode = state_value(st, st.header, "CycleMode")
    if cid in (None, "UNSET", "NONE") or is_inactive(st) or mode not in ("STANDARD", "EXPEDITED", "DOCUMENTATION"):
        return None, ""
    request = state_value(st, aw, "Request") or ""
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


def determined_state(project, st) -> Optional[str]:
    """The `WorkflowState` that the handoff determines, or None: a
    `CHECKPOINT` hands the STANDARD Developer/Tester exchange to the other
    side, `SIGNOFF` ends in `SIGNED_OFF`, and a `FORWARD` moves to the one
    state after `Handoff.From` on the cycle's route."""
    ho = st.section("Handoff")
    kind, frm = state_value(st, ho, "Kind"), state_value(st, ho, "From")
    return handoff_step_end(project, st, kind, frm, after=True)


def _start_state(project, st) -> Optional[str]:
    """The state a cycle starts in (Start a cycle), for a handoff that still
    records the start: `INITIAL`, or `NEW_CYCLE` from `SIGNED_OFF`.
    `AUDITING` while reconciliation is unresolved or in a documentation cycle;
    otherwise `DEVELOPING` for an expedited cycle, and the standard entry state
    for the project mode (`SCOPING` for GREENFIELD, `AUDITING` for BROWNFIELD).
    (After `CANCELLED` the cancelled changes may be retained: not known.)"""
    ho = st.section("Handoff")
    kind, frm = state_value(st, ho, "Kind"), state_value(st, ho, "From")
    if not (kind == "INITIAL" or (kind == "NEW_CYCLE" and frm == "SIGNED_OFF")):
        return None
    aw = st.section("Active Work")
    cid = state_value(st, aw, "Id")
    if cid == "UNSET" and kind == "INITIAL":
        # Installation: "`SCOPING` for `GREENFIELD`, `AUDITING` for `BROWNFIELD`".
        return ENTRY_STATE.get(declared_project_mode(project) or "")
    if cid in (None, "UNSET", "NONE"):
        return None
    base = state_fields(st, aw, "BaselineReconciliation")
    if len(base) != 1:
        return None
    mode = state_value(st, st.header, "CycleMode")
    if mode == "DOCUMENTATION" or (base[0].bare and base[0].value == ""):
        return "AUDITING" if mode in CYCLE_MODES and mode != "UNSET" else None
    if base[0].value != "NONE":
        return None
    if mode == "EXPEDITED":
        return "DEVELOPING"
    if mode == "STANDARD":
        return ENTRY_STATE.get(declared_project_mode(project) or "")
    return None


def inferred_cycle_mode(st, modes=CYCLE_MODES) -> Optional[str]:
    """The `CycleMode` the rest of STATE.md leaves possible, when exactly one
    is: `UNSET` in a terminal state (Cycle Modes rule 1) or before any cycle;
    otherwise the one mode consistent with `CompletionPolicy` (only STANDARD
    cycles have a policy), `Development` (NONE throughout a documentation
    cycle), `Scope`/`Architecture` (NONE in an unpromoted expedited cycle),
    the handoff kind (CHECKPOINT and PROMOTE are STANDARD's) and the mode's
    route holding `WorkflowState`."""
    ws = state_value(st, st.header, "WorkflowState")
    if ws not in WORKFLOW_STATES:
        return None
    if ws in TERMINAL_STATES:
        return "UNSET"
    aw = st.section("Active Work")
    cid = state_value(st, aw, "Id")
    if cid is None:
        return None
    if cid == "UNSET":
        return "UNSET"
    left = {"STANDARD", "EXPEDITED", "DOCUMENTATION"} & set(modes)  # the modes of the project's release
    policy = state_value(st, aw, "CompletionPolicy")
    if policy in ("FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"):
        left &= {"STANDARD"}
    elif policy == "NONE":
        left -= {"STANDARD"}
    dev = state_value(st, aw, "Development")
    if dev is not None and dev != "NONE":
        left.discard("DOCUMENTATION")
    if any((state_value(st, aw, n) or "NONE") != "NONE" for n in ("Scope", "Architecture")):
        left.discard("EXPEDITED")
    if state_value(st, st.section("Handoff"), "Kind") in ("CHECKPOINT", "PROMOTE"):
        left &= {"STANDARD"}
    if ws not in ROUTE_EXPEDITED:
        left.discard("EXPEDITED")
    if ws not in ROUTE_DOCUMENTATION:
        left.discard("DOCUMENTATION")
    return only_value(left)


def _handoff_determined(project, st, label: str, name: str) -> Optional[str]:
    """A missing or empty value that the rest of STATE.md determines (unsafe:
    which of two disagreeing fields is wrong is not known)."""
    if label == "Handoff" and name == "From":
        return determined_from(project, st)
    if label == "header" and name == "WorkflowState":
        return determined_state(project, st) or _start_state(project, st)
    if label == "header" and name == "CycleMode":
        return inferred_cycle_mode(st, project.release.cycle_modes)
    if label == "Active Work" and name == "Id" and state_value(st, st.header, "WorkflowState") not in TERMINAL_STATES:
        return path_id(project)
    return None


_POINTER_TYPES = {"Scope": "SCOPE", "Architecture": "ARCHITECTURE", "Development": "DEVELOPMENT"}


def _record_value(project, label: str, name: str) -> Optional[str]:
    """For a missing Active Work path field: the path of this cycle's one
    record of that type, when exactly one exists."""
    if label != "Active Work" or name not in _POINTER_TYPES:
        return None

    if kept_none(state_value(project.state, project.state.header, "CycleMode"), name):
        return None  # the mode keeps the field NONE
    rec = only_record(project, _POINTER_TYPES[name])
    return rec.path if rec is not None else None


def _absent_value(project, st, label: str, name: str) -> tuple[Optional[str], str]:
    """(value, applicability) for a missing or empty field: what the rest of
    STATE.md or this cycle's one record determines (safe), else the value a
    started cycle initializes (unsafe), else what the handoff determines
    (unsafe); (None, "unsafe") when nothing does."""
    value = determined_value(st, label, name) or _record_value(project, label, name)
    if value is not None:
        return value, "safe"
    value, applicability = _initial_value(st, label, name)
    if value is not None:
        return value, applicability
    return _handoff_determined(project, st, label, name), "unsafe"


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
    st = state_model(project)
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
`.standards/STATE.md`, with exactly that heading text (one space after the
hashes; the framework does not read `##  Recovery` or `## recovery`). The
other rules still read such a section, and a repeated one as its first copy
with content: a broken heading silences nothing but itself.

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
    st = state_model(project)
    if st is None:
        return
    for title in SECTIONS:
        found = st.sections(title)
        if len(found) == 1:
            h = found[0].heading
            if h.gap != " ":  # `##  Recovery`: read, but not as the framework reads it (indentation it reads)
                written = st.doc.text[h.span.start:h.span.end].strip()
                yield report(h, f"STATE.md has no `## {title}` section; the heading `{written}` must read exactly "
                                f"`## {title}`.", heading_fix(st.doc, h, f"Spell the heading `## {title}`"))
            continue
        if not found:
            key = " ".join(title.split()).casefold()
            near = [s for s in st.doc.sections if " ".join(s.title.split()).casefold() == key]
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
    if any(sec not in order for sec in found):
        return None  # a `###` copy: its extent is not a `##` section's
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
def _where_text(label: str) -> str:
    return "the STATE.md header" if label == "header" else f"`## {label}`"


@rule(
    code="SL202",
    reveals=REVEALS["SL202"],
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
A field whose name differs only in letter case (`cycleMode`), the one such
field, gets its name respelt (safe: the value is the author's, never replaced
by an inferred one). A missing field is inserted only where the protocol fixes its value:
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
    st = state_model(project)
    if st is None:
        return
    text = st.doc.text
    wanted = {
        "header": HEADER_FIELDS,
        "Active Work": project.release.active_work_fields,
        "Handoff": HANDOFF_FIELDS,
        "Recovery": ("Active",),
        "Outstanding Obligations": ("Active",),
    }
    for label, container in _containers(st):
        if container is None:
            continue
        for name in wanted[label]:
            found = state_fields(st, container, name)
            # The checker bounds a section by the next `##` heading: an `Active`
            # under a frame or obligation (where a `# Outstanding Obligations`
            # one level up leaves its field) is the section's too.
            nested = [f for sub in container.subsections for f in sub.all_fields(name)] if label in (
                "Recovery", "Outstanding Obligations") else []
            if nested:
                found = sorted(found + nested, key=lambda f: f.span.start)
            q = _qualified(label, name)
            if not found:
                drift = [f for f in container.fields if f.name.lower() == name.lower()]
                if len(drift) == 1 and not st.borrowed(drift[0]):
                    # The field is there with its name in another letter case
                    # (`cycleMode`): the checker does not read it, but the value
                    # is the author's; respell the name, never infer another value.
                    yield report(_where(st, container),
                                 f"{q} is missing from {_where_text(label)}; it must occur exactly once "
                                 f"(`{drift[0].name}` differs in letter case and is not read).",
                                 fix=replace(STATE_PATH, drift[0].name_span, f"`{name}`",
                                             description=f"Spell the field name `{name}`"))
                    continue
                fix = None
                value, applicability = _absent_value(project, st, label, name)
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
                yield report(_where(st, container), f"{q} is missing from {_where_text(label)}; it must occur exactly once.",
                             fix=fix)
                continue
            if len(found) > 1 and label != "Handoff":
                values = {f.value for f in found}
                fix = None
                if nested or any(st.borrowed(f) for f in found):
                    pass  # a `###` section's own field, read by the `##` above it: the heading is the user's to fix
                elif len(values) == 1:
                    edits = tuple(Edit(STATE_PATH, *remove_field_span(text, f), "") for f in found[1:])
                    fix = Fix(edits, "safe", f"Remove the repeated `{name}`")
                else:
                    fix = keep_determined_fix(text, found, determined_value(st, label, name)
                                           or _handoff_determined(project, st, label, name)
                                           or _only_allowed(st, label, name, values))
                shown = ", ".join(f"`{v}`" for v in dict.fromkeys(f.value for f in found))
                yield report(found[1], f"{q} occurs {len(found)} times ({shown}); it must occur exactly once.",
                             fix=fix)
                continue
            for f in found:
                if not f.value.strip():
                    value, applicability = _absent_value(project, st, label, name)
                    fix = None
                    if value is not None and len(found) == 1:
                        fix = replace(STATE_PATH, f.span, f"`{name}`: `{value}`", safe=applicability == "safe",
                                      description=f"Set `{name}` to `{value}`")
                    yield report((STATE_PATH, f.span), f"{q} is empty; it needs a value.", fix=fix)
                    break


# -- SL203 ----------------------------------------------------------------------
@rule(
    code="SL203",
    reveals=REVEALS["SL203"],
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

**Fix safety.** Sometimes: a valid value written with spaces inside its backticks (`` `false ` ``) is trimmed (safe: the text is the one written); the template's angle brackets around a valid value are dropped (safe); a value differing only in letter case, spaces or hyphens from exactly one allowed value, or one typo away from exactly one, is respelt (unsafe: a state change the user confirms). Any other value is replaced (unsafe) by the value the rest of STATE.md determines, where SL202 would insert one for the missing field: `Active` from the frames or obligations, `CompletionPolicy: NONE` outside a standard cycle, `PendingVerificationCadence: NONE` in a documentation or inactive cycle, `WorkflowState` from the handoff's route and `CycleMode` from the fields a mode fixes. Otherwise no fix.
""",
    bad_example="`WorkflowState`: `REVIEWING IMPLEMENTATION`",
    good_example="`WorkflowState`: `REVIEWING_IMPLEMENTATION`",
    fix="sometimes",
    help="Replace the value with one of the listed values, the one the cycle is actually in.",
    no_fix_reason="A value that is not a misspelling of exactly one allowed value has no unmistakable intent.",
)
def state_field_invalid(project):
    st = state_model(project)
    if st is None:
        return
    release = project.release
    for label, container in _containers(st):
        if container is None:
            continue
        for (lab, name), allowed in ENUMS.items():
            if lab != label or name in st.derived:
                continue
            if name in ("CycleMode", "PendingCycleMode"):
                allowed = release.cycle_modes
            f = state_one(st, container, name)
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
    value = determined_value(st, label, name) or _handoff_determined(project, st, label, name)
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
    st = state_model(project)
    if st is None:
        return
    ws = state_value(st, st.header, "WorkflowState")
    mode = state_one(st, st.header, "CycleMode")
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
    st = state_model(project)
    if st is None:
        return
    req = state_one(st, st.header, "PendingCycleRequest")
    blk = state_one(st, st.header, "PendingCycleBlockedOn")
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
    st = state_model(project)
    if st is None:
        return
    if state_value(st, st.header, "CycleMode") != "UNSET" or not is_inactive(st):
        return  # a started cycle with CycleMode UNSET is the cycle-mode rules' finding (SL3xx)
    f = state_one(st, st.section("Active Work"), "PendingVerificationCadence")
    if f is None or f.value not in VERIFICATION_CADENCES or f.value == "NONE":
        return
    fix = replace(STATE_PATH, f.value_span, "NONE", safe=True,
                  description="Clear the pending verification cadence")
    yield report((STATE_PATH, f.value_span),
                 f"No cycle is active (CycleMode is UNSET), so PendingVerificationCadence must be NONE; "
                 f"it is {f.value}.", fix=fix)


standards_lint_rules = module_rules(globals())
