"""``standards-lint status``: where the workflow stands, what blocks it, and
the command that resumes it.

    standards-lint status [PATH] [--format text|json|markdown]

Layer: above rules and findings (beside outputs, fixes, server and hook).  It
runs the same lint once (:func:`standards_lint.engine.run.lint`), reads the
protocol model of that run's project (:func:`standards_lint.model.model_of`)
and the findings, and builds one plain document (:func:`status_of`, the
``--format json`` output); the text and Markdown renderings are made from
that document only, so every format says the same thing.

PROTOCOL.md (Persisted Workflow State) asks whoever resumes work to read the
state, the cycle, the handoff, the recovery stack, the outstanding
obligations, the pending fields and ``BlockedOn``, then invoke the role that
owns the state (Handoff Rules, Next-Role Invocation Options), or, at
``AWAITING_USER_SIGNOFF`` and in the terminal states, act themselves.  The
``next`` entry is that one action:

- ``invoke``: the role that owns the state, with the protocol's invocation
  for Codex (``$<skill> ...``) and Claude Code (``/<skill> ...``);
- ``fix-first``: the actor owns error findings that stand in the way (the
  forward-handoff gate; a field that cannot be read), listed;
- ``decide``: the user decides, and why (sign-off, a PROPOSED plan, an
  unanswered ``BlockedOn``, a merge conflict, a collision, an ended cycle,
  a pending request).

The document never fails on a broken project: a value that cannot be read is
listed under ``unreadable`` with the finding at it ("WorkflowState
unreadable: `<TESTING>` (SL203)"), and the next action then fixes that.
The JSON schema is documented in docs/status.md.
"""

from __future__ import annotations

from typing import Optional

SCHEMA_VERSION = 1
FORMATS = ("text", "json", "markdown")
STATE_PATH = ".standards/STATE.md"
MODE_PATH = ".standards/MODE.md"
STATE_SECTIONS = ("Active Work", "Handoff", "Recovery", "Outstanding Obligations")
USER = "USER"
SEVERITIES = ("error", "warning", "info")
MAX_LISTED = 10
REQUEST_WIDTH = 72

# The roles whose skills the framework installs (PROTOCOL.md, Roles; the
# skill identifier is the role's name in lower case: `$developer`).
WORKFLOW_ROLES = ("SCOPER", "ARCHITECT", "AUDITOR", "DEVELOPER", "TESTER", "REVIEWER", "DOCUMENTER", "SYNCHRONIZER")
# Review Kinds: the review a Reviewer state performs.
REVIEW_KINDS = {"REVIEWING_IMPLEMENTATION": "IMPLEMENTATION", "REVIEWING_FINAL": "FINAL_DELIVERABLE"}
# Handoff Rules: the base invocation, and its recovery form ("replace
# 'active workflow' with 'active recovery' and explicitly direct the role to
# read the active recovery frame").
INVOCATION = ("Continue the active workflow from `.standards/STATE.md`. Read the persisted Active Work, "
              "relevant project context and owned artifacts, and recovery context before proceeding.")
RECOVERY_INVOCATION = ("Continue the active recovery from `.standards/STATE.md`. Read the active recovery frame, "
                       "the persisted Active Work, relevant project context and owned artifacts, and recovery "
                       "context before proceeding.")
# Independent Tester Session / Independent Reviewer Session: the prefix
# every invocation entering TESTING or a Reviewer state carries.
SESSION_PREFIX = {
    "TESTER": "Use the existing independent Tester chat, or open a fresh chat separate from Developer's "
              "implementation conversation, then run:",
    "REVIEWER": "Open a fresh chat separate from the conversations that produced the artifacts under review, "
                "then run:",
}
# Findings no role can fix that are collisions (Workflow Artifact Provenance):
# a malformed block, a fixed path holding something else, a duplicate record.
COLLISION_CODES = ("SL600", "SL630", "SL631", "SL632", "SL633", "SL634")
CONFLICT_CODES = ("SL110", "SL111")


