"""Tests of rules/signoff_readiness.py (SL350-SL355)."""

from __future__ import annotations

from .test_cycle_modes import BASELINE_LIST, FRAME, STATE, found, make_state

# make_state lines: WorkflowState 3, BlockedOn 10, BaselineReconciliation 12,
# Handoff 16.
READY = dict(ws="AWAITING_USER_SIGNOFF", kind="FORWARD", origin="SYNCHRONIZING")


def run(lint_tree, **kw):
    return lint_tree({}, state=make_state(**kw))


def test_ready_states_are_clean(lint_tree):
    for kw in (
        READY,
        dict(READY, policy="IMPLEMENTATION_REVIEWED", origin="REVIEWING_IMPLEMENTATION"),
        dict(READY, mode="DOCUMENTATION", policy="NONE"),
        dict(READY, mode="EXPEDITED", policy="NONE", origin="REVIEWING_IMPLEMENTATION"),
    ):
        assert [f.code for f in run(lint_tree, **kw) if f.code.startswith("SL35")] == [], kw


def test_sl350_signoff_with_recovery(lint_tree):
    assert found(run(lint_tree, **dict(READY, recovery=FRAME)), "SL350") == [(STATE, 3)]
    obligation = "`Active`: `true`\n\n### Obligation 1\n\n`Owner`: `TESTING` `FailureType`: `VERIFICATION` `Reason`: `A defect.`"
    assert found(run(lint_tree, **dict(READY, obligations=obligation)), "SL350") == [(STATE, 3)]
    assert found(run(lint_tree, **READY), "SL350") == []


def test_sl351_terminal_with_recovery(lint_tree):
    kw = dict(ws="CANCELLED", mode="UNSET", kind="CANCEL", origin="TESTING")
    assert found(run(lint_tree, **dict(kw, recovery=FRAME)), "SL351") == [(STATE, 3)]
    assert found(run(lint_tree, **kw), "SL351") == []


def test_sl352_signoff_blocked(lint_tree):
    assert found(run(lint_tree, **dict(READY, blocked="Which locale?")), "SL352") == [(STATE, 10)]
    assert found(run(lint_tree, **dict(READY, ws="TESTING", blocked="Which locale?")), "SL352") == []


def test_sl353_signoff_with_baseline(lint_tree):
    assert found(run(lint_tree, **dict(READY, baseline=BASELINE_LIST)), "SL353") == [(STATE, 12)]
    doc = dict(READY, mode="DOCUMENTATION", policy="NONE", baseline=BASELINE_LIST)
    assert found(run(lint_tree, **doc), "SL353") == [(STATE, 12)]
    assert found(run(lint_tree, **dict(READY, ws="SYNCHRONIZING", origin="REVIEWING_FINAL", baseline=BASELINE_LIST)), "SL353") == []


def test_sl354_signoff_forward_source(lint_tree):
    f = run(lint_tree, **dict(READY, origin="REVIEWING_IMPLEMENTATION"))
    assert found(f, "SL354") == [(STATE, 16)]
    f = run(lint_tree, **dict(READY, policy="IMPLEMENTATION_REVIEWED", origin="TESTING"))
    assert found(f, "SL354") == [(STATE, 16)]
    f = run(lint_tree, **dict(READY, policy="IMPLEMENTATION_REVIEWED", origin="REVIEWING_IMPLEMENTATION"))
    assert found(f, "SL354") == []
    # A RESUME return to sign-off is not a forward handoff.
    assert found(run(lint_tree, **dict(READY, kind="RESUME", origin="DEVELOPING")), "SL354") == []


def test_sl355_implementation_review_forward_target(lint_tree):
    kw = dict(kind="FORWARD", origin="REVIEWING_IMPLEMENTATION")
    assert found(run(lint_tree, ws="AWAITING_USER_SIGNOFF", **kw), "SL355") == [(STATE, 3)]
    assert found(run(lint_tree, ws="DOCUMENTING", policy="IMPLEMENTATION_REVIEWED", **kw), "SL355") == [(STATE, 3)]
    assert found(run(lint_tree, ws="DOCUMENTING", **kw), "SL355") == []
    assert found(run(lint_tree, ws="AWAITING_USER_SIGNOFF", policy="IMPLEMENTATION_REVIEWED", **kw), "SL355") == []


def test_sl350_reads_the_entries_not_a_contradicting_active_flag(lint_tree):
    # Outstanding Obligations.Active `true` with no obligation is SL502's finding;
    # nothing remains outstanding, so sign-off readiness is not blocked by it.
    findings = run(lint_tree, **dict(READY, obligations="`Active`: `true`"))
    assert "SL502" in [f.code for f in findings]
    assert found(findings, "SL350") == []
