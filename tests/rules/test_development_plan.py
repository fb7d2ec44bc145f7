"""Tests of rules/development_plan.py (SL800-SL834).

The builders here (``state``, ``plan``, ``report``, ``tree``, ``found``) are
shared with test_verification.py and test_recovery_gates.py.
"""

from __future__ import annotations

import subprocess

import pytest

CID = "add-user-search-20261130T024604Z-a9f41900"
PLAN_PATH = f".standards/docs/development/{CID}.md"
REPORT_PATH = f".standards/docs/verification/{CID}.md"


def state(ws="DEVELOPING", mode="STANDARD", kind="FORWARD", frm="ARCHITECTING", ftype="NONE",
          reason="Design complete.", frames=()):
    rec = "`Active`: `false`\n"
    if frames:
        rec = "`Active`: `true`\n"
        for i, (f, owner, ft, why, resume, rerun) in enumerate(frames, 1):
            rec += (f"\n### Frame {i}\n\n`From`: `{f}` `Owner`: `{owner}` `FailureType`: `{ft}`\n"
                    f"`Reason`: `{why}` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n")
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `FULL_DELIVERABLE` `Id`: `{CID}` `Request`: `Add user search` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `{PLAN_PATH}` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `{ftype}` `Reason`: `{reason}`

## Recovery

{rec}
## Outstanding Obligations

`Active`: `false`
"""


STEP_DONE = """### DEV-001 — Search endpoint

`Status`: `DONE` `Depends On`: `NONE`
`Acceptance`: `AC-001`

**Self-Check**

`node --test` in the root; exit 0.
"""

STEP_PENDING = """### DEV-002 — Search box

`Status`: `PENDING` `Depends On`: `DEV-001`
`Acceptance`: `AC-002`
"""

INCREMENTS = """## Verification Increments

### Increment 1

`Development Steps`: `DEV-001` `Acceptance`: `AC-001`

**Ready Outcome**

Search endpoint returns matches.

### Increment 2

`Development Steps`: `DEV-002` `Acceptance`: `AC-002`

**Ready Outcome**

Search results are displayed.
"""


def plan(status="IN_PROGRESS", cadence="AFTER_IMPLEMENTATION", current="NONE", steps=(STEP_DONE, STEP_PENDING),
         increments="", notes="", header_extra="", locked="true"):
    head = f"`Status`: `{status}`"
    if cadence is not None:
        head += f" `Verification Cadence`:\n`{cadence}`"
    if current is not None:
        head += f" `Current Increment`: `{current}`"
    return f"""<!-- STANDARDS
Artifact: DEVELOPMENT
Cycle: {CID}
-->

# Development Plan

`Cycle`: `{CID}` `Mode`: `AUTONOMOUS`
`User Style`: `NONE` `User Style Locked`: `{locked}`
{head}
{header_extra}
## Build Steps

{chr(10).join(steps)}
{increments}
## Plan Notes

{notes}
"""


def report(status="IN_PROGRESS", purpose="FULL", target="NONE", body="", rows="", evidence="`npm test`; exit 0."):
    head = ""
    if purpose is not None:
        head += f"`Assessment Purpose`: `{purpose}` "
    if target is not None:
        head += f"`Assessment Target`: `{target}`"
    return f"""<!-- STANDARDS
Artifact: VERIFICATION
Cycle: {CID}
-->

# Verification Report

`Cycle`: `{CID}` `Mode`: `VERIFY` `Status`:
`{status}` `User Style`: `NONE`
{head}

## Acceptance Evidence

| AC-001 | test/search.test.js | passed |
{body}
## Increment Assessments

| Increment | Outcome | Evidence | Disposition |
| --- | --- | --- | --- |
{rows}
## Execution Evidence

{evidence}

## Resume or Handoff

