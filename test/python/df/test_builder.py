"""The Python builder: kernels built without text print, verify, and run like the corpus."""

from __future__ import annotations

import doctest
import re

import numpy as np

import loopopt.builder
from loopopt.builder import KernelBuilder, build_module, f32, f64, i32, i64
from loopopt.interp.runner import run_function


def test_docstring_example():
    failures, tried = doctest.testmod(loopopt.builder, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_sum_affine_prints_and_runs():
    k = KernelBuilder("sum_affine")
    x = k.array_arg("x", f32, axes=["i"])
    y = k.map(lambda e: e * 2.0 + 1.0, x)
    s = k.reduce("add", y, reassoc=True)
    module = k.returns(s).module()
    text = str(module)
    assert "df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]>" in text
    assert "arith.mulf" in text and "arith.addf" in text
    assert re.search(r"df.reduce add\(%\w+, %\w+\) over \[i\] reassoc : !df.array<f32, \[i\]> -> f32", text)
    xs = np.arange(10, dtype=np.float32)
    (got,) = run_function(module, "sum_affine", xs)
    assert got.dtype == np.float32 and got == np.sum(xs * 2 + 1)


def test_filter_fold_records_decl_ref():
    total = KernelBuilder("total")
    v = total.array_arg("v", i64)
    total.returns(total.reduce("add", v))

    k = KernelBuilder("stats")
    p = k.records_arg("p", {"x": f64, "y": f64})
    t = k.scalar_arg("t", f64)
    d = k.map(lambda e: k.sqrt(e["x"] * e["x"] + e["y"] * e["y"]), p)
    near = k.filter(lambda e: e < t, d)
    count = k.reduce("add", k.map(lambda e: k.constant(1, i64), near), over=["k"])
    best, at = k.fold(lambda m, j, e: (k.max(m, e), j + 1), [float("-inf"), 0], d, types=[f64, i64])
    ramp = k.range(0, at, 1)
    via_ref = k.decl_ref(total, ramp)
    cum = k.scan(lambda a, e: a * 0.5 + e, d, init=0.0)
    s, q = k.reduce_many([("add", d, None), ("max", d, None)], reassoc=True)
    module = build_module(total, k.returns(count, best, via_ref, cum, s, q))

    rng = np.random.default_rng(1)
    px, py = rng.uniform(-1, 1, 50), rng.uniform(-1, 1, 50)
    got = run_function(module, "stats", {"x": px, "y": py}, 0.5)
    dist = np.sqrt(px * px + py * py)
    assert got[0] == np.sum(dist < 0.5)
    assert got[1] == dist.max()
    assert got[2] == np.sum(np.arange(50))
    ema, acc = [], 0.0
    for e in dist:
        acc = acc * 0.5 + e
        ema.append(acc)
    np.testing.assert_array_equal(got[3], np.array(ema))
    assert abs(got[4] - dist.sum()) < 1e-12 and got[5] == dist.max()


def test_integer_ops_select_cast():
    k = KernelBuilder("ints")
    x = k.array_arg("x", i32)
    c = k.map(lambda e: e % 3 < 1, x)
    y = k.map(lambda e: k.cast(-e, i64) * 7 - 1, x)
    z = k.select(c, y, k.map(lambda e: k.cast(e, i64), x))
    mx = k.reduce("max", z)
    module = k.returns(z, mx).module()
    xs = np.array([-5, 0, 3, 4, 9, 11], np.int32)
    zr, m = run_function(module, "ints", xs)
    expected = np.where(np.fmod(xs, 3) < 1, -xs.astype(np.int64) * 7 - 1, xs.astype(np.int64))
    np.testing.assert_array_equal(zr, expected)
    assert m == expected.max() and m.dtype == np.int64
