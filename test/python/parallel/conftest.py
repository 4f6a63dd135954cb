"""Fixtures of the parallel-kernel tests (helpers to import are in par_programs.py)."""

from __future__ import annotations

import pytest

from loopopt.runtime import threads


@pytest.fixture
def restore_threads():
    """The process-wide thread setting put back after the test (tests set 1-4 threads)."""
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)
