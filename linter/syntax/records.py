"""Cycle records: which Markdown files carry a valid provenance block, of
which artifact type, cycle and review kind.

``project.records`` (see :func:`inventory`) reads only the first lines of
each Markdown file until a rule needs more.
"""

from __future__ import annotations

from typing import Optional

from .ast import Container, Document
from .data import Data
from .protocol import record_path
from .provenance import Provenance


class Record(Data):
    __slots__ = ("path", "artifact", "cycle", "review_kind", "provenance", "project")
    _no_repr = ("project",)

    def __init__(self, path: str, artifact: str, cycle: str, review_kind: Optional[str], provenance: Provenance,
                 project: object = None):
        self.path, self.artifact, self.cycle, self.review_kind = path, artifact, cycle, review_kind
        self.provenance, self.project = provenance, project

    @property
    def doc(self) -> Document:
        """The whole record, parsed on first use.  A record whose start was
        read but whose whole text cannot be (too large, or not UTF-8 further
        on: reported by the engine) reads as its provenance block alone."""
        d = self.project.doc(self.path)
        if d is None:
            from .parser import parse_markdown

            d = parse_markdown(self.provenance_text(), self.path)
        return d

    def provenance_text(self) -> str:
        ext = self.provenance.extent or self.provenance.span
        head = self.project.head_text(self.path) or ""
        return head[: ext.end] if ext is not None else ""

    @property
    def fixed_path(self) -> str:
        return record_path(self.artifact, self.cycle, self.review_kind)


def provenance_of(doc: Document) -> Optional[tuple[str, str, Optional[str]]]:
    """(artifact, cycle, review kind) when the document begins with a valid
    provenance block; otherwise None."""
    prov = doc.provenance
    if prov is None or not prov.valid:
        return None
    return prov.artifact, prov.cycle, prov.review_kind


CLOSURE = "Implementation-Reviewed Closure"


def closure_sections(doc: Optional[Document]) -> list[Container]:
    """The `## Implementation-Reviewed Closure` sections of *doc* as the
    framework's checker reads them: with every HTML comment removed first.

    Elsewhere in a record the checker reads through comments (a commented-out
    `Status`, `Cycle` or `ReviewKind` in a header, or a commented-out
    `## Acceptance Evidence`, is still there for it: ``lexicon``), but a
    closure field inside a comment is missing for it (``lexicon``: a
    commented-out `Policy` or `Assessed Inputs`), and a closure heading
    inside a comment is no section (a wholly commented-out closure section
    leaves nothing to check).  So a section whose heading lies in a comment
    is none; what lies in a comment is not in the section; and a `##` or
    `###` heading inside a comment does not end the section it stands in
    (its uncommented content is the section's own)."""
    if doc is None:
        return []
    if not doc.comments:
        return doc.sections_named(CLOSURE)
    spans = [(c.span.start, c.span.end) for c in doc.comments]

    def commented(node) -> bool:
        return any(s <= node.span.start < e for s, e in spans)

    def take(into: Container, c: Container) -> None:
        into.fields += [f for f in c.fields if not commented(f)]
        into.items += [i for i in c.items if not commented(i)]
        into.codes += [k for k in c.codes if not commented(k)]
        into.prose += [p for p in c.prose if not commented(p)]

    out: list[Container] = []
    into: Optional[Container] = None  # where the text read now belongs
    for sec in doc.sections:
        if sec.heading is None or not commented(sec.heading):
            if sec.title != CLOSURE:
                into = None
                continue
            into = Container(sec.path, sec.span, sec.heading)
            out.append(into)
        elif into is None:
            continue
        take(into, sec)
        for sub in sec.subsections:
            if sub.heading is not None and not commented(sub.heading):
                into = Container(sub.path, sub.span, sub.heading)
                out[-1].subsections.append(into)
            take(into, sub)
    return out


def inventory(project) -> list[Record]:
    """Every Markdown file of the project that is a valid STANDARDS record.

    A record *begins with* its provenance block, so only the start of each
    file is read here (``project.blocks``); the whole record is parsed when a
    rule asks."""
    out = []
    active = project.active_cycle
    for rel, prov in project.blocks.items():
        if not prov.valid:
            continue
        if prov.cycle == active and project.text(rel) is None:
            continue  # the rules read these whole; this one cannot be (reported by the engine)
        out.append(Record(rel, prov.artifact, prov.cycle, prov.review_kind, prov, project))
    return out
