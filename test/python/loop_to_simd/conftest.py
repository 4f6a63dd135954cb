"""Make the df corpus loader importable; register the `slow` marker (run with LOOPOPT_SLOW=1)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "df"))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long interpreter runs; enabled by LOOPOPT_SLOW=1")
