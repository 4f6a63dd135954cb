"""One table from xDSL element types to numpy dtypes, used by every interpreter."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute


BF16_PACKAGE = "ml_dtypes"
"""numpy has no bfloat16: bf16 arrays are `ml_dtypes.bfloat16` (an optional dependency)."""


def bfloat16_dtype() -> np.dtype:
    """`ml_dtypes.bfloat16` as a numpy dtype; an ImportError saying what to install without it."""
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(
            f"bf16 needs the {BF16_PACKAGE} package (numpy has no bfloat16): pip install {BF16_PACKAGE}"
        ) from None
    return np.dtype(ml_dtypes.bfloat16)


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of a scalar type, or of a vector type's elements."""
    if isinstance(t, VectorType):
        t = t.element_type
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, BFloat16Type):
        return bfloat16_dtype()
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            return np.dtype(f"int{width}")
    raise ValueError(f"no numpy dtype for type {t}")


def wrap_int(value: int, dt: np.dtype) -> int:
    """A Python int reduced to the integer dtype `dt`'s width, two's complement (i1: the low bit)."""
    if dt == np.bool_:
        return value & 1
    bits = dt.itemsize * 8
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def cast_to(value, t: Attribute):
    """`value` (numpy scalar or array, or Python number) as the numpy dtype of `t`.

    A Python int becomes an integer type's two's complement pattern, never an OverflowError:
    `-1` and `2**32 - 1` both give the i32 with every bit set; i1 keeps the low bit (1 and -1
    are true).
    """
    dt = numpy_dtype(t)
    if isinstance(value, np.ndarray):
        return value.astype(dt, copy=False)
    if dt.kind in "iub" and isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return dt.type(wrap_int(int(value), dt))
    return dt.type(value)
