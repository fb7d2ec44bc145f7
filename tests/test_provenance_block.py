"""The provenance block reader: its one-pass path for well-formed blocks gives
exactly what the general reader gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from standards_lint.syntax import provenance
from standards_lint.syntax.provenance import parse_block

LINES = st.sampled_from([
    "Artifact: REVIEW", "Artifact: SCOPE", "Artifact: NOPE", "Artifact:DEVELOPMENT", "Artifact:  VERIFICATION",
    "Cycle: add-search-20261130T024551Z-bcf1ae8e", "Cycle: a b", "Cycle: -x", "ReviewKind: IMPLEMENTATION",
    "ReviewKind: FINAL_DELIVERABLE", "ReviewKind: OTHER", " Artifact: SCOPE", "Artifact: SCOPE ", "", "note",
    "Cycle: c -->", "-->", " -->", "Artifact: REVIEW\r",
])


def _as_tuple(block):
    if block is None:
        return None
    return (
        block.path, block.span, block.closed, block.extent, block.errors,
        [(ln.key, ln.value, ln.span, ln.value_span) for ln in block.lines],
    )


def _general(path, text, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(provenance, "_well_formed", lambda *a: None)
        return parse_block(path, text)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(LINES, max_size=6), tail=st.sampled_from(["", "\n", "\n\n# Title\n", "\nmore\n"]))
def test_fast_path_agrees_with_the_general_reader(lines, tail):
    import pytest

    text = "\n".join(["<!-- STANDARDS", *lines]) + tail
    mp = pytest.MonkeyPatch()
    try:
        assert _as_tuple(parse_block("r.md", text)) == _as_tuple(_general("r.md", text, mp))
    finally:
        mp.undo()


def test_fast_path_is_taken_for_a_well_formed_block(monkeypatch):
    calls = []
    real = provenance._well_formed
    monkeypatch.setattr(provenance, "_well_formed", lambda *a: calls.append(a) or real(*a))
    text = "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\nReviewKind: IMPLEMENTATION\n-->\n\n# R\n"
    block = parse_block("r.md", text)
    assert calls and block.valid and (block.artifact, block.cycle, block.review_kind) == ("REVIEW", "c-1", "IMPLEMENTATION")
    assert block.get("Cycle").value_span.line == 3 and block.get("Cycle").value_span.column == 8
    assert block.extent.end_line == 5 and text[block.extent.start:block.extent.end].endswith("-->")
