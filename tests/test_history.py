"""standards-lint history: made histories (legal, and each with one illegal
move), the real corpus history, bad input.  Every repository is a real git
repository built by the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from standards_lint.engine.run import lint
from standards_lint.history import run_history

from .history import corpus
from .history.walk import INSTALLED, Walk, state_text

C1 = "add-search-20261001T100000Z-aaaaaaaa"
C2 = "document-search-20261002T100000Z-bbbbbbbb"
C3 = "quick-fix-20261003T100000Z-cccccccc"
C4 = "next-work-20261004T100000Z-dddddddd"
SCOPE1 = f".standards/docs/scope/{C1}.md"
SCOPE_TEXT = f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {C1}\n-->\n\n# Scope\n\n- `AC-001`: Search by name.\n"


def legal(w: Walk, *, until: str | None = None, mutate=None):
    """A legal history of four cycles; *mutate(w, label)* may replace the
    move labelled *label* (it returns True when it did)."""

    def step(label, fn, *a, **k):
        if mutate is not None and mutate(w, label):
            return
        fn(*a, label=label, **k)

    # cycle 1, STANDARD brownfield: forward, failure with a nested rework and a rerun, block, sign-off
    step("start-1", w.start, C1)
    step("to-scoping", w.forward)
    w.repo.commit({SCOPE1: SCOPE_TEXT}, "scope record", author="Scoper")
    w.commits.append(("scope-record", w.repo.shas[-1]))
    step("to-architecting", w.forward)
    step("to-developing", w.forward)
    step("block", w.block, "Which index should search use?")
    step("unblock", w.unblock)
    step("to-testing", w.forward)
    step("fail-architecture", w.fail, "ARCHITECTURE", "ARCHITECTING")
    step("rework-scoping", w.fail, "SCOPING", "SCOPING", kind="USER_REWORK")
    step("resume-architecting", w.resume)
    step("rerun-developing", w.rerun, "DEVELOPING")
    step("resume-testing", w.resume)
    step("same-state-failure", w.fail, "VERIFICATION", "TESTING")
    step("checkpoint", lambda label: w._move(label, "CHECKPOINT", "DEVELOPING", reason="Increment 1 assessed."))
    step("checkpoint-back", lambda label: w._move(label, "CHECKPOINT", "TESTING", reason="Increment 2 ready."))
    for label in ("to-review", "to-documenting", "to-final", "to-sync", "to-signoff"):
        step(label, w.forward)
    step("signoff-1", w.signoff)
    # cycle 2, DOCUMENTATION: forward to sign-off, then cancel
    step("start-2", w.start, C2, "DOCUMENTATION")
    for label in ("d-scoping", "d-architecting", "d-documenting"):
        step(label, w.forward)
    step("cancel-2", w.cancel)
    # cycle 3, EXPEDITED: a review failure, promotion with an obligation, the standard route
    step("start-3", w.start, C3, "EXPEDITED")
    step("e-review", w.forward)
    step("e-fail", w.fail, "IMPLEMENTATION", "DEVELOPING")
    step("promote", w.promote)
    for label in ("p-scoping", "p-architecting", "p-developing"):
        step(label, w.forward)
    step("obligation-verified", w.clear_obligation)
    step("p-testing", w.forward)
    step("signoff-3-ready", w.to_end)
    step("signoff-3", w.signoff)
    # cycle 4 starts
    step("start-4", w.start, C4)


def findings(root, *args, **kw):
    return run_history(str(root), all_history=True, **kw).findings


def test_a_legal_history_has_no_finding_and_each_tree_is_lint_clean(tmp_path):
    w = Walk(tmp_path)
    legal(w)
    assert findings(tmp_path) == []
    # the moves are realistic: every STATE.md version is clean for the STATE.md,
    # handoff and recovery rules of the plain lint (records are not made here)
    for label, sha in w.commits:
        text = subprocess.run(["git", "show", f"{sha}:.standards/STATE.md"], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout
        got = [f for f in lint(str(tmp_path), overlay={".standards/STATE.md": text}, use_git=False).findings
               if f.code[:3] in ("SL2", "SL4", "SL5") and f.path == ".standards/STATE.md"]
        assert got == [], (label, [(f.code, f.message) for f in got])


def _one(w: Walk, label: str, fn):
    """Replace the move *label* with *fn(w)*, once."""

    def mutate(walk, lbl):
        if lbl == label:
            fn(walk)
            return True
        return False

    return mutate


def _forged_from(w: Walk):
    """DEVELOPING -> TESTING, the handoff recording `From`: `ARCHITECTING`."""
    w.s.update(kind="FORWARD", ft="NONE", reason="Forward.", state="TESTING")
    w.s["from"] = "ARCHITECTING"
    w._commit("illegal", "Developer")


def _unexplained_squash(w: Walk):
    """SCOPING -> TESTING, recorded as a FORWARD from ARCHITECTING: no legal
    sequence ends there (ARCHITECTING leads to DEVELOPING)."""
    w.s.update(kind="FORWARD", ft="NONE", reason="Forward.", state="TESTING")
    w.s["from"] = "ARCHITECTING"
    w._commit("illegal", "Scoper")


def _vanished_frame(w: Walk):
    """The nested rework frame disappears in a commit of its own, then the
    owner goes forward."""
    w.s["frames"].pop()
    w._commit("illegal", "Scoper")
    w._move("resume-architecting", "FORWARD", "ARCHITECTING")


def _dropped_obligation(w: Walk):
    """The obligation (owner DEVELOPING) is gone in SCOPING."""
    w.s.update(obligations=[])
    w._move("illegal", "FORWARD", "SCOPING")


def _edited_finished_record(w: Walk):
    """Cycle 1's scope changes during cycle 2."""
    w.forward("d-scoping")
    w.raw("illegal", extra={SCOPE1: SCOPE_TEXT + "- `AC-002`: More.\n"})


