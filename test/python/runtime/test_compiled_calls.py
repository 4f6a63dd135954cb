"""`loopopt.compile(...)` kernels called by parameter name: the kernel itself (C parameter
names, outputs included), `call_alloc` and `call` (input names), on every ISA (NEON through
`ForeignKernel`, which takes the inputs only)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from isa_support import isa_params

import loopopt

EXAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir").read_text()
X = np.array([1.0, -2.0, 3.0, 4.0, -0.5, 9.0, 2.0, 0.25, -7.0], np.float32)
A, B = np.float32(4.0), np.float32(1.0)
AXPB = np.sqrt(np.abs(A * X)) + B


@pytest.mark.parametrize("isa", isa_params())
def test_inputs_by_name(isa):
    k = loopopt.compile(EXAMPLE, target=isa)
    out = k.call_alloc("sqrt_abs_axpb", X, b=B, a=A)  # one output: the array, not (array,)
    np.testing.assert_allclose(out, AXPB, rtol=1e-6)
    total = k.call_alloc("sumsq", X)  # one result: the numpy scalar
    assert isinstance(total, np.float32) and total == np.sum(X * X, dtype=np.float32)
    kept, count = k.call_alloc("scale_positive", a=np.float32(2), x=X)
    np.testing.assert_array_equal(kept, 2 * X[X > 0])
    assert count == 6
    assert k.call("sumsq", x=X) == np.sum(X * X, dtype=np.float32)
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        k.call_alloc("sqrt_abs_axpb", X, y=A)
    with pytest.raises(TypeError, match="missing 1 required argument: 'b'"):
        k.call_alloc("sqrt_abs_axpb", X, a=A)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_the_kernel_itself_by_name(isa):
    k = loopopt.compile(EXAMPLE, target=isa)
    out = np.zeros_like(X)
    assert k.sqrt_abs_axpb(X, b=B, out=out, a=A) is None
    np.testing.assert_allclose(out, AXPB, rtol=1e-6)
    kept = np.zeros_like(X)
    assert k.scale_positive(out=kept, a=np.float32(2), x=X) == 6
    with pytest.raises(ValueError, match="output 'out' overlaps parameter 'x'"):
        k.sqrt_abs_axpb(X, A, B, out=X)


def test_outputs_and_results_is_always_the_tuple():
    k = loopopt.compile(EXAMPLE, target="scalar")
    (total,) = k.outputs_and_results("sumsq", x=X)
    assert total == np.sum(X * X, dtype=np.float32)
    kept, count = k.outputs_and_results("scale_positive", X, np.float32(2))
    np.testing.assert_array_equal(kept, 2 * X[X > 0])
    assert count == 6
