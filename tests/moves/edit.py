"""Workflow moves made on a project tree, the way an agent makes them.

Each move takes a tree (``{path: text}``) whose STATE.md is in the canonical
layout and returns the tree after the move, done right or with one typical
slip.  The edits are plain text edits on STATE.md (test input, not a reading
of it): a field's value replaced where it stands, the ``## Handoff`` and
``## Recovery`` sections written afresh in the template's layout.
"""

from __future__ import annotations

import re
from typing import Optional

STATE = ".standards/STATE.md"

ROUTES = {
    ("GREENFIELD", "STANDARD", "FULL_DELIVERABLE"): ["SCOPING", "ARCHITECTING", "AUDITING", "DEVELOPING", "TESTING",
                                                     "REVIEWING_IMPLEMENTATION", "DOCUMENTING", "REVIEWING_FINAL",
                                                     "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"],
    ("BROWNFIELD", "STANDARD", "FULL_DELIVERABLE"): ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING",
                                                     "REVIEWING_IMPLEMENTATION", "DOCUMENTING", "REVIEWING_FINAL",
                                                     "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"],
    ("GREENFIELD", "STANDARD", "IMPLEMENTATION_REVIEWED"): ["SCOPING", "ARCHITECTING", "AUDITING", "DEVELOPING",
                                                            "TESTING", "REVIEWING_IMPLEMENTATION",
                                                            "AWAITING_USER_SIGNOFF"],
    ("BROWNFIELD", "STANDARD", "IMPLEMENTATION_REVIEWED"): ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING",
                                                            "TESTING", "REVIEWING_IMPLEMENTATION",
                                                            "AWAITING_USER_SIGNOFF"],
    ("BROWNFIELD", "DOCUMENTATION", "NONE"): ["AUDITING", "SCOPING", "ARCHITECTING", "DOCUMENTING", "REVIEWING_FINAL",
                                              "SYNCHRONIZING", "AWAITING_USER_SIGNOFF"],
    ("BROWNFIELD", "EXPEDITED", "NONE"): ["DEVELOPING", "REVIEWING_IMPLEMENTATION", "AWAITING_USER_SIGNOFF"],
}

_PAIR = r"(`{name}`:\s*`)([^`]*)(`)"


def field(text: str, name: str) -> Optional[str]:
    m = re.search(_PAIR.format(name=re.escape(name)), text)
    return m.group(2) if m else None


def set_field(text: str, name: str, value: str) -> str:
    """Replace the value of the first ``name`` pair (it must be there)."""
    new, n = re.subn(_PAIR.format(name=re.escape(name)), lambda m: m.group(1) + value + m.group(3), text, count=1)
    assert n == 1, name
    return new


def sections(text: str) -> list[tuple[str, str]]:
    """``[(heading or "", body)]`` split at each ``## `` heading."""
    parts = re.split(r"(?m)^(?=## )", text)
    out = []
    for p in parts:
        head = p.split("\n", 1)[0] if p.startswith("## ") else ""
        out.append((head, p))
    return out


def section(text: str, title: str) -> str:
    for head, body in sections(text):
        if head.strip() == f"## {title}":
            return body
    raise KeyError(title)


def replace_section(text: str, title: str, body: str) -> str:
    out = []
    for head, old in sections(text):
        out.append(body if head.strip() == f"## {title}" else old)
    return "".join(out)


def frames(text: str) -> list[dict]:
    rec = section(text, "Recovery")
    out = []
    for chunk in re.split(r"(?m)^### Frame \d+[^\n]*\n", rec)[1:]:
        out.append({k: field(chunk, k) for k in ("From", "Owner", "FailureType", "Reason", "ResumeAt", "RerunThrough")})
    return out


def render_handoff(kind: str, frm: str, failure: str = "NONE", reason: str = "Handed on.") -> str:
    return (f"## Handoff\n\n`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `{failure}` `Reason`:\n"
            f"`{reason}`\n\n")


def render_recovery(active: bool, stack: list[dict]) -> str:
    out = [f"## Recovery\n\n`Active`: `{'true' if active else 'false'}`\n\n"]
    for i, f in enumerate(stack, 1):
        out.append(f"### Frame {i}\n\n`From`: `{f['From']}` `Owner`: `{f['Owner']}` `FailureType`: "
                   f"`{f['FailureType']}`\n`Reason`: `{f['Reason']}` `ResumeAt`: `{f['ResumeAt']}` "
                   f"`RerunThrough`: `{f['RerunThrough']}`\n\n")
    return "".join(out)


def project_mode(tree: dict) -> str:
    return field(tree.get(".standards/MODE.md", ""), "ProjectMode") or "BROWNFIELD"


def route(tree: dict) -> list[str]:
    st = tree[STATE]
    return ROUTES.get((project_mode(tree), field(st, "CycleMode"), field(st, "CompletionPolicy")), [])


