"""Special values through compiled kernels on every ISA: NaN and ±Inf through float min/max
(numpy's NaN propagation), integer overflow wrapping like numpy, IEEE division by zero.

Each program runs at sizes 1, 7, 8, 9, 19, 35, 1000 (around the vector widths and their
tails) with special values sprinkled at random positions (first and last included), on the
native ISAs with buffers at +1 element, and on NEON under qemu in one batched run.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from loopopt.compile import compile
from loopopt.tools.loop_run import compare_results, run_compiled, run_compiled_batch

ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")
SIZES = (1, 7, 8, 9, 19, 35, 1000)


def _reduce(kind: str, t: str, init: str) -> str:
    return f"""
func.func @k(%x: !df.array<{t}, [i]>) -> {t} {{
  %init = arith.constant {init} : {t}
  %r = df.reduce {kind}(%x, %init) over [i] reassoc : !df.array<{t}, [i]> -> {t}
  func.return %r : {t}
}}"""


def _map2(op: str, t: str) -> str:
    return f"""
func.func @k(%x: !df.array<{t}, [i]>, %y: !df.array<{t}, [i]>) -> !df.array<{t}, [i]> {{
  %r = df.map %x, %y : !df.array<{t}, [i]>, !df.array<{t}, [i]> -> !df.array<{t}, [i]> {{
  ^bb0(%a: {t}, %b: {t}):
    %s = {op} %a, %b : {t}
    df.yield %s : {t}
  }}
  func.return %r : !df.array<{t}, [i]>
}}"""


FLOAT_SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 0.0)


def _floats(dtype, n, rng, specials=FLOAT_SPECIALS):
    x = rng.uniform(-100, 100, n).astype(dtype)
    where = rng.choice(n, size=min(n, max(1, n // 50)), replace=False)
    x[where] = rng.choice(np.array(specials, dtype), where.size)
    x[[0, -1]] = rng.choice(np.array(specials, dtype), 2)
    return x


def _ints(dtype, n, rng):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    x[rng.choice(n, size=min(n, 3), replace=False)] = rng.choice(np.array([info.min, info.max, -1], dtype), min(n, 3))
    return x


def _nan_min(x):
    return x.dtype.type(np.min(x, initial=np.inf))


def _nan_max(x):
    return x.dtype.type(np.max(x, initial=-np.inf))


CASES = {
    # name: (program, make inputs(n, rng), numpy reference(*inputs))
    "min_f32": (_reduce("min", "f32", "0x7F800000"), lambda n, r: (_floats(np.float32, n, r),), _nan_min),
    "max_f32": (_reduce("max", "f32", "0xFF800000"), lambda n, r: (_floats(np.float32, n, r),), _nan_max),
    "min_f64": (_reduce("min", "f64", "0x7FF0000000000000"), lambda n, r: (_floats(np.float64, n, r),), _nan_min),
    "max_f64": (_reduce("max", "f64", "0xFFF0000000000000"), lambda n, r: (_floats(np.float64, n, r),), _nan_max),
    "max_inf_only_f32": (_reduce("max", "f32", "0xFF800000"),
                         lambda n, r: (_floats(np.float32, n, r, (np.inf, -np.inf)),), _nan_max),
    "sum_wrap_i32": (_reduce("add", "i32", "0"), lambda n, r: (_ints(np.int32, n, r),),
                     lambda x: np.sum(x, dtype=np.int32)),
    "sum_wrap_i64": (_reduce("add", "i64", "0"), lambda n, r: (_ints(np.int64, n, r),),
                     lambda x: np.sum(x, dtype=np.int64)),
    "prod_wrap_i32": (_reduce("mul", "i32", "1"), lambda n, r: (_ints(np.int32, n, r) | 1,),
                      lambda x: np.prod(x, dtype=np.int32)),
    "mul_wrap_i64": (_map2("arith.muli", "i64"), lambda n, r: (_ints(np.int64, n, r), _ints(np.int64, n, r)),
                     lambda x, y: x * y),
    "sub_wrap_i32": (_map2("arith.subi", "i32"), lambda n, r: (_ints(np.int32, n, r), _ints(np.int32, n, r)),
                     lambda x, y: x - y),
    "div_f32": (_map2("arith.divf", "f32"),
                lambda n, r: (_floats(np.float32, n, r), _floats(np.float32, n, r, (0.0, -0.0, np.inf, np.nan))),
                lambda x, y: x / y),
    "div_f64": (_map2("arith.divf", "f64"),
                lambda n, r: (_floats(np.float64, n, r), _floats(np.float64, n, r, (0.0, -0.0, np.inf, np.nan))),
                lambda x, y: x / y),
}


@functools.cache
def _compiled(name: str, isa: str):
    return compile(CASES[name][0], target=isa)


def _data(name: str, n: int):
    rng = np.random.default_rng([n, len(name)])
    inputs = CASES[name][1](n, rng)
    with np.errstate(all="ignore"):
        return inputs, (CASES[name][2](*inputs),)


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in ISAS])
@pytest.mark.parametrize("name", CASES)
def test_special_values(name, isa):
    compiled = _compiled(name, isa)
    data = [_data(name, n) for n in SIZES]
    if compiled.library is None:
        runs = run_compiled_batch(compiled, "k", [inputs for inputs, _ in data])
    else:
        runs = [run_compiled(compiled, "k", inputs, offset=1) for inputs, _ in data]
    for n, (inputs, ref), got in zip(SIZES, data, runs, strict=True):
        problems = compare_results(got, ref, {})
        assert not problems, f"{name} on {isa}, n={n}: " + "; ".join(problems)


def test_specials_are_present():
    """The inputs really hold what the cases claim (NaN, both infinities, both zeros, INT_MIN/MAX)."""
    (x,), _ = _data("min_f32", 1000)
    assert np.isnan(x).any() and np.isposinf(x).any() and np.isneginf(x).any()
    assert (np.signbit(x) & (x == 0)).any()
    (w,), _ = _data("sum_wrap_i32", 1000)
    assert np.iinfo(np.int32).min in w or np.iinfo(np.int32).max in w
    _, (s,) = _data("sum_wrap_i32", 1000)
    assert s != np.sum(w.astype(np.int64))  # the sum really wraps