def role_name(role: Optional[str]) -> str:
    """``DEVELOPER`` -> ``the Developer``; ``USER`` -> ``the user``."""
    if not role:
        return "nobody"
    return "the user" if role == USER else f"the {role.capitalize()}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def skill_of(role: str) -> str:
    return role.lower()


def invocation(role: str, *, recovery: bool = False, review_kind: Optional[str] = None,
               text: Optional[str] = None) -> dict:
    """The copy/paste invocation of *role* for each client (Handoff Rules)."""
    body = text or (RECOVERY_INVOCATION if recovery else INVOCATION)
    if review_kind:
        body += f" Review kind: `{review_kind}`."
    skill = skill_of(role)
    return {"codex": f"${skill} {body}", "claude": f"/{skill} {body}"}


# -- building the document -------------------------------------------------------------------


def status(path: str = ".", *, use_git: bool = True, config=None, registry=None) -> dict:
    """Lint the project at or above *path* once and return its status
    document.  Raises ValueError when *path* is in no STANDARDS project."""
    from ..engine.run import lint
    from ..syntax.source import find_root

    root = find_root(path)
    if root is None:
        raise ValueError(f"no .standards/ folder at or above {path}")
    result = lint(root, use_git=use_git, registry=registry, config=config)
    return status_of(result)


def status_of(result) -> dict:
    """The status document of a lint *result* (its project and findings)."""
    from ..model import model_of

    return _Builder(model_of(result.project), list(result.findings)).build()


def _v(value) -> Optional[str]:
    """A model Value's usable value; a plain value as it is (the plan
    reading may give either)."""
    if value is None:
        return None
    if hasattr(value, "status") and hasattr(value, "raw"):
        return value.value
    return value if isinstance(value, str) else None


def _set(value: Optional[str]) -> bool:
    """A field that says something: not missing, NONE or UNSET."""
    return value is not None and value.strip() not in ("", "NONE", "UNSET")


def shorten(text: Optional[str], width: int = REQUEST_WIDTH) -> Optional[str]:
    if text is None:
        return None
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1].rstrip() + "…"


