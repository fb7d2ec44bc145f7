"""Build each version's project from its blobs, check every move with the
history rules, and gather what the story needs."""

from __future__ import annotations

from typing import Optional

from ..model import model_of
from ..model.moves import is_move, snapshot
from ..model.releases import VERSION_PATH
from ..syntax.parser import parse_markdown
from ..engine.project import Project, find_root
from ..syntax.source import ReadError, TooLarge
from .explain import HistoryMove, explain, finished_by
from .git import GitHistory, HistoryError, Version

STATE = ".standards/STATE.md"
MODE = ".standards/MODE.md"


class BlobSource:
    """A project's files as one version holds them (the project's file
    source, :class:`~standards_lint.syntax.source.DiskSource`'s interface): what
    the rules read of a version is read exactly as they read a tree."""

    def __init__(self, root: str, files: dict, history: GitHistory):
        self.root = root
        self.files = files
        self.history = history
        self._dirs = None

    def walk(self) -> list[str]:
        return sorted(self.files)

    def kind(self, rel: str):
        if rel in self.files:
            return "file"
        if self._dirs is None:
            self._dirs = {p.rsplit("/", i)[0] for p in self.files for i in range(1, p.count("/") + 1)}
        return "dir" if rel in self._dirs or rel == "" else None

    def read_bytes(self, rel: str, max_size: Optional[int] = None) -> bytes:
        data = self.history.blob(self.files[rel]) if rel in self.files else None
        if data is None:
            raise ReadError("not in this version")
        if max_size is not None and len(data) > max_size:
            raise TooLarge(len(data))
        return data

    def read_head(self, rel: str, limit: int):
        data = self.read_bytes(rel)
        return (data, True) if len(data) <= limit else (data[:limit], False)

    def git_head(self):
        return None


class _ParseOnce:
    """Each distinct text of each file is parsed once for the whole history."""

    def __init__(self):
        self.docs: dict = {}

    def __call__(self, text: str, rel: str):
        key = (rel, text)
        d = self.docs.get(key)
        if d is None:
            d = self.docs[key] = parse_markdown(text, rel)
        return d


class Point:
    """One version read: its commit, project, model and snapshot."""

    __slots__ = ("version", "project", "model", "snap", "state_exists")

    def __init__(self, version: Version, project: Project):
        self.version = version
        self.project = project
        self.model = model_of(project)
        self.state_exists = STATE in version.files
        self.snap = snapshot(self.model) if self.state_exists else None


class Checked:
    """One move checked: the two points, the Move, its findings; *upgrade*:
    the commit only upgraded the framework (its runtime files), no move."""

    __slots__ = ("before", "after", "move", "findings", "upgrade")

    def __init__(self, before: Point, after: Point, move: HistoryMove, findings: list, upgrade=None):
        self.before, self.after, self.move, self.findings = before, after, move, findings
        self.upgrade = upgrade


# What the framework installs and upgrades (Runtime Tools and Hooks;
# installation.md): never a workflow move.
FRAMEWORK_FILES = (".standards/PROTOCOL.md", ".standards/VERSION.json", ".standards/INSTALLATION.json")
FRAMEWORK_FOLDERS = (".standards/protocol/", ".standards/bin/", ".standards/templates/", ".standards/skills/",
                     ".standards/hooks/", ".standards/lib/")


def framework_upgrade(changed) -> "Optional[tuple]":
    """The paths of a commit that changed only framework-owned runtime files
    (an upgrade), else None."""
    if not changed:
        return None
    if all(rel in FRAMEWORK_FILES or rel.startswith(FRAMEWORK_FOLDERS) for rel in changed):
        return tuple(changed)
    return None


class HistoryResult:
    def __init__(self, root, points, checked, start, warnings, range_label, prefix=""):
        self.root = root
        self.prefix = prefix  # the project's folder inside the repository ("" at its top)
        self.points = points  # every version read (oldest first)
        self.checked = checked  # the moves in range
        self.start = start  # index of the first version in range
        self.warnings = warnings
        self.range_label = range_label

    @property
    def findings(self) -> list:
        return [f for c in self.checked for f in c.findings]

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f["severity"] == "error")


def history_rules(registry=None):
    from ..engine.run import load_registry

    reg = registry or load_registry()
    return [r for r in reg.rules if r.scope in ("history", "upgrade")]


