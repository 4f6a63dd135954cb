"""A float ufunc of a narrow integer array has numpy's dtype: (u)int8 -> float16, (u)int16 ->
float32 (the jit computed f64: `np.exp(int16)` was finite where numpy overflows to inf; found
by the hostile-input fuzzer)."""

from __future__ import annotations

import numpy as np
import pytest

import loopopt


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64])
@pytest.mark.parametrize("fn", [np.exp, np.sqrt, np.sin])
def test_float_ufunc_of_integers_has_numpys_dtype(dtype: type, fn: np.ufunc) -> None:
    x = np.array([1, 3, 100, 7, 0, 12, 90, 5, 2], dtype)
    got = loopopt.jit(lambda x: fn(x), target="scalar")(x)
    with np.errstate(all="ignore"):
        ref = fn(x)
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=1e-3)
