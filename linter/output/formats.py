"""Output formats: text (for people: ``concise`` or ``full``), JSON (for
tools), GitHub annotations, and ``--statistics``.

Text output names files relative to the current folder (so a terminal or an
editor opens ``path:line:col`` from where the command ran); JSON, SARIF and
GitHub annotations keep project-relative paths (SARIF says so with its
``%SRCROOT%`` base, JSON documents it).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # a cache hit imports this module: neither the engine nor typing nor json
    from typing import Optional

    from ..engine.run import Result
    from ..engine.findings import Finding

OUTPUT_FORMATS = ("concise", "full")
COLOR_CHOICES = ("auto", "always", "never")
TAB_WIDTH = 4


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
        "release": release_of_run(project),
        "notes": notes,
    }


def release_of_run(project) -> dict:
    """Which framework release the run checked by, and where that came
    from: ``{"release", "requested", "source", "beyond"}`` (source
    ``command line``, ``configuration``, ``VERSION.json`` or ``default``)."""
    from ..model.releases import release_selection

    return release_selection(project).as_json()


# -- choices that depend on the terminal ------------------------------------
def is_tty(stream=None) -> bool:
    stream = stream or sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def default_output_format(stream=None) -> str:
    """``full`` on a terminal, ``concise`` otherwise (as ruff)."""
    return "full" if is_tty(stream) else "concise"


def use_color(choice: str = "auto", stream=None, environ=None) -> bool:
    """ANSI colour: ``always``/``never`` as told; ``auto`` colours a terminal
    unless ``NO_COLOR`` is set and not empty (https://no-color.org), and
    colours any stream when ``FORCE_COLOR`` is set and not empty (NO_COLOR
    wins over FORCE_COLOR; the command-line option wins over both)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", ""):
        return False
    if env.get("FORCE_COLOR", ""):
        return True
    return is_tty(stream)


class Style:
    """ANSI styles, or nothing when colour is off."""

    _CODES = {
        "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
        "magenta": "35", "cyan": "36", "bold-red": "1;31", "bold-yellow": "1;33", "bold-cyan": "1;36",
        "bold-blue": "1;34",
    }

    def __init__(self, color: bool = False):
        self.color = color

    def __call__(self, name: str, text: str) -> str:
        if not self.color or not text:
            return text
        return f"\x1b[{self._CODES[name]}m{text}\x1b[0m"


_SEVERITY_STYLE = {"error": "bold-red", "warning": "bold-yellow", "info": "bold-cyan"}


# -- paths -------------------------------------------------------------------
def display_path(path: str, root: str, cwd: Optional[str] = None) -> str:
    """The project-relative *path* as a person at *cwd* types it: relative
    to *cwd* inside it; above it, ``../``-style only when shorter than the
    absolute path."""
    absolute = os.path.join(os.path.realpath(root), path)
    try:
        cwd = os.path.realpath(cwd if cwd is not None else os.getcwd())
        rel = os.path.relpath(absolute, cwd)
    except (OSError, ValueError):  # the current folder is gone, or another drive
        return absolute
    rel = rel.replace(os.sep, "/")
    if rel.startswith("../") or rel == "..":
        return rel if len(rel) < len(absolute) else absolute
    return rel


# -- concise -----------------------------------------------------------------
def _help_line(f: Finding, indent: str = "    ") -> str:
    if not f.help:
        return ""
    who = f" ({f.owner})" if f.owner else ""
    return f"help{who}: " + f.help.strip().replace("\n", "\n" + indent)


def summary_lines(result: Result) -> list[str]:
    """``Found N problems: ...`` (or ``All checks passed.``) and the notes."""
    s = summary(result)
    lines = []
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
    return lines


def _header(f: Finding, path: str, st: Style) -> str:
    where = st("bold", path) + st("dim", ":") + f"{f.line}" + st("dim", ":") + f"{f.column}" + st("dim", ":")
    return f"{where} {st(_SEVERITY_STYLE.get(f.severity, 'bold'), f.code)} {f.message}"


def render_text(result: Result, *, output_format: str = "concise", color: bool = False,
                cwd: Optional[str] = None, doc_link=None) -> str:
    """Text for people.  ``concise``: one ``path:line:col: CODE message`` line
    per finding (plus an indented ``help (OWNER): ...`` line when the finding
    has help); ``full``: the same line, then the source with the span
    underlined, the owner, the help, the fix as a small diff and, when
    *doc_link* (code -> URL or None, see :mod:`standards_lint.engine.links`) gives
    one, the link to the rule's page.  Then the summary line(s)."""
    lines = finding_lines(result, result.findings, output_format=output_format, color=color, cwd=cwd,
                          doc_link=doc_link)
    lines.extend(summary_lines(result))
    return "\n".join(lines) + "\n"


def finding_lines(result: Result, findings, *, output_format: str = "concise", color: bool = False,
                  cwd: Optional[str] = None, doc_link=None) -> list[str]:
    """The text lines of *findings* (some or all of ``result.findings``), in
    either layout, without the summary: for outputs that group findings."""
    st = Style(color)
    root = result.project.root
    paths: dict[str, str] = {}

    def shown(p: str) -> str:
        if p not in paths:
            paths[p] = display_path(p, root, cwd)
        return paths[p]

    texts = _Texts(result)
    lines: list[str] = []
    for f in findings:
        lines.append(_header(f, shown(f.path), st))
        if output_format == "full":
            lines.extend(_full_body(texts, f, st, shown, doc_link(f.code) if doc_link else None))
            lines.append("")
        elif f.help:
            lines.append("  " + st("cyan", _help_line(f)))
    return lines


# -- full --------------------------------------------------------------------
class _Texts:
    """The decoded texts the run read, for one rendering (a file the run read
    only in part, or not at all, is read once more, once)."""

    def __init__(self, result: Result):
        self.result = result
        self.memo: dict[str, Optional[str]] = {}

    def __call__(self, path: str) -> Optional[str]:
        if path not in self.memo:
            self.memo[path] = file_text(self.result, path)
        return self.memo[path]


def file_text(result: Result, path: str) -> Optional[str]:
    """The decoded text of *path* as the run read it, else read once more
    (for showing context or building a fix; never fails the output)."""
    project = result.project
    text = project._texts.get(path)
    if text is None and path not in project._texts:
        try:
            if project.kind(path) == "file":
                text = project.transient_text(path)
        except Exception:  # showing context must never fail a run
            text = None
    return text


def _lines_of(text: str) -> list[str]:
    from ..syntax.source import lone_cr_as_lf

    return [line[:-1] if line.endswith("\r") else line for line in lone_cr_as_lf(text).split("\n")]


def _char_width(ch: str) -> int:
    import unicodedata

    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _visible(line: str) -> tuple[str, list[int]]:
    """The line as shown (tabs expanded, control characters made visible,
    so nothing in a file can move the cursor or restyle the terminal) and
    the display column where each code point starts (one more entry: the
    end of the line)."""
    out: list[str] = []
    starts: list[int] = []
    col = 0
    for ch in line:
        starts.append(col)
        if ch == "\t":
            n = TAB_WIDTH - col % TAB_WIDTH
            out.append(" " * n)
            col += n
            continue
        o = ord(ch)
        if o < 0x20:
            ch = chr(0x2400 + o)  # the Control Pictures block: ␛, ␍ ...
        elif o == 0x7F or 0x80 <= o < 0xA0:
            ch = "\ufffd"  # the replacement character
        out.append(ch)
        col += _char_width(ch)
    starts.append(col)
    return "".join(out), starts


def _underline(f: Finding, line: str) -> tuple[str, int, int]:
    """The shown line and the display columns [start, end) to underline."""
    shown, starts = _visible(line)
    n = len(line)
    c0 = min(max(f.column - 1, 0), n)
    if f.end_line > f.line:
        c1 = n  # a span over several lines: its first line, to the end
    elif f.end_line == f.line:
        c1 = min(max(f.end_column - 1, c0), n)
    else:
        c1 = c0
    d0, d1 = starts[c0], starts[c1]
    if d1 <= d0:
        d1 = d0 + 1  # an empty span (or one at the end of the line): one caret
    return shown, d0, d1


def _fix_lines(texts: _Texts, f: Finding, st: Style, shown) -> list[str]:
    import difflib

    fix = f.fix
    if fix is None:
        return []
    label = "fix" if fix.applicability == "safe" else "unsafe fix"
    desc = f": {fix.description}" if fix.description else ""
    out = [st("green" if fix.applicability == "safe" else "yellow", f"{label}{desc}")]
    by_path: dict[str, list] = {}
    for e in fix.edits:
        by_path.setdefault(e.path, []).append(e)
    for path, edits in by_path.items():
        before = texts(path)
        if before is None:
            out.append(f"edit {shown(path)} (its text is not at hand)")
            continue
        after, pos = [], 0
        for e in sorted(edits, key=lambda e: (e.start, e.end)):
            if e.start < pos or e.end > len(before):
                after = None
                break
            after.append(before[pos:e.start])
            after.append(e.replacement)
            pos = e.end
        if after is None:
            out.append(f"edit {shown(path)} (overlapping edits)")
            continue
        after.append(before[pos:])
        new = "".join(after)
        diff = list(difflib.unified_diff(_lines_of(before), _lines_of(new), n=1, lineterm=""))
        if len(by_path) > 1 or fix.renames or path != f.path:
            out.append(st("bold", f"{shown(path)}"))
        for row in diff[2:]:  # the ---/+++ header names the finding's file
            shown_row = _visible(row)[0].rstrip()
            if row.startswith("@@"):
                out.append(st("cyan", shown_row))
            elif row.startswith("-"):
                out.append(st("red", shown_row))
            elif row.startswith("+"):
                out.append(st("green", shown_row))
            else:
                out.append(shown_row)
    for r in fix.renames:
        out.append(f"rename {shown(r.old)} -> {shown(r.new)}")
    return out


def _full_body(texts: _Texts, f: Finding, st: Style, shown, link: Optional[str] = None) -> list[str]:
    text = texts(f.path)
    rows: list[tuple[str, str]] = []  # (gutter, content)
    if text is not None:
        lines = _lines_of(text)
        if 1 <= f.line <= len(lines):
            shown_line, d0, d1 = _underline(f, lines[f.line - 1])
            marks = " " * d0 + "^" * (d1 - d0)
            if f.end_line > f.line:
                marks += " ..."
            rows = [("", ""), (str(f.line), shown_line),
                    ("", st(_SEVERITY_STYLE.get(f.severity, "bold"), marks + f" {f.code}")), ("", "")]
    width = max([len(g) for g, _ in rows] + [1])
    out = []
    for gutter, content in rows:
        bar = st("bold-blue", f"{gutter:>{width}} |")
        out.append(f"{bar} {content}".rstrip() if content else bar)
    pad = " " * width
    eq = st("bold-blue", f"{pad} =")
    if f.owner:
        out.append(f"{eq} owner: {f.owner}")
    if f.help:
        out.append(f"{eq} {st('cyan', 'help')}: " + f.help.strip().replace("\n", "\n" + pad + "         "))
    for i, row in enumerate(_fix_lines(texts, f, st, shown)):
        out.append(f"{eq} {row}" if i == 0 else f"{pad}   {row}".rstrip())
    if link:
        out.append(f"{eq} docs: {link}")
    return out


# -- statistics --------------------------------------------------------------
def statistics(result: Result, unsafe: bool = False) -> list[dict]:
    """Per code: count, name, fixable (a fix --fix would apply: safe ones,
    and unsafe ones with --unsafe-fixes), most frequent first."""
    from ..engine.run import LINTER_CODES

    rows: dict[str, dict] = {}
    for f in result.findings:
        name = f.rule or LINTER_CODES.get(f.code, ("",))[0]
        row = rows.setdefault(f.code, {"code": f.code, "name": name, "count": 0, "fixable": False})
        row["count"] += 1
        if f.fix is not None and (f.fix.applicability == "safe" or unsafe):
            row["fixable"] = True
    return sorted(rows.values(), key=lambda r: (-r["count"], r["code"]))


def render_statistics(result: Result, *, fmt: str = "text", unsafe: bool = False, color: bool = False) -> str:
    """``count  CODE  [*] name`` per code, then the summary line; with
    ``fmt="json"`` a JSON list of ``{code, name, count, fixable}``."""
    rows = statistics(result, unsafe)
    if fmt == "json":
        import json

        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    st = Style(color)
    wn = max([len(str(r["count"])) for r in rows] + [1])
    wc = max([len(r["code"]) for r in rows] + [1])
    any_fix = any(r["fixable"] for r in rows)
    lines = []
    for r in rows:
        mark = ("[*] " if r["fixable"] else "    ") if any_fix else ""
        lines.append(f"{r['count']:>{wn}}  {st('bold', format(r['code'], f'<{wc}'))}  {mark}{r['name']}".rstrip())
    lines.extend(summary_lines(result))
    return "\n".join(lines) + "\n"


# -- JSON and GitHub ---------------------------------------------------------
def json_document(result: Result, role: "str | None" = None) -> dict:
    """The ``--format json`` document (``render_json`` prints it)."""
    s = summary(result)
    if role:
        s["role"] = role_summary(result, role)
    return {"findings": [f.to_json() for f in result.findings], "summary": s}


def render_json(result: Result, role: "str | None" = None) -> str:
    import json

    return json.dumps(json_document(result, role), indent=2, ensure_ascii=False) + "\n"


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


def render_by_role(result: Result, role: str, *, output_format: str = "concise", color: bool = False,
                   cwd: Optional[str] = None, doc_link=None) -> str:
    """Text output for ``--role``: the role's own findings first, then the
    others grouped by owner, each group headed by what to do with it."""
    from ..model.owners import OWNERS, USER

    def block(group) -> list[str]:
        return ["  " + line if line else line
                for line in finding_lines(result, group, output_format=output_format, color=color, cwd=cwd,
                                          doc_link=doc_link)]

    mine = [f for f in result.findings if f.owner == role]
    out = []
    if role == "NAVIGATOR":
        out.append("NAVIGATOR owns nothing: report these problems to the user and change nothing.")
    if mine:
        out.append(f"{role} owns {len(mine)} (fix before continuing):")
        out += block(mine)
    order = {o: i for i, o in enumerate(OWNERS)}
    others = sorted({f.owner or USER for f in result.findings if f.owner != role}, key=lambda o: order.get(o, 99))
    for owner in others:
        group = [f for f in result.findings if (f.owner or USER) == owner and f.owner != role]
        if owner == USER:
            out.append(f"report to the user ({len(group)}; no role can fix these):")
        else:
            out.append(f"route to {owner} ({len(group)}; through Failure Handoffs):")
        out += block(group)
    tail = summary_lines(result)
    n = owned_errors(result, role)
    tail.insert(1 if result.findings else 0,
                f"{role} owns {n} error{'s' if n != 1 else ''}"
                + ("; a forward handoff needs none." if n else ": nothing blocks a forward handoff."))
    return "\n".join(out + tail) + "\n"


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def repository_prefix(root: str) -> str:
    """The project root's path inside its repository ("" at the top, or
    outside any): GitHub resolves annotation and SARIF paths from the
    repository root (``GITHUB_WORKSPACE`` in a workflow, else the nearest
    folder holding ``.git``), not from a subfolder holding ``.standards/``."""
    import os

    root = os.path.realpath(root)
    tops = []
    ws = os.environ.get("GITHUB_WORKSPACE")
    if ws:
        tops.append(os.path.realpath(ws))
    cur = root
    while True:
        if os.path.lexists(os.path.join(cur, ".git")):
            tops.append(cur)
            break
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    for top in tops:
        rel = os.path.relpath(root, top)
        if rel == ".":
            return ""
        if not rel.startswith(".."):
            return rel.replace(os.sep, "/") + "/"
    return ""


def render_github(result: Result) -> str:
    """GitHub Actions workflow commands: one annotation per finding (its
    help, with the owner, on a second line of the message); paths from the
    repository root (:func:`repository_prefix`)."""
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    prefix = repository_prefix(result.project.root)
    for f in result.findings:
        props = [
            f"file={_gh_escape_prop(prefix + f.path)}",
            f"line={f.line}",
            f"col={f.column}",
            f"endLine={max(f.end_line, f.line)}",
        ]
        if f.end_line == f.line:
            props.append(f"endColumn={max(f.end_column, f.column)}")
        props.append(f"title={_gh_escape_prop(f.code + ' ' + f.rule)}")
        message = f.code + " " + f.message
        if f.help:
            message += "\n" + _help_line(f)
        out.append(f"::{kinds.get(f.severity, 'warning')} {','.join(props)}::{_gh_escape_data(message)}")
    return "\n".join(out) + ("\n" if out else "")
