"""Helpers for rule tests: build a small project tree and lint it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from standards_lint.engine.run import lint

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


def commit_tree(root: Path, files: dict) -> Path:
    """Write *files* under *root* and commit them as a new git repository's
    first commit (HEAD); skips the test where git is unavailable."""
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")

    def git(*args):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)

    try:
        git("init", "-q")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is unavailable")
    write_tree(root, files)
    git("add", "-A")
    git("commit", "-q", "-m", "base")
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
