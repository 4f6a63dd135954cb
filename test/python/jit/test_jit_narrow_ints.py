"""`@loopopt.jit` on int8/int16 and unsigned arrays: the results equal numpy's, dtype included.

Unsigned dtypes lower to the signless integer of their width with unsigned ops (divui, remui,
cmpi ult, extui, uitofp, maxui, and min/max reductions through a sign-bit flip); numpy sums
small integers in int64 / uint64. Every ISA this machine runs (NEON under qemu), sizes around
the vector widths, edge values (0, 1, MAX, MIN) mixed into random data.
"""

from __future__ import annotations

import numpy as np
import pytest

import loopopt
from isa_support import isa_params

SIZES = (0, 1, 7, 15, 16, 17, 31, 32, 33, 64, 101, 1009)


def _data(dt: type[np.integer], n: int, seed: int) -> np.ndarray:
    info = np.iinfo(dt)
    x = np.random.default_rng(seed).integers(info.min, info.max, n, dtype=dt, endpoint=True)
    edges = np.array([0, 1, info.max, info.min, info.max - 1, 7], dtype=dt)
    x[: min(n, len(edges))] = edges[: min(n, len(edges))]
    return x


def _nonzero(x: np.ndarray) -> np.ndarray:
    return np.where(x == 0, 1, x).astype(x.dtype)


CASES = [
    ("count_range_u8", lambda x: np.sum((x >= 48) & (x <= 57)), (np.uint8,), False),
    ("count_equal_u8", lambda x: np.sum(x == 200), (np.uint8,), False),
    ("sum_u8", lambda x: np.sum(x), (np.uint8,), False),
    ("sum_u16", lambda x: np.sum(x), (np.uint16,), False),
    ("max_u8", lambda x: np.max(x), (np.uint8,), True),
    ("min_u16", lambda x: np.min(x), (np.uint16,), True),
    ("max_i8", lambda x: np.max(x), (np.int8,), True),
    ("add_wraps_u8", lambda x, y: x + y, (np.uint8, np.uint8), False),
    ("mul_wraps_i16", lambda x, y: x * y, (np.int16, np.int16), False),
    ("floordiv_const_u8", lambda x: x // 7, (np.uint8,), False),
    ("floordiv_u16", lambda x, y: x // _nonzero_traced(y), (np.uint16, np.uint16), False),
    ("mod_u8", lambda x, y: x % y, (np.uint8, np.uint8), False),
    ("floordiv_i16", lambda x: x // -3, (np.int16,), False),
    ("select_greater_u8", lambda x, y: np.where(x > y, x, y), (np.uint8, np.uint8), False),
    ("maximum_u32", lambda x, y: np.maximum(x, y), (np.uint32, np.uint32), False),
    ("widen_u8_to_i32", lambda x: x.astype(np.int32) * 3, (np.uint8,), False),
    ("u8_to_f32", lambda x: x.astype(np.float32) * np.float32(0.5), (np.uint8,), False),
    ("i8_plus_u8", lambda x, y: x + y, (np.int8, np.uint8), False),
    ("shift_u16", lambda x: (x >> 3) ^ (x << 2), (np.uint16,), False),
    ("sum_i16_halves", lambda x: np.sum(x // 2), (np.int16,), False),
]


def _nonzero_traced(y):  # traced: where(y == 0, 1, y) keeps y's dtype
    return np.where(y == 0, np.uint16(1), y)


def _params():
    out = []
    for name, fn, dtypes, nonempty in CASES:
        for p in isa_params(("scalar", "sse2", "avx2", "avx512", "neon")):
            out.append(pytest.param(fn, dtypes, nonempty, p.values[0], marks=p.marks, id=f"{name}-{p.values[0]}"))
    return out


@pytest.mark.parametrize("fn,dtypes,nonempty,isa", _params())
def test_narrow_and_unsigned_match_numpy(fn, dtypes, nonempty, isa):
    jitted = loopopt.jit(fn, target=isa)
    sizes = (0, 1, 17, 33, 101) if isa == "neon" else SIZES
    for n in sizes:
        if nonempty and n == 0:
            continue
        args = [_data(dt, n, seed) for seed, dt in enumerate(dtypes)]
        for offset in (0, 1):  # unaligned views too
            view = [np.concatenate([a[:1], a])[1:] if offset else a for a in args]
            with np.errstate(all="ignore"):
                want = fn(*view)
            got = jitted(*view)
            assert np.asarray(got).dtype == np.asarray(want).dtype, (n, np.asarray(got).dtype, np.asarray(want).dtype)
            np.testing.assert_array_equal(got, want, err_msg=f"n={n} offset={offset}")
