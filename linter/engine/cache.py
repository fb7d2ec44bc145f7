"""The result cache: re-running standards-lint on an unchanged project prints
the stored output of the last run instead of linting again (as ruff and
pre-commit users expect from a linter run on every commit).

A run's output is stored under a key made of everything the output depends
on, so any change is a miss and a full run:

- the linter itself: its version and the size and modification time of every
  file of the ``standards_lint`` package (an edited checkout is a new linter);
- the import path folders' modification times (installing or removing a
  plugin distribution changes them), and the interpreter;
- the command line (format, output format, selection, flags) and the root
  folder; for what text output depends on beyond it, whether stdout is a
  terminal (the default output format), the colour decision (``--color``,
  ``NO_COLOR``, ``FORCE_COLOR``) and the current folder (paths are shown
  relative to it);
- every configuration file that could apply (``standards-lint.toml`` and
  ``pyproject.toml`` at and above the root, ``--config``): path, size, time;
- every file under the root that the linter's walk lists: path, size,
  modification time (ns) and inode; a file added, removed, renamed or edited
  changes the key;
- inside a git repository, HEAD (the commit the comparisons read) and the
  index's size and time (unmerged entries).  When the repository's layout
  cannot be read, nothing is cached.

The key is only ever compared, never trusted: a cache file that is missing,
unreadable or from another version is a miss.  ``--no-cache``, ``cache =
false`` or ``STANDARDS_LINT_NO_CACHE=1`` turn the cache off; ``--fix`` and
``--diff`` never use it.  Files live in :func:`standards_lint.cache_dir`
(``results/``, one small file per project root, pruned after a week unused).
"""

from __future__ import annotations

import os
import stat as stat_kind
import sys

from .. import __version__, cache_dir
from ..syntax.source import SKIP_DIRS

try:  # the built-in BLAKE2 module imports far faster than hashlib (OpenSSL)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

FORMAT_VERSION = "1"
_CONFIG_NAMES = ("standards-lint.toml", "pyproject.toml")


def enabled() -> bool:
    return os.environ.get("STANDARDS_LINT_NO_CACHE", "") in ("", "0")


def _stat_line(h, label: str, path: str) -> None:
    try:
        st = os.stat(path)
    except OSError:
        h.update(f"{label}\0{path}\0-\n".encode("utf-8", "surrogateescape"))
        return
    h.update(f"{label}\0{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode("utf-8", "surrogateescape"))


def stat_walk(root: str, skip: str | None = None):
    """The same files as :meth:`DiskSource.walk`, each with its ``lstat``
    (None when it could not be taken) and whether it is a symlink, in the
    order of their paths (a folder's entries by name, a folder's as
    ``name/``, so its files come where their paths sort: the order the key
    hashes, and the order of a sorted listing); a folder that cannot be
    listed is an entry with stat None and ``is_symlink`` None. The walk the
    key and a long-running server (``standards-lint mcp``) share; a
    generator, so the key of a command-line run keeps none of it. *skip*: a
    folder not to enter (the cache folder, should it lie inside the
    project)."""
    try:
        top = _entries(root)
    except OSError:
        yield root, None, None
        return
    stack = [iter(top)]
    while stack:
        for e in stack[-1]:
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name in SKIP_DIRS or e.path == skip:
                        continue
                    try:
                        inner = _entries(e.path)
                    except OSError:
                        yield e.path, None, None
                        continue
                    stack.append(iter(inner))
                    break
                yield e.path, e.stat(follow_symlinks=False), e.is_symlink()
            except OSError:
                yield e.path, None, False
        else:
            stack.pop()


def _entries(folder: str) -> list:
    """A folder's entries in the order of their paths."""
    with os.scandir(folder) as it:
        return sorted(it, key=_path_key)


def _path_key(e) -> str:
    """An entry's name as its path sorts: a folder's as ``name/``."""
    try:
        return e.name + "/" if e.is_dir(follow_symlinks=False) else e.name
    except OSError:
        return e.name


def _walk_into(h, root: str, walked=None) -> None:
    """Every file of *walked* (a :func:`stat_walk` of *root*, taken now when
    not given, without the cache folder) with its stat."""
    if walked is None:
        walked = stat_walk(root, skip=os.path.abspath(cache_dir()))
    # in the order of the paths (stat_walk's, and a sorted listing's)
    for path, st, link in walked:
        if st is not None:
            h.update(f"{path}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode(
                "utf-8", "surrogateescape"))
            if link:  # the linter reads through it: its target counts too
                _stat_line(h, "target", path)
        elif link is None:
            h.update(f"unlistable\0{path}\n".encode("utf-8", "surrogateescape"))
        else:
            h.update(f"{path}\0?\n".encode("utf-8", "surrogateescape"))


