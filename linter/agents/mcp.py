"""``standards-lint mcp``: a Model Context Protocol server over stdio.

    standards-lint mcp                                  (run by the client; JSON-RPC on stdin/stdout)
    standards-lint mcp print-config --client claude|codex [--command CMD]

Layer: beside the CLI's outputs, the fixer, the language server and the
status command.  Every tool answers with the JSON document the command line
prints for the same question (``--format json``, ``status --format json``,
``rules --format json``, ``rule CODE --format json``, ``--diff``), as MCP
structured content and as its text:

- :class:`Service` is the tools without any MCP library: each call finds the
  project from ``path`` (walking up as the CLI does), loads the configuration
  as the CLI does, and answers or raises :class:`ToolFailure` with the
  reason.  It keeps, per project root, the files it read (while their
  ``stat`` is unchanged), the parsed documents (by text) and the last answer
  of each question under the result cache's key (:func:`standards_lint.engine.cache.key`:
  every file's stat, the configuration, git HEAD and the index, the linter),
  so every call sees the files as they are now and a repeated call on an
  unchanged tree reuses its answer.
- :func:`serve` puts it behind the SDK's low-level server (the ``mcp``
  package, the ``mcp`` extra), imported only there: a plain lint imports
  nothing of this module, and ``print-config`` needs no SDK.

This module is ``standards_lint.agents.mcp``; ``import mcp`` inside it is absolute
(Python 3) and finds the SDK, never this file.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any, Optional

INSTALL_HINT = "pip install 'standards-lint[mcp]'"
SERVER_NAME = "standards-lint"
CLIENTS = ("claude", "codex")
COMMAND = "standards-lint"

# -- the tools: names, descriptions, schemas, annotations -------------------------------------
# docs/agents.md quotes each description word for word (tests/test_mcp.py checks it).

PATH_PROP = {
    "type": "string",
    "description": "The project root or any folder inside it (walked up to the folder holding .standards/); "
                   "default: the server's working folder.",
}
CODES_PROP = {"type": "array", "items": {"type": "string"}, "description": "Rule codes or prefixes, e.g. [\"SL5\", \"SL201\"]."}

DESCRIPTIONS = {
    "status": "Where the workflow stands and the one next action: the state, cycle, route, handoff, recovery, "
              "obligations, problems per owner, and `next` (the role to invoke with the exact Codex and Claude "
              "Code commands, what it must fix first, or what the user decides). The `standards-lint status "
              "--format json` document. Read-only.",
    "check": "Lint the workflow files: every finding with code, message, path, line, owner and fix, and a summary "
             "(the `standards-lint --format json` document). Give `role` to get that role's findings counted in "
             "`summary.role` (a forward handoff needs `owned_errors` 0); `turn_end` for the Stop hook's "
             "end-of-turn check; `select`/`ignore` to narrow the codes; `target_version` to check by another framework "
             "release's rules (`summary.release` says which was used). Read-only.",
    "explain": "A rule's page by code: what it checks, why (the protocol's words), who owns it, its fix safety, "
               "a failing and a passing example (`standards-lint rule CODE`). Read-only.",
    "fix": "The fixes for the given codes (default: all) as a unified diff, nothing written (`standards-lint "
           "--diff`). With `apply: true` writes them as `standards-lint --fix` does (atomic writes, never "
           "through a symlink or outside the project root); safe fixes only unless `unsafe: true`.",
    "rules": "Every rule: code, name, protocol section, severity, owner, fix safety and summary "
             "(`standards-lint rules --format json`). Read-only.",
}

READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
# fix writes only when asked; a second identical call finds nothing left to fix; it edits files in
# place (a person's text may be replaced), so it is not declared non-destructive.
WRITES = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": False}

FINDING_SCHEMA = {"type": "object"}
TOOLS: dict[str, dict] = {
    "status": {
        "title": "Workflow status and next action",
        "input": {"type": "object", "properties": {"path": PATH_PROP}, "additionalProperties": False},
        "output": {"type": "object", "required": ["version", "state", "next"],
                   "properties": {"version": {"type": "integer"}, "next": {"type": "object"}}},
        "annotations": READ_ONLY,
    },
    "check": {
        "title": "Check the workflow files",
        "input": {"type": "object", "properties": {
            "path": PATH_PROP,
            "role": {"type": "string", "description": "The role running the check (e.g. DEVELOPER): "
                     "summary.role counts what it owns and where the rest is routed."},
            "turn_end": {"type": "boolean", "description": "The Stop hook's end-of-turn check (--turn-end).",
                         "default": False},
            "select": {**CODES_PROP, "description": "Only these codes or prefixes (replaces the configuration's)."},
            "ignore": {**CODES_PROP, "description": "Never these codes or prefixes."},
            "target_version": {"type": "string", "description": "Check by this framework release's rules "
                               "(--target-version; default: the configuration's, else .standards/VERSION.json)."},
        }, "additionalProperties": False},
        "output": {"type": "object", "required": ["findings", "summary"],
                   "properties": {"findings": {"type": "array", "items": FINDING_SCHEMA},
                                  "summary": {"type": "object"}}},
        "annotations": READ_ONLY,
    },
    "explain": {
        "title": "Explain a rule",
        "input": {"type": "object", "properties": {
            "code": {"type": "string", "description": "The rule's code, e.g. SL501."},
            "path": PATH_PROP,
        }, "required": ["code"], "additionalProperties": False},
        "output": {"type": "object", "required": ["code", "name", "page"],
                   "properties": {"code": {"type": "string"}, "page": {"type": "string"}}},
        "annotations": READ_ONLY,
    },
    "fix": {
        "title": "Fix findings (diff, or apply)",
        "input": {"type": "object", "properties": {
            "path": PATH_PROP,
            "codes": {**CODES_PROP, "description": "Fix only the findings of these codes or prefixes (default: all)."},
            "apply": {"type": "boolean", "default": False,
                      "description": "Write the fixes (default false: return the diff only)."},
            "unsafe": {"type": "boolean", "default": False, "description": "Also the fixes marked unsafe (review them)."},
            "turn_end": {"type": "boolean", "default": False, "description": "Fix what the turn-end check reports."},
        }, "additionalProperties": False},
        "output": {"type": "object", "required": ["applied", "diff", "fixed", "files"],
                   "properties": {"applied": {"type": "boolean"}, "diff": {"type": "string"},
                                  "fixed": {"type": "integer"}, "files": {"type": "array"}}},
        "annotations": WRITES,
    },
    "rules": {
        "title": "List the rules",
        "input": {"type": "object", "properties": {"path": PATH_PROP}, "additionalProperties": False},
        "output": {"type": "object", "required": ["rules"], "properties": {"rules": {"type": "array"}}},
        "annotations": READ_ONLY,
    },
}

PROMPT_NAME = "next-role"
PROMPT_DESCRIPTION = ("Start the next workflow step: the exact command `status` names for the role to invoke "
                      "(or what the user decides).")
RULE_URI = "standards-lint://rules/{code}"
# After an answer, how long the server waits before its idle work (_Idle).
IDLE_AFTER_S = 0.1
# Objects made since the last collection past which a call collects first (_Idle).
BURST_OBJECTS = 100_000


class ToolFailure(Exception):
    """A call that cannot be answered, with the reason (an MCP tool error)."""


# -- the service (no MCP library) ----------------------------------------------------------------


class _Root:
    """What one project root keeps between calls."""

    def __init__(self, root: str):
        from ..syntax.caching import ParseCache

        self.root = root
        self.source = _fresh_source_class()(root)
        self.parse = ParseCache()
        self.answers: dict[tuple, tuple[str, Any]] = {}  # question -> (key, answer)
        self.linted = False  # whether a lint has run (and kept what it read)
        # A first answer whose key is still to be finished (Service.settle):
        # (question, the key begun before the lint, what the lint read, the answer)
        self.pending: Optional[tuple] = None


def _fresh_source_class():
    import stat as stat_kind

    from ..engine.cache import stat_walk
    from ..syntax.caching import CachingSource
    from ..syntax.source import DiskSource

    class FreshSource(CachingSource):
        """The caching source of a long-lived process (as the language
        server has it, :mod:`standards_lint.syntax.caching`), but the tree is walked
        again at the start of every call (no editor tells this server what
        changed), once: the walk's stats make the answer's key
        (:func:`standards_lint.engine.cache.key`) and tell the reads which
        kept bytes are still current, so neither walks or stats again.

        A call with no answer to compare with (the first on a root) needs
        no key before it reads: :meth:`read_first` lets the lint list the
        tree as a command-line run does and notes the stat of every file it
        reads, from the descriptor it reads through, and the key is made from
        those afterwards (:meth:`reads`, :meth:`Service.settle`): the tree is
        neither walked nor stat'ed twice, and the key still says exactly
        what the answer was made from."""

        _walked: Optional[list] = None  # this call's stat_walk
        _stats: Optional[dict] = None  # root-relative path -> its stat, from it
        _first = False  # this call lists and reads as a command-line run does

        def refresh(self) -> list:
            """Walk the tree now (a call begins): the listing for the key. The
            lint's listing and stats are made from it when the lint asks (a
            call answered from its key needs neither)."""
            self._first = False
            self._walked = list(stat_walk(self.root))
            self._walk = None
            self._stats = None
            return self._walked

        def read_first(self) -> None:
            """A call begins with no answer to compare with: no walk now; the
            lint's own listing, and the stat of each file as it is read."""
            self._first = True
            self._walked = self._walk = self._stats = None
            self.read_stats = {}

        def reads(self) -> tuple:
            """After :meth:`read_first`'s lint: what it listed and read (for
            :func:`standards_lint.engine.cache.walk_of_reads`)."""
            return self.walk(), self._regular, self.read_stats or {}

        def _take(self) -> None:
            if self._walked is None:
                self.refresh()
            prefix = len(self.root.rstrip(os.sep)) + 1
            stats: dict = {}
            regular = set()
            for path, st, link in self._walked:
                if link is None:  # a folder that cannot be listed
                    continue
                rel = path[prefix:].replace(os.sep, "/")
                if st is not None and not link:
                    stats[rel] = st
                    if stat_kind.S_ISREG(st.st_mode):
                        regular.add(rel)
                else:
                    stats[rel] = None
            self._forget_gone(stats)
            self._stats = stats
            self._regular = regular
            self._walk = sorted(stats)
            self._walk_time = self._clock()

        def done(self) -> None:
            """The call is answered: the next one walks again."""
            self._walked = self._walk = self._stats = None
            self._first = False
            self.read_stats = None

        def walk(self) -> list[str]:
            if self._walk is None:
                if self._first:
                    self._regular = set()
                    self._walk = DiskSource.walk(self)
                    self._forget_gone(set(self._walk))
                    self._walk_time = self._clock()
                else:
                    self._take()
            return list(self._walk)

        def read_head(self, rel: str, limit: int) -> tuple[bytes, bool]:
            if self._first:  # nothing kept to look up: read, and note the descriptor's stat
                return DiskSource.read_head(self, rel, limit)
            return super().read_head(rel, limit)

        def _stat(self, rel: str):
            if self._first:
                return super()._stat(rel)
            if self._stats is None:
                self._take()
            st = self._stats.get(rel)
            return st if st is not None else super()._stat(rel)

    return FreshSource


