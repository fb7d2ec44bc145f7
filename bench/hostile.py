"""Benchmark of hostile text in the workflow files (issue 43): a long word
and a long run of backticks, against the same tree without them.

The plain tree is the real project (case ``mcp-latest`` of
``fixtures/parity/realworld.jsonl.gz``, as ``bench/run.py`` builds it).
Each variant appends to it, in the active cycle's last record (in path
order: its synchronization record, which the rules parse whole) or in
STATE.md:

- ``word``: one run of N path characters (``[A-Za-z0-9_./-]``, a pasted
  hash or base64 blob), the shape that was quadratic in the patterns
  finding `path.md#F-001` / `path.md#D-001` references;
- ``backticks``: ``x`` and a run of N backticks (a run that opens no code
  span), linear but one token per backtick before issue 43;
- ``heading-spaces``: a heading line with a run of N spaces inside its
  title, quadratic in the heading patterns before issue 43.

Each run is a fresh ``standards-lint --no-cache --format json`` process (the
installed console script); the median wall time of ``--runs`` runs, and the
ratio to the plain tree's.  ``--timeout`` kills a run that takes longer (a
quadratic pattern at 1 MB takes hours): it is reported as such.

    python bench/hostile.py                          # N = 1,000,000, 3 runs, Markdown on stdout
    python bench/hostile.py --sizes 50000,100000 --timeout 120   # e.g. the code before issue 43
    python bench/hostile.py --json                   # JSON instead
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402  (bench/run.py: the real project, fresh-process timing)

STATE = ".standards/STATE.md"


def variants(src, n: int) -> dict:
    """name -> files of the tree (the real project plus the variant's text)."""
    real = dict(src.real)
    record = sorted(rel for rel in real if rel.startswith(".standards/docs/"))[-1]
    word = ("Qm9" + "abcXYZ0189_./-" * (n // 14 + 1))[:n]
    ticks = "x" + "`" * n
    heading = "## a" + " " * n + "b"
    out = {"plain": real}
    for name, text in (("word", word), ("backticks", ticks), ("heading-spaces", heading)):
        for where in (record, STATE):
            if name == "heading-spaces" and where == STATE:
                continue  # a new section in STATE.md: findings of its own, no other shape
            label = f"{name} in {'the record' if where == record else 'STATE.md'}"
            out[label] = dict(real, **{where: real[where].rstrip("\n") + "\n\n" + text + "\n"})
    return out


def time_tree(files: dict, runs: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        root = Path(tmp) / "project"
        bench.write_files(root, files)
        cmd = bench.cli() + [str(root), "--no-cache", "--format", "json"]
        walls, codes = [], None
        for _ in range(runs):
            r = bench.run_once(cmd, timeout)
            if r["rc"] not in (0, 1):
                return {"timed_out" if r["wall"] >= timeout else "failed": round(r["wall"], 1),
                        "stderr": r["stderr"][-300:]}
            walls.append(r["wall"])
            codes = sorted({f["code"] for f in json.loads(r["stdout"])["findings"]})
        return {"runs": runs, "wall_median_s": round(statistics.median(walls), 4),
                "wall_min_s": round(min(walls), 4), "codes": codes}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000000", help="comma-separated N (default 1000000)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds before a run is killed (default 300)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    src = bench.Sources()
    results = {}
    plain = None
    for n in [int(s) for s in args.sizes.split(",")]:
        for name, files in variants(src, n).items():
            if name == "plain":
                if plain is None:
                    bench.log("plain tree")
                    plain = time_tree(files, args.runs, args.timeout)
                    results["plain"] = plain
                continue
            bench.log(f"{name}, N = {n:,}")
            results[f"{name}, N = {n:,}"] = time_tree(files, args.runs, args.timeout)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    base = results["plain"]["wall_median_s"]
    print("| tree | wall, median | wall, min | vs plain |")
    print("| --- | --- | --- | --- |")
    for name, r in results.items():
        if "wall_median_s" in r:
            print(f"| {name} | {r['wall_median_s'] * 1000:.0f} ms | {r['wall_min_s'] * 1000:.0f} ms | "
                  f"{r['wall_median_s'] / base:.1f}x |")
        else:
            what = "killed after" if "timed_out" in r else "failed after"
            print(f"| {name} | {what} {next(iter(r.values()))} s | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
