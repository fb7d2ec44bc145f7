"""Benchmark of ``standards-lint hook stop`` (the Stop hook) on the real project.

The project is the real one (case ``mcp-latest`` of
``fixtures/parity/realworld.jsonl.gz``, as ``bench/run.py`` builds it) as a
git repository with one commit, then one record changed in the working tree
(a line appended to the last record under ``.standards/docs/`` in path
order, the active cycle's synchronization record), so the hook has a
workflow change to check.  Each run is a fresh process, as the clients start
it, with a Claude Code Stop event on stdin (``stop_hook_active: false``, so
no marker is involved and every run checks).

Measured, interleaved run by run so that load from elsewhere hits every mode
alike:

- ``hook stop``: the hook on the changed tree (one ``git status``, then the
  turn-end check);
- ``hook stop, nothing changed``: the same on the committed tree (only the
  ``git status`` call; the stop goes through);
- ``lint --no-cache``: the plain cold lint of the same changed tree (text
  output), the figure the hook is held to;
- ``lint --turn-end --no-cache``: the turn-end lint, when the CLI has the flag;
- the floor: ``python -c pass`` and ``standards-lint --version``.

Target: the hook's median wall no more than the plain cold lint's + 20 ms.

Git calls are counted by running each command once with a ``git`` wrapper
first on PATH that logs its arguments: the hook may make only the plain
lint's calls (the comparisons with HEAD) plus its one ``git status``.

    python bench/hook.py --runs 15            # JSON on stdout, progress on stderr
    python bench/hook.py --runs 15 --markdown # a table for docs/performance.md

The framework's own hook is not measured: its runtime (``.standards/bin``,
Node.js) is not part of the project and must not be used.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402  (bench/run.py: the project generators)

TARGET_MARGIN_S = 0.020


def run_once(cmd: list, stdin: bytes, timeout: float, env: dict, cwd: str) -> dict:
    """One fresh process with *stdin*: wall time, peak RSS, status, output."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        inp.write(stdin)
        inp.seek(0)
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=inp, stdout=out, stderr=err, env=env, cwd=cwd)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "rss_mb": usage.ru_maxrss / 1024, "rc": proc.returncode,
                "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace")}


def build(base: Path, src) -> tuple:
    """(changed, committed): the real project as a git repository, once with
    one record changed in the working tree and once as committed."""
    changed, committed = base / "mcp-latest-changed", base / "mcp-latest-committed"
    for root in (changed, committed):
        bench.gen_real_git(root, src)
    rel = sorted(r for r in src.real if r.startswith(".standards/docs/"))[-1]
    path = changed.joinpath(*rel.split("/"))
    with open(path, "a", encoding="utf-8", newline="") as fh:
        fh.write("\nA note added during the turn.\n")
    return changed, committed, rel


def event(root: Path) -> bytes:
    return json.dumps({
        "session_id": "bench-session", "transcript_path": "/dev/null", "cwd": str(root),
        "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": False,
    }).encode()


