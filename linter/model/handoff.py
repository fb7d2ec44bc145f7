"""The Handoff section as the handoff rules read it: each field once, its value
as written; None while the workflow files hold merge-conflict markers."""

from __future__ import annotations

from typing import Optional


def _read(container: str, name: str):
    """The field *name* of STATE.md's *container* (the ``handoff`` or the
    ``header`` of :class:`~standards_lint.syntax.state.StateModel`) as a pair of
    properties: the field, and its value as written (None when the field is
    missing or repeated)."""
    def field(self):
        return self.st.one(getattr(self.st, container), name)

    def value(self) -> Optional[str]:
        return self.st.value(getattr(self.st, container), name)

    return (property(field, doc=f"The `{name}` field, or None."),
            property(value, doc=f"`{name}` as written, or None."))


class HandoffView:
    """The STATE.md values these rules read: a field or its value as written
    between its backticks (`` ` NONE` `` is not NONE), None when the field is
    missing or repeated."""

    def __init__(self, st):
        self.st = st
        self.handoff = st.handoff

    def field(self, container, name):
        return self.st.one(container, name)

    def value(self, container, name) -> Optional[str]:
        return self.st.value(container, name)

    # Handoff
    kind_f, kind = _read("handoff", "Kind")
    from_f, frm = _read("handoff", "From")
    ft_f, ft = _read("handoff", "FailureType")
    reason_f, reason = _read("handoff", "Reason")

    # Header
    ws_f, ws = _read("header", "WorkflowState")
    cm_f, cm = _read("header", "CycleMode")

    # Active Work
    def aw_f(self, name):
        return self.field(self.st.active_work, name)

    def aw(self, name):
        return self.value(self.st.active_work, name)

    # Recovery and obligations
    @property
    def recovery_active_f(self):
        return self.field(self.st.recovery, "Active")

    @property
    def frames(self):
        return self.st.frames

    def records_move(self, frame) -> bool:
        """Whether recovery *frame* records this handoff's move: its `From`
        the handoff's `From`, its `Owner` the `WorkflowState` (Recovery
        Mechanics: the frame a corrective handoff to a different state
        pushes)."""
        return self.value(frame, "From") == self.frm and self.value(frame, "Owner") == self.ws

    def _in_use(self, section, entries) -> Optional[bool]:
        """True when *section* holds entries or says `Active`: `true`; None
        when the section is missing or its `Active` missing or repeated."""
        if section is None:
            return None
        if entries:
            return True
        active = self.value(section, "Active")
        if active is None:
            return None
        return active == "true"

    def recovery_in_use(self) -> Optional[bool]:
        """True when Recovery is active or holds frames; None when unknown."""
        return self._in_use(self.st.recovery, self.frames)

    def recovery_declared_active(self) -> Optional[bool]:
        """What `Recovery.Active` says (None when missing, repeated or not a
        boolean). A stack whose frames contradict it is SL501's finding; a
        rule about an *active* recovery reads the declaration."""
        if self.st.recovery is None:
            return None
        active = self.value(self.st.recovery, "Active")
        return None if active not in ("true", "false") else active == "true"

    def obligations_in_use(self) -> Optional[bool]:
        """True when Outstanding Obligations is active or holds entries; None
        when unknown."""
        return self._in_use(self.st.obligations, self.st.obligation_entries)


# Branches and merges: "While `.standards/` has unmerged files or conflict
# markers, a workflow role stops ... it never resolves the conflict by choosing
# a side."  The files every role reads first; markers there suspend these rules.
def handoff_conflicted(project) -> bool:
    """True while STATE.md, MODE.md or CONTEXT.md hold merge-conflict markers."""
    return project.workflow_conflicted


def handoff_view(project) -> Optional[HandoffView]:
    """The :class:`HandoffView` of STATE.md, or None (no state or Handoff section,
    or conflict markers)."""
    st = project.state
    if st is None or st.handoff is None or st.doc.conflicts or handoff_conflicted(project):
        return None
    return HandoffView(st)


STATE = ".standards/STATE.md"


def value_at(f, fallback=None):
    """Where to report: a field's value span, else the fallback node."""
    if f is not None:
        return (f.path, f.value_span)
    if fallback is not None:
        return fallback
    return STATE


def with_article(word: str) -> str:
    """*word* with its indefinite article (``An IMPLEMENTATION``, ``A FAILURE``)."""
    return ("An " if word[:1] in "AEIOU" else "A ") + word