# case: (the legal move replaced, the one finding expected, the replacement)
ILLEGAL = {
    "skipped-step": ("to-architecting", "SL1001", lambda w: w._move("illegal", "FORWARD", "DEVELOPING")),
    "forged-from": ("to-testing", "SL1002", _forged_from),
    "vanished-frame": ("resume-architecting", "SL1010", _vanished_frame),
    "dropped-obligation": ("p-scoping", "SL1012", _dropped_obligation),
    "unexplained-squash": ("to-architecting", "SL1004", _unexplained_squash),
    "reused-id": ("start-4", "SL1022", lambda w: w.start(C1, label="illegal")),  # cycle 4 takes cycle 1's ID
    "edited-finished-record": ("d-scoping", "SL1021", _edited_finished_record),
}


@pytest.mark.parametrize("case", sorted(ILLEGAL))
def test_one_illegal_move_gives_exactly_that_finding_at_that_commit(tmp_path, case):
    label, code, fn = ILLEGAL[case]
    w = Walk(tmp_path)
    legal(w, mutate=_one(w, label, fn))
    got = findings(tmp_path)
    assert [(f["code"], f["commit"]) for f in got] == [(code, w.sha("illegal"))], got
    f = got[0]
    assert f["before_commit"] != f["commit"] and f["line"] >= 1
    assert f["before_commit"][:10] in f["message"] and f["commit"][:10] in f["message"]


# -- acceptance IDs across versions ----------------------------------------------

def _scope(current: str, retired: str = "") -> str:
    text = f"<!-- STANDARDS\nArtifact: SCOPE\nCycle: {C1}\n-->\n\n# Scope\n\n## Acceptance Conditions\n\n{current}"
    return text + (f"\n## Retired Acceptance Identifiers\n\n{retired}" if retired else "")


