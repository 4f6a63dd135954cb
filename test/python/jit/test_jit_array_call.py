"""The generated call of a jitted function with array results (`Specialization.run`) against
the general path (`Specialization.slow`): the same values, dtypes and container types, and
the same errors (strided views, unequal lengths, x[idx] out of range, wrong dtypes)."""

from __future__ import annotations

import numpy as np
import pytest

import loopopt

TARGET = "scalar"  # the Python side does not depend on the ISA

CASES = {
    "map": (lambda x: x * 2, lambda r: (np.arange(-5, 6, dtype=np.float32),)),
    "filter": (lambda x, t: x[x > t], lambda r: (r.standard_normal(37).astype(np.float32), np.float32(0.1))),
    "gather_map": (lambda x, idx: x[idx] * 2, lambda r: (r.standard_normal(9), r.integers(-9, 9, 40))),
    "gather": (lambda x, idx: x[idx], lambda r: (r.standard_normal(9).astype(np.float32),
                                                 r.integers(0, 9, 33).astype(np.int32))),
    "tuple_mixed": (lambda x, y: (x + y, np.sum(x), 3, None), lambda r: (np.arange(7.0), np.ones(7))),
    "list_dict": (lambda x: [{"a": x, "b": x > 2}, x[x > 1]], lambda r: (np.arange(6, dtype=np.int32),)),
    "unsigned": (lambda x, s: x * s, lambda r: (np.arange(250, 256, dtype=np.uint8), np.uint8(3))),
    "unsigned_gather": (lambda x, idx: x[idx] + 1, lambda r: (np.arange(5, dtype=np.uint16),
                                                             np.array([4, 0, 255], np.uint8) % 5)),
    "python_scalar": (lambda x, a: np.where(x > a, x, a), lambda r: (np.arange(9, dtype=np.int64), 4)),
}


def _same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, dict):
        assert list(got) == list(want)
        for k in want:
            _same(got[k], want[k])
    elif isinstance(want, tuple | list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, np.ndarray | np.generic):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_call_matches_the_general_path(name):
    fn, make = CASES[name]
    args = make(np.random.default_rng(0))
    f = loopopt.jit(fn, target=TARGET)
    got = f(*args)
    spec = f.last
    assert spec.run is not None, "array results take the generated call"
    _same(got, spec.slow(args))
    _same(got, fn(*args))
    _same(f(*args), got)  # through the dispatcher's guard again


def test_strided_views_fall_back_and_copy():
    f = loopopt.jit(lambda x, y: x * y, target=TARGET)
    x = np.arange(30, dtype=np.float32)
    f(x[:10], x[10:20])
    assert f.last.run is not None
    np.testing.assert_array_equal(f(x[::3], x[1::3]), x[::3] * x[1::3])
    with pytest.raises(TypeError, match="expects dtype float32, found float64"):
        f.last.run(x[:3], x[:3].astype(np.float64))  # the wrapper still checks dtypes


def test_unequal_lengths_raise_the_general_message():
    f = loopopt.jit(lambda x, y: x + y, target=TARGET)
    x = np.ones(4, np.float32)
    f(x, x)
    with pytest.raises(ValueError) as fast:
        f(x, np.ones(5, np.float32))
    with pytest.raises(ValueError) as slow:
        f.last.slow((x, np.ones(5, np.float32)))
    assert str(fast.value) == str(slow.value) and "length mismatch" in str(fast.value)


@pytest.mark.parametrize("bad", [9, -10, 2**40])
def test_out_of_range_index_raises_on_the_generated_call(bad):
    f = loopopt.jit(lambda x, idx: x[idx] * 2, target=TARGET)
    x, idx = np.arange(9, dtype=np.float32), np.array([0, 3, -9, 8])
    np.testing.assert_array_equal(f(x, idx), x[idx] * 2)
    idx[2] = bad
    with pytest.raises(IndexError) as fast:
        f(x, idx)
    with pytest.raises(IndexError) as slow:
        f.last.slow((x, idx))
    with pytest.raises(IndexError) as numpy:
        x[idx]
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).endswith(f"{numpy.value} (x[idx])")
