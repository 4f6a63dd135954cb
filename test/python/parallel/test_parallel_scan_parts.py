"""Scans of 32-bit lanes next to 64-bit ones (part vectors, targets/c_part.py) against numpy,
sequential and parallel: the f32/i32 scan holds W lanes in half a register, so its carry is
lane W - 1, not the register's top lane (loop-fuzz found `[8] want 4.0 got 2.0` on AVX-512:
the carry came from the zero upper half). Inputs plain and gathered, sizes around the vector
width and the chunk, 1-4 threads, every x86 ISA this machine runs."""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import CHUNK, pipeline

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import threads

_BODY = """
func.func @{name}({src}, %y: !df.array<i64, [i]>) -> (!df.array<{t}, [i]>, !df.array<i64, [i]>) {{
  {gather}%init = arith.constant {init} : {t}
  %s = df.scan {kind}(%x, %init) : !df.array<{t}, [i]> -> !df.array<{t}, [i]>
  %w = df.map %y : !df.array<i64, [i]> -> !df.array<i64, [i]> {{
  ^bb0(%e: i64):
    %d = arith.addi %e, %e : i64
    df.yield %d : i64
  }}
  func.return %s, %w : !df.array<{t}, [i]>, !df.array<i64, [i]>
}}
"""
SCANS = {  # name: (element, kind, init, numpy prefix)
    "max_f32": ("f32", "max", "2.0", np.maximum),
    "min_f32": ("f32", "min", "0x7F800000", np.minimum),
    "max_i32": ("i32", "max", "-5", np.maximum),
    "umax_i32": ("i32", "umax", "3", None),
    "min_i32": ("i32", "min", "2147483647", np.minimum),
    "add_i32": ("i32", "add", "0", np.add),
}
KERNELS = [(name, gathered) for name in SCANS for gathered in (False, True)]


def _source() -> str:
    out = []
    for name, gathered in KERNELS:
        t, kind, init, _ = SCANS[name]
        if gathered:
            src = f"%v: !df.array<{t}, [j]>, %ix: !df.array<i32, [i]>"
            gather = f"%x = df.gather %v[%ix] : !df.array<{t}, [j]>, !df.array<i32, [i]> -> !df.array<{t}, [i]>\n  "
        else:
            src, gather = f"%x: !df.array<{t}, [i]>", ""
        out.append(_BODY.format(name=f"{name}_{'gather' if gathered else 'plain'}", src=src, t=t, gather=gather, init=init, kind=kind))
    return "\n".join(out)


SOURCE = _source()
SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 3, 5 * CHUNK + 17, 1009)


def _values(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Small values whose running max/min rises and falls inside the first vector blocks."""
    if t == "f32":
        return rng.integers(-8, 9, n).astype(np.float32)
    x = rng.integers(-8, 9, n).astype(np.int32)
    if n > 5:
        x[rng.integers(0, n)] = -(2**31)  # the unsigned max, the signed min
    return x


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    t, kind, init, ufunc = SCANS[name]
    if not len(x):
        return x
    if kind == "umax":
        u = x.view(np.uint32)
        return np.maximum.accumulate(np.maximum(u, np.uint32(int(init)))).view(np.int32)
    if kind == "add":
        return np.cumsum(x, dtype=np.int32)
    v = np.float32(np.inf) if init.startswith("0x") else x.dtype.type(init)
    return ufunc.accumulate(ufunc(x, v))


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


@pytest.mark.parametrize("parallel", [0, -1], ids=["sequential", "parallel"])
@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_part_vector_scans_carry_their_last_lane(isa, parallel):
    if parallel:
        k = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, -1, chunk=CHUNK, min_elements=0))
        par = {f.sym_name.data for f in k.module.ops if "loop.parallel" in f.attributes}
        assert par == {f"{n}_{'gather' if g else 'plain'}" for n, g in KERNELS}  # a gather's temporary is per chunk
    else:
        k = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, 0))
    rng = np.random.default_rng(2411)
    for name, gathered in KERNELS:
        t = SCANS[name][0]
        for n in SIZES:
            y = rng.integers(-(2**40), 2**40, n)
            if gathered:
                src = _values(t, 9, rng)
                ix = rng.integers(-2, 12, n).astype(np.int32)  # some out of bounds: 0
                x = np.where((ix >= 0) & (ix < len(src)), src[np.clip(ix, 0, len(src) - 1)], 0).astype(src.dtype)
                args = (src, ix, y)
            else:
                x = _values(t, n, rng)
                args = (x, y)
            want = _reference(name, x)
            for nt in (1, 2, 3, 4) if parallel else (1,):
                loopopt.set_num_threads(nt)
                got, doubled = k.outputs_and_results(f"{name}_{'gather' if gathered else 'plain'}", *args)[:2]
                assert np.array_equal(doubled, y + y), (isa, name, gathered, n, nt)
                assert got.tobytes() == want.tobytes(), (isa, name, gathered, n, nt, got, want)