def run_history(path: str, *, since: Optional[str] = None, all_history: bool = False, worktree: bool = True,
                rules=None) -> HistoryResult:
    import os

    root = find_root(path) if os.path.isdir(path) else None
    if root is None:
        raise HistoryError(f"no `.standards/` folder at or above {path}")
    gh = GitHistory(root)
    versions = gh.versions(since, worktree=worktree)
    if not versions:
        raise HistoryError("no commit changed `.standards/`")
    gh.load(ref for v in versions for rel, ref in v.files.items()
            if rel in (STATE, MODE, VERSION_PATH) or rel in v.changed)
    parse = _ParseOnce()
    points = [Point(v, Project(root, source=BlobSource(root, v.files, gh), use_git=False, parse=parse))
              for v in versions]
    rules = history_rules() if rules is None else rules
    # the range: --since (its version is the base), --all, else the active cycle's first version
    if since is not None or all_history:
        start, label = 0, (f"since {since}" if since else "the whole history")
    else:
        last = next((p.snap for p in reversed(points) if p.snap is not None), None)
        start = 0
        if last is not None and not last.installed:
            start = next(i for i, p in enumerate(points) if p.snap is not None and p.snap.cid == last.cid)
        label = "the active cycle" if start else "the whole history"
    checked = []
    seen: set = set()
    finished: dict = {}
    for i, p in enumerate(points):
        if i > 0:
            before = points[i - 1]
            move = None
            if i >= max(start, 1):
                move = HistoryMove(before.model, p.model, before.version.commit, p.version.commit,
                                   changed=p.version.changed, finished=finished, cycles_seen=seen,
                                   record_cycle=_record_cycles(before, p), before_project=before.project,
                                   after_project=p.project, snapshots=(before.snap, p.snap))
                move.unreadable = (p.state_exists and p.snap is None, before.state_exists and before.snap is None)
                upgrade = framework_upgrade(p.version.changed)
                # An upgrade is no move: only what the new release requires
                # of the files is checked (the rules of scope "upgrade").
                chosen = [r for r in rules if (r.scope == "upgrade") == bool(upgrade)]
                checked.append(Checked(before, p, move, _run(chosen, move, p), upgrade))
            if before.snap is not None:
                seen.add(before.snap.cid)
            # what this commit's moves finish, as if committed one by one
            if before.snap is not None and p.snap is not None:
                e = move.explanation if move is not None else None
                if move is None and before.snap.cid != p.snap.cid:  # before the range: only a new cycle matters
                    e = explain(before.snap, p.snap)
                for cid in finished_by(before.snap, p.snap, e):
                    finished.setdefault(cid, p.version.commit.sha)
        if p.snap is not None and p.snap.terminal and p.snap.cid not in finished:
            finished[p.snap.cid] = p.version.commit.sha
    return HistoryResult(root, points, checked, start, gh.warnings, label, gh.prefix)


def _record_cycles(before: Point, after: Point) -> dict:
    out = {}
    for rel in after.version.changed:
        if not rel.startswith(".standards/docs/") or not rel.endswith(".md"):
            continue
        for p in (before, after):
            if rel in p.version.files:
                block = p.project.provenance(rel)
                if block is not None and block.valid:
                    out[rel] = block.cycle
                    break
    return out


def _run(rules, move: Move, after: Point) -> list:
    from ..model.owners import resolve

    out = []
    for r in rules:
        try:
            diags = list(r.check(move) or ())
        except Exception as exc:  # a rule that raises never stops the history
            out.append(_finding("SL001", "error", "internal-error", "standards-lint",
                                 f"internal error in rule {r.code} ({r.name}): {type(exc).__name__}: {exc}",
                                 STATE, 1, 1, move, "USER"))
            continue
        for d in diags:
            try:
                owner = d.owner or resolve(r.owner, after.project, d)
            except Exception:
                owner = "USER"
            out.append(_finding(r.code, r.severity, r.name, r.section, d.message, d.path, d.span.line,
                                d.span.column, move, owner, help=d.help or r.help))
    return out


def _finding(code, severity, rule, section, message, path, line, column, move: Move, owner, help=""):
    return {"code": code, "severity": severity, "rule": rule, "section": section, "message": message,
            "path": path, "line": line, "column": column, "commit": move.after_commit.sha,
            "before_commit": move.before_commit.sha, "owner": owner, "help": help}


__all__ = ["BlobSource", "HistoryError", "HistoryResult", "is_move", "run_history"]
