"""Where a project's files come from: the working tree and, inside a git
repository, the last commit (HEAD)."""

from __future__ import annotations

import os
from typing import Optional

SKIP_DIRS = {".git", "node_modules", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox"}


class ReadError(Exception):
    """A file exists but cannot be read or decoded."""


class DiskSource:
    def __init__(self, root: str):
        self.root = os.path.abspath(root)

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
                except OSError:
                    out.append(child)
        out.sort()
        return out

    def kind(self, rel: str) -> Optional[str]:
        """'file', 'dir', 'other' or None when absent."""
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

    def read_bytes(self, rel: str) -> bytes:
        try:
            with open(self.abspath(rel), "rb") as fh:
                return fh.read()
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from exc

    # -- git --------------------------------------------------------------
    def git_head(self) -> Optional["GitHead"]:
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


class GitHead:
    """Files of the last commit, read lazily with ``git show``."""

    def __init__(self, toplevel: str, root: str):
        self.toplevel = os.path.realpath(toplevel)
        self.prefix = os.path.relpath(os.path.realpath(root), self.toplevel).replace(os.sep, "/")
        if self.prefix == ".":
            self.prefix = ""
        self._cache: dict[str, Optional[str]] = {}
        self._files: Optional[list[str]] = None

    def _git(self, *args: str) -> Optional[bytes]:
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

    def read(self, rel: str) -> Optional[str]:
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