def with_state(tree: dict, text: str) -> dict:
    new = dict(tree)
    new[STATE] = text
    return new


# -- the moves ----------------------------------------------------------------

def record_path(tree: dict, state: str) -> Optional[str]:
    """The interrupted Developer's plan or Tester's report."""
    st = tree[STATE]
    if state == "DEVELOPING":
        return field(st, "Development")
    if state == "TESTING":
        return f".standards/docs/verification/{field(st, 'Id')}.md"
    return None


def save_assignment(tree: dict, state: str, frame: int, reason: str) -> dict:
    """Append a ``### Suspended Assignment N`` for ``frame`` to the
    interrupted role's record (Plan Notes or Resume or Handoff)."""
    path = record_path(tree, state)
    if not path or path not in tree:
        return tree
    text = tree[path]
    title = "## Plan Notes" if state == "DEVELOPING" else "## Resume or Handoff"
    n = len(re.findall(r"(?m)^### Suspended Assignment \d+", text)) + 1
    # Developer's overall assignment; Tester's is the assessment its report names.
    purpose, target = "DEVELOPMENT", "NONE"
    if state == "TESTING":
        purpose = field(text, "Assessment Purpose") or "FULL"
        target = field(text, "Assessment Target") or "NONE"
    entry = (f"### Suspended Assignment {n}\n\n`Recovery Frame`: `{frame}` `Recovery Reason`: `{reason}`\n"
             f"`Purpose`: `{purpose}` `Target`: `{target}`\n`Assessed Inputs`: `current working tree`\n"
             f"`Next Action`: `reconcile changed inputs and continue`\n")
    if not re.search(rf"(?m)^{re.escape(title)}\s*$", text):
        text = text.rstrip("\n") + f"\n\n{title}\n\n" + entry
    else:
        parts = re.split(r"(?m)^(?=## )", text)
        for i, part in enumerate(parts):
            if part.split("\n", 1)[0].strip() == title:
                parts[i] = part.rstrip("\n") + "\n\n" + entry + ("\n" if i + 1 < len(parts) else "")
        text = "".join(parts)
    new = dict(tree)
    new[path] = text
    return new


def route_failure(tree: dict, failure: str, target: str, *, push: bool = True, active: Optional[bool] = None,
                  frame_failure: Optional[str] = None, owner: Optional[str] = None, save: bool = True) -> dict:
    """A failure found in the current state, routed to ``target``.

    Right: the handoff names it, a frame is pushed (From and ResumeAt the
    interrupted state, Owner the target) and recovery is active.  Slips: no
    frame (``push=False``), ``Active`` left as it was (``active=False``), the
    frame's FailureType or Owner other than the handoff's.
    """
    st = tree[STATE]
    here = field(st, "WorkflowState")
    stack = frames(st)
    if push:
        stack.append({"From": here, "Owner": owner or target, "FailureType": frame_failure or failure,
                      "Reason": "A defect found.", "ResumeAt": here, "RerunThrough": "NONE"})
    st = set_field(st, "WorkflowState", target)
    st = replace_section(st, "Handoff", render_handoff("FAILURE", here, failure, "A defect found."))
    st = replace_section(st, "Recovery", render_recovery(bool(stack) if active is None else active, stack))
    if push and save:
        tree = save_assignment(tree, here, len(stack), "A defect found.")
    return with_state(tree, st)


def resume(tree: dict, *, pop: str = "last", active: Optional[bool] = None, kind: str = "RESUME") -> dict:
    """The active frame's correction done with no rerun: pop it and return to
    its ``ResumeAt``.  Slips: ``pop="none"`` (the frame left on the stack),
    ``pop="first"`` (the oldest frame popped instead), ``active=True`` with
    the stack empty, ``kind="FORWARD"``."""
    st = tree[STATE]
    here = field(st, "WorkflowState")
    stack = frames(st)
    top = stack[-1]
    if pop == "last":
        stack = stack[:-1]
    elif pop == "first":
        stack = stack[1:]
    st = set_field(st, "WorkflowState", top["ResumeAt"])
    st = replace_section(st, "Handoff", render_handoff(kind, here, "NONE", "Correction done; resumed."))
    st = replace_section(st, "Recovery", render_recovery(bool(stack) if active is None else active, stack))
    return with_state(tree, st)


def forward(tree: dict, steps: int = 1, kind: str = "FORWARD") -> dict:
    """A normal forward handoff ``steps`` states along the cycle's route."""
    st = tree[STATE]
    here = field(st, "WorkflowState")
    r = route(tree)
    nxt = r[r.index(here) + steps]
    st = set_field(st, "WorkflowState", nxt)
    st = replace_section(st, "Handoff", render_handoff(kind, here, "NONE", "Gate passed."))
    return with_state(tree, st)


def block(tree: dict, question: str = "Which export format should be kept?") -> dict:
    return with_state(tree, set_field(tree[STATE], "BlockedOn", question))


