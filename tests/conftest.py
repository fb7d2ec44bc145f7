"""Test-wide settings."""

import pytest


@pytest.fixture(autouse=True)
def _isolated_caches(tmp_path_factory, monkeypatch):
    """Every test runs with its own cache folder and without the result cache
    (a test that lints the same tree twice with a patched reader must really
    lint twice); tests/test_cache.py turns the result cache back on."""
    monkeypatch.setenv("STANDARDS_LINT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    monkeypatch.setenv("STANDARDS_LINT_NO_CACHE", "1")
