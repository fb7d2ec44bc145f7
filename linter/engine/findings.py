"""Findings and fixes: plain data that output formats and the fixer consume."""

from __future__ import annotations

from typing import Optional

from ..syntax.data import Frozen, Record

SEVERITIES = ("error", "warning", "info")


class Edit(Frozen):
    """Replace characters ``[start, end)`` of the decoded file ``path``."""

    __slots__ = ("path", "start", "end", "replacement")

    def __init__(self, path: str, start: int, end: int, replacement: str):
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "replacement", replacement)

    def to_json(self) -> dict:
        return {"path": self.path, "start": self.start, "end": self.end, "replacement": self.replacement}


class Rename(Frozen):
    """Move the file ``old`` to ``new`` (project-relative paths).  Edits of the
    same fix name the file by its old path and apply before the move."""

    __slots__ = ("old", "new")

    def __init__(self, old: str, new: str):
        object.__setattr__(self, "old", old)
        object.__setattr__(self, "new", new)

    def to_json(self) -> dict:
        return {"from": self.old, "to": self.new}


class Fix(Frozen):
    __slots__ = ("edits", "applicability", "description", "renames")

    def __init__(self, edits: tuple[Edit, ...], applicability: str = "safe", description: str = "",
                 renames: tuple[Rename, ...] = ()):
        object.__setattr__(self, "edits", edits)
        object.__setattr__(self, "applicability", applicability)  # "safe" | "unsafe"
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "renames", renames)

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability,
            "description": self.description,
            "edits": [e.to_json() for e in self.edits],
            "renames": [r.to_json() for r in self.renames],
        }


class Finding(Record):
    __slots__ = ("code", "severity", "message", "path", "line", "column", "end_line", "end_column", "section",
                 "rule", "fix", "owner", "help")

    def __init__(self, code: str, severity: str, message: str, path: str, line: int, column: int, end_line: int,
                 end_column: int, section: str, rule: str = "", fix: Optional[Fix] = None, owner: str = "",
                 help: str = ""):
        self.code, self.severity, self.message = code, severity, message
        self.path, self.line, self.column, self.end_line, self.end_column = path, line, column, end_line, end_column
        self.section, self.rule, self.fix = section, rule, fix
        self.owner = owner  # the role that must act on it (standards_lint.model.owners)
        self.help = help  # the next step when there is no machine fix

    def sort_key(self):
        return (self.path, self.line, self.column, self.code, self.message)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "section": self.section,
            "rule": self.rule,
            "fix": self.fix.to_json() if self.fix else None,
            "owner": self.owner,
            "help": self.help,
        }
