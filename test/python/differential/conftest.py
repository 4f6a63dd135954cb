"""Differential tests: the df corpus loader (test/python/df/corpus.py) importable, one program cache.

The compiled programs are cached per test module (`programs` fixture), and the runtime
caches every shared object on disk by content hash, so compile cost is paid once.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "df"))

from diff_harness import ProgramCache  # noqa: E402


@pytest.fixture(scope="module")
def programs() -> ProgramCache:
    """(corpus file, ISA) -> compiled program, built on first use within the module."""
    return ProgramCache()
