"""The renderings of the status document: text (with colour), JSON,
Markdown with a Mermaid flowchart of the route, and the editor's hover.
Each is made from the document only (:func:`standards_lint.status.document.status_of`),
so every format says the same thing."""

from __future__ import annotations

from typing import Optional

from .next import STATE_PATH, _count, _set, role_name, shorten
from .document import MAX_LISTED, status_of

def render(doc: dict, fmt: str = "text", *, color: bool = False) -> str:
    if fmt == "json":
        return render_json(doc)
    if fmt == "markdown":
        return render_markdown(doc)
    return render_text(doc, color=color)


def render_json(doc: dict) -> str:
    import json

    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

MARK = {"passed": "✓", "current": "▶", "remaining": "·"}


def route_line(doc: dict) -> str:
    parts = []
    for r in doc["route"]:
        mark = MARK[r["status"]]
        parts.append(f"{mark} {r['state']}" if r["status"] != "remaining" else r["state"])
    return " → ".join(parts)


def record_words(rec: dict) -> str:
    """A gate's record and its Status: ``COMPLETE  <path>``."""
    if rec["path"].endswith("CONTEXT.md"):
        what = "present" if rec["exists"] else "absent"
    elif not rec["exists"]:
        what = "no record (required)" if rec["required"] else "no record"
    else:
        what = rec["status"] if rec["status"] is not None else "present"
    return f"{what:<12} {rec['path']}"


def _value(v) -> str:
    return v if v is not None else "?"


def _implied(doc: dict) -> str:
    """After the completion policy: that the release has none and implies it."""
    if not doc["cycle"].get("completion_policy_implied"):
        return ""
    return f" (implied: framework {doc['release']['release']} has no CompletionPolicy)"


def release_text(rel: dict) -> str:
    """The framework release line: ``0.8.0 (0.9.1, VERSION.json)``; a
    version outside the known releases says so."""
    if rel["source"] == "default":
        return f"{rel['release']} (the newest known; no version read)"
    asked = f"{rel['requested']}, " if rel["requested"] != rel["release"] else ""
    beyond = f"; {rel['requested']} is {rel['beyond']} than every release known" if rel["beyond"] else ""
    return f"{rel['release']} ({asked}{rel['source']}{beyond})"


def render_text(doc: dict, *, color: bool = False) -> str:
    bold = (lambda s: f"\x1b[1m{s}\x1b[0m") if color else (lambda s: s)
    out: list[str] = []
    add = out.append
    label = lambda name: bold(f"{name:<12}")
    cyc = doc["cycle"]
    add(f"{label('State')}{doc['state'] or 'unreadable'}" + (f" ({role_name(doc['owner'])})" if doc["owner"] else ""))
    add(f"{label('Cycle')}{_value(cyc['id'])}")
    if cyc["request"] is not None:
        add(f"{label('Request')}{shorten(cyc['request'])}")
    add(f"{label('Mode')}cycle {_value(cyc['mode'])} · completion policy {_value(cyc['completion_policy'])}"
        f"{_implied(doc)} · project {_value(cyc['project_mode'])}")
    add(f"{label('Release')}{release_text(doc['release'])}")
    for u in doc["unreadable"]:
        add(f"{label('Unreadable')}{u['text']}" + (f" [{u['where']}]" if u["where"] not in (
            "STATE.md header", STATE_PATH, u["field"].lstrip("# ")) else ""))
    if doc["route"]:
        add("")
        add(f"{label('Route')}{route_line(doc)}")
        for r in doc["route"]:
            if r["status"] == "passed" and r["record"] is not None:
                add(f"{'':<12}✓ {r['state']:<25}{record_words(r['record'])}")
    if doc["handoff"] is not None:  # STATE.md was read
        add("")
        _state_lines(doc, add, label)
    plan = doc["plan"]
    if plan is not None:
        add(f"{label('Plan')}{plan_words(plan)}")
    add("")
    add(f"{label('Problems')}{problems_words(doc)}")
    add("")
    out.extend(next_lines(doc, bold))
    return "\n".join(out) + "\n"


