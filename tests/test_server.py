"""End-to-end tests of ``standards-lint server``: the server runs as a
subprocess and a real LSP client (pytest-lsp, on pygls) talks to it over
stdio.  Each test copies the demo project (fixtures/demo) to a temporary
folder, so nothing of the repository (nor its git history) is involved.

Every wait has a timeout, and pytest-lsp shuts the server down after each
test whatever happened.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo"
CYCLE = "add-user-search-20261130T024246Z-0db7f414"
SYNC = f".standards/docs/synchronization/{CYCLE}.md"
SCOPE = f".standards/docs/scope/{CYCLE}.md"
STATE = ".standards/STATE.md"
TIMEOUT = 15.0

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "standards_lint", "server"])


def _uri(root: Path, rel: str) -> str:
    return (root / rel).resolve().as_uri()


async def _wait_for(client: LanguageClient, predicate, what: str):
    """Wait (bounded) until *predicate()* holds, re-checked after every
    diagnostics notification."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while not predicate():
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise AssertionError(f"timed out waiting for {what}; diagnostics: "
                                 f"{ {u: [d.code for d in ds] for u, ds in client.diagnostics.items()} }")
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS),
                                   timeout=min(left, 1.0))
        except asyncio.TimeoutError:
            pass


def _codes(client: LanguageClient, uri: str) -> list:
    return sorted(str(d.code) for d in client.diagnostics.get(uri, []))


def _apply(text: str, edits: list) -> str:
    """Apply LSP text edits (ASCII text: characters are UTF-16 units)."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)

    def off(p):
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: off(e.range.start), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end):]
    return text


def _file_of(uri: str) -> Path:
    from urllib.parse import unquote, urlsplit

    return Path(unquote(urlsplit(uri).path))


def _installed_docs() -> str:
    from standards_lint.engine.links import docs_dir

    return docs_dir()


def _position(text: str, needle: str, skip: int = 0) -> types.Position:
    offset = text.index(needle) + skip
    line = text.count("\n", 0, offset)
    return types.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


@pytest.fixture
def demo(tmp_path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def _accept_registrations(client: LanguageClient) -> None:
    """Answer client/registerCapability as editors do (the server asks to
    watch the workflow files)."""
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        client.registrations.extend(params.registrations)
        return None


async def _start(client: LanguageClient, root: Path, options=None, editor: str = "neovim") -> None:
    """Start a session on the workspace folder *root*, with the
    capabilities of *editor* and the initialization *options*."""
    _accept_registrations(client)
    params = types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities(editor),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        initialization_options=options,
    )
    await asyncio.wait_for(client.initialize_session(params), TIMEOUT)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, demo: Path):
    await _start(lsp_client, demo, editor="visual-studio-code")
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


def _open(client: LanguageClient, root: Path, rel: str) -> tuple[str, str]:
    uri = _uri(root, rel)
    text = (root / rel).read_text(encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)))
    return uri, text


async def _open_state(client: LanguageClient, root: Path) -> tuple[str, str]:
    """Open STATE.md and wait for its SL501 (the demo's stale frame)."""
    uri, text = _open(client, root, STATE)
    await _wait_for(client, lambda: "SL501" in _codes(client, uri), "SL501")
    return uri, text


async def _hover(client: LanguageClient, uri: str, position: types.Position):
    return await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), position)), TIMEOUT)


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


