"""Episodes: legal sequences of workflow moves, composed from the single moves
of :mod:`tests.moves.edit` the way one agent (or a few in turn) makes them
during a task.

:func:`legal_moves` lists the moves the protocol allows on a tree, each made
right (its gate passed in its record first); :func:`episodes` walks them from
each kind of clean tree (a state, mode, policy, project mode and stack depth
of the parity suite's clean cases) and keeps a pruned, deterministic set of
sequences of up to five moves: every walk prefers the moves least taken so
far from the same state, so the set covers each move from each state before
it repeats one.  The moves, in the protocol's words:

- ``forward``: "Forward handoff requires the current completion gate to
  pass" (Handoff Rules, 1): the state's record completed, then ``FORWARD``
  along the route; also a rerun state's forward handoff during recovery
  ("Rerun states use the applicable gates and legal recovery handoffs while
  preserving the stack", Recovery Mechanics, 6);
- ``fail:<TYPE>-><STATE>``: a failure routed to its owning state, a frame
  pushed on top of any there (Failure Handoffs; Recovery Mechanics, 1-2);
  the same state: no frame;
- ``resume``: "No rerun: pop the frame and transition directly to ResumeAt"
  (4); at the rerun boundary, after its gate (7);
- ``rerun:<STATE>``: the frame's owner sets ``RerunThrough`` and goes forward
  to the earliest rerun state (5);
- ``block`` / ``unblock``: a user question in ``BlockedOn``, then answered;
- ``cancel``, ``sign-off``, ``new-cycle`` (user-decisions.md).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Callable, Iterator, Optional

from tests.moves import edit as E

STANDARD = ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION",
            "DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"]
OWNING = {"SCOPING": "SCOPING", "ARCHITECTURE": "ARCHITECTING", "PROJECT_CONTEXT": "AUDITING",
          "IMPLEMENTATION": "DEVELOPING", "VERIFICATION": "TESTING", "DOCUMENTATION": "DOCUMENTING",
          "SYNCHRONIZATION": "SYNCHRONIZING"}
TERMINAL = ("SIGNED_OFF", "CANCELLED")
MAX_MOVES = 5


def _st(tree: dict) -> str:
    return tree[E.STATE]


def state(tree: dict) -> str:
    return E.field(_st(tree), "WorkflowState")


def mode(tree: dict) -> str:
    return E.field(_st(tree), "CycleMode")


def stack(tree: dict) -> list:
    return E.frames(_st(tree))


def _route(tree: dict) -> list:
    """The cycle's route; the standard one for a state it omits (entered in
    recovery under the shorter policy)."""
    r = E.route(tree)
    return r if state(tree) in r else STANDARD


def _record_ready(tree: dict, here: str) -> bool:
    """The role of *here* can pass its gate: the record it finishes is in
    the tree (the Tester's full gate also needs the plan COMPLETE: "Reviewer
    entry requires ... COMPLETE plan", Full Verification Boundary); the
    Auditor's, a project context (Project context lifecycle); the
    Architect's, design coverage of every current acceptance condition
    (Acceptance Traceability, 5: "Architect accounts for every current ID
    with technical design coverage"), and so every later record (7: "Tester
    accounts for every current ID"; 9: "any completed downstream artifact
    whose completion contract requires accounting for every current ID")."""
    if here == "AUDITING":
        return bool(tree.get(".standards/CONTEXT.md", "").strip())
    path = E.source_record(tree, here)
    if here != "SCOPING" and path in tree:
        scope = tree.get(E.field(_st(tree), "Scope") or "", "")
        current = scope.split("## Retired Acceptance Identifiers", 1)[0]
        if any(ac not in tree[path] for ac in set(re.findall(r"`(AC-\d+)`", current))):
            return False
    if here == "TESTING" and path in tree and "`CORRECTION`" in tree[path]:
        return False  # a correction assessment is no full gate (Implementation and Verification Recovery Gates)
    if here in ("SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION", "DOCUMENTING",
                "REVIEWING_FINAL", "SYNCHRONIZING") and (not path or path not in tree):
        return False
    if here == "TESTING":
        plan = tree.get(E.field(_st(tree), "Development") or "", "")
        if E.field(plan, "Status") != "COMPLETE":
            return False
    return True


def _passed_complete(tree: dict, passed: list) -> bool:
    """The records of the states a normal forward handoff has passed are
    COMPLETE (Standard Cycle Completion: a later gate rests on them; a
    corrective return may have left one in progress)."""
    for s in passed:
        if s in ("TESTING", "REVIEWING_IMPLEMENTATION", "DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING"):
            text = tree.get(E.source_record(tree, s) or "", "")
            if text and E.field(text, "Status") != "COMPLETE":
                return False
    return True


def forward(tree: dict) -> Optional[dict]:
    here = state(tree)
    frames = stack(tree)
    if here in TERMINAL or here == "AWAITING_USER_SIGNOFF":
        return None
    if frames:
        top = frames[-1]
        r = _route(tree)
        rt = top["RerunThrough"]
        # a rerun state between the owner and the boundary hands forward
        if rt in ("NONE", None) or here == rt or here not in r or rt not in r or r.index(here) >= r.index(rt):
            return None
    r = _route(tree)
    if not E.route(tree) or here not in r or r.index(here) + 1 >= len(r) or not _record_ready(tree, here):
        return None
    if not frames and not _passed_complete(tree, r[:r.index(here)]):
        return None
    if r[r.index(here) + 1] == "AWAITING_USER_SIGNOFF":
        return None  # the closure gates (Standard Cycle Completion) are the lint's, not composed here
    return _forward(E.complete_record(tree, here), r[r.index(here) + 1])


def _forward(tree: dict, nxt: str) -> dict:
    """:func:`edit.forward` to *nxt* (a state the cycle's own route may omit)."""
    st = tree[E.STATE]
    here = E.field(st, "WorkflowState")
    st = E.set_field(st, "WorkflowState", nxt)
    st = E.replace_section(st, "Handoff", E.render_handoff("FORWARD", here, "NONE", "Gate passed."))
    return E.with_state(tree, st)


def failure_routes(tree: dict) -> list:
    """``(FailureType, target)`` the protocol allows from here, to work
    already produced (a target before the current state, or the current
    state itself: a same-state failure)."""
    here, m = state(tree), mode(tree)
    if here in TERMINAL or here == "AWAITING_USER_SIGNOFF" or not E.route(tree):
        return []
    pos = STANDARD.index(here) if here in STANDARD else -1
    out = []
    if m == "EXPEDITED":
        cands = [("IMPLEMENTATION", "DEVELOPING"), ("REVIEW", "REVIEWING_IMPLEMENTATION")]
    else:
        cands = list(OWNING.items()) + [("REVIEW", "REVIEWING_IMPLEMENTATION"), ("REVIEW", "REVIEWING_FINAL")]
    included = E.route(tree) if m in ("EXPEDITED", "DOCUMENTATION") else STANDARD
    for ft, target in cands:
        if target not in included or (m == "DOCUMENTATION" and target == "REVIEWING_IMPLEMENTATION"):
            continue
        if m == "DOCUMENTATION" and ft == "REVIEW" and target != "REVIEWING_FINAL":
            continue
        if STANDARD.index(target) > pos:
            continue
        out.append((ft, target))
    return out


def fail(ft: str, target: str, n: int = 0) -> Callable[[dict], Optional[dict]]:
    """The failure, its reason its own (each defect is another: a frame is
    known by its From, Owner, FailureType, Reason and ResumeAt)."""
    def move(tree: dict) -> Optional[dict]:
        if (ft, target) not in failure_routes(tree):
            return None
        out = E.route_failure(tree, ft, target, push=target != state(tree))
        reason = f"Defect {n} found in {state(tree)}."
        st = out[E.STATE]
        head, sep, rest = st.partition("## Handoff")
        rest = rest.replace("`A defect found.`", f"`{reason}`", 1)
        if target != state(tree):  # the pushed frame is the last one written
            i = rest.rfind("`Reason`: `A defect found.`")
            rest = rest[:i] + f"`Reason`: `{reason}`" + rest[i + len("`Reason`: `A defect found.`"):]
            saved = E.record_path(tree, state(tree))
            if saved in out and out[saved] != tree.get(saved):  # its Suspended Assignment names the reason
                text = out[saved]
                j = text.rfind("`Recovery Reason`: `A defect found.`")
                if j >= 0:
                    out = dict(out)
                    out[saved] = text[:j] + f"`Recovery Reason`: `{reason}`" + \
                        text[j + len("`Recovery Reason`: `A defect found.`"):]
        return E.with_state(out, head + sep + rest)
    return move


def resume(tree: dict) -> Optional[dict]:
    frames = stack(tree)
    if not frames:
        return None
    top, here = frames[-1], state(tree)
    if top["ResumeAt"] == "AWAITING_USER_SIGNOFF":
        return None  # "A return to AWAITING_USER_SIGNOFF must re-establish the selected completion contract"
    if here == "DEVELOPING" and E.field(_st(tree), "Development") in ("NONE", None):
        return None  # "Developer must persist their artifact path before their normal completion gate passes"
    if here in ("AUDITING", "ARCHITECTING") and not _record_ready(tree, here):
        return None
    report = tree.get(E.source_record(tree, "TESTING") or "", "")
    if top["ResumeAt"] == "TESTING" and "`CORRECTION`" in report:
        return None  # the suspended assessment is restored first: not composed here
    if here == top["Owner"] and top["RerunThrough"] == "NONE":
        return E.resume(tree)
    if here == top["RerunThrough"] and _record_ready(tree, here) and here != "TESTING":
        return E.resume(E.complete_record(tree, here))
    return None


def rerun_choices(tree: dict) -> list:
    """The states the active frame's owner may rerun through: after the next
    state up to the one before ``ResumeAt``."""
    frames = stack(tree)
    if not frames:
        return []
    top, here = frames[-1], state(tree)
    r = _route(tree)
    if here != top["Owner"] or top["RerunThrough"] != "NONE" or here not in r or top["ResumeAt"] not in r:
        return []
    i, j = r.index(here), r.index(top["ResumeAt"])
    return [s for s in r[i + 1:j] if s not in ("TESTING",)]


def rerun(through: str) -> Callable[[dict], Optional[dict]]:
    def move(tree: dict) -> Optional[dict]:
        if through not in rerun_choices(tree) or not _record_ready(tree, state(tree)):
            return None
        st = _st(tree)
        frames = stack(tree)
        frames[-1]["RerunThrough"] = through
        st = E.replace_section(st, "Recovery", E.render_recovery(True, frames))
        r = _route(tree)
        return _forward(E.complete_record(E.with_state(tree, st), state(tree)), r[r.index(state(tree)) + 1])
    return move


def block(tree: dict) -> Optional[dict]:
    if state(tree) in TERMINAL or state(tree) == "AWAITING_USER_SIGNOFF":
        return None
    return E.block(tree) if E.field(_st(tree), "BlockedOn") == "NONE" else None


def unblock(tree: dict) -> Optional[dict]:
    return E.with_state(tree, E.set_field(_st(tree), "BlockedOn", "NONE")) \
        if E.field(_st(tree), "BlockedOn") not in ("NONE", None) else None


def cancel(tree: dict) -> Optional[dict]:
    return E.cancel(tree) if state(tree) not in TERMINAL and E.field(_st(tree), "Id") not in ("UNSET", None) else None


def sign_off(tree: dict) -> Optional[dict]:
    if state(tree) != "AWAITING_USER_SIGNOFF" or "### Obligation" in _st(tree):
        return None
    return E.sign_off(tree)


def new_cycle_id(n: int) -> str:
    return f"next-work-2026120{n % 10}T10101{n % 10}Z-{n:08x}"


def new_cycle(n: int) -> Callable[[dict], Optional[dict]]:
    def move(tree: dict) -> Optional[dict]:
        return E.new_cycle(tree, new_cycle_id(n)) if state(tree) in TERMINAL else None
    return move


def legal_moves(tree: dict, n: int = 1) -> list:
    """``[(label, tree after)]``: every move the protocol allows here, made
    right; *n* numbers the next cycle's ID."""
    out = []
    cands = [("forward", forward), ("resume", resume), ("block", block), ("unblock", unblock),
             ("cancel", cancel), ("sign-off", sign_off), ("new-cycle", new_cycle(n))]
    cands += [(f"fail:{ft}->{t}", fail(ft, t, n)) for ft, t in failure_routes(tree)]
    cands += [(f"rerun:{x}", rerun(x)) for x in rerun_choices(tree)]
    for label, fn in cands:
        after = fn(tree)
        if after is not None and after != tree:
            out.append((label, after))
    return out


# -- the episodes -------------------------------------------------------------------


def kind_of(files: dict) -> tuple:
    st = files[E.STATE]
    return (E.field(st, "WorkflowState"), E.field(st, "CycleMode"), E.field(st, "CompletionPolicy"),
            st.count("### Frame "), E.project_mode(files))


def bases(clean_trees) -> list:
    """One clean tree of each kind, in a stable order."""
    seen = {}
    for files in clean_trees:
        seen.setdefault(kind_of(files), dict(files))
    return [seen[k] for k in sorted(seen)]


class Episode:
    """A legal sequence: the trees (the start and one after each move) and
    the moves' labels."""

    __slots__ = ("trees", "labels", "kind")

    def __init__(self, trees: list, labels: list, kind: tuple):
        self.trees, self.labels, self.kind = trees, labels, kind

    def __repr__(self) -> str:
        return f"{'/'.join(map(str, self.kind))}: {' > '.join(self.labels)}"

    def partitions(self) -> Iterator[tuple]:
        """``(name, [indices of the trees committed])``: move by move,
        squashed whole, and split in two at every point."""
        n = len(self.trees) - 1
        yield "each", list(range(n + 1))
        if n > 1:
            yield "whole", [0, n]
            for k in range(1, n):
                yield f"split-{k}", [0, k, n]


def episodes(clean_trees, walks: int = 3, length: int = MAX_MOVES, seed: int = 34) -> list:
    """From each kind of clean tree, *walks* legal sequences of up to
    *length* moves (a walk stops early where no move is left), each move
    the least taken from its state so far (ties broken by a seeded random
    choice), distinct sequences only."""
    rng = random.Random(seed)
    used: Counter = Counter()
    out, keys = [], set()
    for b in bases(clean_trees):
        for _ in range(walks):
            trees, labels = [b], []
            for step in range(length):
                moves = legal_moves(trees[-1], step + 1)
                if not moves:
                    break
                here = state(trees[-1])
                least = min(used[(here, lbl)] for lbl, _ in moves)
                label, after = rng.choice([m for m in moves if used[(here, m[0])] == least])
                used[(here, label)] += 1
                trees.append(after)
                labels.append(label)
            key = (kind_of(b), tuple(labels))
            if labels and key not in keys:
                keys.add(key)
                out.append(Episode(trees, labels, kind_of(b)))
    return out


# -- on a real repository -------------------------------------------------------------


def fast_import(root, branches: dict) -> dict:
    """Make the git repository *root* (no work tree checked out, only the
    ``.standards/`` folder the project is found by) holding one branch per
    entry of *branches* (name -> list of trees, committed in order, one hour
    apart); returns name -> the commits' hashes."""
    import os
    import subprocess

    os.makedirs(os.path.join(root, ".standards"), exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=env, capture_output=True)
    chunks, marks, mark = [], {}, 0
    for name, trees in branches.items():
        marks[name] = []
        for i, tree in enumerate(trees):
            mark += 1
            marks[name].append(mark)
            msg = f"{name} {i}".encode()
            chunks.append(f"commit refs/heads/{name}\nmark :{mark}\n"
                          f"committer Agent <a@example.invalid> {1790000000 + i * 3600} +0000\n".encode())
            chunks.append(b"data %d\n%s\n" % (len(msg), msg))
            if i == 0:
                chunks.append(b"deleteall\n")
            else:
                chunks.append(f"from :{mark - 1}\n".encode())
            prev = trees[i - 1] if i else {}
            for rel in sorted(prev):
                if rel not in tree:
                    chunks.append(f"D {_quoted(rel)}\n".encode())
            for rel in sorted(tree):
                if i and prev.get(rel) == tree[rel]:
                    continue
                data = tree[rel].encode("utf-8")
                chunks.append(f"M 100644 inline {_quoted(rel)}\n".encode() + b"data %d\n" % len(data) + data + b"\n")
    marks_file = os.path.join(str(root), ".git", "marks")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet", f"--export-marks={marks_file}"],
                   input=b"".join(chunks), check=True, capture_output=True, env=env)
    sha = {}
    with open(marks_file, encoding="ascii") as fh:
        lines = fh.read().splitlines()
    for line in lines:
        m, s = line.split()
        sha[int(m[1:])] = s
    return {name: [sha[m] for m in ms] for name, ms in marks.items()}


def _quoted(rel: str) -> str:
    """A path as fast-import reads it: C-style quoted."""
    return '"' + rel.replace("\\", "\\\\").replace('"', '\\"') + '"'


def point_head(root, ref: str, sha: Optional[str] = None) -> None:
    """HEAD (and the index) at branch *ref*, created at *sha* if given."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    if sha is not None:
        subprocess.run(["git", "-C", str(root), "update-ref", f"refs/heads/{ref}", sha], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "symbolic-ref", "HEAD", f"refs/heads/{ref}"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "read-tree", ref], check=True, env=env)
