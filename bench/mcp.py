"""Benchmark ``standards-lint mcp``: the first call and repeated calls in one
server process, against ``standards-lint --no-cache`` as a fresh process.

Projects (generated as ``bench/run.py`` does, in a temporary folder outside
any git repository): ``mcp-latest`` (the real project) and ``cycles-N``
(``--sizes``, default 1000: the real project plus N finished cycles).

For each project the script starts the installed ``standards-lint mcp`` and
speaks to it with the MCP SDK's own stdio client, then times, in order:

- ``start``: from starting the process to the answer of ``initialize``
  (the SDK's import and the server's warm-up: rules loaded, grammar read);
- ``first``: the first ``check`` call (the server has read nothing of the
  project yet; the client has listed the tools, as clients do when they
  connect, and imported what it validates results with);
- ``repeat``: ``--calls`` more ``check`` calls on the unchanged tree (each
  finds its answer under the result cache's key: every file's stat is taken,
  nothing is read or linted);
- ``edited``: ``--calls`` ``check`` calls, each after an edit of STATE.md
  (``Recovery.Active`` flipped): the tree is walked and STATE.md re-read and
  re-parsed, the other files come from the server's caches of bytes, heads
  and parsed documents;
- ``status``: one ``status`` call after the edits;
- ``cli``: ``standards-lint --no-cache --format json`` as a process
  (``--runs`` times), the figure an agent shelling out pays per check.

Usage::

    python bench/mcp.py                      # JSON on stdout, a summary on stderr
    python bench/mcp.py --sizes 100 --calls 10 --runs 3
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
import time
from pathlib import Path

# This script is named mcp.py and Python puts its folder first on sys.path,
# where it would stand for the SDK: take the folder off, and load bench/run.py
# (the project generators) from its path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.modules.pop("mcp", None)


def _load_run():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", _HERE / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


bench = _load_run()


def _ms(values: list[float]) -> dict:
    return {"median_ms": round(statistics.median(values) * 1000, 1), "min_ms": round(min(values) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1), "n": len(values)}


async def _measure(root: Path, calls: int) -> dict:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=bench.cli()[0], args=["mcp"], cwd=str(root), env=bench.ENV)
    state = root / ".standards" / "STATE.md"
    text = state.read_text("utf-8")
    flipped = text.replace("`Active`: `false`", "`Active`: `true`", 1)
    # The client's own one-time costs are paid before the clock starts: the
    # SDK's client imports jsonschema at the first result it validates, and
    # lists the tools to learn their output schemas (every client lists them
    # when it connects).  `start` is the process start to the answer of
    # `initialize` (the SDK's import, and the server's warm-up: rules loaded,
    # grammar tables read).
    import jsonschema.validators  # noqa: F401

    out: dict = {}
    t = time.perf_counter()
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            out["start"] = time.perf_counter() - t
            await s.list_tools()

            async def timed(name, args=None):
                t = time.perf_counter()
                with anyio.fail_after(600):
                    res = await s.call_tool(name, args or {})
                if res.is_error:
                    raise SystemExit(f"{name} failed: {res.content[0].text}")
                return time.perf_counter() - t, res

            t, res = await timed("check")
            out["first"] = t
            out["findings"] = res.structured_content["summary"]["findings"]
            if not calls:
                return out
            out["repeat"] = _ms([(await timed("check"))[0] for _ in range(calls)])
            edited = []
            for i in range(calls):
                state.write_text((flipped if i % 2 == 0 else text) + f"\n<!-- edit {i} -->\n", "utf-8")
                edited.append((await timed("check"))[0])
            out["edited"] = _ms(edited)
            out["status"] = _ms([(await timed("status"))[0]])
    state.write_text(text, "utf-8")
    return out


def main(argv=None) -> int:
    import anyio

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000", help="cycles-N projects (comma-separated; default 1000; '' for none)")
    p.add_argument("--calls", type=int, default=20, help="repeated and edited calls per project (default 20)")
    p.add_argument("--runs", type=int, default=5,
                   help="server starts (each timed to its first call) and CLI runs per project, "
                        "taken in turn (default 5)")
    args = p.parse_args(argv)
    src = bench.Sources()
    projects = [("mcp-latest", lambda root: bench.gen_real(root, src))]
    for n in [int(s) for s in args.sizes.split(",") if s.strip()]:
        projects.append((f"cycles-{n}", lambda root, n=n: bench.gen_cycles(root, src, n)))
    results = {}
    base = Path(tempfile.mkdtemp(prefix="standards-lint-bench-mcp-"))
    try:
        for name, gen in projects:
            root = base / name
            root.mkdir()
            gen(root)
            bench.log(f"{name}: server and cli x{args.runs}, in turn")
            res, starts, firsts, walls = None, [], [], []
            for i in range(max(args.runs, 1)):
                one = anyio.run(_measure, root, args.calls if i == 0 else 0)
                res = res or one
                starts.append(one["start"])
                firsts.append(one["first"])
                run = bench.run_once([*bench.cli(), str(root), "--no-cache", "--format", "json"], 600)
                walls.append(run["wall"])
            res["start"], res["first"], res["cli_no_cache"] = _ms(starts), _ms(firsts), _ms(walls)
            results[name] = res
            bench.log(f"{name}: start {res['start']['median_ms']} ms, first {res['first']['median_ms']} ms, repeat {res['repeat']['median_ms']} ms, "
                      f"edited {res['edited']['median_ms']} ms, status {res['status']['median_ms']} ms; "
                      f"cli --no-cache {res['cli_no_cache']['median_ms']} ms")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    json.dump({"python": sys.version.split()[0], "cpus": os.cpu_count(), "projects": results}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