Next: continue.
"""


def tree(st=None, pl=None, rp=None, **extra):
    files = {".standards/STATE.md": st if st is not None else state()}
    if pl is not None:
        files[PLAN_PATH] = pl
    if rp is not None:
        files[REPORT_PATH] = rp
    files.update(extra)
    return files


def found(lint_tree, files, code):
    return [f for f in lint_tree(files, state=None) if f.code == code]


def line_of(text, needle, nth=1):
    idx = -1
    for _ in range(nth):
        idx = text.index(needle, idx + 1)
    return text.count("\n", 0, idx) + 1


# -- a plan value reported where it stands -----------------------------------------

EXPEDITED_START = state(mode="EXPEDITED", kind="INITIAL", frm="NONE")


@pytest.mark.parametrize(("code", "pl", "needle", "says", "clean", "st"), [
    pytest.param("SL800", plan(status="DONE"), "`Status`: `DONE`", ("DONE",), plan(status="APPROVED"), None,
                 id="sl800-plan-status-value"),
    pytest.param("SL802", plan(cadence="incremental"), "`incremental`", (), plan(cadence="INCREMENTAL"), None,
                 id="sl802-cadence-value"),
    pytest.param("SL803", plan(current="none"), "`Current Increment`", (),
                 plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS), None,
                 id="sl803-current-increment-value"),
    pytest.param("SL804", plan(cadence="INCREMENTAL", current="9", increments=INCREMENTS), "`Current Increment`", (),
                 plan(cadence="INCREMENTAL", current="2", increments=INCREMENTS), None,
                 id="sl804-current-increment-defined"),
    pytest.param("SL806", plan(status="COMPLETE", cadence="INCREMENTAL", current="2", steps=(STEP_DONE,),
                               increments=INCREMENTS), "`Current Increment`", (),
                 plan(status="COMPLETE", steps=(STEP_DONE,)), None, id="sl806-complete-plan-requires-none"),
    pytest.param("SL807", plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS), "`INCREMENTAL`", (),
                 plan(), EXPEDITED_START, id="sl807-expedited-cadence"),
    pytest.param("SL810", plan(steps=(STEP_DONE, STEP_PENDING.replace("`PENDING`", "`WAITING`"))), "`WAITING`", (),
                 plan(), None, id="sl810-step-status-value"),
    pytest.param("SL811", plan(steps=(STEP_DONE, STEP_PENDING.replace("`DEV-001`", "`DEV-001, DEV-002`"))),
                 "`DEV-001, DEV-002`", (), plan(), None, id="sl811-step-self-dependency"),
    pytest.param("SL812", plan(steps=(STEP_DONE, STEP_PENDING.replace("`DEV-001`", "`DEV-008`"))), "`DEV-008`",
                 ("DEV-008",), plan(), None, id="sl812-step-unknown-dependency"),
    pytest.param("SL813", plan(steps=(STEP_DONE.replace("`Depends On`: `NONE`", "`Depends On`: `DEV-002`"),
                                      STEP_PENDING)), "`DEV-002`", ("DEV-001 -> DEV-002 -> DEV-001",), plan(), None,
                 id="sl813-step-dependency-loop"),
    pytest.param("SL814", plan(status="COMPLETE"), "`PENDING`", ("DEV-002",),
                 plan(status="COMPLETE", steps=(STEP_DONE,)), None, id="sl814-complete-plan-unfinished-step"),
])
def test_reported_where_it_stands(lint_tree, code, pl, needle, says, clean, st):
    """One *code* finding in the plan *pl*, on its line holding *needle*,
    its message saying *says*; none for the *clean* plan."""
    [f] = found(lint_tree, tree(st=st, pl=pl), code)
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, needle))
    assert all(part in f.message for part in says), f.message
    assert found(lint_tree, tree(st=st, pl=clean), code) == []


# -- SL801 -------------------------------------------------------------------

def test_a_step_kept_twice_by_a_merge_is_reported_at_its_second_copy(lint_tree):
    pl = plan(steps=(STEP_DONE, STEP_PENDING, STEP_PENDING.replace("`PENDING`", "`IN_PROGRESS`")))
    [f] = found(lint_tree, tree(pl=pl), "SL817")
    assert (f.line, "DEV-002" in f.message) == (line_of(pl, "### DEV-002", nth=2), True)
    assert found(lint_tree, tree(pl=plan()), "SL817") == []


def test_steps_are_level_three_headings_wherever_they_stand(lint_tree):
    # `# Build Steps` one level off keeps its steps; `#### DEV-002` is no step.
    off = plan().replace("## Build Steps", "# Build Steps")
    assert found(lint_tree, tree(pl=off), "SL826") == found(lint_tree, tree(pl=off), "SL812") == []
    deep = plan().replace("### DEV-001", "#### DEV-001")
    assert [f.code for f in found(lint_tree, tree(pl=deep), "SL812")] == ["SL812"]


def test_cadence_field_missing(lint_tree):
    pl = plan(cadence=None)
    [f] = found(lint_tree, tree(pl=pl), "SL801")
    assert f.path == PLAN_PATH and "Verification Cadence" in f.message and f.line == line_of(pl, "# Development Plan")


def test_current_increment_repeated(lint_tree):
    pl = plan(header_extra="`Current Increment`: `NONE`\n")
    [f] = found(lint_tree, tree(pl=pl), "SL801")
    assert "Current Increment" in f.message and f.line == line_of(pl, "`Current Increment`", 2)


def test_cadence_fields_present(lint_tree):
    assert found(lint_tree, tree(pl=plan()), "SL801") == []


def test_field_mention_in_prose_is_not_a_field(lint_tree):
    pl = plan(header_extra="The old plan said `Current Increment`: `2` here.\n")
    assert found(lint_tree, tree(pl=pl), "SL801") == []


# -- SL805 ---------------------------------------------------------------------

def test_after_implementation_requires_none(lint_tree):
    pl = plan(current="1", increments=INCREMENTS)
    [f] = found(lint_tree, tree(pl=pl), "SL805")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`Current Increment`"))
    assert f.fix is not None
    assert found(lint_tree, tree(pl=plan()), "SL805") == []


# -- steps ---------------------------------------------------------------------

def _git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.invalid", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@e.invalid", "PATH": "/usr/bin:/bin:/usr/local/bin"})


def test_done_step_removed(tmp_path):
    from standards_lint.engine.run import lint

    from .conftest import RUNTIME, write_tree

    files = dict(RUNTIME)
    files.update(tree(pl=plan()))
    write_tree(tmp_path, files)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "x")
    assert [f for f in lint(str(tmp_path), use_git=True).findings if f.code == "SL815"] == []
    renumbered = plan(steps=(STEP_PENDING.replace("DEV-002", "DEV-003").replace("`DEV-001`", "`NONE`"),))
    write_tree(tmp_path, {PLAN_PATH: renumbered})
    [f] = [f for f in lint(str(tmp_path), use_git=True).findings if f.code == "SL815"]
    assert (f.path, f.line) == (PLAN_PATH, line_of(renumbered, "## Build Steps")) and "DEV-001" in f.message


def test_plan_complete_after_developing(lint_tree):
    st = state(ws="REVIEWING_IMPLEMENTATION", kind="FORWARD", frm="TESTING")
    pl = plan()
    [f] = found(lint_tree, tree(st=st, pl=pl), "SL816")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`Status`: `IN_PROGRESS`"))
    # Still developing: no finding.
    assert found(lint_tree, tree(pl=pl), "SL816") == []


def test_plan_may_stay_open_during_checkpoint(lint_tree):
    st = state(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")
    pl = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    assert found(lint_tree, tree(st=st, pl=pl), "SL816") == []


# -- increments ------------------------------------------------------------------

def test_increment_numbering_and_duplicate(lint_tree):
    incs = INCREMENTS.replace("### Increment 2", "### Increment 1")
    pl = plan(cadence="INCREMENTAL", current="1", increments=incs)
    [num] = found(lint_tree, tree(pl=pl), "SL820")
    [dup] = found(lint_tree, tree(pl=pl), "SL821")
    assert (num.path, num.line) == (PLAN_PATH, line_of(pl, "### Increment 1", 2))
    assert (dup.path, dup.line) == (PLAN_PATH, line_of(pl, "### Increment 1", 2))
    good = plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    assert found(lint_tree, tree(pl=good), "SL820") == [] and found(lint_tree, tree(pl=good), "SL821") == []


def test_increment_fields_and_formats(lint_tree):
    incs = INCREMENTS.replace("`Development Steps`: `DEV-002` `Acceptance`: `AC-002`", "`Acceptance`: `search works`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=incs)
    files = tree(pl=pl)
    [fields] = found(lint_tree, files, "SL822")
    [steps] = found(lint_tree, files, "SL823")
    [acs] = found(lint_tree, files, "SL824")
    assert fields.line == steps.line == line_of(pl, "### Increment 2")
    assert acs.line == line_of(pl, "`search works`")
    good = tree(pl=plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS))
    for code in ("SL822", "SL823", "SL824"):
        assert found(lint_tree, good, code) == []


def test_increment_ready_outcome(lint_tree):
    incs = INCREMENTS.replace("Search results are displayed.", "")
    pl = plan(cadence="INCREMENTAL", current="1", increments=incs)
    [f] = found(lint_tree, tree(pl=pl), "SL825")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "### Increment 2"))
    assert found(lint_tree, tree(pl=plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)), "SL825") == []


def test_increment_unknown_step(lint_tree):
    incs = INCREMENTS.replace("`Development Steps`: `DEV-002`", "`Development Steps`: `DEV-009`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=incs)
    [f] = found(lint_tree, tree(pl=pl), "SL826")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`DEV-009`"))
    assert found(lint_tree, tree(pl=plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)), "SL826") == []


# -- Developer checkpoint gate ------------------------------------------------------

CHECKPOINT_STATE = dict(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")


def _cp_plan(**kw):
    args = dict(cadence="INCREMENTAL", current="1", increments=INCREMENTS)
    args.update(kw)
    return plan(**args)


@pytest.mark.parametrize("code", ["SL830", "SL831", "SL832", "SL833", "SL834"])
def test_checkpoint_gate_passes(lint_tree, code):
    assert found(lint_tree, tree(st=state(**CHECKPOINT_STATE), pl=_cp_plan()), code) == []


def test_checkpoint_needs_approved_plan(lint_tree):
    pl = _cp_plan(status="PROPOSED")
    [f] = found(lint_tree, tree(st=state(**CHECKPOINT_STATE), pl=pl), "SL830")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`Status`: `PROPOSED`"))


def test_checkpoint_needs_current_increment(lint_tree):
    pl = _cp_plan(current="2")
    [f] = found(lint_tree, tree(st=state(**CHECKPOINT_STATE), pl=pl), "SL831")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "`Current Increment`"))


def test_checkpoint_increment_defined(lint_tree):
    st = state(**dict(CHECKPOINT_STATE, reason="Increment 3 ready."))
    pl = _cp_plan(current="3")
    [f] = found(lint_tree, tree(st=st, pl=pl), "SL832")
    assert (f.path, f.line) == (PLAN_PATH, line_of(pl, "# Development Plan"))


def test_checkpoint_steps_done_and_self_check(lint_tree):
    first = STEP_DONE.replace("`Depends On`: `NONE`", "`Depends On`: `DEV-002`")
    pl = _cp_plan(steps=(first, STEP_PENDING))
    files = tree(st=state(**CHECKPOINT_STATE), pl=pl)
    [done] = found(lint_tree, files, "SL833")
    [check] = found(lint_tree, files, "SL834")
    assert (done.path, done.line) == (PLAN_PATH, line_of(pl, "`PENDING`")) and "DEV-002" in done.message
    assert (check.path, check.line) == (PLAN_PATH, line_of(pl, "### DEV-002"))


def test_rules_tolerate_a_broken_plan(lint_tree):
    pl = "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: " + CID + "\n-->\n\n# Plan\n\n### DEV-001\n\n`Depends On`:\n"
    findings = lint_tree(tree(st=state(**CHECKPOINT_STATE), pl=pl), state=None)
    assert not [f for f in findings if f.code.startswith("SL00")]


# -- where the plan is: Active Work.Development, even when moved or missing ----------
DEV_CHECKPOINT = dict(ws="TESTING", kind="CHECKPOINT", frm="DEVELOPING", reason="Increment 1 ready.")
TESTER_BACK = dict(ws="DEVELOPING", kind="CHECKPOINT", frm="TESTING", reason="Increment 1 verified.")


def _inc_plan():
    return plan(cadence="INCREMENTAL", current="1", increments=INCREMENTS)


def test_plan_is_read_where_active_work_development_points(lint_tree):
    moved = PLAN_PATH.replace(".md", "-old.md")
    st = state(**DEV_CHECKPOINT).replace(f"`Development`: `{PLAN_PATH}`", f"`Development`: `{moved}`")
    # The plan at the fixed path is not the one STATE.md names: the checkpoint
    # finds no plan where Developer said it is, and says so there.
    files = tree(st=st, pl=_inc_plan())
    [f] = found(lint_tree, files, "SL832")
    assert f.path == moved
    [g] = found(lint_tree, files, "SL831")
    assert g.path == moved
    # Named correctly, the same plan satisfies the checkpoint.
    assert found(lint_tree, tree(st=state(**DEV_CHECKPOINT), pl=_inc_plan()), "SL832") == []


def test_tester_checkpoint_needs_the_increment_defined(lint_tree):
    rows = "| 1 | Endpoint | tests | VERIFIED |\n"
    rp = report(purpose="INCREMENT", target="Increment 1", rows=rows)
    no_inc = plan(cadence="INCREMENTAL", current="1")
    [f] = found(lint_tree, tree(st=state(**TESTER_BACK), pl=no_inc, rp=rp), "SL832")
    assert f.path == PLAN_PATH
    assert found(lint_tree, tree(st=state(**TESTER_BACK), pl=_inc_plan(), rp=rp), "SL832") == []


def test_plan_with_malformed_provenance_defines_nothing(lint_tree):
    broken = _inc_plan().replace("Artifact: DEVELOPMENT\n", "Artifact: DEVELOPMENT\nNote: hand edit\n", 1)
    [f] = found(lint_tree, tree(st=state(**TESTER_BACK), pl=broken), "SL832")
    assert f.path == PLAN_PATH


def test_tester_checkpoint_without_a_report_of_this_cycle(lint_tree):
    files = tree(st=state(**TESTER_BACK), pl=_inc_plan())
    [v] = found(lint_tree, files, "SL861")
    [e] = found(lint_tree, files, "SL862")
    assert v.path == e.path == REPORT_PATH
    rows = "| 1 | Endpoint | tests | VERIFIED |\n"
    ok = tree(st=state(**TESTER_BACK), pl=_inc_plan(), rp=report(purpose="INCREMENT", target="Increment 1", rows=rows))
    assert found(lint_tree, ok, "SL861") == [] and found(lint_tree, ok, "SL862") == []


def test_a_field_after_a_comment_on_its_line_is_a_field(lint_tree):
    # An HTML comment is no prose: the field after it is read (no SL822/SL824
    # for a missing `Acceptance`), also after a comment that began on an
    # earlier line; prose before a pair still makes it a mention.
    inc = INCREMENTS.replace("`Development Steps`: `DEV-002` `Acceptance`: `AC-002`",
                             "`Development Steps`: `DEV-002` <!--\na note with `Kind`: `FORWARD`\n--> `Acceptance`: `AC-002`")
    inc = inc.replace("`Development Steps`: `DEV-001` `Acceptance`: `AC-001`",
                      "`Development Steps`: `DEV-001` <!-- a note --> `Acceptance`: `AC-001`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=inc)
    got = {f.code for f in lint_tree(tree(pl=pl), state=None)}
    assert not got & {"SL822", "SL824"}
    prose = INCREMENTS.replace("`Development Steps`: `DEV-002` `Acceptance`: `AC-002`",
                               "`Development Steps`: `DEV-002` and then `Acceptance`: `AC-002`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=prose)
    assert "SL822" in {f.code for f in lint_tree(tree(pl=pl), state=None)}


def test_a_misheaded_increment_is_reported_defines_nothing_and_carries_its_heading_fix(lint_tree, tmp_path):
    # `###  Increment 1` (two spaces): the framework does not read it as
    # Increment 1; found (its fields are still checked), reported (SL820),
    # and no definition for what names Increment 1, each carrying the one
    # safe fix that writes the heading `### Increment 1`.
    from standards_lint.fixes.fixer import fix_project

    incs = INCREMENTS.replace("### Increment 1", "###  Increment 1").replace(
        "`Development Steps`: `DEV-001` `Acceptance`: `AC-001`", "`Development Steps`: `DEV-001`")
    pl = plan(cadence="INCREMENTAL", current="1", increments=incs)
    rp = report(purpose="INCREMENT", target="Increment 1", rows="| 1 | Endpoint | ok | VERIFIED |\n")
    got = lint_tree(tree(pl=pl, rp=rp), state=None)
    by = {}
    for f in got:
        by.setdefault(f.code, []).append(f)
    assert sorted(f.line for f in by["SL820"]) == [line_of(pl, "###  Increment 1"), line_of(pl, "### Increment 2")]
    assert "SL822" in by  # found: its missing `Acceptance` is reported
    fixes = {f.fix for code in ("SL820", "SL804", "SL859", "SL860") for f in by.get(code, ())}
    assert {"SL804", "SL859", "SL860"} <= set(by) and len(fixes) == 1
    (fix,) = fixes
    assert fix.applicability == "safe" and [e.replacement for e in fix.edits] == ["### Increment 1"]
    fix_project(str(tmp_path), use_git=False)
    assert "\n### Increment 1\n" in (tmp_path / PLAN_PATH).read_text(encoding="utf-8")
    after = {f.code for f in lint_tree(tree(pl=pl.replace("###  Increment 1", "### Increment 1"), rp=rp), state=None)}
    assert not after & {"SL820", "SL804", "SL859", "SL860"}


def test_a_cycle_renamed_to_a_malformed_id_still_has_its_records_checked(lint_tree):
    # The ID is reported (SL260) and the records at the paths named after it
    # are still read, as the framework's checker reads them.
    bad = CID.upper()
    files = {k.replace(CID, bad): v.replace(CID, bad)
             for k, v in tree(st=state(ws="TESTING", frm="DEVELOPING", reason="Built."), pl=plan()).items()}
    findings = lint_tree(files, state=None)
    assert {"SL260", "SL816"} <= {f.code for f in findings}
    assert any(f.code == "SL816" and f.path == PLAN_PATH.replace(CID, bad) for f in findings)


def test_a_plan_without_a_status_past_developing_reads_as_missing(lint_tree):
    pl = "\n".join(l for l in plan().split("\n") if not l.startswith("`Status`: `IN_PROGRESS`"))
    assert "`Status`: `IN_PROGRESS`" not in pl
    files = tree(st=state(ws="TESTING", frm="DEVELOPING", reason="Built."), pl=pl)
    [f] = found(lint_tree, files, "SL816")
    assert "`missing`" in f.message


def test_an_emphasised_field_name_is_no_prose_before_the_fields_after_it(lint_tree):
    # `*`Status`*: `IN_PROGRESS`` opens the line: emphasis around a name is
    # not a sentence, so the `Verification Cadence` after it is a field, and
    # with its copy on the next line the plan holds it twice.
    pl = plan().replace("`Status`: `IN_PROGRESS` `Verification Cadence`:\n`AFTER_IMPLEMENTATION`",
                        "*`Status`*: `IN_PROGRESS` `Verification Cadence`:\n`AFTER_IMPLEMENTATION` "
                        "`Verification Cadence`: `AFTER_IMPLEMENTATION`")
    assert pl != plan()
    [f] = found(lint_tree, tree(pl=pl), "SL801")
    assert f.path == PLAN_PATH and "Verification Cadence" in f.message and "repeated" in f.message
    # In a sentence, a field pair is a mention: the plan holds the cadence once.
    prose = plan(header_extra="Earlier we had `Verification Cadence`: `INCREMENTAL` here.\n")
    assert found(lint_tree, tree(pl=prose), "SL801") == []
