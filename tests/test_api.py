"""standards_lint.api is the plugin API: every name it lists imports, the
protocol model's names are the model's own objects (a rename or a copy in
the model breaks this test, not a plugin in the field), and the model examples
in docs/plugins.md run and answer as the page says."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import standards_lint.api as api
import standards_lint.model as model
from standards_lint.engine.project import Project

from .rules.conftest import RUNTIME, commit_tree, write_tree

MODEL_NAMES = (
    "model_of", "Model", "Workflow", "Cycle", "RecordFact", "Frame", "Handoff", "Stack", "Value",
    "READ", "MISSING", "REPEATED", "INVALID", "USER", "owner_of", "GATE_RECORDS",
)


@pytest.mark.parametrize("name", sorted(api.__all__))
def test_every_listed_name_imports(name):
    module = importlib.import_module("standards_lint.api")
    assert hasattr(module, name), f"standards_lint.api.__all__ lists {name!r} but the module has no such name"
    exec(f"from standards_lint.api import {name}", {})


def test_all_has_no_duplicates():
    assert len(api.__all__) == len(set(api.__all__))


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_names_are_the_models_objects(name):
    assert name in api.__all__, f"{name} is not exported from standards_lint.api"
    assert name in model.__all__, f"{name} is no longer a public name of standards_lint.model"
    assert getattr(api, name) is getattr(model, name)


def test_status_constants_keep_their_values():
    # Plugins compare Value.status with these constants or with the words:
    # both spellings must keep working.
    assert (api.READ, api.MISSING, api.REPEATED, api.INVALID) == ("read", "missing", "repeated", "invalid")
    assert api.USER == "USER"


# docs/plugins.md, "Ask the protocol model": its examples run as written on a
# small tree (a STANDARD cycle at REVIEWING_IMPLEMENTATION, in recovery, with a
# plan at increment 2, its verification report, and TESTING committed at HEAD),
# and give the answers the page says.
DOC = Path(__file__).resolve().parents[1] / "docs" / "plugins.md"
CID = "add-search-20260101T000000Z-0a1b2c3d"
PLAN = f".standards/docs/development/{CID}.md"
VERIFICATION = f".standards/docs/verification/{CID}.md"
FRAME = """`Active`: `true`

### Frame 1

`From`: `TESTING` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`
`Reason`: `Search ignores case.` `ResumeAt`: `TESTING` `RerunThrough`: `NONE`
"""


def _state(ws: str, recovery: str = "`Active`: `false`") -> str:
    return f"""# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `STANDARD` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `IMPLEMENTATION_REVIEWED` `Id`: `{CID}` `Request`: `Add search.` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `{PLAN}` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `FORWARD` `From`: `TESTING` `FailureType`: `NONE` `Reason`: `Verified.`

## Recovery

{recovery}

## Outstanding Obligations

`Active`: `false`
"""


_PLAN_TEXT = f"""<!-- STANDARDS
Artifact: DEVELOPMENT
Cycle: {CID}
-->

# Development Plan

`Cycle`: `{CID}` `Mode`: `AUTONOMOUS`
`User Style`: `NONE` `User Style Locked`: `false`
`Status`: `IN_PROGRESS` `Verification Cadence`: `INCREMENTAL` `Current Increment`: `2`

## Verification Increments

### Increment 1

`Development Steps`: `DEV-001` `Acceptance`: `AC-001`

### Increment 2

`Development Steps`: `DEV-002, DEV-003` `Acceptance`: `AC-002`
"""
_VERIFICATION_TEXT = f"""<!-- STANDARDS
Artifact: VERIFICATION
Cycle: {CID}
-->

# Verification Report

`Cycle`: `{CID}` `Mode`: `VERIFY` `Status`: `COMPLETE` `User Style`: `NONE`
`Assessment Purpose`: `FULL` `Assessment Target`: `NONE`
"""


def _doc_examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 2. Ask the protocol model"):text.index("## 3. Register it")]
    return re.findall(r"```python\n(.*?)```", section, re.S)


@pytest.fixture
def doc_project(tmp_path):
    commit_tree(tmp_path, dict(RUNTIME, **{".standards/STATE.md": _state("TESTING")}))
    write_tree(tmp_path, {".standards/STATE.md": _state("REVIEWING_IMPLEMENTATION", FRAME),
                          PLAN: _PLAN_TEXT, VERIFICATION: _VERIFICATION_TEXT})
    return Project(str(tmp_path))


def test_the_plugin_docs_examples_answer_as_documented(doc_project):
    examples = _doc_examples()
    assert len(examples) >= 7  # the opening, Values, five questions, the rule
    ns = {"project": doc_project, **{name: getattr(api, name) for name in api.__all__}}
    for block in examples:
        exec(compile(block, str(DOC), "exec"), ns)
    # Which states has this cycle passed?
    assert ns["passed"] == ("AUDITING", "SCOPING", "ARCHITECTING", "DEVELOPING", "TESTING")
    assert ns["tested"] is True and ns["here"] == "REVIEWING_IMPLEMENTATION" and ns["who"] == "REVIEWER"
    assert ns["ahead"][0] == "DOCUMENTING" and ns["ahead"][-1] == "AWAITING_USER_SIGNOFF"
    # Which recovery frame is live?
    assert ns["frame"].number == 1 and ns["fixer"] == "DEVELOPER" and ns["back_to"] == "TESTING"
    assert ns["obligations"] == []
    # What is the current increment?
    assert ns["current"] == "2" and ns["steps"] == ["DEV-002", "DEV-003"]
    # Which records must exist now?
    assert ns["due"] == ["TESTING"] and ns["missing_records"] == [] and ns["testing_done"] is True
    # What did HEAD say?
    assert ns["head_state"] == "TESTING" and ns["moved"] is True
    # Values
    assert ns["readable"] is True and ns["is_testing"] is False
    assert ns["what_we_could_not_read"] == "`REVIEWING_IMPLEMENTATION`"
    # The rule: this report cites no command.
    found = list(ns["verification_cites_command"].check(doc_project))
    assert [(d.path, d.span.line) for d in found] == [(VERIFICATION, 8)]


def test_the_docs_questions_stand_down_on_an_unreadable_state(doc_project, tmp_path):
    write_tree(tmp_path, {".standards/STATE.md": _state("REVIEWING_IMPLEMENTATION ", FRAME)})
    ns = {"project": Project(str(tmp_path)), **{name: getattr(api, name) for name in api.__all__}}
    for block in _doc_examples():
        exec(compile(block, str(DOC), "exec"), ns)
    assert ns["readable"] is False and ns["here"] is None and ns["tested"] is False
    assert ns["what_we_could_not_read"].startswith("WorkflowState unreadable: `REVIEWING_IMPLEMENTATION `")
    assert ns["moved"] is False and ns["due"] == []
    assert list(ns["verification_cites_command"].check(ns["project"])) == []
