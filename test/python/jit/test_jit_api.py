"""loopopt.jit as a Python API: located errors, the per-signature cache, dispatch, views."""

from __future__ import annotations

import inspect
import time

import numpy as np
import pytest

import loopopt
from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.frontend import JitError

TARGET = "scalar"  # the API does not depend on the ISA; scalar builds fastest


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    for j, line in enumerate(lines):
        if text in line:
            return first + j
    raise AssertionError(text)


def _assert_located(excinfo, fn, text, words):
    msg = str(excinfo.value)
    assert msg.startswith(f"{__file__}:{_line_of(fn, text)}:"), msg
    assert ": error: " in msg
    for w in words:
        assert w in msg, msg
    assert isinstance(excinfo.value, LoopoptDiagnostic)


def test_python_control_flow_is_a_located_error():
    def f(x):
        if x.sum() > 0:  # data-dependent branch
            return x
        return -x

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32))
    _assert_located(e, f, "data-dependent branch", ["control flow", "np.where"])


def test_unsupported_numpy_function_is_a_located_error():
    def f(x):
        y = x * 2
        return np.sort(y)

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32))
    _assert_located(e, f, "np.sort", ["np.sort is not supported"])


def test_len_and_shape_are_located_errors():
    def f(x):
        return x * len(x)

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32))
    _assert_located(e, f, "len(x)", ["len()"])


def test_filtered_array_with_input_array_is_a_located_error():
    def f(x, y):
        return x[x > 0] + y

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32), np.ones(4, np.float32))
    _assert_located(e, f, "x[x > 0] + y", ["different lengths"])


def test_out_of_range_python_int_is_a_located_error():
    def f(k):
        return k * 2**40

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.int32))
    _assert_located(e, f, "2**40", ["out of bounds for int32"])


def test_float_remainder_is_refused():
    def f(x):
        return x % 2.0

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32))
    _assert_located(e, f, "x % 2.0", ["integers only"])


@pytest.mark.parametrize("arg,words", [
    (np.ones(4, np.complex64), ["complex64", "not supported"]),
    (np.ones(4, np.longdouble), [str(np.dtype(np.longdouble)), "not supported"]),  # float16: test_jit_narrow_floats
    (np.ones((2, 2), np.float32), ["rank 2"]),
    ("text", ["unsupported type str"]),
    (np.ones(4, np.dtype(">f4")), ["not supported"]),
])
def test_bad_arguments_are_errors(arg, words):
    with pytest.raises(JitError) as e:
        loopopt.jit(lambda x: x * 2, target=TARGET)(arg)
    for w in words:
        assert w in str(e.value)


def test_cache_per_signature_and_no_retrace():
    calls = []

    @loopopt.jit(target=TARGET)
    def f(x, a):
        calls.append(1)
        return np.sum(np.where(x > 0, x * a, 0))

    x = np.arange(-5, 6, dtype=np.float32)
    assert f(x, np.float32(2)) == np.float32(30)
    assert f(x[::-1].copy(), np.float32(3)) == np.float32(45)
    assert len(calls) == 1 and len(f.cache) == 1
    assert f(x.astype(np.float64), 2.0) == 30.0  # new dtypes: a new specialization
    assert len(calls) == 2 and len(f.cache) == 2
    assert "f64" in str(f.df) and "double" in f.c_source


def test_df_and_c_source_before_the_first_call():
    f = loopopt.jit(lambda x: x + 1, target=TARGET)
    with pytest.raises(ValueError, match="not been compiled"):
        f.df
    spec = f.specialize(np.ones(3, np.int32))
    assert "df.map" in str(spec.df) and "int32_t" in spec.c_source


def test_non_contiguous_views_and_0d_arrays():
    f = loopopt.jit(lambda x, a: np.sum(x * a), target=TARGET)
    x = np.arange(20, dtype=np.int64)
    assert f(x[::2], np.array(3)) == np.sum(x[::2] * 3)
    g = loopopt.jit(lambda x: x * 2, target=TARGET)
    np.testing.assert_array_equal(g(x[1::3]), x[1::3] * 2)


