"""The episodes of the fifth acceptance set's handed-over half
(``fixtures/parity/unseen-5.jsonl.gz``): an agent making two to seven
workflow moves in a row, each case keeping ``episode``: ``seed`` (the files
before the first move), ``seed_committed``, then per move its ``move`` label,
the files it ``changed`` (a path mapped to None: deleted) and whether a
``commit`` followed.

An episode is *legal* when every move was made right and the last tree is
clean to the framework's checker:

- no move's label names a slip: the generator writes a slip as a remark in
  parentheses after the move (``resume A->B (frame left)``, ``fail A->B
  (no frame)``, ``forward_done A->B (two steps)``, ...), and ``fail A->B
  rerun Z`` pushed its frame with ``RerunThrough: Z`` already set, which
  Recovery Mechanics rule 1 forbids (a FAILURE pushes ``RerunThrough:
  NONE``; the owner sets it later, with the move to the first rerun state);
- the checker reports no problem on the last tree, plainly and, where the
  case has it, at turn end.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

UNSEEN_5 = Path(__file__).resolve().parents[2] / "fixtures" / "parity" / "unseen-5.jsonl.gz"

# ``fail A->B rerun Z``: the frame pushed with RerunThrough already set.
RERUN_AT_PUSH = re.compile(r"^fail \S+->\S+ rerun [A-Z_]+\b")
# A slip the generator names in a remark: ``<move> (<what went wrong>)``.
SLIP_REMARK = re.compile(r"\(.+\)\s*$")


@lru_cache(maxsize=None)
def cases() -> tuple:
    with gzip.open(UNSEEN_5, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def trees(case: dict) -> list:
    """The seed and the tree after each move."""
    ep = case["episode"]
    tree = dict(ep["seed"])
    out = [dict(tree)]
    for step in ep["steps"]:
        for rel, text in step["changed"].items():
            if text is None:
                tree.pop(rel, None)
            else:
                tree[rel] = text
        out.append(dict(tree))
    return out


def committed(case: dict) -> list:
    """The trees as they were committed: the seed when it was, each tree a
    commit followed, and the last tree (the working tree at the end) when
    no commit followed its move."""
    ep, ts = case["episode"], trees(case)
    idx = ([0] if ep["seed_committed"] else []) + [i + 1 for i, s in enumerate(ep["steps"]) if s["commit"]]
    if idx[-1:] != [len(ts) - 1]:
        idx.append(len(ts) - 1)
    return [ts[i] for i in idx]


def clean(case: dict) -> bool:
    turn_end = case.get("expected_turn_end") or {}
    return not case["expected"]["problems"] and not turn_end.get("problems")


def slips(case: dict) -> list:
    """The labels of the moves made with a slip."""
    return [s["move"] for s in case["episode"]["steps"]
            if RERUN_AT_PUSH.match(s["move"]) or SLIP_REMARK.search(s["move"])]


def legal(case: dict) -> bool:
    return clean(case) and not slips(case)


def rerun_at_push(case: dict) -> list:
    """The indices (0-based) of the moves that pushed a frame with
    RerunThrough already set."""
    return [i for i, s in enumerate(case["episode"]["steps"]) if RERUN_AT_PUSH.match(s["move"])]
