"""SARIF 2.1.0 output, for GitHub code scanning and other SARIF consumers."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Optional

from .. import __version__
from ..engine.run import INTERNAL_ERROR, LINTER_CODES, PARSE_ERROR, PLUGIN_ERROR, UNREADABLE, Result
from ..engine.findings import Finding
from ..engine.rule import Rule

LEVELS = {"error": "error", "warning": "warning", "info": "note"}

_NOTIFY = {INTERNAL_ERROR, UNREADABLE, PARSE_ERROR, PLUGIN_ERROR}


def _help_uri(code: str, docs_url: Optional[str]) -> dict:
    """``helpUri`` from the configured ``docs-url``: a SARIF log is read on
    another machine (GitHub code scanning), where a ``file:`` URI of this
    one's installed page would not open, so without it there is none."""
    from ..engine.links import rule_url

    url = rule_url(code, docs_url, local=False)
    return {"helpUri": url} if url else {}


def _information_uri(docs_url: Optional[str]) -> dict:
    """The tool's ``informationUri``: the index of the rule pages under
    ``docs-url``; none without it (there is no other page to name)."""
    from ..engine.links import expand

    return {"informationUri": expand(docs_url, "README")} if docs_url else {}


def _descriptor(rule: Rule, docs_url: Optional[str] = None) -> dict:
    return {
        "id": rule.code,
        "name": _pascal(rule.name),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _plain(rule.explanation) or rule.summary},
        "help": _help(rule),
        **_help_uri(rule.code, docs_url),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {
            "tags": ["standards", rule.section],
            "protocolSection": rule.section,
            "fix": rule.fix,
            **({"noFixReason": rule.no_fix_reason} if rule.no_fix_reason else {}),
        },
    }


def _help(rule: Rule) -> dict:
    """The rule's documentation: its explanation, then the next step its
    declaration names (``help=``) when it has one."""
    body = rule.explanation or rule.summary
    if not rule.help:
        return {"text": _plain(body), "markdown": body}
    return {
        "text": f"{_plain(body)}\n\nHow to fix: {_plain(rule.help)}",
        "markdown": f"{body}\n\n**How to fix:** {rule.help}",
    }


def _builtin_descriptor(code: str, docs_url: Optional[str] = None) -> dict:
    name, severity, text = LINTER_CODES[code]
    return {
        "id": code,
        "name": _pascal(name),
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "help": {"text": text, "markdown": text},
        **_help_uri(code, docs_url),
        "defaultConfiguration": {"level": LEVELS[severity]},
        "properties": {"tags": ["standards-lint"], "protocolSection": "standards-lint"},
    }


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("_", "-").split("-"))


def _plain(markdown: str) -> str:
    return markdown.replace("**", "").replace("`", "").strip()


def _uri(path: str) -> str:
    """A project-relative path as an RFC 3986 URI reference."""
    from urllib.parse import quote

    # An undecodable file name keeps its original bytes, percent-encoded.
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _region(f: Finding) -> dict:
    region = {"startLine": f.line, "startColumn": f.column}
    end_line, end_col = f.end_line, f.end_column
    if (end_line, end_col) > (f.line, f.column):
        region["endLine"] = end_line
        region["endColumn"] = end_col
    else:
        region["endLine"] = f.line
        region["endColumn"] = f.column + 1
    return region


