"""The df programs equivalent to the kernel library's patterns, one module per element type.

programs/patterns.mlir.in is written once over a placeholder element type `T` and the
spellings that differ between floats and integers (MUL, ADD, GT, ZERO, ONE, TOP, BOTTOM,
REASSOC); `program(dtype)` substitutes them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "programs" / "patterns.mlir.in"

_FLOAT = {
    "MUL": "arith.mulf", "ADD": "arith.addf", "GT": "arith.cmpf ogt,", "ZERO": "0.0", "ONE": "1.0",
    "REASSOC": "reassoc",
}
_TOP_BOTTOM = {
    "f32": ("0x7F800000", "0xFF800000"),  # +Inf, -Inf
    "f64": ("0x7FF0000000000000", "0xFFF0000000000000"),
    "i32": (str(2**31 - 1), str(-(2**31))),
    "i64": (str(2**63 - 1), str(-(2**63))),
}
_INT = {"MUL": "arith.muli", "ADD": "arith.addi", "GT": "arith.cmpi sgt,", "ZERO": "0", "ONE": "1", "REASSOC": ""}


@functools.cache
def program(dtype: str) -> str:
    """The MLIR text of every pattern for `dtype` (sqrt_abs_axpb only for floats)."""
    text = TEMPLATE.read_text()
    words = dict(_FLOAT if dtype[0] == "f" else _INT)
    words["TOP"], words["BOTTOM"] = _TOP_BOTTOM[dtype]
    if dtype[0] == "i":
        text = re.sub(r"// float-only \{\n.*?// \}\n", "", text, flags=re.S)
    text = re.sub(r"\b(MUL|ADD|GT|ZERO|ONE|TOP|BOTTOM|REASSOC)\b", lambda m: words[m[1]], text)
    text = re.sub(r"\bT\b", dtype, text)
    return text.replace("over [i]  :", "over [i] :").replace("over [k]  :", "over [k] :")
