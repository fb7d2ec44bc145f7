"""Findings and fixes: plain data that output formats and the fixer consume."""

from __future__ import annotations

from typing import Optional

import attrs

SEVERITIES = ("error", "warning", "info")


@attrs.frozen
class Edit:
    """Replace characters ``[start, end)`` of the decoded file ``path``."""

    path: str
    start: int
    end: int
    replacement: str

    def to_json(self) -> dict:
        return {"path": self.path, "start": self.start, "end": self.end, "replacement": self.replacement}


@attrs.frozen
class Rename:
    """Move the file ``old`` to ``new`` (project-relative paths).  Edits of the
    same fix name the file by its old path and apply before the move."""

    old: str
    new: str

    def to_json(self) -> dict:
        return {"from": self.old, "to": self.new}


@attrs.frozen
class Fix:
    edits: tuple[Edit, ...]
    applicability: str = "safe"  # "safe" | "unsafe"
    description: str = ""
    renames: tuple[Rename, ...] = ()

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability,
            "description": self.description,
            "edits": [e.to_json() for e in self.edits],
            "renames": [r.to_json() for r in self.renames],
        }


@attrs.define
class Finding:
    code: str
    severity: str
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    section: str
    rule: str = ""
    fix: Optional[Fix] = None
    owner: str = ""  # the role that must act on it (standards_lint.owners)
    help: str = ""  # the next step when there is no machine fix

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