class _Builder:
    def __init__(self, model, findings: list):
        self.m = model
        self.wf = model.workflow
        self.findings = findings
        self.unreadable: list[dict] = []
        self.sections_off: set[str] = set()  # STATE.md sections missing or repeated

    # -- what cannot be read ------------------------------------------------------------
    def _findings_at(self, path: str, value) -> list:
        """The findings located at *value* (its field), or, for a missing
        value, at the place it was looked for and naming the field."""
        spans = [n.span for n in value.nodes] or ([value.span] if value.span is not None else [])
        if not spans:  # nowhere to look in: the file itself is missing or unreadable
            at = [f for f in self.findings if f.path == path]
            return [f for f in at if value.name in f.message] or at
        here = [f for f in self.findings if f.path == path and any(
            (sp.line, sp.column) <= (f.line, f.column) <= (sp.end_line, sp.end_column) for sp in spans)]
        if value.node is None:
            here = [f for f in here if value.name in f.message] or here
        named = [f for f in here if value.name in f.message]
        return named or here

    def read(self, value, where: str, path: str = STATE_PATH) -> Optional[str]:
        """*value*'s usable value; when it cannot be read, it is listed under
        ``unreadable`` with the code and owner of the finding at it."""
        if value.ok:
            return value.value
        if value.status == "missing" and where in self.sections_off:
            return None  # its section is missing or repeated: said once, in build()
        line = value.node.value_span.line if value.node is not None else (
            value.span.line if value.span is not None else None)
        self._say(value.name, where, value.status, value.describe(), self._findings_at(path, value),
                  raw=value.raw, why=value.why or None, path=path, line=line)
        return value.value

    def _say(self, field: str, where: str, status: str, text: str, at: list, *, raw: Optional[str] = None,
             why: Optional[str] = None, path: str = STATE_PATH, line: Optional[int] = None) -> None:
        """List what cannot be read, with the code and owner of the first
        finding *at* it."""
        code = at[0].code if at else None
        self.unreadable.append({"field": field, "where": where, "status": status, "raw": raw, "why": why or text,
                                "path": path, "line": line, "code": code,
                                "owner": (at[0].owner or USER) if at else None,
                                "text": text + (f" ({code})" if code else "")})

    # -- the parts ------------------------------------------------------------------------
    def build(self) -> dict:
        wf, m = self.wf, self.m
        readable = wf.sm is not None
        if not readable:
            self._say("STATE.md", STATE_PATH, "missing", "STATE.md is missing or unreadable",
                      [f for f in self.findings if f.path == STATE_PATH])
        else:
            for title in STATE_SECTIONS:
                n = len(wf.sm.sections(title))
                if n == 1:
                    continue
                # Missing, or repeated (the model reads the first copy): say
                # it once, not once per field of the section.
                self.sections_off.add(title)
                text = f"## {title} missing" if n == 0 else f"## {title} repeated ({n} times; the first is read)"
                self._say(f"## {title}", title, "missing" if n == 0 else "repeated", text,
                          [f for f in self.findings if f.path == STATE_PATH and f"`## {title}`" in f.message])
        r = (lambda v, where="STATE.md header": self.read(v, where)) if readable else (lambda v, where=None: None)
        state = r(wf.state)
        owner = wf.owner if state is not None else None
        cycle = {
            "id": r(wf.id, "Active Work"),
            "request": r(wf.request, "Active Work"),
            "mode": r(wf.cycle_mode),
            "completion_policy": r(wf.completion_policy, "Active Work"),
            "project_mode": self.read(wf.project_mode, "MODE.md", MODE_PATH),
            "active": bool(m.cycle.active),
            "blocked_on": r(wf.blocked_on, "Active Work"),
            "promotion_reason": r(wf.promotion_reason, "Active Work"),
            "pending_verification_cadence": r(wf.pending_cadence, "Active Work"),
        }
        pending = {
            "mode": r(wf.pending_mode),
            "request": r(wf.pending_request),
            "blocked_on": r(wf.pending_blocked_on),
        }
        doc = {
            "version": SCHEMA_VERSION,
            "state": state,
            "owner": owner,
            "cycle": cycle,
            "pending": pending,
            "route": self.route() if readable else [],
            "handoff": self.handoff() if readable else None,
            "recovery": self.stack(wf.recovery, "frame") if readable else {"active": None, "frames": []},
            "obligations": self.stack(wf.obligations, "obligation") if readable else {"active": None, "entries": []},
            "baseline": self.baseline() if readable else None,
            "plan": self.plan(),
            "conflicted": bool(m.conflicted),
            "unreadable": self.unreadable,
            "problems": self.problems(owner),
        }
        doc["next"] = _next(doc, self.findings)
        return doc

    def route(self) -> list[dict]:
        from ..model import owner_of

        cycle = self.m.cycle
        required = set(cycle.required)
        out = []
        for state, where in self.wf.positions:
            entry = {"state": state, "status": where, "owner": owner_of(state)}
            entry["record"] = self.record(state, state in required) if state != "AWAITING_USER_SIGNOFF" else None
            out.append(entry)
        return out

    def record(self, state: str, required: bool) -> Optional[dict]:
        cycle = self.m.cycle
        if state == "AUDITING":
            from ..model.facts import CONTEXT_PATH

            return {"path": CONTEXT_PATH, "exists": cycle.context_exists, "status": None, "required": False}
        if state in ("SIGNED_OFF", "CANCELLED"):
            return None
        fact = cycle.record_for(state)
        if fact is None:
            path = cycle.fixed_path(state)
            return {"path": path, "exists": False, "status": None, "required": required} if path else None
        st = fact.status
        return {"path": fact.path, "exists": True,
                "status": (st.raw if st.status != "missing" else None) if fact.keeps_status else None,
                "required": required}

    def handoff(self) -> dict:
        h = self.wf.handoff
        where = "Handoff"
        return {"kind": self.read(h.kind, where), "from": self.read(h.from_, where),
                "failure_type": self.read(h.failure_type, where), "reason": self.read(h.reason, where)}

    def stack(self, stack, kind: str) -> dict:
        from ..model import owner_of

        title = stack.title
        active = self.read(stack.active, title)
        entries = []
        for e in stack.newest_first():
            where = e.title
            if kind == "frame":
                vals = {"from": self.read(e.from_, where), "owner": self.read(e.owner, where),
                        "failure_type": self.read(e.failure_type, where), "reason": self.read(e.reason, where),
                        "resume_at": self.read(e.resume_at, where), "rerun_through": self.read(e.rerun_through, where)}
            else:  # an obligation records Owner, FailureType and Reason (expedited.md)
                vals = {"owner": self.read(e.owner, where), "failure_type": self.read(e.failure_type, where),
                        "reason": self.read(e.reason, where)}
            vals = {"number": e.number, "title": e.title, "line": e.node.span.line, **vals,
                    "role": owner_of(vals["owner"]) if vals["owner"] else None}
            vals["words"] = _frame_words(vals, kind, e is stack.live)
            entries.append(vals)
        key = "frames" if kind == "frame" else "entries"
        return {"active": None if active is None else active == "true", key: entries}

    def baseline(self) -> dict:
        wf = self.wf
        form = wf.baseline_form
        if form is None:
            self.read(wf.baseline, "Active Work")
        entries = [{"source_cycle": _v(e["SourceCycle"]) or e["SourceCycle"].raw,
                    "request": _v(e["Request"]) or e["Request"].raw} for e in wf.baseline_entries]
        return {"value": "NONE" if form == "NONE" else ("list" if form == "list" else wf.baseline.raw),
                "entries": entries if form == "list" else []}

    def plan(self) -> Optional[dict]:
        try:
            plan = self.m.plan
        except Exception:  # the plan reading never stops the status
            plan = None
        if plan is None:
            return None
        steps = list(getattr(plan, "steps", []) or [])
        done = sum(1 for s in steps if _v(getattr(s, "status", None)) == "DONE")
        return {
            "path": getattr(plan, "path", None),
            "status": _v(getattr(plan, "status", None)),
            "cadence": _v(getattr(plan, "cadence", None)),
            "current_increment": _v(getattr(plan, "current", None)),
            "steps_done": done,
            "steps_total": len(steps),
            "increments": len(list(getattr(plan, "increments", []) or [])),
            "suspended": len(list(getattr(plan, "suspended", []) or [])),
        }

    def problems(self, owner: Optional[str]) -> list[dict]:
        by: dict[str, dict] = {}
        for f in self.findings:
            who = f.owner or USER
            row = by.setdefault(who, {"owner": who, "errors": 0, "warnings": 0, "info": 0, "codes": []})
            row[{"error": "errors", "warning": "warnings"}.get(f.severity, "info")] += 1
            if f.code not in row["codes"]:
                row["codes"].append(f.code)
        for row in by.values():
            row["codes"].sort()
        return sorted(by.values(), key=lambda r: (r["owner"] != owner, -r["errors"], -r["warnings"], r["owner"]))