@pytest.mark.asyncio
async def test_diagnostics_follow_edits_of_state_and_records(client: LanguageClient, demo: Path):
    state_uri, sync_uri = _uri(demo, STATE), _uri(demo, SYNC)
    # On start, every workflow file's findings, from disk.
    await _wait_for(client, lambda: state_uri in client.diagnostics and sync_uri in client.diagnostics,
                    "the demo's diagnostics")
    assert _codes(client, state_uri) == ["SL214", "SL215", "SL215", "SL353", "SL501"]
    assert _codes(client, sync_uri) == ["SL931"]
    sl501 = next(d for d in client.diagnostics[state_uri] if d.code == "SL501")
    assert sl501.severity == types.DiagnosticSeverity.Error
    assert sl501.source == "standards-lint"
    # No docs-url anywhere: the rule's page installed with the package, a
    # file that opens offline.
    from standards_lint.engine.links import rule_url

    href = sl501.code_description.href
    assert href.startswith("file://") and href == rule_url("SL501")
    assert _file_of(href).read_text(encoding="utf-8").startswith("# SL501: ")
    assert sl501.range == types.Range(types.Position(30, 11), types.Position(30, 15))  # true

    # Edit STATE.md in the editor (unsaved): recovery becomes consistent
    # (SL501 goes), the Handoff kind becomes invalid (a finding appears).
    uri, text = _open(client, demo, STATE)
    edited = text.replace("`Active`: `true`", "`Active`: `false`", 1).replace("`Kind`: `FORWARD`", "`Kind`: `FORWARDS`")
    _change(client, uri, 2, edited)
    await _wait_for(client, lambda: "SL501" not in _codes(client, state_uri), "SL501 to go away")
    assert _codes(client, state_uri) == ["SL214", "SL215", "SL215", "SL220", "SL353"]
    sl220 = next(d for d in client.diagnostics[state_uri] if d.code == "SL220")
    assert sl220.range.start.line == _position(edited, "FORWARDS").line  # on the edited Handoff line
    assert "FORWARDS" in sl220.message

    # A STATE.md edit changes findings on a record: while SYNCHRONIZING the
    # synchronization record may still be in progress (SL931 goes), and back.
    _change(client, uri, 3, edited.replace("`AWAITING_USER_SIGNOFF`", "`SYNCHRONIZING`", 1))
    await _wait_for(client, lambda: _codes(client, sync_uri) == [], "the record's SL931 to be cleared")
    _change(client, uri, 4, edited)
    await _wait_for(client, lambda: _codes(client, sync_uri) == ["SL931"], "SL931 to come back")

    # Closing the buffer: the file on disk counts again.
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await _wait_for(client, lambda: "SL501" in _codes(client, state_uri), "the disk's findings after close")
    assert _codes(client, state_uri) == ["SL214", "SL215", "SL215", "SL353", "SL501"]

    # A record changed on disk by someone else: the watched-files
    # notification (the server registered for it) has it linted again.
    assert [r.method for r in client.registrations] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    sync = demo / SYNC
    sync.write_text(sync.read_text(encoding="utf-8").replace("`IN_PROGRESS`", "`COMPLETE`"), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=sync_uri, type=types.FileChangeType.Changed)]))
    await _wait_for(client, lambda: _codes(client, sync_uri) == [], "the record's SL931 to go after the disk change")


