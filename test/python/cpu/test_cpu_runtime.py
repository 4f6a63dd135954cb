"""Every CPU model's lowering decisions give exact results: compiled per (ISA, cpu) and compared
with numpy across the vector width, at unaligned offsets; AVX-512 C (not runnable on every CI
host) compiled with gcc and clang -Werror for each AVX-512 CPU."""

from __future__ import annotations

import dataclasses
import functools
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from isa_support import isa_unavailable

import loopopt
from loopopt.compile import emit
from loopopt.dialects.cpu_models import CPUS
from loopopt.dialects.simd_targets import TARGETS
from loopopt.tools.loop_run import run_compiled

EXAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir").read_text()
SUM = """
func.func @total(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""
SIZES = (0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 97, 1000, 1009, 4099)


def _cases(isas):
    return [
        pytest.param(isa, cpu, marks=pytest.mark.isa(isa), id=f"{isa}-{cpu}")
        for isa in isas for cpu in CPUS if CPUS[cpu].runs(isa)
    ]  # fmt: skip


@pytest.mark.parametrize(("isa", "cpu"), _cases(("sse2", "avx2", "avx512")))
def test_decisions_are_exact(isa, cpu):
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    pipeline = f"loop-pipeline{{target={isa} cpu={cpu}}}"
    ex = loopopt.compile(EXAMPLE, target=isa, pipeline=pipeline)
    total = loopopt.compile(SUM, target=isa, pipeline=pipeline)
    rng = np.random.default_rng(11)
    a = np.float32(1.5)
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        for offset in (0, 1):
            (s,) = run_compiled(ex, "sumsq", [x], offset)
            np.testing.assert_allclose(s, np.sum(x.astype(np.float64) ** 2), rtol=1e-5, atol=1e-6, err_msg=f"n={n}")
            (packed,) = run_compiled(ex, "scale_positive", [x, a], offset)
            np.testing.assert_array_equal(packed, a * x[x > 0], err_msg=f"n={n} offset={offset}")
            (t,) = run_compiled(total, "total", [np.full(n, -0.0, np.float32)], offset)
            assert t == 0.0 and not np.signbit(t), f"0.0 + (-0.0 ...) is +0.0, got {t!r} at n={n}"


AVX512_FORMS = ("zen4", "sapphirerapids", "generic")
"""One CPU per form of the AVX-512 C (register compress + masked tail; memory compress +
masked tail; the ISA defaults); the other AVX-512 CPUs differ from these in constants only."""


@functools.cache
def _avx512_c(cpu: str) -> str:
    return emit(EXAMPLE, target="avx512", pipeline=f"loop-pipeline{{target=avx512 cpu={cpu}}}").c_source


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_avx512_c_compiles_for_every_cpu(tmp_path, compiler):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    flags = list(TARGETS["avx512"].cflags)
    for cpu in AVX512_FORMS:
        src = tmp_path / f"{cpu}.c"
        src.write_text(_avx512_c(cpu))
        done = subprocess.run([compiler, "-std=c11", "-O2", "-Wall", "-Werror", *flags, "-c", str(src), "-o",
                               str(tmp_path / f"{cpu}.o")], capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, f"{cpu}: {done.stderr}"


PROGRAMS = Path(__file__).resolve().parents[3] / "tools" / "bench" / "programs"
MAPS = (PROGRAMS / "axpb.mlir").read_text() + (PROGRAMS / "axpy.mlir").read_text() + """
func.func @twice(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %r = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %s = arith.addf %e, %e : f64
    df.yield %s : f64
  }
  func.return %r : !df.array<f64, [i]>
}

