"""Tests of rules/cycle_ids.py (SL260-SL262)."""

from __future__ import annotations

import os
import subprocess

import pytest

from standards_lint.engine.run import lint

from .conftest import RUNTIME, write_tree

STATE = ".standards/STATE.md"
GOOD = "add-user-search-20260923T150000Z-a7f3c2e9"

TEMPLATE = """# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{id}` `Request`: `Add user search.`
`Scope`: `NONE` `Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{frm}` `FailureType`: `NONE` `Reason`: `Done.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


def state(cid, ws="AUDITING", mode="STANDARD", policy="FULL_DELIVERABLE", kind="NEW_CYCLE", frm="SIGNED_OFF"):
    return TEMPLATE.format(id=cid, ws=ws, mode=mode, policy=policy, kind=kind, frm=frm)


def only(findings, code):
    return [f for f in findings if f.code == code]


# -- SL260 ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "cid",
    ["made-up-id-1234", "ADD-USER-SEARCH-20260923T150000Z-A7F3C2E9", "add_user-search-20260923T150000Z-a7f3c2e9",
     "add-user-search-20260923T150000Z-a7f3c2e", "add-user-search-20260923t150000Z-a7f3c2e9"],
)
def test_id_not_generated_form(lint_tree, cid):
    f = only(lint_tree({}, state=state(cid)), "SL260")
    assert [(x.path, x.line, x.column) for x in f] == [(STATE, 8, 47)]


@pytest.mark.parametrize("cid", [GOOD, "UNSET", "x-20260101T000000Z-00000000"])
def test_id_generated_form_or_unset(lint_tree, cid):
    assert only(lint_tree({}, state=state(cid)), "SL260") == []


# -- SL262 ----------------------------------------------------------------------
@pytest.mark.parametrize("cid", ["add-user-search-20261330T150000Z-a7f3c2e9", "a-20260230T000000Z-0a1b2c3d",
                                 "a-20260101T240000Z-0a1b2c3d"])
def test_impossible_timestamp(lint_tree, cid):
    f = only(lint_tree({}, state=state(cid)), "SL262")
    assert [(x.path, x.line) for x in f] == [(STATE, 8)]


def test_real_timestamp(lint_tree):
    assert only(lint_tree({}, state=state("a-20240229T235959Z-0a1b2c3d")), "SL262") == []


# -- SL261 ----------------------------------------------------------------------
def _git_project(tmp_path, committed_state, working_state):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    run = lambda *a: subprocess.run(["git", *a], cwd=tmp_path, env=env, check=True, capture_output=True)
    run("init", "-q")
    write_tree(tmp_path, {**RUNTIME, STATE: committed_state})
    run("add", "-A")
    run("commit", "-q", "-m", "c")
    write_tree(tmp_path, {STATE: working_state})
    return lint(str(tmp_path), use_git=True).findings


def test_reused_signed_off_id(tmp_path):
    done = state(GOOD, ws="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", frm="AWAITING_USER_SIGNOFF")
    f = only(_git_project(tmp_path, done, state(GOOD)), "SL261")
    assert [(x.path, x.line) for x in f] == [(STATE, 8)]
    assert "SIGNED_OFF" in f[0].message


def test_new_id_after_sign_off(tmp_path):
    done = state(GOOD, ws="SIGNED_OFF", mode="UNSET", kind="SIGNOFF", frm="AWAITING_USER_SIGNOFF")
    new = state("next-change-20260924T100000Z-677e6329")
    assert only(_git_project(tmp_path, done, new), "SL261") == []


def test_unchanged_active_cycle_is_not_reuse(tmp_path):
    active = state(GOOD, ws="ARCHITECTING", kind="FORWARD", frm="SCOPING")
    assert only(_git_project(tmp_path, active, active), "SL261") == []


def test_outside_git_nothing_to_compare(lint_tree):
    assert only(lint_tree({}, state=state(GOOD)), "SL261") == []
