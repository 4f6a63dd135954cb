"""Calling a kernel the same way whatever its pattern: inputs in, (output or result) out."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from kernels_data import unaligned
from kernels_oracle import row_shape
from loopopt.kernels import PATTERNS


def call(fn: Callable[..., Any], pattern: str, x: np.ndarray, y: np.ndarray, a: Any, b: Any, offset: int = 0) -> Any:
    """Run one kernel; maps/filters return their output (a filter's trimmed to its count).

    The output buffer starts `offset` elements into its allocation (unaligned).
    """
    kind = PATTERNS[pattern].kind
    if kind == "fold":
        return fn(x)
    if kind == "zip_fold":
        return fn(x, y)
    out = unaligned(np.full(x.size, 7, x.dtype), offset)
    if kind == "map":
        assert fn(x, a, b, out) is None
        return out
    if kind == "zip_map":
        assert fn(x, y, a, out) is None
        return out
    if kind == "scan":
        assert fn(x, out) is None
        return out
    if kind == "row_fold":
        rows, cols = row_shape(x.size)
        out = unaligned(np.full(rows, 7, x.dtype), offset)
        assert fn(x.reshape(rows, cols), out) is None
        return out
    count = fn(x, a, out)
    return out[:count]
