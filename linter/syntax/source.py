"""Where a project's files come from: the working tree and, inside a git
repository, the last commit (HEAD)."""

from __future__ import annotations

import os
import stat

# Never block on a FIFO or device that pretends to be a Markdown file.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)

SKIP_DIRS = {".git", "node_modules", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox"}


def find_root(start: str) -> str | None:
    """The nearest folder at or above *start* holding ``.standards/``."""
    cur = os.path.abspath(start)
    while True:
        if os.path.isdir(os.path.join(cur, ".standards")):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent


def lone_cr_as_lf(text: str) -> str:
    """*text* with every lone carriage return (old Mac line end, not part of
    CRLF) read as a line feed.  The length is unchanged, so every offset, and
    every fix computed on the result, applies to the original text, whose
    line ends a fix keeps."""
    if "\r" not in text:
        return text
    import re

    return re.sub(r"\r(?!\n)", "\n", text)


class ReadError(Exception):
    """A file exists but cannot be read or decoded."""


class TooLarge(ReadError):
    """A file is larger than the configured ``max-file-size``."""

    def __init__(self, size: int):
        super().__init__(f"{size} bytes")
        self.size = size


class DiskSource:
    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        # What the walk learnt for free: regular files it listed.
        self._regular: set[str] = set()
        # When a dict: the stat of the descriptor each file was first read
        # through (root-relative path -> os.stat_result), so that a caller can
        # key an answer by exactly what it read, with no second stat of the tree.
        self.read_stats: dict | None = None

    if os.sep == "/":
        def abspath(self, rel: str) -> str:
            return f"{self.root}/{rel}" if rel else self.root
    else:  # pragma: no cover - Windows
        def abspath(self, rel: str) -> str:
            return os.path.join(self.root, *rel.split("/"))

    def walk(self) -> list[str]:
        """Every file under the root (POSIX, root-relative), symlinks not followed."""
        out: list[str] = []
        stack = [""]
        while stack:
            rel = stack.pop()
            base = self.abspath(rel) if rel else self.root
            try:
                entries = list(os.scandir(base))
            except OSError:
                continue
            for e in entries:
                child = f"{rel}/{e.name}" if rel else e.name
                try:
                    if e.is_dir(follow_symlinks=False):
                        if e.name not in SKIP_DIRS:
                            stack.append(child)
                    else:
                        out.append(child)
                        if e.is_file(follow_symlinks=False):
                            self._regular.add(child)
                except OSError:
                    out.append(child)
        out.sort()
        return out

    def kind(self, rel: str) -> str | None:
        """'file', 'dir', 'other' or None when absent."""
        if rel in self._regular:
            return "file"
        p = self.abspath(rel)
        if os.path.islink(p) and not os.path.exists(p):
            return "other"
        if os.path.isdir(p):
            return "dir"
        if os.path.isfile(p):
            return "file"
        if os.path.lexists(p):
            return "other"
        return None

    def _open(self, rel: str) -> int:
        """A descriptor of the file, opened for reading; :class:`ReadError` when it cannot be."""
        try:
            return os.open(self.abspath(rel), _READ_FLAGS)
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from exc
        except ValueError as exc:  # a path no file can have (a NUL byte, from a damaged Id)
            raise ReadError(str(exc)) from exc

    def read_bytes(self, rel: str, max_size: int | None = None) -> bytes:
        """The whole file; :class:`TooLarge` (nothing read) when it is larger
        than *max_size* bytes."""
        fd = self._open(rel)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ReadError("not a regular file")
            if self.read_stats is not None:
                self.read_stats.setdefault(rel, st)
            size = st.st_size
            if max_size is not None and size > max_size:
                raise TooLarge(size)
            chunks = []
            while True:
                chunk = os.read(fd, max(size + 1, 65536))
                if not chunk:
                    break
                chunks.append(chunk)
                if max_size is not None and sum(map(len, chunks)) > max_size:
                    raise TooLarge(sum(map(len, chunks)))  # it grew while read
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from exc
        finally:
            os.close(fd)

    def read_head(self, rel: str, limit: int) -> tuple[bytes, bool]:
        """The first *limit* bytes of a file, and whether that is all of it."""
        fd = self._open(rel)
        try:
            if self.read_stats is not None:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise ReadError("not a regular file")
                self.read_stats.setdefault(rel, st)
            elif rel not in self._regular and not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ReadError("not a regular file")
            data = os.read(fd, limit + 1)
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from exc
        finally:
            os.close(fd)
        return (data, True) if len(data) <= limit else (data[:limit], False)

    # -- git --------------------------------------------------------------
    def git_head(self) -> "GitHead | None":
        if not _git_could_find_a_repository(self.root):
            return None
        import subprocess

        try:
            top = subprocess.run(
                ["git", "-C", self.root, "rev-parse", "--show-toplevel", "--verify", "-q", "HEAD"],
                capture_output=True,
                text=True,
                timeout=20,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if top.returncode != 0:
            return None
        lines = top.stdout.splitlines()
        if len(lines) < 2:
            return None
        return GitHead(lines[0], self.root)


def _git_could_find_a_repository(root: str) -> bool:
    """Whether ``git -C root`` could find a repository: a ``.git`` at *root* or
    above (the folders git walks, physical and as named), or one named by the
    environment.  When none can, starting git to be told so (and importing
    ``subprocess``) is skipped."""
    if any(os.environ.get(v) for v in ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")):
        return True
    for start in {os.path.abspath(root), os.path.realpath(root)}:
        path = start
        while True:
            if os.path.lexists(os.path.join(path, ".git")):
                return True
            parent = os.path.dirname(path)
            if parent == path:
                break
            path = parent
    return False


class GitHead:
    """Files of the last commit, read lazily with ``git show``."""

    def __init__(self, toplevel: str, root: str):
        self.toplevel = os.path.realpath(toplevel)
        self.prefix = os.path.relpath(os.path.realpath(root), self.toplevel).replace(os.sep, "/")
        if self.prefix == ".":
            self.prefix = ""
        self._cache: dict[str, str | None] = {}
        self._files: list[str] | None = None

    def _git(self, *args: str) -> bytes | None:
        import subprocess

        try:
            r = subprocess.run(["git", "-C", self.toplevel, *args], capture_output=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout if r.returncode == 0 else None

    def files(self) -> list[str]:
        if self._files is None:
            out = self._git("ls-tree", "-r", "-z", "--name-only", "HEAD", "--", self.prefix or ".")
            names = [n.decode("utf-8", "replace") for n in (out or b"").split(b"\0") if n]
            if self.prefix:
                names = [n[len(self.prefix) + 1:] for n in names if n.startswith(self.prefix + "/")]
            self._files = sorted(names)
        return self._files

    def read(self, rel: str) -> str | None:
        if rel not in self._cache:
            full = f"{self.prefix}/{rel}" if self.prefix else rel
            out = self._git("show", f"HEAD:{full}")
            self._cache[rel] = out.decode("utf-8", "replace") if out is not None else None
        return self._cache[rel]

    def unmerged(self) -> list[str]:
        out = self._git("ls-files", "-u", "-z")
        names = set()
        for entry in (out or b"").split(b"\0"):
            if b"\t" in entry:
                names.add(entry.split(b"\t", 1)[1].decode("utf-8", "replace"))
        return sorted(names)
