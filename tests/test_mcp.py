"""``standards-lint mcp``: the installed console script as a subprocess,
driven by the MCP SDK's own stdio client (no mocked transport), compared
with the command line on the same trees."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed")
import anyio  # noqa: E402  (the SDK's own dependency)
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

from standards_lint import cli  # noqa: E402
from standards_lint.agents.mcp import DESCRIPTIONS, TOOLS, Service, config_for  # noqa: E402

from .parity.harness import iter_cases, materialize  # noqa: E402

SCRIPT = shutil.which("standards-lint", path=os.path.dirname(sys.executable)) or shutil.which("standards-lint")
ROOT = Path(__file__).resolve().parent.parent
# Parity cases with problems and fixes: mut-0005 (one safe and two unsafe
# fixes, no git), mut-0055 (a safe fix, a HEAD commit).
CASES = ("mut-0005", "mut-0055")
TIMEOUT = 30

pytestmark = pytest.mark.skipif(SCRIPT is None, reason="the standards-lint console script is not installed")


def _case(case_id: str) -> dict:
    for case in iter_cases(("mutations.jsonl.gz",)):
        if case["id"] == case_id:
            return case
    raise LookupError(case_id)


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A private cache folder for the server and the CLI runs, with the result
    cache on (the suite's conftest turns it off): the server's reuse of
    answers is what these tests hold to the CLI's fresh results."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("STANDARDS_LINT_CACHE_DIR", str(cache))
    monkeypatch.delenv("STANDARDS_LINT_NO_CACHE", raising=False)
    return dict(os.environ)


def _cli(*args: str, env=None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=TIMEOUT)


def _in_process(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(list(args))
    return out.getvalue()


def _session(body, cwd, env):
    """Run ``await body(session)`` against a fresh ``standards-lint mcp``."""

    async def main():
        params = StdioServerParameters(command=SCRIPT, args=["mcp"], cwd=str(cwd), env=env)
        with anyio.fail_after(120):
            async with stdio_client(params, errlog=open(os.devnull, "w")) as (r, w):
                async with ClientSession(r, w) as session:
                    await session.initialize()
                    return await body(session)

    return anyio.run(main)


async def _call(session, name, args=None):
    with anyio.fail_after(TIMEOUT):
        return await session.call_tool(name, args or {})


def _tree(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def test_lists_the_tools_with_schemas_and_true_annotations(tmp_path, env):
    async def body(s):
        return (await s.list_tools()).tools

    tools = {t.name: t for t in _session(body, ROOT / "fixtures" / "demo", env)}
    assert set(tools) == {"status", "check", "explain", "fix", "rules"}
    for name, t in tools.items():
        assert t.description == DESCRIPTIONS[name]
        assert t.input_schema["type"] == "object" and "path" in t.input_schema["properties"]
        assert t.output_schema["type"] == "object"
        a = t.annotations
        read_only = name != "fix"
        assert a.read_only_hint is read_only
        assert a.destructive_hint is (not read_only)
        assert a.idempotent_hint is True and a.open_world_hint is False
    assert tools["explain"].input_schema["required"] == ["code"]
    assert set(tools["check"].input_schema["properties"]) == {"path", "role", "turn_end", "select", "ignore",
                                                             "target_version"}
    assert set(tools["fix"].input_schema["properties"]) == {"path", "codes", "apply", "unsafe", "turn_end"}


@pytest.mark.parametrize("case_id", CASES)
def test_tools_answer_as_the_command_line(case_id, tmp_path, env):
    case = _case(case_id)
    root = materialize(case, str(tmp_path))
    r = str(root)
    # two copies for the writes: one fixed by the CLI, one by the server
    by_cli, by_mcp = tmp_path / "cli", tmp_path / "mcp"
    shutil.copytree(root, by_cli, symlinks=True)
    shutil.copytree(root, by_mcp, symlinks=True)
    by_cli_unsafe, by_mcp_unsafe = tmp_path / "cli-u", tmp_path / "mcp-u"
    shutil.copytree(root, by_cli_unsafe, symlinks=True)
    shutil.copytree(root, by_mcp_unsafe, symlinks=True)

    async def body(s):
        out = {}
        for key, name, args in [
            ("check", "check", {}), ("check-again", "check", {}),
            ("role", "check", {"role": "developer"}),
            ("turn", "check", {"turn_end": True, "ignore": ["SL9"]}),
            ("status", "status", {}),
            ("diff", "fix", {}), ("diff-unsafe", "fix", {"unsafe": True}),
            ("rules", "rules", {}), ("explain", "explain", {"code": "sl501"}),
            ("apply", "fix", {"path": str(by_mcp / ".standards"), "apply": True}),
            ("apply-unsafe", "fix", {"path": str(by_mcp_unsafe), "apply": True, "unsafe": True}),
        ]:
            res = await _call(s, name, args)
            assert not res.is_error, res.content
            assert json.loads(res.content[0].text) == res.structured_content
            out[key] = res.structured_content
        return out

    got = _session(body, root, env)
    cli_json = json.loads(_cli(r, "--format", "json", "--no-cache", env=env).stdout)
    assert cli_json["findings"], "the parity case has problems"
    assert got["check"] == cli_json == got["check-again"]
    # Both say which framework release the project was checked by (docs/releases.md).
    assert got["check"]["summary"]["release"]["source"] == "VERSION.json"
    assert got["status"]["release"] == got["check"]["summary"]["release"]
    assert got["role"] == json.loads(_cli(r, "--format", "json", "--no-cache", "--role", "developer", env=env).stdout)
    assert got["role"]["summary"]["role"]["role"] == "DEVELOPER"
    assert got["turn"] == json.loads(_cli(r, "--format", "json", "--no-cache", "--turn-end", "--ignore", "SL9",
                                          env=env).stdout)
    assert got["status"] == json.loads(_cli("status", r, "--format", "json", env=env).stdout)
    diff = _cli(r, "--diff", env=env).stdout
    assert diff and got["diff"]["diff"] == diff and got["diff"]["applied"] is False
    assert got["diff-unsafe"]["diff"] == _cli(r, "--diff", "--unsafe-fixes", env=env).stdout
    assert got["diff"]["files"] and got["diff"]["fixed"] >= 1
    assert got["rules"]["rules"] == json.loads(_cli("rules", "--format", "json", env=env).stdout)
    rule = json.loads(_cli("rule", "SL501", "--format", "json", env=env).stdout)
    page = _cli("rule", "SL501", env=env).stdout
    assert got["explain"] == {**rule, "page": page}
    # nothing was written by the diffs; the writes equal --fix's
    assert _tree(root) == _tree(by_cli)
    _cli(str(by_cli), "--fix", env=env)
    _cli(str(by_cli_unsafe), "--fix", "--unsafe-fixes", env=env)
    assert _tree(by_mcp) == _tree(by_cli) != _tree(root)
    assert _tree(by_mcp_unsafe) == _tree(by_cli_unsafe)
    assert got["apply"]["applied"] is True and got["apply"]["diff"] == diff


def test_bad_calls_are_tool_errors_and_the_server_stays_up(tmp_path, env):
    case = _case("mut-0005")
    root = materialize(case, str(tmp_path))
    outside = tmp_path / "outside"
    outside.mkdir()
    # STATE.md (which the safe fix edits) as a symlink to a file outside the project
    state = root / ".standards" / "STATE.md"
    real = outside / "STATE.md"
    shutil.move(str(state), real)
    state.symlink_to(real)
    before = real.read_bytes()
    a_file = root / ".standards" / "MODE.md"

    async def body(s):
        out = []
        for name, args in [
            ("check", {"path": str(outside)}),
            ("status", {"path": str(a_file)}),
            ("check", {"path": str(tmp_path / "no-such-folder")}),
            ("explain", {"code": "SL50"}),
            ("explain", {}),
            ("check", {"role": "PILOT"}),
            ("check", {"select": ["NOPE1"]}),
            ("check", {"colour": True}),
            ("fix", {"apply": True, "unsafe": True}),
        ]:
            res = await _call(s, name, args)
            ok = await _call(s, "status", {})
            out.append((name, res.is_error, res.content[0].text, ok.is_error, ok.structured_content))
        return out

    results = _session(body, root, env)
    reasons = [text for _name, is_error, text, _ok_err, _doc in results]
    assert all(is_error for _n, is_error, *_ in results), reasons
    assert all(not ok_err and doc["next"] for *_, ok_err, doc in results)
    assert "no .standards/ folder" in reasons[0]
    assert "is not a folder" in reasons[1]
    assert "does not exist" in reasons[2]
    assert "unknown rule SL50" in reasons[3]
    assert "`code` is required" in reasons[4]
    assert "unknown role" in reasons[5]
    assert "NOPE1" in reasons[6]
    assert "unknown argument colour" in reasons[7]
    assert "symlink" in reasons[8] and "nothing written" in reasons[8]
    assert real.read_bytes() == before and state.is_symlink()


def _variants(text: str) -> list[str]:
    """STATE.md texts that give different findings: the case as written, its
    Recovery flag set, and a stray heading."""
    flipped = text.replace("`Active`: `false`", "`Active`: `true`", 1)
    assert flipped != text
    return [text, flipped, text + "\n## Stray Section\n\nprose\n"]


def test_a_long_run_on_a_tree_edited_between_calls(tmp_path, env):
    case = _case("mut-0005")
    root = materialize(case, str(tmp_path))
    r = str(root)
    state = root / ".standards" / "STATE.md"
    variants = _variants(state.read_text("utf-8"))

    async def body(s):
        mismatches = []
        for i in range(200):
            if i % 4 == 0:  # an edit every other pair of calls; the rest are repeats on an unchanged tree
                state.write_text(variants[(i // 4) % len(variants)] + f"\n<!-- edit {i} -->\n", "utf-8")
            tool = ("check", "status", "fix", "check")[i % 4]
            res = await _call(s, tool, {})
            assert not res.is_error, res.content
            if tool == "check":
                want = json.loads(_in_process(r, "--format", "json", "--no-cache"))
            elif tool == "status":
                want = json.loads(_in_process("status", r, "--format", "json"))
            else:
                want = _in_process(r, "--diff")
            got = res.structured_content if tool != "fix" else res.structured_content["diff"]
            if got != want:
                mismatches.append((i, tool))
        return mismatches

    assert _session(body, root, env) == []


def test_repeated_calls_reuse_the_answer_until_the_tree_changes(tmp_path, env):
    root = materialize(_case("mut-0005"), str(tmp_path))
    service = Service(cwd=str(root))
    first = service.call("check", {})
    assert service.hits == 0
    assert service.call("check", {}) == first and service.hits == 1
    assert service.call("check", {"role": "TESTER"})["summary"]["role"]["role"] == "TESTER"
    assert service.hits == 1  # another question
    state = root / ".standards" / "STATE.md"
    state.write_text(_variants(state.read_text("utf-8"))[1], "utf-8")
    again = service.call("check", {})
    assert service.hits == 1 and again != first
    assert again == json.loads(_in_process(str(root), "--format", "json", "--no-cache"))


def _full_walk_key(root: Path, question: tuple) -> str:
    """The key a later call makes for *question*: from a whole stat walk."""
    from standards_lint.engine import cache

    r = str(root)
    return cache.key(r, [repr(question)], use_git=True, config_path=None, walked=list(cache.stat_walk(r)))


def _odd_tree(tmp_path) -> Path:
    """mut-0005 with what a listing and a stat walk could see differently:
    nested folders, files that are not Markdown, an empty folder, a folder
    the walk skips, symlinks to a file and to a folder, a dangling symlink."""
    root = materialize(_case("mut-0005"), str(tmp_path))
    (root / "src" / "deep" / "er").mkdir(parents=True)
    (root / "src" / "deep" / "er" / "a.md").write_text("# a\n", "utf-8")
    (root / "src" / "b.txt").write_text("b\n", "utf-8")
    (root / "src" / "b-c.md").write_text("# b-c\n", "utf-8")  # '-' and '.' sort before '/':
    (root / "src" / "b").mkdir()  # the folder b comes after b-c.md and b.txt
    (root / "src" / "b" / "inside.md").write_text("# inside\n", "utf-8")
    (root / "empty").mkdir()
    (root / "node_modules" / "x").mkdir(parents=True)
    (root / "node_modules" / "x" / "y.md").write_text("# y\n", "utf-8")
    os.symlink("src/b.txt", root / "link.txt")
    os.symlink("src", root / "linked-folder")
    os.symlink("nowhere.md", root / "dangling.md")
    os.symlink("src/b-c.md", root / "linked.md")  # read through: its fstat is the target's
    return root


def test_the_first_answer_is_keyed_as_a_later_walk_keys_it(tmp_path, env):
    """The first call lists the tree as the command line does and keys its
    answer by the stats of what it read (no walk before the lint): the key
    is the one a whole stat walk gives, so the next call on the unchanged
    tree reuses the answer, settled or not."""
    root = _odd_tree(tmp_path)
    for settle in (True, False):
        service = Service(cwd=str(root))
        first = service.call("check", {})
        assert service.unsettled
        if settle:
            service.settle()
            assert not service.unsettled
            (key, _), = service._roots[str(root)].answers.values()
            assert key == _full_walk_key(root, ("check", None, False, None, None, None))
        assert service.call("check", {}) == first and service.hits == 1
        assert not service.unsettled
    assert first == json.loads(_in_process(str(root), "--format", "json", "--no-cache"))


def test_an_idle_server_settles_the_first_answer_and_collects(tmp_path, env):
    """Once no call is running, the server finishes the first answer's key
    and runs the collector (which it holds back during calls), never
    while a call runs."""
    import gc

    root = materialize(_case("mut-0005"), str(tmp_path))
    service = Service(cwd=str(root))
    first = service.call("check", {})
    assert service.unsettled
    gc.disable()  # as the server holds it: only the idle work collects
    try:
        _idle_work_waits_for_calls(service, first)
    finally:
        gc.enable()


def _idle_work_waits_for_calls(service: Service, first: dict) -> None:
    import gc
    import time

    from standards_lint.agents.mcp import IDLE_AFTER_S, _Idle

    collections = gc.get_stats()[2]["collections"]
    idle = _Idle(service)
    idle.before_call()
    idle.before_call()  # two calls at once: the first answered, the other still running
    idle.after_call()
    time.sleep(IDLE_AFTER_S * 3)
    assert service.unsettled and gc.get_stats()[2]["collections"] == collections  # not while a call runs
    idle.after_call()
    deadline = time.monotonic() + IDLE_AFTER_S + 10
    while (service.unsettled or gc.get_stats()[2]["collections"] == collections) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not service.unsettled
    assert gc.get_stats()[2]["collections"] > collections
    assert service.call("check", {}) == first and service.hits == 1


def test_calls_without_a_pause_keep_memory_bounded(tmp_path, env):
    """A call that starts while more than BURST_OBJECTS objects were made
    since the last collection (calls following each other with no pause, so
    no idle collection) collects the young generations first; below it,
    a call starts at once."""
    import gc

    from standards_lint.agents.mcp import BURST_OBJECTS, _Idle

    idle = _Idle(Service(cwd=str(tmp_path)))
    gc.disable()  # as the server holds it
    try:
        gc.collect()
        for _ in range(BURST_OBJECTS // 2):
            cycle = []
            cycle.append(cycle)  # garbage only a collection frees
        young = gc.get_count()[0]
        idle.before_call()
        assert gc.get_count()[0] >= young  # below the bound: no collection
        idle.after_call()
        for _ in range(BURST_OBJECTS):
            cycle = []
            cycle.append(cycle)
        assert gc.get_count()[0] > BURST_OBJECTS
        idle.before_call()
        assert gc.get_count()[0] < BURST_OBJECTS // 10
        idle.after_call()
    finally:
        gc.enable()


def test_an_edit_during_the_first_call_is_never_hidden(tmp_path, env):
    """A file changed after the first lint read it (or a file created after
    it listed the tree) gives the next call another key: the answer made
    from the old text is not reused."""
    root = materialize(_case("mut-0005"), str(tmp_path))
    state = root / ".standards" / "STATE.md"
    variants = _variants(state.read_text("utf-8"))
    for edit in ("changed", "created"):
        state.write_text(variants[0], "utf-8")
        service = Service(cwd=str(root))
        lint = service._lint

        def lint_then_edit(*args, **kwargs):
            result = lint(*args, **kwargs)  # the files are read: now another agent writes
            if edit == "changed":
                state.write_text(variants[1], "utf-8")
            else:
                (root / ".standards" / "docs" / "late.md").write_text("# late\n", "utf-8")
            return result

        service._lint = lint_then_edit
        first = service.call("check", {})
        service._lint = lint
        service.settle()
        again = service.call("check", {})
        assert service.hits == 0, edit
        assert again == json.loads(_in_process(str(root), "--format", "json", "--no-cache")), edit
        if edit == "changed":
            assert again != first
        (root / ".standards" / "docs" / "late.md").unlink(missing_ok=True)


def test_malformed_json_rpc_gets_an_answer_not_a_hang_or_a_traceback(tmp_path, env):
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": HANDSHAKE_PROTOCOL_VERSIONS[-1], "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "0"}}}
    lines = [
        b"{this is not json\n",
        b"\xff\xfe garbage bytes\n",
        b'{"jsonrpc": "2.0", "id": 7}\n',
        json.dumps(init).encode() + b"\n",
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n',
        b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "check", "arguments": {"path": 5}}}\n',
        b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "nope"}}\n',
        # Issue 43: the SDK dropped these two without an answer.
        b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "check", "arguments": {"path": "\\ud800"}}}\n',
        b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": ["check", {"path": "."}]}\n',
        b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "status", "arguments": {}}}\n',
    ]
    proc = subprocess.Popen([SCRIPT, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=str(ROOT / "fixtures" / "demo"), env=env)
    answers = []

    def answer(request_id):
        """Read lines until the answer to *request_id* (at most TIMEOUT seconds)."""
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        deadline = _now() + TIMEOUT
        while _now() < deadline:
            if not sel.select(timeout=1):
                continue
            line = proc.stdout.readline()
            assert line, "the server closed its output"
            assert b"Traceback" not in line
            msg = json.loads(line)  # every line on stdout is JSON-RPC
            answers.append(msg)
            if msg.get("id") == request_id:
                return msg
        raise AssertionError(f"no answer to request {request_id}: the server hangs")

    try:
        for line in lines:
            proc.stdin.write(line)
            proc.stdin.flush()
            msg = json.loads(line) if line.startswith(b'{"') else None
            if msg and "method" in msg and "id" in msg:
                answer(msg["id"])
        by_id = {a.get("id"): a for a in answers}
        assert by_id[1]["result"]["serverInfo"]["name"] == "standards-lint"
        assert by_id[2]["result"]["isError"] is True
        assert "`path` must be a string" in by_id[2]["result"]["content"][0]["text"]
        assert by_id[3].get("error") or by_id[3]["result"]["isError"] is True
        assert by_id[4]["result"].get("isError") is not True and by_id[4]["result"]["structuredContent"]["next"]
        # A lone surrogate is read as U+FFFD (as invalid UTF-8 is): no such folder.
        assert by_id[5]["result"]["isError"] is True
        assert by_id[5]["result"]["content"][0]["text"] == "\ufffd does not exist"
        # params must be an object in MCP: a JSON-RPC error, the server stays up (id 4 after it).
        assert by_id[6]["error"]["code"] == -32602 and "must be an object" in by_id[6]["error"]["message"]
        proc.stdin.close()
        assert proc.wait(timeout=TIMEOUT) == 0  # stdin closed: the server ends by itself
        assert b"Traceback" not in proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _now() -> float:
    import time

    return time.monotonic()


def test_print_config_for_both_clients(env):
    import tomli

    claude = _cli("mcp", "print-config", "--client", "claude", env=env)
    assert claude.returncode == 0
    assert json.loads(claude.stdout) == {"mcpServers": {"standards-lint": {"command": "standards-lint", "args": ["mcp"]}}}
    codex = _cli("mcp", "print-config", "--client", "codex", "--command", "/opt/bin/standards-lint", env=env)
    assert codex.returncode == 0 and codex.stdout == config_for("codex", "/opt/bin/standards-lint")
    assert tomli.loads(codex.stdout) == {"mcp_servers": {"standards-lint": {"command": "/opt/bin/standards-lint",
                                                                             "args": ["mcp"]}}}
    assert _cli("mcp", "print-config", "--client", "vim", env=env).returncode == 2
    assert _cli("mcp", "serve-forever", env=env).returncode == 2


def test_docs_hold_each_tool_description():
    agents = (ROOT / "docs" / "agents.md").read_text("utf-8")
    readme = (ROOT / "README.md").read_text("utf-8")
    for name, description in DESCRIPTIONS.items():
        assert description in agents, name
    assert "standards-lint mcp" in readme and "mcp print-config" in readme


def test_fix_for_given_codes_is_diff_with_select(tmp_path, env):
    root = materialize(_case("mut-0005"), str(tmp_path))
    service = Service(cwd=str(root))
    every = service.call("fix", {"unsafe": True})
    assert len(every["codes"]) >= 2  # fixes of several codes, to choose among
    for code in every["codes"]:
        one = service.call("fix", {"codes": [code], "unsafe": True})
        assert set(one["codes"]) == {code}
        assert one["diff"] == _in_process(str(root), "--diff", "--unsafe-fixes", "--select", code)


def test_check_by_another_framework_release(tmp_path, env):
    """`target_version` chooses the release as --target-version does
    (docs/releases.md); the answer says so, and a bad one is a tool error."""
    root = materialize(_case("mut-0005"), str(tmp_path))
    service = Service(cwd=str(root))
    own = service.call("check", {})["summary"]["release"]
    assert own["source"] == "VERSION.json"
    other = service.call("check", {"target_version": "0.9.1"})["summary"]["release"]
    assert other == {"release": "0.8.0", "requested": "0.9.1", "source": "MCP request", "beyond": None}
    assert service.call("check", {})["summary"]["release"] == own  # not the other answer, cached or not
    with pytest.raises(Exception, match="target_version"):
        service.call("check", {"target_version": "soon"})
