"""`df.reduce umin / umax` through compiled kernels on every ISA, against numpy on the unsigned view.

Each element type (i8, i16, i32, i64: read as u8 ... u64) gets one program with a umax from the
neutral constant 0 (the init combine is dropped), a umax and a umin from a runtime init. They are
compiled with the default pipeline for scalar, sse2, avx2, avx512 (natively, where this CPU runs
them) and neon (qemu, one batch) and run on sizes 0, 1, W-1, W, W+1 of every width and interleave,
primes and 65537, on three kinds of data: the full range; small values with one value whose top
bit is set (the unsigned max, the signed min) at a random position; negative values (top bit set)
with a 0 in the last element (the unsigned min, reached by the scalar tail). A signed max / min
gives a different answer on the last two, so a kernel that lost the unsignedness fails.
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, compiled_source, run_each
from isa_support import isa_params

from loopopt.dialects.reduction_kind import ReductionKind
from loopopt.compile import parse
from loopopt.interp.runner import run_function
from loopopt.runtime.sanitize import emit_program
from loopopt.tools.loop_run import compare_results

SIZES = (0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 127, 128, 129, 255, 256, 257, 1009, 65537)
TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def _program(elt: str) -> str:
    return f"""
func.func @umax0(%x: !df.array<{elt}, [i]>) -> {elt} {{
  %zero = arith.constant 0 : {elt}
  %m = df.reduce umax(%x, %zero) over [i] : !df.array<{elt}, [i]> -> {elt}
  func.return %m : {elt}
}}
func.func @umax(%x: !df.array<{elt}, [i]>, %init: {elt}) -> {elt} {{
  %m = df.reduce umax(%x, %init) over [i] : !df.array<{elt}, [i]> -> {elt}
  func.return %m : {elt}
}}
func.func @umin(%x: !df.array<{elt}, [i]>, %init: {elt}) -> {elt} {{
  %m = df.reduce umin(%x, %init) over [i] : !df.array<{elt}, [i]> -> {elt}
  func.return %m : {elt}
}}
func.func @umax_body(%x: !df.array<{elt}, [i]>, %init: {elt}) -> {elt} {{
  %m = df.reduce custom(%x, %init) over [i] : !df.array<{elt}, [i]> -> {elt} {{
  ^bb0(%acc: {elt}, %e: {elt}):
    %s = arith.maxui %acc, %e : {elt}
    df.yield %s : {elt}
  }}
  func.return %m : {elt}
}}
func.func @umin_fold(%x: !df.array<{elt}, [i]>, %init: {elt}) -> {elt} {{
  %m = df.fold(%x) init(%init) : !df.array<{elt}, [i]> -> {elt} {{
  ^bb0(%acc: {elt}, %e: {elt}):
    %s = arith.minui %e, %acc : {elt}
    df.yield %s : {elt}
  }}
  func.return %m : {elt}
}}
"""
KERNELS = ("umax0", "umax", "umin", "umax_body", "umin_fold")
"""umax_body / umin_fold: a custom reduce and a fold whose body is the kind's step, lowered as
that kind's reduction (lowering/df_to_loop/combine.py, body_kinds)."""


def _unsigned(v: np.ndarray) -> np.ndarray:
    return v.view(np.dtype(f"u{v.dtype.itemsize}"))


def _reference(kernel: str, x: np.ndarray, init: np.integer) -> np.integer:
    """numpy on the unsigned view, read back in the signless (signed) dtype."""
    u = _unsigned(x)
    i = _unsigned(np.asarray(init, dtype=x.dtype))[()]
    r = u.max(initial=i) if kernel.startswith("umax") else u.min(initial=i)
    return np.asarray(r, dtype=u.dtype).view(x.dtype)[()]


def _data(elt: str, n: int, shape: str, rng: np.random.Generator) -> np.ndarray:
    dt = TYPES[elt]
    info = np.iinfo(dt)
    if shape == "full":
        return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
    if shape == "low":  # the unsigned max is the one value with the top bit set
        x = rng.integers(0, 100, size=n, dtype=dt)
        if n:
            x[rng.integers(0, n)] = info.min + int(rng.integers(0, 3))
        return x
    x = rng.integers(-100, 0, size=n, dtype=dt)  # "high": the unsigned min is the last element
    if n:
        x[-1] = 0
    return x


