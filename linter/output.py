"""Output formats: text (for people) and JSON (for tools)."""

from __future__ import annotations

import json

from .engine import Result


def summary(result: Result) -> dict:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in result.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    project = result.project
    if not project.git_checked:
        git = "not needed"
        notes = []
    elif project.head is None:
        git = "none"
        notes = ["Not a git repository (or git is unavailable): comparisons with the last commit were skipped."]
    else:
        git = "head"
        notes = []
    return {
        "findings": len(result.findings),
        "errors": counts["error"],
        "warnings": counts["warning"],
        "infos": counts["info"],
        "files_parsed": result.files_checked,
        "git": git,
        "notes": notes,
    }


def render_text(result: Result) -> str:
    lines = [f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}" for f in result.findings]
    s = summary(result)
    if result.findings:
        parts = []
        for key, word in (("errors", "error"), ("warnings", "warning"), ("infos", "info")):
            if s[key]:
                parts.append(f"{s[key]} {word}{'s' if s[key] != 1 and word != 'info' else ''}")
        safe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability == "safe")
        unsafe = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability != "safe")
        notes = []
        if safe:
            notes.append(f"{safe} fixable with --fix")
        if unsafe:
            notes.append(f"{unsafe} more with --fix --unsafe-fixes")
        tail = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"Found {len(result.findings)} problem{'s' if len(result.findings) != 1 else ''}: {', '.join(parts)}{tail}.")
    else:
        lines.append("All checks passed.")
    for note in s["notes"]:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"


def render_json(result: Result, role: "str | None" = None) -> str:
    s = summary(result)
    if role:
        s["role"] = role_summary(result, role)
    return json.dumps(
        {"findings": [f.to_json() for f in result.findings], "summary": s},
        indent=2,
        ensure_ascii=False,
    ) + "\n"


# -- --role: what the current role owns, and where the rest goes -----------------------------


def owned_errors(result: Result, role: str) -> int:
    """Error findings the role owns: a forward handoff needs none (PROTOCOL.md,
    Runtime Tools and Hooks)."""
    return sum(1 for f in result.findings if f.owner == role and f.severity == "error")


def role_summary(result: Result, role: str) -> dict:
    routed: dict = {}
    for f in result.findings:
        if f.owner != role:
            routed[f.owner or "USER"] = routed.get(f.owner or "USER", 0) + 1
    return {
        "role": role,
        "owned": sum(1 for f in result.findings if f.owner == role),
        "owned_errors": owned_errors(result, role),
        "routed": dict(sorted(routed.items())),
    }


def render_by_role(result: Result, role: str) -> str:
    """Text output for ``--role``: the role's own findings first, then the
    others grouped by owner, each group headed by what to do with it."""
    from .owners import OWNERS, USER

    line = lambda f: f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}"
    mine = [f for f in result.findings if f.owner == role]
    out = []
    if role == "NAVIGATOR":
        out.append("NAVIGATOR owns nothing: report these problems to the user and change nothing.")
    if mine:
        out.append(f"{role} owns {len(mine)} (fix before continuing):")
        out += [f"  {line(f)}" for f in mine]
    order = {o: i for i, o in enumerate(OWNERS)}
    others = sorted({f.owner or USER for f in result.findings if f.owner != role}, key=lambda o: order.get(o, 99))
    for owner in others:
        group = [f for f in result.findings if (f.owner or USER) == owner and f.owner != role]
        if owner == USER:
            out.append(f"report to the user ({len(group)}; no role can fix these):")
        else:
            out.append(f"route to {owner} ({len(group)}; through Failure Handoffs):")
        out += [f"  {line(f)}" for f in group]
    text = render_text(result)
    tail = text.splitlines()[len(result.findings):]  # the summary and notes
    n = owned_errors(result, role)
    tail.insert(1 if result.findings else 0,
                f"{role} owns {n} error{'s' if n != 1 else ''}"
                + ("; a forward handoff needs none." if n else ": nothing blocks a forward handoff."))
    return "\n".join(out + tail) + "\n"


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render_github(result: Result) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for f in result.findings:
        props = [
            f"file={_gh_escape_prop(f.path)}",
            f"line={f.line}",
            f"col={f.column}",
            f"endLine={max(f.end_line, f.line)}",
        ]
        if f.end_line == f.line:
            props.append(f"endColumn={max(f.end_column, f.column)}")
        props.append(f"title={_gh_escape_prop(f.code + ' ' + f.rule)}")
        out.append(f"::{kinds.get(f.severity, 'warning')} {','.join(props)}::{_gh_escape_data(f.code + ' ' + f.message)}")
    return "\n".join(out) + ("\n" if out else "")
