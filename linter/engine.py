"""The rule engine: load plugins, collect rules, run them, gather findings.

Plugins (the built-in rule modules among them) come from the entry-point
group ``standards_lint``.  Each loads on its own: a plugin that fails to
import is reported and the others still run.  A rule that raises becomes an
internal-error finding naming the rule, and the run goes on.
"""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from .findings import Finding
from .project import Project
from .rule import Rule

ENTRY_POINT_GROUP = "standards_lint"
INTERNAL_ERROR = "SL001"
UNREADABLE = "SL002"
PARSE_ERROR = "SL003"
PLUGIN_ERROR = "SL004"
UNUSED_SUPPRESSION = "SL005"
TOO_LARGE = "SL006"

# The linter's own codes: code -> (name, severity, summary).
LINTER_CODES = {
    INTERNAL_ERROR: ("internal-error", "error", "A rule raised an exception; the run went on without it."),
    UNREADABLE: ("unreadable-file", "error", "A file could not be read or is not valid UTF-8."),
    PARSE_ERROR: ("parse-error", "error", "A file could not be parsed."),
    PLUGIN_ERROR: ("plugin-error", "error", "A plugin failed to load, rejected its options, or declared a colliding code."),
    UNUSED_SUPPRESSION: ("unused-suppression", "warning", "An inline suppression comment silences nothing."),
    TOO_LARGE: ("file-too-large", "warning", "A file is larger than `max-file-size`, so it was not read or checked."),
}


@attrs.define
class PluginInfo:
    name: str
    module: str
    version: str = ""
    codes: list[str] = attrs.Factory(list)
    error: str = ""
    obj: object = None


@attrs.define
class Registry:
    rules: list[Rule]
    plugins: list[PluginInfo]
    errors: list[str]  # load problems (plugin failed, code collision)

    def by_code(self) -> dict[str, Rule]:
        return {r.code: r for r in self.rules}


_REGISTRY: Optional[Registry] = None


@attrs.frozen
class _EntryPoint:
    name: str
    value: str
    version: str

    def load(self):
        import importlib

        module, _, attr = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        return obj