def _git_state(root: str) -> str | None:
    """HEAD's commit and the index's stat, or None when unknown (then the run
    is not cached); "" outside any repository."""
    cur = root
    while True:
        dot = os.path.join(cur, ".git")
        if os.path.lexists(dot):
            break
        parent = os.path.dirname(cur)
        if parent == cur:
            return ""
        cur = parent
    try:
        if os.path.isfile(dot):  # a worktree or submodule: `gitdir: <path>`
            with open(dot, encoding="utf-8") as fh:
                line = fh.read().strip()
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.normpath(os.path.join(cur, line[len("gitdir:"):].strip()))
        else:
            gitdir = dot
        common = gitdir
        if os.path.isfile(os.path.join(gitdir, "commondir")):
            with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as fh:
                common = os.path.normpath(os.path.join(gitdir, fh.read().strip()))
        with open(os.path.join(gitdir, "HEAD"), encoding="utf-8") as fh:
            head = fh.read().strip()
        commit = head
        if head.startswith("ref:"):
            ref = head[4:].strip()
            commit = ""
            for base in (gitdir, common):
                try:
                    with open(os.path.join(base, *ref.split("/")), encoding="utf-8") as fh:
                        commit = fh.read().strip()
                        break
                except OSError:
                    continue
            if not commit:
                try:
                    with open(os.path.join(common, "packed-refs"), encoding="utf-8") as fh:
                        for row in fh:
                            if row.rstrip("\n").endswith(" " + ref):
                                commit = row.split(" ", 1)[0]
                                break
                except OSError:
                    pass
            if not commit:
                commit = f"unborn:{ref}"
        try:
            st = os.stat(os.path.join(gitdir, "index"))
            index = f"{st.st_size}:{st.st_mtime_ns}"
        except OSError:
            index = "-"
        return f"{cur}\0{commit}\0{index}"
    except (OSError, UnicodeDecodeError):
        return None


# The folders of standards_lint's packages under linter/ (docs/architecture.md).
PACKAGES = ("syntax", "model", "engine", "fixes", "output", "status", "history", "lsp", "agents")


def _package_into(h) -> None:
    import importlib.util

    import standards_lint

    pkg = os.path.dirname(standards_lint.__file__)
    # where the rule modules are, without importing them (the engine is below the rules)
    rules = list(importlib.util.find_spec("standards_lint.rules").submodule_search_locations)
    folders = [pkg, *(os.path.join(pkg, name) for name in PACKAGES), *rules]
    grammar = os.path.join(os.path.dirname(rules[0]), "grammar")
    for folder in (*folders, grammar, os.path.join(folders[0], "grammar")):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name.endswith((".py", ".lark")):
                _stat_line(h, "pkg", os.path.join(folder, name))


def key(root: str, argv: list[str], *, use_git: bool, config_path: str | None, walked=None) -> str | None:
    """The cache key of a run, or None when the run must not be cached.
    *walked*: the run's own :func:`stat_walk` of *root*, when it has one (the
    tree is then walked once)."""
    h = begin_key(root, argv, use_git=use_git, config_path=config_path)
    return None if h is None else finish_key(h, root, walked)


