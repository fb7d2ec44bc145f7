"""The project model that rules read: files, parsed documents, STATE.md,
MODE.md and (inside a git repository) the last commit.

Everything is lazy: a file is read and parsed only when a rule asks for it,
and each at most once per run.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Optional

from ..syntax.ast import Document, Span
from ..syntax.parser import LineIndex, parse_markdown
from ..syntax.provenance import OPEN, needs_more, parse_block
from ..syntax.source import DiskSource, GitHead, ReadError, TooLarge, find_root  # noqa: F401 (find_root: public here too)

STANDARDS_DIR = ".standards"
STATE_PATH = ".standards/STATE.md"
MODE_PATH = ".standards/MODE.md"
DOCS_DIR = ".standards/docs"
CONTEXT_PATH = ".standards/CONTEXT.md"
# Files whose conflict markers stop every workflow role.
CONFLICT_FILES = (STATE_PATH, MODE_PATH, CONTEXT_PATH)
# A conflict marker line starts with one of these (see the grammar's CONFLICT).
MARKER_RUNS = ("<<<<<<<", ">>>>>>>", "|||||||", "=======")
# How much of a file is read to find the provenance block it begins with.
HEAD_BYTES = 4096
# Files larger than this are not read (SL006); `max-file-size` changes it.
MAX_FILE_SIZE = 8 * 1024 * 1024


def text_size(text: str, limit: int) -> Optional[int]:
    """The UTF-8 size of *text* when it is larger than *limit* bytes, else
    None (encoded only when its length cannot tell)."""
    if len(text) * 4 <= limit:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    return size if size > limit else None


class Project:
    def __init__(self, root: str, *, use_git: bool = True, overlay: Optional[dict] = None,
                 all_cycles: bool = False, max_file_size: int = MAX_FILE_SIZE, turn_end: bool = False,
                 source: Optional[DiskSource] = None, parse=None, removed=(),
                 target_version: Optional[tuple] = None):
        self.root = os.path.abspath(root)
        # The framework release to check by, when the command line or the
        # configuration chooses it: (version text, "command line" |
        # "configuration"); None: the one .standards/VERSION.json names
        # (standards_lint.model.releases).
        self.target_version = target_version
        # The Stop hook's turn-end check (PROTOCOL.md, Runtime Tools and Hooks):
        # the acceptance-coverage rules relax which COMPLETE records they hold.
        self.turn_end = turn_end
        # Where files come from; the language server passes one that keeps
        # what it read between runs (standards_lint.lsp.core).
        self.source = source if source is not None else DiskSource(self.root)
        # parse(text, rel) -> Document; the language server passes a cache
        # keyed by (path, text), so an unchanged file is not parsed again.
        self.parse = parse or parse_markdown
        # A parse cache may parse provenance blocks too (``parse.block``).
        self._parse_block = getattr(parse, "block", None) or parse_block
        self.use_git = use_git
        # Check the records of every cycle fully, not only the active cycle's.
        self.all_cycles = all_cycles
        self.max_file_size = max_file_size
        # Files not read because they are larger than max_file_size: path -> size.
        self.oversized: dict[str, int] = {}
        # In-memory replacements of file texts (used by --diff and --fix passes).
        self.overlay: dict[str, str] = dict(overlay or {})
        # Overlay texts (an editor's open buffers) over max_file_size: not
        # read whole, as such a file on disk is not (SL006): path -> size.
        self._large: dict[str, int] = {}
        for rel, text in self.overlay.items():
            size = text_size(text, max_file_size)
            if size is not None:
                self._large[rel] = size
        # Files a --fix pass moved away (renames): absent from this model.
        # An overlay path that is not on disk is a file the pass created.
        self.removed: frozenset[str] = frozenset(removed or ())
        # Files whose bytes start with a UTF-8 byte-order mark.
        self.bom: set[str] = set()
        self._texts: dict[str, Optional[str]] = {}
        self._docs: dict[str, Optional[Document]] = {}
        # Files that could not be read or decoded: path -> (message, span).
        self.read_problems: dict[str, tuple[str, Span]] = {}
        # Files that are not valid UTF-8, read with each invalid sequence as
        # U+FFFD (as the framework's checker reads them) so that one bad byte
        # silences nothing; no fix may write them back.
        self.lossy: set[str] = set()

    # -- inventory --------------------------------------------------------
    @cached_property
    def files(self) -> list[str]:
        files = self.source.walk()
        if self.removed or self.overlay:
            on_disk = set(files)
            files = sorted([f for f in files if f not in self.removed]
                           + [f for f in self.overlay if f not in on_disk and f not in self.removed])
        return files

    @cached_property
    def file_set(self) -> frozenset[str]:
        return frozenset(self.files)

    # Globs of files the configuration excludes from checking.
    exclude: list[str] = []

    @cached_property
    def markdown_files(self) -> list[str]:
        files = [f for f in self.files if f.lower().endswith(".md")]
        if self.exclude:
            from .config import _glob

            files = [f for f in files if not any(_glob(f, p) for p in self.exclude)]
        return files

    def kind(self, rel: str) -> Optional[str]:
        if rel in self.removed:
            return None
        if rel in self.overlay:
            return "file"
        return self.source.kind(rel)

    def exists(self, rel: str) -> bool:
        return self.kind(rel) is not None

    # -- reading ----------------------------------------------------------
    def text(self, rel: str) -> Optional[str]:
        """Decoded text of a file, or None when absent or unreadable."""
        if rel in self._texts:
            return self._texts[rel]
        text: Optional[str] = None
        if rel in self.overlay:
            text = self._buffer(rel)
            self._texts[rel] = text
            return text
        text = self._read(rel)
        self._texts[rel] = text
        return text

    def transient_text(self, rel: str) -> Optional[str]:
        """Like :meth:`text`, but a file read here is not kept in memory
        (for rules that scan many files once)."""
        if rel in self._texts:
            return self._texts[rel]
        if rel in self.overlay:
            return self._buffer(rel)
        return self._read(rel)

    def _buffer(self, rel: str) -> Optional[str]:
        """The overlay's text of *rel*; None (and SL006) when it is larger than max_file_size."""
        if rel in self._large:
            self.oversized[rel] = self._large[rel]
            return None
        return self.overlay[rel]

    def _read(self, rel: str) -> Optional[str]:
        if rel in self.removed:
            return None
        try:
            data = self.source.read_bytes(rel, self.max_file_size)
        except TooLarge as exc:
            self.oversized[rel] = exc.size
            return None
        except ReadError as exc:
            self._unreadable(rel, exc)
            return None
        return self._decode(rel, data)

    def _unreadable(self, rel: str, exc: ReadError) -> None:
        if self.kind(rel) == "file":
            self.read_problems[rel] = (f"cannot be read: {exc}", Span(1, 1, 1, 1, 0, 0))

    def head_text(self, rel: str) -> Optional[str]:
        """The start of a file (about HEAD_BYTES), decoded; the whole text
        when the file is that short or already read."""
        if rel in self._texts:
            return self._texts[rel]
        if rel in self.overlay:
            return self.overlay[rel][:HEAD_BYTES] if rel in self._large else self.overlay[rel]
        if rel in self.removed:
            return None
        try:
            data, complete = self.source.read_head(rel, HEAD_BYTES)
        except ReadError as exc:
            self._unreadable(rel, exc)
            self._texts[rel] = None
            return None
        if complete:
            text = self._decode(rel, data)
            # Keep it when it may be a record (read again by the rules); a
            # plain note is dropped, or 50,000 notes would stay in memory.
            if text is None or text.startswith(OPEN):
                self._texts[rel] = text
            return text
        if data.startswith(b"\xef\xbb\xbf"):
            self.bom.add(rel)
            data = data[3:]
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.end == len(data) and exc.reason == "unexpected end of data":
                return data[: exc.start].decode("utf-8")  # a character cut by the end of the head
            return self.text(rel)  # invalid inside the head: the whole read reports where

    def _decode(self, rel: str, data: bytes) -> Optional[str]:
        skipped = 0
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
            skipped = 3  # the message gives the offset in the file, BOM included
            self.bom.add(rel)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            good = data[: exc.start].decode("utf-8", "replace")
            idx = LineIndex(good)
            line, col = idx.position(len(good))
            self.read_problems[rel] = (
                f"is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start + skipped}); "
                "it was checked with each invalid byte read as U+FFFD, and no fix will write it",
                Span(line, col, line, col + 1, len(good), len(good) + 1),
            )
            self.lossy.add(rel)
            return data.decode("utf-8", "replace")

    def doc(self, rel: str) -> Optional[Document]:
        """Parsed document, or None when absent or unreadable."""
        if rel in self._docs:
            return self._docs[rel]
        text = self.text(rel)
        d = self.parse(text, rel) if text is not None else None
        self._docs[rel] = d
        return d

    # -- the workflow files -------------------------------------------------
    @property
    def release(self):
        """The framework release this project is checked by (a
        :class:`~standards_lint.model.releases.Release`)."""
        from ..model.releases import release_of

        return release_of(self)

    @cached_property
    def state(self):
        """The STATE.md model, or None when the file is absent or unreadable."""
        from ..syntax.state import StateModel

        d = self.doc(STATE_PATH)
        return StateModel(d, self.release.derived) if d is not None else None

    @cached_property
    def mode_doc(self) -> Optional[Document]:
        return self.doc(MODE_PATH)

    def conflicts(self, rel: str) -> list:
        """Merge-conflict markers of a Markdown file (also inside comments
        and fences), in order; empty when the file is absent.

        A file whose text holds no run of seven marker characters cannot
        hold a marker, so it is not parsed for this (CONTEXT.md, say, is
        otherwise only read)."""
        d = self._docs.get(rel)
        if d is None:
            text = self.text(rel)
            if text is None or not any(m in text for m in MARKER_RUNS):
                return []
            d = self.doc(rel)
        if d is None:
            return []
        if len(d.conflicts) > 1:
            d.conflicts.sort(key=lambda c: c.span.start)
        return d.conflicts

    @cached_property
    def workflow_conflicted(self) -> bool:
        """True while STATE.md, MODE.md or CONTEXT.md holds conflict markers.

        Branches and merges: "While `.standards/` has unmerged files or
        conflict markers, a workflow role stops [...] it never resolves the
        conflict by choosing a side."  The workflow rules stand down then:
        which side's values would they check?  SL110 reports the conflict."""
        return any(self.conflicts(rel) for rel in CONFLICT_FILES)

    def provenance(self, rel: str):
        """The provenance block *rel* begins with (parsed from the start of
        the file only), or None."""
        cache = self.__dict__.setdefault("_provenance", {})
        if rel not in cache:
            d = self._docs.get(rel)
            if d is not None:
                cache[rel] = d.provenance
            else:
                text = self.head_text(rel)
                if text is not None and text.startswith(OPEN) and needs_more(text) and rel not in self._texts:
                    text = self.text(rel)  # the block goes on past the head
                cache[rel] = self._parse_block(rel, text) if text is not None and text.startswith(OPEN) else None
        return cache[rel]

    @cached_property
    def active_cycle(self) -> Optional[str]:
        """Active Work.Id as STATE.md records it (any workflow state), or None."""
        st = self.state
        value = st.aw("Id") if st is not None else None
        value = value.strip() if value else ""
        return value if value and value not in ("UNSET", "NONE") else None

    @cached_property
    def _active_cycle_unknown(self) -> bool:
        """STATE.md is missing or has no readable `Active Work.Id` (unlike an
        Id that says UNSET or NONE): which records are older cannot be told,
        so none is."""
        st = self.state
        return st is None or st.aw("Id") is None

    def is_older_record(self, rel: str) -> bool:
        """True when *rel* is a valid record of a cycle other than the active
        one (none is active when the Id says UNSET or NONE).  Rules read such
        records only as far as their provenance block unless ``all_cycles``
        is set."""
        if self.all_cycles or self._active_cycle_unknown:
            return False
        prov = self.provenance(rel)
        return prov is not None and prov.valid and prov.cycle != self.active_cycle

    @cached_property
    def blocks(self) -> dict:
        """path -> provenance block, for every Markdown file that may be a
        record (see :func:`provenance.scanned`) and begins with a block,
        valid or not.  Each file is read by its head only."""
        from ..syntax.provenance import scanned

        out = {}
        for rel in self.markdown_files:
            if scanned(rel) and self.kind(rel) == "file":
                block = self.provenance(rel)
                if block is not None:
                    out[rel] = block
        return out

    @cached_property
    def records(self):
        """Every valid STANDARDS record (see :mod:`standards_lint.syntax.records`)."""
        from ..syntax.records import inventory

        return inventory(self)

    def records_of(self, cycle: str, artifact: Optional[str] = None) -> list:
        return [r for r in self.records if r.cycle == cycle and (artifact is None or r.artifact == artifact)]

    def record_of(self, cycle: str, artifact: str, review_kind: Optional[str] = None):
        """*The* record of one type for a cycle, found by its provenance: the
        one at its fixed path when that is a record of this type; otherwise
        the only record of this type anywhere (moved or misfiled, the rules
        still read its content); None when there is none or several."""
        same = [r for r in self.records_of(cycle, artifact)
                if artifact != "REVIEW" or r.review_kind == review_kind]
        fixed = [r for r in same if r.path == r.fixed_path]
        if fixed:
            return fixed[0]
        return same[0] if len(same) == 1 else None

    # -- git ------------------------------------------------------------------
    @cached_property
    def head(self) -> Optional[GitHead]:
        """The last commit, or None outside a git repository."""
        if not self.use_git:
            return None
        self.git_checked = True
        return self.source.git_head()

    @cached_property
    def head_state(self):
        """STATE.md as committed at HEAD, or None."""
        from ..syntax.state import StateModel

        if self.head is None:
            return None
        text = self.head.read(STATE_PATH)
        if text is None:
            return None
        return StateModel(self.parse(text.lstrip("\ufeff"), STATE_PATH), self.release.derived)

    git_checked = False
