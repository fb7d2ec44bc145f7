"""Time `standards-lint history` on a made repository of N commits (default
1,000), each one move of STATE.md (forward along the route, failure, resume,
sign-off, new cycle, over and over), through the installed console script.

    python bench/history.py [--commits 1000] [--runs 3]

Prints the wall time of each run, the best, and the cost per commit.  The
repository is built with `git fast-import` (one process), so building it is
quick; what is timed is `standards-lint history --all --format json`, one
fresh process per run.  Standard library only (and git).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.history.walk import INSTALLED, MODE, RUNTIME, state_text  # noqa: E402

ROUTE = ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING", "REVIEWING_IMPLEMENTATION", "DOCUMENTING",
         "REVIEWING_FINAL", "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"]


def states(n: int):
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


def build(root: Path, n: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    lines = []
    t0 = 1790000000
    gen = states(n)
    for i in range(n):
        files = {".standards/STATE.md": state_text(next(gen))}
        if i == 0:
            files.update(RUNTIME)
            files[".standards/MODE.md"] = MODE
        lines.append(f"commit refs/heads/main\ncommitter Bench <b@example.invalid> {t0 + i * 600} +0000\n"
                     f"data {len(f'move {i}')}\nmove {i}\n")
        for rel, text in files.items():
            data = text.encode()
            lines.append(f"M 100644 inline {rel}\ndata {len(data)}\n")
            lines.append(data.decode() + "\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input="".join(lines).encode(), check=True)
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "main"], check=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    exe = Path(sys.executable).with_name("standards-lint")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        build(root, args.commits)
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            r = subprocess.run([str(exe), "history", str(root), "--all", "--format", "json"], capture_output=True,
                               env={k: v for k, v in os.environ.items() if not k.startswith("GIT_")})
            times.append(time.perf_counter() - t)
            if r.returncode not in (0, 1):
                print(r.stderr.decode(), file=sys.stderr)
                return 1
        import json

        findings = len(json.loads(r.stdout)["findings"])
        best = min(times)
        print(f"{args.commits} commits: runs {', '.join(f'{x:.2f}s' for x in times)}; best {best:.2f}s, "
              f"{best / args.commits * 1000:.2f} ms per commit; {findings} findings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