class Service:
    """The tools of the server; thread-safe (one call at a time)."""

    def __init__(self, cwd: Optional[str] = None):
        self.cwd = cwd or os.getcwd()
        self._roots: dict[str, _Root] = {}
        self._lock = threading.Lock()
        self.hits = 0  # answers reused (for tests and the bench)

    # -- helpers
    def _folder(self, path: Optional[str]) -> str:
        if path is None or path == "":
            return self.cwd
        if not isinstance(path, str):
            raise ToolFailure("`path` must be a string")
        full = os.path.join(self.cwd, os.path.expanduser(path))
        if not os.path.exists(full):
            raise ToolFailure(f"{path} does not exist")
        if not os.path.isdir(full):
            raise ToolFailure(f"{path} is not a folder; give the project root or a folder inside it")
        return full

    def _root(self, path: Optional[str], required: bool = True) -> Optional[_Root]:
        from ..syntax.source import find_root

        folder = self._folder(path)
        root = find_root(folder)
        if root is None:
            if not required:
                return None
            raise ToolFailure(f"no .standards/ folder at or above {path or folder}: not in a STANDARDS project")
        r = self._roots.get(root)
        if r is None:
            r = self._roots[root] = _Root(root)
        return r

    @staticmethod
    def _config(root: str, select=None, ignore=None, target_version=None):
        from ..engine.config import ConfigError, load_config, target_version as version_of, validate_codes
        from ..engine.run import LINTER_CODES, registry_for

        try:
            config = load_config(root)
            if target_version is not None:
                config.target_version = (version_of(target_version, "`target_version`"), "MCP request")
            if select is not None:
                config.select = list(select)
            if ignore is not None:
                config.ignore = config.ignore + list(ignore)
            registry = registry_for(root, config.plugins)
            known = {r.code for r in registry.rules} | set(LINTER_CODES)
            validate_codes(config, known)
        except ConfigError as exc:
            raise ToolFailure(str(exc)) from None
        return config, registry

    @staticmethod
    def _codes(value, name: str) -> Optional[list[str]]:
        if value is None:
            return None
        if isinstance(value, str):
            value = [c for c in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise ToolFailure(f"`{name}` must be a list of codes")
        codes = [c.strip() for c in value if c.strip()]
        return codes

    @staticmethod
    def _flag(value, name: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            raise ToolFailure(f"`{name}` must be true or false")
        return value

    def _cached(self, r: _Root, question: tuple, compute):
        """*compute()*, or the answer to the same question on the same tree."""
        from ..engine import cache

        if not r.linted:  # nothing to compare with: the key is made after the lint, from its reads
            return self._first_answer(r, question, compute)

        walked = r.source.refresh()  # the one walk of this call: the key and the lint share it
        try:
            run_key = (cache.key(r.root, [repr(question)], use_git=True, config_path=None, walked=walked)
                       if cache.enabled() else None)
            hit = r.answers.get(question)
            if run_key is not None and hit is not None and hit[0] == run_key:
                self.hits += 1
                return hit[1]
            answer = compute()
        finally:
            r.source.done()
        if run_key is not None:
            r.answers[question] = (run_key, answer)
        return answer

    @staticmethod
    def _first_answer(r: _Root, question: tuple, compute):
        """The first answer on a root: the key's part that is not the tree
        is taken before the lint reads, the tree's part from what it read
        (:meth:`FreshSource.read_first`), so the tree is walked once, as a
        command-line run walks it.  The key is finished by :meth:`settle`,
        after the answer is sent: the stats it needs were taken as the files
        were read."""
        from ..engine import cache

        begun = (cache.begin_key(r.root, [repr(question)], use_git=True, config_path=None)
                 if cache.enabled() else None)
        r.source.read_first()
        try:
            answer = compute()
            if begun is not None:
                r.pending = (question, begun, r.source.reads(), answer)
        finally:
            r.source.done()
        return answer

    @property
    def unsettled(self) -> bool:
        """Whether an answer's key is still to be finished (:meth:`settle`)."""
        return any(r.pending is not None for r in self._roots.values())

    def settle(self) -> None:
        """Finish what a call left for when nobody waits: the key of each
        first answer, so the next call on an unchanged tree reuses it (a call
        settles first itself, should it come before)."""
        with self._lock:
            self._settle()

    def _settle(self) -> None:
        from ..engine import cache

        for r in self._roots.values():
            if r.pending is None:
                continue
            question, begun, (listing, regular, read_stats), answer = r.pending
            r.pending = None
            walked = cache.walk_of_reads(r.root, listing, regular, read_stats)
            r.answers[question] = (cache.finish_key(begun, r.root, walked), answer)

    def _lint(self, r: _Root, config, registry, turn_end: bool = False):
        from ..engine.run import lint

        # The first lint of a project keeps no file heads or provenance blocks
        # (tens of MB on a project of thousands of records, whose first
        # filling cost more than the lint): a first call costs what a cold
        # process does; the next lint keeps them for the calls after edits.
        first = not r.linted
        r.source.keep_heads = r.parse.keep_blocks = not first
        try:
            return lint(r.root, registry=registry, config=config, turn_end=turn_end, source=r.source, parse=r.parse)
        finally:
            r.linted = True
            r.source.keep_heads = r.parse.keep_blocks = True

    # -- tools
    def call(self, name: str, args: Optional[dict]) -> dict:
        args = dict(args or {})
        if name not in TOOLS:
            raise ToolFailure(f"unknown tool {name!r}; the tools are {', '.join(TOOLS)}")
        allowed = set(TOOLS[name]["input"]["properties"])
        extra = sorted(set(args) - allowed)
        if extra:
            raise ToolFailure(f"unknown argument{'s' if len(extra) > 1 else ''} {', '.join(extra)} for {name}; "
                              f"it takes {', '.join(sorted(allowed))}")
        with self._lock:
            self._settle()
            try:
                return getattr(self, f"tool_{name}")(**args)
            finally:
                for r in self._roots.values():  # the next call walks the tree again
                    r.source.done()

    def tool_status(self, path: Optional[str] = None) -> dict:
        from ..status.document import status_of

        r = self._root(path)

        def compute():
            config, registry = self._config(r.root)
            return status_of(self._lint(r, config, registry))

        return self._cached(r, ("status",), compute)

    def tool_check(self, path: Optional[str] = None, role: Optional[str] = None, turn_end=None,
                   select=None, ignore=None, target_version=None) -> dict:
        from ..output.formats import json_document
        from ..syntax.protocol import ROLES

        if role is not None:
            if not isinstance(role, str) or role.strip().upper() not in ROLES:
                raise ToolFailure(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
            role = role.strip().upper() or None
        turn_end = self._flag(turn_end, "turn_end")
        select, ignore = self._codes(select, "select"), self._codes(ignore, "ignore")
        r = self._root(path)

        def compute():
            config, registry = self._config(r.root, select, ignore, target_version)
            return json_document(self._lint(r, config, registry, turn_end), role)

        q = ("check", role, turn_end, tuple(select) if select is not None else None,
             tuple(ignore) if ignore is not None else None, target_version)
        return self._cached(r, q, compute)

    def _registry(self, path: Optional[str]):
        from ..engine.run import load_registry

        r = self._root(path, required=path is not None)
        if r is None:
            return load_registry()
        return self._config(r.root)[1]

    def tool_rules(self, path: Optional[str] = None) -> dict:
        from ..output.catalogue import rule_row

        return {"rules": [rule_row(r) for r in self._registry(path).rules]}

    def tool_explain(self, code=None, path: Optional[str] = None) -> dict:
        from ..output.catalogue import find_rule, rule_page, rule_row

        if not isinstance(code, str) or not code.strip():
            raise ToolFailure("`code` is required: a rule's code, e.g. SL501")
        r, hint = find_rule(self._registry(path).rules, code.strip())
        if r is None:
            raise ToolFailure(f"unknown rule {code}{hint}")
        doc = rule_row(r, full=True)
        doc["page"] = rule_page(r)
        return doc

    def tool_fix(self, path: Optional[str] = None, codes=None, apply=None, unsafe=None, turn_end=None) -> dict:
        from ..fixes.fixer import fix_project, refusals, unified_diff, write_report

        apply, unsafe = self._flag(apply, "apply"), self._flag(unsafe, "unsafe")
        turn_end = self._flag(turn_end, "turn_end")
        codes = self._codes(codes, "codes")
        r = self._root(path)
        config, registry = self._config(r.root, select=codes)
        report, result = fix_project(r.root, unsafe=unsafe, write=False, registry=registry, config=config,
                                     turn_end=turn_end, source=r.source, parse=r.parse)
        refused = refusals(r.root, report)
        if apply and refused:
            raise ToolFailure("nothing written: " + "; ".join(refused))
        if apply:
            write_report(r.root, report)
            if report.skipped:
                raise ToolFailure("not all fixes were written: " + "; ".join(report.skipped))
        counts: dict[str, int] = {}
        for f in report.fixed:
            counts[f.code] = counts.get(f.code, 0) + 1
        return {
            "applied": apply,
            "diff": unified_diff(report),
            "fixed": len(report.fixed),
            "codes": dict(sorted(counts.items())),
            "files": sorted(report.changed),
            "renamed": dict(sorted(report.renamed.items())),
            "refused": refused,
            "remaining": len(result.findings) if apply else None,
        }

    def prompt_next_role(self, path: Optional[str] = None) -> str:
        doc = self.call("status", {"path": path} if path else {})
        n = doc["next"]
        lines = []
        if n.get("commands"):
            if n.get("session"):
                lines.append(n["session"])
            lines.append(n["commands"]["claude"])
            lines.append("")
            lines.append(f"(Codex: {n['commands']['codex']})")
        else:
            lines.append(f"{n['reason']}")
        if n.get("findings"):
            lines.append("")
            lines.append("Fix first:")
            lines += [f"- {f['code']} {f['path']}:{f['line']}: {f['message']}" for f in n["findings"]]
        return "\n".join(lines)


# -- the MCP server ------------------------------------------------------------------------------


def build_server(service: Optional[Service] = None):
    """The SDK's low-level server with the tools, the prompt and the rule pages."""
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    from .. import __version__

    service = service or Service()
    idle = _Idle(service)

    async def in_worker(fn, *args):
        """*fn(*args)* in a worker thread, the idle work held off meanwhile."""
        idle.before_call()
        try:
            return await anyio.to_thread.run_sync(fn, *args)
        finally:
            idle.after_call()

    def tool(name: str) -> "types.Tool":
        spec = TOOLS[name]
        a = spec["annotations"]
        return types.Tool(
            name=name, title=spec["title"], description=DESCRIPTIONS[name],
            input_schema=spec["input"], output_schema=spec["output"],
            annotations=types.ToolAnnotations(title=spec["title"], read_only_hint=a["readOnlyHint"],
                                              destructive_hint=a["destructiveHint"],
                                              idempotent_hint=a["idempotentHint"],
                                              open_world_hint=a["openWorldHint"]),
        )

    def failure(text: str) -> "types.CallToolResult":
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    async def list_tools(ctx, params) -> "types.ListToolsResult":
        return types.ListToolsResult(tools=[tool(n) for n in TOOLS])

    async def call_tool(ctx, params) -> "types.CallToolResult":
        try:
            doc = await in_worker(service.call, params.name, params.arguments)
        except ToolFailure as exc:
            return failure(str(exc))
        except Exception as exc:  # an internal failure: reported, the server stays up
            import traceback

            traceback.print_exc(file=sys.stderr)
            return failure(f"internal error: {type(exc).__name__}: {exc}")
        text = json.dumps(doc, indent=2, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=doc)

    async def list_prompts(ctx, params) -> "types.ListPromptsResult":
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=PROMPT_NAME, description=PROMPT_DESCRIPTION,
            arguments=[types.PromptArgument(name="path", description=PATH_PROP["description"], required=False)],
        )])

    async def get_prompt(ctx, params) -> "types.GetPromptResult":
        from mcp.shared.exceptions import MCPError

        if params.name != PROMPT_NAME:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown prompt {params.name!r}")
        try:
            text = await in_worker(service.prompt_next_role, (params.arguments or {}).get("path"))
        except ToolFailure as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        return types.GetPromptResult(description=PROMPT_DESCRIPTION, messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])

    async def list_templates(ctx, params) -> "types.ListResourceTemplatesResult":
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            uri_template=RULE_URI, name="rule", description="A rule's page (standards-lint rule CODE).",
            mime_type="text/markdown")])

    async def list_resources(ctx, params) -> "types.ListResourcesResult":
        return types.ListResourcesResult(resources=[])

    async def read_resource(ctx, params) -> "types.ReadResourceResult":
        from mcp.shared.exceptions import MCPError

        uri = str(params.uri)
        prefix = RULE_URI.split("{")[0]
        if not uri.startswith(prefix):
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource {uri}")
        try:
            doc = await in_worker(service.call, "explain", {"code": uri[len(prefix):]})
        except ToolFailure as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="text/markdown", text=doc["page"])])

    return Server(
        SERVER_NAME, version=__version__,
        instructions="Check S.T.A.N.D.A.R.D.S. workflow files: call `status` for the next action, `check` "
                     "(with your role) before a handoff, `fix` for the diff of the fixes, `explain` for a rule.",
        on_list_tools=list_tools, on_call_tool=call_tool,
        on_list_prompts=list_prompts, on_get_prompt=get_prompt,
        on_list_resources=list_resources, on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def warm() -> None:
    """Before the first call: import what every tool needs, load the rules
    (and the plugins installed beside them), and parse once so the grammar's
    tables are in memory: the first call then costs its own work only, as
    every later call does.  Project plugins are loaded by the call that
    names their project."""
    from ..engine.run import load_registry
    from ..fixes import fixer  # noqa: F401
    from ..syntax import caching  # noqa: F401
    from ..output import catalogue, formats  # noqa: F401
    from ..status import document  # noqa: F401
    from ..syntax.parser import parse_markdown

    load_registry()
    parse_markdown("# STATE\n\n## Workflow\n\n- `State`: `SCOPING`\n", "STATE.md")


class _Idle:
    """What the server does once no call is waiting (:data:`IDLE_AFTER_S`
    after the last answer, no call running): finish the keys of first
    answers (:meth:`Service.settle`) and collect garbage.  The collector is
    held back while a call runs, as a command-line run holds it (nearly
    every object a lint makes lives until its answer is made), so a
    collection never delays an answer already made.  Calls that follow each
    other with no pause leave their garbage to the next one: once more than
    :data:`BURST_OBJECTS` objects were made since the last collection, a
    call collects the young generations before it starts, so memory stays
    bounded however long the burst."""

    def __init__(self, service: "Service"):
        self.service = service
        self._timer: Optional[threading.Timer] = None
        self._running = 0  # calls begun and not yet answered
        self._lock = threading.Lock()

    def before_call(self) -> None:
        import gc

        with self._lock:
            self._running += 1
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        if gc.get_count()[0] > BURST_OBJECTS:  # calls without a pause: this one collects the young first
            gc.collect(1)

    def after_call(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                self._timer = threading.Timer(IDLE_AFTER_S, self._run)
                self._timer.daemon = True
                self._timer.start()

    def _run(self) -> None:
        import gc

        with self._lock:
            if self._running:  # a call came: the idle work waits for the next pause
                return
        self.service.settle()
        gc.collect()


def _lone_surrogates_replaced(value):
    """*value* (parsed JSON) with each lone surrogate in its texts as U+FFFD."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
    if isinstance(value, list):
        return [_lone_surrogates_replaced(v) for v in value]
    if isinstance(value, dict):
        return {_lone_surrogates_replaced(k): _lone_surrogates_replaced(v) for k, v in value.items()}
    return value


def screen_line(line: str, validate) -> tuple[Optional[str], Optional[dict]]:
    """One line from the client on its way to the SDK (*validate* is the
    SDK's own check of a JSON-RPC message): (the line to pass on, or None;
    the error answer to send, or None).

    The SDK drops a message it cannot validate without a word, so a request
    it drops would never be answered (issue 43): a text holding a lone
    surrogate (``"\\ud800"``, which its JSON reader refuses) is read with
    U+FFFD in its place, as invalid UTF-8 is; a request whose ``params`` are
    not an object (an array), or that is otherwise no MCP request, gets a
    JSON-RPC error.  What is not JSON at all, or has no usable id, goes on
    to the SDK as before."""
    try:
        validate(line)
        return line, None
    except Exception:
        pass
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        return line, None
    replaced = _lone_surrogates_replaced(msg)
    if replaced != msg:
        fixed = json.dumps(replaced)
        try:
            validate(fixed)
            return fixed, None
        except Exception:
            msg = replaced
    if not isinstance(msg, dict) or "method" not in msg or "id" not in msg:
        return line, None  # a notification or an answer: nothing to answer
    request_id = msg["id"]
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        return line, None
    if "params" in msg and msg["params"] is not None and not isinstance(msg["params"], dict):
        error = {"code": -32602, "message": "Invalid params: MCP request params must be an object, "
                                            f"not {type(msg['params']).__name__}"}
    else:
        error = {"code": -32600, "message": "Invalid request: not an MCP request (a string method, "
                                            "params as an object)"}
    return None, {"jsonrpc": "2.0", "id": request_id, "error": error}


def _wire_stdin():
    """The client's bytes on a private descriptor, fd 0 itself on the null
    device, as the SDK's transport does when it reads stdin itself: a child
    a tool call starts reads none of the client's messages."""
    try:
        private = os.dup(0)  # not inherited by children
    except OSError:
        return sys.stdin.buffer
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
    except OSError:
        pass
    return os.fdopen(private, "rb", closefd=False)


class _Screened:
    """The client's lines as the SDK's stdio transport reads them, each
    through :func:`screen_line`; an error answer goes out through the
    transport's own writer (:attr:`write_stream`, set once it exists)."""

    def __init__(self, lines):
        import anyio

        self._lines = lines
        self.write_stream = None
        self.ready = anyio.Event()

    def __aiter__(self):
        return self._screened()

    async def _screened(self):
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        import anyio

        validate = types.jsonrpc_message_adapter.validate_json
        async for line in self._lines:
            passed, error = screen_line(line, validate)
            if error is not None:
                await self.ready.wait()
                try:
                    await self.write_stream.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(error)))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return  # the transport is closing: nobody to answer
            if passed is not None:
                yield passed