def _acceptance_history(w: Walk, third: str | None = None):
    """A cycle whose scope retires AC-002 and adds AC-003 (legal), then, as
    its third scope version (labelled ``third``), *third*."""
    w.start(C1)
    w.forward()  # SCOPING
    w.s["scope"] = SCOPE1
    w.raw("scope", "Scoper", extra={SCOPE1: _scope("- `AC-001`: Search by name.\n- `AC-002`: Search by tag.\n")})
    w.forward()  # ARCHITECTING
    w.raw("replan", "Scoper", extra={SCOPE1: _scope("- `AC-001`: Search by name.\n- `AC-003`: Search by date.\n",
                                                    "- `AC-002`: Search by tag (dropped).\n")})
    w.raw("third", "Scoper", extra={SCOPE1: third or _scope(
        "- `AC-001`: Find by name.\n- `AC-003`: Search by date.\n- `AC-004`: Sort.\n",
        "- `AC-002`: Search by tag (dropped).\n")})
    w.forward()  # DEVELOPING


def test_acceptance_ids_kept_retired_and_added_is_clean(tmp_path):
    w = Walk(tmp_path)
    _acceptance_history(w)
    result = run_history(str(tmp_path), all_history=True)
    assert result.findings == []
    # the scope was read and compared wherever both versions name it and it changed
    compared = [c.after.version.commit.sha for c in result.checked if c.move.scopes() is not None]
    assert compared == [w.sha("replan"), w.sha("third")]


@pytest.mark.parametrize("code,third,ac", [
    # AC-003 (current) is gone, neither current nor retired
    ("SL1031", _scope("- `AC-001`: Search by name.\n", "- `AC-002`: Search by tag (dropped).\n"), "AC-003"),
    # AC-002 (retired) is gone from the retired list
    ("SL1031", _scope("- `AC-001`: Search by name.\n- `AC-003`: Search by date.\n"), "AC-002"),
    # AC-002 (retired) is defined again as a current condition
    ("SL1032", _scope("- `AC-001`: Search by name.\n- `AC-002`: Search by colour.\n- `AC-003`: Search by date.\n"),
     "AC-002"),
])
def test_an_acceptance_id_vanished_or_reused_is_that_finding_at_that_commit(tmp_path, code, third, ac):
    w = Walk(tmp_path)
    _acceptance_history(w, third)
    got = findings(tmp_path)
    assert [(f["code"], f["commit"], f["path"]) for f in got] == [(code, w.sha("third"), SCOPE1)], got
    assert f"`{ac}`" in got[0]["message"] and got[0]["owner"] == "SCOPER"
    if code == "SL1032":
        text = (tmp_path / SCOPE1).read_text(encoding="utf-8").splitlines()
        assert ac in text[got[0]["line"] - 1]


def test_a_squash_of_legal_moves_is_a_note_listing_the_sequence(tmp_path):
    """The Scoper's gate passed inside the squash shows in the later tree:
    the scope persisted in `Active Work.Scope` (Active Work: "Scoper,
    Architect, and Developer must persist their artifact path before their
    normal completion gate passes")."""
    w = Walk(tmp_path)
    w.start(C1)
    w.s.update(state="ARCHITECTING", kind="FORWARD", ft="NONE", reason="Squashed.", scope=SCOPE1)
    w.s["from"] = "SCOPING"
    sha = w._commit("squash", "Architect", extra={SCOPE1: SCOPE_TEXT})
    got = findings(tmp_path)
    assert [(f["code"], f["severity"], f["commit"]) for f in got] == [("SL1003", "info", sha)]
    assert "FORWARD AUDITING -> SCOPING, FORWARD SCOPING -> ARCHITECTING" in got[0]["message"]


def test_a_squash_over_a_gate_the_tree_does_not_show_is_unexplained(tmp_path):
    """The same squash with the scope written but never persisted in
    `Active Work.Scope`: the Scoper never passed its gate, so no legal
    sequence explains the commit (Handoff Rules, 1)."""
    w = Walk(tmp_path)
    w.start(C1)
    w.s.update(state="ARCHITECTING", kind="FORWARD", ft="NONE", reason="Squashed.")
    w.s["from"] = "SCOPING"
    sha = w._commit("squash", "Architect", extra={SCOPE1: SCOPE_TEXT})
    got = findings(tmp_path)
    assert [(f["code"], f["commit"]) for f in got] == [("SL1004", sha)]
    assert "`SCOPING` was left with `FORWARD`, but `Active Work.Scope` is `NONE`" in got[0]["message"]


