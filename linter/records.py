"""Cycle records: which Markdown files carry a valid provenance block, of
which artifact type, cycle and review kind.

``project.records`` (see :func:`inventory`) reads only the first lines of
each Markdown file until a rule needs more.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .ast import Document, Provenance
from .parser import parse_markdown
from .protocol import ARTIFACT_TYPES, CYCLE_ID_RE, REVIEW_KINDS, record_path


@attrs.define(eq=False)
class Record:
    path: str
    artifact: str
    cycle: str
    review_kind: Optional[str]
    provenance: Provenance
    project: object = attrs.field(repr=False, default=None)

    @property
    def doc(self) -> Document:
        """The whole record, parsed on first use."""
        return self.project.doc(self.path)

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


_OPEN = "<!-- STANDARDS"


def inventory(project) -> list[Record]:
    """Every Markdown file of the project that is a valid STANDARDS record.

    A record *begins with* its provenance block, so a file whose text does
    not start with ``<!-- STANDARDS`` is never parsed here."""
    out = []
    for rel in project.markdown_files:
        text = project.text(rel)
        if text is None or not (text.startswith(_OPEN) or text.startswith("\ufeff" + _OPEN)):
            continue
        doc = project._docs.get(rel)
        if doc is None:
            # Parse only the block: up to its closing `-->` or a blank line.
            stop = text.find("-->")
            blank = text.find("\n\n")
            cut = min(x for x in (stop + 3 if stop != -1 else len(text), blank if blank != -1 else len(text)))
            doc = parse_markdown(text[:cut], rel)
        p = provenance_of(doc)
        if p is not None:
            out.append(Record(rel, p[0], p[1], p[2], doc.provenance, project))
    return out
