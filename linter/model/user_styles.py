"""User styles: which role-style selectors may persist (PROTOCOL.md, User Styles)."""

from __future__ import annotations


# Roles that persist their selection, by record type (PROTOCOL.md, User Styles).
ROLE_FOLDER = {
    "DEVELOPMENT": "developer",
    "VERIFICATION": "tester",
    "REVIEW": "reviewer",
    "DOCUMENTATION": "documenter",
    "SYNCHRONIZATION": "synchronizer",
}


STYLES_DIR = ".standards/user-styles"


# The record templates' own placeholders for a style name: never a selection.
TEMPLATE_PLACEHOLDERS = ("<identifier>", "<style-name>")


def role_styles(project, role: str) -> list[str]:
    """The selectable style files of *role*: direct child Markdown files of
    its folder, by file name."""
    prefix = f"{STYLES_DIR}/{role}/"
    return [
        f[len(prefix):] for f in project.files
        if f.startswith(prefix) and "/" not in f[len(prefix):] and f.lower().endswith(".md")
        and project.kind(f) == "file"
    ]


def persistable_selector(project, artifact: str, selector: str):
    """The full file name a record must save for a selector that names a
    style by a stem entirely enclosed in `<...>` (*"`<formal>.md` persists as
    `<formal>.md`, never `<formal>`"*, User Styles), when exactly that file
    is one of the role's styles; otherwise None."""
    role = ROLE_FOLDER.get(artifact)
    s = selector.strip()
    if role is None or not (s.startswith("<") and s.endswith(">")) or s in TEMPLATE_PLACEHOLDERS:
        return None
    if "|" in s or "/" in s or "\\" in s:
        return None
    found = matches(s, role_styles(project, role))
    return found[0] if found == [s + ".md"] else None


def matches(selector: str, files: list[str]) -> list[str]:
    """Style files the selector names: the filename stem or the full name."""
    return [f for f in files if f == selector or f == selector + ".md"]