def test_the_story_of_a_made_history(tmp_path):
    from standards_lint.history import story

    w = Walk(tmp_path)
    legal(w)
    data = story.build(run_history(str(tmp_path), all_history=True))
    cycles = {c["id"]: c for c in data["cycles"]}
    c1 = cycles[C1]
    assert [s["state"] for s in c1["states"]][:4] == ["AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING"]
    assert c1["finished"]["state"] == "SIGNED_OFF" and c1["finished"]["commit"] == w.sha("signoff-1")
    arch = next(f for f in c1["failures"] if f["failure_type"] == "ARCHITECTURE")
    assert (arch["found_by"], arch["corrected_by"], arch["from"]) == ("TESTER", "ARCHITECT", "TESTING")
    assert arch["returned_commit"] == w.sha("resume-testing") and arch["seconds_to_return"] == 4 * 3600
    assert arch["rerun"] == ["DEVELOPING"]
    rework = c1["user_rework"][0]
    assert (rework["failure_type"], rework["found_by"], rework["returned_commit"]) == (
        "SCOPING", "USER", w.sha("resume-architecting"))
    assert c1["blocks"][0]["question"] == "Which index should search use?" and c1["blocks"][0]["seconds"] == 3600
    assert cycles[C2]["finished"]["state"] == "CANCELLED"
    c3 = cycles[C3]
    assert c3["promotions"][0]["from"] == "DEVELOPING"
    assert c3["mode"] == "STANDARD"
    assert c1["moves"] == len(c1["states"])  # one entry per move, the INITIAL one first
    assert c1["commits"] == sum(1 for lbl, _ in w.commits[1:w.commits.index(("signoff-1", w.sha("signoff-1"))) + 1])


# -- the real history ----------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_repo(tmp_path_factory):
    if not corpus.CORPUS.is_dir():
        pytest.skip("the corpus is not here")
    root = tmp_path_factory.mktemp("corpus")
    repo, shas = corpus.build(root)
    return root, shas


def test_the_corpus_history_findings_are_the_argued_ones(corpus_repo):
    root, shas = corpus_repo
    got = findings(root)
    errors = [(f["code"], f["commit"]) for f in got if f["severity"] != "info"]
    # f541139e -> 4fb23fe6: Tester's frame (REVIEWING_FINAL -> TESTING, ResumeAt
    # REVIEWING_FINAL) disappears while Documenter's IMPLEMENTATION failure pushes
    # a new frame: "Never overwrite older frames" (Recovery Mechanics, 2).
    assert errors == [("SL1010", shas["4fb23fe6"])]
    notes = {(f["before_commit"], f["commit"]) for f in got if f["code"] == "SL1003"}
    assert (shas["2ba43c0e"], shas["d0885867"]) in notes  # sign-off, new cycle, forward in one commit
    assert len(notes) == 12


def test_the_corpus_story_matches_the_files(corpus_repo):
    from standards_lint.history import story

    root, shas = corpus_repo
    data = story.build(run_history(str(root), all_history=True))
    ids = [c["id"] for c in data["cycles"]]
    assert [i.split("-")[-2] for i in ids] == ["20261001T162834Z", "20261008T004926Z", "20261008T145135Z"]
    c1, c2, c3 = data["cycles"]
    assert c1["commits"] == 28 and c2["commits"] == 5 and c3["commits"] == 6
    assert c1["finished"]["state"] == "SIGNED_OFF" and c1["finished"]["commit"] == shas["89c9f4c3"]
    assert [s["state"] for s in c2["states"]] == ["AUDITING", "SCOPING", "ARCHITECTING", "DOCUMENTING",
                                                  "REVIEWING_FINAL", "SYNCHRONIZING", "AWAITING_USER_SIGNOFF",
                                                  "SIGNED_OFF"]  # signed off in the commit starting cycle 3
    types = [(f["kind"], f["failure_type"], f["from"], f["to"]) for f in c1["failures"] + c1["user_rework"]]
    # the frames the files hold, each pushed where the files first show it
    assert ("FAILURE", "IMPLEMENTATION", "REVIEWING_FINAL", "DEVELOPING") in types
    assert ("USER_REWORK", "SCOPING", "AWAITING_USER_SIGNOFF", "SCOPING") in types
    assert ("USER_REWORK", "ARCHITECTURE", "AWAITING_USER_SIGNOFF", "ARCHITECTING") in types
    assert ("FAILURE", "VERIFICATION", "REVIEWING_FINAL", "TESTING") in types
    blocks = [b["question"] for b in c1["blocks"]]
    assert len(blocks) == 6 and blocks[0].startswith("Await user continuation for DEV-004")
    # the default range is the active cycle
    only = story.build(run_history(str(root)))
    assert [c["id"] for c in only["cycles"]] == [c3["id"]]


