"""Recovery fixes several rules share: the stale-frame fix (removing frames
the state and the last handoff contradict), the pushed-state and routed-type
fixes of a corrective handoff, and clearing an Active flag."""

from __future__ import annotations

import re
from typing import Optional

from standards_lint.engine.findings import Edit, Fix
from standards_lint.model.recovery import (
    CORRECTIVE_KINDS,
    DOC_UNROUTABLE,
    Frame,
    cycle_mode_of,
    entry_states,
    frame_broken,
    frame_fits_state,
    frame_owners,
    frames,
    handoff_explains_state,
    never_reached,
    plural_phrase,
    pushed_state,
    routed_type,
    workflow_state_of,
)
from standards_lint.syntax.protocol import TERMINAL_STATES
from standards_lint.engine.rule import replace, report


def flag_fix(active, want: str, title: str) -> Fix:
    """Set the section's ``Active`` value to *want*."""
    return replace(active.path, active.value_span, want, description=f"Set {title}.Active to `{want}`.")


def clear_flag_fix(project, obligations: bool = False) -> Optional[Fix]:
    """SL501's (SL502's when *obligations*) fix when the section holds no
    entries but its `Active` says `true`: set it to `false`.  Rules that
    read the flag as "recovery is active" carry it too."""
    st = project.state
    if st is None:
        return None
    section = st.obligations if obligations else st.recovery
    if section is None or list(section.subsections):
        return None
    active = st.one(section, "Active")
    if active is None or active.value != "true":
        return None
    return flag_fix(active, "false", "Outstanding Obligations" if obligations else "Recovery")


def stale_pop(project) -> Optional[tuple[int, Fix]]:
    """The frames the project's other files show stale, as (frames kept,
    the fix removing the others), or None.

    - The last handoff starts the cycle (`INITIAL` or `NEW_CYCLE`) and the
      state is still the cycle's entry state: a cycle starts with recovery
      inactive (Start a cycle: "Recovery and outstanding obligations
      inactive"), and any push since would be the last handoff.  Every
      frame is stale.
    - Otherwise the last frame when it contradicts itself (its Owner does
      not own its FailureType, its ResumeAt is not its From, or a state
      lies outside the cycle's topology) or was interrupted in a state the
      cycle never reached (:func:`~standards_lint.model.recovery.never_reached`), the workflow is not
      where its correction could be (or a FORWARD left an owner that never
      finished its correction, or the frame was never possible), the last
      handoff is not the failure that pushed it (same `From`), and that
      handoff explains the state on its own (a route step, a recovery
      return or a same-state correction, the passed gates' records
      COMPLETE): the state and the handoff agree and the frame is the odd
      one out.  Only when the remaining stack (if any) fits the state.

    No frame of a failure type a DOCUMENTATION cycle cannot route is
    removed (the user decides, Documentation Cycle Contract), nor, after
    the cycle start, one whose owner the cycle skips (Expedited Promotion
    converts it into an outstanding obligation)."""
    st = project.state
    fs = frames(project)
    ws = workflow_state_of(project)
    if st is None or not fs or ws is None or st.recovery is None or project.workflow_conflicted:
        return None
    kind = st.ho("Kind")
    start = kind in ("INITIAL", "NEW_CYCLE") and ws in entry_states(project)
    if start:
        keep = 0
    else:
        fr = fs[-1]
        broken = frame_broken(project, fr)
        if broken is None:
            return None
        never = never_reached(project, fr.state("From"))
        if not broken and not never:
            return None
        if kind in CORRECTIVE_KINDS and st.ho("From") == fr.state("From"):
            return None  # the handoff that pushed it: the frame is the routing record
        unfinished = fr.get("RerunThrough").text == "NONE" and kind == "FORWARD"
        if frame_fits_state(project, fr, ws) and not unfinished and not never:
            return None
        if not handoff_explains_state(project, ws):
            return None
        keep = len(fs) - 1
        if keep and not frame_fits_state(project, fs[keep - 1], ws):
            return None
    gone = fs[keep:]
    for fr in gone:
        ft = fr.get("FailureType").text
        if cycle_mode_of(project) == "DOCUMENTATION" and ft in DOC_UNROUTABLE:
            return None  # an omitted owner: the user decides (Documentation Cycle Contract)
        if not start and not frame_owners(project, ft):
            return None  # a skipped owner mid-cycle: Expedited Promotion keeps it as an obligation
    active = st.one(st.recovery, "Active")
    if active is None or active.value not in ("true", "false"):
        return None
    h = gone[0].container.heading
    end = section_end(st, st.recovery)
    if h is None or end is None:
        return None
    text = st.doc.text
    at = h.span.start
    if end == len(text):
        # The frames end the file: drop the blank lines before them too,
        # keeping the line end of the line before.
        nl = "\r\n" if "\r\n" in text else "\n"
        while text[:at].endswith(nl + nl):
            at -= len(nl)
    edits = [Edit(st.path, at, end, "")]
    want = "true" if keep else "false"
    if active.value != want:
        edits.insert(0, Edit(active.path, active.value_span.start, active.value_span.end, want))
    if len(gone) == 1:
        fr = gone[0]
        what = (f"stale recovery frame {fr.label} ({fr.state('From')} -> {fr.state('Owner')}, "
                f"{fr.get('FailureType').text})")
    else:
        what = f"the {len(gone)} stale recovery frames"
    return keep, Fix(tuple(edits), "unsafe", f"Remove {what} and set Recovery.Active to `{want}`")