def _state_lines(doc: dict, add, label) -> None:
    """Handoff, recovery, obligations, baseline, pending fields, BlockedOn."""
    cyc = doc["cycle"]
    h = doc["handoff"]
    if not any(h.values()):
        add(f"{label('Handoff')}unreadable")
    else:
        add(f"{label('Handoff')}{_value(h['kind'])} from {_value(h['from'])}"
            + (f", {h['failure_type']}" if _set(h["failure_type"]) else "")
            + (f": “{shorten(h['reason'], 100)}”" if h["reason"] else ""))
    rec = doc["recovery"]
    if rec["frames"]:
        add(f"{label('Recovery')}{_count(len(rec['frames']), 'frame')}, newest first"
            + ("" if rec["active"] else " (but Recovery.Active is not `true`)"))
        for fr in rec["frames"]:
            add(f"{'':<12}- {fr['words']}")
    else:
        add(f"{label('Recovery')}" + ("none" if rec["active"] is False else
                                       "active, but no frame" if rec["active"] else "unreadable"))
    ob = doc["obligations"]
    if ob["entries"]:
        add(f"{label('Obligations')}{_count(len(ob['entries']), 'obligation')}")
        for e in reversed(ob["entries"]):
            add(f"{'':<12}- {e['words']}")
    else:
        add(f"{label('Obligations')}" + ("none" if ob["active"] is False else
                                          "active, but no entry" if ob["active"] else "unreadable"))
    bl = doc["baseline"]
    if bl is not None:
        if bl["entries"]:
            add(f"{label('Baseline')}{_count(len(bl['entries']), 'source cycle')} to reconcile")
            for e in bl["entries"]:
                add(f"{'':<12}- {e['source_cycle']}" + (f": “{shorten(e['request'], 60)}”" if e["request"] else ""))
        else:
            add(f"{label('Baseline')}{'nothing to reconcile' if bl['value'] == 'NONE' else 'unreadable'}")
    pend = doc["pending"]
    bits = [f"{k} {pend[key]}" for k, key in (("PendingCycleMode", "mode"),) if _set(pend[key])]
    if _set(pend["request"]):
        bits.append(f"PendingCycleRequest “{shorten(pend['request'], 60)}”")
    if _set(pend["blocked_on"]):
        bits.append(f"PendingCycleBlockedOn “{shorten(pend['blocked_on'], 60)}”")
    if _set(cyc["pending_verification_cadence"]):
        bits.append(f"PendingVerificationCadence {cyc['pending_verification_cadence']}")
    add(f"{label('Pending')}{'; '.join(bits) if bits else 'none'}")
    add(f"{label('BlockedOn')}{shorten(cyc['blocked_on'], 100) if _set(cyc['blocked_on']) else 'none'}")
    if _set(cyc["promotion_reason"]):
        add(f"{label('Promoted')}{shorten(cyc['promotion_reason'], 100)}")


def plan_words(plan: dict) -> str:
    bits = [f"{_value(plan['status'])}", f"{plan['steps_done']}/{plan['steps_total']} steps done"]
    if _set(plan["current_increment"]):
        bits.append(f"current increment {plan['current_increment']} of {plan['increments']}")
    if plan["cadence"] is not None:
        bits.append(f"cadence {plan['cadence']}")
    return " · ".join(bits)


def problems_words(doc: dict) -> str:
    rows = doc["problems"]
    if not rows:
        return "none"
    parts = []
    for r in rows:
        counts = [_count(r[k], n) for k, n in (("errors", "error"), ("warnings", "warning"), ("info", "info"))
                  if r[k]]
        parts.append(f"{r['owner']} {', '.join(counts)}")
    return "; ".join(parts)


def next_head(n: dict) -> str:
    """The next action's kind in words: "invoke the Developer"."""
    return {"invoke": f"invoke {role_name(n['actor'])}", "fix-first": f"{role_name(n['actor'])} fixes first",
            "decide": "the user decides"}[n["kind"]]


def next_sentence(doc: dict) -> str:
    """The next action on one line (the Stop hook's message ends with it)."""
    n = doc["next"]
    text = f"Next: {next_head(n)}: {n['reason']}"
    if n["commands"]:
        text += " `standards-lint status` shows the invocation."
    return text


def next_lines(doc: dict, bold=lambda s: s) -> list[str]:
    n = doc["next"]
    head = next_head(n)
    out = [bold(f"{'Next':<12}") + f"{head}: {n['reason']}"]
    for f in n["findings"][:MAX_LISTED]:
        out.append(f"{'':<12}- {f['code']} {f['path']}:{f['line']}: {f['message']}")
    if len(n["findings"]) > MAX_LISTED:
        out.append(f"{'':<12}... and {len(n['findings']) - MAX_LISTED} more (`standards-lint` lists them all)")
    if n["commands"]:
        if n["session"]:
            out.append(f"{'':<12}{n['session']}")
        out.append(f"{'':<12}Codex:       {n['commands']['codex']}")
        out.append(f"{'':<12}Claude Code: {n['commands']['claude']}")
    return out


def _md(text: Optional[str]) -> str:
    """Text safe inside a Markdown table cell."""
    if text is None:
        return "?"
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


def _mm(text: str) -> str:
    """Text safe inside a quoted Mermaid label."""
    return text.replace('"', "#quot;")


