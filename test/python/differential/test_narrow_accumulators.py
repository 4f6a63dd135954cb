"""i8/i16 reductions in loops of wider lanes (loop_to_simd/narrow_acc.py) against numpy, every ISA.

Each kind (add mul min max umin umax and or) reduces i8 and i16 values in three loop shapes
whose lanes are wider than the accumulator: the values an f32 compare selects (a vecloop of
f32 lanes), i8 values an i16 compare selects (a loop of 16-bit lanes), and the values a
filter keeps by an f32 test of their square (a predloop: filter -> reduce). All kernels are one module, compiled once per ISA with the default
pipeline (scalar, sse2, avx2, avx512 natively, neon under qemu), run on sizes 0..129, 1000
and 4099 with every buffer one element into its allocation, and compared exactly: integer
reductions wrap (docs/integer_semantics.md), so any grouping gives numpy's bits.
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, compiled_source, run_each
from isa_support import isa_params

from loopopt.runtime.sanitize import emit_program
from loopopt.tools.loop_run import compare_results

KINDS = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum,
         "umin": np.minimum, "umax": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or}  # fmt: skip
INITS = {"add": 7, "mul": 3, "min": 100, "max": -100, "umin": -3, "umax": 5, "and": -1, "or": 16}
TYPES = {"i8": np.int8, "i16": np.int16}
SIZES = (*range(130), 1000, 4099)
BOUND = {"i8": 1000.0, "i16": 1.0e7}
"""The filter keeps x with x*x (in f32) above this: about three quarters of uniform data."""


def _selected(name: str, kind: str, elt: str, other: str) -> str:
    """reduce(select(y > 0, x, c)) with y of type `other` (f32, or i16 next to i8 data)."""
    c = 1 if kind == "mul" else 3
    cmp = "arith.cmpf ogt," if other == "f32" else "arith.cmpi sgt,"
    zero = "0.0" if other == "f32" else "0"
    return f"""
func.func @{name}(%x: !df.array<{elt}, [i]>, %y: !df.array<{other}, [i]>) -> {elt} {{
  %z = arith.constant {INITS[kind]} : {elt}
  %c = arith.constant {c} : {elt}
  %zy = arith.constant {zero} : {other}
  %v = df.map %x, %y : !df.array<{elt}, [i]>, !df.array<{other}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%e: {elt}, %f: {other}):
    %p = {cmp} %f, %zy : {other}
    %s = arith.select %p, %e, %c : {elt}
    df.yield %s : {elt}
  }}
  %m = df.reduce {kind}(%v, %z) over [i] : !df.array<{elt}, [i]> -> {elt}
  func.return %m : {elt}
}}
"""


def _kept(name: str, kind: str, elt: str) -> str:
    """reduce(filter(x, x*x > bound in f32)): a predloop of f32 lanes with an i8/i16 accumulator."""
    return f"""
func.func @{name}(%x: !df.array<{elt}, [i]>, %b: f32) -> {elt} {{
  %z = arith.constant {INITS[kind]} : {elt}
  %k = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [j]> {{
  ^bb0(%e: {elt}):
    %f = arith.sitofp %e : {elt} to f32
    %h = arith.mulf %f, %f : f32
    %c = arith.cmpf ogt, %h, %b : f32
    df.yield %c : i1
  }}
  %m = df.reduce {kind}(%k, %z) over [j] : !df.array<{elt}, [j]> -> {elt}
  func.return %m : {elt}
}}
"""


CASES = {
    **{f"{k}_{e}_by_f32": (_selected(f"{k}_{e}_by_f32", k, e, "f32"), k, e, "f32") for k in KINDS for e in TYPES},
    **{f"{k}_i8_by_i16": (_selected(f"{k}_i8_by_i16", k, "i8", "i16"), k, "i8", "i16") for k in KINDS},
    **{f"{k}_{e}_kept": (_kept(f"{k}_{e}_kept", k, e), k, e, "kept") for k in KINDS for e in TYPES},
}
SOURCE = "".join(program for program, *_ in CASES.values())


def _reference(kind: str, elt: str, values: np.ndarray) -> np.ndarray:
    """numpy's reduction from the init, wrapping in the narrow type (umin/umax on the unsigned view)."""
    t = np.dtype(TYPES[elt])
    dt = np.dtype(f"u{t.itemsize}") if kind.startswith("u") else t
    seq = np.concatenate([np.array([INITS[kind]], t), values.astype(t)]).view(dt)
    return np.asarray(KINDS[kind].reduce(seq, dtype=dt), dtype=dt).view(t)


def _inputs(name: str, n: int) -> tuple[tuple, np.ndarray]:
    _, kind, elt, other = CASES[name]
    rng = np.random.default_rng([n, len(name), ord(name[0])])
    info = np.iinfo(TYPES[elt])
    x = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=TYPES[elt])
    if kind == "mul" and n:
        x |= 1  # odd factors: the wrapping product does not settle at 0
    if other == "kept":
        f = x.astype(np.float32)
        keep = f * f > np.float32(BOUND[elt])
        return (x, np.float32(BOUND[elt])), _reference(kind, elt, x[keep])
    if other == "f32":
        y = rng.standard_normal(n).astype(np.float32)
        sel = y > 0
    else:
        y = rng.integers(-1000, 1000, size=n, dtype=np.int16)
        sel = y > 0
    c = 1 if kind == "mul" else 3
    return (x, y), _reference(kind, elt, np.where(sel, x, TYPES[elt](c)))


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", CASES)
def test_narrow_accumulator_matches_numpy(name: str, isa: str) -> None:
    cases = [_inputs(name, n) for n in SIZES]
    runs = run_each(compiled_source(SOURCE, isa), name, [args for args, _ in cases])
    for (args, ref), got in zip(cases, runs, strict=True):
        problems = compare_results(got, (ref,), {})
        assert not problems, f"{name} on {isa}, n={len(args[0])}: " + "; ".join(problems)


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
def test_narrow_accumulators_are_vector_code(isa: str) -> None:
    """No kernel stays scalar: each reduces a register of the loop's wide lanes."""
    c = emit_program(SOURCE, isa).c_source
    vec = {"sse2": "__m128i acc_v", "avx2": "__m256i acc_v", "avx512": "__m512i acc_v", "neon": "int32x4_t acc_v"}[isa]
    for name in CASES:
        body = c.split(f" {name}(", 1)[1].split("\n}\n", 1)[0]
        wide = "int16x8_t acc_v" if isa == "neon" and name.endswith("by_i16") else vec
        assert wide in body, (name, isa)
