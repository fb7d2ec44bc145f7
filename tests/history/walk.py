"""A generator of histories: protocol moves made one commit at a time.

``Walk`` keeps the workflow's fields, writes STATE.md as the template shapes
it and commits each move.  Its moves are the protocol's (PROTOCOL.md,
Forward Transitions, Failure Handoffs, Recovery Mechanics; expedited.md,
Expedited Promotion and Outstanding Obligations; user-decisions.md); ``raw``
writes anything, for the illegal moves.
"""

from __future__ import annotations

import copy

from standards_lint.model.moves import Snapshot, next_state, route

from .gitrepo import Repo

MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n"
RUNTIME = {
    ".standards/PROTOCOL.md": "<!-- standards:framework-owned -->\n\n# S.T.A.N.D.A.R.D.S. Protocol\n",
    ".standards/VERSION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S.",\n  "version": "0.11.0"\n}\n',
    ".standards/INSTALLATION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S."\n}\n',
    ".standards/MODE.md": MODE,
}
OWNER = {"SCOPING": "Scoper", "ARCHITECTING": "Architect", "AUDITING": "Auditor", "DEVELOPING": "Developer",
         "TESTING": "Tester", "REVIEWING_IMPLEMENTATION": "Reviewer", "DOCUMENTING": "Documenter",
         "REVIEWING_FINAL": "Reviewer", "SYNCHRONIZING": "Synchronizer"}


def state_text(s: dict) -> str:
    frames = "".join(
        f"\n### Frame {i}\n\n`From`: `{f['From']}` `Owner`: `{f['Owner']}` `FailureType`: `{f['FailureType']}`\n"
        f"`Reason`: `{f['Reason']}` `ResumeAt`: `{f['ResumeAt']}` `RerunThrough`: `{f['RerunThrough']}`\n"
        for i, f in enumerate(s["frames"], 1))
    obls = "".join(
        f"\n### Obligation {i}\n\n`Owner`: `{o['Owner']}` `FailureType`: `{o['FailureType']}` `Reason`: `{o['Reason']}`\n"
        for i, o in enumerate(s["obligations"], 1))
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{s['state']}` `CycleMode`: `{s['mode']}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{s['policy']}` `Id`: `{s['id']}` `Request`: `{s['request']}` `Scope`: `{s.get('scope', 'NONE')}`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `{s['promotion']}`
`AuditTarget`: `NONE` `BlockedOn`: `{s['blocked']}` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{s['kind']}` `From`: `{s['from']}` `FailureType`: `{s['ft']}` `Reason`: `{s['reason']}`

## Recovery

`Active`: `{'true' if s['frames'] else 'false'}`
{frames}
## Outstanding Obligations

