"""Helpers for rule tests: build a small project tree and lint it."""

from __future__ import annotations

from pathlib import Path

import pytest

from standards_lint.engine import lint

BROWNFIELD_MODE = "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n"
RUNTIME = {
    ".standards/PROTOCOL.md": "<!-- standards:framework-owned -->\n\n# S.T.A.N.D.A.R.D.S. Protocol\n",
    ".standards/VERSION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S.",\n  "version": "0.11.0"\n}\n',
    ".standards/INSTALLATION.json": '{\n  "framework": "S.T.A.N.D.A.R.D.S."\n}\n',
    ".standards/MODE.md": BROWNFIELD_MODE,
}

CLEAN_STATE = """# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `AUDITING` `CycleMode`: `UNSET` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `NONE` `Id`: `UNSET` `Request`: `UNSET` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE` `Reason`: `Installed.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"""


def write_tree(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        p = root.joinpath(*rel.split("/"))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")
    return root


@pytest.fixture
def lint_tree(tmp_path):
    """lint_tree({path: text}) -> findings; runtime files are added unless given."""

    def run(files: dict, *, with_runtime: bool = True, state: str | None = CLEAN_STATE, **options):
        tree = dict(RUNTIME) if with_runtime else {}
        if state is not None:
            tree[".standards/STATE.md"] = state
        tree.update(files)
        write_tree(tmp_path, tree)
        return lint(str(tmp_path), use_git=False, **options).findings

    return run


def codes(findings) -> list[str]:
    return [f.code for f in findings]