def _stale(project) -> Optional[tuple[int, Fix]]:
    """:func:`stale_pop`, once per project (several rules ask)."""
    cache = project.__dict__.setdefault("_standards_lint_stale_frames", {})
    if "pop" not in cache:
        cache["pop"] = stale_pop(project)
    return cache["pop"]


def stale_frame_fix(project, *, clear: bool = False) -> Optional[Fix]:
    """The fix of :func:`stale_pop`; with *clear*, only when it empties the stack."""
    got = _stale(project)
    if got is None or (clear and got[0]):
        return None
    return got[1]


def routed_type_fix(project) -> Optional[Fix]:
    """Set `Handoff.FailureType` to :func:`routed_type` when it differs."""
    st = project.state
    want = routed_type(project)
    f = st.one(st.handoff, "FailureType") if st is not None else None
    if want is None or f is None or f.value == want:
        return None
    return replace(f.path, f.value_span, want, safe=False,
                   description=f"Set Handoff.FailureType to {want}, the type its {st.ho('Kind')} routed")


def pushed_state_fix(project) -> Optional[Fix]:
    """Set WorkflowState to :func:`pushed_state` when it differs.  When the
    state is terminal, the edit also spans `CycleMode` (unchanged), so the
    reset a terminal state asks for (SL204) is not applied with it."""
    st = project.state
    want = pushed_state(project)
    f = st.one(st.header, "WorkflowState") if st is not None else None
    if want is None or f is None or f.value == want:
        return None
    end, tail = f.value_span.end, ""
    cm = st.one(st.header, "CycleMode")
    if f.value in TERMINAL_STATES and cm is not None and cm.path == f.path and cm.value_span.end > end:
        tail = st.doc.text[end:cm.value_span.end]
        end = cm.value_span.end
    return Fix((Edit(f.path, f.value_span.start, end, want + tail),), "unsafe",
               f"Set WorkflowState to {want}, where the {st.ho('Kind')} handoff went")


def stale_frame_fix_for(project, fr: Frame) -> Optional[Fix]:
    """The stale-frame fix when *fr* is one of the frames it removes."""
    got = _stale(project)
    return got[1] if got is not None and fr.position > got[0] else None


def section_end(st, section) -> Optional[int]:
    """Offset where the line after *section*'s last content begins: the start
    of the next `##` heading, else the end of the file."""
    secs = list(st.doc.sections)
    for i, s in enumerate(secs):
        if s is section:
            if i + 1 < len(secs) and secs[i + 1].heading is not None:
                return secs[i + 1].heading.span.start
            return len(st.doc.text)
    return None


def active_mismatch(project, section, count: int, what_one: str, what_many: str, title: str):
    """SL501/SL502's finding: ``Active`` disagrees with the number of entries of
    *section*, with the fix that sets it."""
    st = project.state
    if st is None or section is None:
        return
    active = st.one(section, "Active")
    if active is None or active.value not in ("true", "false"):
        return  # missing, repeated or invalid: state-structure rules
    want = "true" if count else "false"
    if active.value == want:
        return
    yield report(
        (active.path, active.value_span),
        f"{title}.Active is `{active.value}` but there {plural_phrase(count, what_one, what_many)}; "
        f"it must be `{want}`.",
        fix=flag_fix(active, want, title),
    )


def numbering_problems(entries: list[Frame], word: str, head_re: re.Pattern, what: str, description: str):
    """SL503/SL521's finding: entries not numbered 1, 2, 3, ... in order, with the
    fix that renumbers their headings."""
    def title(e: Frame) -> str:
        # As the framework reads the heading: a closing sequence is part of it.
        h = e.container.heading
        return h.literal if h is not None else e.container.title

    def ok(e: Frame) -> bool:
        m = head_re.match(title(e))
        return m is not None and int(m.group(1)) == e.position

    bad = next((e for e in entries if not ok(e)), None)
    if bad is None:
        return
    edits = []
    for e in entries:
        h = e.container.heading
        if h is None:
            return
        want = f"{'#' * h.level} {word} {e.position}"
        if not ok(e):
            edits.append(Edit(h.path, h.span.start, h.span.end, want))
    # Safe when only numbers change (or a closing sequence goes); unsafe when a
    # heading loses other text.
    clean = all(head_re.match(e.container.title) for e in entries)
    fix = Fix(tuple(edits), "safe" if clean else "unsafe", description)
    yield report(
        bad.heading(),
        f"{what} entries must be numbered 1, 2, 3, ... in order, each headed exactly `### {word} N`; "
        f"found `{title(bad)}` in position {bad.position}.",
        fix=fix,
    )


def same_state_frame_findings(project, frames, kind: str = ""):
    """A frame whose From and Owner are the same state, reported at its
    Owner with the stale-frame fix: a same-state correction does not push a
    recovery frame (Recovery Mechanics; for DOCUMENTATION, the Documentation
    Cycle Contract). *kind* names the cycle mode in the message ("" or
    "DOCUMENTATION ")."""
    for fr in frames:
        frm, owner = fr.state("From"), fr.state("Owner")
        if frm is None or frm != owner:
            continue
        yield report(
            fr.where("Owner"),
            f"Recovery frame {fr.label}: From and Owner are both {frm}; a same-state {kind}correction does not "
            "push a recovery frame.",
            stale_frame_fix_for(project, fr),
        )