def _frame_words(e: dict, kind: str, live: bool) -> str:
    """A recovery frame or obligation in words: what is being corrected, by
    whom, and where work returns."""
    who = _cap(role_name(e["role"])) if e.get("role") else (f"The owner of {e['owner']}" if e.get("owner") else "An unnamed owner")
    failure = f"{e['failure_type']} " if e.get("failure_type") else ""
    reason = f" (“{shorten(e['reason'], 100)}”)" if e.get("reason") else ""
    if kind == "obligation":
        at = f" when {e['owner']} is reached" if e.get("owner") else ""
        return f"{e['title']}: {who} owes a correction of the {failure}defect{reason}{at}."
    found = f" found in {e['from']}" if e.get("from") else ""
    head = f"{e['title']}{' (active)' if live else ''}: {who} corrects the {failure}failure{found}{reason}"
    rerun = e.get("rerun_through")
    back = f"work returns to {e['resume_at']}" if e.get("resume_at") else "where work returns cannot be read"
    if rerun and rerun != "NONE":
        return f"{head}; the rerun goes through {rerun}, then {back}."
    return f"{head}; then {back}."


# -- the next action -------------------------------------------------------------------------


def _finding_brief(f) -> dict:
    return {"code": f.code, "severity": f.severity, "path": f.path, "line": f.line, "message": f.message,
            "owner": f.owner or USER}


