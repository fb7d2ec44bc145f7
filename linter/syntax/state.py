"""A model of ``.standards/STATE.md`` in the protocol's words.

Values keep the nodes they came from, so rules can point at them.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Optional

from .ast import Container, Document, Field, ListItem, Span

HEADER_FIELDS = ("WorkflowState", "CycleMode", "PendingCycleMode", "PendingCycleRequest", "PendingCycleBlockedOn")
ACTIVE_WORK_FIELDS = (
    "Id",
    "Request",
    "CompletionPolicy",
    "Scope",
    "Architecture",
    "Development",
    "PromotionReason",
    "AuditTarget",
    "BlockedOn",
    "PendingVerificationCadence",
)
HANDOFF_FIELDS = ("Kind", "From", "FailureType", "Reason")
FRAME_FIELDS = ("From", "Owner", "FailureType", "Reason", "ResumeAt", "RerunThrough")
SECTIONS = ("Active Work", "Handoff", "Recovery", "Outstanding Obligations")

_FRAME_RE = re.compile(r"^Frame (\d+)$")


def _title_key(title: str) -> str:
    return " ".join(title.split()).casefold()


def _section_title(title: str) -> str:
    """A heading's text as the checker matches it to a section name: a
    trailing colon is not part of it (`## Handoff:` is `## Handoff`)."""
    t = title.rstrip()
    return t[:-1].rstrip() if t.endswith(":") else t


def _has_content(c: Container) -> bool:
    return bool(c.fields or c.items or c.codes or c.subsections or any(p.text.strip() for p in c.prose))


_OBLIGATION_RE = re.compile(r"^Obligation (\d+)$")


def without_comments(c: Container, comments) -> Container:
    """A copy of *c* holding only the nodes outside every one of *comments*."""
    spans = [(m.span.start, m.span.end) for m in comments]

    def outside(node) -> bool:
        start = node.span.start
        return not any(s <= start < e for s, e in spans)

    return Container(c.path, c.span, c.heading, [f for f in c.fields if outside(f)],
                     [i for i in c.items if outside(i)], [k for k in c.codes if outside(k)],
                     [p for p in c.prose if outside(p)],
                     [without_comments(sub, comments) for sub in c.subsections])


class StateModel:
    """STATE.md read as the protocol's sections and fields.

    *derived* maps an Active Work field name to a function of this model
    giving its value, for a field the project's framework release does not
    have but whose meaning it fixes (before 0.10.0 there is no
    `CompletionPolicy`, and a STANDARD cycle always runs the whole route):
    every reader then sees that one value, as if written, and the text's own
    copies of the field are not read (the release's checker ignores them).
    """

    def __init__(self, doc: Document, derived: Optional[dict] = None):
        self.doc = doc
        self.path = doc.path
        self.derived = derived or {}

    # -- sections -------------------------------------------------------------
    def sections(self, title: str) -> list[Container]:
        """The headings the framework's checker reads as `## Title`, in file
        order (``lexicon``): a `##` or a `###` heading whose text is the
        title, with or without a trailing colon (`## Handoff:` and
        `### Handoff` are the section; `# Handoff` is not)."""
        return [c for c in self._state_sections if _section_title(c.title) == title]

    @cached_property
    def _state_sections(self) -> list[Container]:
        out = []
        for parent in [self.doc.header, *self.doc.sections]:
            if parent is None:
                continue
            if parent is not self.doc.header and _section_title(parent.title) in SECTIONS:
                out.append(parent)
            out.extend(sub for sub in parent.subsections
                       if sub.heading is not None and sub.heading.level == 3 and _section_title(sub.title) in SECTIONS)
        return out

    @cached_property
    def _views(self) -> dict:
        """How the checker bounds a section: from its heading to the next `##`
        heading.  A `###` section heading therefore does not end the `##`
        section it sits in: that section reads the fields under it too (so a
        `### Outstanding Obligations` in `## Recovery` repeats Recovery's
        `Active`), and the `###` section itself runs on through the `###`
        entries that follow it (its frames), to the next section heading."""
        views = {}
        self._borrowed = set()
        for parent in [self.doc.header, *self.doc.sections]:
            if parent is None:
                continue
            subs = parent.subsections
            marks = [i for i, sub in enumerate(subs) if sub.heading is not None and sub.heading.level == 3
                     and _section_title(sub.title) in SECTIONS]
            if not marks:
                continue
            inner = [subs[i] for i in marks]
            self._borrowed.update(id(f) for sub in inner for f in sub.fields)
            if parent is not self.doc.header:
                views[id(parent)] = Container(
                    parent.path, parent.span, parent.heading,
                    parent.fields + [f for sub in inner for f in sub.fields],
                    parent.items + [i for sub in inner for i in sub.items],
                    parent.codes + [k for sub in inner for k in sub.codes],
                    parent.prose + [p for sub in inner for p in sub.prose],
                    list(subs[:marks[0]]))
            for n, i in enumerate(marks):
                stop = marks[n + 1] if n + 1 < len(marks) else len(subs)
                sub = subs[i]
                views[id(sub)] = Container(sub.path, sub.span, sub.heading, sub.fields, sub.items, sub.codes,
                                           sub.prose, list(subs[i + 1:stop]))
        return views

    def borrowed(self, field) -> bool:
        """True for a field a `##` section reads from a `###` section heading
        inside it (see :attr:`_views`): no copy of the section's own field, so
        no fix may remove it as a repeat."""
        self._views
        return id(field) in self._borrowed

    def section(self, title: str) -> Optional[Container]:
        """The section the rules read (SL201 reports what is not exactly one
        `## Title`; a broken structure silences only what needs the broken
        part):

        * present once: that section (a `###` heading or a trailing colon as
          the checker reads them, see :meth:`sections`);
        * repeated: its first copy with content (a copy that holds only the
          heading is skipped; SL201 compares the copies, and removes those
          that are empty or identical);
        * missing, but a heading differs from it only in letter case or
          spacing (`## recovery`, `##  Recovery`): that section, found and
          reported (SL201 respells the heading)."""
        found = self.sections(title)
        if not found:
            key = _title_key(title)
            found = [s for s in self.doc.sections if _title_key(s.title) == key]
        if not found:
            return None
        chosen = next((s for s in found if _has_content(s)), found[0])
        chosen = self._views.get(id(chosen), chosen)
        if self.doc.comments and _title_key(title) == "active work":
            chosen = self._uncommented(chosen)
        if self.derived and _title_key(title) == "active work":
            return self._with_derived(chosen)
        return chosen

    def _with_derived(self, section: Container) -> Container:
        """`## Active Work` with each derived field (see the class) in place
        of the text's own copies: a field at the end of the section's
        heading, zero characters wide, holding the derived value."""
        cache = self.__dict__.setdefault("_derived_cache", {})
        if id(section) not in cache:
            at = section.heading.span if section.heading is not None else Span(1, 1, 1, 1, 0, 0)
            end = Span(at.end_line, at.end_column, at.end_line, at.end_column, at.end, at.end)
            fields = [f for f in section.fields if f.name not in self.derived]
            cache[id(section)] = None  # a derivation reading Active Work sees the text's own fields
            fields += [Field(section.path, end, name, derive(self), end, end)
                       for name, derive in self.derived.items()]
            cache[id(section)] = Container(section.path, section.span, section.heading, fields, section.items,
                                           section.codes, section.prose, section.subsections)
        return cache[id(section)] or section

    def _uncommented(self, section: Container) -> Container:
        """`## Active Work` without what lies inside an HTML comment (one
        copy per section, so the rules see the same object).

        The framework's checker reads through comments everywhere else in
        STATE.md (a commented-out `## Recovery` or `Frame 1` is still read,
        ``lexicon``), but not here: the install template keeps an example
        `BaselineReconciliation` entry, with its `Request`, in a comment in
        this section, and a commented-out Active Work field is missing for
        it."""
        cache = self.__dict__.setdefault("_uncommented_cache", {})
        if id(section) not in cache:
            cache[id(section)] = without_comments(section, self.doc.comments)
        return cache[id(section)]

    @property
    def header(self) -> Container:
        return self.doc.header

    @cached_property
    def active_work(self) -> Optional[Container]:
        return self.section("Active Work")

    @cached_property
    def handoff(self) -> Optional[Container]:
        return self.section("Handoff")

    @cached_property
    def recovery(self) -> Optional[Container]:
        return self.section("Recovery")

    @cached_property
    def obligations(self) -> Optional[Container]:
        return self.section("Outstanding Obligations")

    # -- fields ---------------------------------------------------------------
    def one(self, container: Optional[Container], name: str) -> Optional[Field]:
        """The field when it occurs exactly once in *container*.  A field
        repeated in `## Handoff` is read as its first occurrence, as the
        framework's checker reads it (SL223 reports the repetition); a
        repeated header or Active Work field is a structural problem and
        reads as None."""
        if container is None:
            return None
        found = container.all_fields(name)
        if found and container is self.handoff:
            return found[0]
        return found[0] if len(found) == 1 else None

    def value(self, container: Optional[Container], name: str) -> Optional[str]:
        f = self.one(container, name)
        return f.value if f is not None else None

    # Header values (None when missing or repeated).
    @property
    def workflow_state(self) -> Optional[str]:
        return self.value(self.header, "WorkflowState")

    @property
    def cycle_mode(self) -> Optional[str]:
        return self.value(self.header, "CycleMode")

    def aw(self, name: str) -> Optional[str]:
        """An Active Work value."""
        return self.value(self.active_work, name)

    def ho(self, name: str) -> Optional[str]:
        """A Handoff value."""
        return self.value(self.handoff, name)

    # -- recovery and obligations ---------------------------------------------
    @cached_property
    def frames(self) -> list[Container]:
        return list(self.recovery.subsections) if self.recovery is not None else []

    @cached_property
    def obligation_entries(self) -> list[Container]:
        return list(self.obligations.subsections) if self.obligations is not None else []

    @staticmethod
    def entry_number(container: Container, kind: str) -> Optional[int]:
        title = container.heading.literal if container.heading is not None else container.title
        m = (_FRAME_RE if kind == "Frame" else _OBLIGATION_RE).match(title)
        return int(m.group(1)) if m else None

    # -- baseline reconciliation ----------------------------------------------
    @cached_property
    def baseline_field(self) -> Optional[Field]:
        return self.one(self.active_work, "BaselineReconciliation")

    @cached_property
    def baseline_entries(self) -> list[ListItem]:
        """List items that follow ``BaselineReconciliation`` in Active Work."""
        aw = self.active_work
        f = self.baseline_field
        if aw is None or f is None:
            return []
        return [i for i in aw.items if i.span.start > f.span.start]