@pytest.mark.asyncio
async def test_code_action_applies_the_fix(client: LanguageClient, demo: Path):
    uri, text = await _open_state(client, demo)
    sl501 = next(d for d in client.diagnostics[uri] if d.code == "SL501")
    actions = await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=sl501.range,
        context=types.CodeActionContext(diagnostics=[sl501]))), TIMEOUT)
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and "SL501" in a.title]
    assert len(quick) == 1 and quick[0].is_preferred
    (change,) = quick[0].edit.document_changes
    assert change.text_document.uri == uri
    fixed = _apply(text, change.edits)
    assert "## Recovery\n\n`Active`: `false`\n" in fixed
    assert fixed.replace("`Active`: `false`", "`Active`: `true`", 1) == text  # nothing else changed
    # The same text as `standards-lint --fix` writes.
    other = demo.parent / "cli"
    shutil.copytree(demo, other)
    subprocess.run([sys.executable, "-m", "standards_lint", str(other), "--fix", "--no-cache"],
                   capture_output=True, timeout=60)
    assert (other / STATE).read_text(encoding="utf-8") == fixed

    # "Fix all safe fixes in this file" makes the same change here (one safe fix).
    fix_all = [a for a in actions if a.kind == "source.fixAll.standards-lint"]
    assert len(fix_all) == 1
    (change,) = fix_all[0].edit.document_changes
    assert _apply(text, change.edits) == fixed

    # Asked only for fix-all actions (as "fix on save" asks), in general or
    # this server's alone: only that one.  Kinds are hierarchical.
    for kinds, want in (([types.CodeActionKind.SourceFixAll], ["source.fixAll.standards-lint"]),
                        (["source.fixAll.standards-lint"], ["source.fixAll.standards-lint"]),
                        (["source"], ["source.fixAll.standards-lint"]),
                        (["source.fixAll.markdownlint"], []), (["source.fix"], []), (["quick"], [])):
        only = await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri), range=sl501.range,
            context=types.CodeActionContext(diagnostics=[], only=kinds))), TIMEOUT)
        assert [a.kind for a in only] == want, kinds

    # An unsafe fix is offered too, labelled and not preferred.
    sl214 = next(d for d in client.diagnostics[uri] if d.code == "SL214")
    actions = await asyncio.wait_for(client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=sl214.range,
        context=types.CodeActionContext(diagnostics=[sl214]))), TIMEOUT)
    (unsafe,) = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and "SL214" in a.title]
    assert "unsafe" in unsafe.title and not unsafe.is_preferred
    removed = _apply(text, unsafe.edit.document_changes[0].edits)
    assert removed.count(f"`SourceCycle`: `{CYCLE}`") == text.count(f"`SourceCycle`: `{CYCLE}`") - 1

    # Applied in the editor: the finding goes; saved and closed, the disk's
    # (now fixed) text counts.
    _change(client, uri, 2, fixed)
    await _wait_for(client, lambda: "SL501" not in _codes(client, uri), "SL501 to go after the fix")
    (demo / STATE).write_text(fixed, encoding="utf-8")
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await _hover(client, uri, types.Position(0, 0))  # a round trip after the close
    assert "SL501" not in _codes(client, uri) and "SL214" in _codes(client, uri)


@pytest.mark.asyncio
async def test_hover_definition_references_and_outline(client: LanguageClient, demo: Path):
    uri, text = await _open_state(client, demo)

    # Hover on the finding: the rule, its section, the protocol's sentence, fix safety.
    hover = await _hover(client, uri, _position(text, "`Active`: `true`", 12))
    value = hover.contents.value
    assert "SL501" in value and "Recovery Mechanics" in value
    assert "> Keep the frame on the stack." in value
    assert "Fix safety" in value and "safe" in value
    # The fix's description ends the sentence once (no "..").
    assert "This finding's fix is safe: Set Recovery.Active to `false`.\n" in value + "\n"
    assert ".." not in value
    assert f"[SL501 documentation]({_uri(Path(_installed_docs()), 'SL501.md')})" in value

    # Hover on a field name: what it means and its allowed values.
    hover = await _hover(client, uri, _position(text, "`WorkflowState`", 3))
    value = hover.contents.value
    assert "WorkflowState" in value and "Allowed values" in value and "`SIGNED_OFF`" in value

    # A record path in Active Work -> that file.
    scope_uri = _uri(demo, SCOPE)
    got = await asyncio.wait_for(client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), _position(text, SCOPE, 5))), TIMEOUT)
    assert [loc.uri for loc in got] == [scope_uri]

    # AC-NNN in a record -> its definition in the active scope.
    spec_uri, spec = _open(client, demo, f".standards/docs/specs/{CYCLE}.md")
    got = await asyncio.wait_for(client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(spec_uri), _position(spec, "AC-002", 2))), TIMEOUT)
    scope_text = (demo / SCOPE).read_text(encoding="utf-8")
    assert [(loc.uri, loc.range.start) for loc in got] == [(scope_uri, _position(scope_text, "AC-002"))]

    # References: every record that cites it.
    refs = await asyncio.wait_for(client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(spec_uri), position=_position(spec, "AC-002", 2),
        context=types.ReferenceContext(include_declaration=True))), TIMEOUT)
    cited = {loc.uri for loc in refs}
    assert {scope_uri, spec_uri, _uri(demo, SYNC)} <= cited

    # The outline of STATE.md.
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri))), TIMEOUT)
    names = [s.name for s in symbols]
    assert ["Active Work", "Handoff", "Recovery", "Outstanding Obligations"] == [
        n for n in names if n in ("Active Work", "Handoff", "Recovery", "Outstanding Obligations")]
    assert "WorkflowState" in names


