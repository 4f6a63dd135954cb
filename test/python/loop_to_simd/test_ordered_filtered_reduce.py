"""A filtered float sum/product without `reassoc` runs in element order on every target.

Regression for issue #10: on the scalar target the lowering started the accumulator at +0.0
and added the init after the kept elements (init=1e8 then 1.0s gives 1e8, not 1e8 + n);
on vector targets the width-1 predloop was split into 4 interleaved chains (a reassociation)
over `vector<1xT>`, which no vector ISA prints. The kernels are compared bit for bit with a
sequential numpy float32/float64 loop.
"""

from __future__ import annotations

import numpy as np
import pytest

import loopopt
from loopopt.runtime.isa import host_isas

SOURCE = """
func.func @fsum(%x: !df.array<{t}, [i]>, %init: {t}) -> {t} {{
  %k = df.filter %x : !df.array<{t}, [i]> -> !df.array<{t}, [k]> {{
  ^bb0(%e: {t}):
    %z = arith.constant 0.0 : {t}
    %c = arith.cmpf ogt, %e, %z : {t}
    df.yield %c : i1
  }}
  %s = df.reduce {kind}(%k, %init) over [k] : !df.array<{t}, [k]> -> {t}
  func.return %s : {t}
}}
"""

TARGETS = [t for t in ("scalar", "sse2", "avx2", "avx512") if t == "scalar" or t in host_isas()]


def sequential(kind: str, x: np.ndarray, init) -> np.generic:
    acc = init
    for e in x:
        if e > 0:
            acc = acc + e if kind == "add" else acc * e
    return acc


def cases(dtype) -> list[tuple[str, np.ndarray, object]]:
    rng = np.random.default_rng(10)
    t = np.dtype(dtype).type
    mixed = (rng.standard_normal(37) * 1e3).astype(dtype)
    return [
        # 1e8 + 1.0 rounds back to 1e8 in f32: the init must come first
        ("add", np.ones(19, dtype), t(1e8 if dtype == np.float32 else 1e17)),
        ("add", mixed, t(3.0e7)),
        ("add", -np.ones(5, dtype), t(-0.0)),  # nothing kept: the init itself, -0.0
        ("add", np.concatenate([np.full(8, 1e-8, dtype), np.ones(9, dtype)]), t(1.0)),
        ("mul", rng.uniform(0.5, 1.5, 23).astype(dtype), t(1e-30 if dtype == np.float32 else 1e-300)),
    ]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_filtered_reduce_without_reassoc_is_sequential(target, dtype):
    t = "f32" if dtype == np.float32 else "f64"
    kernels = {kind: loopopt.compile(SOURCE.format(t=t, kind=kind), target=target) for kind in ("add", "mul")}
    for kind, x, init in cases(dtype):
        got = kernels[kind].fsum(x, init)
        want = sequential(kind, x, init)
        assert np.asarray(got, dtype).tobytes() == np.asarray(want, dtype).tobytes(), (kind, x, init, got, want)


def test_the_scalar_target_starts_the_chain_at_the_init():
    from loopopt.compile import make_context, parse, run_pipeline

    ctx = make_context()
    module = parse(SOURCE.format(t="f32", kind="add"), ctx)
    run_pipeline(module, "loop-pipeline{target=scalar interleave=4}", ctx)
    text = str(module)
    assert "simd.broadcast %init" in text
    assert "arith.addf %init" not in text  # the init is not added after the elements
