"""A file that is not valid UTF-8 is read as the framework's checker reads it
(each invalid byte as U+FFFD), so one bad byte silences nothing: SL002 says
where the bytes are wrong, every other check still runs on the file, and no
fix writes it back (its bytes could not be kept)."""

from __future__ import annotations

from standards_lint.engine.run import lint
from standards_lint.fixes.fixer import fix_project

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

STATE = ".standards/STATE.md"
# Recovery.Active true with no frame (SL501, with a safe fix), and a Request
# saved by an editor in cp1252: `é` is the byte 0xe9, not valid UTF-8.
BROKEN_STATE = CLEAN_STATE.replace("## Recovery\n\n`Active`: `false`", "## Recovery\n\n`Active`: `true`").encode(
    "utf-8").replace(b"`Installed.`", b"`Install\xe9.`")


def _tree(tmp_path, state_bytes: bytes):
    write_tree(tmp_path, RUNTIME)
    (tmp_path / STATE).write_bytes(state_bytes)
    return tmp_path


def test_one_bad_byte_is_reported_and_the_file_is_still_checked(tmp_path):
    root = _tree(tmp_path, BROKEN_STATE)
    findings = lint(str(root), use_git=False).findings
    at_state = {f.code: f for f in findings if f.path == STATE}
    assert "SL002" in at_state
    bad = at_state["SL002"]
    # Line and column of the bad byte: `Reason`: `Install<0xe9>.` on line 13.
    line = BROKEN_STATE.split(b"\n").index(next(l for l in BROKEN_STATE.split(b"\n") if b"\xe9" in l)) + 1
    assert (bad.line, bad.column) == (line, BROKEN_STATE.split(b"\n")[line - 1].index(b"\xe9") + 1)
    assert "U+FFFD" in bad.message
    # The rest of STATE.md is checked as usual.
    assert "SL501" in at_state


def test_no_fix_writes_a_file_that_is_not_valid_utf8(tmp_path):
    root = _tree(tmp_path, BROKEN_STATE)
    sl501 = [f for f in lint(str(root), use_git=False).findings if f.code == "SL501"]
    assert sl501 and all(f.fix is None for f in sl501)
    fix_project(str(root), unsafe=True, use_git=False)
    assert (root / STATE).read_bytes() == BROKEN_STATE


def test_the_same_file_saved_as_utf8_gets_its_fix(tmp_path):
    # The witness for the test above: only the encoding withholds the fix.
    good = BROKEN_STATE.replace(b"\xe9", "é".encode("utf-8"))
    root = _tree(tmp_path, good)
    findings = lint(str(root), use_git=False).findings
    assert "SL002" not in {f.code for f in findings}
    assert any(f.code == "SL501" and f.fix is not None for f in findings)
