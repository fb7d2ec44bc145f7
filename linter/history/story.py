"""The story of each cycle in range, and its text, JSON and Markdown forms
(docs/history.md documents the JSON schema)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Optional

from ..model.moves import Step
from ..model.workflow import owner_of

SCHEMA_VERSION = 1


def _when(iso: str) -> Optional[datetime]:
    try:
        d = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None
    return d if d.tzinfo else d.replace(tzinfo=timezone.utc)


def _secs(a: str, b: str) -> Optional[int]:
    x, y = _when(a), _when(b)
    return int((y - x).total_seconds()) if x and y else None


def _role(state: str) -> str:
    return owner_of(state) or "USER"


def _steps(c) -> list:
    e = c.move.explanation
    if e is not None and e.steps is not None:
        return list(e.steps)
    a = c.after.snap
    b = c.before.snap
    if a is None or b is None:
        return []
    return [Step(a.kind, a.frm, a.state)] if (a.state != b.state or (a.kind, a.frm) != (b.kind, b.frm)) else []


def build(result) -> dict:
    """The history as data: ``{"schema", "root", "range", "warnings",
    "findings", "cycles"}``."""
    cycles: list = []
    by_id: dict = {}
    pts = result.points
    first = pts[result.start] if pts else None

    def cycle_for(cid: str) -> dict:
        if cid not in by_id:
            by_id[cid] = {"id": cid, "mode": None, "states": [], "failures": [], "user_rework": [], "promotions": [],
                          "blocks": [], "time_in_state": {}, "moves": 0, "commits": 0, "squashed_commits": 0,
                          "finished": None, "upgrades": [], "findings": 0, "_open": {}, "_block": None,
                          "_visited": []}
            cycles.append(by_id[cid])
        return by_id[cid]

    # the first version in range is a state of its own only when no move into it is checked (--since)
    if first is not None and first.snap is not None and not first.snap.installed and \
            not (result.checked and result.checked[0].after is first):
        cy = cycle_for(first.snap.cid)
        cy["mode"] = first.snap.mode
        cy["commits"] += 1
        c0 = first.version.commit
        cy["states"].append(_entry(first.snap.state, c0, first.snap.kind, first.snap.frm, None))
        _blocks(cy, first.snap, c0)
        for f in first.snap.frames:
            cy["_open"][f.key] = {"kind": "FAILURE", "found_by": _role(f.from_), "failure_type": f.failure_type,
                                  "reason": f.reason, "from": f.from_, "to": f.owner,
                                  "corrected_by": _role(f.owner), "commit": None, "date": None, "rerun": [],
                                  "returned_at": None, "returned_commit": None, "seconds_to_return": None,
                                  "open": True, "_visited": []}
    upgrades: list = []
    for c in result.checked:
        a, b = c.after.snap, c.before.snap
        commit = c.after.version.commit
        if getattr(c, "upgrade", None):  # the framework's runtime files only: no move
            ev = _upgrade(c, commit)
            upgrades.append(ev)
            if b is not None and not b.installed:
                cycle_for(b.cid)["upgrades"].append(ev)
            continue
        if a is None or a.installed:
            continue
        cy = cycle_for(a.cid)
        cy["mode"] = a.mode if a.mode not in ("UNSET", "?") else cy["mode"]
        cy["commits"] += 1
        cy["findings"] += len(c.findings)
        steps = _steps(c) if b is not None else []
        if b is not None and b.cid != a.cid:  # the move into this cycle: keep the steps from NEW_CYCLE on
            # the earlier cycle's steps come first, this cycle's from its own start (a cycle begun and
            # ended inside the commit in between is neither's)
            idx = next((i for i, s in enumerate(steps) if s.kind in ("NEW_CYCLE", "INITIAL")), None)
            last = next((i for i in range(len(steps) - 1, -1, -1) if steps[i].kind in ("NEW_CYCLE", "INITIAL")),
                        None)
            if last is not None and last != idx:
                steps = steps[:idx] + steps[last:]
            prev = by_id.get(b.cid)
            if prev is not None and idx:  # the earlier cycle's own end (SIGNOFF, CANCEL) squashed in
                for s in steps[:idx]:
                    prev["moves"] += 1
                    prev["states"].append(_entry(s.to, commit, s.kind, s.frm, len(steps)))
                    if s.to in ("SIGNED_OFF", "CANCELLED") and prev["finished"] is None:
                        prev["finished"] = {"state": s.to, "commit": commit.sha, "date": commit.date}
            steps = steps[idx:] if idx is not None else steps[-1:]
        if len(steps) > 1:
            cy["squashed_commits"] += 1
        cy["moves"] += len(steps)
        for s in steps:
            for o in cy["_open"].values():
                o["_visited"].append(s.to)
            if s.kind != "NONE":
                cy["states"].append(_entry(s.to, commit, s.kind, s.frm, len(steps) if len(steps) > 1 else None))
            if s.kind == "PROMOTE":
                cy["promotions"].append({"commit": commit.sha, "date": commit.date, "author": commit.author,
                                         "from": s.frm, "reason": a.reason})
            if s.kind in ("FAILURE", "USER_REWORK") and s.to == s.frm:  # a same-state failure: no frame
                ev = _failure(s, a.failure_type, a.reason, commit)
                ev.update(returned_at=commit.date, returned_commit=commit.sha, seconds_to_return=0, open=False)
                (cy["user_rework"] if s.kind == "USER_REWORK" else cy["failures"]).append(ev)
        # frames pushed and popped, read from the versions themselves
        if b is not None:
            before_keys = {f.key for f in b.frames} if b.cid == a.cid else set()
            after_keys = {f.key: f for f in a.frames}
            for key, f in after_keys.items():
                if key not in before_keys and key not in cy["_open"]:
                    # at AWAITING_USER_SIGNOFF only the user acts: a frame pushed from there is rework
                    rework = (a.kind == "USER_REWORK" and a.reason == f.reason) or f.from_ == "AWAITING_USER_SIGNOFF" \
                        or any(s.kind == "USER_REWORK" and s.to == f.owner and s.frm == f.from_ for s in steps)
                    kind = "USER_REWORK" if rework else "FAILURE"
                    ev = _failure(Step(kind, f.from_, f.owner), f.failure_type, f.reason, commit)
                    ev["_visited"] = []
                    cy["_open"][key] = ev
            for key, f in after_keys.items():  # the owner planned reruns: what follows is rerun
                ev = cy["_open"].get(key)
                if ev is not None and f.rerun_through not in ("NONE", "?") and not ev.get("_rt"):
                    ev["_rt"] = f.rerun_through
                    ev["_visited"] = [a.state]
            for key in list(cy["_open"]):
                if key not in after_keys:
                    ev = cy["_open"].pop(key)
                    ev.update(returned_at=commit.date, returned_commit=commit.sha, open=False,
                              seconds_to_return=_secs(ev["date"], commit.date) if ev["date"] else None)
                    seen = ev.pop("_visited")
                    ev["rerun"] = [s for s in seen[:-1] if s != ev["to"]] if ev.pop("_rt", None) and seen else []
                    (cy["user_rework"] if ev["kind"] == "USER_REWORK" else cy["failures"]).append(ev)
        _blocks(cy, a, commit)
        if a.terminal and cy["finished"] is None:
            cy["finished"] = {"state": a.state, "commit": commit.sha, "date": commit.date}
    for cy in cycles:
        for ev in cy.pop("_open").values():
            ev.pop("_visited", None)
            ev.pop("_rt", None)
            ev["rerun"] = []
            (cy["user_rework"] if ev["kind"] == "USER_REWORK" else cy["failures"]).append(ev)
        if cy["_block"] is not None:
            cy["blocks"].append(cy["_block"])
        cy.pop("_block")
        cy.pop("_visited")
        cy["failures"].sort(key=lambda e: e["date"] or "")
        states = cy["states"]
        for i, s in enumerate(states):
            nxt = states[i + 1]["date"] if i + 1 < len(states) else None
            s["seconds"] = _secs(s["date"], nxt) if nxt else None
            if s["seconds"] is not None:
                cy["time_in_state"][s["state"]] = cy["time_in_state"].get(s["state"], 0) + s["seconds"]
    return {"schema": SCHEMA_VERSION, "root": result.root, "repository_path": getattr(result, "prefix", ""),
            "range": result.range_label, "warnings": list(result.warnings), "findings": result.findings,
            "cycles": cycles, "upgrades": upgrades}


def _version(point) -> Optional[str]:
    try:
        v = json.loads(point.project.text(".standards/VERSION.json") or "null")
    except (ValueError, TypeError):
        return None
    return v.get("version") if isinstance(v, dict) and isinstance(v.get("version"), str) else None


def _upgrade(c, commit) -> dict:
    """A commit that changed only the framework's runtime files."""
    return {"commit": commit.sha, "date": commit.date, "author": commit.author, "version": _version(c.after),
            "from_version": _version(c.before), "paths": sorted(c.upgrade)}


