"""bench.threads' STREAM-style ceiling loops (copy, triad, read-only sum; plain and non-temporal
stores; 1 and 2 threads) compute what they claim to, on unaligned outputs and around the
64-byte peel and the 16-element vectors: a ceiling that skipped work would look fast."""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.tools.bench.threads import CEILING, ceiling_calls, hand_loops


@pytest.fixture(scope="module")
def lib():
    built = hand_loops()  # gcc, once per module (not at collection)
    if built is None:
        pytest.skip("the ceiling loops need AVX-512 or AVX2 + FMA, and gcc -fopenmp")
    return built


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 31, 1000, 4099])
def test_ceiling_loops_compute_copy_triad_and_sum(lib, n: int, threads: int) -> None:
    rng = np.random.default_rng(n)
    for shift in (0, 1, 5):  # the output 0, 4 and 20 bytes past a 64-byte boundary
        x = rng.standard_normal(n).astype(np.float32)
        c = rng.standard_normal(n).astype(np.float32)
        raw = np.empty(n + 32, np.float32)
        base = (-(raw.ctypes.data // 4)) % 16
        out = raw[base + shift : base + shift + n]
        calls = ceiling_calls(lib, x, c, out, threads)
        assert set(calls) == set(CEILING)
        for row, fn in calls.items():
            out[:] = np.nan
            got = fn()
            if row.startswith("copy"):
                assert out.tobytes() == x.tobytes(), row
            elif row.startswith("triad"):
                np.testing.assert_allclose(out, x + np.float32(3.0) * c, rtol=1e-6, atol=1e-6, err_msg=row)
            else:
                assert got == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-4, abs=1e-3), row
