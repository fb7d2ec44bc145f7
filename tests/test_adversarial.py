"""Adversarial input (issue 43): every workflow file of a real project, and
the Stop hook's event, corrupted at random as a careless tool or an attacker
would leave them: bytes flipped, cut, repeated or dropped, fragments the
grammar gives meaning to spliced in, long runs (a pasted blob, backticks,
spaces in a heading), invalid UTF-8, NUL, a BOM, UTF-16, CR or CRLF line
ends.

The contract, checked on each example:

- a lint exits 0 or 1 (2 is a usage or configuration error, which no file
  content is), prints no traceback, reports no internal error (SL001) and
  writes JSON;
- ``--fix --unsafe-fixes`` exits 0 or 1, changes nothing outside
  ``.standards/``, and a second run changes nothing at all;
- ``hook stop`` exits 0 (let through) or 2 (sent back, documented in
  docs/agents.md), never 1 (internal error, not checking).

Runs in process (the command line's ``main``, the hook's ``stop``), with
bounded examples and hypothesis derandomized, so CI sees the same examples
every time: about half a minute here.  STANDARDS_LINT_FUZZ_EXAMPLES=N
multiplies nothing but the number of examples for a longer local campaign.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from standards_lint.agents import hook
from standards_lint.cli import main

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo"
WORKFLOW_FILES = sorted(str(p.relative_to(DEMO)) for p in (DEMO / ".standards").rglob("*") if p.is_file())
EXAMPLES = int(os.environ.get("STANDARDS_LINT_FUZZ_EXAMPLES", "0")) or None


def _settings(n: int):
    return settings(max_examples=EXAMPLES or n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


FRAGMENTS = [
    b"`", b"``", b"```", b"````", b"~~~", b"`Active`: `true`", b"`Id`: ", b"`Status`: `COMPLETE`", b": ", b":\n",
    b"# ", b"## Recovery", b"## Active Work", b"### Frame 1", b"### F-001", b"- ", b"  - ", b"1. ",
    b"<!--", b"-->", b"<!-- STANDARDS\nArtifact: REVIEW\nCycle: c\n-->\n", b"<<<<<<< HEAD\n", b"=======\n",
    b">>>>>>> b\n", b"\n", b"\r\n", b"\r", b"\n\n", b"\t", b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\xed\xa0\x80",
    b"AC-001", b"DEV-001", b"x.md#F-001", b"](x.md#F-002)", b"{", b"}", b"[", b'"',
]
LONG = [b"a", b"`", b" ", b"Qm9/", b"F-1](", b"# ", b"- ", b"\n", b"<!--"]


@st.composite
def corrupted(draw, data: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "insert", "long", "cut", "drop", "repeat", "endings", "utf16", "bom"]))
        i = draw(st.integers(0, len(data)))
        j = draw(st.integers(i, min(len(data), i + 200)))
        if op == "flip" and data:
            i = min(i, len(data) - 1)
            data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
        elif op == "insert":
            data = data[:i] + draw(st.sampled_from(FRAGMENTS)) + data[i:]
        elif op == "long":
            data = data[:i] + draw(st.sampled_from(LONG)) * draw(st.integers(100, 20_000)) + data[i:]
        elif op == "cut":
            data = data[:i]
        elif op == "drop":
            data = data[:i] + data[j:]
        elif op == "repeat":
            data = data[:j] + data[i:j] * draw(st.integers(2, 50)) + data[j:]
        elif op == "endings":
            data = data.replace(b"\r\n", b"\n").replace(b"\n", draw(st.sampled_from([b"\r", b"\r\n"])))
        elif op == "utf16":
            data = data.decode("utf-8", "replace").encode("utf-16")
        elif op == "bom":
            data = b"\xef\xbb\xbf" + data
    return data


@st.composite
def damaged_tree(draw):
    """(workflow file, its new bytes): one or two files of the demo project."""
    out = {}
    for _ in range(draw(st.integers(1, 2))):
        rel = draw(st.sampled_from(WORKFLOW_FILES))
        out[rel] = draw(corrupted((DEMO / rel).read_bytes()))
    return out


def _tree(tmp: Path, files: dict) -> Path:
    root = tmp / "project"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(DEMO, root)
    for rel, data in files.items():
        (root / rel).write_bytes(data)
    return root


def _snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def _assert_run(status: int, out: str, err: str, what: str) -> dict:
    assert status in (0, 1), f"{what}: exit {status}\n{err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{what}:\n{err[-2000:]}"
    payload = json.loads(out)
    internal = [f for f in payload["findings"] if f["code"] == "SL001"]
    assert not internal, internal
    return payload


@_settings(400)
@given(files=damaged_tree())
def test_a_corrupted_workflow_file_is_linted_without_a_crash(tmp_path_factory, files):
    root = _tree(tmp_path_factory.mktemp("lint"), files)
    _assert_run(*_cli(str(root), "--format", "json", "--no-git"), "lint")


@_settings(150)
@given(files=damaged_tree())
def test_fix_on_a_corrupted_tree_stays_in_standards_and_a_second_fix_changes_nothing(tmp_path_factory, files):
    root = _tree(tmp_path_factory.mktemp("fix"), files)
    before = _snapshot(root)
    _assert_run(*_cli(str(root), "--fix", "--unsafe-fixes", "--format", "json", "--no-git"), "first --fix")
    after = _snapshot(root)
    outside = lambda snap: {k: v for k, v in snap.items() if not k.startswith(".standards" + os.sep)}  # noqa: E731
    assert outside(after) == outside(before)
    for rel, data in after.items():  # a fixed file keeps its own line ending
        if rel in before and data != before[rel] and _line_ends(before[rel]) not in (None, "none"):
            assert _line_ends(data) in (_line_ends(before[rel]), "none"), rel
    _assert_run(*_cli(str(root), "--fix", "--unsafe-fixes", "--format", "json", "--no-git"), "second --fix")
    assert _snapshot(root) == after


def _line_ends(data: bytes):
    """"lf", "crlf", "cr" or "none" when a file has one kind of line end; None when mixed."""
    crlf, cr, lf = data.count(b"\r\n"), data.count(b"\r"), data.count(b"\n")
    kinds = [k for k, n in (("crlf", crlf), ("cr", cr - crlf), ("lf", lf - crlf)) if n]
    return "none" if not kinds else kinds[0] if len(kinds) == 1 else None


# -- the Stop hook's event -----------------------------------------------------------------------

class _Stdin:
    """What the hook reads: bytes on a pipe (not a terminal)."""

    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


def _event(root: Path) -> dict:
    return {"session_id": "3f2a9c1e", "turn_id": "turn-1", "transcript_path": "/tmp/t.jsonl", "cwd": str(root),
            "hook_event_name": "Stop", "stop_hook_active": False, "model": "m",
            "last_assistant_message": "Done."}


ODD_VALUES = [None, True, 0, -1, 1e308, "", "\ud800", "\udfff x", "x" * 10_000, [], {}, [[[[]]]], "..", "/",
              "\x00", "\u2028", {"cwd": "."}]


@st.composite
def damaged_event(draw, root: Path) -> bytes:
    event = _event(root)
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(sorted(event) + ["extra", "\ud800"]))
        event[key] = draw(st.sampled_from(ODD_VALUES))
    if draw(st.booleans()):
        event = draw(st.sampled_from([event, [event], {"event": event}]))
        depth = draw(st.integers(0, 3)) * 30_000
        text = "[" * depth + json.dumps(event) + "]" * depth
    else:
        text = json.dumps(event)
    data = text.encode("utf-8", "surrogatepass")
    return draw(corrupted(data)) if draw(st.booleans()) else data


@pytest.fixture(scope="module")
def hook_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hook") / "project"
    shutil.copytree(DEMO, root)  # outside git: the hook always checks; the demo has errors (SL501)
    return root


@_settings(300)
@given(data=st.data())
def test_a_corrupted_stop_event_is_checked_never_an_internal_error(hook_project, monkeypatch, data):
    event = data.draw(damaged_event(hook_project))
    monkeypatch.chdir(hook_project)  # an event without a usable cwd: the current folder
    err = io.StringIO()
    status = hook.stop(stdin=_Stdin(event), stderr=err)
    assert status in (hook.PASS, hook.BLOCK), (status, err.getvalue()[-500:])
    assert "internal error" not in err.getvalue() and "Traceback" not in err.getvalue()