# -- bad input -----------------------------------------------------------------

def _cli(*args, cwd=None):
    exe = Path(sys.executable).with_name("standards-lint")
    return subprocess.run([str(exe), "history", *args], capture_output=True, text=True, cwd=cwd)


def test_not_a_repository(tmp_path):
    (tmp_path / ".standards").mkdir()
    (tmp_path / ".standards" / "STATE.md").write_text(state_text(INSTALLED), encoding="utf-8")
    r = _cli(str(tmp_path))
    assert r.returncode == 2 and "not inside a git repository" in r.stderr and "Traceback" not in r.stderr


def test_since_naming_no_commit(tmp_path):
    w = Walk(tmp_path)
    w.start(C1)
    r = _cli(str(tmp_path), "--since", "no-such-rev")
    assert r.returncode == 2 and "--since 'no-such-rev' names no commit" in r.stderr


def test_an_unreadable_state_at_some_commit_is_a_finding(tmp_path):
    w = Walk(tmp_path)
    w.start(C1)
    w.forward()
    bad = w.repo.commit({".standards/STATE.md": "# broken\n\n`WorkflowState`: `SCOPNG`\n"}, "broken")
    w.s["state"] = "SCOPING"
    w.forward()
    r = _cli(str(tmp_path), "--all", "--format", "json")
    assert r.returncode == 0, r.stderr
    got = [(f["code"], f["commit"]) for f in json.loads(r.stdout)["findings"]]
    assert got == [("SL1009", bad)]


def test_a_history_with_merges(tmp_path):
    w = Walk(tmp_path)
    w.start(C1)
    w.repo.git("checkout", "-q", "-b", "side")
    w.forward()
    w.repo.git("checkout", "-q", "main")
    w.repo.commit({"README.md": "hello\n"}, "unrelated")
    w.repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
    r = _cli(str(tmp_path), "--all", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["findings"] == [] and any("merge commits" in x for x in data["warnings"])
    assert [s["state"] for s in data["cycles"][0]["states"]] == ["AUDITING", "SCOPING"]


def test_a_shallow_clone(tmp_path):
    w = Walk(tmp_path / "origin")
    w.start(C1)
    w.forward()
    w.forward()
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{tmp_path / 'origin'}", str(tmp_path / "c")],
                   check=True, capture_output=True)
    r = _cli(str(tmp_path / "c"), "--all")
    assert r.returncode == 0, r.stderr
    assert "shallow clone" in r.stdout and "Traceback" not in r.stderr


def test_cli_formats_and_exit_status(tmp_path):
    w = Walk(tmp_path)
    w.start(C1)
    w.forward()
    w._move("skip", "FORWARD", "DEVELOPING")
    text = _cli(str(tmp_path))
    assert text.returncode == 1 and "SL1001" in text.stdout and "Cycle add-search" in text.stdout
    md = _cli(str(tmp_path), "--format", "markdown")
    assert md.returncode == 1 and "```mermaid\ngantt" in md.stdout
    js = json.loads(_cli(str(tmp_path), "--format", "json").stdout)
    assert js["schema"] == 1 and js["findings"][0]["code"] == "SL1001"
    since = json.loads(_cli(str(tmp_path), "--since", "HEAD~1", "--format", "json").stdout)
    assert [f["code"] for f in since["findings"]] == ["SL1001"]
    assert json.loads(_cli(str(tmp_path), "--since", "HEAD", "--format", "json").stdout)["findings"] == []