def begin_key(root: str, argv: list[str], *, use_git: bool, config_path: str | None):
    """The key's hash over everything but the tree (the linter, the
    arguments, the configuration files, git's HEAD and index), or None when
    the run must not be cached: taken before the run reads anything, and
    finished by :func:`finish_key` with the tree's files."""
    h = blake2b(digest_size=20)
    h.update(f"{FORMAT_VERSION}\0{__version__}\0{sys.version}\0{sys.executable}\0{root}\n".encode("utf-8", "surrogateescape"))
    h.update("\0".join(argv).encode("utf-8", "surrogateescape") + b"\n")
    for entry in sys.path:
        _stat_line(h, "path", entry or ".")
    _package_into(h)
    cur = root
    while True:
        for name in _CONFIG_NAMES:
            _stat_line(h, "cfg", os.path.join(cur, name))
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    if config_path:
        _stat_line(h, "cfg", os.path.abspath(config_path))
    if use_git:
        git = _git_state(root)
        if git is None:
            return None
        h.update(f"git\0{git}\n".encode("utf-8", "surrogateescape"))
    return h


def finish_key(h, root: str, walked=None) -> str:
    """The key begun by :func:`begin_key`, with every file of the tree
    (*walked*, a :func:`stat_walk` of *root* or :func:`walk_of_reads`; taken
    now when not given)."""
    _walk_into(h, root, walked)
    return h.hexdigest()


def walk_of_reads(root: str, listing, regular, read_stats: dict) -> list:
    """What :func:`stat_walk` would give for the files of *listing*, in its
    order, without a second stat of the files a run read.

    *listing* is the sorted root-relative paths a
    :class:`~standards_lint.syntax.source.DiskSource` walk listed, *regular*
    those it saw as regular files, *read_stats* the stat of the descriptor
    each file was read through, taken when it was read (a regular file's
    ``fstat`` is its ``lstat``; a symlink's is its target's, so a link is
    stat'ed again).  The key then says exactly what the answer was made
    from; the other files (never read: only their presence counted) are
    stat'ed now.  A file created after the listing is not in it, so the next
    walk's key differs; a file changed after it was read has another stat,
    so the key differs too: an answer is never reused for a tree it was not
    made from.  A folder that could not be listed is missing here, so such a
    tree's first key differs from its next (one answer not reused, never a
    wrong one)."""
    base = root.rstrip(os.sep) if root != os.sep else ""
    out = []
    for rel in sorted(listing):  # already sorted, as a walk lists: one pass
        path = f"{base}/{rel}" if os.sep == "/" else os.path.join(root, *rel.split("/"))
        st = read_stats.get(rel) if rel in regular else None
        if st is not None:
            out.append((path, st, False))
            continue
        try:
            st = os.lstat(path)
        except OSError:
            out.append((path, None, False))
            continue
        out.append((path, st, stat_kind.S_ISLNK(st.st_mode)))
    return out


def _file(root: str) -> str:
    name = blake2b(root.encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()
    return os.path.join(cache_dir(), "results", f"{name}.txt")


# One cache file per project root: a header line with the key, the exit
# status and the lengths of stdout and stderr, then both texts.
def lookup(root: str, run_key: str) -> tuple[int, str, str] | None:
    try:
        with open(_file(root), encoding="utf-8", errors="surrogateescape", newline="") as fh:
            header = fh.readline().rstrip("\n").split(" ")
            if len(header) != 5 or header[0] != FORMAT_VERSION or header[1] != run_key:
                return None
            status, n_out, n_err = int(header[2]), int(header[3]), int(header[4])
            out = fh.read(n_out)
            err = fh.read(n_err)
            if len(out) != n_out or len(err) != n_err or fh.read(1):
                return None
            return status, out, err
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None


def store(root: str, run_key: str, status: int, out: str, err: str) -> None:
    path = _file(root)
    folder = os.path.dirname(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
            fh.write(f"{FORMAT_VERSION} {run_key} {status} {len(out)} {len(err)}\n")
            fh.write(out)
            fh.write(err)
        os.replace(tmp, path)
    except (OSError, UnicodeError):  # a text the cache file cannot hold: not cached
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    from .run import _prune

    _prune(folder, "", keep=path)
