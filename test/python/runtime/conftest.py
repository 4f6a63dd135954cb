"""Fixtures of the runtime tests."""

import pytest


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty compile cache (and precompiled preludes on, whatever the caller's environment)."""
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LOOPOPT_PCH", raising=False)
    return tmp_path
