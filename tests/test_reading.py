"""How far files are read: a project with many older cycles is checked from
the heads of their records (the provenance block), never their bodies, unless
--all-cycles asks; nothing read only for a scan is kept in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from standards_lint.engine.run import lint
from standards_lint.syntax.source import DiskSource

from .rules.conftest import write_tree
from .test_robustness import ACTIVE_STATE, CYCLE, PROVENANCE, RUNTIME, STATE

BODY = "\n# Development Plan\n\n" + ("Prose of an old cycle. " * 40 + "\n\n") * 30  # about 28 kB


def _older(k: int) -> str:
    return f"older-work-{k:04d}-20250101T000000Z-{k:08x}"


def _tree(root: Path, n: int) -> list[str]:
    files = dict(RUNTIME)
    files[STATE] = ACTIVE_STATE
    files[f".standards/docs/reviews/{CYCLE}/implementation.md"] = PROVENANCE + "\n# Implementation Review\n"
    older = []
    for k in range(n):
        rel = f".standards/docs/development/{_older(k)}.md"
        files[rel] = f"<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: {_older(k)}\n-->\n" + BODY
        older.append(rel)
    write_tree(root, files)
    return older


@pytest.fixture()
def reads(monkeypatch):
    """Paths read whole (read_bytes) and read by their head (read_head)."""
    whole, heads = [], []
    real_bytes, real_head = DiskSource.read_bytes, DiskSource.read_head

    def read_bytes(self, rel, *args):
        whole.append(rel)
        return real_bytes(self, rel, *args)

    def read_head(self, rel, *args):
        heads.append(rel)
        return real_head(self, rel, *args)

    monkeypatch.setattr(DiskSource, "read_bytes", read_bytes)
    monkeypatch.setattr(DiskSource, "read_head", read_head)
    return whole, heads


def test_older_cycles_are_read_only_as_far_as_their_provenance_block(tmp_path, reads):
    older = _tree(tmp_path, 60)
    result = lint(str(tmp_path), use_git=False)
    whole, heads = reads
    assert not set(older) & set(whole)
    assert set(older) <= set(heads)
    assert heads.count(older[0]) == 1  # each head is read once
    assert not set(older) & set(result.project._texts)
    assert not set(older) & set(result.project._docs)
    assert {r.cycle for r in result.project.records} >= {_older(0), _older(59), CYCLE}


def test_all_cycles_reads_every_record_whole_without_keeping_it(tmp_path, reads):
    older = _tree(tmp_path, 60)
    result = lint(str(tmp_path), use_git=False, all_cycles=True)
    whole, _ = reads
    assert set(older) <= set(whole)
    assert not set(older) & set(result.project._texts)


def test_a_damaged_body_of_an_older_record_shows_only_with_all_cycles(tmp_path):
    older = _tree(tmp_path, 3)
    conflicted, undecodable = tmp_path / older[1], tmp_path / older[2]
    conflicted.write_bytes(conflicted.read_bytes() + b"\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    undecodable.write_bytes(undecodable.read_bytes() + b"caf\xe9\n")
    quick = lint(str(tmp_path), use_git=False)
    assert [f.code for f in quick.findings if f.path in older] == []
    full = lint(str(tmp_path), use_git=False, all_cycles=True)
    assert sorted((f.path, f.code) for f in full.findings if f.path in older) == [
        (older[1], "SL111"), (older[2], "SL002"),
    ]


def test_without_a_readable_active_work_id_every_record_is_read_whole(tmp_path, reads):
    """When STATE.md cannot say which cycle is active (no `Id` field), no
    record counts as older: each is read whole and checked."""
    older = _tree(tmp_path, 3)
    state = tmp_path / STATE
    state.write_text(state.read_text(encoding="utf-8").replace("`Id`:", "`Ident`:"), encoding="utf-8")
    result = lint(str(tmp_path), use_git=False)
    whole, _ = reads
    assert result.project.active_cycle is None
    assert set(older) <= set(whole)


def test_an_unset_active_work_id_makes_every_record_older(tmp_path, reads):
    older = _tree(tmp_path, 3)
    state = tmp_path / STATE
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace(f"`Id`: `{CYCLE}`", "`Id`: `UNSET`"), encoding="utf-8")
    result = lint(str(tmp_path), use_git=False)
    whole, _ = reads
    assert result.project.active_cycle is None
    assert not set(older) & set(whole)
