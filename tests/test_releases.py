"""Every framework release a project runs (issue 41): the release comes from
`--target-version`, then the configuration's `target-version`, then
`.standards/VERSION.json`; what each release requires fires, what it lacks
stays silent; a version outside the known releases is said once; `history`
checks each commit by its own release, and an upgrade that leaves a field the
new release requires out is reported at that commit."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from standards_lint import cli
from standards_lint.engine.run import lint
from standards_lint.model.releases import NEWEST, OLDEST, RELEASES, release_named, select
from tests.parity import harness
from tests.rules.conftest import commit_tree, write_tree

ROOT = Path(__file__).resolve().parents[1]
STATE = ".standards/STATE.md"
VERSION = ".standards/VERSION.json"


@lru_cache(maxsize=None)
def _suite() -> dict:
    with gzip.open(ROOT / "fixtures" / "parity" / "suite.jsonl.gz", "rt", encoding="utf-8") as fh:
        return {c["id"]: c for c in map(json.loads, fh)}


def _field(text: str, name: str):
    m = re.search(r"`%s`: `([^`]*)`" % re.escape(name), text)
    return m.group(1) if m else None


def clean(**fields) -> dict:
    """The first clean suite tree (no git) whose STATE.md has these values."""
    for case in _suite().values():
        st = case["files"].get(STATE, "")
        if case["expected"]["problems"] or case["git"] != "none":
            continue
        if all(_field(st, k) == v for k, v in fields.items()):
            return dict(case["files"])
    raise LookupError(fields)


def at(files: dict, version: str) -> dict:
    out = dict(files)
    out[VERSION] = json.dumps({"framework": "S.T.A.N.D.A.R.D.S.", "version": version}, indent=2) + "\n"
    return out


def without_policy(files: dict) -> dict:
    out = dict(files)
    out[STATE] = re.sub(r" ?`CompletionPolicy`: `[^`]*`", "", out[STATE])
    assert "CompletionPolicy" not in out[STATE]
    return out


def codes(tmp_path, files: dict, **kw) -> list:
    write_tree(tmp_path, files)
    return [f.code for f in lint(str(tmp_path), use_git=False, **kw).findings if f.severity == "error"]


def findings(tmp_path, files: dict):
    write_tree(tmp_path, files)
    return lint(str(tmp_path), use_git=False).findings


# -- which release ------------------------------------------------------------------------

@pytest.mark.parametrize("version, release", [
    ("0.8.0", "0.8.0"), ("0.9.1", "0.8.0"), ("0.10.0", "0.10.0"), ("0.10.7", "0.10.0"), ("0.11.0-rc.1", "0.11.0"),
    ("0.12.1", "0.12.0"), ("v0.11.2", "0.11.0"), ("0.7.3", "0.8.0"), ("1.0.0", "0.12.0"),
])
def test_a_version_is_checked_as_the_newest_known_release_not_newer(version, release):
    assert release_named(version).name == release


def test_outside_the_known_releases_is_said():
    assert select("0.13.0", "VERSION.json").beyond == "newer"
    assert select("0.12.9", "VERSION.json").beyond is None
    assert select("0.7.0", "configuration").beyond == "older"
    assert select("not a version", "VERSION.json").source == "default"
    assert select(None, "VERSION.json").release is NEWEST
    assert [r.name for r in RELEASES] == sorted((r.name for r in RELEASES), key=lambda n: tuple(map(int, n.split("."))))


# -- what each release requires -----------------------------------------------------------

def test_0_9_project_without_completion_policy_is_clean(tmp_path):
    tree = without_policy(clean(WorkflowState="DEVELOPING", CycleMode="STANDARD"))
    assert codes(tmp_path / "old", at(tree, "0.9.1")) == []
    # The same STATE.md on a newer release lacks a field it requires.
    assert "SL202" in codes(tmp_path / "new", at(tree, "0.12.1"))
    assert "SL202" in codes(tmp_path / "ten", at(tree, "0.10.0"))


def test_before_0_10_a_standard_cycle_runs_the_whole_route(tmp_path):
    """An IMPLEMENTATION_REVIEWED cycle awaiting sign-off is clean today; on
    0.9.x there is no such policy (the field is not read), so the records of
    documentation, final review and synchronization are due."""
    tree = clean(WorkflowState="AWAITING_USER_SIGNOFF", CompletionPolicy="IMPLEMENTATION_REVIEWED")
    assert codes(tmp_path / "new", at(tree, "0.12.1")) == []
    old = [f for f in findings(tmp_path / "old", at(tree, "0.9.1")) if f.severity == "error"]
    missing = {f.path.split("/")[2] for f in old if f.code in ("SL930", "SL931")}
    assert {"documentation", "synchronization", "reviews"} <= missing, [(f.code, f.path) for f in old]
    assert not any(f.code.startswith(("SL30", "SL96")) for f in old)  # no policy, no closure rules


def test_documentation_cycles_start_at_0_11(tmp_path):
    tree = clean(CycleMode="DOCUMENTATION")
    assert codes(tmp_path / "new", at(tree, "0.11.0")) == []
    old = findings(tmp_path / "old", at(tree, "0.10.0"))
    assert any(f.code == "SL203" and "`DOCUMENTATION`" in f.message for f in old)
    assert not any(f.code == "SL317" for f in old)


def test_completion_change_starts_at_0_10(tmp_path):
    tree = clean(Kind="COMPLETION_CHANGE")
    assert codes(tmp_path / "new", at(tree, "0.10.0")) == []
    old = findings(tmp_path / "old", at(without_policy(tree), "0.9.0"))
    assert [f.code for f in old if f.code == "SL220"] == ["SL220"]
    assert "COMPLETION_CHANGE" not in next(f.message for f in old if f.code == "SL220").split("use one of")[1]


def test_rules_of_a_release_and_their_pages(capsys):
    assert cli.main(["rules", "--target-version", "0.8.0", "--format", "json"]) == 0
    old = {r["code"] for r in json.loads(capsys.readouterr().out)}
    assert cli.main(["rules", "--target-version", "0.10.0", "--format", "json"]) == 0
    ten = {r["code"] for r in json.loads(capsys.readouterr().out)}
    assert cli.main(["rules", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"SL202", "SL930", "SL411"} <= old and not {"SL303", "SL960", "SL415", "SL317"} & old
    assert {"SL303", "SL960", "SL415"} <= ten and "SL317" not in ten
    since = {r["code"]: r["since"] for r in rows}
    assert since["SL303"] == "0.10.0" and since["SL317"] == "0.11.0" and since["SL202"] is None
    page = (ROOT / "docs" / "rules" / "SL303.md").read_text("utf-8")
    assert "**Framework releases:** 0.10.0 and later" in page
    assert f"{OLDEST.name} and later" in (ROOT / "docs" / "rules" / "SL202.md").read_text("utf-8")
    assert cli.main(["rules", "--target-version", "nonsense"]) == 2


# -- precedence and what the outputs say ------------------------------------------------------

def _summary(capsys, argv) -> dict:
    status = cli.main([*argv, "--format", "json", "--no-cache"])
    assert status in (0, 1)
    return json.loads(capsys.readouterr().out)["summary"]["release"]


def test_command_line_then_configuration_then_version_file(tmp_path, capsys):
    tree = at(without_policy(clean(WorkflowState="DEVELOPING", CycleMode="STANDARD")), "0.9.1")
    write_tree(tmp_path, tree)
    assert _summary(capsys, [str(tmp_path)]) == {"release": "0.8.0", "requested": "0.9.1", "source": "VERSION.json",
                                                 "beyond": None}
    (tmp_path / "standards-lint.toml").write_text('target-version = "0.10.2"\n', encoding="utf-8")
    assert _summary(capsys, [str(tmp_path)])["release"] == "0.10.0"
    assert _summary(capsys, [str(tmp_path)])["source"] == "configuration"
    got = _summary(capsys, [str(tmp_path), "--target-version", "0.11.0"])
    assert (got["release"], got["source"]) == ("0.11.0", "command line")
    # The configuration's release requires CompletionPolicy; the file's did not.
    status = cli.main([str(tmp_path), "--format", "json", "--no-cache"])
    assert status == 1 and any(f["code"] == "SL202" for f in json.loads(capsys.readouterr().out)["findings"])
    (tmp_path / "standards-lint.toml").write_text('target-version = "soon"\n', encoding="utf-8")
    assert cli.main([str(tmp_path), "--no-cache"]) == 2
    assert "target-version" in capsys.readouterr().err
    assert cli.main([str(tmp_path), "--no-cache", "--isolated", "--target-version", "0.x"]) == 2


@pytest.mark.parametrize("version, known, how", [("0.13.0", "0.12.0", "newer"), ("0.7.0", "0.8.0", "older")])
def test_a_version_outside_the_known_releases_is_said_once(tmp_path, version, known, how):
    tree = at(clean(WorkflowState="DEVELOPING", CycleMode="STANDARD"), version)
    found = findings(tmp_path, tree)
    said = [f for f in found if f.code == "SL102"]
    assert len(said) == 1 and said[0].severity == "warning" and said[0].owner == "USER"
    assert version in said[0].message and known in said[0].message and how in said[0].message
    assert not [f for f in found if f.severity == "error" and f.code != "SL202"]


def test_missing_or_unreadable_version_file_checks_as_the_newest(tmp_path):
    tree = clean(WorkflowState="DEVELOPING", CycleMode="STANDARD")
    gone = {k: v for k, v in tree.items() if k != VERSION}
    write_tree(tmp_path / "gone", gone)
    r = lint(str(tmp_path / "gone"), use_git=False)
    assert [f.code for f in r.findings] == ["SL101"] and r.project.release is NEWEST
    bad = dict(tree, **{VERSION: "{ not json"})
    found = findings(tmp_path / "bad", bad)
    assert [f.code for f in found] == ["SL103"]


def test_sarif_and_status_name_the_release(tmp_path, capsys):
    write_tree(tmp_path, at(clean(WorkflowState="DEVELOPING", CycleMode="STANDARD"), "0.10.1"))
    cli.main([str(tmp_path), "--format", "sarif", "--no-cache"])
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["properties"]["frameworkRelease"]["release"] == "0.10.0"
    assert cli.main(["status", str(tmp_path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["release"]["requested"] == "0.10.1"
    cli.main(["status", str(tmp_path)])
    assert "Release     0.10.0 (0.10.1, VERSION.json)" in capsys.readouterr().out


# -- history across an upgrade ----------------------------------------------------------------

def _git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.mark.parametrize("shape, decided", [
    (dict(WorkflowState="DEVELOPING", CycleMode="STANDARD"), None),  # the user chooses the policy
    (dict(Id="UNSET"), "NONE"),  # before any cycle the protocol fixes it
])
def test_history_checks_each_commit_by_its_release(tmp_path, shape, decided):
    from standards_lint.history.run import run_history

    old = at(without_policy(clean(**shape)), "0.9.1")
    commit_tree(tmp_path, old)
    write_tree(tmp_path, at(old, "0.10.0"))  # the upgrade: VERSION.json only
    _git(tmp_path, "commit", "-qam", "upgrade")
    result = run_history(str(tmp_path), all_history=True, worktree=False)
    assert [p.project.release.name for p in result.points] == ["0.8.0", "0.10.0"]
    upgrade = result.checked[-1]
    assert upgrade.upgrade
    said = [f for f in upgrade.findings if f["code"] == "SL1040"]
    assert len(said) == 1 and "CompletionPolicy" in said[0]["message"], upgrade.findings
    if decided:
        assert f"`CompletionPolicy`: `{decided}`" in said[0]["message"]
    else:
        assert "user chooses" in said[0]["message"]
    # Before the upgrade the tree was clean by its own rules; after it, the
    # plain check holds it to the new release (with SL202's fix where fixed).
    plain = lint(str(tmp_path), use_git=False)
    assert [f.code for f in plain.findings if f.severity == "error"] == ["SL202"]
    fix = plain.findings[0].fix
    # Where the protocol fixes the value, a safe fix; a STANDARD cycle's
    # policy only as the unsafe default the user confirms.
    assert fix is not None and fix.applicability == ("safe" if decided else "unsafe")


def test_an_upgrade_that_adds_the_field_is_clean(tmp_path):
    from standards_lint.history.run import run_history

    new = at(clean(Id="UNSET"), "0.10.0")
    commit_tree(tmp_path, at(without_policy(new), "0.9.1"))
    write_tree(tmp_path, new)
    _git(tmp_path, "commit", "-qam", "upgrade with the field")
    result = run_history(str(tmp_path), all_history=True, worktree=False)
    assert not [f for c in result.checked for f in c.findings if f["severity"] == "error"]


# -- the real projects at the release of their era -------------------------------------------------

def _differences_at(cases, version: str) -> list:
    """Each case's tree at *version*, checked plainly: what differs from the
    checker's verdict, and every error of a rule the checker lacks."""
    rows, known = harness.load_map(), harness.load_known()
    problems = []
    for case in cases:
        case = dict(case, files=at(case["files"], version))
        o = harness.run_case(case, rows, None, None, known, "plain")
        problems += [f"{case['id']}: {p}" for p in o.missing + o.extra + o.internal]
        problems += [f"{case['id']}: {f.code} {f.message}" for f in o.beyond if f.severity == "error"]
    return problems