@pytest.mark.asyncio
async def test_an_open_document_over_max_file_size_is_reported_and_the_server_keeps_answering(
        client: LanguageClient, demo: Path):
    """Issue 43: a didOpen of a 20 MB record was read whole and blocked the
    server (a request sent right after was not answered within 60 s).  The
    command line's max-file-size (8 MiB) holds for open documents too: the
    record is reported as too large (SL006), as the command line reports
    the file, and the next request is answered at once."""
    spec = f".standards/docs/specs/{CYCLE}.md"
    uri = _uri(demo, spec)
    huge = (demo / spec).read_text(encoding="utf-8") + ("word " * 200 + "`code`\n") * 20_500
    assert len(huge) > 20_000_000
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=huge)))
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(_uri(demo, STATE)))), TIMEOUT)
    assert "Recovery" in [s.name for s in symbols]
    await _wait_for(client, lambda: "SL006" in _codes(client, uri), "SL006 on the open record")
    (too_large,) = client.diagnostics[uri]
    assert "larger than max-file-size (8.0 MiB)" in too_large.message and too_large.range.start.line == 0
    # Its outline is not read either.
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri))), TIMEOUT)
    assert not symbols


@pytest.mark.asyncio
async def test_the_projects_max_file_size_holds_for_an_open_document(client: LanguageClient, demo: Path):
    """The limit is the configuration's, as on the command line: a buffer
    that grows past it is reported as too large, and read again once it
    is back under it."""
    (demo / "standards-lint.toml").write_text('max-file-size = "2 KiB"\n', encoding="utf-8")
    spec = f".standards/docs/specs/{CYCLE}.md"
    uri, text = _open(client, demo, spec)
    await _wait_for(client, lambda: uri in client.diagnostics, "the record's diagnostics")
    assert "SL006" not in _codes(client, uri)
    _change(client, uri, 2, text + "word " * 500)
    await _wait_for(client, lambda: "SL006" in _codes(client, uri), "SL006 on the grown buffer")
    assert "larger than max-file-size (2.0 KiB)" in client.diagnostics[uri][0].message
    _change(client, uri, 3, text)
    await _wait_for(client, lambda: "SL006" not in _codes(client, uri), "SL006 gone")


def test_server_without_the_extra_exits_2(tmp_path):
    """Without pygls installed, `standards-lint server` names the install command."""
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pygls', 'lsprotocol'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Block())\n", encoding="utf-8")
    import os

    env = dict(os.environ, PYTHONPATH=str(blocker) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "standards_lint", "server"], capture_output=True, text=True,
                       env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert "pip install 'standards-lint[server]'" in r.stderr


@pytest.fixture
def bare(tmp_path) -> Path:
    root = tmp_path / "bare"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\n\n`WorkflowState`: `SCOPING`\n", encoding="utf-8")
    return root


@pytest_lsp.fixture(config=SERVER)
async def bare_client(lsp_client: LanguageClient, bare: Path):
    await _start(lsp_client, bare)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest.mark.asyncio