def _nxt(actor: str, kind: str, reason: str, *, commands: Optional[dict] = None, session: Optional[str] = None,
         findings=()) -> dict:
    return {"actor": actor, "kind": kind, "reason": reason, "commands": commands, "session": session,
            "findings": [_finding_brief(f) for f in findings]}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _owners_line(rows: list[dict]) -> str:
    """``SYNCHRONIZER 5, AUDITOR 1``: error counts per owner."""
    return ", ".join(f"{r['owner']} {r['errors']}" for r in rows if r["errors"])


def _next(doc: dict, findings: list) -> dict:
    errors = [f for f in findings if f.severity == "error"]
    state = doc["state"]
    cycle, pending = doc["cycle"], doc["pending"]

    # 1. STATE.md cannot be read at all.
    if doc["unreadable"] and doc["unreadable"][0]["field"] == "STATE.md":
        u = doc["unreadable"][0]
        at = [f for f in errors if f.path == STATE_PATH]
        return _nxt(u["owner"] or USER, "fix-first",
                    "STATE.md is missing or unreadable: restore it from version control (or reinstall the "
                    "framework), then run `standards-lint status` again.", findings=at)
    # 2. A merge conflict: a workflow role stops and waits (Branches and merges).
    if doc["conflicted"]:
        at = [f for f in findings if f.code in CONFLICT_CODES]
        return _nxt(USER, "decide",
                    "The workflow files hold merge-conflict markers. Resolve the conflict by keeping exactly one "
                    "cycle (PROTOCOL.md, Branches and merges); a workflow role stops until then and never picks a "
                    "side.", findings=at)
    # 3. The state cannot be read: fix that first.
    if state is None:
        u = next((u for u in doc["unreadable"] if u["field"] == "WorkflowState"), None)
        what = u["text"] if u else "WorkflowState cannot be read"
        actor = (u or {}).get("owner") or USER
        at = [f for f in errors if u and f.path == STATE_PATH and f.line == u["line"]]
        return _nxt(actor, "fix-first",
                    f"{what}. Until it names one workflow state, no role can tell whose turn it is: "
                    f"{role_name(actor)} fixes it first.",
                    commands=_role_commands(actor, doc), findings=at)
    # 4. Problems no role can fix (a collision, a missing runtime file, ...).
    user_errors = [f for f in errors if (f.owner or USER) == USER]
    if user_errors:
        if any(f.code in CONFLICT_CODES for f in user_errors):
            what = ("a merge conflict: resolve it (PROTOCOL.md, Branches and merges); a workflow role never "
                    "resolves it by choosing a side")
        elif any(f.code in COLLISION_CODES for f in user_errors):
            what = ("a collision: leave the files unchanged and decide how to resolve it (PROTOCOL.md, Workflow "
                    "Artifact Provenance)")
        else:
            what = "each one's help says how to repair it"
        return _nxt(USER, "decide",
                    f"{_count(len(user_errors), 'error')} no role can fix: {what}. A workflow role stops and "
                    "reports such problems to you.", findings=user_errors)
    # 5. The cycle has ended.
    if state in ("SIGNED_OFF", "CANCELLED"):
        return _nxt(USER, "decide", _ended(doc, state))
    no_cycle = not _set(cycle["id"])
    # 6. A pending request (or its blocker) waits for the user.
    if no_cycle and _set(pending["blocked_on"]):
        return _nxt(USER, "decide", _pending_blocked(pending))
    if no_cycle and _set(pending["request"]):
        return _nxt(USER, "decide",
                    f"No cycle has started yet, and the pending request “{shorten(pending['request'])}” waits to "
                    f"start one. {_start_words(doc)} The saved request is used without restating it; you may also "
                    "revise or abandon it (user-decisions.md, Start a cycle).")
    # 7. An unanswered question.
    if _set(cycle["blocked_on"]):
        return _nxt(USER, "decide",
                    f"The workflow is blocked on your answer: “{shorten(cycle['blocked_on'], 200)}” "
                    f"(Active Work.BlockedOn). Answer it to {role_name(doc['owner'])}, who then continues.")
    # 8. Sign-off.
    if state == "AWAITING_USER_SIGNOFF":
        return _nxt(USER, "decide", _signoff(doc, errors))
    # 9. A plan awaiting approval.
    plan = doc["plan"]
    if state == "DEVELOPING" and plan and plan["status"] == "PROPOSED":
        return _nxt(USER, "decide",
                    f"The development plan ({plan['path']}) is PROPOSED: implementation is blocked on your "
                    "approval. Review it with the Developer and approve it or ask for changes.")
    # 10. The role that owns the state.
    role = doc["owner"]
    if role not in WORKFLOW_ROLES:  # pragma: no cover - every readable live state has a role
        return _nxt(USER, "decide", f"{state} names no role to invoke.")
    commands = _role_commands(role, doc)
    session = SESSION_PREFIX.get(role)
    mine = [f for f in errors if (f.owner or USER) == role]
    if no_cycle:
        reason = (f"No cycle has started yet: invoke {role_name(role)} with your first request "
                  f"({state} is {role_name(role)}'s state; user-decisions.md, Start a cycle).")
    else:
        reason = _resume_words(doc, role)
    others = [r for r in doc["problems"] if r["owner"] not in (role, USER) and r["errors"]]
    if others:
        n = sum(r["errors"] for r in others)
        reason += (f" {_count(n, 'error')} owned by other roles ({_owners_line(others)}): "
                   f"{role_name(role)} routes them through Failure Handoffs.")
    if mine:
        return _nxt(role, "fix-first",
                    f"{_cap(role_name(role))} owns {_count(len(mine), 'error')}: "
                    f"{'fix it' if len(mine) == 1 else 'fix them'} first (a forward handoff needs the completion "
                    "gate to pass). " + reason,
                    commands=commands, session=session, findings=mine)
    return _nxt(role, "invoke", reason, commands=commands, session=session)


