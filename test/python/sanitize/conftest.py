"""Sanitizer tests: the df corpus loader and the differential harness importable."""

import sys
from pathlib import Path

_PYTHON_TESTS = Path(__file__).resolve().parents[1]
for _d in ("df", "differential"):
    if str(_PYTHON_TESTS / _d) not in sys.path:
        sys.path.insert(0, str(_PYTHON_TESTS / _d))