async def test_a_project_without_standards_gets_nothing_and_no_error(bare_client: LanguageClient, bare: Path):
    uri, text = _open(bare_client, bare, "notes.md")
    _change(bare_client, uri, 2, text + "\nMore.\n")
    hover = await _hover(bare_client, uri, _position(text, "WorkflowState"))
    symbols = await asyncio.wait_for(bare_client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri))), TIMEOUT)
    actions = await asyncio.wait_for(bare_client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[]))), TIMEOUT)
    assert hover is None and not symbols and not actions
    assert bare_client.diagnostics == {}
    assert bare_client.messages == []
    assert [m for m in bare_client.log_messages if m.type == types.MessageType.Error] == []


# -- rule links: the project's docs-url, and the editor's docsUrl over it ---------------------
@pytest.fixture
def documented(tmp_path) -> Path:
    root = tmp_path / "documented"
    shutil.copytree(DEMO, root)
    (root / "standards-lint.toml").write_text('docs-url = "https://docs.test/sl/v1/rules/"\n', encoding="utf-8")
    return root


@pytest_lsp.fixture(config=SERVER)
async def config_client(lsp_client: LanguageClient, documented: Path):
    # An unusable docsUrl is ignored with a warning: the project's docs-url counts.
    await _start(lsp_client, documented, {"docsUrl": "docs/{code}"})
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest_lsp.fixture(config=SERVER)
async def editor_client(lsp_client: LanguageClient, documented: Path):
    await _start(lsp_client, documented, {"docsUrl": "https://mirror.test/rules/{code}.html"})
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


def _hrefs(client: LanguageClient, uri: str) -> dict:
    return {str(d.code): d.code_description.href if d.code_description else None
            for d in client.diagnostics.get(uri, [])}


@pytest.mark.asyncio
async def test_rule_links_follow_the_projects_docs_url(config_client: LanguageClient, documented: Path):
    uri = _uri(documented, STATE)
    await _wait_for(config_client, lambda: "SL501" in _codes(config_client, uri), "SL501")
    hrefs = _hrefs(config_client, uri)
    assert hrefs["SL501"] == "https://docs.test/sl/v1/rules/SL501.md"
    assert all(h == f"https://docs.test/sl/v1/rules/{code}.md" for code, h in hrefs.items())
    warnings = [m.message for m in config_client.log_messages if m.type == types.MessageType.Warning]
    assert any("docsUrl" in m and "ignored" in m for m in warnings), warnings


@pytest.mark.asyncio
async def test_the_editors_docs_url_wins(editor_client: LanguageClient, documented: Path):
    uri = _uri(documented, STATE)
    await _wait_for(editor_client, lambda: "SL501" in _codes(editor_client, uri), "SL501")
    assert _hrefs(editor_client, uri)["SL501"] == "https://mirror.test/rules/SL501.html"


@pytest.mark.asyncio
async def test_hover_on_the_state_title_shows_the_status(client: LanguageClient, demo: Path):
    uri, text = await _open_state(client, demo)
    hover = await _hover(client, uri, _position(text, "S.T.A.N.D.A.R.D.S. Workflow State", 4))
    value = hover.contents.value
    assert "| State | `AWAITING_USER_SIGNOFF` (the user) |" in value
    assert "| **Next** | **USER** (the user decides): The cycle awaits your sign-off." in value
    assert "```mermaid" not in value


# -- initialization options: the command line's --select, --ignore and --turn-end ----------------
@pytest_lsp.fixture(config=SERVER)
async def selecting_client(lsp_client: LanguageClient, demo: Path):
    await _start(lsp_client, demo, {"select": ["SL2", "SL9"], "ignore": ["SL214", "SL931"]})
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest.mark.asyncio
async def test_select_and_ignore_options_choose_codes_as_the_command_line_does(
        selecting_client: LanguageClient, demo: Path):
    uri = _uri(demo, STATE)
    await _wait_for(selecting_client, lambda: "SL215" in _codes(selecting_client, uri), "SL215")
    cli = subprocess.run([sys.executable, "-m", "standards_lint", str(demo), "--format", "json", "--no-cache",
                          "--select", "SL2,SL9", "--ignore", "SL214,SL931"], capture_output=True, text=True)
    import json

    expected = sorted(f["code"] for f in json.loads(cli.stdout)["findings"])
    got = sorted(c for u in selecting_client.diagnostics for c in _codes(selecting_client, u))
    assert got == expected == ["SL215", "SL215"]