def _role_commands(role: str, doc: dict) -> Optional[dict]:
    if role not in WORKFLOW_ROLES:
        return None
    if not _set(doc["cycle"]["id"]) and doc["state"] is not None:
        return invocation(role, text="<your request>")
    recovery = bool(doc["recovery"]["active"]) and bool(doc["recovery"]["frames"])
    kind = REVIEW_KINDS.get(doc["state"]) if doc["owner"] == role else None
    return invocation(role, recovery=recovery, review_kind=kind)


def _resume_words(doc: dict, role: str) -> str:
    state = doc["state"]
    kind = REVIEW_KINDS.get(state)
    work = f"the {kind} review" if kind else state
    rec = doc["recovery"]
    frames = rec["frames"] if rec["active"] else []
    if frames:
        top = frames[0]
        if top.get("owner") == state:
            return f"{_cap(role_name(role))} continues {work}, correcting {top['title']} of the recovery stack."
        back = f"work returns to {top['resume_at']}" if top.get("resume_at") else "where work returns cannot be read"
        rerun = f", rerunning through {top['rerun_through']}" if _set(top.get("rerun_through")) else ""
        return f"{_cap(role_name(role))} continues {work} while {top['title']} is open{rerun} ({back})."
    return f"{state} is {role_name(role)}'s state: {role_name(role)} continues {work}."


def _start_words(doc: dict) -> str:
    pm = doc["cycle"]["project_mode"]
    entry = {"GREENFIELD": "SCOPING (the Scoper)", "BROWNFIELD": "AUDITING (the Auditor)"}.get(pm or "", "its entry state")
    return f"A new cycle starts at {entry}, or DEVELOPING for an expedited cycle the Developer is asked for."


