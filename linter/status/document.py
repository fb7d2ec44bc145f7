"""``standards-lint status``: where the workflow stands, what blocks it, and
the command that resumes it.

    standards-lint status [PATH] [--format text|json|markdown]

Layer: the status package, above the outputs (docs/architecture.md).  This
module builds the document; the next action is :mod:`.next`, the renderings
:mod:`.render`, the command line :mod:`.command`.  It
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
from ..model.releases import release_selection

from .next import MODE_PATH, STATE_PATH, USER, _cap, _next, role_name, shorten

SCHEMA_VERSION = 1
FORMATS = ("text", "json", "markdown")
STATE_SECTIONS = ("Active Work", "Handoff", "Recovery", "Outstanding Obligations")
SEVERITIES = ("error", "warning", "info")
MAX_LISTED = 10


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
            # The project's release has no CompletionPolicy: the value is the
            # one it implies (model.releases), not read from STATE.md.
            "completion_policy_implied": "CompletionPolicy" in self.m.release.derived,
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
            # The framework release the project is checked by, and where
            # that came from (model.releases).
            "release": release_selection(self.m.project).as_json(),
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