def serve() -> int:
    import gc
    import io

    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server()
    warm()
    # What was loaded before the first call (the SDK, the rules) lives as
    # long as the process and is never scanned again (not collected first:
    # that costs more than start-up leaves behind); the collector runs when
    # the server is idle (_Idle), never during a call.
    gc.freeze()
    gc.disable()

    async def run():
        lines = _Screened(anyio.wrap_file(io.TextIOWrapper(_wire_stdin(), encoding="utf-8", errors="replace")))
        async with stdio_server(stdin=lines) as (read_stream, write_stream):
            lines.write_stream = write_stream
            lines.ready.set()
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
    return 0


# -- print-config --------------------------------------------------------------------------------


def config_for(client: str, command: str = COMMAND) -> str:
    """The settings that register the server with *client*: Claude Code's
    ``.mcp.json`` (JSON) or Codex's ``~/.codex/config.toml`` (TOML)."""
    if client == "claude":
        return json.dumps({"mcpServers": {SERVER_NAME: {"command": command, "args": ["mcp"]}}}, indent=2) + "\n"
    if client == "codex":
        return (f"[mcp_servers.{SERVER_NAME}]\n"
                f"command = {json.dumps(command)}\n"
                f"args = [\"mcp\"]\n")
    raise ValueError(f"unknown client {client!r}; choose one of {', '.join(CLIENTS)}")


def print_config(argv: list) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="standards-lint mcp print-config",
        description="Print the settings that register `standards-lint mcp` with a client "
                    "(Claude Code: .mcp.json; Codex: ~/.codex/config.toml). See docs/agents.md.",
    )
    p.add_argument("--client", choices=CLIENTS, required=True)
    p.add_argument("--command", default=COMMAND,
                   help=f"the command the client runs (default `{COMMAND}`; give an absolute path "
                        "when the client's PATH does not hold standards-lint)")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    sys.stdout.write(config_for(args.client, args.command))
    return 0


USAGE = """usage: standards-lint mcp                      (run by the client: MCP over stdin/stdout)
       standards-lint mcp print-config --client claude|codex [--command CMD]
"""


def main(argv: list) -> int:
    if argv[:1] == ["print-config"]:
        return print_config(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    if argv:
        sys.stderr.write(f"standards-lint mcp: unexpected argument {argv[0]!r}\n" + USAGE)
        return 2
    try:
        import mcp.server.lowlevel  # noqa: F401  (the SDK, not this module)
    except ImportError:
        print(f"standards-lint: the MCP server needs the `mcp` package, which the mcp extra installs: "
              f"{INSTALL_HINT}", file=sys.stderr)
        return 2
    return serve()
