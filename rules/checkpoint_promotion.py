"""Checkpoint handoffs and Expedited Promotion (PROTOCOL.md, Checkpoint
Handoffs; protocol/expedited.md, Expedited Promotion): the Developer/Tester
exchange with its increment, and a PROMOTE's reason and target."""

from __future__ import annotations

import re

from standards_lint.model.accessors import holds_value
from standards_lint.model.handoff import handoff_view, value_at
from standards_lint.engine.rule import module_rules, report, rule


CHECKPOINT_EXCHANGES = (("DEVELOPING", "TESTING"), ("TESTING", "DEVELOPING"))
_INCREMENT_RE = re.compile(r"\bIncrement\s+\d+\b")


@rule(
    code="SL411",
    name="checkpoint-exchange",
    section="Checkpoint Handoffs",
    owner="state",
    summary="CHECKPOINT is only a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE and no recovery.",
    explanation="""
**What it does.** Reports a `CHECKPOINT` handoff unless `CycleMode` is
`STANDARD`, it goes `DEVELOPING -> TESTING` or `TESTING -> DEVELOPING`,
`FailureType` is `NONE`, and `Recovery.Active` is not `true` (frames left
under `Active: false` are reported by the recovery rules).

**Why.** Checkpoint Handoffs: "With effective cadence `INCREMENTAL` and no
active recovery, `CHECKPOINT` permits only `DEVELOPING -> TESTING` and
`TESTING -> DEVELOPING`. Set `FailureType: NONE`." and Verification Cadence:
it "controls when Developer hands implemented outcomes to Tester in a
`STANDARD` cycle". During recovery, "use the saved `FAILURE`, `FORWARD`, and
`RESUME` route rather than ordinary checkpoint exchanges".

**Fix safety.** No fix.
""",
    bad_example="`WorkflowState`: `SCOPING` ... `Kind`: `CHECKPOINT` `From`: `DEVELOPING`",
    good_example="`WorkflowState`: `TESTING` `CycleMode`: `STANDARD` ... `Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE`",
    help="Use CHECKPOINT only for a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE and no active recovery; otherwise use FORWARD or FAILURE.",
    no_fix_reason="Which kind the transition was is a fact of the last handoff.",
)
def checkpoint_exchange(project):
    v = handoff_view(project)
    if v is None or v.kind != "CHECKPOINT":
        return
    problems = []
    if v.cm is not None and v.cm != "STANDARD":
        problems.append(f"CycleMode is {v.cm}")
    if v.frm is not None and v.ws is not None and (v.frm, v.ws) not in CHECKPOINT_EXCHANGES:
        problems.append(f"it goes {v.frm} -> {v.ws}")
    if v.ft is not None and v.ft != "NONE":
        problems.append(f"FailureType is {v.ft}")
    if v.recovery_declared_active():
        problems.append("recovery is active")
    if problems:
        yield report(
            value_at(v.kind_f),
            "A CHECKPOINT is only a STANDARD DEVELOPING <-> TESTING exchange with FailureType NONE "
            "and no active recovery, but " + ", ".join(problems) + ".",
        )


@rule(
    code="SL412",
    name="checkpoint-reason-increment",
    section="Checkpoint Handoffs",
    owner="state",
    summary="A CHECKPOINT Reason names exactly one `Increment N`.",
    explanation="""
**What it does.** For a valid `CHECKPOINT` exchange (`DEVELOPING <-> TESTING`
in a `STANDARD` cycle), checks that `Handoff.Reason` mentions exactly one
`Increment N`.

**Why.** Checkpoint Handoffs: "Both checkpoint directions identify the
increment concisely in `Handoff.Reason`" and "Every checkpoint requires a
defined increment." One handoff assigns or returns one increment.

**Fix safety.** No fix: the increment comes from Developer's plan.
""",
    bad_example="`Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`: `Increment 1 and Increment 2 ready.`",
    good_example="`Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`: `Increment 1 ready.`",
    help="Name exactly one `Increment N` of the plan in the CHECKPOINT reason.",
    no_fix_reason="The increment comes from Developer's plan.",
)
def checkpoint_reason_increment(project):
    v = handoff_view(project)
    if v is None or v.kind != "CHECKPOINT" or v.cm != "STANDARD":
        return
    if (v.frm, v.ws) not in CHECKPOINT_EXCHANGES or v.ft != "NONE" or v.recovery_in_use() is not False:
        return
    f = v.reason_f
    if f is None:
        return
    n = len(_INCREMENT_RE.findall(f.value))
    if n == 1:
        return
    yield report(
        value_at(f),
        f"A CHECKPOINT Reason identifies exactly one `Increment N`; this one names {n or 'none'}.",
    )


