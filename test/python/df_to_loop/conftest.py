"""Make the df corpus loader (test/python/df/corpus.py) importable from these tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "df"))