def test_the_working_tree_is_the_newest_version(tmp_path):
    w = Walk(tmp_path)
    w.start(C1)
    s = dict(w.s, state="DEVELOPING", kind="FORWARD", reason="Skip.")
    s["from"] = "AUDITING"
    (tmp_path / ".standards" / "STATE.md").write_text(state_text(s), encoding="utf-8")
    got = run_history(str(tmp_path)).findings
    assert [(f["code"], f["commit"]) for f in got] == [("SL1001", "WORKTREE")]
    assert run_history(str(tmp_path), worktree=False).findings == []


# -- the Mermaid of --format markdown ------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
MERMAID_MODULES = [os.environ.get("MERMAID_MODULES", ""), str(ROOT / ".ci" / ".mermaid" / "node_modules")]


def _mermaid_modules():
    if shutil.which("node") is None:
        return None
    for p in MERMAID_MODULES:
        if p and os.path.isdir(os.path.join(p, "mermaid")) and os.path.isdir(os.path.join(p, "jsdom")):
            return p
    return None


def _charts(markdown: str) -> list:
    return [block.split("\n```", 1)[0] for block in markdown.split("```mermaid\n")[1:]]


def _expected_tasks(cycle: dict) -> list:
    """The gantt tasks a cycle's story should draw: one per dated move, from
    its commit's date to the next one's (at least a minute), failures and
    user rework marked critical."""
    from datetime import datetime, timedelta, timezone

    dated = [s for s in cycle["states"] if s["date"]]
    starts = [datetime.fromisoformat(s["date"]).astimezone(timezone.utc) for s in dated]
    out = []
    for i, s in enumerate(dated):
        end = starts[i + 1] if i + 1 < len(starts) else starts[i]
        seconds = max(int((end - starts[i]).total_seconds()), 60)
        out.append({"task": f"{s['state']} ({s['kind']})", "id": f"s{i}",
                    "start": starts[i].strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                    "end": (starts[i] + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                    "crit": s["kind"] in ("FAILURE", "USER_REWORK")})
    return out


@pytest.mark.skipif(_mermaid_modules() is None,
                    reason="Mermaid's parser (npm mermaid and jsdom, with node) is not installed; .ci/run installs it")
def test_history_markdown_charts_parse_with_mermaid(tmp_path, request):
    """Every gantt of `history --format markdown` (the made history's four
    cycles and an uncommitted move; the corpus's three cycles, when the corpus
    is here) parses with
    Mermaid's own parser, and Mermaid reads from it the route as walked: one
    task per move, with the story's dates, failures marked."""
    w = Walk(tmp_path / "made")
    legal(w)
    (tmp_path / "made" / ".standards" / "STATE.md").write_text(state_text(dict(w.s, reason="Uncommitted.")),
                                                             encoding="utf-8")
    roots = [tmp_path / "made"] + ([request.getfixturevalue("corpus_repo")[0]] if corpus.CORPUS.is_dir() else [])
    charts, expected = [], []
    for root in roots:
        r = _cli(str(root), "--all", "--format", "markdown")
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
        charts += _charts(r.stdout)
        data = json.loads(_cli(str(root), "--all", "--format", "json").stdout)
        expected += [(c["id"], _expected_tasks(c)) for c in data["cycles"]]
    assert len(charts) == len(expected) == 4 + 3 * (len(roots) - 1) and all(c.startswith("gantt\n") for c in charts)
    files = []
    for i, chart in enumerate(charts):
        p = tmp_path / f"chart{i}.mmd"
        p.write_text(chart, encoding="utf-8")
        files.append(str(p))
    proc = subprocess.run(["node", str(ROOT / "tests" / "mermaid_gantt.mjs"), *files], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, MERMAID_MODULES=_mermaid_modules(), TZ="UTC"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    read = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(read) == len(files)
    for got, (cid, tasks) in zip(read, expected):
        assert (got["type"], got["title"]) == ("gantt", cid)
        assert got["tasks"] == tasks, cid
    assert any(t["crit"] for _, tasks in expected for t in tasks)  # failures are drawn


# -- issue 34: squashes that could not have happened, and the same shapes done legally ----------

def _shape_history(tmp_path, trees):
    from tests.moves import chains

    shas = chains.fast_import(tmp_path, {"main": trees})["main"]
    chains.point_head(tmp_path, "main")
    return shas, run_history(str(tmp_path), all_history=True, worktree=False)


def _errors(result):
    return [(f["code"], f["commit"]) for f in result.findings if f["severity"] == "error"]


def test_a_forged_forward_over_a_missing_report_is_unexplained(tmp_path):
    """DEVELOPING (blocked) straight to REVIEWING_IMPLEMENTATION, `FORWARD`
    from TESTING, no verification report at all: the squash FORWARD
    DEVELOPING -> TESTING, FORWARD TESTING -> REVIEWING_IMPLEMENTATION would
    need the Tester's gate ("Forward handoff requires the current completion
    gate to pass", Handoff Rules, 1), which the tree does not show."""
    from tests.history import shapes

    shas, result = _shape_history(tmp_path, shapes.forged_forward())
    assert _errors(result) == [("SL1004", shas[-1])]
    msg = next(f["message"] for f in result.findings if f["code"] == "SL1004")
    assert shas[-1][:10] in msg and "`TESTING` was left with `FORWARD`, but its verification report" in msg
    assert "is missing" in msg


def test_the_same_forward_squash_with_its_gates_passed_is_a_note(tmp_path):
    from tests.history import shapes

    shas, result = _shape_history(tmp_path, shapes.legal_forward_squash())
    assert _errors(result) == []
    assert [(f["code"], f["commit"]) for f in result.findings] == [("SL1003", shas[-1])]


def test_a_record_of_a_cycle_signed_off_in_a_squash_is_finished(tmp_path):
    """SIGNOFF and NEW_CYCLE in one commit: the old cycle is finished from
    that commit, so a later edit of its verification report (Status back to
    IN_PROGRESS) is SL1021 at the editing commit."""
    from tests.history import shapes

    shas, result = _shape_history(tmp_path, shapes.signed_off_and_next_cycle(edit_finished=True))
    assert _errors(result) == [("SL1021", shas[-1])]
    f = next(f for f in result.findings if f["code"] == "SL1021")
    assert shas[1][:10] in f["message"] and f["path"].startswith(".standards/docs/verification/")
    data = __import__("standards_lint.history.story", fromlist=["build"]).build(result)
    old = data["cycles"][0]
    assert old["finished"]["state"] == "SIGNED_OFF" and old["finished"]["commit"] == shas[1]


def test_the_new_cycles_own_record_written_after_the_squash_is_clean(tmp_path):
    from tests.history import shapes

    shas, result = _shape_history(tmp_path, shapes.signed_off_and_next_cycle(edit_finished=False))
    assert _errors(result) == []


@pytest.mark.parametrize("shape", ["two_failures_in_one_commit", "resume_then_failure_in_one_commit",
                                   "cancel_and_next_cycle_after_sign_off"])
def test_legal_squashes_are_not_called_illegal(tmp_path, shape):
    """Recovery Mechanics, 2: "New failure or rework during recovery pushes
    another frame"; 4: RESUME pops the frame; user-decisions.md: a cycle may
    be cancelled and the next one started.  Made in one commit, committed
    move by move, or split: no error."""
    from tests.history import shapes
    from tests.moves import chains

    trees = getattr(shapes, shape)()
    n = len(trees) - 1
    branches = {"each": trees, "whole": [trees[0], trees[-1]]}
    branches.update({f"split-{k}": [trees[0], trees[k], trees[-1]] for k in range(1, n)})
    chains.fast_import(tmp_path, branches)
    notes = {}
    for name in branches:
        chains.point_head(tmp_path, name)
        result = run_history(str(tmp_path), all_history=True, worktree=False)
        assert _errors(result) == [], (name, result.findings)
        notes[name] = [f["code"] for f in result.findings]
    assert notes["each"] == [] and ["SL1003"] in notes.values()  # the squash is a note, one by one is nothing


def test_the_second_real_project_has_no_error_and_both_cycles_told(tmp_path):
    """../shared/corpus/kgforedglobal/: its 19 STATE.md versions committed
    over its newest tree in the order its README gives.  Its squashes (a
    SIGNOFF and the next NEW_CYCLE in one commit; a FORWARD, FAILURE and
    RESUME in another) are legal, and their gates show in its records."""
    from standards_lint.history import story
    from tests.history import kgforedglobal as kg

    if not kg.CORPUS.is_dir():
        pytest.skip("the corpus is not here")
    repo, shas = kg.build(tmp_path)
    result = run_history(str(tmp_path), all_history=True)
    assert [f for f in result.findings if f["severity"] != "info"] == []
    assert len(shas) == 19
    data = story.build(result)
    first, second = data["cycles"]
    assert first["id"].startswith("add-opt-in-curriculum") and first["finished"]["state"] == "SIGNED_OFF"
    assert first["finished"]["commit"] == shas["d7bd41a2"]  # SIGNOFF squashed with the next NEW_CYCLE
    assert second["id"].startswith("run-and-validate") and second["finished"] is None


def test_a_framework_upgrade_is_no_move(tmp_path):
    """A commit that only upgrades the framework (VERSION.json, PROTOCOL.md,
    runtime files) moves nothing and gives no finding; the story says so."""
    from standards_lint.history import story

    w = Walk(tmp_path)
    w.start(C1)
    w.forward()
    sha = w.repo.commit({".standards/VERSION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S.",\n  "version": "0.12.1"\n}\n',
                         ".standards/PROTOCOL.md": "<!-- standards:framework-owned -->\n\n# Protocol 0.12.1\n",
                         ".standards/bin/cycle.mjs": "// runtime\n"}, "upgrade the framework", author="User")
    w.forward()
    result = run_history(str(tmp_path), all_history=True)
    assert result.findings == []
    data = story.build(result)
    cy = data["cycles"][0]
    assert cy["upgrades"] == [{"commit": sha, "date": cy["upgrades"][0]["date"], "author": "User",
                               "version": "0.12.1", "from_version": "0.11.0",
                               "paths": [".standards/PROTOCOL.md", ".standards/VERSION.json",
                                         ".standards/bin/cycle.mjs"]}]
    assert f"framework upgraded to 0.12.1 (from 0.11.0) at {sha[:8]}: no move" in story.as_text(data)
    assert cy["moves"] == 3 and cy["commits"] == 3  # the upgrade is no move and no commit of the cycle


@pytest.mark.parametrize("sub", ["", "services/proj"])
def test_github_and_sarif_point_at_the_later_version_from_the_repository_root(tmp_path, sub):
    """`--format github` annotations and SARIF results of history findings
    name the file from the repository root (the project may sit in a
    subfolder) and the line of the later version."""
    from standards_lint.history import story
    from tests.history import shapes
    from tests.moves import chains

    trees = shapes.forged_forward()
    pre = f"{sub}/" if sub else ""
    chains.fast_import(tmp_path, {"main": [{pre + k: v for k, v in t.items()} for t in trees]})
    chains.point_head(tmp_path, "main")
    (tmp_path / pre / ".standards").mkdir(parents=True, exist_ok=True)
    result = run_history(str(tmp_path / sub) if sub else str(tmp_path), all_history=True, worktree=False)
    data = story.build(result)
    later = trees[-1][".standards/STATE.md"].splitlines()
    line = next(i for i, x in enumerate(later, 1) if "`From`: `TESTING`" in x)
    (f,) = [f for f in data["findings"] if f["code"] == "SL1004"]
    assert (f["path"], f["line"]) == (".standards/STATE.md", line)
    gh = [x for x in story.as_github(data).splitlines() if x.startswith("::error ")]
    assert gh and gh[0].startswith(f"::error file={pre}.standards/STATE.md,line={line},")
    sarif = json.loads(story.as_sarif(data))
    (res,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SL1004"]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": f"{pre}.standards/STATE.md", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == line and res["properties"]["commit"] == f["commit"]
    assert sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert sarif["runs"][0]["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "SL1004"
