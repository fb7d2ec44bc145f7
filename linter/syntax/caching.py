"""What a long-lived process keeps between runs, so that it lints again
without redoing work: the language server (``standards-lint server``) on
every keystroke, the MCP server (``standards-lint mcp``) on every call.

- :class:`CachingSource`: the project's files as the linter reads them, with
  each file's bytes kept while its ``stat`` (size, mtime, inode) is
  unchanged, the walk of the tree kept until something says the tree
  changed (or a few seconds pass), and git's HEAD kept while ``.git/HEAD``
  and the index are unchanged;
- :class:`ParseCache`: parsed documents keyed by (path, text), at most two
  texts per path (the buffer and, for STATE.md, the last commit's), and
  provenance blocks by the text they begin.

Both are reading and parsing, so they sit in the syntax layer, below every
integration that keeps a project between runs.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Iterable, Optional

from .ast import Document
from .parser import parse_markdown
from .provenance import parse_block
from .source import DiskSource, GitHead

# The walk of the tree is trusted this long without a notification.
WALK_TTL_S = 5.0
# Bytes of file contents kept between runs (least recently used go first).
READ_CACHE_BYTES = 64 * 1024 * 1024
# Files whose first bytes (the provenance block) are kept.
HEAD_CACHE_FILES = 20000


# -- reading -------------------------------------------------------------------
class CachingSource(DiskSource):
    """A :class:`DiskSource` that keeps what it read while the files are
    unchanged on disk."""

    def __init__(self, root: str, clock: Callable[[], float] = time.monotonic):
        super().__init__(root)
        self._clock = clock
        self._walk: Optional[list[str]] = None
        self._walk_time = 0.0
        self._bytes: dict[str, tuple[tuple, bytes]] = {}
        self._bytes_total = 0
        self._heads: dict[str, tuple[tuple, bytes, bool]] = {}
        self._git: Optional[tuple[tuple, Optional[GitHead]]] = None
        self.keep_heads = True  # keep each head read (False: read it, keep nothing)

    def invalidate(self) -> None:
        """Something changed the tree (a save, a created or deleted file)."""
        self._walk = None
        self._git = None

    def walk(self) -> list[str]:
        now = self._clock()
        if self._walk is None or now - self._walk_time > WALK_TTL_S:
            self._regular = set()
            self._walk = super().walk()
            self._walk_time = now
            self._forget_gone(set(self._walk))
        return list(self._walk)

    def _forget_gone(self, listed) -> None:
        """Drop what is kept of the files not in *listed* (files gone)."""
        for kept in (self._heads, self._bytes):
            for rel in [r for r in kept if r not in listed]:
                gone = kept.pop(rel)
                if kept is self._bytes:
                    self._bytes_total -= len(gone[1])

    def _stat(self, rel: str):
        """The file's stat now (a subclass may know it already)."""
        return os.stat(self.abspath(rel))

    @staticmethod
    def _key(st) -> tuple:
        return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_mode)

    def read_bytes(self, rel: str, max_size: Optional[int] = None) -> bytes:
        try:
            st = self._stat(rel)
        except OSError:
            st = None
        if st is not None:
            hit = self._bytes.get(rel)
            if hit is not None and hit[0] == self._key(st) and (max_size is None or len(hit[1]) <= max_size):
                self._bytes[rel] = self._bytes.pop(rel)  # most recently used last
                return hit[1]
        data = super().read_bytes(rel, max_size)
        if st is not None and len(data) == st.st_size:
            old = self._bytes.pop(rel, None)
            if old is not None:
                self._bytes_total -= len(old[1])
            self._bytes[rel] = (self._key(st), data)
            self._bytes_total += len(data)
            while self._bytes_total > READ_CACHE_BYTES and len(self._bytes) > 1:
                first = next(iter(self._bytes))
                self._bytes_total -= len(self._bytes.pop(first)[1])
        return data

    def read_head(self, rel: str, limit: int) -> tuple[bytes, bool]:
        """The start of a file: from the whole file or the head read before,
        while the file is unchanged (a project of thousands of records reads
        every record's head on each run)."""
        try:
            st = self._stat(rel)
        except OSError:
            return super().read_head(rel, limit)
        key = self._key(st)
        hit = self._bytes.get(rel)
        if hit is not None and hit[0] == key:
            data = hit[1]
            return (data, True) if len(data) <= limit else (data[:limit], False)
        head = self._heads.get(rel)
        if head is not None and head[0] == (key, limit):
            return head[1], head[2]
        data, complete = super().read_head(rel, limit)
        if self.keep_heads and (len(self._heads) < HEAD_CACHE_FILES or rel in self._heads):
            self._heads[rel] = ((key, limit), data, complete)
        return data, complete

    def git_head(self) -> Optional[GitHead]:
        key = self._git_key()
        if self._git is not None and self._git[0] == key:
            return self._git[1]
        head = super().git_head()
        if head is not None:
            head = _CachedHead(head)
        self._git = (key, head)
        return head

    def _git_key(self) -> tuple:
        """What changes when HEAD moves or the index is written: the stat of
        .git/HEAD, its ref and the index of the nearest repository, plus a
        coarse clock (a ref moved by another tool is seen within seconds)."""
        cur = self.root
        out: list = [int(self._clock() // 30)]
        while True:
            git = os.path.join(cur, ".git")
            if os.path.exists(git):
                for name in ("HEAD", "index", "packed-refs"):
                    try:
                        st = os.stat(os.path.join(git, name))
                        out.append((name, st.st_mtime_ns, st.st_size))
                    except OSError:
                        out.append((name, None))
                try:
                    with open(os.path.join(git, "HEAD"), encoding="utf-8") as fh:
                        ref = fh.read().strip()
                    if ref.startswith("ref: "):
                        st = os.stat(os.path.join(git, ref[5:]))
                        out.append((ref, st.st_mtime_ns))
                except OSError:
                    pass
                return tuple(out)
            parent = os.path.dirname(cur)
            if parent == cur:
                return tuple(out)
            cur = parent


class _CachedHead(GitHead):
    """A :class:`GitHead` whose answers are kept (files and reads are
    already kept by GitHead; the unmerged list is kept here)."""

    def __init__(self, head: GitHead):
        self.__dict__.update(head.__dict__)
        self._unmerged: Optional[list[str]] = None

    def unmerged(self) -> list[str]:
        if self._unmerged is None:
            self._unmerged = super().unmerged()
        return list(self._unmerged)


class ParseCache:
    """``parse(text, rel)`` with the documents of the last texts of each path
    kept.  A document is never changed by the rules, so one parse serves every
    run whose text is the same."""

    PER_PATH = 2

    def __init__(self):
        self._docs: dict[str, list[tuple[str, Document]]] = {}
        self._blocks: dict[str, tuple[str, object]] = {}
        self.keep_blocks = True  # keep each block parsed (False: parse it, keep nothing)
        self.parsed = 0  # how many parses ran (for tests and the bench)

    def __call__(self, text: str, rel: str) -> Document:
        entries = self._docs.setdefault(rel, [])
        for i, (t, d) in enumerate(entries):
            if t == text:
                if i:
                    entries.insert(0, entries.pop(i))
                return d
        d = parse_markdown(text, rel)
        self.parsed += 1
        entries.insert(0, (text, d))
        del entries[self.PER_PATH:]
        return d

    def block(self, rel: str, text: str):
        """The provenance block *text* (a file's start) begins with, kept
        while the text is the same: every run reads every record's block."""
        hit = self._blocks.get(rel)
        if hit is not None and hit[0] == text:
            return hit[1]
        b = parse_block(rel, text)
        if self.keep_blocks:
            self._blocks[rel] = (text, b)
        return b

    def forget(self, keep: Iterable[str]) -> None:
        """Drop the documents of paths not in *keep* (files gone or no longer read)."""
        keep = set(keep)
        for rel in [r for r in self._docs if r not in keep]:
            del self._docs[rel]

    def forget_blocks(self, keep: Iterable[str]) -> None:
        """Drop the blocks of files no longer in the project."""
        keep = set(keep)
        for rel in [r for r in self._blocks if r not in keep]:
            del self._blocks[rel]
