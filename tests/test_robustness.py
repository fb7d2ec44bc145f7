"""Robustness under bad input: arbitrary bytes and text in the workflow files,
encodings and line ends, pathological shapes (huge lines, deep nesting,
unmatched backticks, unclosed blocks), files that cannot be read or vanish,
symlink loops, and the fixer on such trees.

The contract: the linter never raises and never reports an internal error
(SL001) or exits with status 2 because of what a file holds; a file that
cannot be decoded is reported (SL002) with a line and column; the other
files are still checked; the fixer never touches a file it could not decode
and leaves bytes alone where no fix applies.

Hypothesis runs are kept small (the whole module runs in well under two
minutes); each example builds a fresh tree in a temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from standards_lint.cli import main
from standards_lint.engine.config import Config
from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project
from standards_lint.syntax.parser import parse_markdown
from standards_lint.syntax.source import DiskSource, ReadError

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

STATE = ".standards/STATE.md"
MODE = ".standards/MODE.md"
CYCLE = "add-user-search-20261130T024423Z-b4750922"
# The implementation review of the active cycle: the rules parse it whole.
RECORD = f".standards/docs/reviews/{CYCLE}/implementation.md"
TARGETS = (STATE, MODE, RECORD)

PROVENANCE = f"<!-- STANDARDS\nArtifact: REVIEW\nCycle: {CYCLE}\nReviewKind: IMPLEMENTATION\n-->\n"

# A cycle in REVIEWING_IMPLEMENTATION, so the record above is read and parsed.
ACTIVE_STATE = CLEAN_STATE.replace("`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`",
                                   "`WorkflowState`: `REVIEWING_IMPLEMENTATION` `CycleMode`: `STANDARD`").replace(
    "`CompletionPolicy`: `NONE` `Id`: `UNSET` `Request`: `UNSET` `Scope`: `NONE`",
    f"`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{CYCLE}` `Request`: `Add search` "
    f"`Scope`: `.standards/docs/scope/{CYCLE}.md`",
).replace("`Kind`: `INITIAL` `From`: `NONE`", "`Kind`: `FORWARD` `From`: `TESTING`")

# Deliberately broken witnesses: each yields one known finding however bad
# the other files are.
BAD_MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BOGUS`\n"
BAD_RECORD_PATH = ".standards/docs/other/BAD.md"
BAD_RECORD = "<!-- STANDARDS\nArtifact: NOPE\nCycle: c1\n-->\n# Bad\n"
WITNESS = {  # target -> (witness path, witness text, witness code)
    STATE: (BAD_RECORD_PATH, BAD_RECORD, "SL600"),
    MODE: (BAD_RECORD_PATH, BAD_RECORD, "SL600"),
    RECORD: (MODE, BAD_MODE, "SL121"),
}

# Recovery.Active disagrees with the (empty) stack: SL501, a safe fix.
FIXABLE_STATE = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")
ACTIVE_FIXABLE_STATE = ACTIVE_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`")

# STANDARDS_LINT_FUZZ_EXAMPLES=2000 for a longer local campaign.
SETTINGS = settings(
    max_examples=int(os.environ.get("STANDARDS_LINT_FUZZ_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
    database=None,
)

# -- strategies -------------------------------------------------------------

# Fragments the grammar gives meaning to, so generated text reaches the
# lexer's and the builder's corners rather than being all prose.
_FRAGMENTS = [
    "`", "``", "```", "````", "`````", "~~~", "`Active`: `true`", "`Id`: ", "`Name`:", ": ", ":\n",
    "# ", "## Recovery", "## Active Work", "### Frame 1", "- ", "  - ", "1. ", "* ",
    "<!--", "-->", "<!-- STANDARDS", "Artifact: REVIEW", "Cycle: c", "\n", "\r\n", "\r", "\n\n",
    "<<<<<<< HEAD", "=======", ">>>>>>> b", "|||||||", "\t", " ", "\ufeff", "\x00", "\u2028", "é", "x",
]
markdownish = st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=8), max_size=60).map("".join)
any_text = st.text(max_size=400) | markdownish
any_bytes = st.binary(max_size=600) | any_text.map(lambda s: s.encode("utf-8", "surrogatepass"))


def _mutate(base: str):
    """A near-valid STATE.md: the clean one with fragments spliced in, so the
    rules (not only the parser) see damaged but recognisable input."""

    @st.composite
    def build(draw):
        text = base
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(text)))
            j = draw(st.integers(i, min(len(text), i + 30)))
            text = text[:i] + draw(markdownish) + text[j:]
        return text

    return build()


# -- helpers ------------------------------------------------------------------


def _make_tree(root: Path, files: dict, state: str = ACTIVE_STATE) -> Path:
    """Runtime files and a STATE.md (an active cycle), then *files* (str or bytes)."""
    write_tree(root, {**RUNTIME, STATE: state})
    for rel, data in files.items():
        p = root.joinpath(*rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    return root


def _run_cli(root: Path) -> tuple[int, list[dict]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(root), "--format", "json", "--no-git"])
    assert status in (0, 1), f"exit status {status}; stderr:\n{err.getvalue()}"
    assert "Traceback" not in err.getvalue(), err.getvalue()
    payload = json.loads(out.getvalue())
    findings = payload["findings"] if isinstance(payload, dict) else payload
    return status, findings


def _codes_at(findings, path) -> set:
    return {f["code"] for f in findings if f["path"] == path}


def _no_internal_error(findings):
    internal = [f for f in findings if f["code"] == "SL001"]
    assert not internal, internal


def _decodes(data: bytes) -> bool:
    try:
        (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _lint(root: Path, config=None):
    return lint(str(root), use_git=False, config=config).findings


def _assert_clean_run(findings):
    assert not [f for f in findings if f.code == "SL001"], [f.message for f in findings if f.code == "SL001"]


def _snapshot(root: Path) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            p = Path(dirpath, name)
            if not p.is_symlink() and p.is_file():
                out[str(p.relative_to(root))] = p.read_bytes()
    return out


# -- property tests: arbitrary content in each workflow file --------------------


@SETTINGS
@given(target=st.sampled_from(TARGETS), data=any_bytes, provenance=st.booleans())
def test_arbitrary_bytes_never_crash_and_other_files_are_still_checked(target, data, provenance):
    if provenance:
        data = PROVENANCE.encode() + data
    wpath, wtext, wcode = WITNESS[target]
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp), {target: data, wpath: wtext})
        _status, findings = _run_cli(root)
    _no_internal_error(findings)
    # Conflict markers in STATE.md or MODE.md stop every workflow rule (Branches
    # and merges); the conflict itself is then what the run reports.
    stood_down = target in (STATE, MODE) and "SL110" in _codes_at(findings, target)
    assert wcode in _codes_at(findings, wpath) or stood_down, findings
    sl002 = [f for f in findings if f["code"] == "SL002" and f["path"] == target]
    if _decodes(data):
        assert not sl002
    else:
        assert len(sl002) == 1 and sl002[0]["line"] >= 1 and sl002[0]["column"] >= 1


@SETTINGS
@given(target=st.sampled_from(TARGETS), text=any_text, provenance=st.booleans())
def test_arbitrary_text_never_crashes(target, text, provenance):
    if provenance:
        text = PROVENANCE + text
    wpath, wtext, wcode = WITNESS[target]
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp), {target: text, wpath: wtext})
        _status, findings = _run_cli(root)
        result = lint(str(root), use_git=False)
    _no_internal_error(findings)
    stood_down = target in (STATE, MODE) and "SL110" in _codes_at(findings, target)
    assert wcode in _codes_at(findings, wpath) or stood_down
    assert not [f for f in findings if f["code"] == "SL002"]
    assert result.project._docs.get(target) is not None  # the file was parsed whole


REVIEW_TEXT = PROVENANCE + (
    f"# Implementation Review\n\n`Cycle`: `{CYCLE}` `Status`: `COMPLETE`\n\n## Findings\n\n"
    "- `F-001`: `OPEN` A defect.\n\n## Verdict\n\n`Verdict`: `PASS`\n"
)


@SETTINGS
@given(state=_mutate(CLEAN_STATE) | _mutate(ACTIVE_STATE), record=_mutate(REVIEW_TEXT))
def test_damaged_state_reaches_the_rules_without_internal_errors(state, record):
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp), {STATE: state, RECORD: record, BAD_RECORD_PATH: BAD_RECORD})
        findings = _lint(root)
    _assert_clean_run(findings)
    # Conflict markers in STATE.md stop every workflow rule (Branches and merges).
    stood_down = "SL110" in {f.code for f in findings if f.path == STATE}
    assert "SL600" in {f.code for f in findings if f.path == BAD_RECORD_PATH} or stood_down


@settings(max_examples=300, deadline=None, database=None)
@given(text=any_text)
def test_parser_spans_stay_inside_the_text(text):
    doc = parse_markdown(text, "x.md")
    n = len(text)
    nodes = list(doc.headings) + list(doc.items) + list(doc.codes) + list(doc.comments) + list(doc.conflicts)
    nodes += list(doc.prose)
    for node in nodes:
        s = node.span
        assert 0 <= s.start <= s.end <= n, (node, s)
        assert s.line >= 1 and s.column >= 1
    for f in doc.fields:
        for s in (f.span, f.name_span, f.value_span):
            assert 0 <= s.start <= s.end <= n and s.line >= 1 and s.column >= 1


@SETTINGS
@given(data=any_bytes, fixable=st.booleans())
def test_fixer_never_touches_undecodable_files_and_leaves_the_rest(data, fixable):
    files = {RECORD: data, ".standards/docs/other/NOTES.md": PROVENANCE + "# Notes\n\n`A`: `b`\n"}
    if fixable:
        files[STATE] = ACTIVE_FIXABLE_STATE
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp), files)
        before = _snapshot(root)
        report, result = fix_project(str(root), use_git=False)
        after = _snapshot(root)
    _assert_clean_run(result.findings)
    assert set(before) == set(after)
    for rel, old in before.items():
        posix = rel.replace(os.sep, "/")
        if posix not in report.changed:
            assert after[rel] == old, rel
    assert RECORD not in report.changed or _decodes(data)
    if not _decodes(data):
        assert after[RECORD.replace("/", os.sep)] == data
    if fixable:
        assert STATE in report.changed


@SETTINGS
@given(data=any_bytes)
def test_fixer_on_an_undecodable_or_garbage_state_changes_nothing_it_cannot_parse(data):
    bad = FIXABLE_STATE.encode() + data
    with tempfile.TemporaryDirectory() as tmp:
        root = _make_tree(Path(tmp), {STATE: bad})
        before = _snapshot(root)
        report, result = fix_project(str(root), use_git=False)
        after = _snapshot(root)
    _assert_clean_run(result.findings)
    for rel, old in before.items():
        if rel.replace(os.sep, "/") not in report.changed:
            assert after[rel] == old
    if not _decodes(bad):
        assert report.changed == {} and after == before


# -- encodings and line ends ------------------------------------------------------


def test_invalid_utf8_is_sl002_with_line_and_column(tmp_path):
    _make_tree(tmp_path, {STATE: b"# S.T.A.N.D.A.R.D.S. Workflow State\n\nab\xff\xfe\n", MODE: BAD_MODE})
    status, findings = _run_cli(tmp_path)
    assert status == 1
    sl002 = [f for f in findings if f["code"] == "SL002"]
    assert [(f["path"], f["line"], f["column"]) for f in sl002] == [(STATE, 3, 3)]
    assert "0xff" in sl002[0]["message"]
    assert "SL121" in _codes_at(findings, MODE)  # MODE.md is still checked


def test_invalid_utf8_after_a_bom_and_in_a_record(tmp_path):
    _make_tree(tmp_path, {MODE: b"\xef\xbb\xbf# Mode\n\xc3(\n", RECORD: PROVENANCE.encode() + b"# R\n\x80"})
    _, findings = _run_cli(tmp_path)
    where = {(f["path"], f["line"], f["column"]) for f in findings if f["code"] == "SL002"}
    assert where == {(MODE, 2, 1), (RECORD, 7, 1)}
    _no_internal_error(findings)


def test_bom_is_transparent(tmp_path):
    _make_tree(tmp_path, {STATE: b"\xef\xbb\xbf" + CLEAN_STATE.encode(), MODE: b"\xef\xbb\xbf" + RUNTIME[MODE].encode()})
    assert _run_cli(tmp_path) == (0, [])


def test_crlf_line_ends_are_transparent(tmp_path):
    crlf = {STATE: CLEAN_STATE.replace("\n", "\r\n"), MODE: RUNTIME[MODE].replace("\n", "\r\n")}
    _make_tree(tmp_path, crlf)
    assert _run_cli(tmp_path) == (0, [])


@pytest.mark.parametrize("target", TARGETS)
def test_lone_cr_line_ends_do_not_crash(tmp_path, target):
    text = {STATE: CLEAN_STATE, MODE: RUNTIME[MODE], RECORD: PROVENANCE + "# R\n\n`A`: `b`\n"}[target]
    _make_tree(tmp_path, {target: text.replace("\n", "\r")})
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)


@pytest.mark.parametrize("target", TARGETS)
def test_nul_bytes_do_not_crash(tmp_path, target):
    text = {STATE: CLEAN_STATE, MODE: RUNTIME[MODE], RECORD: PROVENANCE + "# R\n"}[target]
    _make_tree(tmp_path, {target: text.replace("`", "`\x00", 3) + "\x00" * 1000})
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)


def test_an_id_holding_a_nul_byte_names_no_file(tmp_path):
    """A path built from a damaged Active Work.Id (a NUL byte inside) is a
    path no file can have: the record is missing, nothing crashes."""
    state = ACTIVE_STATE.replace("`Id`: `", "`Id`: `\x00", 1)
    assert "\x00" in state
    _make_tree(tmp_path, {STATE: state, MODE: RUNTIME[MODE]})
    findings = _lint(tmp_path)
    _assert_clean_run(findings)
    assert findings, "the damaged Id is reported"


def test_binary_file_named_md(tmp_path):
    blob = bytes(range(256)) * 64
    _make_tree(tmp_path, {".standards/docs/cycle-1/IMAGE.md": blob, "notes/photo.md": blob, MODE: BAD_MODE})
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert {f["path"] for f in findings if f["code"] == "SL002"} == {".standards/docs/cycle-1/IMAGE.md", "notes/photo.md"}
    assert "SL121" in _codes_at(findings, MODE)


# -- pathological shapes (timed) ----------------------------------------------------


def _timed_lint(root: Path, limit: float, config=None):
    t0 = time.perf_counter()
    findings = _lint(root, config)
    elapsed = time.perf_counter() - t0
    assert elapsed < limit, f"took {elapsed:.1f}s"
    _assert_clean_run(findings)
    return findings


def test_ten_megabyte_single_line(tmp_path):
    # Prose with a code span every kilobyte: about 30,000 tokens.  (Throughput
    # is per token: ten megabytes of `a<a<...` are five million tokens and
    # take minutes; see the report of this test module's author.)
    chunk = "word " * 200 + "`code` <b> "
    line = (chunk * (10 * 1024 * 1024 // len(chunk) + 1))[: 10 * 1024 * 1024]
    _make_tree(tmp_path, {STATE: ACTIVE_STATE, RECORD: PROVENANCE + line, MODE: BAD_MODE})
    # Read and parsed when max-file-size allows it ...
    findings = _timed_lint(tmp_path, 60, Config(max_file_size=32 * 1024 * 1024))
    assert "SL121" in {f.code for f in findings if f.path == MODE}
    assert "SL006" not in {f.code for f in findings}
    # ... and by default (8 MiB) reported as too large, not read, the rest checked.
    findings = _timed_lint(tmp_path, 60)
    assert [(f.code, f.path, f.line) for f in findings if f.code == "SL006"] == [("SL006", RECORD, 1)]
    assert "SL121" in {f.code for f in findings if f.path == MODE}


def test_ten_megabyte_line_in_state(tmp_path):
    _make_tree(tmp_path, {STATE: CLEAN_STATE.replace("`Reason`: `Installed.`", "`Reason`: `" + "x" * 10_000_000 + "`")})
    _timed_lint(tmp_path, 60, Config(max_file_size=32 * 1024 * 1024))
    findings = _timed_lint(tmp_path, 60)
    assert [(f.code, f.path) for f in findings if f.code == "SL006"] == [("SL006", STATE)]


def test_file_over_max_file_size_is_only_reported(tmp_path):
    """A file over the limit is never read whole: its provenance block is
    still seen (the start of the file), the body is not."""
    body = "# Notes\n\n" + "<<<<<<< HEAD\n" + "word " * 5000 + "\n"
    _make_tree(tmp_path, {STATE: ACTIVE_STATE, ".standards/docs/notes/big.md": body, MODE: BAD_MODE})
    findings = _lint(tmp_path, Config(max_file_size=10_000))
    assert [(f.code, f.path) for f in findings if f.path.endswith("big.md")] == [
        ("SL006", ".standards/docs/notes/big.md")
    ]
    assert "SL121" in {f.code for f in findings if f.path == MODE}
    findings = _lint(tmp_path, Config(max_file_size=1_000_000))
    assert [(f.code, f.path) for f in findings if f.path.endswith("big.md")] == [
        ("SL111", ".standards/docs/notes/big.md")
    ]


def test_deeply_nested_lists(tmp_path):
    depth = 3000
    nested = "".join(" " * i + "- `Frame`: `x`\n" for i in range(depth))
    same_line = "- " * 20000 + "x\n"
    quotes = ">" * 20000 + " x\n"
    _make_tree(tmp_path, {
        STATE: CLEAN_STATE + "\n" + nested,
        RECORD: PROVENANCE + nested + same_line + quotes,
    })
    _timed_lint(tmp_path, 30)


UNMATCHED = {
    # Each of these took exponential time in the old CODE terminal: a span of
    # two or three backticks with many runs of 4 (resp. 5-6) and no closer.
    "two-tick span over runs of four": "``a" + "````a" * 5000,
    "three-tick span over runs of six": "```a" + "``````a" * 5000,
    "three-tick span over runs of five": "x```a" + "`````a" * 5000,
    "many single backticks": "`" * 50000,
    "backtick space": "` " * 50000,
    "unbalanced fences": "```\n" * 5001,
    "unbalanced tilde fences": "~~~~\n```\n" * 3000 + "~~~\n",
    "runs of every length": "".join("`" * (i % 9 + 1) + "a" for i in range(20000)),
}


@pytest.mark.parametrize("text", UNMATCHED.values(), ids=list(UNMATCHED))
def test_unmatched_backticks_parse_in_linear_time(text):
    t0 = time.perf_counter()
    parse_markdown(text, "x.md")
    assert time.perf_counter() - t0 < 5


def test_exponential_backtick_regression_small():
    # 130 characters took over two minutes before the CODE terminal was fixed.
    t0 = time.perf_counter()
    doc = parse_markdown("```a" + "``````a" * 18, "x.md")
    assert time.perf_counter() - t0 < 1
    assert doc.codes == []  # no run of exactly three closes the span


def test_code_span_closes_only_at_a_run_of_the_same_length():
    doc = parse_markdown("`Reason`: `a ``` b` `X`: ``c ```` d``\n", "x.md")
    assert [(f.name, f.value) for f in doc.fields] == [("Reason", "a ``` b"), ("X", "c ```` d")]
    # No run of one backtick after the opener: not a code span at all.
    assert parse_markdown("`a ``` b", "x.md").codes == []


def test_unmatched_backticks_in_workflow_files(tmp_path):
    _make_tree(tmp_path, {
        STATE: CLEAN_STATE + "\n" + UNMATCHED["three-tick span over runs of six"],
        MODE: RUNTIME[MODE] + UNMATCHED["two-tick span over runs of four"],
        RECORD: PROVENANCE + UNMATCHED["runs of every length"],
    })
    _timed_lint(tmp_path, 30)


def test_provenance_block_that_never_closes(tmp_path):
    never = "<!-- STANDARDS\nArtifact: REVIEW\nCycle: cycle-1\nReviewKind: IMPLEMENTATION\n" + "Note: x\n" * 20000
    _make_tree(tmp_path, {RECORD: never, ".standards/docs/cycle-2/VERIFICATION.md": "<!-- STANDARDS\n"})
    findings = _timed_lint(tmp_path, 30)
    assert {f.path for f in findings if f.code == "SL600"} >= {RECORD}


def test_many_unclosed_comments(tmp_path):
    # Each opener used to scan to the end of the file for a `-->`: 8,000
    # lines took 4 s, 20,000 about 30 s (quadratic).
    many = "<!-- x\n" * 20000
    _make_tree(tmp_path, {RECORD: PROVENANCE + many, MODE: RUNTIME[MODE] + "<!--" * 20000, STATE: ACTIVE_STATE + many})
    _timed_lint(tmp_path, 30)


def test_unclosed_comments_after_the_last_close_keep_their_text():
    text = "<!-- a -->\n`A`: `<!-- b`\n<!-- c\n```\n<!-- d\n```\n<!--- e\n"
    doc = parse_markdown(text, "x.md")
    assert [(c.text, c.closed) for c in doc.comments] == [("<!-- a -->", True), ("<!-- c", False), ("<!--- e", False)]
    assert [(f.name, f.value) for f in doc.fields] == [("A", "<!-- b")]
    assert "\udfff" not in "".join(p.text for p in doc.prose)
    t0 = time.perf_counter()
    doc = parse_markdown("<!-- x -->\n" + "<!--\n" * 20000, "x.md")
    assert time.perf_counter() - t0 < 5
    assert len(doc.comments) == 20001 and all(c.text == "<!--" for c in doc.comments[1:])


# -- the file system ------------------------------------------------------------------


def test_symlink_loops(tmp_path):
    _make_tree(tmp_path, {MODE: BAD_MODE})
    docs = tmp_path / ".standards" / "docs"
    docs.mkdir(exist_ok=True)
    os.symlink(".", docs / "loop")  # a folder that contains itself
    os.symlink("..", docs / "up")
    os.symlink("a.md", docs / "b.md")  # two links pointing at each other
    os.symlink("b.md", docs / "a.md")
    os.symlink("self.md", docs / "self.md")
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert "SL121" in _codes_at(findings, MODE)


def test_state_md_is_a_symlink_loop(tmp_path):
    _make_tree(tmp_path, {})
    (tmp_path / ".standards" / "STATE.md").unlink()
    os.symlink("STATE.md", tmp_path / ".standards" / "STATE.md")
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)


@pytest.mark.parametrize("target", TARGETS)
def test_a_directory_named_like_a_workflow_file(tmp_path, target):
    wpath, wtext, wcode = WITNESS[target]
    _make_tree(tmp_path, {wpath: wtext})
    p = tmp_path.joinpath(*target.split("/"))
    if p.exists():
        p.unlink()
    (p / "inner.md").parent.mkdir(parents=True)
    (p / "inner.md").write_text("# inner\n")
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert wcode in _codes_at(findings, wpath)


def _before_reading(monkeypatch, target, act):
    """Call ``act(source, rel)`` whenever the run reads *target* (the whole
    file or its head), before the read."""
    real, real_head = DiskSource.read_bytes, DiskSource.read_head

    def read_bytes(self, rel, *args):
        if rel == target:
            act(self, rel)
        return real(self, rel, *args)

    def read_head(self, rel, *args):
        if rel == target:
            act(self, rel)
        return real_head(self, rel, *args)

    monkeypatch.setattr(DiskSource, "read_bytes", read_bytes)
    monkeypatch.setattr(DiskSource, "read_head", read_head)


@pytest.mark.parametrize("target", TARGETS)
def test_unreadable_file(tmp_path, monkeypatch, target):
    # Tests run as root, so chmod 000 would not stop reads: make the read fail.
    wpath, wtext, wcode = WITNESS[target]
    _make_tree(tmp_path, {target: PROVENANCE + "# x\n" if target == RECORD else "# x\n", wpath: wtext})

    def refuse(source, rel):
        raise ReadError("Permission denied")

    _before_reading(monkeypatch, target, refuse)
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    sl002 = [f for f in findings if f["code"] == "SL002"]
    assert [(f["path"], f["line"]) for f in sl002] == [(target, 1)]
    assert "Permission denied" in sl002[0]["message"]
    assert wcode in _codes_at(findings, wpath)
    # The fixer leaves the unreadable file alone.
    before = tmp_path.joinpath(*target.split("/")).read_bytes()
    report, result = fix_project(str(tmp_path), use_git=False)
    assert target not in report.changed
    assert tmp_path.joinpath(*target.split("/")).read_bytes() == before


@pytest.mark.parametrize("target", TARGETS)
def test_file_disappears_during_the_run(tmp_path, monkeypatch, target):
    wpath, wtext, wcode = WITNESS[target]
    _make_tree(tmp_path, {target: PROVENANCE + "# x\n" if target == RECORD else "# x\n", wpath: wtext})

    def remove(source, rel):  # listed by the walk, gone by the time it is read
        with contextlib.suppress(FileNotFoundError):
            os.remove(source.abspath(rel))

    _before_reading(monkeypatch, target, remove)
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert wcode in _codes_at(findings, wpath)


def test_file_listed_but_never_there(tmp_path, monkeypatch):
    # A walk that names a file which is gone before anything asks about it.
    _make_tree(tmp_path, {MODE: BAD_MODE})
    real = DiskSource.walk
    monkeypatch.setattr(DiskSource, "walk", lambda self: sorted(real(self) + [".standards/docs/cycle-1/GONE.md"]))
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert "SL121" in _codes_at(findings, MODE)


def test_read_raising_unexpected_oserror_is_contained(tmp_path, monkeypatch):
    _make_tree(tmp_path, {RECORD: PROVENANCE + "# R\n", MODE: BAD_MODE})
    real = os.open

    def fake_open(path, *args, **kwargs):
        if str(path).endswith("implementation.md"):
            raise IsADirectoryError(21, "Is a directory")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    _, findings = _run_cli(tmp_path)
    _no_internal_error(findings)
    assert [(f["path"], f["code"]) for f in findings if f["code"] == "SL002"] == [(RECORD, "SL002")]


# -- the fixer on a damaged tree ------------------------------------------------------


def test_fixer_on_a_tree_of_bad_files(tmp_path):
    bad = {
        ".standards/docs/cycle-1/BINARY.md": bytes(range(256)),
        RECORD: PROVENANCE.encode() + "caf\xe9\n".encode("latin-1"),
        ".standards/docs/cycle-1/NUL.md": PROVENANCE.encode() + b"\x00\x00`A`: `\x00`\n",
        ".standards/docs/cycle-1/CR.md": (PROVENANCE + "# R\n\n`A`: `b`\n").replace("\n", "\r").encode(),
        ".standards/docs/cycle-1/TICKS.md": ("```a" + "``````a" * 500).encode(),
        MODE: b"\xef\xbb\xbf" + RUNTIME[MODE].replace("\n", "\r\n").encode(),
        STATE: ACTIVE_FIXABLE_STATE.replace("\n", "\r\n").encode(),
    }
    _make_tree(tmp_path, bad)
    before = _snapshot(tmp_path)
    report, result = fix_project(str(tmp_path), use_git=False)
    after = _snapshot(tmp_path)
    _assert_clean_run(result.findings)
    assert set(report.changed) == {STATE}
    for rel in before:
        if rel.replace(os.sep, "/") != STATE:
            assert after[rel] == before[rel], rel
    assert after[STATE.replace("/", os.sep)] == ACTIVE_STATE.replace("\n", "\r\n").encode()
    assert RECORD in {f.path for f in result.findings if f.code == "SL002"}


# -- file names that are not UTF-8 ----------------------------------------------------


def _tree_with_undecodable_names(root: Path) -> None:
    _make_tree(root, {MODE: BAD_MODE})
    docs = os.path.join(os.fsencode(root), b".standards", b"docs", b"x")
    os.makedirs(docs, exist_ok=True)
    with open(os.path.join(docs, b"caf\xe9.md"), "wb") as fh:  # Latin-1 name, binary content
        fh.write(b"\xff\xfe binary")
    with open(os.path.join(docs, b"ok\xe9.md"), "wb") as fh:
        fh.write(b"<!-- STANDARDS\nArtifact: NOPE\nCycle: c1\n-->\n")


def test_undecodable_file_names_are_still_checked(tmp_path):
    _tree_with_undecodable_names(tmp_path)
    findings = _lint(tmp_path)
    _assert_clean_run(findings)
    paths = {(f.code, f.path) for f in findings}
    assert ("SL002", ".standards/docs/x/caf\udce9.md") in paths
    assert ("SL600", ".standards/docs/x/ok\udce9.md") in paths
    assert ("SL121", MODE) in paths


@pytest.mark.parametrize("fmt", ["json", "text", "sarif", "github"])
def test_undecodable_file_names_in_every_output_format(tmp_path, fmt):
    _tree_with_undecodable_names(tmp_path)
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main([str(tmp_path), "--format", fmt, "--no-git"])
        out.flush()
    assert status == 1
    assert b"caf" in raw.getvalue()


def test_lone_cr_files_are_read_line_by_line_and_fixed_keeping_their_line_ends(tmp_path):
    """Old Mac line ends: lines as an editor shows them, the provenance block
    is seen, and a fix keeps every lone CR."""
    cr_state = ACTIVE_FIXABLE_STATE.replace("\n", "\r")
    cr_record = (PROVENANCE + "# R\n\n`A`: `b`\n").replace("\n", "\r")
    _make_tree(tmp_path, {STATE: cr_state, RECORD: cr_record})
    findings = _lint(tmp_path)
    _assert_clean_run(findings)
    with_lf = tmp_path / "lf"
    _make_tree(with_lf, {STATE: ACTIVE_FIXABLE_STATE, RECORD: PROVENANCE + "# R\n\n`A`: `b`\n"})
    expected = _lint(with_lf)
    as_lines = lambda fs: sorted((f.code, f.path, f.line, f.column, f.end_line, f.end_column) for f in fs)  # noqa: E731
    assert as_lines(findings) == as_lines(expected)
    assert any(f.line > 1 for f in findings)
    report, _ = fix_project(str(tmp_path), use_git=False)
    assert set(report.changed) == {STATE}
    assert (tmp_path / STATE).read_bytes() == ACTIVE_STATE.replace("\n", "\r").encode()


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_invalid_utf8_offset_is_the_files_own(tmp_path, bom):
    data = bom + b"# Mode\n\ncaf\xe9\n"
    _make_tree(tmp_path, {MODE: data})
    (hit,) = [f for f in _lint(tmp_path) if f.code == "SL002"]
    offset = data.index(bytes([0xE9]))
    assert f"byte 0xe9 at offset {offset})" in hit.message
    assert (hit.line, hit.column) == (3, 4)


@pytest.mark.parametrize("pad", range(4))
def test_a_character_cut_by_the_end_of_the_head_is_not_an_error(tmp_path, pad):
    """Only the first 4 KiB of an older record are read: a multi-byte
    character cut there is not invalid UTF-8."""
    other = "older-work-20250101T000000Z-0000beef"
    text = PROVENANCE.replace(CYCLE, other) + "x" * pad + "\u20ac" * 3000  # 3 bytes each
    rel = f".standards/docs/reviews/{other}/implementation.md"
    _make_tree(tmp_path, {STATE: ACTIVE_STATE, rel: text})
    result = lint(str(tmp_path), use_git=False)
    assert [f for f in result.findings if f.path == rel] == []
    assert rel not in result.project._texts  # decoded from its head, never read whole
    assert result.project.provenance(rel).valid


def test_invalid_utf8_inside_an_older_records_head_is_reported_where_it_is(tmp_path):
    other = "older-work-20250101T000000Z-0000beef"
    rel = f".standards/docs/reviews/{other}/implementation.md"
    data = PROVENANCE.replace(CYCLE, other).encode() + b"# R\n\ncaf\xe9\n" + b"x" * 10_000
    _make_tree(tmp_path, {STATE: ACTIVE_STATE, rel: data})
    hits = [(f.code, f.line, f.column) for f in _lint(tmp_path) if f.path == rel]
    assert hits == [("SL002", 8, 4)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("where", [".standards/docs/notes/pipe.md", "docs/pipe.md"])
def test_a_named_pipe_called_md_never_blocks_the_run(tmp_path, where):
    """Reading a FIFO would wait for a writer forever; it is not a regular
    file, so it is reported (or skipped) and the rest is checked."""
    _make_tree(tmp_path, {STATE: ACTIVE_STATE, MODE: BAD_MODE})
    pipe = tmp_path / where
    pipe.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(pipe)
    findings = _timed_lint(tmp_path, 30)
    assert "SL121" in {f.code for f in findings if f.path == MODE}
    assert [f.code for f in findings if f.path == where] in ([], ["SL002"])