def _entry_point_cache_key() -> str:
    """Hash of every import-path folder and its modification time: installing
    or removing a distribution changes the mtime of its site folder."""
    import os
    import sys

    from . import sha256

    h = sha256(ENTRY_POINT_GROUP.encode())
    for entry in sys.path:
        try:
            st = os.stat(entry or ".")
        except OSError:
            continue
        h.update(f"{entry}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:24]


def _entry_points() -> list[_EntryPoint]:
    """Entry points of the ``standards_lint`` group.

    Scanning every installed distribution costs tens of milliseconds, so the
    result is cached on disk, keyed by the import path and its folders'
    modification times.
    """
    import os

    from . import cache_dir as _cache_dir

    cache_dir = _cache_dir()
    cache = os.path.join(cache_dir, f"entry-points-{_entry_point_cache_key()}.txt")
    # One entry point per line: name, value and distribution version, tab-separated.
    try:
        with open(cache, encoding="utf-8") as fh:
            rows = [line.rstrip("\n").split("\t") for line in fh]
        if rows and rows[-1] == ["end"] and all(len(r) == 3 for r in rows[:-1]):
            return [_EntryPoint(*r) for r in rows[:-1]]
    except (OSError, ValueError):
        pass
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        found.append(_EntryPoint(ep.name, ep.value, dist.version if dist else ""))
    try:
        os.makedirs(cache_dir, exist_ok=True)
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            for e in found:
                fh.write(f"{e.name}\t{e.value}\t{e.version}\n")
            fh.write("end\n")
        os.replace(tmp, cache)
        _prune(cache_dir, "entry-points-", keep=cache)
    except OSError:
        pass
    return found


def _prune(folder: str, prefix: str, keep: str, max_age_s: float = 7 * 86400) -> None:
    """Remove old cache files of one kind (each import path state writes its
    own), keeping the current one."""
    import os
    import time

    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        if name.startswith(prefix) and path != keep:
            try:
                if now - os.stat(path).st_mtime > max_age_s:
                    os.unlink(path)
            except OSError:
                pass


def load_registry(extra_modules: Iterable[str] = (), *, cached: bool = True) -> Registry:
    """Load every plugin and collect its rules."""
    global _REGISTRY
    extra_modules = tuple(extra_modules)
    if cached and _REGISTRY is not None and not extra_modules:
        return _REGISTRY
    import importlib

    import pluggy

    from . import hookspecs
    from .rule import Rule as _Rule

    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    plugins: list[PluginInfo] = []
    errors: list[str] = []
    sources = []
    for ep in _entry_points():
        sources.append((ep.name, ep.value, ep.version, ep.load))
    for mod in extra_modules:
        sources.append((mod, mod, "", lambda m=mod: importlib.import_module(m)))
    seen_values = set()
    for name, value, version, loader in sources:
        if value in seen_values:
            continue
        seen_values.add(value)
        info = PluginInfo(name, value, version)
        plugins.append(info)
        try:
            obj = _hook_namespace(loader())
            pm.register(obj, name=f"{name}:{value}")
            info.obj = obj
        except Exception as exc:  # a broken plugin never stops the others
            info.error = f"{type(exc).__name__}: {exc}"
            errors.append(f"plugin `{name}` ({value}) failed to load: {info.error}")
    rules: list[Rule] = []
    owners: dict[str, str] = {}
    for info in plugins:
        if info.error:
            continue
        plugin = pm.get_plugin(f"{info.name}:{info.module}")
        impl = getattr(plugin, "standards_lint_rules", None)
        if impl is None:
            continue
        try:
            declared = list(impl() or [])
        except Exception as exc:
            info.error = f"{type(exc).__name__}: {exc}"
            errors.append(f"plugin `{info.name}` failed to declare its rules: {info.error}")
            continue
        for r in declared:
            if not isinstance(r, _Rule):
                errors.append(f"plugin `{info.name}` returned a non-rule object {r!r}")
                continue
            if r.code in owners:
                errors.append(
                    f"rule code {r.code} is declared by both `{owners[r.code]}` and `{info.name}`; "
                    f"the second declaration is ignored"
                )
                continue
            owners[r.code] = info.name
            info.codes.append(r.code)
            rules.append(attrs.evolve(r, plugin=info.name))
    rules.sort(key=lambda r: r.code)
    reg = Registry(rules, plugins, errors)
    if cached and not extra_modules:
        _REGISTRY = reg
    return reg


def registry_for(root: str, plugins: Iterable[str] = ()) -> Registry:
    """The registry with the configuration's project plugins, imported with
    the project root on ``sys.path`` (only when the configuration asks)."""
    plugins = tuple(plugins)
    if not plugins:
        return load_registry()
    import sys

    sys.path.insert(0, root)
    try:
        return load_registry(plugins)
    finally:
        try:
            sys.path.remove(root)
        except ValueError:
            pass


_HOOK_NAMES = ("standards_lint_rules", "standards_lint_configure")


def _hook_namespace(obj):
    """Only the hook functions of a plugin module: pluggy inspects every
    attribute of what it registers, and a rule module has hundreds."""
    import types

    # A bare module object: pluggy looks at every name `dir()` gives, and a
    # module has fewer than a SimpleNamespace (no inherited dunders).
    ns = types.ModuleType(getattr(obj, "__name__", "plugin"))
    for n in _HOOK_NAMES:
        if hasattr(obj, n):
            setattr(ns, n, getattr(obj, n))
    return ns


@attrs.define
class Result:
    findings: list[Finding]
    project: Project
    files_checked: int = 0
    registry: Optional[Registry] = None
    internal_errors: int = 0

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")


def run_rules(project: Project, rules: list[Rule]) -> Result:
    from .owners import USER, record_owner, resolve

    findings: list[Finding] = []
    internal = 0
    # Branches and merges: "While `.standards/` has unmerged files or conflict
    # markers, a workflow role stops [...] it never resolves the conflict by
    # choosing a side."  Which side's values would a workflow rule check?
    # Only the rules declared ``during_conflict`` run then.
    conflicted = project.workflow_conflicted
    # Owners are resolved once every rule has run: a "state" owner may use
    # what the rules read of the last commit, whatever their order.
    unresolved: list = []
    for r in rules:
        if conflicted and not r.during_conflict:
            continue
        try:
            for d in r.check(project) or ():
                unresolved.append((len(findings), r.owner, d))
                findings.append(
                    Finding(
                        code=r.code,
                        severity=r.severity,
                        message=d.message,
                        path=d.path,
                        line=d.span.line,
                        column=d.span.column,
                        end_line=d.span.end_line,
                        end_column=d.span.end_column,
                        section=r.section,
                        rule=r.name,
                        fix=d.fix,
                        help=d.help or r.help,
                    )
                )
        except Exception as exc:
            internal += 1
            import traceback

            tb = traceback.extract_tb(exc.__traceback__)
            where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
            findings.append(
                Finding(
                    code=INTERNAL_ERROR,
                    severity="error",
                    message=f"internal error in rule {r.code} ({r.name}): {type(exc).__name__}: {exc}{where}",
                    path=".standards/STATE.md",
                    line=1,
                    column=1,
                    end_line=1,
                    end_column=1,
                    section="standards-lint",
                    rule="internal-error",
                    owner=USER,
                    help=f"Report this to the author of rule {r.code} ({r.plugin or 'standards-lint'}); the other rules ran.",
                )
            )
    for i, spec, d in unresolved:
        findings[i].owner = resolve(spec, project, d)
    for path, (message, span) in sorted(project.read_problems.items()):
        findings.append(
            Finding(UNREADABLE, "error", f"{path} {message}", path, span.line, span.column,
                    span.end_line, span.end_column, "standards-lint", "unreadable-file",
                    owner=record_owner(project, path),
                    help="Save the file as UTF-8 text (without changing its content otherwise), then run again.")
        )
    for path, size in sorted(project.oversized.items()):
        findings.append(
            Finding(TOO_LARGE, "warning",
                    f"{path} is {_human_size(size)}, larger than max-file-size ({_human_size(project.max_file_size)}), "
                    "so it was not read or checked. Split it, or raise `max-file-size`.",
                    path, 1, 1, 1, 1, "standards-lint", "file-too-large", owner=USER,
                    help="Split the file, or raise `max-file-size` in the configuration.")
        )
    for path, d in sorted(project._docs.items()):
        if d is None:
            continue
        for message, span in d.errors:
            findings.append(
                Finding(PARSE_ERROR, "error", f"{path} {message}", path, span.line, span.column,
                        span.end_line, span.end_column, "standards-lint", "parse-error",
                        owner=record_owner(project, path),
                        help="Repair the Markdown at this place so the file parses, then run again.")
            )
    findings.sort(key=Finding.sort_key)
    return Result(findings, project, len(project._docs), internal_errors=internal)


def _human_size(size: int) -> str:
    if size >= 1048576:
        return f"{size / 1048576:.1f} MiB"
    if size >= 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size} bytes"


