"""``standards-lint server``: a Language Server Protocol server over stdio.

It needs the ``server`` extra (``pip install 'standards-lint[server]'``,
which brings pygls and lsprotocol); the plain linter never imports this
module's dependencies.  What it does (docs/editors.md):

- diagnostics for every workflow file of each project in the workspace,
  linted with the editor's unsaved texts and the disk for the rest, on open,
  change and save; files whose findings changed are published again and
  findings that went away are cleared;
- code actions: each finding's fix (safe ones preferred, unsafe ones
  labelled), and "fix all safe fixes in this file", as the edits ``--fix``
  makes;
- a hover on STATE.md's title: `standards-lint status` (docs/status.md);
- hovers on findings (the rule, its protocol section and sentence, the fix
  safety) and on STATE.md field names (what the field means, its values);
- go to definition and references across the workflow graph, and document
  outlines;
- the initialization options ``select``, ``ignore`` and ``turnEnd`` (the
  command line's ``--select``, ``--ignore`` and ``--turn-end``) and ``docsUrl``.

The model behind it (caches, navigation) is :mod:`standards_lint.lsp.core`.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

INSTALL_HINT = "pip install 'standards-lint[server]'"
# "Fix all safe fixes in this file": a kind of its own under source.fixAll, so
# that an editor's fix-on-save can ask for this server's fix-all alone
# (``"source.fixAll.standards-lint"``) and not every other fix-all provider's.
FIX_ALL_KIND = "source.fixAll.standards-lint"


def kind_requested(kind: str, only) -> bool:
    """Whether a code action of *kind* answers a request for *only*: kinds
    are hierarchical, a requested kind covers itself and its sub-kinds
    (``source`` and ``source.fixAll`` cover ``source.fixAll.standards-lint``)."""
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def _missing() -> Optional[str]:
    """The first of the server's dependencies that cannot be imported."""
    import importlib

    for name in ("lsprotocol.types", "pygls.lsp.server"):
        try:
            importlib.import_module(name)
        except ImportError:
            return name.split(".")[0]
    return None


def main(argv: "list[str] | None" = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="standards-lint server",
        description="Run the standards-lint language server on stdin/stdout (see docs/editors.md).",
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only transport)")
    try:
        p.parse_args(argv or [])
    except SystemExit as exc:
        return int(exc.code or 0)
    missing = _missing()
    if missing is not None:
        print(f"standards-lint: the language server needs `{missing}`, which the server extra installs: "
              f"{INSTALL_HINT}", file=sys.stderr)
        return 2
    import gc

    gc.enable()  # the console script holds it back for one-shot runs; a server lives long
    server = build_server()
    server.start_io()
    return 0