def _entry(state, commit, kind, frm, squashed) -> dict:
    return {"state": state, "kind": kind, "from": frm, "commit": commit.sha, "date": commit.date,
            "author": commit.author, "role": _role(state), **({"squashed": squashed} if squashed else {})}


def _failure(s: Step, failure_type: str, reason: str, commit) -> dict:
    return {"kind": s.kind, "found_by": _role(s.frm) if s.kind == "FAILURE" else "USER", "failure_type": failure_type,
            "reason": reason, "from": s.frm, "to": s.to, "corrected_by": _role(s.to), "commit": commit.sha,
            "date": commit.date, "rerun": [], "returned_at": None, "returned_commit": None,
            "seconds_to_return": None, "open": True}


def _blocks(cy: dict, snap, commit) -> None:
    q = snap.blocked_on
    cur = cy["_block"]
    if q not in ("NONE", "?", ""):
        if cur is None or cur["question"] != q:
            if cur is not None:
                _close(cy, commit)
            cy["_block"] = {"question": q, "state": snap.state, "commit": commit.sha, "date": commit.date,
                            "until_commit": None, "until": None, "seconds": None}
    elif cur is not None:
        _close(cy, commit)


def _close(cy, commit) -> None:
    b = cy["_block"]
    b.update(until_commit=commit.sha, until=commit.date, seconds=_secs(b["date"], commit.date))
    cy["blocks"].append(b)
    cy["_block"] = None