func.func @inc(%x: !df.array<i64, [i]>, %b: i64) -> !df.array<i64, [i]> {
  %r = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %b : i64
    df.yield %s : i64
  }
  func.return %r : !df.array<i64, [i]>
}
"""
MAP_SIZES = (0, 1, 15, 16, 17, 63, 64, 65, 97, 1000, 2047, 2048, 2049, 2053, 2111, 2729, 2730, 2731, 2737, 4095, 4096, 4097,
             4103, 4111, 4159, 5003, 65536, 65537, 65601, 87381, 87382, 87383, 87447, 131072, 131073, 131101, 131137)
"""Around every vector width and the L1 limits of a one-block map on Zen 4 (32 KiB over 8, 12
and 16 bytes an iteration: 4096, 2730, 2048 trips), where the K-block main loop starts to run,
and the L2 limits of the loop with its loads in halves (1 MiB over 16, 12 and 8 bytes: 65536,
87381, 131072 trips), after which a remainder of K blocks and a tail follow it. The L1 limits
are also where one-input maps (a*x + b f32/i32, twice f64, inc i64) start loading in quarters."""


@pytest.mark.parametrize(("isa", "cpu"), _cases(("sse2", "avx2", "avx512")))
def test_maps_are_exact_on_both_sides_of_the_cache_limits(isa, cpu):
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    lib = loopopt.compile(MAPS, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    rng = np.random.default_rng(19)
    a, b = np.float32(1.5), np.float32(-0.25)
    for n in MAP_SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        xi, yi = rng.integers(-1000, 1000, n, dtype=np.int32), rng.integers(-1000, 1000, n, dtype=np.int32)
        xd = rng.standard_normal(n)
        for offset in (0, 1):
            (r,) = run_compiled(lib, "axpb_f32", [x, a, b], offset)
            np.testing.assert_allclose(r, a * x.astype(np.float64) + b, rtol=1e-6, atol=1e-6, err_msg=f"n={n}")
            (r,) = run_compiled(lib, "axpy_f32", [x, x[::-1].copy(), a], offset)
            np.testing.assert_allclose(r, a * x.astype(np.float64) + x[::-1], rtol=1e-6, atol=1e-6, err_msg=f"n={n}")
            (r,) = run_compiled(lib, "axpb_i32", [xi, np.int32(-3), np.int32(5)], offset)
            np.testing.assert_array_equal(r, -3 * xi + 5, err_msg=f"n={n} offset={offset}")
            (r,) = run_compiled(lib, "axpy_i32", [xi, yi, np.int32(7)], offset)
            np.testing.assert_array_equal(r, 7 * xi + yi, err_msg=f"n={n} offset={offset}")
            (r,) = run_compiled(lib, "twice", [xd], offset)
            np.testing.assert_array_equal(r, xd + xd, err_msg=f"n={n} offset={offset}")
            (r,) = run_compiled(lib, "inc", [xi.astype(np.int64) << 20, np.int64(-(2**40) + 3)], offset)
            np.testing.assert_array_equal(r, (xi.astype(np.int64) << 20) - 2**40 + 3, err_msg=f"n={n} offset={offset}")


FOLDS = (PROGRAMS / "sum.mlir").read_text() + (PROGRAMS / "sumsq.mlir").read_text() + (PROGRAMS / "filter_gt0_sum.mlir").read_text() + """
func.func @ax_sum_f32(%x: !df.array<f32, [i]>, %a: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %a, %e : f32
    df.yield %p : f32
  }
  %s = df.reduce add(%m, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @ax_sum_i32(%x: !df.array<i32, [i]>, %a: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %m = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %p = arith.muli %a, %e : i32
    %q = arith.subi %p, %e : i32
    df.yield %q : i32
  }
  %s = df.reduce add(%m, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
"""
"""sum, sum of squares (fma; i32 mullo), a*x (a splat from outside, split before the loop) and the
filtered sum (i32: split as max(x, 0); f32: whole)."""
FOLD_SIZES = (0, 1, 15, 16, 17, 63, 64, 65, 1000, 262080, 262143, 262144, 262145, 262207, 262208, 262209, 262271,
              262273, 300007)  # fmt: skip
"""Around the L2 limit of a Zen 4 fold with split accumulators (1 MiB over 4 bytes: 262144 trips;
beyond it whole 64-lane iterations run split, then a remainder block, then a masked tail)."""


@functools.cache
def _fold_lib(cpu: str, isa: str = "avx512"):
    return loopopt.compile(FOLDS, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")


def _fold_args(rng, n: int):
    x = rng.random(n, dtype=np.float32) * 2 - 0.5  # not exactly summable: the order shows
    xi = rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int32)
    a, ai = np.float32(0.75), np.int32(-7)
    return x, xi, (("sum_f32", [x]), ("sumsq_f32", [x]), ("ax_sum_f32", [x, a]), ("filter_gt0_sum_f32", [x]),
                   ("sum_i32", [xi]), ("sumsq_i32", [xi]), ("ax_sum_i32", [xi, ai]), ("filter_gt0_sum_i32", [xi]))  # fmt: skip


LLC_FOLD_SIZES = (8_388_608, 8_388_609, 8_388_656, 8_388_735)
"""Around the LLC limit of a Zen 4 fold's K streams (32 MiB over 4 bytes: 8388608 trips; beyond it
whole 64-lane iterations run as 4 streams of a quarter each, then remainder blocks, a masked tail)."""

ZEN4_AND_GENERIC = [c for c in _cases(("sse2", "avx2", "avx512")) if c.values[1] in ("zen4", "generic")]


def _check_folds(isa: str, cpu: str, sizes, seed: int, rtol: float = 1e-5) -> None:
    """Every fold of FOLDS against numpy (integers exact, with wrap-around; floats to a sum's
    rounding, `rtol`) at `sizes` and offsets 0 and 1."""
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    lib = _fold_lib(cpu, isa)
    rng = np.random.default_rng(seed)
    for n in sizes:
        x, xi, calls = _fold_args(rng, n)
        x64, xi64 = x.astype(np.float64), xi.astype(np.int64)
        want = {"sum_f32": x64.sum(), "sumsq_f32": (x64 * x64).sum(), "ax_sum_f32": (0.75 * x64).sum(),
                "sum_i32": xi64.sum(), "sumsq_i32": (xi64 * xi64).sum(), "ax_sum_i32": (-8 * xi64).sum(),
                "filter_gt0_sum_f32": x64[x > 0].sum(), "filter_gt0_sum_i32": xi64[xi > 0].sum()}  # fmt: skip
        for offset in (0, 1):
            for name, args in calls:
                (got,) = run_compiled(lib, name, args, offset)
                if name.endswith("i32"):
                    assert int(got) == np.int64(want[name]).astype(np.int32), f"{name} n={n} offset={offset}"
                else:
                    np.testing.assert_allclose(got, want[name], rtol=rtol, atol=1e-3, err_msg=f"{name} n={n} offset={offset}")


@pytest.mark.parametrize(("isa", "cpu"), ZEN4_AND_GENERIC)
def test_folds_match_numpy_on_both_sides_of_the_l2(isa, cpu):
    """Every fold the Zen 4 split touches, against numpy on every ISA at sizes straddling 262,144."""
    _check_folds(isa, cpu, FOLD_SIZES, 29)


@pytest.mark.parametrize(("isa", "cpu"), ZEN4_AND_GENERIC)
def test_folds_match_numpy_on_both_sides_of_the_llc(isa, cpu):
    """Every fold the Zen 4 K streams touch (split, quarter loads for the i32 multiply, the filtered
    sum's predloop), against numpy on every ISA at sizes straddling 8,388,608 (f32 sums of 8 Mi
    elements in 4-16 lanes x K accumulators round to ~2e-4 on any CPU: a lost or doubled quarter is 25%)."""
    _check_folds(isa, cpu, LLC_FOLD_SIZES, 31, rtol=1e-3)


@pytest.mark.isa("avx512")
def test_fold_streams_are_in_the_zen4_c():
    """Every one-input fold of FOLDS streams beyond the LLC on Zen 4 (the filtered f32 sum whole:
    its select has no split form, predloop.split_pred_loop), and no other CPU's C has a stream loop."""
    c = emit(FOLDS, target="avx512", pipeline="loop-pipeline{target=avx512 cpu=zen4}").c_source
    # 8 folds, each printed twice: the small-call copy (beyond_llc folded to 0) and the full one
    assert c.count("per_stream = ") == 2 * 8, c
    assert len(re.findall(r"if \((!aligned && )?!beyond_llc( && !beyond_l2)?\) \{", c)) == 8, c
    assert c.count("__large(x, x_len);") == 8, c  # the large arm: the full copy, out of line
    assert "_mm_loadu_si128((const __m128i *)&x[i])" in c  # sumsq i32 and a*x i32: quarter loads
    other = emit(FOLDS, target="avx512", pipeline="loop-pipeline{target=avx512 cpu=sapphirerapids}").c_source
    assert "per_stream" not in other


@pytest.mark.isa("avx512")
def test_split_folds_are_bit_identical_to_whole_ones(monkeypatch):
    """Zen 4's split fold loop (256-bit halves of its accumulators, targets/c_print_loops.py) adds
    every lane as the whole loop does: the sums equal sapphirerapids' (the same K-block loop, masked
    tail and merge without the split) to the last bit, on both sides of the limit: sums, sums of
    squares (fma, mullo), a*x with the splat of a split before the loop, filtered sums. (Without
    Zen 4's aligning head, align_peel.py, which adds the first elements in another order.)"""
    why = isa_unavailable("avx512")
    if why:
        pytest.skip(why)
    zen4 = CPUS["zen4"]
    monkeypatch.setitem(CPUS, "zen4", dataclasses.replace(zen4, costs=dataclasses.replace(zen4.costs, align_loads_from_bytes=0)))
    c = emit(FOLDS, target="avx512", pipeline="loop-pipeline{target=avx512 cpu=zen4}").c_source
    assert "_mm512_extractf32x8_ps" in c and "_mm512_extracti32x8_epi32" in c
    assert "_mm256_fmadd_ps" in c and "__m256 v_lo" in c and "__m256i v_lo" in c  # sumsq, a*x and a filter: splats split
    assert "_mm256_mullo_epi32" not in c  # i32 multiplies stay whole (vecloop._SPLIT_OPS)
    assert "_mm256_max_epi32" in c  # the filtered i32 sum
    split, whole = _fold_lib("zen4"), _fold_lib("sapphirerapids")
    rng = np.random.default_rng(23)
    for n in FOLD_SIZES:
        x, xi, calls = _fold_args(rng, n)
        for offset in (0, 1):
            for name, args in calls:
                (got,) = run_compiled(split, name, args, offset)
                (want,) = run_compiled(whole, name, args, offset)
                assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), f"{name} n={n} offset={offset}: {got!r} vs {want!r}"
            (s,) = run_compiled(split, "sum_f32", [x], offset)
            np.testing.assert_allclose(s, np.sum(x.astype(np.float64)), rtol=1e-4, atol=1e-3, err_msg=f"n={n}")
            (s,) = run_compiled(split, "sum_i32", [xi], offset)
            assert s == np.sum(xi, dtype=np.int32), f"n={n}"  # wraps, as the kernel