def build_server():
    """The pygls server with every feature registered."""
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from .. import __version__
    from ..engine.links import check_docs_url, rule_url
    from .core import (
        Lines,
        Session,
        definition,
        field_hover,
        finding_at,
        outline,
        references,
        rule_hover,
    )
    from ..engine.project import STATE_PATH
    from ..syntax.source import find_root

    server = LanguageServer("standards-lint", __version__)
    state = _State()

    SEVERITY = {
        "error": types.DiagnosticSeverity.Error,
        "warning": types.DiagnosticSeverity.Warning,
        "info": types.DiagnosticSeverity.Information,
    }
    SYMBOL_KINDS = {
        "section": types.SymbolKind.Namespace,
        "subsection": types.SymbolKind.Module,
        "frame": types.SymbolKind.Event,
        "obligation": types.SymbolKind.Object,
        "step": types.SymbolKind.Function,
        "increment": types.SymbolKind.Package,
        "finding": types.SymbolKind.Event,
        "condition": types.SymbolKind.Constant,
        "field": types.SymbolKind.Field,
    }

    # -- helpers --------------------------------------------------------------
    def units(s: str) -> int:
        return server.workspace.position_codec.client_num_units(s)

    def uri_of(session: Session, rel: str) -> str:
        from pygls.uris import from_fs_path

        return from_fs_path(session.abspath(rel))

    def path_of(uri: str) -> Optional[str]:
        from pygls.uris import to_fs_path

        try:
            return to_fs_path(uri)
        except Exception:
            return None

    def session_for(path: Optional[str]) -> Optional[Session]:
        if not path:
            return None
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        root = state.roots.get(folder, False)
        if root is False:
            root = find_root(folder)
            state.roots[folder] = root
        if root is None:
            return None
        root = os.path.abspath(root)
        if root not in state.sessions:
            state.sessions[root] = session = EditorSession(root)
            session.turn_end = state.turn_end
        return state.sessions[root]

    class EditorSession(Session):
        """A project with the editor's initialization options over its
        configuration, as the command line's options are: ``select``
        replaces the configuration's, ``ignore`` adds to it."""

        def load_config(self) -> None:
            before = self.config
            super().load_config()
            config = self.config
            if config is None or config is before or (state.select is None and not state.ignore):
                return
            from ..engine.config import ConfigError, validate_codes
            from ..engine.run import LINTER_CODES

            saved = config.select, config.ignore
            if state.select is not None:
                config.select = list(state.select)
            config.ignore = config.ignore + list(state.ignore)
            try:
                validate_codes(config, {r.code for r in self.registry.rules} | set(LINTER_CODES))
            except ConfigError as exc:
                config.select, config.ignore = saved
                server.window_show_message(types.ShowMessageParams(
                    types.MessageType.Warning,
                    f"standards-lint: initialization options `select`/`ignore`: {exc}; ignored"))

    def locate(uri: str) -> tuple[Optional[Session], Optional[str]]:
        path = path_of(uri)
        session = session_for(path)
        if session is None:
            return None, None
        return session, session.rel(path)

    def lines_of(session: Session, rel: str, cache: dict) -> Lines:
        if rel not in cache:
            cache[rel] = Lines(session.text(rel) or "", units)
        return cache[rel]

    def lsp_range(lines: Lines, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        sl, sc = lines.position(line, column)
        el, ec = lines.position(end_line, end_column)
        if (el, ec) < (sl, sc):
            el, ec = sl, sc
        return types.Range(types.Position(sl, sc), types.Position(el, ec))

    def span_range(lines: Lines, span) -> types.Range:
        return lsp_range(lines, span.line, span.column, span.end_line, span.end_column)

    def docs_link(session: Session, code: str) -> Optional[str]:
        """The rule's page: under the editor's ``docsUrl``, else the
        project's ``docs-url``, else the installed page (a ``file:`` URI);
        None for a rule without a page (a third-party plugin's)."""
        configured = getattr(session.config, "docs_url", None)
        return rule_url(code, state.docs_url or configured)

    def diagnostic(session: Session, f, lines: Lines) -> types.Diagnostic:
        href = docs_link(session, f.code)
        message = f.message
        if f.fix is None and f.help:
            message = f"{message}\n{f.help}"
        return types.Diagnostic(
            range=lsp_range(lines, f.line, f.column, f.end_line, f.end_column),
            message=message,
            severity=SEVERITY.get(f.severity, types.DiagnosticSeverity.Error),
            code=f.code,
            code_description=types.CodeDescription(href=href) if href else None,
            source="standards-lint",
            data={"rule": f.rule, "fix": f.fix.applicability if f.fix else None},
        )

    def version_of(uri: str) -> Optional[int]:
        doc = server.workspace.text_documents.get(uri)
        return doc.version if doc is not None else None

    # -- linting and publishing -------------------------------------------------
    def lint_and_publish(session: Session, triggers: set) -> None:
        run = session.lint()
        published = state.published.setdefault(session.root, {})
        if run is None:
            # An invalid configuration: the command line exits 2; here the
            # user is told once, and the project's diagnostics are cleared.
            if state.config_errors.get(session.root) != session.config_error:
                state.config_errors[session.root] = session.config_error
                server.window_show_message(types.ShowMessageParams(
                    types.MessageType.Error, f"standards-lint: {session.config_error}"))
            new = {}
        else:
            state.config_errors.pop(session.root, None)
            cache: dict = {}
            new = {}
            for rel, findings in run.by_path.items():
                lines = lines_of(session, rel, cache)
                new[uri_of(session, rel)] = [diagnostic(session, f, lines) for f in findings]
        for uri in set(new) | set(published) | triggers:
            diags = new.get(uri, [])
            if uri in triggers or diags != published.get(uri, []):
                server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=version_of(uri)))
        state.published[session.root] = {u: d for u, d in new.items() if d}
        session.dirty = False

    def forget_finished_notifications() -> None:
        """pygls 2.1 keeps the future of every notification whose handler is
        a generator (its own didOpen/didChange/didSave/didClose) in
        ``_request_futures`` and never removes it: one object graph per
        keystroke.  Finished ones are dropped here (a finished future has
        nothing left to cancel or answer)."""
        futures = getattr(server.protocol, "_request_futures", None)
        if isinstance(futures, dict):
            for key in [k for k, f in futures.items() if getattr(f, "done", lambda: False)()]:
                futures.pop(key, None)

    def flush() -> None:
        state.scheduled = False
        forget_finished_notifications()
        pending, state.pending = state.pending, {}
        for root, triggers in pending.items():
            session = state.sessions.get(root)
            if session is None:
                continue
            try:
                lint_and_publish(session, triggers)
            except Exception as exc:  # never take the editor's server down
                import traceback

                server.window_log_message(types.LogMessageParams(
                    types.MessageType.Error, f"standards-lint: lint failed: {exc}\n{traceback.format_exc()}"))

    def schedule(session: Session, uri: Optional[str] = None) -> None:
        """Lint soon: changes that arrive together are linted once."""
        session.dirty = True
        triggers = state.pending.setdefault(session.root, set())
        if uri:
            triggers.add(uri)
        if not state.scheduled:
            state.scheduled = True
            import asyncio

            try:
                asyncio.get_running_loop().call_soon(flush)
            except RuntimeError:  # no loop (called outside the server): now
                flush()

    def fresh(session: Session) -> None:
        """Requests see the findings of the latest texts."""
        if getattr(session, "dirty", False) or session.last is None:
            flush() if state.pending else lint_and_publish(session, set())

    # -- lifecycle ------------------------------------------------------------
    @server.feature(types.INITIALIZE)
    def initialize(ls, params: types.InitializeParams):
        opts = params.initialization_options
        if isinstance(opts, dict) and opts.get("docsUrl") is not None:
            problem = check_docs_url(opts["docsUrl"])
            if problem is None:
                state.docs_url = opts["docsUrl"]
            else:
                ls.window_log_message(types.LogMessageParams(
                    types.MessageType.Warning, f"standards-lint: initialization option `docsUrl` {problem}; ignored"))
        # The command line's --select, --ignore and --turn-end (docs/editors.md).
        if isinstance(opts, dict):
            for key in ("select", "ignore"):
                value = opts.get(key)
                if value is None:
                    continue
                if isinstance(value, list) and all(isinstance(c, str) and c.strip() for c in value):
                    setattr(state, key, [c.strip() for c in value])
                else:
                    ls.window_log_message(types.LogMessageParams(
                        types.MessageType.Warning,
                        f"standards-lint: initialization option `{key}` must be a list of codes; ignored"))
            if opts.get("turnEnd") is not None:
                if isinstance(opts["turnEnd"], bool):
                    state.turn_end = opts["turnEnd"]
                else:
                    ls.window_log_message(types.LogMessageParams(
                        types.MessageType.Warning,
                        "standards-lint: initialization option `turnEnd` must be true or false; ignored"))
        caps = params.capabilities
        we = caps.workspace.workspace_edit if caps and caps.workspace else None
        state.document_changes = bool(we and we.document_changes)
        kinds = (we.resource_operations or []) if we else []
        state.rename_files = types.ResourceOperationKind.Rename in kinds
        watch = caps.workspace.did_change_watched_files if caps and caps.workspace else None
        state.watch_files = bool(watch and watch.dynamic_registration)

    @server.feature(types.INITIALIZED)
    def initialized(ls, params):
        if state.watch_files:
            # Records and configuration changed outside the editor (by a
            # workflow role, git, another tool) are linted again.
            ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="standards-lint-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    types.FileSystemWatcher(glob_pattern=pattern)
                    for pattern in ("**/.standards/**", "**/*.md", "**/pyproject.toml", "**/standards-lint.toml")
                ]))]))
        roots = []
        for folder in (ls.workspace.folders or {}).values():
            p = path_of(folder.uri)
            if p:
                roots.append(p)
        if not roots and ls.workspace.root_path:
            roots.append(ls.workspace.root_path)
        for p in roots:
            s = session_for(p)
            if s is not None:
                schedule(s)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return
        session.set_text(rel, params.text_document.text)
        session.source.invalidate()  # a new file may have appeared
        schedule(session, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        session, rel = locate(uri)
        if session is None or rel is None:
            return
        doc = ls.workspace.get_text_document(uri)
        session.set_text(rel, doc.source)
        schedule(session, uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls, params: types.DidSaveTextDocumentParams):
        session, rel = locate(params.text_document.uri)
        if session is None:
            return
        session.invalidate()  # configuration and tree may have changed too
        schedule(session, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams):
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return
        session.set_text(rel, None)  # the disk's text counts again
        session.source.invalidate()
        schedule(session)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls, params: types.DidChangeWatchedFilesParams):
        for change in params.changes:
            session, _rel = locate(change.uri)
            if session is not None:
                session.invalidate()
                schedule(session)

    # -- code actions -----------------------------------------------------------
    def workspace_edit(session: Session, edits_by_path: dict, renames=()) -> Optional[types.WorkspaceEdit]:
        cache: dict = {}
        if renames and not (state.document_changes and state.rename_files):
            return None
        if state.document_changes:
            changes: list = []
            for rel, edits in edits_by_path.items():
                lines = lines_of(session, rel, cache)
                uri = uri_of(session, rel)
                changes.append(types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version_of(uri)),
                    edits=[types.TextEdit(range=types.Range(
                        types.Position(*lines.offset_position(start)), types.Position(*lines.offset_position(end))),
                        new_text=text) for start, end, text in edits]))
            for r in renames:
                changes.append(types.RenameFile(old_uri=uri_of(session, r.old), new_uri=uri_of(session, r.new)))
            return types.WorkspaceEdit(document_changes=changes)
        out = {}
        for rel, edits in edits_by_path.items():
            lines = lines_of(session, rel, cache)
            out[uri_of(session, rel)] = [types.TextEdit(range=types.Range(
                types.Position(*lines.offset_position(start)), types.Position(*lines.offset_position(end))),
                new_text=text) for start, end, text in edits]
        return types.WorkspaceEdit(changes=out)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    def code_action(ls, params: types.CodeActionParams):
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return []
        fresh(session)
        run = session.last
        if run is None:
            return []
        only = params.context.only if params.context else None
        cache: dict = {}
        lines = lines_of(session, rel, cache)
        findings = run.by_path.get(rel, [])
        actions = []
        only = [str(getattr(k, "value", k)) for k in only or ()]
        want_quick = kind_requested(types.CodeActionKind.QuickFix, only)
        want_all = kind_requested(FIX_ALL_KIND, only)
        r = params.range
        for f in findings:
            if f.fix is None or not want_quick:
                continue
            diag = diagnostic(session, f, lines)
            dr = diag.range
            if (dr.end.line, dr.end.character) < (r.start.line, r.start.character) or \
               (dr.start.line, dr.start.character) > (r.end.line, r.end.character):
                continue
            by_path: dict = {}
            for e in f.fix.edits:
                by_path.setdefault(e.path, []).append((e.start, e.end, e.replacement))
            edit = workspace_edit(session, by_path, f.fix.renames)
            if edit is None:
                continue
            safe = f.fix.applicability == "safe"
            what = f.fix.description or f"fix {f.code}"
            title = f"{f.code}: {what}" if safe else f"{f.code}: {what} (unsafe: review the result)"
            actions.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                                            is_preferred=safe, edit=edit))
        if want_all and any(f.fix is not None and f.fix.applicability == "safe" for f in findings):
            after = session.fix_all(rel)
            before = session.text(rel)
            if after is not None and before is not None:
                start, end, text = _minimal_edit(before, after)
                edit = workspace_edit(session, {rel: [(start, end, text)]})
                if edit is not None:
                    actions.append(types.CodeAction(
                        title="standards-lint: fix all safe fixes in this file",
                        kind=FIX_ALL_KIND, edit=edit))
        return actions

    # -- hovers -----------------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: types.HoverParams):
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return None
        fresh(session)
        text = session.text(rel)
        if text is None:
            return None
        lines = Lines(text, units)
        offset = lines.offset(params.position.line, params.position.character)
        line, column = lines.index.position(offset)
        parts = []
        if session.last is not None:
            rules = session.registry.by_code() if session.registry is not None else {}
            for f in finding_at(session.last.by_path.get(rel, []), line, column):
                r = rules.get(f.code)
                if r is None:
                    from ..engine.run import LINTER_CODES

                    if f.code in LINTER_CODES:
                        name, _sev, summary = LINTER_CODES[f.code]
                        parts.append(f"**{f.code}** `{name}` ({f.severity})\n\n{f.message}\n\n{summary}")
                        continue
                parts.append(rule_hover(r, f, docs_link(session, f.code) or ""))
        doc = session.doc(rel)
        if doc is not None and rel == STATE_PATH:
            field_text = field_hover(doc, offset, session.last.project.release if session.last is not None else None)
            if field_text:
                parts.append(field_text)
            title = doc.title
            if session.last is not None and title is not None and title.span.start <= offset <= title.span.end:
                from ..status.render import status_hover  # on STATE.md's title: where the workflow stands

                status_text = status_hover(session.last)
                if status_text:
                    parts.append(status_text)
        if not parts:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value="\n\n---\n\n".join(parts)))

    # -- navigation ---------------------------------------------------------------
    def locations(session: Session, targets) -> list:
        cache: dict = {}
        return [types.Location(uri=uri_of(session, t.path), range=span_range(lines_of(session, t.path, cache), t.span))
                for t in targets]

    def at_position(params):
        """(session, file, offset) of a request's text position, or None."""
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return None
        text = session.text(rel) or ""
        return session, rel, Lines(text, units).offset(params.position.line, params.position.character)

    def navigate(params, find):
        """The locations ``find(session, file, offset)`` gives at a request's
        text position, or None when there are none."""
        at = at_position(params)
        if at is None:
            return None
        session, rel, offset = at
        return locations(session, find(session, rel, offset)) or None

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def goto_definition(ls, params: types.DefinitionParams):
        return navigate(params, definition)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def find_references(ls, params: types.ReferenceParams):
        include = params.context.include_declaration if params.context else True
        return navigate(params, lambda session, rel, offset: references(session, rel, offset, include))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls, params: types.DocumentSymbolParams):
        session, rel = locate(params.text_document.uri)
        if session is None or rel is None:
            return None
        doc = session.doc(rel)
        if doc is None:
            return []
        lines = Lines(doc.text, units)

        def convert(sym):
            rng = span_range(lines, sym.span)
            sel = span_range(lines, sym.selection)
            if (rng.end.line, rng.end.character) < (sel.end.line, sel.end.character):
                rng = types.Range(rng.start, sel.end)
            if (rng.start.line, rng.start.character) > (sel.start.line, sel.start.character):
                rng = types.Range(sel.start, rng.end)
            return types.DocumentSymbol(name=sym.name, kind=SYMBOL_KINDS.get(sym.kind, types.SymbolKind.String),
                                        range=rng, selection_range=sel, detail=sym.detail or None,
                                        children=[convert(c) for c in sym.children] or None)

        return [convert(s) for s in outline(doc)]

    @server.feature("standards-lint/stats")
    def stats(ls, params):
        """Figures for bench/server.py: live objects, parses, last lint time."""
        import collections
        import gc

        gc.collect()
        objects = gc.get_objects()
        return {
            "objects": len(objects),
            "types": dict(collections.Counter(type(o).__name__ for o in objects).most_common(40)),
            "sessions": {root: {"parsed": s.parse.parsed, "lint_ms": [round(t * 1000, 2) for t in s.lint_times],
                                "last_lint_ms": round(s.last.seconds * 1000, 2) if s.last else None}
                         for root, s in state.sessions.items()},
        }

    server.standards_state = state  # for tests in-process
    return server


class _State:
    def __init__(self):
        self.sessions: dict = {}
        self.roots: dict = {}
        self.published: dict = {}  # root -> uri -> diagnostics last published
        self.pending: dict = {}  # root -> uris that triggered a lint
        self.scheduled = False
        self.config_errors: dict = {}
        self.docs_url: Optional[str] = None
        # Initialization options: the command line's --select, --ignore, --turn-end.
        self.select: Optional[list] = None
        self.ignore: list = []
        self.turn_end = False
        self.document_changes = True
        self.rename_files = True
        self.watch_files = False


def _minimal_edit(before: str, after: str) -> tuple[int, int, str]:
    """One replacement turning *before* into *after*: the changed middle,
    with the common prefix and suffix left alone."""
    n = min(len(before), len(after))
    i = 0
    while i < n and before[i] == after[i]:
        i += 1
    j = 0
    while j < n - i and before[len(before) - 1 - j] == after[len(after) - 1 - j]:
        j += 1
    return i, len(before) - j, after[i:len(after) - j]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
