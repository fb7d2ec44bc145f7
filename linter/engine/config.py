"""Configuration: ``[tool.standards-lint]`` in ``pyproject.toml`` or a
``standards-lint.toml`` (the nearest found walking up from the project root),
or the file given with ``--config``; ``--isolated`` ignores all of them.
Command-line options win over the file.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from ..syntax.data import Record

KEYS = (
    "select", "extend-select", "ignore", "severity", "per-file-ignores", "exclude", "plugins", "format",
    "plugin-options", "all-cycles", "max-file-size", "cache", "output-format", "docs-url",
    "target-version",
)
FORMATS = ("text", "json", "sarif", "github")
OUTPUT_FORMATS = ("concise", "full")
SEVERITIES = ("error", "warning", "info")
ALWAYS_ON = ("SL001", "SL002", "SL003", "SL004")


class ConfigError(Exception):
    """A usage error in the configuration (exit status 2)."""


class Config(Record):
    __slots__ = ("source", "select", "extend_select", "ignore", "severity", "per_file_ignores", "exclude",
                 "plugins", "format", "output_format", "plugin_options", "all_cycles", "max_file_size", "cache",
                 "docs_url", "target_version")

    def __init__(self, source: Optional[str] = None, select: Optional[list[str]] = None,
                 extend_select: Optional[list[str]] = None, ignore: Optional[list[str]] = None,
                 severity: Optional[dict[str, str]] = None, per_file_ignores: Optional[dict[str, list[str]]] = None,
                 exclude: Optional[list[str]] = None, plugins: Optional[list[str]] = None,
                 format: Optional[str] = None, output_format: Optional[str] = None,
                 plugin_options: Optional[dict[str, dict]] = None, all_cycles: bool = False,
                 max_file_size: Optional[int] = None, cache: bool = True, docs_url: Optional[str] = None):
        self.source = source  # path of the file read, if any
        self.select = select
        self.extend_select = [] if extend_select is None else extend_select
        self.ignore = [] if ignore is None else ignore
        self.severity = {} if severity is None else severity
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.exclude = [] if exclude is None else exclude
        self.plugins = [] if plugins is None else plugins
        self.format = format
        self.output_format = output_format  # text only: "concise" | "full"; None: by the terminal
        self.plugin_options = {} if plugin_options is None else plugin_options
        self.all_cycles = all_cycles
        self.max_file_size = max_file_size  # bytes; None: the default (8 MiB)
        self.cache = cache
        # Where the rule pages are served (links in the editor, SARIF helpUri,
        # full text output); None: the installed pages (standards_lint.engine.links).
        self.docs_url = docs_url
        # The framework release to check by: (version, "configuration" |
        # "command line"); None: the one .standards/VERSION.json names.
        self.target_version: Optional[tuple[str, str]] = None

    # -- selection --------------------------------------------------------
    def enabled(self, code: str) -> bool:
        if code in ALWAYS_ON:
            return True
        chosen = (self.select if self.select is not None else ["ALL"]) + self.extend_select
        best_on = _longest(code, chosen)
        best_off = _longest(code, self.ignore)
        if best_on < 0:
            return False
        return best_off < best_on if best_off >= 0 else True

    def ignored_in(self, code: str, path: str) -> bool:
        for pattern, codes in self.per_file_ignores.items():
            if _glob(path, pattern) and _longest(code, codes) >= 0:
                return True
        return False

    def excluded(self, path: str) -> bool:
        return any(_glob(path, p) for p in self.exclude)


def _longest(code: str, prefixes: list[str]) -> int:
    best = -1
    for p in prefixes:
        if p == "ALL":
            best = max(best, 0)
        elif code.startswith(p):
            best = max(best, len(p))
    return best


def _glob(path: str, pattern: str) -> bool:
    import fnmatch

    pattern = pattern.rstrip("/")
    return fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(path, pattern + "/*") or (
        "/" not in pattern and fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    )


def _load_toml(path: str) -> dict:
    import tomli

    try:
        with open(path, "rb") as fh:
            return tomli.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    except Exception as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc


def find_config(root: str) -> Optional[tuple[str, dict]]:
    """The nearest configuration at or above *root*: (path, table)."""
    cur = os.path.abspath(root)
    while True:
        candidate = os.path.join(cur, "standards-lint.toml")
        if os.path.isfile(candidate):
            data = _load_toml(candidate)
            return candidate, data.get("tool", {}).get("standards-lint", data)
        candidate = os.path.join(cur, "pyproject.toml")
        if os.path.isfile(candidate):
            data = _load_toml(candidate)
            table = data.get("tool", {}).get("standards-lint")
            if table is not None:
                return candidate, table
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent


def _suggest(word: str, choices) -> str:
    import difflib

    near = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f"; did you mean `{near[0]}`?" if near else ""


def _str_list(key: str, value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: `{key}` must be a list of strings, not {type(value).__name__}")
    return list(value)


_UNITS = {"": 1, "B": 1, "KB": 1000, "KIB": 1024, "MB": 1000**2, "MIB": 1024**2, "GB": 1000**3, "GIB": 1024**3}


def _size(value: Any, where: str) -> int:
    """A size in bytes: an integer, or a string such as ``"16 MiB"``."""
    import re

    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", value) if isinstance(value, str) else None
    if m and m.group(2).upper() in _UNITS and float(m.group(1)) > 0:
        return int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    raise ConfigError(f"{where}: `max-file-size` must be a positive number of bytes or a size such as \"16 MiB\", not {value!r}")


def target_version(value: Any, where: str) -> str:
    """A framework version to check by (``"0.9.1"``), as the configuration's
    ``target-version`` or ``--target-version`` gives it."""
    from ..model.releases import parse_version

    if not isinstance(value, str) or parse_version(value) is None:
        raise ConfigError(f"{where} must be a framework version such as \"0.10.0\", not {value!r}")
    return value.strip()


def parse_table(table: dict, where: str) -> Config:
    cfg = Config(source=where)
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key `{key}`{_suggest(key, KEYS)}")
        if key == "select":
            cfg.select = _str_list(key, value, where)
        elif key == "extend-select":
            cfg.extend_select = _str_list(key, value, where)
        elif key == "ignore":
            cfg.ignore = _str_list(key, value, where)
        elif key == "exclude":
            cfg.exclude = _str_list(key, value, where)
        elif key == "plugins":
            cfg.plugins = _str_list(key, value, where)
        elif key == "format":
            if value not in FORMATS:
                raise ConfigError(f"{where}: `format` must be one of {', '.join(FORMATS)}{_suggest(str(value), FORMATS)}")
            cfg.format = value
        elif key == "output-format":
            if value not in OUTPUT_FORMATS:
                raise ConfigError(f"{where}: `output-format` must be one of {', '.join(OUTPUT_FORMATS)}"
                                  f"{_suggest(str(value), OUTPUT_FORMATS)}")
            cfg.output_format = value
        elif key == "severity":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: `severity` must be a table of code = \"error|warning|info\"")
            for code, sev in value.items():
                if sev not in SEVERITIES:
                    raise ConfigError(f"{where}: severity of `{code}` must be error, warning or info{_suggest(str(sev), SEVERITIES)}")
            cfg.severity = dict(value)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: `per-file-ignores` must be a table of glob = [codes]")
            cfg.per_file_ignores = {g: _str_list(f"per-file-ignores.{g}", v, where) for g, v in value.items()}
        elif key in ("all-cycles", "cache"):
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: `{key}` must be true or false, not {type(value).__name__}")
            setattr(cfg, key.replace("-", "_"), value)
        elif key == "max-file-size":
            cfg.max_file_size = _size(value, where)
        elif key == "docs-url":
            from .links import check_docs_url

            problem = check_docs_url(value)
            if problem:
                raise ConfigError(f"{where}: `docs-url` {problem}")
            cfg.docs_url = value
        elif key == "target-version":
            cfg.target_version = (target_version(value, f"{where}: `target-version`"), "configuration")
        elif key == "plugin-options":
            if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
                raise ConfigError(f"{where}: `plugin-options` must be a table of plugin = {{options}}")
            cfg.plugin_options = {k: dict(v) for k, v in value.items()}
    return cfg


def load_config(root: str, *, path: Optional[str] = None, isolated: bool = False) -> Config:
    if isolated:
        return Config()
    if path is not None:
        data = _load_toml(path)
        return parse_table(data.get("tool", {}).get("standards-lint", data), path)
    found = find_config(root)
    if found is None:
        return Config()
    return parse_table(found[1], found[0])


def validate_codes(cfg: Config, known: set[str]) -> None:
    """Every code or prefix the configuration names must exist."""
    def check(key: str, codes):
        for c in codes:
            if c == "ALL" or any(k.startswith(c) for k in known):
                continue
            raise ConfigError(f"{cfg.source or 'command line'}: `{key}` names unknown code or prefix `{c}`{_suggest(c, sorted(known))}")

    check("select", cfg.select or [])
    check("extend-select", cfg.extend_select)
    check("ignore", cfg.ignore)
    check("severity", list(cfg.severity))
    for glob, codes in cfg.per_file_ignores.items():
        check(f"per-file-ignores.{glob}", codes)
