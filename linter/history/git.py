"""One pass over git: the versions of ``.standards/``.

``git log --first-parent --reverse --raw`` restricted to ``.standards/``
gives every commit that changed a workflow file, with the blob of each
changed file; ``git cat-file --batch`` then reads every distinct blob once.
The working tree counts as the newest version when ``git status`` says a
file under ``.standards/`` differs from HEAD.
"""

from __future__ import annotations

import os
import subprocess
from typing import Optional

from ..model.moves import Commit

WORKTREE = "WORKTREE"
_NULL = "0" * 40


class HistoryError(Exception):
    """Input the history cannot be read from (said to the user, no traceback)."""


class Version:
    """One version of ``.standards/``: its commit, its files (root-relative
    path -> blob id, or ``("disk", path)`` for the working tree) and the
    paths this commit changed."""

    __slots__ = ("commit", "files", "changed", "merge")

    def __init__(self, commit: Commit, files: dict, changed: tuple, merge: bool = False):
        self.commit = commit
        self.files = files
        self.changed = changed
        self.merge = merge


class GitHistory:
    """The versions of one project's ``.standards/`` (oldest first) and what
    was noticed reading them (``warnings``)."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.warnings: list[str] = []
        top = self._git("rev-parse", "--show-toplevel", cwd=self.root, check=False)
        if top is None:
            raise HistoryError(f"{self.root} is not inside a git repository; `history` reads the git history "
                               "of `.standards/` (run `git init` and commit, or lint the tree without `history`)")
        self.toplevel = os.path.realpath(top.decode("utf-8", "replace").strip())
        prefix = os.path.relpath(os.path.realpath(self.root), self.toplevel).replace(os.sep, "/")
        self.prefix = "" if prefix == "." else prefix
        if self._git("rev-parse", "--verify", "-q", "HEAD", check=False) is None:
            raise HistoryError("the repository has no commit yet; commit `.standards/` first")
        shallow = self._git("rev-parse", "--is-shallow-repository", check=False)
        self.shallow = shallow is not None and shallow.strip() == b"true"
        if self.shallow:
            self.warnings.append("the repository is a shallow clone: the history starts at its oldest fetched "
                                 "commit, whose files count as added there (fetch the whole history, e.g. "
                                 "`fetch-depth: 0` in actions/checkout, to check every move)")
        self._blobs: dict[str, bytes] = {}

    # -- git ----------------------------------------------------------------
    def _git(self, *args: str, cwd: Optional[str] = None, check: bool = True, stdin: Optional[bytes] = None):
        try:
            r = subprocess.run(["git", "-C", cwd or self.toplevel, *args], capture_output=True, input=stdin,
                               timeout=300)
        except FileNotFoundError:
            raise HistoryError("git is not installed (or not on PATH)") from None
        except (OSError, subprocess.SubprocessError) as exc:
            raise HistoryError(f"git failed: {exc}") from None
        if r.returncode != 0:
            if check:
                msg = r.stderr.decode("utf-8", "replace").strip().splitlines()
                raise HistoryError(f"git {args[0]} failed: {msg[-1] if msg else r.returncode}")
            return None
        return r.stdout

    def _full(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix else rel

    def _rel(self, full: str) -> Optional[str]:
        if not self.prefix:
            return full
        return full[len(self.prefix) + 1:] if full.startswith(self.prefix + "/") else None

    def resolve(self, rev: str) -> str:
        out = self._git("rev-parse", "--verify", "-q", f"{rev}^{{commit}}", check=False)
        if out is None:
            raise HistoryError(f"--since {rev!r} names no commit of this repository")
        return out.decode().strip()

    # -- the versions ---------------------------------------------------------
    def versions(self, since: Optional[str] = None, worktree: bool = True) -> list[Version]:
        """Every version of ``.standards/`` after *since* (a commit; its own
        files are the first version), else from the first commit; plus the
        working tree when it differs from HEAD."""
        spec = self._full(".standards")
        files: dict[str, str] = {}
        out: list[Version] = []
        rng = ["HEAD"]
        if since is not None:
            sha = self.resolve(since)
            tree = self._git("ls-tree", "-r", "-z", sha, "--", spec)
            for entry in tree.split(b"\0"):
                if not entry:
                    continue
                meta, _, path = entry.partition(b"\t")
                rel = self._rel(path.decode("utf-8", "surrogateescape"))
                parts = meta.split()
                if rel is not None and len(parts) == 3 and parts[1] == b"blob":
                    files[rel] = parts[2].decode()
            c = self._commit_info(sha)
            out.append(Version(c, dict(files), tuple(sorted(files))))
            rng = [f"{sha}..HEAD"]
        log = self._git("log", "--first-parent", "--reverse", "--raw", "--no-abbrev", "--no-renames",
                        "--diff-merges=first-parent", "-z", "--format=%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%s",
                        *rng, "--", spec)
        for chunk in log.split(b"\x1e"):
            if not chunk:
                continue
            head, _, rest = chunk.partition(b"\0")
            fields = head.decode("utf-8", "replace").split("\x1f")
            if len(fields) < 5:
                continue
            sha, parents, author, date, subject = fields[:5]
            tokens = rest.lstrip(b"\n").split(b"\0")
            changed = []
            i = 0
            while i + 1 < len(tokens):
                meta, path = tokens[i], tokens[i + 1]
                i += 2
                if not meta.startswith(b":"):
                    continue
                parts = meta[1:].split()
                if len(parts) < 5:
                    continue
                rel = self._rel(path.decode("utf-8", "surrogateescape"))
                if rel is None:
                    continue
                new, status = parts[3].decode(), parts[4][:1]
                if status == b"D" or new == _NULL:
                    files.pop(rel, None)
                else:
                    files[rel] = new
                changed.append(rel)
            merge = len(parents.split()) > 1
            out.append(Version(Commit(sha, date, author, subject), dict(files), tuple(changed), merge))
        if any(v.merge for v in out):
            self.warnings.append("the history has merge commits: it is read along first parents, each merge as "
                                 "one move from its first parent (the merged branch's own moves are not checked)")
        if worktree:
            wt = self._worktree(files)
            if wt is not None:
                out.append(wt)
        return out

    def _commit_info(self, sha: str) -> Commit:
        out = self._git("log", "-1", "--format=%H%x1f%an%x1f%aI%x1f%s", sha).decode("utf-8", "replace").strip()
        h, author, date, subject = (out.split("\x1f") + ["", "", ""])[:4]
        return Commit(h, date, author, subject)

    def _worktree(self, head_files: dict) -> Optional[Version]:
        status = self._git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", self._full(".standards"),
                           check=False)
        if not status:
            return None
        files = dict(head_files)
        changed = []
        entries = status.split(b"\0")
        i = 0
        while i < len(entries):
            e = entries[i]
            i += 1
            if len(e) < 4:
                continue
            code, path = e[:2], e[3:].decode("utf-8", "surrogateescape")
            if code[:1] == b"R" or code[:1] == b"C":
                i += 1  # the original path follows
            rel = os.path.relpath(os.path.join(self.toplevel, path), self.root).replace(os.sep, "/")
            if rel.startswith("../"):
                continue
            if os.path.isfile(os.path.join(self.root, rel)):
                files[rel] = ("disk", rel)
            else:
                files.pop(rel, None)
            changed.append(rel)
        if not changed:
            return None
        return Version(Commit(WORKTREE, "", "", "uncommitted changes"), files, tuple(sorted(changed)))

    # -- blobs ----------------------------------------------------------------
    def load(self, ids) -> None:
        """Read every blob of *ids* not read yet, in one ``git cat-file --batch``."""
        need = sorted({i for i in ids if isinstance(i, str) and i not in self._blobs})
        if not need:
            return
        out = self._git("cat-file", "--batch", stdin=("\n".join(need) + "\n").encode())
        pos = 0
        for sha in need:
            nl = out.index(b"\n", pos)
            header = out[pos:nl].split()
            pos = nl + 1
            if len(header) < 3 or header[1] == b"missing":
                self._blobs[sha] = b""
                continue
            size = int(header[2])
            self._blobs[sha] = out[pos:pos + size]
            pos += size + 1

    def blob(self, ref) -> Optional[bytes]:
        if isinstance(ref, tuple):
            try:
                with open(os.path.join(self.root, ref[1]), "rb") as fh:
                    return fh.read()
            except OSError:
                return None
        if ref not in self._blobs:
            self.load([ref])
        return self._blobs.get(ref)
