"""The grammar and the AST builder."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from standards_lint.syntax.parser import parse_markdown

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def fields(doc):
    return {(f.name, f.value) for f in doc.fields}


def test_field_pairs_several_on_a_line_and_wrapped():
    text = "# T\n\n`A`: `1` `B`:\n`two words` `C`: `3`\n"
    doc = parse_markdown(text, "x.md")
    assert [(f.name, f.value) for f in doc.header.fields] == [("A", "1"), ("B", "two words"), ("C", "3")]
    b = doc.header.field("B")
    assert (b.span.line, b.span.column, b.span.end_line) == (3, 10, 4)
    assert (b.value_span.line, b.value_span.column) == (4, 2)


def test_value_with_longer_fence_holds_backticks():
    doc = parse_markdown("`Reason`: `` uses `x` here ``\n", "x.md")
    assert [(f.name, f.value) for f in doc.fields] == [("Reason", "uses `x` here")]


def test_value_running_over_many_lines():
    doc = parse_markdown("`Request`: `line one\nline two\nline three` `Next`: `n`\n", "x.md")
    assert [f.value for f in doc.fields] == ["line one\nline two\nline three", "n"]
    assert doc.fields[1].span.line == 3


def test_empty_value():
    doc = parse_markdown("`Cycle`: `` `Status`: `COMPLETE`\n", "x.md")
    assert [(f.name, f.value) for f in doc.fields] == [("Cycle", ""), ("Status", "COMPLETE")]


def test_sections_subsections_and_list_items():
    text = (
        "# Title\n\n`X`: `1`\n\n## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`Owner`: `TESTING`\n\n"
        "## Active Work\n\n`BaselineReconciliation`:\n\n- `SourceCycle`: `a`\n  `Request`: `b`\n- `SourceCycle`: `c`\n"
    )
    doc = parse_markdown(text, "x.md")
    assert doc.title.text == "Title"
    assert [s.title for s in doc.sections] == ["Recovery", "Active Work"]
    rec = doc.sections[0]
    assert [f.name for f in rec.fields] == ["Active"]
    assert [s.title for s in rec.subsections] == ["Frame 1"]
    assert [f.name for f in rec.subsections[0].fields] == ["Owner"]
    aw = doc.sections[1]
    assert [f.name for f in aw.fields] == ["BaselineReconciliation"]
    assert [[(f.name, f.value) for f in i.fields] for i in aw.items] == [
        [("SourceCycle", "a"), ("Request", "b")],
        [("SourceCycle", "c")],
    ]
    assert aw.items[0].span.line == 17


def test_comments_are_kept_and_fields_inside_are_ignored():
    text = "<!-- a\n`Hidden`: `x`\n-->\n`Shown`: `y`\n"
    doc = parse_markdown(text, "x.md")
    assert [f.name for f in doc.fields] == ["Shown"]
    assert len(doc.comments) == 1 and doc.comments[0].closed


def test_provenance_block():
    text = "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-20260101T000000Z-0a1b2c3d\nReviewKind: IMPLEMENTATION\n-->\n\n# R\n"
    doc = parse_markdown(text, "r.md")
    prov = doc.provenance
    assert prov is not None and prov.closed and not prov.errors and prov.valid
    assert (prov.extent.line, prov.extent.end_line) == (1, 5)
    assert [(e.key, e.value, e.span.line) for e in prov.lines] == [
        ("Artifact", "REVIEW", 2),
        ("Cycle", "c-20260101T000000Z-0a1b2c3d", 3),
        ("ReviewKind", "IMPLEMENTATION", 4),
    ]


def test_unclosed_provenance_block_keeps_the_rest_of_the_file():
    text = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c\n\n# Scope\n\n- `AC-001`: works.\n"
    doc = parse_markdown(text, "s.md")
    assert doc.provenance is not None and not doc.provenance.closed
    assert doc.title is not None and doc.title.text == "Scope"
    assert doc.items[0].first_code.value == "AC-001"


def test_fenced_code_hides_headings_and_fields():
    doc = parse_markdown("# T\n\n```markdown\n## Not a section\n`A`: `1`\n```\n\n## Real\n", "x.md")
    assert [s.title for s in doc.sections] == ["Real"]
    assert doc.fields == []


def test_conflict_markers():
    doc = parse_markdown("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> branch\n", "x.md")
    assert [(c.span.line, c.text[:3]) for c in doc.conflicts] == [(2, "<<<"), (4, "==="), (6, ">>>")]


def test_crlf_line_endings():
    doc = parse_markdown("# T\r\n\r\n`A`: `1` `B`:\r\n`2`\r\n## S\r\n", "x.md")
    assert [(f.name, f.value) for f in doc.fields] == [("A", "1"), ("B", "2")]
    assert [s.title for s in doc.sections] == ["S"]


@pytest.mark.parametrize(
    "text",
    ["", "`", "``", "```", "`a`: `", "`a`:\n", "<!--", "<!-- STANDARDS", "#", "- ", "\x00\x01", "`a`: ``` x", "\ufeff# T"],
)
def test_grammar_is_total(text):
    doc = parse_markdown(text, "x.md")
    assert doc.errors == []


def _corpus_files():
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*.md") if p.is_file())  # kgforedglobal/versions/ has folders named *.md


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present beside the checkout")
def test_every_corpus_file_parses():
    files = _corpus_files()
    assert len(files) >= 50
    for p in files:
        doc = parse_markdown(p.read_text("utf-8"), str(p))
        assert doc.errors == [], p
    states = [p for p in files if p.name.endswith("STATE.md")]
    for p in states:
        doc = parse_markdown(p.read_text("utf-8"), str(p))
        assert {"Active Work", "Handoff"} <= {s.title for s in doc.sections}, p


def test_every_parity_markdown_file_parses():
    n = 0
    for name in ("suite", "mutations", "realworld"):
        with gzip.open(ROOT / "fixtures" / "parity" / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                case = json.loads(line)
                for rel, text in case["files"].items():
                    if rel.endswith(".md"):
                        doc = parse_markdown(text, rel)
                        assert doc.errors == [], (case["id"], rel)
                        n += 1
    assert n > 20000


def test_bare_label_before_a_list():
    text = "## Active Work\n\n`BaselineReconciliation`:\n\n- `SourceCycle`: `a`\n  `Request`: `b`\n"
    doc = parse_markdown(text, "x.md")
    f = doc.sections[0].field("BaselineReconciliation")
    assert f is not None and f.bare and f.value == ""
    assert (f.span.line, f.value_span.column) == (3, 26)
    assert [x.name for x in doc.sections[0].items[0].fields] == ["SourceCycle", "Request"]


def test_generated_tables_are_current():
    """`linter/syntax/_markdown_tables.py` is exactly what `python -m
    standards_lint.syntax.build_parser` writes from grammar/markdown.lark: run it
    after changing the grammar."""
    import hashlib

    import lark

    from standards_lint.syntax import _markdown_tables, build_parser
    from standards_lint.syntax.parser import _grammar_text

    grammar = _grammar_text()
    assert _markdown_tables.GRAMMAR_SHA256 == hashlib.sha256(grammar.encode("utf-8")).hexdigest(), (
        "the grammar changed: run python -m standards_lint.syntax.build_parser")
    if lark.__version__ != _markdown_tables.LARK_VERSION:
        # Another Lark may number or order the same parser differently; the
        # tests below still check that the tables parse as this Lark does.
        pytest.skip(f"the tables were written with Lark {_markdown_tables.LARK_VERSION}, this is {lark.__version__}")
    committed = Path(build_parser.target_path()).read_text(encoding="utf-8")
    assert committed == build_parser.generate(grammar), "run: python -m standards_lint.syntax.build_parser"


def test_generation_does_not_depend_on_hashing():
    """Lark numbers its states in an order that depends on string hashing;
    the generated file must not (else the check above would flap)."""
    import subprocess
    import sys

    code = "from standards_lint.syntax import build_parser as b, parser as p; print(b.generate(p._grammar_text()))"
    outs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outs) == 1


def _trees(parser, text):
    tree = parser.parse(text)
    assert tree.data == "start"
    return [(node.data, [(tok.type, tok.start_pos, tok.end_pos, str(tok)) for tok in node.children])
            for node in tree.children]


@pytest.fixture(scope="module")
def both_parsers():
    from standards_lint.syntax.build_parser import lark_parser
    from standards_lint.syntax.parser import _grammar_text, get_parser
    from standards_lint.syntax.lalr import Parser

    parser = get_parser()
    assert isinstance(parser, Parser)  # the tables are current, so they are used
    return lark_parser(_grammar_text()), parser


SAMPLES = [
    "",
    "\n\n",
    "# T\n\n`A`: `1` `B`:\n`two`\n\n## S\n\n- `AC-001`: x\n<!-- c -->\n```\n## no\n```\n<<<<<<< HEAD\n",
    "`Reason`: `` uses `x` here `` `E`: `` \n<!-- STANDARDS\nArtifact: SCOPE\n",
    "`A`: x `B`:\n- `C`: ``\n  `D`:   \n`E`: `",
    "=======\n>>>>>>> b\n||||||| base\n~~~\nunclosed fence <!-- `x`",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_tables_parse_as_lark_does(both_parsers, text):
    lark, fast = both_parsers
    assert _trees(fast, text) == _trees(lark, text)


def test_tables_parse_the_parity_files_as_lark_does(both_parsers):
    """Every distinct Markdown file of the suite and of unseen-2 (layout and
    trivia edits: indentation, CRLF, BOM, comments between fields, spaces
    inside backticks)."""
    lark, fast = both_parsers
    texts = {}
    for name in ("suite", "unseen-2"):
        with gzip.open(ROOT / "fixtures" / "parity" / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                case = json.loads(line)
                for rel, text in case["files"].items():
                    if rel.endswith(".md"):
                        texts.setdefault(text, (case["id"], rel))
    assert len(texts) > 1500
    for text, where in texts.items():
        assert _trees(fast, text) == _trees(lark, text), where


_ALPHABET = "`<!->#=|~*+.):123 \t\r\nAbc\ufeff"


@given(st.text(alphabet=_ALPHABET, max_size=120))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_tables_parse_any_text_as_lark_does(both_parsers, text):
    """The structural characters in every order: field separators, code
    spans of every fence length, comments, bullets, headings, markers."""
    lark, fast = both_parsers
    assert _trees(fast, text) == _trees(lark, text)


def test_the_lark_fallback_builds_the_same_document(monkeypatch, tmp_path):
    """With tables that do not match the grammar (edited without
    regenerating), Lark's own parser is used, and the document is the same."""
    from standards_lint.syntax import _markdown_tables, parser

    monkeypatch.setenv("STANDARDS_LINT_CACHE_DIR", str(tmp_path))
    text = SAMPLES[2] + SAMPLES[3]
    expected = parser.parse_markdown(text, "x.md")
    monkeypatch.setattr(_markdown_tables, "GRAMMAR_SHA256", "stale")
    monkeypatch.setattr(parser, "_PARSER", None)
    assert not isinstance(parser.get_parser(), __import__("standards_lint.syntax.lalr").syntax.lalr.Parser)
    assert repr(parser.parse_markdown(text, "x.md")) == repr(expected)