# -- formats -------------------------------------------------------------------

def _dur(s: Optional[int]) -> str:
    if s is None:
        return "-"
    if s < 3600:
        return f"{s // 60}m"
    if s < 86400:
        return f"{s // 3600}h{(s % 3600) // 60:02d}m"
    return f"{s // 86400}d{(s % 86400) // 3600:02d}h"


def _short(sha: Optional[str]) -> str:
    if not sha:
        return "-"
    return "worktree" if sha == "WORKTREE" else sha[:8]


def as_json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _finding_line(f: dict) -> str:
    return (f"{f['path']}:{f['line']}:{f['column']}: {f['code']} [{f['severity']}] {f['message']} "
            f"({f['rule']}; {f['section']}; owner {f['owner']})")


def as_text(data: dict) -> str:
    out = [f"History of {data['root']} ({data['range']})"]
    out += [f"warning: {w}" for w in data["warnings"]]
    for cy in data["cycles"]:
        out.append("")
        out.append(f"Cycle {cy['id']} ({cy['mode']}): {cy['moves']} moves in {cy['commits']} commits"
                   + (f", {cy['squashed_commits']} squashed" if cy["squashed_commits"] else "")
                   + (f"; {cy['finished']['state']} at {_short(cy['finished']['commit'])}" if cy["finished"] else ""))
        for s in cy["states"]:
            sq = f" (squashed: {s['squashed']} moves)" if s.get("squashed") else ""
            out.append(f"  {_short(s['commit'])} {s['date'][:16]:16} {s['author'][:20]:20} {s['kind']:<17} "
                       f"-> {s['state']:<24} {_dur(s['seconds']):>7}{sq}")
        for ev in cy["failures"] + cy["user_rework"]:
            who = "user" if ev["kind"] == "USER_REWORK" else ev["found_by"]
            ret = (f"returned at {_short(ev['returned_commit'])} after {_dur(ev['seconds_to_return'])}"
                   if not ev["open"] else "still open")
            rerun = f", rerun {', '.join(ev['rerun'])}" if ev["rerun"] else ""
            out.append(f"  {ev['kind'].lower()} {ev['failure_type']} found by {who} in {ev['from']}, corrected by "
                       f"{ev['corrected_by']}{rerun}; {ret}: {ev['reason']}")
        for p in cy["promotions"]:
            out.append(f"  promoted at {_short(p['commit'])} from {p['from']}: {p['reason']}")
        for u in cy["upgrades"]:
            out.append(f"  {_upgrade_words(u)}")
        for b in cy["blocks"]:
            out.append(f"  blocked in {b['state']} from {_short(b['commit'])} to {_short(b['until_commit'])} "
                       f"({_dur(b['seconds'])}): {b['question']}")
        if cy["time_in_state"]:
            out.append("  time in state: " + ", ".join(f"{k} {_dur(v)}" for k, v in cy["time_in_state"].items()))
    if data["findings"]:
        out.append("")
        out += [_finding_line(f) + f" [{_short(f['before_commit'])}..{_short(f['commit'])}]"
                for f in data["findings"]]
    errors = sum(1 for f in data["findings"] if f["severity"] == "error")
    out.append("")
    out.append(f"{len(data['findings'])} finding(s), {errors} error(s).")
    return "\n".join(out) + "\n"


