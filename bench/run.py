"""Benchmark: cold ``standards-lint --format json`` wall time and peak memory.

Projects:
- ``mcp-latest``: the real project (``fixtures/parity/realworld.jsonl.gz``).
- ``cycles-1000``: a generated project with 1,000 finished cycles plus the
  real project's active cycle, built from the real project's records.

Usage: ``python bench/run.py [--runs N] [--cycles N] [--out FILE]``.
Targets (docs/performance.md): mcp-latest under 150 ms wall on a 2-core machine.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REALWORLD = ROOT / "fixtures" / "parity" / "realworld.jsonl.gz"


def load_case(case_id: str) -> dict:
    with gzip.open(REALWORLD, "rt", encoding="utf-8") as fh:
        for line in fh:
            c = json.loads(line)
            if c["id"] == case_id:
                return c
    raise SystemExit(f"case {case_id} not found")


def write(root: Path, files: dict) -> None:
    for rel, text in files.items():
        p = root.joinpath(*rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def generate_cycles(root: Path, case: dict, n: int) -> int:
    """Copy the real project's finished-cycle records n times under new IDs."""
    write(root, case["files"])
    state = case["files"][".standards/STATE.md"]
    active = None
    for line in state.splitlines():
        if "`Id`:" in line:
            active = line.split("`Id`:")[1].split("`")[1] if "`Id`: `" in line else None
    records = {rel: text for rel, text in case["files"].items() if rel.startswith(".standards/docs/")}
    ids = sorted({rel.split("/")[3].removesuffix(".md") for rel in records})
    finished = [i for i in ids if i != active] or ids
    count = 0
    for k in range(n):
        src = finished[k % len(finished)]
        new = f"bench-cycle-{k:04d}-20260101T{(k // 3600) % 24:02d}{(k // 60) % 60:02d}{k % 60:02d}Z-{k:08x}"
        for rel, text in records.items():
            if src in rel:
                write(root, {rel.replace(src, new): text.replace(src, new)})
                count += 1
    return count


def _cli() -> list[str]:
    """The installed console script itself (not a version-manager shim)."""
    script = Path(sys.executable).with_name("standards-lint")
    if script.exists():
        return [str(script)]
    exe = shutil.which("standards-lint")
    return [exe] if exe else [sys.executable, "-m", "standards_lint"]


# Cold runs as a user has them: bytecode may be written (some sandboxes set
# PYTHONDONTWRITEBYTECODE, which makes every run recompile every module).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_cli(root: Path, runs: int) -> dict:
    """Median wall time of cold CLI runs (a fresh process each time)."""
    cmd = _cli()
    subprocess.run([*cmd, str(root), "--format", "json"], capture_output=True, env=ENV)  # bytecode, caches
    walls = []
    peak = 0
    out = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        proc = subprocess.run([*cmd, str(root), "--format", "json"], capture_output=True, text=True, env=ENV)
        walls.append(time.perf_counter() - t)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"standards-lint failed ({proc.returncode}): {proc.stderr[-2000:]}")
        out = json.loads(proc.stdout)
    files = sum(1 for _ in root.rglob("*.md"))
    return {
        "runs": runs,
        "wall_median_s": round(statistics.median(walls), 4),
        "wall_min_s": round(min(walls), 4),
        "markdown_files": files,
        "per_file_ms": round(1000 * statistics.median(walls) / max(files, 1), 4),
        "peak_rss_mb": round(peak / 1024, 1),
        "findings": len(out["findings"]) if out else None,
    }


def in_process(root: Path, runs: int) -> float:
    from standards_lint.engine import lint, load_registry

    load_registry()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        lint(str(root))
        times.append(time.perf_counter() - t)
    return round(statistics.median(times), 4)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--out", help="write the figures as JSON here")
    args = ap.parse_args(argv)
    case = load_case("mcp-latest")
    results = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()}}
    with tempfile.TemporaryDirectory() as tmp:
        real = Path(tmp) / "mcp-latest"
        write(real, case["files"])
        results["mcp-latest"] = time_cli(real, args.runs)
        results["mcp-latest"]["in_process_s"] = in_process(real, args.runs)
        big = Path(tmp) / f"cycles-{args.cycles}"
        n = generate_cycles(big, case, args.cycles)
        results[f"cycles-{args.cycles}"] = time_cli(big, max(3, args.runs // 3))
        results[f"cycles-{args.cycles}"]["generated_records"] = n
    text = json.dumps(results, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
