"""Every parity case: standards-lint meets what the framework's checker found."""

from __future__ import annotations

import os

import pytest

from standards_lint.engine import load_registry

from . import harness

ROWS = harness.load_map()
KNOWN = harness.load_known()
CASES = list(harness.iter_cases())
BASE = "/dev/shm" if os.path.isdir("/dev/shm") else None


def test_case_count():
    assert len(CASES) == 2283


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parity_case(case):
    outcome = harness.run_case(case, ROWS, load_registry(), BASE, KNOWN)
    problems = (
        [f"unmapped: {p['file']}: {p['message']}" for p in outcome.unmapped]
        + [f"missing: {p['file']}: {p['message']}" for p in outcome.missing]
        + [f"extra: {harness._fmt_finding(f)}" for f in outcome.extra]
        + [f"internal: {harness._fmt_finding(f)}" for f in outcome.internal]
    )
    assert not problems, "\n".join(problems)