def _mermaid(cy: dict) -> list:
    lines = ["```mermaid", "gantt", f"  title {cy['id']}", "  dateFormat YYYY-MM-DD HH:mm:ss",
             "  axisFormat %m-%d %H:%M"]
    states = [s for s in cy["states"] if _when(s["date"])]
    for i, s in enumerate(states):
        start = _when(s["date"])
        end = _when(states[i + 1]["date"]) if i + 1 < len(states) else start
        dur = max(int((end - start).total_seconds()), 60)
        tag = "crit, " if s["kind"] in ("FAILURE", "USER_REWORK") else ""
        lines.append(f"  {s['state']} ({s['kind']}) :{tag}s{i}, "
                     f"{start.astimezone(timezone.utc).strftime('%Y-%m-%d %H:%M:%S')}, {dur}s")
    lines.append("```")
    return lines


def _upgrade_words(u: dict) -> str:
    to = f" to {u['version']}" if u["version"] else ""
    was = f" (from {u['from_version']})" if u["from_version"] and u["from_version"] != u["version"] else ""
    return f"framework upgraded{to}{was} at {_short(u['commit'])}: no move ({', '.join(u['paths'])})"


def as_markdown(data: dict) -> str:
    out = [f"# History ({data['range']})", ""]
    out += [f"> warning: {w}" for w in data["warnings"]]
    for cy in data["cycles"]:
        out += [f"## Cycle `{cy['id']}` ({cy['mode']})", "",
                f"{cy['moves']} moves in {cy['commits']} commits"
                + (f" ({cy['squashed_commits']} squashed)" if cy["squashed_commits"] else "")
                + (f"; {cy['finished']['state']} at `{_short(cy['finished']['commit'])}`." if cy["finished"] else "."),
                ""]
        out += _mermaid(cy) + [""]
        out += ["| commit | date | author | move | state | time |", "| --- | --- | --- | --- | --- | --- |"]
        for s in cy["states"]:
            out.append(f"| `{_short(s['commit'])}` | {s['date'][:16]} | {s['author']} | {s['kind']} from "
                       f"{s['from']} | {s['state']} | {_dur(s['seconds'])} |")
        evs = cy["failures"] + cy["user_rework"]
        if evs:
            out += ["", "| failure | found by | in | corrected by | rerun | returned after | reason |",
                    "| --- | --- | --- | --- | --- | --- | --- |"]
            for ev in evs:
                who = "user" if ev["kind"] == "USER_REWORK" else ev["found_by"]
                out.append(f"| {ev['kind']} {ev['failure_type']} | {who} | {ev['from']} | {ev['corrected_by']} | "
                           f"{', '.join(ev['rerun']) or '-'} | "
                           f"{'open' if ev['open'] else _dur(ev['seconds_to_return'])} | {ev['reason']} |")
        for u in cy["upgrades"]:
            out.append(f"\n- {_upgrade_words(u)}")
        for p in cy["promotions"]:
            out.append(f"\n- promoted at `{_short(p['commit'])}` from {p['from']}: {p['reason']}")
        for b in cy["blocks"]:
            out.append(f"\n- blocked in {b['state']} for {_dur(b['seconds'])}: {b['question']}")
        out.append("")
    if data["findings"]:
        out += ["## Findings", ""]
        out += [f"- `{f['code']}` **{f['severity']}** `{f['path']}:{f['line']}` "
                f"(`{_short(f['before_commit'])}..{_short(f['commit'])}`): {f['message']}" for f in data["findings"]]
        out.append("")
    return "\n".join(out) + "\n"