NARROW_SUMS = "".join(f"""
func.func @sum_{t}(%x: !df.array<{t}, [i]>) -> {t} {{
  %z = arith.constant 0 : {t}
  %s = df.reduce add(%x, %z) over [i] : !df.array<{t}, [i]> -> {t}
  func.return %s : {t}
}}
""" for t in ("i8", "i16"))


@pytest.mark.parametrize(("isa", "cpu"), _cases(("avx2", "avx512")))
def test_narrow_sums_compile_and_wrap_on_every_cpu(isa, cpu):
    """i8/i16 sums are not split into halves (no rows: on cpu=zen4 they were a print-time error,
    a fuzzer find in session 21); they wrap like numpy's on both sides of the L2 limits."""
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    lib = loopopt.compile(NARROW_SUMS, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    rng = np.random.default_rng(29)
    for n in (0, 1, 63, 64, 65, 1000, 524_289, 1_048_641):
        for t in (np.int8, np.int16):
            x = rng.integers(np.iinfo(t).min, np.iinfo(t).max, n, dtype=t, endpoint=True)
            (got,) = run_compiled(lib, f"sum_i{8 * np.dtype(t).itemsize}", [x], n % 2)
            assert got == np.sum(x, dtype=t), f"{t.__name__} n={n}"


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_split_fold_c_compiles(tmp_path, compiler):
    """The split loop's C (256-bit AVX2 rows inside AVX-512 C) compiles warning-free anywhere."""
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    src = tmp_path / "folds.c"
    src.write_text(emit(FOLDS, target="avx512", pipeline="loop-pipeline{target=avx512 cpu=zen4}").c_source)
    done = subprocess.run([compiler, "-std=c11", "-O2", "-Wall", "-Werror", *TARGETS["avx512"].cflags, "-c", str(src),
                           "-o", str(tmp_path / "folds.o")], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
