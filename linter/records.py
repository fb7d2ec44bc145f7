"""Cycle records: which Markdown files carry a valid provenance block, of
which artifact type, cycle and review kind.

``project.records`` (see :func:`inventory`) reads only the first lines of
each Markdown file until a rule needs more.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .ast import Document, Provenance
from .protocol import ARTIFACT_TYPES, CYCLE_ID_RE, REVIEW_KINDS, record_path


@attrs.define(eq=False)
class Record:
    path: str
    artifact: str
    cycle: str
    review_kind: Optional[str]
    provenance: Provenance
    doc: Document

    @property
    def fixed_path(self) -> str:
        return record_path(self.artifact, self.cycle, self.review_kind)


def provenance_of(doc: Document) -> Optional[tuple[str, str, Optional[str]]]:
    """(artifact, cycle, review kind) when the document has a well-formed,
    valid provenance block; otherwise None."""
    prov = doc.provenance
    if prov is None or prov.errors or not prov.closed:
        return None
    art = prov.get("Artifact")
    cyc = prov.get("Cycle")
    kind = prov.get("ReviewKind")
    if art is None or cyc is None or art.value not in ARTIFACT_TYPES:
        return None
    if not CYCLE_ID_RE.match(cyc.value):
        return None
    if art.value == "REVIEW":
        if kind is None or kind.value not in REVIEW_KINDS:
            return None
        return art.value, cyc.value, kind.value
    if kind is not None:
        return None
    return art.value, cyc.value, None


def inventory(project) -> list[Record]:
    """Every Markdown file of the project that is a valid STANDARDS record."""
    out = []
    for rel in project.markdown_files:
        doc = project.doc(rel)
        if doc is None:
            continue
        p = provenance_of(doc)
        if p is not None:
            out.append(Record(rel, p[0], p[1], p[2], doc.provenance, doc))
    return out