def test_lengths_must_match():
    f = loopopt.jit(lambda x, y: np.sum(x * y), target=TARGET)
    with pytest.raises(ValueError):
        f(np.ones(4, np.float32), np.ones(5, np.float32))


def test_dict_results_and_returned_input():
    f = loopopt.jit(lambda x: {"same": x, "twice": x * 2, "n": np.sum(x > 1)}, target=TARGET)
    x = np.arange(5, dtype=np.int32)
    r = f(x)
    np.testing.assert_array_equal(r["same"], x)
    np.testing.assert_array_equal(r["twice"], x * 2)
    assert r["n"] == 3


def test_hostile_names_do_not_reach_c():
    ns: dict = {}
    exec("def malloc(free, x):\n    return free * x\n", {"np": np}, ns)
    f = loopopt.jit(ns["malloc"], target=TARGET)
    np.testing.assert_array_equal(f(np.int32(2), np.arange(3, dtype=np.int32)), [0, 2, 4])
    assert "malloc(" not in f.c_source.replace("#include", "")


def test_weak_python_scalars_nep50():
    f = loopopt.jit(lambda x: x * 2.0 + 1, target=TARGET)
    assert f(np.ones(3, np.float32)).dtype == np.float32
    assert f(np.ones(3, np.int32)).dtype == np.float64
    g = loopopt.jit(lambda x, s: x * s, target=TARGET)
    assert g(np.ones(3, np.float32), 2.0).dtype == np.float32      # Python float argument: weak
    assert g(np.ones(3, np.float32), np.float64(2.0)).dtype == np.float64  # numpy scalar: strong


def test_dispatch_overhead_after_first_call():
    f = loopopt.jit(lambda x, a: np.sum(np.where(x > 0, x * a, 0)), target=TARGET)
    x, a = np.ones(8, np.float32), np.float32(2)
    f(x, a)
    kernel = f.last.function

    def per_call(fn):
        best = float("inf")
        for _ in range(5):  # best of 5 batches: the machine is shared
            t0 = time.perf_counter()
            for _ in range(4000):
                fn(x, a)
            best = min(best, (time.perf_counter() - t0) / 4000)
        return best

    overhead = per_call(f) - per_call(kernel)
    # the goal is <= 1 µs over the raw call (0.7 µs measured, docs/jit.md); slack for a busy CI
    assert overhead < 2e-6, overhead


@pytest.mark.parametrize("isa", ["scalar", "avx2"])
def test_nan_propagates_like_numpy(isa):
    def f(x):
        return np.min(x), np.max(x), np.maximum(x, 0), np.where(x != x, 1.0, 0.0)

    x = np.array([1, np.nan, -2, 3, 4, 5, 6, 7, 8, 9, 10], np.float32)
    got, want = loopopt.jit(f, target=isa)(x), f(x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_unknown_method_is_a_located_error():
    def f(x):
        return x.reshape(2)

    with pytest.raises(JitError) as e:
        loopopt.jit(f, target=TARGET)(np.ones(4, np.float32))
    _assert_located(e, f, "reshape", ["'.reshape'"])


def test_expressions_deeper_than_the_recursion_limit():
    import sys

    depth = sys.getrecursionlimit() + 100

    def deep(x):
        for _ in range(depth):
            x = x + 1
        return x

    x = np.arange(5, dtype=np.int64)
    np.testing.assert_array_equal(loopopt.jit(deep, target=TARGET)(x), x + depth)


def test_keyword_arguments_and_the_lazy_attribute():
    from loopopt.frontend.jit import jit

    assert loopopt.jit is jit

    @loopopt.jit(target=TARGET)
    def f(x, a=2, b=1):
        return x * a + b

    x = np.arange(4, dtype=np.int64)
    np.testing.assert_array_equal(f(x, b=5), x * 2 + 5)
    np.testing.assert_array_equal(f(a=3, x=x), x * 3 + 1)
    np.testing.assert_array_equal(f(x), x * 2 + 1)
    with pytest.raises(TypeError):
        f(x, c=1)
