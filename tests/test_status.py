"""``standards-lint status``: where the workflow stands and the one next action.

The state-to-role table and the invocation wording are read from the
protocol's own text (``fixtures/protocol/PROTOCOL-excerpts.md``, copied from
PROTOCOL.md), never from standards_lint's tables."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from standards_lint.engine.run import lint, load_registry
from standards_lint.status.document import status, status_of
from standards_lint.status.render import mermaid, render

from .parity import harness
from .rules.conftest import CLEAN_STATE, RUNTIME, write_tree

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"
RECOVERY = ROOT / "fixtures" / "recovery"  # parity case suite-0098: DEVELOPING with two recovery frames
PROTOCOL = (ROOT / "fixtures" / "protocol" / "PROTOCOL-excerpts.md").read_text("utf-8")
BASE = "/dev/shm" if os.path.isdir("/dev/shm") else None
SCRIPT = shutil.which("standards-lint", path=os.path.dirname(sys.executable)) or shutil.which("standards-lint")


# -- the protocol's own text ------------------------------------------------------------------


def protocol_owners() -> dict[str, str]:
    """Workflow States: "The owning role for each state is:" table ->
    {state: ROLE, or USER for "User" / "User (terminal)"}."""
    table = PROTOCOL.split("The owning role for each state is:", 1)[1]
    owners = {}
    for line in table.splitlines():
        m = re.match(r"^\|\s*`([A-Z_]+)`\s*\|\s*(`([A-Z_]+)`|User[^|]*)\s*\|$", line.strip())
        if m:
            owners[m.group(1)] = m.group(3) or "USER"
        elif owners and not line.strip().startswith("|"):
            break
    return owners


def protocol_roles() -> list[str]:
    block = re.search(r"```text\nRole\n(.*?)```", PROTOCOL, re.S).group(1)
    return re.findall(r"^- ([A-Z]+)$", block, re.M)


def protocol_invocation(client: str) -> str:
    """The base invocation of Handoff Rules for *client* ("Codex" or
    "Claude Code"), with ``<skill>`` left in."""
    m = re.search(rf"^{re.escape(client)}:\s+(\S+<skill> .*)$", PROTOCOL, re.M)
    return m.group(1)


OWNERS = protocol_owners()
ROLES = protocol_roles()


def test_the_protocol_text_gives_every_state_an_owner():
    assert len(OWNERS) == 12
    assert OWNERS["DEVELOPING"] == "DEVELOPER" and OWNERS["REVIEWING_FINAL"] == "REVIEWER"
    assert {s for s, o in OWNERS.items() if o == "USER"} == {"AWAITING_USER_SIGNOFF", "SIGNED_OFF", "CANCELLED"}
    assert set(OWNERS.values()) - {"USER"} <= set(ROLES)


def _names_skill(commands: dict, role: str) -> bool:
    skill = role.lower()
    return commands["codex"].startswith(f"${skill} ") and commands["claude"].startswith(f"/{skill} ")


# -- every parity case ------------------------------------------------------------------------

REGISTRY = None
CONFLICT = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.M)


def _registry():
    global REGISTRY
    if REGISTRY is None:
        REGISTRY = load_registry()
    return REGISTRY


def status_problems(case: dict, result, tally) -> list[str]:
    """Problems with the status of one parity case, from the plain lint of
    its tree that the parity test already ran (empty: fine); *tally* counts
    which check the case met."""
    doc = status_of(result)
    data = json.loads(render(doc, "json"))
    render(doc, "text")
    render(doc, "markdown")
    cid = case["id"]
    nxt = data["next"]
    problems = []
    if nxt["actor"] not in ROLES + ["USER"] or nxt["kind"] not in ("invoke", "fix-first", "decide") or not nxt["reason"]:
        problems.append(f"{cid}: no next action: {nxt}")
    if nxt["actor"] != "USER" and nxt["commands"] is not None and not _names_skill(nxt["commands"], nxt["actor"]):
        problems.append(f"{cid}: the commands do not name {nxt['actor']}'s skill: {nxt['commands']}")
    state = data["state"]
    clean = (not case["expected"]["problems"]
             and not any(CONFLICT.search(text) for text in case["files"].values()))
    if not clean or state is None:
        return problems
    owner = OWNERS[state]
    tally[owner if owner == "USER" else "role state"] += 1
    if owner == "USER":
        if nxt["actor"] != "USER":
            problems.append(f"{cid}: {state} is the user's, but next names {nxt['actor']}")
        return problems
    user_errors = [p for p in data["problems"] if p["owner"] == "USER" and p["errors"]]
    if user_errors:  # e.g. a saved user style whose file is gone: "stop and ask the user" (User Styles)
        tally["no role can fix"] += 1
        if nxt["actor"] != "USER":
            problems.append(f"{cid}: an error no role can fix, but next names {nxt['actor']}")
        return problems
    pending = data["pending"]
    quiet = (data["cycle"]["blocked_on"] in ("NONE", None) and pending["request"] in ("UNSET", None)
             and pending["blocked_on"] in ("NONE", None))
    proposed = state == "DEVELOPING" and data["plan"] is not None and data["plan"]["status"] == "PROPOSED"
    if not quiet:
        if nxt["actor"] != "USER":
            problems.append(f"{cid}: a question or pending request waits, but next names {nxt['actor']}")
        return problems
    if proposed:
        if nxt["actor"] != "USER" or "PROPOSED" not in nxt["reason"]:
            problems.append(f"{cid}: the plan awaits approval, but next is {nxt['actor']}: {nxt['reason']}")
        return problems
    tally["the role"] += 1
    if nxt["actor"] != owner:
        problems.append(f"{cid}: {state} is {owner}'s, but next names {nxt['actor']}: {nxt['reason']}")
    elif not nxt["commands"] or not _names_skill(nxt["commands"], owner):
        problems.append(f"{cid}: the commands do not invoke {owner}: {nxt['commands']}")
    return problems


def _case_of(root: Path, expected_problems: list) -> dict:
    files = {}
    for p in root.rglob("*"):
        if p.is_file():
            files[p.relative_to(root).as_posix()] = p.read_text("utf-8")
    return {"id": root.name, "files": files, "expected": {"problems": expected_problems}}


def test_the_parity_check_reaches_the_role_and_the_user():
    """``status_problems`` runs on every parity case inside
    ``tests/parity/test_parity.py`` (one materialized tree, one lint).  Here:
    its checks are reached and can fail -- the recovery fixture is a clean
    DEVELOPING case (the role check), the demo awaits sign-off (the user's),
    and a wrong actor is reported."""
    from collections import Counter

    tally = Counter()
    rec = lint(str(RECOVERY), use_git=False, registry=_registry())
    assert status_problems(_case_of(RECOVERY, []), rec, tally) == []
    assert tally["the role"] == 1
    demo = lint(str(DEMO), use_git=False, registry=_registry())
    assert status_problems(_case_of(DEMO, []), demo, tally) == []
    assert tally["USER"] == 1
    # a clean DEVELOPING case whose next action named the user would be reported
    import standards_lint.status.document as st

    real = st.status_of

    def wrong(result):
        doc = real(result)
        doc["next"] = dict(doc["next"], actor="USER", commands=None)
        return doc

    try:
        globals()["status_of"] = wrong
        assert status_problems(_case_of(RECOVERY, []), rec, Counter())
    finally:
        globals()["status_of"] = real


# -- the demo and a project in recovery ---------------------------------------------------


@pytest.fixture(scope="module")
def demo():
    return status(str(DEMO), use_git=False)


@pytest.fixture(scope="module")
def recovery():
    return status(str(RECOVERY), use_git=False)


def test_demo_awaits_the_users_signoff(demo):
    assert demo["state"] == "AWAITING_USER_SIGNOFF" and demo["owner"] == "USER"
    assert [(r["state"], r["status"]) for r in demo["route"]] == [
        ("AUDITING", "passed"), ("SCOPING", "passed"), ("ARCHITECTING", "passed"), ("DOCUMENTING", "passed"),
        ("REVIEWING_FINAL", "passed"), ("SYNCHRONIZING", "passed"), ("AWAITING_USER_SIGNOFF", "current")]
    nxt = demo["next"]
    assert (nxt["actor"], nxt["kind"], nxt["commands"]) == ("USER", "decide", None)
    assert "sign-off" in nxt["reason"] and "sign off, rework or cancel" in nxt["reason"]
    # the errors in the way, with their owners
    assert "SYNCHRONIZER 5, AUDITOR 1" in nxt["reason"]
    sync = [r for r in demo["route"] if r["state"] == "SYNCHRONIZING"][0]["record"]
    assert sync["status"] == "IN_PROGRESS" and sync["required"] and sync["exists"]
    assert [e["request"] for e in demo["baseline"]["entries"]] == ["Change the cache.", "Again."]
    assert demo["recovery"] == {"active": True, "frames": []}
    assert demo["problems"][0]["owner"] == "SYNCHRONIZER" and demo["problems"][0]["errors"] == 5


def test_recovery_resumes_with_the_developer(recovery):
    assert recovery["state"] == "DEVELOPING"
    assert [(r["state"], r["status"]) for r in recovery["route"]][:5] == [
        ("AUDITING", "passed"), ("SCOPING", "passed"), ("ARCHITECTING", "passed"), ("DEVELOPING", "current"),
        ("TESTING", "remaining")]
    frames = recovery["recovery"]["frames"]
    assert [f["number"] for f in frames] == [2, 1]  # newest first
    assert (frames[0]["owner"], frames[0]["role"], frames[0]["resume_at"]) == ("DEVELOPING", "DEVELOPER", "TESTING")
    assert frames[0]["words"].startswith("Frame 2 (active): The Developer corrects the IMPLEMENTATION failure "
                                         "found in TESTING")
    assert "work returns to TESTING" in frames[0]["words"]
    nxt = recovery["next"]
    assert (nxt["actor"], nxt["kind"], nxt["session"]) == ("DEVELOPER", "invoke", None)
    # Handoff Rules: "replace 'active workflow' with 'active recovery' and
    # explicitly direct the role to read the active recovery frame".
    for client, key in (("Codex", "codex"), ("Claude Code", "claude")):
        base = protocol_invocation(client).replace("<skill>", "developer")
        expected = base.replace("active workflow", "active recovery").replace(
            "Read the persisted", "Read the active recovery frame, the persisted")
        assert nxt["commands"][key] == expected
    assert recovery["plan"]["steps_done"] == 1 and recovery["plan"]["steps_total"] == 2


def test_outside_recovery_the_invocation_is_the_protocols_word_for_word(tmp_path):
    state = CLEAN_STATE.replace("`Id`: `UNSET` `Request`: `UNSET`",
                                "`Id`: `add-search-20260101T000000Z-0123abcd` `Request`: `Add search.`")
    state = state.replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`").replace(
        "`CompletionPolicy`: `NONE`", "`CompletionPolicy`: `FULL_DELIVERABLE`")
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": state}))
    doc = status(str(tmp_path), use_git=False)
    assert doc["next"]["actor"] == "AUDITOR"
    for client, key in (("Codex", "codex"), ("Claude Code", "claude")):
        assert doc["next"]["commands"][key] == protocol_invocation(client).replace("<skill>", "auditor")


def _state(**changes) -> str:
    text = CLEAN_STATE.replace("`Id`: `UNSET` `Request`: `UNSET`",
                               "`Id`: `add-search-20260101T000000Z-0123abcd` `Request`: `Add search.`")
    text = text.replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`").replace(
        "`CompletionPolicy`: `NONE`", "`CompletionPolicy`: `FULL_DELIVERABLE`")
    for old, new in changes.items():
        text = text.replace(old, new)
    return text


def _status_of(tmp_path, state: str, **files) -> dict:
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": state}, **files))
    return status(str(tmp_path), use_git=False)


@pytest.mark.parametrize("state,role,kind", [
    ("REVIEWING_IMPLEMENTATION", "REVIEWER", "IMPLEMENTATION"),
    ("REVIEWING_FINAL", "REVIEWER", "FINAL_DELIVERABLE"),
])
def test_a_review_state_names_the_review_kind_and_a_fresh_session(tmp_path, state, role, kind):
    doc = _status_of(tmp_path, _state(**{"`AUDITING`": f"`{state}`"}))
    nxt = doc["next"]
    assert nxt["actor"] == role
    assert nxt["commands"]["codex"].endswith(f"Review kind: `{kind}`.")
    assert nxt["commands"]["claude"].startswith("/reviewer Continue the active workflow")
    # Independent Reviewer Session: the prefix, from the protocol's text
    assert nxt["session"] and nxt["session"] in " ".join(PROTOCOL.split())
    assert f"the {kind} review" in nxt["reason"]


def test_testing_names_the_independent_tester_session(tmp_path):
    nxt = _status_of(tmp_path, _state(**{"`AUDITING`": "`TESTING`"}))["next"]
    assert nxt["actor"] == "TESTER" and nxt["session"] in " ".join(PROTOCOL.split())
    assert "Review kind" not in nxt["commands"]["codex"]


def test_an_installed_project_waits_for_the_first_request(tmp_path):
    doc = _status_of(tmp_path, CLEAN_STATE)
    nxt = doc["next"]
    assert (nxt["actor"], nxt["kind"]) == ("AUDITOR", "invoke")
    assert nxt["commands"] == {"codex": "$auditor <your request>", "claude": "/auditor <your request>"}
    assert "first request" in nxt["reason"]


def test_blocked_on_an_answer_the_user_decides(tmp_path):
    doc = _status_of(tmp_path, _state(**{"`BlockedOn`: `NONE`": "`BlockedOn`: `Which database?`"}))
    assert (doc["next"]["actor"], doc["next"]["kind"]) == ("USER", "decide")
    assert "Which database?" in doc["next"]["reason"] and "the Auditor" in doc["next"]["reason"]


def test_ended_cycles_say_what_a_new_one_takes(tmp_path):
    doc = _status_of(tmp_path, _state(**{"`AUDITING`": "`CANCELLED`", "`CycleMode`: `STANDARD`": "`CycleMode`: `UNSET`",
                                         "`Kind`: `INITIAL` `From`: `NONE`": "`Kind`: `CANCEL` `From`: `DEVELOPING`"}))
    nxt = doc["next"]
    assert (nxt["actor"], nxt["kind"]) == ("USER", "decide")
    assert "cancelled" in nxt["reason"] and "BaselineReconciliation" in nxt["reason"]
    assert doc["route"][-1] == {"state": "CANCELLED", "status": "current", "owner": "USER", "record": None}


def test_a_pending_request_to_initialize_is_the_users(tmp_path):
    doc = _status_of(tmp_path, CLEAN_STATE.replace("`PendingCycleRequest`: `UNSET`",
                                                   "`PendingCycleRequest`: `Add search.`"))
    assert doc["next"]["actor"] == "USER" and "Add search." in doc["next"]["reason"]


def test_the_role_fixes_its_own_errors_first(tmp_path):
    # a DOCUMENTATION rework left at ARCHITECTING: the Architect's handoff is wrong (SL402)
    doc = _status_of(tmp_path, _state(**{
        "`AUDITING`": "`ARCHITECTING`", "`CycleMode`: `STANDARD`": "`CycleMode`: `DOCUMENTATION`",
        "`CompletionPolicy`: `FULL_DELIVERABLE`": "`CompletionPolicy`: `NONE`",
        "`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE`":
            "`Kind`: `USER_REWORK` `From`: `ARCHITECTING` `FailureType`: `DOCUMENTATION`"}))
    nxt = doc["next"]
    assert (nxt["actor"], nxt["kind"]) == ("ARCHITECT", "fix-first")
    assert "SL402" in [f["code"] for f in nxt["findings"]]
    assert all(f["owner"] == "ARCHITECT" and f["severity"] == "error" for f in nxt["findings"])
    assert nxt["commands"]["codex"].startswith("$architect Continue the active workflow")
    assert doc["problems"][0]["owner"] == "ARCHITECT"  # the current state's owner first
    # errors of other roles are routed, not fixed by the Architect
    others = [p["owner"] for p in doc["problems"][1:] if p["errors"]]
    assert others and f"{others[0]} " in nxt["reason"] and "Failure Handoffs" in nxt["reason"]


# -- what cannot be read ----------------------------------------------------------------------


def test_an_unreadable_state_is_said_with_its_code_and_fixed_first(tmp_path):
    doc = _status_of(tmp_path, _state(**{"`WorkflowState`: `AUDITING`": "`WorkflowState`: `<TESTING>`"}))
    assert doc["state"] is None and doc["owner"] is None
    u = [u for u in doc["unreadable"] if u["field"] == "WorkflowState"][0]
    assert u["text"].startswith("WorkflowState unreadable: `<TESTING>`") and u["text"].endswith("(SL203)")
    nxt = doc["next"]
    assert nxt["kind"] == "fix-first" and [f["code"] for f in nxt["findings"]] == ["SL203"]
    assert "WorkflowState unreadable: `<TESTING>`" in nxt["reason"]
    text = render(doc, "text")
    assert "Unreadable  WorkflowState unreadable: `<TESTING>`" in text
    assert all(r["status"] == "remaining" for r in doc["route"])


def test_a_missing_state_file_never_crashes(tmp_path):
    write_tree(tmp_path, {".standards/MODE.md": "# x\n"})
    doc = status(str(tmp_path), use_git=False)
    assert doc["state"] is None and doc["route"] == [] and doc["unreadable"][0]["field"] == "STATE.md"
    assert doc["next"]["actor"] == "USER" and doc["next"]["kind"] == "fix-first"
    for fmt in ("text", "json", "markdown"):
        assert render(doc, fmt)


def test_a_merge_conflict_is_the_users(tmp_path):
    state = _state(**{"## Handoff\n": "## Handoff\n\n<<<<<<< HEAD\n`Kind`: `INITIAL`\n=======\n`Kind`: `FORWARD`\n>>>>>>> other\n"})
    doc = _status_of(tmp_path, state)
    assert doc["conflicted"] and doc["next"]["actor"] == "USER" and "merge-conflict" in doc["next"]["reason"]
    assert "SL110" in [f["code"] for f in doc["next"]["findings"]]


def test_a_missing_section_is_said_once(tmp_path):
    state = _state()
    doc = _status_of(tmp_path, state[:state.index("## Handoff")] + state[state.index("## Recovery"):])
    assert [u["text"] for u in doc["unreadable"]] == ["## Handoff missing (SL201)"]
    assert doc["handoff"] == {"kind": None, "from": None, "failure_type": None, "reason": None}
    assert "Handoff     unreadable" in render(doc, "text")
    assert doc["next"]["kind"] == "fix-first" and "SL201" in [f["code"] for f in doc["next"]["findings"]]


def test_a_repeated_section_is_said_once(tmp_path):
    doc = _status_of(tmp_path, _state(**{"## Active Work\n": "## Active Work\n\n## Active Work\n"}))
    texts = [u["text"] for u in doc["unreadable"]]
    assert texts[0].startswith("## Active Work repeated (2 times")
    assert not any(t.startswith("Id ") for t in texts)


# -- formats ----------------------------------------------------------------------------------


def test_text_shows_the_route_line_records_and_next(demo, recovery):
    text = render(demo, "text")
    assert ("Route       ✓ AUDITING → ✓ SCOPING → ✓ ARCHITECTING → ✓ DOCUMENTING → ✓ REVIEWING_FINAL → "
            "✓ SYNCHRONIZING → ▶ AWAITING_USER_SIGNOFF") in text
    assert re.search(r"✓ SYNCHRONIZING +IN_PROGRESS +\.standards/docs/synchronization/", text)
    assert text.splitlines()[-1].startswith("Next        the user decides: ")
    rtext = render(recovery, "text")
    lines = rtext.splitlines()
    i = lines.index("Recovery    2 frames, newest first")
    assert lines[i + 1].lstrip().startswith("- Frame 2 (active)") and lines[i + 2].lstrip().startswith("- Frame 1:")
    assert "Plan        IN_PROGRESS · 1/2 steps done · cadence AFTER_IMPLEMENTATION" in rtext
    assert lines[-2].lstrip().startswith("Codex:       $developer Continue the active recovery")
    assert lines[-1].lstrip().startswith("Claude Code: /developer Continue the active recovery")


MERMAID_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def _check_mermaid(chart: str) -> None:
    """What GitHub's Mermaid needs of our charts: node ids without spaces,
    labels quoted, no stray quote inside a label."""
    lines = chart.splitlines()
    assert lines[0] == "flowchart LR"
    for line in lines[1:]:
        line = line.strip()
        if line.startswith("classDef "):
            continue
        node = re.fullmatch(r'([^\s\[]+)\["([^"]*)"\]:::(passed|current|remaining|offroute)', line)
        edge = re.fullmatch(r'(\S+) (-->|-\.->\|"[^"]*"\|) (\S+)', line)
        assert node or edge, line
        for ident in ((node.group(1),) if node else (edge.group(1), edge.group(3))):
            assert MERMAID_ID.match(ident) and ident.lower() != "end", ident


def test_markdown_has_a_table_and_a_valid_flowchart(demo, recovery):
    md = render(recovery, "markdown")
    assert "| **Next** | **DEVELOPER** (invoke the Developer): " in md
    chart = md.split("```mermaid\n", 1)[1].split("\n```", 1)[0]
    _check_mermaid(chart)
    assert '  DEVELOPING["▶ DEVELOPING"]:::current' in chart
    assert '  ARCHITECTING["✓ ARCHITECTING"]:::passed' in chart
    # each recovery frame: an arrow from its owner back to its resume-at state
    assert '  DEVELOPING -.->|"Frame 2: IMPLEMENTATION"| TESTING' in chart
    assert '  TESTING -.->|"Frame 1: VERIFICATION"| DEVELOPING' in chart
    _check_mermaid(mermaid(demo))


def test_a_frame_off_the_route_gets_its_own_node(tmp_path):
    state = _state(**{"`CycleMode`: `STANDARD`": "`CycleMode`: `EXPEDITED`", "`AUDITING`": "`DEVELOPING`",
                      "`CompletionPolicy`: `FULL_DELIVERABLE`": "`CompletionPolicy`: `NONE`",
                      "## Recovery\n\n`Active`: `false`": "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n"
                      "`From`: `SYNCHRONIZING` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n"
                      "`Reason`: `Say \"why\".` `ResumeAt`: `SYNCHRONIZING` `RerunThrough`: `NONE`"})
    chart = mermaid(_status_of(tmp_path, state))
    _check_mermaid(chart)
    assert '  SYNCHRONIZING["SYNCHRONIZING"]:::offroute' in chart
    assert '  DEVELOPING -.->|"Frame 1: IMPLEMENTATION"| SYNCHRONIZING' in chart


def test_json_keys_are_stable(demo):
    data = json.loads(render(demo, "json"))
    assert set(data) == {"version", "release", "state", "owner", "cycle", "pending", "route", "handoff", "recovery",
                         "obligations", "baseline", "plan", "conflicted", "unreadable", "problems", "next"}
    assert set(data["next"]) == {"actor", "kind", "reason", "commands", "session", "findings"}
    assert set(data["route"][0]) == {"state", "status", "owner", "record"}
    assert set(data["problems"][0]) == {"owner", "errors", "warnings", "info", "codes"}


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
@pytest.mark.parametrize("which", ["demo", "recovery"])
def test_snapshot(which, fmt, demo, recovery, snapshot):
    assert render({"demo": demo, "recovery": recovery}[which], fmt) == snapshot


# -- the command ------------------------------------------------------------------------------


def test_cli_exit_codes_in_process(tmp_path, capsys):
    from standards_lint.cli import main

    assert main(["status", str(DEMO), "--no-git", "--format", "json"]) == 0  # errors in the project: still 0
    assert json.loads(capsys.readouterr().out)["next"]["actor"] == "USER"
    assert main(["status", str(tmp_path)]) == 2  # no .standards/
    assert "no .standards/" in capsys.readouterr().err
    assert main(["status", "--format", "yaml"]) == 2


@pytest.mark.skipif(SCRIPT is None, reason="the standards-lint console script is not installed")
def test_console_script(tmp_path):
    run = lambda *a: subprocess.run([SCRIPT, "status", *a], capture_output=True, text=True, timeout=120)
    r = run(str(DEMO), "--no-git", "--format", "markdown")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("### S.T.A.N.D.A.R.D.S. workflow status") and "```mermaid" in r.stdout
    r = run(str(tmp_path))  # no .standards/ at or above: a usage error
    assert r.returncode == 2 and r.stdout == "" and "no .standards/" in r.stderr
    # a broken project: still 0, and it says what it cannot read
    write_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": CLEAN_STATE.replace("`AUDITING`", "`<TESTING>`")}))
    r = run(str(tmp_path), "--no-git")
    assert r.returncode == 0 and "WorkflowState unreadable: `<TESTING>`" in r.stdout and "(SL203)" in r.stdout
    r = run("--bogus")
    assert r.returncode == 2


def test_the_documented_examples_are_current(recovery):
    doc = (ROOT / "docs" / "status.md").read_text("utf-8")
    assert "```text\n" + render(recovery, "text") + "```" in doc
    assert "````markdown\n" + render(recovery, "markdown") + "````" in doc
    for part in ("recovery", "next"):
        assert json.dumps(recovery[part], indent=2, ensure_ascii=False).replace("\n", "\n  ") in doc
    ci = (ROOT / "docs" / "ci.md").read_text("utf-8")
    assert 'standards-lint status --format markdown >> "$GITHUB_STEP_SUMMARY"' in ci


@pytest.mark.skipif(SCRIPT is None, reason="the standards-lint console script is not installed")
def test_the_ci_invocation_from_the_project_folder():
    """Exactly what docs/ci.md and the GitHub Action run: no PATH, the
    current folder."""
    r = subprocess.run([SCRIPT, "status", "--format", "markdown"], cwd=RECOVERY, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "| **Next** | **DEVELOPER** (invoke the Developer): " in r.stdout


# -- Mermaid's own parser ---------------------------------------------------------------------

MERMAID_MODULES = [os.environ.get("MERMAID_MODULES", ""), str(ROOT / ".ci" / ".mermaid" / "node_modules")]


def _mermaid_modules():
    if shutil.which("node") is None:
        return None
    for p in MERMAID_MODULES:
        if p and os.path.isdir(os.path.join(p, "mermaid")) and os.path.isdir(os.path.join(p, "jsdom")):
            return p
    return None


@pytest.mark.skipif(_mermaid_modules() is None,
                    reason="Mermaid's parser (npm mermaid and jsdom, with node) is not installed; .ci/run installs it")
def test_flowcharts_parse_with_mermaid(tmp_path, demo, recovery):
    """The charts of the demo, the recovery fixture, a frame off the route and
    every 25th parity case parse with Mermaid's own parser."""
    charts = {"demo": mermaid(demo), "recovery": mermaid(recovery)}
    off = _state(**{"`CycleMode`: `STANDARD`": "`CycleMode`: `EXPEDITED`", "`AUDITING`": "`DEVELOPING`",
                    "## Recovery\n\n`Active`: `false`": "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n"
                    "`From`: `SYNCHRONIZING` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n"
                    "`Reason`: `x` `ResumeAt`: `SYNCHRONIZING` `RerunThrough`: `NONE`"})
    charts["offroute"] = mermaid(_status_of(tmp_path / "off", off))
    for i, case in enumerate(harness.iter_cases()):
        if i % 25:
            continue
        root = harness.materialize(case, BASE)
        try:
            doc = status_of(lint(str(root), registry=_registry()))
        finally:
            shutil.rmtree(root, ignore_errors=True)
        if doc["route"]:
            charts[case["id"]] = mermaid(doc)
    files = []
    for name, chart in charts.items():
        p = tmp_path / f"{name}.mmd"
        p.write_text(chart, encoding="utf-8")
        files.append(str(p))
    proc = subprocess.run(["node", str(ROOT / "tests" / "mermaid_parse.mjs"), *files], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, MERMAID_MODULES=_mermaid_modules()))
    assert proc.returncode == 0 and f"checked {len(files)} bad 0" in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]
