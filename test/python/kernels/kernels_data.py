"""Input data for the kernel tests: values that make each pattern meaningful.

Integers span the full range so sums, products and a*x + b wrap; floats are
O(1) with random signs; products use factors close to 1 so long products
neither overflow nor underflow (a denormal product would lose the relative
accuracy the bound assumes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels_oracle import NP


def values(rng: np.random.Generator, pattern: str, dtype: str, n: int) -> np.ndarray:
    t = NP[dtype]
    if dtype[0] == "i":
        info = np.iinfo(t)
        return rng.integers(info.min, info.max, size=n, dtype=t, endpoint=True)
    if pattern == "prod":
        mag = 1.0 + rng.uniform(-1, 1, n) * 2.0**-8
        return (mag * rng.choice([-1.0, 1.0], n)).astype(t)
    return rng.uniform(-1.0, 1.0, n).astype(t)


def scalars(rng: np.random.Generator, dtype: str) -> tuple[Any, Any]:
    """(a, b) for the maps."""
    t = NP[dtype]
    if dtype[0] == "i":
        info = np.iinfo(t)
        return t(rng.integers(info.min, info.max)), t(rng.integers(info.min, info.max))
    return t(rng.uniform(-3, 3)), t(rng.uniform(-3, 3))


def unaligned(arr: np.ndarray, offset: int) -> np.ndarray:
    """A copy of `arr` starting `offset` elements into a fresh buffer (an unaligned start)."""
    buf = np.empty(arr.size + offset, arr.dtype)
    view = buf[offset:]
    view[:] = arr
    return view