def mermaid(doc: dict) -> str:
    """A flowchart of the route: passed states styled, the current state
    marked, and each recovery frame an arrow from its owner back to the
    state where work resumes."""
    lines = ["flowchart LR"]
    nodes: dict[str, str] = {}
    for r in doc["route"]:
        nodes[r["state"]] = r["status"]
    extra = []
    for fr in doc["recovery"]["frames"]:
        for s in (fr.get("owner"), fr.get("resume_at")):
            if s and s not in nodes and s not in extra:
                extra.append(s)
    for state in list(nodes) + extra:
        where = nodes.get(state, "offroute")
        mark = {"passed": "✓ ", "current": "▶ "}.get(where, "")
        lines.append(f'  {state}["{_mm(mark + state)}"]:::{where}')
    route = [r["state"] for r in doc["route"]]
    for a, b in zip(route, route[1:]):
        lines.append(f"  {a} --> {b}")
    for fr in doc["recovery"]["frames"]:
        if fr.get("owner") and fr.get("resume_at"):
            label = _mm(f"{fr['title']}: {fr['failure_type'] or 'failure'}")
            lines.append(f'  {fr["owner"]} -.->|"{label}"| {fr["resume_at"]}')
    lines += [
        "  classDef passed fill:#dcfce7,stroke:#16a34a,color:#14532d",
        "  classDef current fill:#fef3c7,stroke:#d97706,stroke-width:3px,color:#78350f",
        "  classDef remaining fill:#f8fafc,stroke:#94a3b8,color:#475569",
        "  classDef offroute fill:#f8fafc,stroke:#94a3b8,stroke-dasharray:4 3,color:#475569",
    ]
    return "\n".join(lines)


def status_hover(run) -> str:
    """Markdown for a hover on STATE.md's title in an editor: the status
    table and the commands, without the flowchart (editors' hovers do not
    draw Mermaid).  *run* is any lint run with ``.project`` and
    ``.findings``; never raises (empty when the status cannot be said)."""
    try:
        return render_markdown(status_of(run), chart=False)
    except Exception:
        return ""


def render_markdown(doc: dict, *, chart: bool = True) -> str:
    cyc = doc["cycle"]
    n = doc["next"]
    rows = [("State", f"`{doc['state']}`" + (f" ({role_name(doc['owner'])})" if doc["owner"] else "")
             if doc["state"] else "unreadable")]
    rows.append(("Cycle", f"`{cyc['id']}`" if cyc["id"] else "?"))
    if cyc["request"] is not None:
        rows.append(("Request", _md(shorten(cyc["request"]))))
    rows.append(("Mode", f"cycle {_md(cyc['mode'])} · completion policy {_md(cyc['completion_policy'])}"
                         f"{_implied(doc)} · project {_md(cyc['project_mode'])}"))
    rows.append(("Release", _md(release_text(doc["release"]))))
    for u in doc["unreadable"]:
        rows.append(("Unreadable", _md(u["text"])))
    rec = doc["recovery"]
    if rec["frames"]:
        rows.append(("Recovery", "<br>".join(_md(f["words"]) for f in rec["frames"])))
    if doc["obligations"]["entries"]:
        rows.append(("Obligations", "<br>".join(_md(e["words"]) for e in reversed(doc["obligations"]["entries"]))))
    bl = doc["baseline"]
    if bl is not None and bl["entries"]:
        rows.append(("Baseline", f"{_count(len(bl['entries']), 'source cycle')} to reconcile"))
    if _set(cyc["blocked_on"]):
        rows.append(("BlockedOn", _md(shorten(cyc["blocked_on"], 100))))
    if doc["plan"] is not None:
        rows.append(("Plan", _md(plan_words(doc["plan"]))))
    rows.append(("Problems", _md(problems_words(doc))))
    head = next_head(n)
    rows.append(("**Next**", f"**{n['actor']}** ({_md(head)}): {_md(n['reason'])}"))
    out = ["### S.T.A.N.D.A.R.D.S. workflow status", "", "| | |", "| --- | --- |"]
    out += [f"| {k} | {v} |" for k, v in rows]
    if n["findings"]:
        out.append("")
        for f in n["findings"][:MAX_LISTED]:
            out.append(f"- `{f['code']}` {_md(f['path'])}:{f['line']}: {_md(f['message'])}")
        if len(n["findings"]) > MAX_LISTED:
            out.append(f"- ... and {len(n['findings']) - MAX_LISTED} more")
    if n["commands"]:
        out.append("")
        if n["session"]:
            out.append(n["session"])
            out.append("")
        out += ["```text", f"Codex:       {n['commands']['codex']}", f"Claude Code: {n['commands']['claude']}", "```"]
    if chart and doc["route"]:
        out += ["", "```mermaid", mermaid(doc), "```"]
    return "\n".join(out) + "\n"
