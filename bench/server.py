"""Benchmark the language server: from a ``didChange`` of STATE.md to the
published diagnostics, in one server process, and its memory over many edits.

The project is the real one: a copy of ``/work/shared/corpus/kgforedglobalmcp``
(``--project DIR`` for another; without the corpus, the ``mcp-latest`` case
of ``fixtures/parity/realworld.jsonl.gz`` that ``bench/run.py`` uses), in a
temporary folder outside any git repository.

The script starts ``python -m standards_lint server`` and speaks LSP to it
over stdio (a small JSON-RPC client, standard library only): initialize,
open STATE.md, then ``--edits`` incremental edits (default 500), each a new
text: even edits type one character into ``Active Work.Request``, odd edits
flip ``Recovery.Active`` between ``false`` and ``true`` (a finding, SL501,
appears and goes).  Each edit waits for the ``publishDiagnostics`` of STATE.md
carrying that edit's version; the time from sending the change to reading the
notification is the latency.  Latency figures are over the first
``--measure`` edits (default 50) and over all of them; the server's RSS
(``/proc/PID/status``) is sampled after edit 50 and every 50 edits after.

Usage::

    python bench/server.py                    # JSON on stdout, summary on stderr
    python bench/server.py --edits 100 --measure 50
    python bench/server.py --project path/to/project

Targets (the project's 2-core machine): median < 40 ms and p95 < 100 ms over
50 edits; RSS growth from edit 50 to edit 500 under 10 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path("/work/shared/corpus/kgforedglobalmcp")
STATE = ".standards/STATE.md"
TARGET_MEDIAN_MS = 40.0
TARGET_P95_MS = 100.0
TARGET_GROWTH_MB = 10.0
TIMEOUT_S = 30.0


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def build_project(dest: Path, source: "Path | None") -> str:
    """Copy the real project to *dest*; returns what it was built from."""
    if source is None and CORPUS.is_dir():
        source = CORPUS
    if source is not None:
        shutil.copytree(source / ".standards", dest / ".standards")
        for p in dest.rglob("*"):
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        return str(source)
    sys.path.insert(0, str(ROOT / "bench"))
    import run  # bench/run.py: the parity case of the real project

    case = run.load_case(*run.REAL_CASE)
    run.write_files(dest, case["files"])
    return f"{run.REAL_CASE[0]}:{run.REAL_CASE[1]}"


class Client:
    """A minimal LSP client over the server's stdin and stdout."""

    def __init__(self, cmd: list[str], cwd: str):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd)
        self.inbox: "queue.Queue[tuple[float, dict]]" = queue.Queue()
        self.next_id = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=self.proc.stderr.read, daemon=True)
        self._stderr.start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            body = out.read(length)
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, msg: dict) -> float:
        msg = {"jsonrpc": "2.0", **msg}
        data = json.dumps(msg).encode("utf-8")
        sent = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()
        return sent

    def request(self, method: str, params) -> dict:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        _, msg = self.wait(lambda m: m.get("id") == rid and "method" not in m)
        return msg

    def notify(self, method: str, params) -> float:
        return self.send({"method": method, "params": params})

    def wait(self, predicate) -> tuple[float, dict]:
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit("timed out waiting for the server")
            try:
                at, msg = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self.send({"id": msg["id"], "result": None})
                continue
            if predicate(msg):
                return at, msg

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def position(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": len(text[start:offset].encode("utf-16-le")) // 2}


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def figures(values: list[float]) -> dict:
    return {"n": len(values), "median_ms": round(statistics.median(values), 2),
            "p95_ms": round(percentile(values, 0.95), 2), "min_ms": round(min(values), 2),
            "max_ms": round(max(values), 2)}


def _parses(before: dict, after: dict, edits: int):
    try:
        a = sum(v["parsed"] for v in before["sessions"].values())
        b = sum(v["parsed"] for v in after["sessions"].values())
    except (KeyError, TypeError):
        return None
    return round((b - a) / edits, 3)


def _lint_figures(after: dict, edits: int, first: int):
    try:
        times = [t for v in after["sessions"].values() for t in v["lint_ms"]]
    except (KeyError, TypeError):
        return None
    times = times[-edits:][:first]
    return figures(times) if times else None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--project", type=Path, default=None, help="a project to copy (default: the real project)")
    p.add_argument("--edits", type=int, default=500)
    p.add_argument("--measure", type=int, default=50, help="edits whose latency is the headline figure")
    p.add_argument("--out", default=None, help="also write the JSON here")
    args = p.parse_args(argv)
    if args.edits < args.measure:
        p.error("--edits must be at least --measure")

    load_before = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory(prefix="standards-lint-server-bench-") as tmp:
        root = Path(tmp) / "project"
        built_from = build_project(root, args.project)
        state_path = root / STATE
        text = state_path.read_text(encoding="utf-8")
        uri = state_path.resolve().as_uri()
        env_cmd = [sys.executable, "-m", "standards_lint", "server"]
        client = Client(env_cmd, cwd=str(root))
        try:
            t0 = time.perf_counter()
            client.request("initialize", {
                "processId": os.getpid(), "rootUri": root.resolve().as_uri(),
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
                "workspaceFolders": [{"uri": root.resolve().as_uri(), "name": "project"}],
            })
            client.notify("initialized", {})
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
            client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri and m["params"].get("version") == 1)
            startup_ms = (time.perf_counter() - t0) * 1000
            stats_before = client.request("standards-lint/stats", None).get("result") or {}
            log(f"server up and first diagnostics in {startup_ms:.0f} ms ({built_from})")

            typing_anchor = text.index("`", text.index("`Request`:") + len("`Request`:") + 2)  # the value's end
            latencies: list[float] = []
            rss: dict[int, float] = {}
            counts: list[int] = []
            active = "false" if "## Recovery\n\n`Active`: `false`" in text else "true"
            for k in range(1, args.edits + 1):
                version = k + 1
                if k % 2 == 0:  # type a character into the Request value
                    pos = position(text, typing_anchor)
                    change = {"range": {"start": pos, "end": pos}, "text": "x"}
                    text = text[:typing_anchor] + "x" + text[typing_anchor:]
                    typing_anchor += 1
                else:  # flip Recovery.Active: SL501 appears or goes
                    at = text.index("`Active`: `", text.index("## Recovery")) + len("`Active`: `")
                    new = "true" if active == "false" else "false"
                    change = {"range": {"start": position(text, at), "end": position(text, at + len(active))},
                              "text": new}
                    text = text[:at] + new + text[at + len(active):]
                    active = new
                sent = client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
                at_time, msg = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                           and m["params"]["uri"] == uri
                                           and m["params"].get("version") == version)
                latencies.append((at_time - sent) * 1000)
                counts.append(len(msg["params"]["diagnostics"]))
                if k % 50 == 0:
                    rss[k] = round(client.rss_mb(), 2)
            flips = sorted(set(counts))
            stats_after = client.request("standards-lint/stats", None).get("result") or {}
        finally:
            client.close()

    first = args.measure
    growth = round(rss[max(rss)] - rss[min(rss)], 2) if len(rss) >= 2 else None
    head = figures(latencies[:first])
    result = {
        "project": built_from,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        # the machine is shared: the 1-minute load average before and after
        "load_average": [load_before, round(os.getloadavg()[0], 2)],
        "startup_ms": round(startup_ms, 1),
        "latency_first": head,
        "latency_all": figures(latencies),
        "rss_mb": {str(k): v for k, v in sorted(rss.items())},
        "rss_growth_mb": growth,
        # live Python objects in the server before the first edit and after the last
        "objects": [stats_before.get("objects"), stats_after.get("objects")],
        "object_growth_by_type": {k: v - (stats_before.get("types") or {}).get(k, 0)
                                  for k, v in (stats_after.get("types") or {}).items()
                                  if v - (stats_before.get("types") or {}).get(k, 0) > 50},
        # parses per edit: only the edited STATE.md is parsed again
        "parses_per_edit": _parses(stats_before, stats_after, args.edits),
        # the lint alone, timed inside the server (the rest is JSON-RPC and diagnostics)
        "server_lint_first": _lint_figures(stats_after, args.edits, first),
        "diagnostic_counts_seen": flips,
        "targets": {
            f"median < {TARGET_MEDIAN_MS:.0f} ms": head["median_ms"] < TARGET_MEDIAN_MS,
            f"p95 < {TARGET_P95_MS:.0f} ms": head["p95_ms"] < TARGET_P95_MS,
            f"rss growth < {TARGET_GROWTH_MB:.0f} MB": growth is not None and growth < TARGET_GROWTH_MB,
        },
    }
    out = json.dumps(result, indent=2)
    print(out)
    if args.out:
        Path(args.out).write_text(out + "\n", encoding="utf-8")
    lint = result["server_lint_first"] or {}
    log(f"lint inside the server, first {first} edits: median {lint.get('median_ms')} ms, p95 {lint.get('p95_ms')} ms")
    log(f"first {first} edits: median {head['median_ms']} ms, p95 {head['p95_ms']} ms; "
        f"all {len(latencies)}: median {result['latency_all']['median_ms']} ms, p95 {result['latency_all']['p95_ms']} ms; "
        f"RSS {result['rss_mb']} MB (growth {growth} MB); objects {result['objects']}; "
        f"parses per edit {result['parses_per_edit']}; load average {result['load_average']}")
    for name, met in result["targets"].items():
        log(f"  {name}: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