`Active`: `{'true' if s['obligations'] else 'false'}`
{obls}"""


INSTALLED = {"state": "AUDITING", "mode": "UNSET", "policy": "NONE", "id": "UNSET", "request": "UNSET",
             "promotion": "NONE", "blocked": "NONE", "kind": "INITIAL", "from": "NONE", "ft": "NONE",
             "reason": "Installed.", "frames": [], "obligations": []}


class Walk:
    def __init__(self, root, extra=None):
        self.repo = Repo(root)
        self.s = copy.deepcopy(INSTALLED)
        self.commits: list[tuple[str, str]] = []  # (label, sha)
        self._commit("install", "User", dict(RUNTIME, **(extra or {})))

    # -- plumbing
    def _commit(self, label: str, author: str, extra=None, remove=()) -> str:
        files = {".standards/STATE.md": state_text(self.s)}
        files.update(extra or {})
        sha = self.repo.commit(files, label, author=author, remove=remove)
        self.commits.append((label, sha))
        return sha

    def sha(self, label: str) -> str:
        return [s for lbl, s in self.commits if lbl == label][-1]

    def _snap(self) -> Snapshot:
        return Snapshot(self.s["id"], self.s["state"], self.s["mode"], self.s["policy"], "BROWNFIELD", "", "", "", "",
                        (), (), "")

    def _move(self, label, kind, to, ft="NONE", reason=None, author=None, **extra):
        author = author or OWNER.get(self.s["state"], "User")
        self.s.update(kind=kind, ft=ft, reason=reason or f"{kind} to {to}.")
        self.s["from"] = self.s["state"]
        self.s["state"] = to
        return self._commit(label, author, **extra)

    # -- the protocol's moves
    def start(self, cid, mode="STANDARD", label="start"):
        kind = "INITIAL" if self.s["id"] == "UNSET" else "NEW_CYCLE"
        frm = "NONE" if kind == "INITIAL" else self.s["state"]
        self.s.update(id=cid, mode=mode, request=f"Work for {cid[:8]}.", policy="FULL_DELIVERABLE" if mode == "STANDARD"
                      else "NONE", promotion="NONE", frames=[], obligations=[], blocked="NONE")
        to = "DEVELOPING" if mode == "EXPEDITED" else "AUDITING"
        self.s.update(kind=kind, ft="NONE", reason="A new cycle.", state=to)
        self.s["from"] = frm
        return self._commit(label, "User")

    def forward(self, label=None):
        to = next_state(self._snap(), self.s["state"])
        return self._move(label or f"forward-{to}", "FORWARD", to)

    def fail(self, ft, to, label=None, kind="FAILURE", reason=None):
        reason = reason or f"{ft} defect found in {self.s['state']}."
        if to != self.s["state"]:
            self.s["frames"].append({"From": self.s["state"], "Owner": to, "FailureType": ft, "Reason": reason,
                                     "ResumeAt": self.s["state"], "RerunThrough": "NONE"})
        return self._move(label or f"{kind.lower()}-{to}", kind, to, ft, reason,
                          author="User" if kind == "USER_REWORK" else None)

    def rerun(self, through, label=None):
        """The active frame's owner sets RerunThrough and goes forward to the earliest rerun state."""
        self.s["frames"][-1]["RerunThrough"] = through
        return self.forward(label or f"rerun-{through}")

    def resume(self, label=None):
        f = self.s["frames"].pop()
        return self._move(label or f"resume-{f['ResumeAt']}", "RESUME", f["ResumeAt"])

    def block(self, question, label="block"):
        self.s["blocked"] = question
        return self._commit(label, OWNER.get(self.s["state"], "User"))

    def unblock(self, label="unblock"):
        self.s["blocked"] = "NONE"
        return self._commit(label, "User")

    def promote(self, reason="Needs formal verification.", label="promote"):
        conv = [{"Owner": f["Owner"], "FailureType": f["FailureType"], "Reason": f["Reason"]}
                for f in self.s["frames"] if f["RerunThrough"] == "NONE"]
        self.s.update(mode="STANDARD", policy="FULL_DELIVERABLE", promotion=reason, frames=[],
                      obligations=self.s["obligations"] + conv)
        return self._move(label, "PROMOTE", "AUDITING", "NONE", reason)

    def clear_obligation(self, label="obligation-verified"):
        """The owner, in its owning state, verified the correction."""
        if not self.s["obligations"]:
            return None
        assert self.s["obligations"][0]["Owner"] == self.s["state"]
        self.s["obligations"].pop(0)
        return self._commit(label, OWNER[self.s["state"]])

    def signoff(self, label="signoff"):
        self.s.update(mode="UNSET", frames=[])
        return self._move(label, "SIGNOFF", "SIGNED_OFF", author="User")

    def cancel(self, label="cancel"):
        self.s.update(mode="UNSET", frames=[], obligations=[])
        return self._move(label, "CANCEL", "CANCELLED", author="User")

    def to_end(self, label=None):
        """Forward until AWAITING_USER_SIGNOFF."""
        while self.s["state"] != "AWAITING_USER_SIGNOFF":
            self.forward()

    def raw(self, label, author="Dev", extra=None, remove=(), **fields):
        """Write any change (for the illegal moves)."""
        self.s.update(fields)
        return self._commit(label, author, extra, remove)


def route_of(w: Walk):
    return route(w.s["mode"], w.s["policy"], "BROWNFIELD")
