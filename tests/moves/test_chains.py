"""Legal episodes (tests/moves/chains.py: sequences of up to five moves made
right, from each kind of clean tree) on real git repositories.

- History: every episode committed move by move, squashed whole into one
  commit, and split in two at every point gives no error finding from
  ``standards-lint history`` (a squash of legal moves is a legal history;
  its facts are those of the moves one by one); and every window of it
  (moves i+1..j in one commit) is explained.
- Lint: every tree of every episode lints clean, plainly, against the last
  commit (git HEAD the tree before the move) and at turn end (``--turn-end``);
  and the last tree lints clean with HEAD two or more moves behind (an agent
  that commits after some moves only).

The number of walks from each kind of tree is ``CHAINS_WALKS`` (default 2,
about 130 episodes; 4 gives about 250).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from standards_lint.engine.run import lint
from standards_lint.history import run_history
from standards_lint.history.explain import HistoryMove
from standards_lint.history.run import history_rules
from tests.moves import chains as C
from tests.moves.test_moves import _clean_trees
from tests.rules.conftest import write_tree

WALKS = int(os.environ.get("CHAINS_WALKS", "2"))
EPISODES = C.episodes(_clean_trees(), walks=WALKS)

# The clean suite tree that the turn-end check alone finds wrong (no move
# made): a lint discrepancy, reported to the lead; see the test below.
# Clean kinds whose tree the framework's Stop hook does not find clean: its
# turn-end check holds Handoff.From's records during recovery ("instead holds
# those of the state named in `Handoff.From`"), so the Tester's COMPLETE
# report that misses AC-005, added by the SCOPING rework still being rerun,
# is reported at turn end (suite-0283's expected_turn_end), not plainly.
TURN_END_CODES = {("ARCHITECTING", "STANDARD", "FULL_DELIVERABLE", 2, "BROWNFIELD"): ["SL721"]}


def _ids(e: C.Episode) -> str:
    return repr(e).replace(" ", "")


def _errors(result) -> list:
    return sorted({f.code for f in result.findings if str(f.severity).lower() == "error"})


def _clear(root: Path) -> None:
    for entry in root.iterdir():
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()


def test_the_episodes_cover_the_moves():
    """The pruned set still holds every kind of move and the shapes that
    squash hardest: two failures in a row, a resume then a failure, a cancel
    then a new cycle, a sign-off then a new cycle, reruns."""
    labels = [lbl.split(":")[0] for e in EPISODES for lbl in e.labels]
    assert {"forward", "fail", "resume", "rerun", "block", "unblock", "cancel", "sign-off",
            "new-cycle"} <= set(labels)
    pairs = {(a.split(":")[0], b.split(":")[0]) for e in EPISODES for a, b in zip(e.labels, e.labels[1:])}
    assert {("fail", "fail"), ("resume", "fail"), ("cancel", "new-cycle"), ("fail", "rerun"),
            ("rerun", "forward")} <= pairs
    assert all(1 <= len(e.labels) <= C.MAX_MOVES for e in EPISODES)


@pytest.mark.parametrize("episode", EPISODES, ids=_ids)
def test_a_legal_episode_is_a_legal_history_however_committed(tmp_path, episode):
    parts = dict(episode.partitions())
    C.fast_import(tmp_path, {name: [episode.trees[i] for i in idx] for name, idx in parts.items()})
    rules = history_rules()
    bad = {}
    for name in parts:
        C.point_head(tmp_path, name)
        result = run_history(str(tmp_path), all_history=True, worktree=False, rules=rules)
        errors = [(f["code"], f["message"]) for f in result.findings if f["severity"] == "error"]
        if errors:
            bad[name] = errors
        if name == "each":  # and every window of the episode squashed into one commit
            pts = result.points
            for i in range(len(pts)):
                for j in range(i + 2, len(pts)):
                    move = HistoryMove(pts[i].model, pts[j].model, pts[i].version.commit, pts[j].version.commit,
                                       changed=(), before_project=pts[i].project, after_project=pts[j].project,
                                       snapshots=(pts[i].snap, pts[j].snap))
                    if move.problem is not None:
                        bad[f"window {i}..{j}"] = move.problem.detail
    assert bad == {}


@pytest.mark.parametrize("episode", EPISODES, ids=_ids)
def test_a_legal_episode_lints_clean_plainly_against_the_last_commit_and_at_turn_end(tmp_path, episode):
    repo, plain = tmp_path / "repo", tmp_path / "plain"
    plain.mkdir()
    shas = C.fast_import(repo, {"each": episode.trees})["each"]
    base_turn_end = set()
    if episode.kind in TURN_END_CODES:
        write_tree(plain, episode.trees[0])
        base_turn_end = set(_errors(lint(str(plain), use_git=False, turn_end=True)))
    bad = []
    for i in range(1, len(episode.trees)):
        tree = episode.trees[i]
        _clear(plain)
        write_tree(plain, tree)
        got = {"plain": _errors(lint(str(plain), use_git=False)),
               "turn-end": sorted(set(_errors(lint(str(plain), use_git=False, turn_end=True))) - base_turn_end)}
        C.point_head(repo, "probe", shas[i - 1])
        _clear(repo)
        write_tree(repo, tree)
        got["last-commit"] = _errors(lint(str(repo), use_git=True))
        for how, codes in got.items():
            if codes:
                bad.append((i, episode.labels[i - 1], how, codes))
    assert bad == []


@pytest.mark.parametrize("episode", [e for e in EPISODES if len(e.trees) > 2], ids=_ids)
def test_a_legal_episode_lints_clean_with_the_last_commit_moves_behind(tmp_path, episode):
    """An agent commits after some moves only: HEAD lies two or more moves
    behind the working tree.  The episode's last tree lints clean against
    every earlier commit, plainly and at turn end (what the Stop hook's
    check adds on the clean tree itself aside, TURN_END_CODES)."""
    shas = C.fast_import(tmp_path, {"each": episode.trees})["each"]
    last = episode.trees[-1]
    base_turn_end = set(TURN_END_CODES.get(episode.kind, ()))
    bad = []
    for i in range(len(episode.trees) - 2):
        C.point_head(tmp_path, "probe", shas[i])
        _clear(tmp_path)
        write_tree(tmp_path, last)
        got = {"plain": _errors(lint(str(tmp_path), use_git=True)),
               "turn-end": sorted(set(_errors(lint(str(tmp_path), use_git=True, turn_end=True))) - base_turn_end)}
        for how, codes in got.items():
            if codes:
                bad.append((f"HEAD {len(episode.trees) - 1 - i} moves behind", episode.labels[i:], how, codes))
    assert bad == []


@pytest.mark.parametrize("files", [pytest.param(b, id="/".join(map(str, C.kind_of(b))))
                                   for b in C.bases(_clean_trees())])
def test_each_kind_of_clean_tree_is_clean_at_turn_end(tmp_path, files):
    """The episodes' starting trees: clean plainly (the suite's verdict) and
    at turn end, except what the Stop hook's check adds (TURN_END_CODES)."""
    write_tree(tmp_path, files)
    assert _errors(lint(str(tmp_path), use_git=False)) == []
    assert _errors(lint(str(tmp_path), use_git=False, turn_end=True)) == TURN_END_CODES.get(C.kind_of(files), [])


