"""Time `standards-lint history` on a made repository of N commits (default
1,000) over the real project's files, against the floor git itself sets and
against one plain lint per commit.

    python bench/history.py [--commits 1000] [--runs 3] [--lints 20] [--kind real|walk]

- `real` (default): the second real project's newest tree
  (`../shared/corpus/kgforedglobal/latest/`: STATE.md, CONTEXT.md and both
  cycles' records, 15 files) in the first commit; then each commit blocks
  the active cycle on a user question (`Active Work.BlockedOn`) or answers
  it, over and over, changing STATE.md alone, as a long wait on the user
  does.
- `walk`: a made STATE.md only, one move a commit (forward along the route,
  failure, resume, sign-off, new cycle, over and over).

The repository is built with `git fast-import` (one process).  Timed, each
in fresh processes, best of `--runs`:

- `history`: `standards-lint history --all --format json` (the console
  script);
- the git floor: `git log --first-parent --reverse --raw` over
  `.standards/` and one `git cat-file --batch` of every changed blob, what
  the history must read at least;
- a plain lint per commit: `standards-lint --no-cache --format json` of the
  newest tree, `--lints` times, scaled to N commits (what checking every
  commit with the plain lint would cost).

Prints the figures and the ratios history / floor and history / lints.
Standard library only (and git).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.history.walk import INSTALLED, MODE, RUNTIME, state_text  # noqa: E402

ROUTE = ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION", "DOCUMENTING",
         "REVIEWING_FINAL", "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"]
REAL = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "kgforedglobal" / "latest"
if not REAL.is_dir():
    REAL = Path("/work/shared/corpus/kgforedglobal/latest")
FILLED = {
    ".standards/MODE.md": "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n",
    ".standards/VERSION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S.",\n  "version": "0.12.1"\n}\n',
    ".standards/INSTALLATION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S."\n}\n',
    ".standards/PROTOCOL.md": "<!-- standards:framework-owned -->\n\n# S.T.A.N.D.A.R.D.S. Protocol\n",
}


def walk_states(n: int):
    """N versions of STATE.md, each one legal move from the last."""
    s = dict(INSTALLED, frames=[], obligations=[])
    cycle = 0
    yield dict(s)
    while True:
        cycle += 1
        s.update(id=f"work-{cycle:04d}-20261001T{cycle % 24:02d}0000Z-{cycle:08x}", mode="STANDARD",
                 policy="FULL_DELIVERABLE", request=f"Work {cycle}.", kind="NEW_CYCLE" if cycle > 1 else "INITIAL",
                 state="AUDITING", ft="NONE", reason="A new cycle.")
        s["from"] = "SIGNED_OFF" if cycle > 1 else "NONE"
        yield dict(s)
        for i in range(1, len(ROUTE)):
            s.update(kind="FORWARD", state=ROUTE[i], reason="Gate passed.")
            s["from"] = ROUTE[i - 1]
            yield dict(s)
            if ROUTE[i] == "TESTING":
                s["frames"] = [{"From": "TESTING", "Owner": "DEVELOPING", "FailureType": "IMPLEMENTATION",
                                "Reason": "A defect.", "ResumeAt": "TESTING", "RerunThrough": "NONE"}]
                s.update(kind="FAILURE", state="DEVELOPING", ft="IMPLEMENTATION", reason="A defect.")
                s["from"] = "TESTING"
                yield dict(s)
                s["frames"] = []
                s.update(kind="RESUME", state="TESTING", ft="NONE", reason="Fixed.")
                s["from"] = "DEVELOPING"
                yield dict(s)
        s.update(kind="SIGNOFF", state="SIGNED_OFF", mode="UNSET", reason="Accepted.")
        s["from"] = "AWAITING_USER_SIGNOFF"
        yield dict(s)


def walk_commits(n: int):
    gen = walk_states(n)
    for i in range(n):
        files = {".standards/STATE.md": state_text(next(gen))}
        if i == 0:
            files.update(RUNTIME)
            files[".standards/MODE.md"] = MODE
        yield files


def real_commits(n: int):
    """The real tree, then STATE.md blocked and unblocked in turn."""
    tree = {p.relative_to(REAL).as_posix(): p.read_text(encoding="utf-8") for p in sorted(REAL.rglob("*"))
            if p.is_file()}
    tree.update(FILLED)
    state = tree[".standards/STATE.md"]
    m = re.search(r"`BlockedOn`:\s*`([^`]*)`", state)
    if m is None:
        raise SystemExit("the real STATE.md has no BlockedOn")
    blocked_on = m.group(1) if m.group(1) != "NONE" else "Run the KG construction on the full corpus?"
    yield tree
    for i in range(1, n):
        question = "NONE" if i % 2 else f"{blocked_on} (ask {i // 2})"
        yield {".standards/STATE.md": state[:m.start(1)] + question + state[m.end(1):]}


def build(root: Path, n: int, kind: str = "real") -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    lines = []
    t0 = 1790000000
    commits = real_commits(n) if kind == "real" else walk_commits(n)
    for i, files in enumerate(commits):
        msg = f"move {i}".encode()
        lines.append(f"commit refs/heads/main\ncommitter Bench <b@example.invalid> {t0 + i * 600} +0000\n".encode())
        lines.append(b"data %d\n%s\n" % (len(msg), msg))
        for rel, text in files.items():
            data = text.encode()
            lines.append(f'M 100644 inline "{rel}"\n'.encode() + b"data %d\n" % len(data) + data + b"\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=b"".join(lines), check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True)


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def git_floor(root: Path) -> float:
    """`git log --raw` of `.standards/` and one `cat-file --batch` of every
    changed blob: what reading the history costs git alone."""
    t = time.perf_counter()
    log = subprocess.run(["git", "-C", str(root), "log", "--first-parent", "--reverse", "--raw", "--no-abbrev",
                          "--no-renames", "-z", "--format=%x1e%H%x1f%P%x1f%an%x1f%aI%x1f%s", "--", ".standards"],
                         capture_output=True, check=True, env=_env()).stdout
    blobs = sorted({tok.split()[3].decode() for tok in log.split(b"\0") if tok.startswith(b":")
                    and len(tok.split()) >= 5 and tok.split()[3] != b"0" * 40})
    subprocess.run(["git", "-C", str(root), "cat-file", "--batch"], input=("\n".join(blobs) + "\n").encode(),
                   capture_output=True, check=True, env=_env())
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lints", type=int, default=20, help="plain lints timed (scaled to --commits)")
    ap.add_argument("--kind", choices=("real", "walk"), default="real")
    args = ap.parse_args()
    exe = Path(sys.executable).with_name("standards-lint")
    import json

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        build(root, args.commits, args.kind)
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            r = subprocess.run([str(exe), "history", str(root), "--all", "--format", "json"], capture_output=True,
                               env=_env())
            times.append(time.perf_counter() - t)
            if r.returncode not in (0, 1):
                print(r.stderr.decode(), file=sys.stderr)
                return 1
        data = json.loads(r.stdout)
        findings = len(data["findings"])
        errors = sum(1 for f in data["findings"] if f["severity"] == "error")
        floor = min(git_floor(root) for _ in range(args.runs))
        lint_times = []
        for _ in range(max(1, args.lints)):
            t = time.perf_counter()
            subprocess.run([str(exe), str(root), "--no-cache", "--format", "json"], capture_output=True, env=_env())
            lint_times.append(time.perf_counter() - t)
        per_lint = sorted(lint_times)[len(lint_times) // 2]
        best = min(times)
        print(f"{args.commits} commits ({args.kind}): history runs {', '.join(f'{x:.2f}s' for x in times)}; "
              f"best {best:.2f}s, {best / args.commits * 1000:.2f} ms per commit; {findings} findings, "
              f"{errors} errors")
        print(f"git floor (log --raw + cat-file of the changed blobs): {floor:.3f}s; history / floor = "
              f"{best / floor:.1f}x")
        print(f"one plain lint per commit: {per_lint * 1000:.0f} ms each (median of {len(lint_times)}), "
              f"{per_lint * args.commits:.1f}s for {args.commits}; history / lints = "
              f"{best / (per_lint * args.commits):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