def _fingerprint(f: Finding, line_text: str, seen: Counter) -> str:
    """Stable when unrelated lines move: no line numbers, only the rule, the
    file, the message and the offending line's text (plus an occurrence
    counter for identical findings)."""
    base = "\0".join((f.code, f.path, f.message, line_text.strip()))
    seen[base] += 1
    return hashlib.sha256(f"{base}\0{seen[base]}".encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _line_text(result: Result, f: Finding) -> str:
    text = result.project._texts.get(f.path)
    if not text:
        return ""
    lines = text.split("\n")
    return lines[f.line - 1] if 0 < f.line <= len(lines) else ""


def _fix(f: Finding, result: Result) -> Optional[dict]:
    """The finding's fix as a SARIF ``fix``: one replacement (deleted region,
    inserted text) per edit.  A file rename has no SARIF form: the fix's
    description says it; a fix that only renames has no ``fix`` object (its
    renames are in the result's ``properties.fixRenames``)."""
    if f.fix is None or not f.fix.edits:
        return None
    from .formats import repository_prefix
    from ..syntax.parser import LineIndex

    prefix = repository_prefix(result.project.root)

    by_path: dict[str, list] = {}
    indexes: dict[str, LineIndex] = {}
    for e in f.fix.edits:
        if e.path not in indexes:
            text = _text(result, e.path)
            if text is None:
                return None
            indexes[e.path] = LineIndex(text)
        idx = indexes[e.path]
        sl, sc = idx.position(e.start)
        el, ec = idx.position(e.end)
        by_path.setdefault(e.path, []).append(
            {
                "deletedRegion": {"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec},
                "insertedContent": {"text": e.replacement},
            }
        )
    if not by_path:
        return None  # a move alone: SARIF replacements cannot express it (see the result's properties)
    description = f.fix.description or f"Fix {f.code} ({f.fix.applicability})"
    if f.fix.renames:
        moves = "; ".join(f"rename {r.old} to {r.new}" for r in f.fix.renames)
        description = f"{description} (then {moves}: a rename is not a SARIF replacement; `standards-lint --fix` does it)"
    return {
        "description": {"text": description},
        "artifactChanges": [
            {"artifactLocation": {"uri": _uri(prefix + path), "uriBaseId": "%SRCROOT%"}, "replacements": reps}
            for path, reps in by_path.items()
        ],
    }


def _text(result: Result, path: str) -> Optional[str]:
    from .formats import file_text

    return file_text(result, path)


def render_sarif(result: Result, rules: Optional[list[Rule]] = None, docs_url: Optional[str] = None) -> str:
    """The SARIF log of *result*; rule descriptors link their page
    (``helpUri``) under *docs_url* (the configuration's ``docs-url``) when
    it is given, and have no link otherwise."""
    from .formats import repository_prefix

    # locations from the repository root, where GitHub looks them up
    prefix = repository_prefix(result.project.root)
    rules = list(rules if rules is not None else (result.registry.rules if result.registry else []))
    # a lint's log describes the rules a lint runs (not `history`'s move rules)
    rules = [r for r in rules if getattr(r, "scope", "project") == "project"]
    descriptors = [_descriptor(r, docs_url) for r in rules]
    index = {r.code: i for i, r in enumerate(rules)}
    for code in sorted({f.code for f in result.findings} - set(index)):
        if code in LINTER_CODES:
            index[code] = len(descriptors)
            descriptors.append(_builtin_descriptor(code, docs_url))
    seen: Counter = Counter()
    results = []
    notifications = []
    for f in result.findings:
        res = {
            "ruleId": f.code,
            "level": LEVELS.get(f.severity, "warning"),
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(prefix + f.path), "uriBaseId": "%SRCROOT%"},
                        "region": _region(f),
                    }
                }
            ],
            "partialFingerprints": {"standardsLintFindingHash/v1": _fingerprint(f, _line_text(result, f), seen)},
            "properties": {"protocolSection": f.section, "owner": f.owner},
        }
        # The next step and who takes it: SARIF has no per-result help
        # object, so they travel as result properties (the rule's help and
        # helpUri are in its descriptor).
        if f.code in index:
            res["ruleIndex"] = index[f.code]
        fix = _fix(f, result)
        if fix is not None:
            res["fixes"] = [fix]
        if f.fix is not None and f.fix.renames:
            res["properties"]["fixRenames"] = [r.to_json() for r in f.fix.renames]
        if f.help:
            res["properties"]["help"] = f.help
        results.append(res)
        if f.code in _NOTIFY:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": f.message},
                    "descriptor": {"id": f.code},
                    "locations": res["locations"],
                }
            )
    from pathlib import Path

    from .formats import release_of_run

    top = Path(result.project.root)
    for _ in prefix.strip("/").split("/") if prefix else ():
        top = top.parent
    root_uri = top.as_uri().rstrip("/") + "/"
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "standards-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        **_information_uri(docs_url),
                        "rules": descriptors,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                # The framework release the project was checked by (model.releases).
                "properties": {"frameworkRelease": release_of_run(result.project)},
                "invocations": [
                    {
                        "executionSuccessful": not any(f.code in (INTERNAL_ERROR, PLUGIN_ERROR) for f in result.findings),
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