def lint(root: str, *, use_git: bool = True, registry: Optional[Registry] = None,
         overlay: Optional[dict] = None, config=None, all_cycles: Optional[bool] = None,
         turn_end: bool = False, source=None, parse=None, removed=()) -> Result:
    """Lint the project at *root*.

    *config* (a :class:`~standards_lint.config.Config`) selects rules,
    changes severities, ignores files and loads project plugins; without it
    every rule runs with its default severity.  *all_cycles* reads and checks
    every cycle's records fully (default: the configuration's ``all-cycles``,
    else only the active cycle's records are read whole).  *turn_end* runs
    the Stop hook's turn-end check (``--turn-end``).  *source* and *parse*
    replace the project's file source and parser (the language server's
    caches, see :class:`~standards_lint.project.Project`).
    """
    if all_cycles is None:
        all_cycles = bool(config is not None and config.all_cycles)
    project = Project(root, use_git=use_git, overlay=overlay, all_cycles=all_cycles, turn_end=turn_end,
                      source=source, parse=parse,
                      removed=removed,
                      **({"max_file_size": config.max_file_size} if config is not None and config.max_file_size else {}))
    if registry is None:
        registry = registry_for(project.root, config.plugins if config is not None else ())
    rules = registry.rules
    if config is not None:
        _configure_plugins(registry, config)
        rules = [r for r in rules if config.enabled(r.code)]
        if config.exclude:
            project.exclude = config.exclude
    result = run_rules(project, rules)
    result.registry = registry
    for err in registry.errors:
        result.findings.insert(
            0, Finding(PLUGIN_ERROR, "error", err, ".standards", 1, 1, 1, 1, "standards-lint", "plugin-error",
                       owner="USER", help="Fix or remove the plugin (`standards-lint plugins` lists them).")
        )
    findings = result.findings
    if config is not None:
        findings = [f for f in findings if not config.excluded(f.path) and not config.ignored_in(f.code, f.path)]
        for f in findings:
            sev = _severity_for(config, f.code)
            if sev:
                f.severity = sev
    from .suppress import apply_suppressions

    selected = config.enabled if config is not None else (lambda code: True)
    findings = apply_suppressions(project, findings, selected)
    findings.sort(key=Finding.sort_key)
    result.findings = findings
    return result


def _severity_for(config, code: str) -> Optional[str]:
    best, sev = -1, None
    for prefix, value in config.severity.items():
        if code.startswith(prefix) and len(prefix) > best:
            best, sev = len(prefix), value
    return sev


def _configure_plugins(registry: Registry, config) -> None:
    """Give each plugin its own options table (``plugin-options.<name>``)."""
    for info in registry.plugins:
        if info.error or info.obj is None:
            continue
        hook = getattr(info.obj, "standards_lint_configure", None)
        if hook is None:
            continue
        try:
            hook(dict(config.plugin_options.get(info.name, {})))
        except Exception as exc:
            registry.errors.append(f"plugin `{info.name}` rejected its options: {type(exc).__name__}: {exc}")