def cancel(tree: dict, *, clear_recovery: bool = True, cycle_mode: str = "UNSET", cadence: str = "NONE") -> dict:
    """The user cancels the active cycle (brownfield)."""
    st = tree[STATE]
    here = field(st, "WorkflowState")
    st = set_field(st, "WorkflowState", "CANCELLED")
    st = set_field(st, "CycleMode", cycle_mode)
    st = set_field(st, "PendingVerificationCadence", cadence)
    st = replace_section(st, "Handoff", render_handoff("CANCEL", here, "NONE", "The user cancelled the cycle."))
    if clear_recovery:
        st = replace_section(st, "Recovery", render_recovery(False, []))
    return with_state(tree, st)


def sign_off(tree: dict, *, cycle_mode: str = "UNSET", kind: str = "SIGNOFF") -> dict:
    st = tree[STATE]
    st = set_field(st, "WorkflowState", "SIGNED_OFF")
    st = set_field(st, "CycleMode", cycle_mode)
    st = set_field(st, "PendingVerificationCadence", "NONE")
    st = replace_section(st, "Handoff", render_handoff(kind, "AWAITING_USER_SIGNOFF", "NONE", "The user signed off."))
    st = replace_section(st, "Recovery", render_recovery(False, []))
    return with_state(tree, st)


def new_cycle(tree: dict, cycle_id: str, *, mode: str = "STANDARD", policy: str = "FULL_DELIVERABLE",
              state: Optional[str] = None, kind: str = "NEW_CYCLE", baseline: Optional[str] = None,
              request: str = "Add an export button.") -> dict:
    """A new cycle started from a terminal state (``Start a cycle``)."""
    st = tree[STATE]
    here = field(st, "WorkflowState")
    if state is None:
        state = "SCOPING" if project_mode(tree) == "GREENFIELD" else "AUDITING"
    st = set_field(st, "WorkflowState", state)
    st = set_field(st, "CycleMode", mode)
    for name, value in (("Id", cycle_id), ("Request", request), ("Scope", "NONE"), ("Architecture", "NONE"),
                        ("Development", "NONE"), ("PromotionReason", "NONE"), ("AuditTarget", "NONE"),
                        ("BlockedOn", "NONE"), ("PendingVerificationCadence", "NONE"), ("CompletionPolicy", policy)):
        st = set_field(st, name, value)
    if baseline is not None:
        st = re.sub(r"`BaselineReconciliation`:\s*`NONE`", lambda m: baseline, st, count=1)
    st = replace_section(st, "Handoff", render_handoff(kind, here, "NONE", "A new cycle started."))
    st = replace_section(st, "Recovery", render_recovery(False, []))
    return with_state(tree, st)


RECORD_OF_STATE = {"SCOPING": "Scope", "ARCHITECTING": "Architecture", "DEVELOPING": "Development"}


def source_record(tree: dict, state: str) -> Optional[str]:
    """The path of the record the role of ``state`` finishes before it hands on."""
    st = tree[STATE]
    cid = field(st, "Id")
    if state in RECORD_OF_STATE:
        return field(st, RECORD_OF_STATE[state])
    return {"TESTING": f".standards/docs/verification/{cid}.md",
            "REVIEWING_IMPLEMENTATION": f".standards/docs/reviews/{cid}/implementation.md",
            "DOCUMENTING": f".standards/docs/documentation/{cid}.md",
            "REVIEWING_FINAL": f".standards/docs/reviews/{cid}/final-deliverable.md",
            "SYNCHRONIZING": f".standards/docs/synchronization/{cid}.md"}.get(state)


def complete_record(tree: dict, state: str) -> dict:
    """The role of ``state`` passes its full gate in its record: ``Status``
    COMPLETE; a plan's steps DONE and no current increment; a report's
    assessment FULL with no target."""
    path = source_record(tree, state)
    if not path or path not in tree:
        return tree
    text = tree[path]
    text = re.sub(r"(`Status`:\s*`)[^`]*(`)", lambda m: m.group(1) + ("COMPLETE") + m.group(2), text, count=1)
    if state == "DEVELOPING":
        text = re.sub(r"(`Status`:\s*`)(PENDING|IN_PROGRESS)(`)", lambda m: m.group(1) + "DONE" + m.group(3), text)
        text = re.sub(r"(`Current Increment`:\s*`)[^`]*(`)", lambda m: m.group(1) + "NONE" + m.group(2), text)
    if state == "TESTING":
        text = re.sub(r"(`Assessment Purpose`:\s*`)[^`]*(`)", lambda m: m.group(1) + "FULL" + m.group(2), text)
        text = re.sub(r"(`Assessment Target`:\s*`)[^`]*(`)", lambda m: m.group(1) + "NONE" + m.group(2), text)
    new = dict(tree)
    new[path] = text
    return new