@rule(
    code="SL413",
    name="promote-reason",
    section="Expedited Promotion",
    owner="state",
    summary="A PROMOTE handoff persists Active Work.PromotionReason.",
    explanation="""
**What it does.** Reports a `PROMOTE` handoff while `Active Work.PromotionReason`
is `NONE`.

**Why.** Expedited Promotion: "record a concise reason identifying which
omitted standard guarantee is now required. Persist the same reason in
`Active Work.PromotionReason`." and Workflow State Reference:
"`PromotionReason`: durable reason an expedited cycle was promoted ...
Preserve it for the remainder of the cycle".

**Fix safety.** No fix: the reason is the promoting role's judgement.
""",
    bad_example="`PromotionReason`: `NONE` ... `Kind`: `PROMOTE` `From`: `DEVELOPING`",
    good_example="`PromotionReason`: `Needs Tester-owned verification of the migration.` ... `Kind`: `PROMOTE`",
    help="Record the omitted standard guarantee that forced promotion in `Active Work.PromotionReason`.",
    no_fix_reason="The reason is the promoting role's judgement.",
)
def promote_reason(project):
    v = handoff_view(project)
    if v is None or v.kind != "PROMOTE":
        return
    f = v.aw_f("PromotionReason")
    if f is None or holds_value(f):
        return
    yield report(
        value_at(f),
        "A PROMOTE handoff persists the omitted standard guarantee that forced promotion in "
        "Active Work.PromotionReason, which is NONE.",
    )


@rule(
    code="SL414",
    name="promote-target",
    section="Expedited Promotion",
    owner="state",
    summary="A PROMOTE handoff leaves CycleMode STANDARD and WorkflowState AUDITING.",
    explanation="""
**What it does.** Reports a `PROMOTE` handoff unless `CycleMode` is
`STANDARD` and `WorkflowState` is `AUDITING`.

**Why.** Expedited Promotion: "Set `CycleMode: STANDARD`, `WorkflowState:
AUDITING`, and `Active Work.CompletionPolicy: FULL_DELIVERABLE`. Set
`Handoff.Kind: PROMOTE`" and "the standard brownfield topology restarts at
`AUDITING`". A later transition replaces the `PROMOTE` handoff, so while it is
the latest handoff the cycle is at `AUDITING`. Promotion exists only for
expedited cycles ("A documentation cycle has one fixed completion contract
and no promotion").

**Fix safety.** No fix: a mode or state other than the promoted one usually
means the handoff kind is wrong.
""",
    bad_example="`WorkflowState`: `ARCHITECTING` `CycleMode`: `STANDARD` ... `Kind`: `PROMOTE`",
    good_example="`WorkflowState`: `AUDITING` `CycleMode`: `STANDARD` ... `Kind`: `PROMOTE`",
    help="Leave a PROMOTE handoff at `CycleMode`: `STANDARD` and `WorkflowState`: `AUDITING`, or correct the handoff kind.",
    no_fix_reason="A mode or state other than the promoted one usually means the handoff kind is wrong.",
)
def promote_target(project):
    v = handoff_view(project)
    if v is None or v.kind != "PROMOTE":
        return
    cm, ws = v.cm, v.ws
    if cm is None or ws is None or (cm == "STANDARD" and ws == "AUDITING"):
        return
    where = v.ws_f if ws != "AUDITING" else v.cm_f
    yield report(
        value_at(where),
        f"A PROMOTE handoff sets CycleMode STANDARD and WorkflowState AUDITING, but they are "
        f"{cm} and {ws}.",
    )


standards_lint_rules = module_rules(globals())
