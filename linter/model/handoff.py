"""The Handoff section as the handoff rules read it: each field once, its value
as written; None while the workflow files hold merge-conflict markers."""

from __future__ import annotations

from typing import Optional


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
        f = self.st.one(container, name)
        return f.value if f is not None else None

    # Handoff
    @property
    def kind_f(self):
        return self.field(self.handoff, "Kind")

    @property
    def kind(self):
        return self.value(self.handoff, "Kind")

    @property
    def from_f(self):
        return self.field(self.handoff, "From")

    @property
    def frm(self):
        return self.value(self.handoff, "From")

    @property
    def ft_f(self):
        return self.field(self.handoff, "FailureType")

    @property
    def ft(self):
        return self.value(self.handoff, "FailureType")

    @property
    def reason_f(self):
        return self.field(self.handoff, "Reason")

    @property
    def reason(self):
        return self.value(self.handoff, "Reason")

    # Header
    @property
    def ws_f(self):
        return self.field(self.st.header, "WorkflowState")

    @property
    def ws(self):
        return self.value(self.st.header, "WorkflowState")

    @property
    def cm_f(self):
        return self.field(self.st.header, "CycleMode")

    @property
    def cm(self):
        return self.value(self.st.header, "CycleMode")

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

    def recovery_in_use(self) -> Optional[bool]:
        """True when Recovery is active or holds frames; None when unknown."""
        if self.frames:
            return True
        if self.st.recovery is None:
            return None
        active = self.value(self.st.recovery, "Active")
        if active is None:
            return None
        return active == "true"

    def recovery_declared_active(self) -> Optional[bool]:
        """What `Recovery.Active` says (None when missing, repeated or not a
        boolean). A stack whose frames contradict it is SL501's finding; a
        rule about an *active* recovery reads the declaration."""
        if self.st.recovery is None:
            return None
        active = self.value(self.st.recovery, "Active")
        return None if active not in ("true", "false") else active == "true"

    def obligations_in_use(self) -> Optional[bool]:
        if self.st.obligations is None:
            return None
        if self.st.obligation_entries:
            return True
        active = self.value(self.st.obligations, "Active")
        if active is None:
            return None
        return active == "true"


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
