"""Cycle records: which Markdown files carry a valid provenance block, of
which artifact type, cycle and review kind.

``project.records`` (see :func:`inventory`) reads only the first lines of
each Markdown file until a rule needs more.
"""

from __future__ import annotations

from typing import Optional

from .ast import Document
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