def _forgeries(limit: int = 60) -> list:
    """Windows of the episodes that pass a state by a normal forward handoff
    (no frame, the state not entered again in the window), with that state's
    record taken out of the later tree: the squash could not have left it."""
    from tests.moves import edit as E

    out = []
    for e in EPISODES:
        for i in range(len(e.trees)):
            for j in range(i + 2, len(e.trees)):
                window = [lbl for lbl in e.labels[i:j] if lbl not in ("block", "unblock")]
                # a cycle ended inside the window explains its later tree without the forward handoff;
                # a window of one move is the plain lint's to judge (SL930, SL931)
                if len(window) < 2 or {"cancel", "new-cycle", "sign-off"} & set(window):
                    continue
                for k in range(i, j):
                    here, before = C.state(e.trees[k]), e.trees[k]
                    later = [C.state(t) for t in e.trees[k + 1:j + 1]]
                    path = E.source_record(before, here)
                    if e.labels[k] != "forward" or C.stack(before) or here in later or not path or \
                            path not in e.trees[j]:
                        continue
                    forged = {rel: text for rel, text in e.trees[j].items() if rel != path}
                    out.append((f"{e!r} [{i}..{j}] without {path.rsplit('/', 1)[-1]} of {here}", e.trees[i], forged))
                    break
        if len(out) >= limit:
            break
    return out


def test_the_same_windows_with_a_passed_gates_record_missing_are_unexplained(tmp_path):
    """The converse of the legal episodes: a squash whose later tree lacks
    the record of a state it passes forward is no legal history (SL1004, or
    SL1002 where a single move with the right `From` would do), naming the
    commit; where the window's other moves left no trace, the commit is that
    one forward move and the plain lint reports the missing record."""
    cases = _forgeries()
    assert len(cases) >= 5
    shas = C.fast_import(tmp_path, {f"f{n}": [before, after] for n, (_, before, after) in enumerate(cases)})
    missed = []
    for n, (label, _, after) in enumerate(cases):
        C.point_head(tmp_path, f"f{n}")
        result = run_history(str(tmp_path), all_history=True, worktree=False)
        errors = {(f["code"], f["commit"]) for f in result.findings if f["severity"] == "error"}
        if errors & {("SL1004", shas[f"f{n}"][-1]), ("SL1002", shas[f"f{n}"][-1])}:
            continue
        # the window's other moves left no trace (a failure and its resume): one move, whose
        # gate the plain lint of the later tree judges
        (checked,) = result.checked
        steps = checked.move.explanation.steps if checked.move.explanation is not None else None
        plain = tmp_path / f"plain-{n}"
        plain.mkdir()
        write_tree(plain, after)
        if steps is not None and len(steps) == 1 and _errors(lint(str(plain), use_git=False)):
            continue
        missed.append((label, sorted(errors), steps))
    assert missed == []
