"""An exact fused multiply-add oracle for testing kernels that contract `a*x + b`.

numpy has no FMA, and computing `a*b + c` in numpy rounds twice; kernels that
use FMA instructions therefore need a correctly rounded reference. This calls
libm's `fmaf`/`fma` (correctly rounded by C11 §7.12.13.1) from a tiny helper
compiled with `-ffp-contract=off` for the portable scalar ISA.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .library import Library, compile_library
from .signature import ArrayParam, KernelSignature

_SOURCE = r"""
#include <math.h>
#include <stdint.h>

void lo_fma_f32(const float *restrict a, int64_t a_len, const float *restrict b, int64_t b_len,
                const float *restrict c, int64_t c_len, float *restrict out, int64_t out_len)
{
    (void)b_len; (void)c_len; (void)out_len;
    for (int64_t i = 0; i < a_len; i++)
        out[i] = fmaf(a[i], b[i], c[i]);
}

void lo_fma_f64(const double *restrict a, int64_t a_len, const double *restrict b, int64_t b_len,
                const double *restrict c, int64_t c_len, double *restrict out, int64_t out_len)
{
    (void)b_len; (void)c_len; (void)out_len;
    for (int64_t i = 0; i < a_len; i++)
        out[i] = fma(a[i], b[i], c[i]);
}
"""


def _signature(dtype: str) -> KernelSignature:
    return KernelSignature(
        f"lo_fma_{dtype}",
        (
            ArrayParam("a", dtype, axes=("n",)),
            ArrayParam("b", dtype, axes=("n",)),
            ArrayParam("c", dtype, axes=("n",)),
            ArrayParam("out", dtype, output=True, axes=("n",)),
        ),
    )


@functools.cache
def _library() -> Library:
    return compile_library(_SOURCE, [_signature("f32"), _signature("f64")], isa="scalar")


def fma(a: Any, b: Any, c: Any) -> Any:
    """Correctly rounded `a*b + c`, elementwise with numpy broadcasting, in float32 or float64.

    The dtype is numpy's result type of the operands (Python floats adapt to
    the arrays' dtype); all-scalar operands give a numpy scalar.
    """
    dtype = np.result_type(a, b, c)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"fma: operands must be float32 or float64, found result dtype {dtype}")
    name = "lo_fma_f32" if dtype == np.float32 else "lo_fma_f64"
    arrays = np.broadcast_arrays(*(np.asarray(x, dtype) for x in (a, b, c)))
    shape = arrays[0].shape
    flat = [np.ascontiguousarray(x).reshape(-1) for x in arrays]
    out = np.empty(flat[0].size, dtype)
    _library()[name](*flat, out)
    result = out.reshape(shape)
    return result[()] if result.ndim == 0 else result
