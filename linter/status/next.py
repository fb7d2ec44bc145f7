"""The next action of ``standards-lint status``: the one thing to do now
(``invoke`` the role that owns the state, with its Codex and Claude Code
commands; ``fix-first``; or ``decide``, for the user), decided from the
status document and the findings, and the words it is said in (roles,
invocations, the protocol's paths).  See :mod:`standards_lint.status.document`."""

from __future__ import annotations

from typing import Optional

STATE_PATH = ".standards/STATE.md"
MODE_PATH = ".standards/MODE.md"
USER = "USER"
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


def _set(value: Optional[str]) -> bool:
    """A field that says something: not missing, NONE or UNSET."""
    return value is not None and value.strip() not in ("", "NONE", "UNSET")


def shorten(text: Optional[str], width: int = REQUEST_WIDTH) -> Optional[str]:
    if text is None:
        return None
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1].rstrip() + "…"


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