def test_real_projects_without_completion_policy_at_0_9_1():
    """Every harvested STATE.md version of both real projects that has no
    CompletionPolicy (the 0.9.x era), at 0.9.1: exactly what the 0.8.0-0.9.x
    checker reports (``versions/realworld-0.8.0``), and no error of a rule it
    lacks."""
    cases = [c for c in harness.iter_cases(("versions/realworld-0.8.0.jsonl.gz",))
             if "(CompletionPolicy taken out)" not in c["origin"]]
    assert len(cases) >= 20
    assert not _differences_at(cases, "0.9.1")


def test_real_projects_with_completion_policy_at_0_12_1():
    """Every harvested version of both real projects that has
    `CompletionPolicy` (the 0.10-0.12 era), at 0.12.1: exactly what the
    newest checker reports, and no error of a rule it lacks."""
    cases = [c for c in harness.iter_cases(("realworld.jsonl.gz", "realworld-2.jsonl.gz", "unseen-1.jsonl.gz"))
             if c["id"].startswith(("mcp-", "rw2-", "kg-")) and "CompletionPolicy" in c["files"].get(STATE, "")]
    assert len(cases) >= 50
    assert not _differences_at(cases, "0.12.1")


def test_a_cycle_begun_inside_a_squash_has_a_mode_of_the_projects_release(tmp_path):
    """The history's squash search tries, for a cycle the later version shows
    ended, every mode the project's release has: no DOCUMENTATION cycle
    before 0.11.0."""
    from standards_lint.history.explain import _modes_of
    from standards_lint.model import model_of
    from standards_lint.model.moves import snapshot

    tree = clean(Id="UNSET")
    for version, expected in (("0.10.0", ("STANDARD", "EXPEDITED")),
                              ("0.11.0", ("STANDARD", "EXPEDITED", "DOCUMENTATION"))):
        write_tree(tmp_path / version, at(tree, version))
        project = lint(str(tmp_path / version), use_git=False).project
        snap = snapshot(model_of(project))
        assert snap.mode not in expected and _modes_of(snap) == expected


def test_status_says_a_policy_the_release_implies(tmp_path, capsys):
    write_tree(tmp_path, at(without_policy(clean(WorkflowState="DEVELOPING", CycleMode="STANDARD")), "0.9.1"))
    assert cli.main(["status", str(tmp_path), "--format", "json"]) == 0
    cycle = json.loads(capsys.readouterr().out)["cycle"]
    assert cycle["completion_policy"] == "FULL_DELIVERABLE" and cycle["completion_policy_implied"] is True
    cli.main(["status", str(tmp_path)])
    assert "FULL_DELIVERABLE (implied: framework 0.8.0 has no CompletionPolicy)" in capsys.readouterr().out
