"""Make the df corpus loader and the df → loop lowering harness importable from these tests."""

import sys
from pathlib import Path

_PY = Path(__file__).resolve().parents[1]
for helper in ("df", "df_to_loop"):
    sys.path.insert(0, str(_PY / helper))
