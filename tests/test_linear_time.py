"""Issue 43: every pattern that runs over record or STATE.md text is linear
in the text.  A record holding one long run of `[A-Za-z0-9_./-]` (a pasted
hash, base64 blob or URL) took 6.7 s at 50,000 characters and 27 s at
100,000: the patterns finding `path.md#F-001` and `path.md#D-001`
references tried every start of the run and rescanned the rest of it from
each.  The same shape (an unanchored or lazy repeat followed by something
that fails at the end of a run) was in the heading patterns (a run of
spaces in a heading line) and in the link-target pattern (`](` repeated in
one word).  A million backticks in a row were a million tokens (linear,
but 12 s).

These tests guard the shape, not a speed: each pattern runs on a 1 MB
input in a child process with a timeout (a quadratic pattern does not
finish there in hours), and must take a small fraction of what it did; a
tree holding a 1 MB word and a 1 MB backtick run lints in a bounded
multiple of the time of the same tree without them.  The figures are in
docs/performance.md and `bench/hostile.py`.  Each new pattern is also held
to the old one's matches on generated text (no behaviour change).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

MB = 1_000_000
CHILD_TIMEOUT = 60

# name -> (setup code, the statement timed); each runs on about 1 MB.
PATTERNS = {
    "record_headers._F_PATH_REF_RE (a 1 MB word)": (
        "from standards_lint.rules.record_headers import _F_PATH_REF_RE as P; s = 'a' * MB + '.m#F-1'",
        "list(P.finditer(s))"),
    "record_headers._F_PATH_REF_RE (a 1 MB path of .md parts)": (
        "from standards_lint.rules.record_headers import _F_PATH_REF_RE as P; s = 'x.md/' * (MB // 5)",
        "list(P.finditer(s))"),
    "record_headers._D_PATH_REF_RE (a 1 MB word)": (
        "from standards_lint.rules.record_headers import _D_PATH_REF_RE as P; s = 'b64-' * (MB // 4) + '#D-1'",
        "list(P.finditer(s))"),
    "record_headers._link_targets (`F-1](` repeated in one word)": (
        "from standards_lint.rules.record_headers import _bare_f\n"
        "class Doc: text = 'F-1](' * (MB // 5) + '#F-2'",
        "list(_bare_f(Doc, 0))"),
    "parser._HEADING_RE (a heading with a 1 MB run of spaces)": (
        "from standards_lint.syntax.parser import _HEADING_RE as P; s = '# a' + ' ' * MB + 'b'",
        "P.match(s)"),
    "acceptance.HEADING_RE (a heading with a 1 MB run of tabs)": (
        "from standards_lint.model.acceptance import HEADING_RE as P; s = '## a' + '\\t' * MB + 'b #'",
        "P.match(s)"),
    "the lexer (a 1 MB run of backticks: one TICKS token)": (
        "from standards_lint.syntax.parser import parse_markdown; s = 'x' + '`' * MB + '\\n'",
        "parse_markdown(s, 'x.md')"),
}


def _child(setup: str, stmt: str) -> float:
    """Seconds *stmt* takes after *setup*, in a fresh interpreter (a
    quadratic pattern cannot be interrupted inside the regex engine)."""
    code = textwrap.dedent(f"""
        import time
        MB = {MB}
        {setup.replace(chr(10), chr(10) + '        ')}
        t = time.perf_counter()
        {stmt}
        print(time.perf_counter() - t)
    """)
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"not finished in {CHILD_TIMEOUT} s on 1 MB: not linear") from None
    assert r.returncode == 0, r.stderr
    return float(r.stdout)


@pytest.mark.parametrize("name", list(PATTERNS))
def test_pattern_is_linear_on_a_megabyte(name):
    setup, stmt = PATTERNS[name]
    # Linear: tens of milliseconds here; quadratic: hours.
    assert _child(setup, stmt) < 3.0, name


# -- the same matches as the old patterns ----------------------------------------------------

OLD_PARSER_HEADING = re.compile(r"^([ ]{0,3})(#{1,6})([ \t]*)(.*?)([ \t]+#+)?[ \t]*\r?$")
OLD_ACCEPTANCE_HEADING = re.compile(r"^([ ]{0,3})(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
OLD_F_PATH_REF = re.compile(r"([A-Za-z0-9_.\-/]+\.md)#(F-\d+)\b")
OLD_D_PATH_REF = re.compile(r"([A-Za-z0-9_.\-/]+\.md)#((?:DOC|D)-\d+)\b")
OLD_LINK_TARGET = re.compile(r"\]\([^)\s]*#(F-\d+)\)")

heading_lines = st.lists(st.sampled_from([" ", "\t", "#", "##", "a", "b c", "\r", "é", "x#", " #"]),
                         max_size=14).map(lambda parts: "".join(parts))
reference_text = st.lists(st.sampled_from(["a", "x.md", ".md", "#", "F-", "D-", "DOC-", "1", "12", "/", "-", "_",
                                           ".", " ", "\n", "é", "x"]), max_size=30).map("".join)
link_text = st.lists(st.sampled_from(["](", "F-1", "F-12", "#", ")", " ", "a", "[", "]", "(", "\t", "F-", "x.md"]),
                     max_size=25).map("".join)


def _groups(m):
    return None if m is None else (m.span(), m.groups())


@settings(max_examples=400, deadline=None, derandomize=True)
@given(heading_lines)
def test_heading_patterns_match_as_the_old_ones(rest):
    from standards_lint.model.acceptance import HEADING_RE
    from standards_lint.syntax.parser import _HEADING_RE

    for prefix in ("#", "##", " ###", "#######", ""):
        line = prefix + rest
        assert _groups(_HEADING_RE.match(line)) == _groups(OLD_PARSER_HEADING.match(line)), repr(line)
        assert _groups(HEADING_RE.match(line)) == _groups(OLD_ACCEPTANCE_HEADING.match(line)), repr(line)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(reference_text, st.integers(0, 5))
def test_path_reference_patterns_match_as_the_old_ones(text, start):
    from standards_lint.rules.record_headers import _D_PATH_REF_RE, _F_PATH_REF_RE

    start = min(start, len(text))
    for new, old in ((_F_PATH_REF_RE, OLD_F_PATH_REF), (_D_PATH_REF_RE, OLD_D_PATH_REF)):
        assert [_groups(m) for m in new.finditer(text)] == [_groups(m) for m in old.finditer(text)], repr(text)
        # where the rules match at a place: after `](` and at a path's start
        for at in [i + 2 for i in range(len(text)) if text.startswith("](", i)] + [0]:
            assert _groups(new.match(text, at)) == _groups(old.match(text, at)), (repr(text), at)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(link_text)
def test_link_targets_read_as_the_old_pattern(text):
    from standards_lint.rules.record_headers import _F_MENTION_RE, _link_targets

    target = _link_targets(text)
    for m in _F_MENTION_RE.finditer(text):
        old = OLD_LINK_TARGET.match(text, m.end())
        assert target(m.end()) == (old.group(1) if old else None), (repr(text), m.end())


# -- a tree: the 1 MB word and backtick run against the same tree without them ----------------

def _tree_seconds(root: Path) -> float:
    code = textwrap.dedent(f"""
        import time
        from standards_lint.engine.run import lint, load_registry
        load_registry()
        best = None
        for _ in range(3):
            t = time.perf_counter()
            lint({str(root)!r}, use_git=False)
            best = min(best or 1e9, time.perf_counter() - t)
        print(best)
    """)
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=4 * CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the tree was not linted in {4 * CHILD_TIMEOUT} s: not linear") from None
    assert r.returncode == 0, r.stderr
    return float(r.stdout)


def test_a_megabyte_word_and_backtick_run_lint_in_a_bounded_multiple_of_the_plain_tree(tmp_path):
    from .test_robustness import ACTIVE_STATE, PROVENANCE, RECORD, STATE, _make_tree

    body = "# Implementation Review\n\n`Status`: `IN_PROGRESS`\n\n## F-001 A finding\n\nSee x.md#F-001.\n"
    plain = _make_tree(tmp_path / "plain", {RECORD: PROVENANCE + body})
    word = "Qm9" + "a" * MB  # a pasted blob: one run of path characters
    hostile = _make_tree(tmp_path / "hostile", {
        RECORD: PROVENANCE + body + "\n" + word + "\n\nx" + "`" * MB + "\n",
        STATE: ACTIVE_STATE + "\nx" + "`" * MB + "\n" + word + "\n",
    })
    base, hard = _tree_seconds(plain), _tree_seconds(hostile)
    # Reading and lexing 4 MB more costs a few tenths of a second; before
    # issue 43 the word alone took most of an hour.
    assert hard < 25 * base + 2.0, (base, hard)
    assert json.dumps([base, hard])  # the figures, for a failing run's message