def as_github(data: dict) -> str:
    """GitHub Actions workflow commands, one annotation per finding, its
    path from the repository root (as the lint's ``--format github``)."""
    from ..output.formats import _gh_escape_data, _gh_escape_prop

    prefix = _prefix(data)
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for f in data["findings"]:
        props = [f"file={_gh_escape_prop(prefix + f['path'])}", f"line={f['line']}", f"col={f['column']}",
                 f"title={_gh_escape_prop(f['code'] + ' ' + f['rule'])}"]
        msg = f"{f['code']} {f['message']}" + (f"\n{f['help']} (owner: {f['owner']})" if f.get("help") else "")
        out.append(f"::{kinds.get(f['severity'], 'warning')} {','.join(props)}::{_gh_escape_data(msg)}")
    return "\n".join(out) + ("\n" if out else "")


def _prefix(data: dict) -> str:
    """The project's folder from the repository root, as git gave it to the
    history (GitHub resolves annotation and SARIF paths from there)."""
    if "repository_path" in data:
        return data["repository_path"] + "/" if data["repository_path"] else ""
    from ..output.formats import repository_prefix

    return repository_prefix(data["root"])


def as_sarif(data: dict, rules=None) -> str:
    """SARIF 2.1.0 of the history findings: each at the file and line of
    the later version, from the repository root (``%SRCROOT%``), with both
    commits as result properties; the history rules as descriptors."""
    import hashlib
    from pathlib import Path

    from .. import __version__
    from ..output.sarif import LEVELS, _descriptor, _uri
    from .run import history_rules

    rules = list(rules if rules is not None else history_rules())
    index = {r.code: i for i, r in enumerate(rules)}
    prefix = _prefix(data)
    results = []
    for f in data["findings"]:
        key = "\0".join((f["code"], f["commit"], f["path"], f["message"])).encode("utf-8", "surrogateescape")
        res = {
            "ruleId": f["code"],
            "level": LEVELS.get(f["severity"], "warning"),
            "message": {"text": f["message"]},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(prefix + f["path"]), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": f["line"], "startColumn": f["column"]}}}],
            "partialFingerprints": {"standardsLintHistoryHash/v1": hashlib.sha256(key).hexdigest()[:32]},
            "properties": {"protocolSection": f["section"], "owner": f["owner"], "commit": f["commit"],
                           "beforeCommit": f["before_commit"], **({"help": f["help"]} if f.get("help") else {})},
        }
        if f["code"] in index:
            res["ruleIndex"] = index[f["code"]]
        results.append(res)
    top = Path(data["root"])
    for _ in prefix.strip("/").split("/") if prefix else ():
        top = top.parent
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "standards-lint", "version": __version__, "semanticVersion": __version__,
                                "rules": [_descriptor(r) for r in rules]}},
            "automationDetails": {"id": "standards-lint/history/"},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": top.as_uri().rstrip("/") + "/"}},
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
