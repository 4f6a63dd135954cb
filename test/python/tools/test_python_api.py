"""The Python API's calling conveniences and errors (compile.py): keyword arguments by
parameter name, one value for one result, outputs that alias inputs rejected, `target=`
errors that list `native`, the C header's pipeline accepted by `pipeline=`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import loopopt

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir"


@pytest.fixture(scope="module")
def kernels():
    return loopopt.compile(EXAMPLE.read_text(), target="scalar")


def test_call_by_keyword_and_one_value(kernels):
    x = np.array([1.0, -2.0, 3.0, 4.0], np.float32)
    total = kernels.call("sumsq", x=x)
    assert isinstance(total, np.float32) and total == np.float32(30.0)  # a scalar, not (scalar,)
    out = kernels.call("sqrt_abs_axpb", x, b=np.float32(1.0), a=np.float32(4.0))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.sqrt(np.abs(np.float32(4.0) * x)) + np.float32(1.0))
    kept, count = kernels.call("scale_positive", a=np.float32(2.0), x=x)  # two values: a tuple
    np.testing.assert_array_equal(kept, [2.0, 6.0, 8.0])
    assert count == 3


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((), {"y": 1}, "unexpected keyword argument 'y' \\(inputs: x, a, b\\)"),
    ((), {"out": 1}, "'out' is an output"),
    ((np.zeros(2, np.float32),), {"x": 1}, "multiple values for argument 'x'"),
    ((np.zeros(2, np.float32),), {}, "missing 2 required arguments: 'a', 'b'"),
    ((1, 2, 3, 4), {}, "takes 3 inputs"),
])
def test_bad_arguments_are_type_errors(kernels, args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        kernels.call("sqrt_abs_axpb", *args, **kwargs)


def test_output_aliasing_an_input_is_rejected(kernels):
    x = np.arange(8, dtype=np.float32)
    before = x.copy()
    with pytest.raises(ValueError, match="output 'out' overlaps parameter 'x'; kernel buffers must not alias"):
        kernels.sqrt_abs_axpb(x, np.float32(2), np.float32(1), x)
    with pytest.raises(ValueError, match="overlaps"):  # a partial overlap too
        kernels.sqrt_abs_axpb(x[:4], np.float32(2), np.float32(1), x[2:6])
    np.testing.assert_array_equal(x, before)  # nothing was written
    out = np.empty(4, np.float32)
    kernels.sqrt_abs_axpb(x[:4], np.float32(2), np.float32(1), out)  # disjoint views of one base are fine
    kernels.sqrt_abs_axpb(x[:4], np.float32(2), np.float32(1), x[4:])


def test_target_errors_list_native():
    with pytest.raises(ValueError, match="expected one of scalar, sse2, avx2, avx512, neon, native"):
        loopopt.compile(EXAMPLE.read_text(), target="avx9")