def _cases(elt: str, kernel: str) -> list[tuple[tuple, np.integer]]:
    dt = TYPES[elt]
    out = []
    for n in SIZES:
        for k, shape in enumerate(("full", "low", "high")):
            rng = np.random.default_rng([n, k, len(elt), len(kernel)])
            x = _data(elt, n, shape, rng)
            if kernel == "umax0":
                args: tuple = (x,)
                init = dt(0)
            else:  # an init that decides only on the empty and tiny inputs
                init = dt(5) if kernel.startswith("umax") else dt(-5)
                args = (x, init)
            out.append((args, _reference(kernel, x, init)))
    return out


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("elt", TYPES)
def test_unsigned_reduce_matches_numpy(elt: str, isa: str) -> None:
    compiled = compiled_source(_program(elt), isa)
    for kernel in KERNELS:
        cases = _cases(elt, kernel)
        runs = run_each(compiled, kernel, [args for args, _ in cases])
        for (args, ref), got in zip(cases, runs, strict=True):
            problems = compare_results(got, (np.asarray(ref),), {})
            assert not problems, f"{kernel} on {elt}/{isa}, n={len(args[0])}: " + "; ".join(problems)


@pytest.mark.parametrize("elt", TYPES)
def test_unsigned_reduce_interpreter_matches_numpy(elt: str) -> None:
    """The df interpreter on the same program and data (a few sizes: it is slow on large ones)."""
    module = parse(_program(elt))
    for kernel in KERNELS:
        for args, ref in _cases(elt, kernel)[:30]:
            (got,) = run_function(module, kernel, *args)
            assert got == ref and np.asarray(got).dtype == TYPES[elt], (kernel, elt, len(args[0]), got, ref)


@pytest.mark.parametrize(
    ("isa", "intrinsic"),
    [("avx512", "_mm512_reduce_max_epu32"), ("neon", "vmaxvq_u8"), ("neon", "vmaxvq_u32"), ("avx2", "lo_hreduce_umax_i8x32")],
)
def test_unsigned_reduce_uses_the_unsigned_horizontal_max(isa: str, intrinsic: str) -> None:
    source = _program("i8").replace("@", "@b") + _program("i32")
    assert intrinsic in emit_program(source, isa).c_source


def test_reference_is_not_the_signed_one() -> None:
    """The data make signed and unsigned answers differ (the test can fail)."""
    rng = np.random.default_rng(1)
    x = _data("i8", 65, "low", rng)
    assert _reference("umax", x, np.int8(5)) != x.max()
    assert ReductionKind.UMAX.combine(None, np.int8(-1), np.int8(1)) == -1


_MIXED = """
func.func @mix(%x: !df.array<i32, [i]>, %y: !df.array<i64, [i]>) -> (i32, i64) {
  %z = arith.constant 0 : i32
  %z64 = arith.constant 0 : i64
  %a, %b = df.reduce umax(%x, %z), add(%y, %z64) over [i] : !df.array<i32, [i]>, !df.array<i64, [i]> -> i32, i64
  func.return %a, %b : i32, i64
}
"""
"""An i32 umax next to an i64 sum: the i32 lanes are a part vector (half a register) on SSE2 / AVX2,
whose upper lanes the horizontal max fills with umax's neutral 0 (targets/c_part.py)."""


@pytest.mark.parametrize("isa", isa_params(ISAS))
def test_unsigned_reduce_next_to_a_wider_sum(isa: str) -> None:
    compiled = compiled_source(_MIXED, isa)
    cases = []
    for n in SIZES:
        rng = np.random.default_rng([n, 3])
        x = rng.integers(0, 100, n).astype(np.int32)
        if n:
            x[rng.integers(0, n)] = -7
        y = rng.integers(-5, 5, n).astype(np.int64)
        cases.append(((x, y), (_reference("umax0", x, np.int32(0)), np.sum(y))))
    runs = run_each(compiled, "mix", [args for args, _ in cases])
    for (args, ref), got in zip(cases, runs, strict=True):
        problems = compare_results(got, tuple(np.asarray(r) for r in ref), {})
        assert not problems, f"mix on {isa}, n={len(args[0])}: " + "; ".join(problems)
