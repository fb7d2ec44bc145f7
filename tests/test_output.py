"""Text output for people: paths relative to the current folder, the concise
and full formats, help and owner, --statistics, colour, and a closed pipe."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from standards_lint.output import formats as output
from standards_lint.cli import main
from standards_lint.syntax.data import replace
from standards_lint.engine.run import Result, lint
from standards_lint.engine.findings import Edit, Finding, Fix, Rename
from standards_lint.engine.project import Project

from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"
SCRIPT = Path(sys.executable).parent / "standards-lint"


@pytest.fixture(scope="module")
def demo_result():
    return lint(str(DEMO), use_git=False)


def finding(path=".standards/STATE.md", line=1, column=1, end_line=None, end_column=None, **kw) -> Finding:
    return Finding(code=kw.pop("code", "SL999"), severity=kw.pop("severity", "error"), message=kw.pop("message", "msg"),
                   path=path, line=line, column=column, end_line=line if end_line is None else end_line,
                   end_column=column if end_column is None else end_column, section="s", rule="some-rule", **kw)


def result_with(root: Path, files: dict, findings: list[Finding]) -> Result:
    write_tree(root, files)
    return Result(findings, Project(str(root), use_git=False))


# -- relative paths ------------------------------------------------------------
def test_display_path_inside_above_and_far_from_the_current_folder(tmp_path):
    root = tmp_path / "a" / "proj"
    root.mkdir(parents=True)
    rel = ".standards/STATE.md"
    assert output.display_path(rel, str(root), str(root)) == rel
    assert output.display_path(rel, str(root), str(tmp_path)) == "a/proj/.standards/STATE.md"
    assert output.display_path(rel, str(root), str(root / ".standards")) == "STATE.md"
    sibling = tmp_path / "a" / "other"
    sibling.mkdir()
    assert output.display_path(rel, str(root), str(sibling)) == "../proj/.standards/STATE.md"
    deep = tmp_path.joinpath(*"bcdefghijklmnopqrstuvwxyz")
    deep.mkdir(parents=True)
    # ../../../.. would be longer than the absolute path: the absolute path.
    far = output.display_path(rel, str(root), str(deep))
    assert far == str(root / ".standards" / "STATE.md")


def _missing_mode_project(tmp_path) -> Path:
    root = tmp_path / "proj"
    files = {k: v for k, v in RUNTIME.items() if not k.endswith("MODE.md")}
    write_tree(root, dict(files, **{".standards/STATE.md": CLEAN_STATE, "src/x.py": ""}))
    return root


def test_cli_paths_from_a_parent_folder_and_from_inside_the_project(tmp_path, capsys, monkeypatch):
    root = _missing_mode_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["proj", "--no-git", "--output-format", "concise"]) == 1
    assert "proj/.standards/MODE.md:1:1: SL101 " in capsys.readouterr().out
    monkeypatch.chdir(root / "src")
    assert main(["--no-git", "--output-format", "concise"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("../.standards/MODE.md:1:1: SL101 ") for line in lines)
    # JSON (and SARIF) keep project-relative paths, wherever the run starts.
    assert main(["--no-git", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert ".standards/MODE.md" in {f["path"] for f in data["findings"]}


# -- concise ---------------------------------------------------------------------
def test_concise_shows_help_with_its_owner_under_the_finding_line(demo_result):
    findings = [replace(f, help="Set it to false.") if f.code == "SL501" else replace(f, help="")
                for f in demo_result.findings]
    text = output.render_text(Result(findings, demo_result.project), cwd=str(DEMO))
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if " SL501 " in line)
    assert lines[i].startswith(".standards/STATE.md:31:12: SL501 Recovery.Active is `true`")
    assert lines[i + 1] == f"  help ({findings[[f.code for f in findings].index('SL501')].owner}): Set it to false."
    # Only the finding with help has a second line.
    assert len(lines) == len(findings) + 1 + 1


def test_concise_first_lines_stay_machine_parseable(demo_result):
    import re

    text = output.render_text(demo_result, cwd=str(ROOT))
    pattern = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) (?P<msg>.+)$")
    heads = [line for line in text.splitlines() if not line.startswith(("  ", "Found "))]
    assert len(heads) == len(demo_result.findings)
    for line, f in zip(heads, demo_result.findings):
        m = pattern.match(line)
        assert m and (m["path"], int(m["line"]), int(m["col"]), m["code"]) == (f"fixtures/demo/{f.path}", f.line, f.column, f.code)


# -- full --------------------------------------------------------------------------
def _body(text: str) -> list[str]:
    return text.splitlines()[1:]


def test_full_underlines_the_span_and_shows_owner_help_and_fix(tmp_path):
    state = "# T\n\n`Active`: `true`\n"
    start = state.index("true")
    fix = Fix((Edit(".standards/STATE.md", start, start + 4, "false"),), "safe", "Set it to false.")
    f = finding(line=3, column=12, end_column=16, fix=fix, owner="DEVELOPER", help="Check the frames.")
    text = output.render_text(result_with(tmp_path, {".standards/STATE.md": state}, [f]), output_format="full",
                              cwd=str(tmp_path))
    lines = text.splitlines()
    assert lines[0] == ".standards/STATE.md:3:12: SL999 msg"
    assert lines[1:5] == ["  |", "3 | `Active`: `true`", "  |            ^^^^ SL999", "  |"]
    assert lines[5:8] == ["  = owner: DEVELOPER", "  = help: Check the frames.", "  = fix: Set it to false."]
    assert lines[8:12] == ["    @@ -2,3 +2,3 @@", "", "    -`Active`: `true`", "    +`Active`: `false`"]
    assert lines[-1].startswith("Found 1 problem: 1 error (1 fixable with --fix)")


def _caret_row(text: str) -> tuple[str, str]:
    lines = text.splitlines()
    src = next(line for line in lines if line[:1].isdigit() or line.lstrip()[:1].isdigit())
    caret = lines[lines.index(src) + 1]
    return src.split("| ", 1)[1], caret.split("| ", 1)[1]


@pytest.mark.parametrize("line,col,end_col,want_src,want_caret", [
    # A tab before the span: expanded to the next multiple of 4, the caret follows.
    ("\tab `x`", 5, 8, "    ab `x`", "       ^^^"),
    # Wide (East Asian) characters take two columns each.
    ("名前 `x`", 4, 7, "名前 `x`", "     ^^^"),
    # A combining accent takes none.
    ("cafe\u0301 `x`", 7, 10, "cafe\u0301 `x`", "     ^^^"),
    # A control character in the file is shown, never sent to the terminal.
    ("a\x1b[31mb `x`", 9, 12, "a\u241b[31mb `x`", "        ^^^"),
    # An empty span: one caret; a span beyond the end: one caret at the end.
    ("abc", 2, 2, "abc", " ^"),
    ("abc", 4, 4, "abc", "   ^"),
])
def test_full_caret_columns(tmp_path, line, col, end_col, want_src, want_caret):
    f = finding(line=2, column=col, end_column=end_col)
    res = result_with(tmp_path, {".standards/STATE.md": f"# T\n{line}\n"}, [f])
    src, caret = _caret_row(output.render_text(res, output_format="full", cwd=str(tmp_path)))
    assert (src, caret.removesuffix(" SL999")) == (want_src, want_caret)


def test_full_crlf_file_and_multi_line_span(tmp_path):
    f = finding(line=2, column=3, end_line=3, end_column=2)
    res = result_with(tmp_path, {}, [f])
    (tmp_path / ".standards").mkdir(exist_ok=True)
    (tmp_path / ".standards" / "STATE.md").write_bytes(b"# T\r\nabcdef\r\nxyz\r\n")
    text = output.render_text(res, output_format="full", cwd=str(tmp_path))
    assert "\r" not in text
    src, caret = _caret_row(text)
    # The first line, underlined to its end, and a mark that the span goes on.
    assert (src, caret) == ("abcdef", "  ^^^^ ... SL999")


def test_full_without_the_file_text_prints_no_source(tmp_path):
    f = finding(path=".standards/MODE.md", owner="USER")
    res = result_with(tmp_path, {".standards/STATE.md": "# T\n"}, [f])
    lines = output.render_text(res, output_format="full", cwd=str(tmp_path)).splitlines()
    assert lines[:2] == [".standards/MODE.md:1:1: SL999 msg", "  = owner: USER"]


def test_full_shows_renames_and_edits_of_other_files(tmp_path):
    fix = Fix((Edit(".standards/docs/a.md", 0, 1, "B"),), "unsafe", "Move the record.",
              (Rename(".standards/docs/a.md", ".standards/docs/b.md"),))
    f = finding(fix=fix)
    res = result_with(tmp_path, {".standards/STATE.md": "# T\n", ".standards/docs/a.md": "a\n"}, [f])
    text = output.render_text(res, output_format="full", cwd=str(tmp_path / ".standards"))
    assert "= unsafe fix: Move the record." in text
    assert "\n    docs/a.md\n" in text  # the edited file is named: it is not the finding's
    assert "-a" in text and "+B" in text
    assert "rename docs/a.md -> docs/b.md" in text


# -- statistics ---------------------------------------------------------------------
def test_statistics_lines_sorted_by_count_with_fixable_marks(demo_result, capsys):
    text = output.render_statistics(demo_result)
    lines = text.splitlines()
    rows = [line.split() for line in lines[:-1]]
    counts = [int(r[0]) for r in rows]
    assert counts == sorted(counts, reverse=True) and sum(counts) == len(demo_result.findings)
    assert rows[0][:3] == ["2", "SL215", "baseline-lists-active-cycle"]
    assert ["1", "SL501", "[*]", "recovery-active-mismatch"] in rows
    # SL214's fix is unsafe: fixable only with --unsafe-fixes.
    assert ["1", "SL214", "baseline-duplicate-source"] in rows
    assert ["1", "SL214", "[*]", "baseline-duplicate-source"] in [
        line.split() for line in output.render_statistics(demo_result, unsafe=True).splitlines()]
    assert lines[-1].startswith("Found 6 problems")


def test_statistics_through_the_cli_text_and_json(capsys):
    assert main([str(DEMO), "--no-git", "--statistics"]) == 1
    out = capsys.readouterr().out
    assert "SL501" in out and ":31:" not in out  # counts, not findings
    assert main([str(DEMO), "--no-git", "--statistics", "--format", "json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert rows[0] == {"code": "SL215", "name": "baseline-lists-active-cycle", "count": 2, "fixable": False}
    assert {r["code"]: r["fixable"] for r in rows}["SL501"] is True


# -- colour --------------------------------------------------------------------------
@pytest.mark.parametrize("choice,env,tty,want", [
    ("auto", {}, True, True),
    ("auto", {}, False, False),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"NO_COLOR": ""}, True, True),  # set but empty: no effect (no-color.org)
    ("auto", {"FORCE_COLOR": "1"}, False, True),
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
    ("always", {"NO_COLOR": "1"}, False, True),  # the command line wins
    ("never", {"FORCE_COLOR": "1"}, True, False),
])
def test_use_color(choice, env, tty, want):
    class Stream:
        def isatty(self):
            return tty

    assert output.use_color(choice, Stream(), env) is want


def test_color_always_styles_text_and_never_json(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert main([str(DEMO), "--no-git"]) == 1
    assert "\x1b[" not in capsys.readouterr().out  # captured: not a terminal
    assert main([str(DEMO), "--no-git", "--color", "always", "--output-format", "full"]) == 1
    out = capsys.readouterr().out
    assert "\x1b[1;31mSL501\x1b[0m" in out
    import re

    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    from standards_lint.engine.links import rule_url

    assert plain == output.render_text(lint(str(DEMO), use_git=False), output_format="full", doc_link=rule_url)
    assert main([str(DEMO), "--no-git", "--color", "always", "--format", "json"]) == 1
    assert "\x1b[" not in capsys.readouterr().out


def _on_a_terminal(argv: list[str], env: dict) -> str:
    pty = pytest.importorskip("pty")
    try:
        master, slave = pty.openpty()
    except OSError:
        pytest.skip("no pseudo-terminal on this machine")
    proc = subprocess.Popen([str(SCRIPT), *argv], stdout=slave, stderr=subprocess.PIPE, env=env, cwd=str(DEMO))
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=60)
    assert proc.stderr.read() == b""
    assert proc.returncode == 1
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed in this environment")
def test_a_terminal_gets_the_full_format_and_colour_unless_no_color(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    coloured = _on_a_terminal(["--no-git"], env)
    assert "\x1b[" in coloured and " |" in coloured
    plain = _on_a_terminal(["--no-git"], dict(env, NO_COLOR="1"))
    assert "\x1b[" not in plain
    assert "31 | `Active`: `true`" in plain and "= owner: " in plain
    assert plain.splitlines()[0].startswith(".standards/STATE.md:12:1: SL353 ")
    concise = _on_a_terminal(["--no-git", "--output-format", "concise"], dict(env, NO_COLOR="1"))
    assert " |" not in concise


# -- configuration and cache -----------------------------------------------------------
def test_output_format_config_key(tmp_path, capsys, monkeypatch):
    root = _missing_mode_project(tmp_path)
    monkeypatch.chdir(root)
    (root / "standards-lint.toml").write_text('output-format = "ful"\n')
    assert main(["--no-git"]) == 2
    err = capsys.readouterr().err
    assert "`output-format` must be one of concise, full; did you mean `full`?" in err
    (root / "standards-lint.toml").write_text('output-format = "full"\n')
    assert main(["--no-git"]) == 1
    assert "= owner: " in capsys.readouterr().out
    assert main(["--no-git", "--output-format", "concise"]) == 1  # the command line wins
    assert "= owner: " not in capsys.readouterr().out


def test_cached_output_follows_format_and_current_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("STANDARDS_LINT_NO_CACHE")
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    outs = {}
    for where, fmt in ((root, "concise"), (root, "full"), (root, "concise"), (tmp_path, "concise")):
        monkeypatch.chdir(where)
        assert main([str(root), "--no-git", "--output-format", fmt]) == 1
        outs.setdefault((where, fmt), []).append(capsys.readouterr().out)
    assert outs[(root, "concise")][0] == outs[(root, "concise")][1]
    assert outs[(root, "full")][0] != outs[(root, "concise")][0]
    assert outs[(tmp_path, "concise")][0].startswith("demo/.standards/")
    assert outs[(root, "concise")][0].startswith(".standards/")


# -- a closed pipe ------------------------------------------------------------------------
PIPE_COMMANDS = [
    (["rules"], 0),
    (["rule", "SL501"], 0),
    (["plugins"], 0),
    (["--help"], 0),
    ([str(DEMO), "--no-git", "--output-format", "full"], 1),
    ([str(DEMO), "--no-git", "--statistics"], 1),
    ([str(DEMO), "--no-git", "--format", "json"], 1),
]


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed in this environment")
@pytest.mark.parametrize("argv,status", PIPE_COMMANDS)
def test_a_reader_that_closes_first_ends_the_run_quietly(argv, status):
    """The reader is gone before the first write (its end of the pipe is
    closed at once): every write fails with EPIPE."""
    proc = subprocess.Popen([str(SCRIPT), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err
    assert err == ""
    assert proc.returncode == status


@pytest.mark.skipif(not SCRIPT.exists() or shutil.which("head") is None, reason="needs the console script and head")
def test_rules_into_head(tmp_path):
    proc = subprocess.run(f"'{SCRIPT}' rules 2>'{tmp_path / 'err'}' | head -1; echo \"status=${{PIPESTATUS[0]}}\"",
                          shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("SL") and lines[1] == "status=0"
    assert (tmp_path / "err").read_text() == ""


def test_help_over_several_lines_stays_indented(tmp_path):
    f = finding(help="First step.\nSecond step.", owner="AUDITOR")
    res = result_with(tmp_path, {".standards/STATE.md": "# T\n"}, [f])
    concise = output.render_text(res, cwd=str(tmp_path)).splitlines()
    assert concise[1:3] == ["  help (AUDITOR): First step.", "    Second step."]
    full = output.render_text(res, output_format="full", cwd=str(tmp_path)).splitlines()
    i = full.index("  = help: First step.")
    assert full[i + 1] == " " * len("  = help: ") + "Second step."


def test_full_never_fails_on_any_text_or_position(tmp_path_factory):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    root = tmp_path_factory.mktemp("fuzz")
    write_tree(root, {".standards/STATE.md": "# T\n"})
    project = Project(str(root), use_git=False)
    ints = st.integers(min_value=-2, max_value=12)

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.text(max_size=60), ints, ints, ints, ints, st.integers(0, 70), st.integers(0, 70), st.text(max_size=5))
    def check(text, line, col, end_line, end_col, a, b, repl):
        a, b = sorted((min(a, len(text)), min(b, len(text))))
        fix = Fix((Edit(".standards/STATE.md", a, b, repl),), "safe", "")
        f = finding(line=line, column=col, end_line=end_line, end_column=end_col, fix=fix, help="h")
        project._texts[".standards/STATE.md"] = text
        out = output.render_text(Result([f], project), output_format="full", cwd=str(root))
        assert out.startswith(f".standards/STATE.md:{line}:{col}: SL999 msg\n")
        assert "\x1b" not in out and "\r" not in out

    check()


# -- links to the rule pages ---------------------------------------------------------------
def test_full_text_links_each_finding_to_its_rule_page(tmp_path, capsys, monkeypatch):
    """Without docs-url: the page installed with the package (it opens
    offline); with it: the configured page.  Concise output stays one line."""
    from urllib.parse import unquote, urlsplit

    from standards_lint.engine.links import rule_url

    root = _missing_mode_project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["--no-git", "--no-cache", "--output-format", "full"]) == 1
    out = capsys.readouterr().out
    headers = [line for line in out.splitlines() if line.startswith(".standards/")]
    codes = sorted({line.split()[1] for line in headers})
    links = [line.split("= docs: ", 1)[1] for line in out.splitlines() if "= docs: " in line]
    assert codes and len(links) == len(headers)  # one per finding
    for code in codes:
        url = rule_url(code)
        assert url.startswith("file://") and url in links
        assert Path(unquote(urlsplit(url).path)).read_text(encoding="utf-8").startswith(f"# {code}: ")
    (root / "standards-lint.toml").write_text('docs-url = "https://docs.test/sl/rules"\n')
    assert main(["--no-git", "--no-cache", "--output-format", "full"]) == 1
    out = capsys.readouterr().out
    assert {line.split("= docs: ", 1)[1] for line in out.splitlines() if "= docs: " in line} == {
        f"https://docs.test/sl/rules/{code}.md" for code in codes}
    assert main(["--no-git", "--no-cache", "--output-format", "concise"]) == 1
    assert "docs" not in capsys.readouterr().out


def test_links_only_for_codes_with_a_page():
    from standards_lint.engine import links

    assert links.rule_url("XYZ123") is None and links.rule_url("XYZ123", "https://docs.test/r/") is None
    assert links.rule_url("SL501", local=False) is None
    assert links.rule_url("SL501", "https://docs.test/r/", local=False) == "https://docs.test/r/SL501.md"
    assert links.rule_url("SL001", "https://docs.test/r/{code}.html") == "https://docs.test/r/SL001.html"
