"""The rule engine: load plugins, collect rules, run them, gather findings.

Plugins (the built-in rule modules among them) come from the entry-point
group ``standards_lint``.  Each loads on its own: a plugin that fails to
import is reported and the others still run.  A rule that raises becomes an
internal-error finding naming the rule, and the run goes on.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..syntax.data import Record, replace
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
    UNREADABLE: ("unreadable-file", "error",
                 "A file could not be read, or is not valid UTF-8. A file that is not valid UTF-8 is still "
                 "checked, read as the framework's checker reads it (each invalid byte as U+FFFD), and no "
                 "fix writes it."),
    PARSE_ERROR: ("parse-error", "error", "A file could not be parsed."),
    PLUGIN_ERROR: ("plugin-error", "error", "A plugin failed to load, rejected its options, or declared a colliding code."),
    UNUSED_SUPPRESSION: ("unused-suppression", "warning", "An inline suppression comment silences nothing."),
    TOO_LARGE: ("file-too-large", "warning", "A file is larger than `max-file-size`, so it was not read or checked."),
}


class PluginInfo(Record):
    __slots__ = ("name", "module", "version", "codes", "error", "obj")

    def __init__(self, name: str, module: str, version: str = "", codes: Optional[list[str]] = None,
                 error: str = "", obj: object = None):
        self.name = name
        self.module = module
        self.version = version
        self.codes = [] if codes is None else codes
        self.error = error
        self.obj = obj


class Registry(Record):
    __slots__ = ("rules", "plugins", "errors")

    def __init__(self, rules: list[Rule], plugins: list[PluginInfo], errors: list[str]):
        self.rules = rules
        self.plugins = plugins
        self.errors = errors  # load problems (plugin failed, code collision)

    def by_code(self) -> dict[str, Rule]:
        return {r.code: r for r in self.rules}


_REGISTRY: Optional[Registry] = None


# The built-in rule modules: (plugin name, module), by name.  Each is also
# declared in pyproject.toml under [project.entry-points.standards_lint], so
# that the installed metadata lists them as it would a third-party plugin's;
# the engine imports them from this list instead of scanning every installed
# distribution for them.  A new rule module goes in both places:
# tests/test_engine.py fails while they differ, or while a module in rules/ is
# in neither.
BUILTIN_PLUGINS = (
    ("acceptance", "standards_lint.rules.acceptance"),
    ("baseline_reconciliation", "standards_lint.rules.baseline_reconciliation"),
    ("checkpoint_promotion", "standards_lint.rules.checkpoint_promotion"),
    ("completion_change", "standards_lint.rules.completion_change"),
    ("completion_policies", "standards_lint.rules.completion_policies"),
    ("cycle_ids", "standards_lint.rules.cycle_ids"),
    ("cycle_modes", "standards_lint.rules.cycle_modes"),
    ("development_plan", "standards_lint.rules.development_plan"),
    ("documentation_cycle", "standards_lint.rules.documentation_cycle"),
    ("documentation_frames", "standards_lint.rules.documentation_frames"),
    ("documentation_handoffs", "standards_lint.rules.documentation_handoffs"),
    ("expedited_cycle", "standards_lint.rules.expedited_cycle"),
    ("failure_handoffs", "standards_lint.rules.failure_handoffs"),
    ("handoff", "standards_lint.rules.handoff"),
    ("handoff_values", "standards_lint.rules.handoff_values"),
    ("history_moves", "standards_lint.rules.history_moves"),
    ("mode", "standards_lint.rules.project_mode"),
    ("outstanding_obligations", "standards_lint.rules.outstanding_obligations"),
    ("plan_checkpoints", "standards_lint.rules.plan_checkpoints"),
    ("plan_increments", "standards_lint.rules.plan_increments"),
    ("plan_steps", "standards_lint.rules.plan_steps"),
    ("provenance", "standards_lint.rules.provenance"),
    ("record_headers", "standards_lint.rules.record_headers"),
    ("record_paths", "standards_lint.rules.record_paths"),
    ("recovery", "standards_lint.rules.recovery"),
    ("recovery_gates", "standards_lint.rules.recovery_gates"),
    ("required_records", "standards_lint.rules.required_records"),
    ("reviews", "standards_lint.rules.reviews"),
    ("runtime", "standards_lint.rules.runtime_files"),
    ("signoff_readiness", "standards_lint.rules.signoff_readiness"),
    ("state_structure", "standards_lint.rules.state_structure"),
    ("user_styles", "standards_lint.rules.user_styles"),
    ("verification", "standards_lint.rules.verification"),
)
# This distribution, whose entry points are the built-ins above.
_OWN_DISTRIBUTION = "standards_lint"


class _EntryPoint:
    """One entry point of the group: its name, its ``module[:attr]`` value and
    the version of the distribution declaring it."""

    __slots__ = ("name", "value", "version")

    def __init__(self, name: str, value: str, version: str):
        self.name = name
        self.value = value
        self.version = version

    def __repr__(self) -> str:
        return f"_EntryPoint({self.name!r}, {self.value!r}, {self.version!r})"

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.value, self.version) == (other.name, other.value, other.version)

    def load(self):
        import importlib

        # module[:attr.attr] [extras], as importlib.metadata.EntryPoint reads it
        module, _, attr = self.value.split("[", 1)[0].partition(":")
        obj = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        return obj


def _normalize(name: str) -> str:
    """A distribution name as importlib.metadata compares them (PEP 503)."""
    import re

    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _entry_points() -> list[_EntryPoint]:
    """Entry points of the ``standards_lint`` group in the installed
    distributions other than this one, in the order (and with the
    first-on-``sys.path``-wins rule) of ``importlib.metadata.entry_points``.

    Importing ``importlib.metadata`` and letting it read every distribution's
    metadata costs tens of milliseconds; a plugin can only be declared in a
    distribution's ``entry_points.txt``, so those files are read directly from
    the ``*.dist-info`` and ``*.egg-info`` folders of ``sys.path``.  Where
    distributions can come from elsewhere (a zip file or an ``.egg`` on
    ``sys.path``, or an import hook that finds distributions of its own),
    ``importlib.metadata`` reads them instead."""
    found = _scan_entry_points()
    if found is None:
        found = _metadata_entry_points()
    return found


def _scan_entry_points() -> "list[_EntryPoint] | None":
    import os
    import sys

    for finder in sys.meta_path:
        if getattr(finder, "find_distributions", None) is not None and not _is_stdlib_path_finder(finder):
            return None
    found: list[_EntryPoint] = []
    seen: set[str] = set()
    for entry in sys.path:
        folder = entry or "."
        if folder.lower().endswith(".egg"):
            return None
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return None  # a zip file
        except (OSError, TypeError, ValueError):
            continue
        for child in names:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            name = _normalize(low.rpartition(".")[0].partition("-")[0])
            if name in seen:
                continue
            seen.add(name)
            if name == _OWN_DISTRIBUTION:
                continue
            info = os.path.join(folder, child)
            try:
                with open(os.path.join(info, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                continue  # none, or an egg-info file
            except ValueError:  # not UTF-8: importlib.metadata would fail on it too
                continue
            rows = _group_rows(text)
            if rows:
                version = _version_of(info)
                found.extend(_EntryPoint(n, v, version) for n, v in rows)
    return found


def _is_stdlib_path_finder(finder) -> bool:
    import importlib.machinery

    return finder is importlib.machinery.PathFinder


def _group_rows(text: str) -> list[tuple[str, str]]:
    """The ``name = value`` pairs of the ``[standards_lint]`` section of an
    ``entry_points.txt``, parsed as importlib.metadata parses it."""
    if ENTRY_POINT_GROUP not in text:
        return []
    rows = []
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section == ENTRY_POINT_GROUP:
            name, _, value = line.partition("=")
            rows.append((name.strip(), value.strip()))
    return rows


def _version_of(info: str) -> str:
    """The ``Version`` of a distribution: its METADATA's (PKG-INFO's for an
    egg-info), as importlib.metadata reads it."""
    import os

    for meta in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, meta), encoding="utf-8") as fh:
                for line in fh:
                    if not line.strip():
                        break  # the end of the headers
                    if line[:8].lower() == "version:":
                        return line[8:].strip()
        except (OSError, ValueError):
            continue
    return ""


def _metadata_entry_points() -> list[_EntryPoint]:
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        if dist is not None and _normalize(dist.name or "") == _OWN_DISTRIBUTION:
            continue
        found.append(_EntryPoint(ep.name, ep.value, dist.version if dist else ""))
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

    from .. import __version__

    plugins: list[PluginInfo] = []
    errors: list[str] = []
    # (name, module, version, built in, loader): the built-ins first, so that
    # none of their codes can be taken by a plugin.
    sources = [(name, module, __version__, True, lambda m=module: importlib.import_module(m))
               for name, module in BUILTIN_PLUGINS]
    for ep in _entry_points():
        sources.append((ep.name, ep.value, ep.version, False, ep.load))
    for mod in extra_modules:
        sources.append((mod, mod, "", False, lambda m=mod: importlib.import_module(m)))
    pm = None
    seen_values = set()
    for name, value, version, builtin, loader in sources:
        if value in seen_values:
            continue
        seen_values.add(value)
        info = PluginInfo(name, value, version)
        plugins.append(info)
        try:
            obj = _hook_namespace(loader())
            if not builtin:  # pluggy checks a plugin's hooks against the specification
                if pm is None:
                    pm = _plugin_manager()
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
        impl = getattr(info.obj, "standards_lint_rules", None)
        if impl is None:
            continue
        try:
            declared = list(impl() or [])
        except Exception as exc:
            info.error = f"{type(exc).__name__}: {exc}"
            errors.append(f"plugin `{info.name}` failed to declare its rules: {info.error}")
            continue
        for r in declared:
            if not isinstance(r, Rule):
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
            rules.append(replace(r, plugin=info.name))
    rules.sort(key=lambda r: r.code)
    reg = Registry(rules, plugins, errors)
    if cached and not extra_modules:
        _REGISTRY = reg
    return reg


def _plugin_manager():
    """pluggy's plugin manager with our hook specification: imported only
    when a plugin other than the built-in rule modules is loaded."""
    import pluggy

    from . import hookspecs

    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    return pm


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


class Result(Record):
    __slots__ = ("findings", "project", "files_checked", "registry", "internal_errors")

    def __init__(self, findings: list[Finding], project: Project, files_checked: int = 0,
                 registry: Optional[Registry] = None, internal_errors: int = 0):
        self.findings = findings
        self.project = project
        self.files_checked = files_checked
        self.registry = registry
        self.internal_errors = internal_errors

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")


def run_rules(project: Project, rules: list[Rule]) -> Result:
    from ..model.owners import USER, record_owner, resolve

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
    release = project.release
    for r in rules:
        if conflicted and not r.during_conflict:
            continue
        if r.scope != "project":  # a move rule runs under `standards-lint history` only
            continue
        if not r.applies_to(release):  # a rule of a newer framework release than the project's
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
    if project.lossy:  # a file read with U+FFFD for its bad bytes is never written back
        for f in findings:
            if f.fix is not None and any(e.path in project.lossy for e in f.fix.edits) or (
                    f.fix is not None and any(r.old in project.lossy for r in f.fix.renames)):
                f.fix = None
    _own_line_ends(findings, project)
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


def line_end_of(text: str) -> str:
    """A file's own line ending: CRLF when it has one (as the fix builders
    that look decide), a lone CR when it has no line feed at all, else LF."""
    if "\r\n" in text:
        return "\r\n"
    if "\r" in text and "\n" not in text:
        return "\r"
    return "\n"


def _own_line_ends(findings: list, project: Project) -> None:
    """Write the line breaks of every fix's new text in its file's own line
    ending.  Fix builders write a line feed (a few look for CRLF), so a fix
    inserting lines into a file of CR or CRLF line ends mixed LF into it
    (issue 43); the command line, the MCP server and the editor's code
    actions apply these edits, so the ending is set once, here."""
    import re

    ends: dict = {}
    breaks = re.compile(r"\r?\n")  # a line feed, or a CRLF a builder wrote
    from .findings import Fix

    for f in findings:
        fix = f.fix
        if fix is None:
            continue
        edits = []
        for e in fix.edits:
            if e.path not in ends:
                text = project.text(e.path)
                ends[e.path] = (line_end_of(text), text) if text is not None else (None, None)
            nl, text = ends[e.path]
            if nl == "\r\n":
                # An edit that starts or ends between the CR and the LF of a
                # line end (a builder that took the CR for part of the line)
                # starts or ends before the CR: the pair stays whole.
                start, end = e.start, e.end
                if 0 < start < len(text) and text[start - 1] == "\r" and text[start] == "\n":
                    start -= 1
                if end > start and 0 < end < len(text) and text[end - 1] == "\r" and text[end] == "\n":
                    end -= 1
                if (start, end) != (e.start, e.end):
                    e = replace(e, start=start, end=end)
            if nl is not None and nl != "\n" and "\n" in e.replacement:
                e = replace(e, replacement=breaks.sub(nl, e.replacement))
            edits.append(e)
        if any(a is not b for a, b in zip(edits, fix.edits)):
            f.fix = Fix(tuple(edits), fix.applicability, fix.description, fix.renames)


def lint(root: str, *, use_git: bool = True, registry: Optional[Registry] = None,
         overlay: Optional[dict] = None, config=None, all_cycles: Optional[bool] = None,
         turn_end: bool = False, source=None, parse=None, removed=()) -> Result:
    """Lint the project at *root*.

    *config* (a :class:`~standards_lint.engine.config.Config`) selects rules,
    changes severities, ignores files and loads project plugins; without it
    every rule runs with its default severity.  *all_cycles* reads and checks
    every cycle's records fully (default: the configuration's ``all-cycles``,
    else only the active cycle's records are read whole).  *turn_end* runs
    the Stop hook's turn-end check (``--turn-end``).  *source* and *parse*
    replace the project's file source and parser (the language server's
    caches, see :class:`~standards_lint.engine.project.Project`).
    """
    if all_cycles is None:
        all_cycles = bool(config is not None and config.all_cycles)
    project = Project(root, use_git=use_git, overlay=overlay, all_cycles=all_cycles, turn_end=turn_end,
                      source=source, parse=parse,
                      removed=removed, target_version=config.target_version if config is not None else None,
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