@pytest_lsp.fixture(config=SERVER)
async def bad_option_client(lsp_client: LanguageClient, demo: Path):
    await _start(lsp_client, demo, {"select": ["XY9"], "turnEnd": "yes"})
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest.mark.asyncio
async def test_unusable_options_are_reported_and_ignored(bad_option_client: LanguageClient, demo: Path):
    client = bad_option_client
    uri = _uri(demo, STATE)
    await _wait_for(client, lambda: "SL501" in _codes(client, uri), "SL501")
    assert _codes(client, uri) == ["SL214", "SL215", "SL215", "SL353", "SL501"]
    shown = [m.message for m in client.messages if m.type == types.MessageType.Warning]
    assert any("`select`" in m and "XY9" in m and "ignored" in m for m in shown), shown
    logged = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any("`turnEnd`" in m and "ignored" in m for m in logged), logged


@pytest.fixture
def own_record(tmp_path) -> Path:
    from .test_cli import _own_record_misses_a_condition

    root = tmp_path / "own"
    root.mkdir()
    _own_record_misses_a_condition(root)
    return root


@pytest_lsp.fixture(config=SERVER, params=[False, True], ids=["plain", "turn-end"])
async def turn_end_client(request, lsp_client: LanguageClient, own_record: Path):
    await _start(lsp_client, own_record, {"turnEnd": request.param})
    lsp_client.turn_end = request.param
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


@pytest.mark.asyncio
async def test_turn_end_option_runs_the_turn_end_check(turn_end_client: LanguageClient, own_record: Path):
    client = turn_end_client
    (record,) = (own_record / ".standards" / "docs" / "verification").glob("*.md")
    rel = record.relative_to(own_record).as_posix()
    uri, _text = _open(client, own_record, rel)  # an opened file's diagnostics are always published
    await _wait_for(client, lambda: uri in client.diagnostics, f"diagnostics of {rel}")
    if client.turn_end:  # the current state's own COMPLETE record is not held to full coverage
        await asyncio.sleep(0.5)
        assert _codes(client, uri) == []
    else:
        await _wait_for(client, lambda: "SL721" in _codes(client, uri), "SL721")


@pytest.mark.asyncio
async def test_a_change_of_the_framework_release_lints_again(client: LanguageClient, demo: Path):
    """The release comes from `.standards/VERSION.json` (docs/releases.md):
    changed on disk (the watched-files notification) or in the editor, the
    project is linted again by the rules of the release it now names."""
    state_uri = _uri(demo, STATE)
    await _wait_for(client, lambda: state_uri in client.diagnostics, "the demo's diagnostics")
    assert "SL203" not in _codes(client, state_uri)  # a DOCUMENTATION cycle: 0.11.0 has them
    version = demo / ".standards" / "VERSION.json"
    text = version.read_text(encoding="utf-8")
    version.write_text(text.replace('"0.11.0"', '"0.10.0"'), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=_uri(demo, ".standards/VERSION.json"), type=types.FileChangeType.Changed)]))
    await _wait_for(client, lambda: "SL203" in _codes(client, state_uri), "SL203 under 0.10.0 (no DOCUMENTATION)")
    sl203 = next(d for d in client.diagnostics[state_uri] if d.code == "SL203")
    assert "`DOCUMENTATION`" in sl203.message
    # Back to 0.11.0 in the editor, unsaved: the open buffer's release counts.
    uri, disk = _open(client, demo, ".standards/VERSION.json")
    _change(client, uri, 2, disk.replace('"0.10.0"', '"0.11.0"'))
    await _wait_for(client, lambda: "SL203" not in _codes(client, state_uri), "SL203 to go under 0.11.0")