def git_calls(cmd: list, stdin: bytes, env: dict, cwd: str, log_dir: Path) -> list:
    """The git subcommands *cmd* runs, through a logging ``git`` wrapper."""
    real = shutil.which("git", path=env.get("PATH"))
    wrap = log_dir / "bin"
    wrap.mkdir(parents=True, exist_ok=True)
    log = log_dir / "git.log"
    log.write_text("")
    script = wrap / "git"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    run_once(cmd, stdin, 120, {**env, "PATH": f"{wrap}{os.pathsep}{env.get('PATH', '')}"}, cwd)
    calls = []
    for line in log.read_text().splitlines():
        words = line.split()
        # `git -C <dir> <subcommand> ...`: name the subcommand.
        while words[:1] == ["-C"] or (words and words[0].startswith("-")):
            words = words[2:] if words[0] == "-C" else words[1:]
        calls.append(" ".join(words[:2]) if words else line)
    return calls


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="timed runs per mode (default 15)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table instead of JSON")
    args = ap.parse_args(argv)
    if not shutil.which("git"):
        raise SystemExit("git is not installed")
    exe = bench.cli()
    env = dict(bench.ENV)
    work = Path(tempfile.mkdtemp(prefix="standards-lint-bench-hook-"))
    try:
        src = bench.Sources()
        changed, committed, rel = build(work, src)
        has_turn_end = "--turn-end" in bench.available_flags()
        modes = {
            "hook stop": ([*exe, "hook", "stop"], event(changed)),
            "hook stop, nothing changed": ([*exe, "hook", "stop"], event(committed)),
            "lint --no-cache": ([*exe, str(changed), "--no-cache"], b""),
            "floor: python -c pass": ([sys.executable, "-c", "pass"], b""),
            "floor: standards-lint --version": ([*exe, "--version"], b""),
        }
        if has_turn_end:
            modes["lint --turn-end --no-cache"] = ([*exe, str(changed), "--turn-end", "--no-cache"], b"")
        cwd = str(work)
        for cmd, stdin in modes.values():  # warm-up: bytecode, grammar tables, page cache
            run_once(cmd, stdin, args.timeout, env, cwd)
        walls = {name: [] for name in modes}
        peaks = {name: [] for name in modes}
        last = {}
        for i in range(args.runs):
            for name, (cmd, stdin) in modes.items():
                r = run_once(cmd, stdin, args.timeout, env, cwd)
                walls[name].append(r["wall"])
                peaks[name].append(r["rss_mb"])
                last[name] = r
            bench.log(f"run {i + 1}/{args.runs}")
        results = {}
        for name in modes:
            results[name] = {**bench.summarise(walls[name], peaks[name]), "exit_status": last[name]["rc"]}
        hook_err = last["hook stop"]["stderr"]
        results["hook stop"]["problems_listed"] = sum(1 for line in hook_err.splitlines() if line.startswith("- "))
        calls = {
            "hook stop": git_calls(*modes["hook stop"], env, cwd, work / "git-hook"),
            "hook stop, nothing changed": git_calls(*modes["hook stop, nothing changed"], env, cwd, work / "git-nochange"),
            "lint --no-cache": git_calls(*modes["lint --no-cache"], env, cwd, work / "git-lint"),
        }
        if has_turn_end:
            calls["lint --turn-end --no-cache"] = git_calls(*modes["lint --turn-end --no-cache"], env, cwd,
                                                            work / "git-turn-end")
        hook_s = results["hook stop"]["wall_median_s"]
        lint_s = results["lint --no-cache"]["wall_median_s"]
        extra = list(calls["hook stop"])
        for c in calls.get("lint --turn-end --no-cache", calls["lint --no-cache"]):
            if c in extra:
                extra.remove(c)
        report = {
            "project": "mcp-latest (the real project) as a git repository, one record changed: " + rel,
            "runs": args.runs,
            "modes": results,
            "git_calls": calls,
            "target": {
                "hook_median_s": hook_s,
                "lint_no_cache_median_s": lint_s,
                "difference_ms": round(1000 * (hook_s - lint_s), 1),
                "hook_at_most_lint_plus_20ms": "met" if hook_s <= lint_s + TARGET_MARGIN_S else "not met",
                "git_calls_beyond_the_lint": extra,
                "only_one_extra_git_call_status": "met" if [c.split()[0] for c in extra] == ["status"] else "not met",
            },
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.markdown:
        print("| mode | median | min | peak RSS | exit |")
        print("| --- | --- | --- | --- | --- |")
        for name, r in report["modes"].items():
            print(f"| {name} | {1000 * r['wall_median_s']:.0f} ms | {1000 * r['wall_min_s']:.0f} ms | "
                  f"{r['peak_rss_mb']:.0f} MB | {r['exit_status']} |")
        t = report["target"]
        print(f"\nHook minus cold lint: {t['difference_ms']} ms (target ≤ 20 ms: {t['hook_at_most_lint_plus_20ms']}); "
              f"git calls beyond the lint's: {', '.join(t['git_calls_beyond_the_lint']) or 'none'} "
              f"({t['only_one_extra_git_call_status']}).")
    else:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