def _ended(doc: dict, state: str) -> str:
    pending = doc["pending"]
    if state == "SIGNED_OFF":
        text = "The cycle is signed off: nothing is active. "
        start = _start_words(doc)
    else:
        text = "The cycle is cancelled: nothing is active. "
        start = ("A new cycle from here starts at AUDITING with a BaselineReconciliation entry for the "
                 "cancelled cycle, so the Auditor establishes what it left, unless you confirm it left no "
                 "project changes.")
    text += "To start a new cycle, invoke a role with your new request (user-decisions.md, Start a cycle). " + start
    if _set(pending["blocked_on"]):
        text += " " + _pending_blocked(pending)
    elif _set(pending["request"]):
        text += f" The pending request “{shorten(pending['request'])}” is used without restating it."
    if _set(pending["mode"]):
        text += f" PendingCycleMode `{pending['mode']}` is the next cycle's mode preference."
    return text


def _pending_blocked(pending: dict) -> str:
    req = f" “{shorten(pending['request'])}”" if _set(pending["request"]) else ""
    return (f"The pending request{req} is blocked on your decision: “{shorten(pending['blocked_on'], 200)}” "
            "(PendingCycleBlockedOn). Choose a supported mode, replace or clear the preference, revise the "
            "request, or abandon it (user-decisions.md, Start a cycle).")


def _signoff(doc: dict, errors: list) -> str:
    cycle = doc["cycle"]
    actions = ["sign off", "rework", "cancel"]
    if cycle["mode"] == "EXPEDITED":
        actions.append("promote it to STANDARD")
    if cycle["completion_policy"] == "IMPLEMENTATION_REVIEWED":
        actions.append("withdraw IMPLEMENTATION_REVIEWED to resume the full workflow")
    text = "The cycle awaits your sign-off. You decide: " + ", ".join(actions[:-1]) + f" or {actions[-1]}."
    if errors:
        rows = [r for r in doc["problems"] if r["errors"]]
        text += (f" {_count(len(errors), 'error')} stand in the way of sign-off ({_owners_line(rows)}): rework "
                 "routes them to their owners; sign off only once they are fixed.")
    return text


# -- rendering ---------------------------------------------------------------------------------


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
        f" · project {_value(cyc['project_mode'])}")
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


# -- Markdown --------------------------------------------------------------------------------


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
    rows.append(("Mode", f"cycle {_md(cyc['mode'])} · completion policy {_md(cyc['completion_policy'])} · "
                         f"project {_md(cyc['project_mode'])}"))
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


# -- the command -----------------------------------------------------------------------------


USAGE = "standards-lint status [PATH] [--format text|json|markdown] [--color auto|always|never] [--no-git] [--config FILE] [--isolated]"


def main(argv: list) -> "tuple[int, str]":
    """``standards-lint status``: (exit status, output).  0 whatever the
    status shows; 2 on a usage error (a message on stderr)."""
    import argparse
    import sys

    p = argparse.ArgumentParser(
        prog="standards-lint status",
        description="Where the workflow stands, what blocks it, and the command that resumes it "
                    "(docs/status.md). Exit status 0 whatever it shows; 2 on a usage error.",
    )
    p.add_argument("path", nargs="?", default=".", help="project root or any folder inside it (default: .)")
    p.add_argument("--format", choices=FORMATS, default="text", help="text (default), json or markdown")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour text output: auto (a terminal, unless NO_COLOR is set), always or never")
    p.add_argument("--no-git", action="store_true", help="skip comparisons with the last commit")
    p.add_argument("--config", default=None, help="configuration file (standards-lint.toml or pyproject.toml)")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:  # argparse: 2 on a usage error, 0 on --help
        return int(exc.code or 0), ""
    from ..syntax.source import find_root

    root = find_root(args.path)
    if root is None:
        print(f"standards-lint status: no .standards/ folder at or above {args.path}", file=sys.stderr)
        return 2, ""
    from ..engine.config import ConfigError, load_config

    try:
        config = load_config(root, path=args.config, isolated=args.isolated)
    except ConfigError as exc:
        print(f"standards-lint status: {exc}", file=sys.stderr)
        return 2, ""
    from ..engine.run import lint, registry_for

    registry = registry_for(root, config.plugins)
    result = lint(root, use_git=not args.no_git, registry=registry, config=config)
    doc = status_of(result)
    color = False
    if args.format == "text":
        from ..output.formats import use_color

        color = use_color(args.color)
    return 0, render(doc, args.format, color=color)
