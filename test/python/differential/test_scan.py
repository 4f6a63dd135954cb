"""Vectorized scans (df.scan add/mul/min/max/umin/umax/or) through compiled kernels on every ISA.

The kernels are compiled with the default pipeline, so each is the in-register log-step scan
with a carried last lane (lowering/loop_to_simd/scan.py) on sse2/avx2/avx512/neon and the
sequential loop on scalar. Sizes cover 0, 1, W-1, W, W+1 (and 2W+1) of every width, primes
and a large one; every buffer starts one element into a canary-guarded allocation (an
unaligned view; a write past the output is caught). NEON runs under qemu in one batch.

filter → scan (df-fuse: one df.scan with a `where`, a vectorized predloop) runs on the same
sizes, compared with the numpy scan of the kept elements. Integer scans wrap and compare exactly, min/max scans compare exactly (NaN propagates from
its position on), and so do float sums of small integers (every order of adding them is
exact). Float sums of random data are compared with the exact prefix (float64 / long double
cumsum) within the bound any summation order of k+1 terms obeys:
|got_k - exact_k| <= (k + 1) * eps * sum_{j<=k} |x_j|  (γ_k of Higham, 1.01 for the 1/(1-kε)).
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, compiled_source, run_each
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.runtime.sanitize import emit_program
from loopopt.tools.loop_run import compare_results, run_compiled

SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 97, 1009, 65537)
TYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i8": np.int8, "i16": np.int16}


def _scan(kind: str, elt: str, init: str, reassoc: bool = False) -> str:
    flag = " reassoc" if reassoc else ""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %z = arith.constant {init} : {elt}
  %p = df.scan {kind}(%x, %z){flag} : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]>
  func.return %p : !df.array<{elt}, [i]>
}}
"""


def _custom_scan(op: str, elt: str, init: str) -> str:
    """A custom scan whose body is one kind's step (`op %e, %acc`): lowered as that kind's scan."""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %z = arith.constant {init} : {elt}
  %p = df.scan custom(%x, %z) : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%acc: {elt}, %e: {elt}):
    %s = {op} %e, %acc : {elt}
    df.yield %s : {elt}
  }}
  func.return %p : !df.array<{elt}, [i]>
}}
"""


def _constant_scan(kind: str, elt: str, init: str, value: str, reassoc: bool = False) -> str:
    """A scan of a map whose value does not depend on the element (a loop-invariant lane_scan
    operand: convert-loop-to-simd hoisted the lane_scan out of its loop, invalid IR, until
    session 21's fuzzer found it)."""
    flag = " reassoc" if reassoc else ""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %z = arith.constant {init} : {elt}
  %m = df.map %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%e: {elt}):
    %c = arith.constant {value} : {elt}
    df.yield %c : {elt}
  }}
  %p = df.scan {kind}(%m, %z){flag} : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]>
  func.return %p : !df.array<{elt}, [i]>
}}
"""


def _of_constant(ref, value, dtype):
    return lambda x: ref(np.full(x.shape, value, dtype))


def _wrapping(op, init: int, dtype):
    def ref(x: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return op.accumulate(np.concatenate([np.array([init], dtype), x]), dtype=dtype)[1:].astype(dtype)

    return ref


def _filtered_scan(kind: str, elt: str, init: str, cmp: str, reassoc: bool = False) -> str:
    """filter → scan, which df-fuse fuses into one df.scan with a `where` (a predloop)."""
    flag = " reassoc" if reassoc else ""
    zero = "0.0" if elt.startswith("f") else "0"
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [k]> {{
  %z = arith.constant {init} : {elt}
  %zero = arith.constant {zero} : {elt}
  %p = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [k]> {{
  ^bb0(%e: {elt}):
    %c = {cmp} %e, %zero : {elt}
    df.yield %c : i1
  }}
  %y = df.scan {kind}(%p, %z){flag} : !df.array<{elt}, [k]> -> !df.array<{elt}, [k]>
  func.return %y : !df.array<{elt}, [k]>
}}
"""


def _unsigned(op, init: int, dtype):
    """umin/umax: numpy's minimum/maximum on the unsigned view, read back in the signed dtype."""
    u = np.dtype(f"u{np.dtype(dtype).itemsize}")

    def ref(x: np.ndarray) -> np.ndarray:
        return _wrapping(op, init, u)(x.view(u)).view(dtype)

    return ref


def _kept(ref, keep):
    return lambda x: ref(x[keep(x)])


CASES = {
    # name: (program, element, reference of x, kind of data)
    "cumsum_i32": (_scan("add", "i32", "7"), "i32", _wrapping(np.add, 7, np.int32), "wide"),
    "cumsum_i64": (_scan("add", "i64", "-3"), "i64", _wrapping(np.add, -3, np.int64), "wide"),
    "cumprod_i32": (_scan("mul", "i32", "1"), "i32", _wrapping(np.multiply, 1, np.int32), "wide"),
    "cummin_i32": (_scan("min", "i32", "2147483647"), "i32", _wrapping(np.minimum, 2**31 - 1, np.int32), "wide"),
    "cummax_i64": (_scan("max", "i64", "-9223372036854775808"), "i64", _wrapping(np.maximum, -(2**63), np.int64), "wide"),
    "cumumax_i32": (_scan("umax", "i32", "5"), "i32", _unsigned(np.maximum, 5, np.int32), "wide"),
    "cumumin_i32": (_scan("umin", "i32", "-1"), "i32", _unsigned(np.minimum, 2**32 - 1, np.int32), "wide"),
    "cumumax_i64": (_scan("umax", "i64", "0"), "i64", _unsigned(np.maximum, 0, np.int64), "wide"),
    "cumumin_i64": (_scan("umin", "i64", "-5"), "i64", _unsigned(np.minimum, 2**64 - 5, np.int64), "wide"),
    "custom_cumumax_i32": (_custom_scan("arith.maxui", "i32", "0"), "i32", _unsigned(np.maximum, 0, np.int32), "wide"),
    "custom_cumminsi_i64": (_custom_scan("arith.minsi", "i64", "0"), "i64", _wrapping(np.minimum, 0, np.int64), "wide"),
    "running_or_i64": (_scan("or", "i64", "0"), "i64", _wrapping(np.bitwise_or, 0, np.int64), "bits"),
    "cummin_f32": (_scan("min", "f32", "0x7F800000"), "f32", _wrapping(np.minimum, np.inf, np.float32), "nan"),
    "cummax_f64": (_scan("max", "f64", "0xFFF0000000000000"), "f64", _wrapping(np.maximum, -np.inf, np.float64), "nan"),
    "cumsum_f32_ints": (_scan("add", "f32", "0.0", reassoc=True), "f32", _wrapping(np.add, 0, np.float32), "small"),
    "cumsum_f64_ints": (_scan("add", "f64", "2.0", reassoc=True), "f64", _wrapping(np.add, 2, np.float64), "small"),
    # filter → scan: the prefix over the kept elements (vectorized predloop)
    "kept_cumsum_i32": (_filtered_scan("add", "i32", "5", "arith.cmpi sgt,"), "i32",
                        _kept(_wrapping(np.add, 5, np.int32), lambda x: x > 0), "wide"),
    "kept_cummax_f32": (_filtered_scan("max", "f32", "0xFF800000", "arith.cmpf une,"), "f32",
                        _kept(_wrapping(np.maximum, -np.inf, np.float32), lambda x: x != 0), "nan"),
    "kept_cumsum_f64_ints": (_filtered_scan("add", "f64", "0.0", "arith.cmpf olt,", reassoc=True), "f64",
                             _kept(_wrapping(np.add, 0, np.float64), lambda x: x < 0), "small"),
    "kept_cumprod_i64": (_filtered_scan("mul", "i64", "1", "arith.cmpi ne,"), "i64",
                         _kept(_wrapping(np.multiply, 1, np.int64), lambda x: x != 0), "wide"),
    "kept_cumumax_i32": (_filtered_scan("umax", "i32", "3", "arith.cmpi ne,"), "i32",
                         _kept(_unsigned(np.maximum, 3, np.int32), lambda x: x != 0), "wide"),
    "kept_cumumin_i64": (_filtered_scan("umin", "i64", "-1", "arith.cmpi slt,"), "i64",
                         _kept(_unsigned(np.minimum, 2**64 - 1, np.int64), lambda x: x < 0), "wide"),
    # i8/i16 min/max scans (session 24: narrow lane slides, SSE2's flipped signed i8 / unsigned i16)
    "cummax_i8": (_scan("max", "i8", "-100"), "i8", _wrapping(np.maximum, -100, np.int8), "wide"),
    "cumumin_i8": (_scan("umin", "i8", "-2"), "i8", _unsigned(np.minimum, 254, np.int8), "wide"),
    "cummin_i16": (_scan("min", "i16", "1000"), "i16", _wrapping(np.minimum, 1000, np.int16), "wide"),
    "cumumax_i16": (_scan("umax", "i16", "7"), "i16", _unsigned(np.maximum, 7, np.int16), "wide"),
    "kept_cummin_i8": (_filtered_scan("min", "i8", "50", "arith.cmpi ne,"), "i8",
                       _kept(_wrapping(np.minimum, 50, np.int8), lambda x: x != 0), "wide"),
    "kept_cumumax_i16": (_filtered_scan("umax", "i16", "3", "arith.cmpi sgt,"), "i16",
                         _kept(_unsigned(np.maximum, 3, np.int16), lambda x: x > 0), "wide"),
    # scans of a constant map (the lane_scan's operand is loop-invariant)
    "const_cumsum_i32": (_constant_scan("add", "i32", "7", "3"), "i32", _of_constant(_wrapping(np.add, 7, np.int32), 3, np.int32), "wide"),
    "const_cumumin_i64": (_constant_scan("umin", "i64", "-1", "5"), "i64",
                          _of_constant(_unsigned(np.minimum, 2**64 - 1, np.int64), 5, np.int64), "wide"),
    "const_cumsum_f64": (_constant_scan("add", "f64", "0.0", "0.5", reassoc=True), "f64",
                         _of_constant(_wrapping(np.add, 0, np.float64), 0.5, np.float64), "small"),
    "cumsum_f32": (_scan("add", "f32", "0.0", reassoc=True), "f32", None, "normal"),
    "cumsum_f64": (_scan("add", "f64", "0.0", reassoc=True), "f64", None, "normal"),
}


def _data(elt: str, how: str, n: int, rng: np.random.Generator) -> np.ndarray:
    t = TYPES[elt]
    if how == "wide":
        info = np.iinfo(t)
        x = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=t)
        if n > 2:
            x[rng.integers(0, n, size=2)] = [info.min, info.max]
        return x
    if how == "bits":
        return (np.int64(1) << rng.integers(0, 64, size=n)).astype(t)
    if how == "small":
        return rng.integers(-1000, 1000, size=n).astype(t)  # every partial sum exact
    x = rng.standard_normal(n).astype(t)
    if how == "nan" and n > 3:
        x[rng.integers(n // 2, n)] = np.nan  # the running min/max is NaN from there on
    return x


def _exact_cumsum(x: np.ndarray) -> np.ndarray:
    return np.cumsum(x.astype(np.longdouble))


def _cases(name: str) -> list[tuple[np.ndarray, np.ndarray | None]]:
    _, elt, ref, how = CASES[name]
    out = []
    for n in SIZES:
        x = _data(elt, how, n, np.random.default_rng([n, len(name)]))
        out.append((x, ref(x) if ref is not None else None))
    return out


def _check_float_sum(name: str, isa: str, x: np.ndarray, got: np.ndarray) -> None:
    eps = np.finfo(x.dtype).eps
    exact = _exact_cumsum(x)
    k = np.arange(1, len(x) + 1)
    bound = 1.01 * k * eps * np.cumsum(np.abs(x).astype(np.longdouble))
    err = np.abs(got.astype(np.longdouble) - exact)
    bad = np.flatnonzero(err > bound)
    assert not len(bad), f"{name} on {isa}, n={len(x)}: prefix {bad[0]} off by {err[bad[0]]} > {bound[bad[0]]}"


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", CASES)
def test_scan_matches_numpy(name: str, isa: str) -> None:
    cases = _cases(name)
    runs = run_each(compiled_source(CASES[name][0], isa), "k", [(x,) for x, _ in cases])
    for (x, ref), got in zip(cases, runs, strict=True):
        if ref is None:
            _check_float_sum(name, isa, x, np.asarray(got[0]))
            continue
        problems = compare_results(got, (ref,), {})
        assert not problems, f"{name} on {isa}, n={len(x)}: " + "; ".join(problems)


SLIDE = {"sse2": "_mm_slli_si128", "avx2": "_mm256_alignr_epi8", "avx512": "_mm512_alignr_epi", "neon": "vextq_"}
"""The neutral-filled lane slide (simd.slide_up) of each ISA."""
DUP_SLIDE = {"sse2": ("_mm_shuffle_epi32", "_mm_shuffle_ps", "_mm_unpacklo_pd"),
             "avx2": ("_mm256_permutevar8x32_epi32", "_mm256_permutevar8x32_ps", "_mm256_permute4x64")}  # fmt: skip
"""The lane-duplicating slide (simd.slide_up_dup) of min/max scans where TargetInfo.dup_slides."""


GENERIC_SCALAR = {"sse2": ("cummax_i64", "cumumax_i64", "cumumin_i64", "custom_cumminsi_i64", "const_cumumin_i64")}
"""Cases the default cpu (generic) keeps scalar: SSE2 i64 min/max scans (no 64-bit compare;
cpu_models.SSE2_I64_MINMAX_SCANS). (i8/i16 filter → scans vectorize since session 25.)"""


def _is_vector_scan(c: str, isa: str) -> bool:
    """The kernel's C slides lanes: the log-step vector scan, not the scalar loop."""
    return any(s in c for s in (SLIDE[isa], *DUP_SLIDE.get(isa, ())))


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
def test_scans_are_vector_code(isa: str) -> None:
    """Every case prints the ISA's lane slide and last-lane broadcast: none stays scalar but
    SSE2's i64 min/max scans (not filtered: cpu=generic's Costs.scalar_scans).
    Min/max/or scans slide by lane duplication on SSE2/AVX2 (no neutral: idempotent kinds)."""
    for name, (program, *_) in CASES.items():
        c = emit_program(program, isa).c_source
        if name in GENERIC_SCALAR.get(isa, ()):
            assert not _is_vector_scan(c, isa), (name, isa)
            continue
        assert _is_vector_scan(c, isa), (name, isa)
        idempotent = any(f"scan {k}(" in program or f"arith.{k}" in program
                         for k in ("min", "max", "umin", "umax", "or", "maxui", "minsi"))  # fmt: skip
        narrow = CASES[name][1] in ("i8", "i16")  # slides below 32 bits fill the neutral in (a byte shift)
        if isa in DUP_SLIDE and idempotent:
            assert (SLIDE[isa] in c.split(" k(")[1]) == narrow, (name, isa)


def test_strict_float_scan_stays_in_order() -> None:
    """Without `reassoc` a float sum scan is the sequential loop: bit-identical to numpy's."""
    compiled = compile(_scan("add", "f32", "0.0"), target="avx512" if "avx512" in _host() else "scalar")
    x = np.random.default_rng(5).standard_normal(1000).astype(np.float32)
    (got,) = run_compiled(compiled, "k", (x,), offset=1)
    assert np.array_equal(got, np.cumsum(x, dtype=np.float32))
    assert "alignr" not in emit_program(_scan("add", "f32", "0.0"), "avx512").c_source


def _host() -> tuple[str, ...]:
    from loopopt.runtime.isa import host_isas

    return tuple(host_isas())


ZEN4_SCANS = {"cumumax_i32": "umax", "cumumin_i32": "umin", "cumumax_i64": "umax", "cumumin_i64": "umin",
              "cummax_i64": "max", "cummin_i32": "min"}
"""The min/max scans Costs.scalar_scans decides about on Zen 4 (some stay scalar, some not)."""
CPU_OF = {"scalar": "zen4", "sse2": "zen4", "avx2": "zen4", "avx512": "zen4", "neon": "neoverse-n1"}


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", ZEN4_SCANS)
def test_scan_with_cpu_costs_matches_numpy(name: str, isa: str) -> None:
    """With a CPU model, a scan its Costs.scalar_scans lists (SSE2 unsigned i32 and any i64
    min/max, AVX2 unsigned i64 on Zen 4) is the scalar loop, the others the vector scan;
    both exact on sizes 0..129, 1000, 4099, every buffer one element into its allocation."""
    from loopopt.dialects.cpu_models import CPUS

    program, elt, ref, how = CASES[name]
    cpu = CPU_OF[isa]
    compiled = compile(program, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    if isa in SLIDE:
        scalar = (isa, ZEN4_SCANS[name], elt) in CPUS[cpu].costs.scalar_scans
        assert (not _is_vector_scan(compiled.c_source, isa)) == scalar, (name, isa, cpu)
    sizes = (*range(130), 1000, 4099)
    xs = [_data(elt, how, n, np.random.default_rng([n, 21])) for n in sizes]
    runs = run_each(compiled, "k", [(x,) for x in xs])
    for x, got in zip(xs, runs, strict=True):
        problems = compare_results(got, (ref(x),), {})
        assert not problems, f"{name} on {isa} cpu={cpu}, n={len(x)}: " + "; ".join(problems)


# ----------------------------------------------------------------- min/max scans at the extremes

MINMAX_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}


def _minmax_inits(elt: str) -> dict[str, int | float]:
    """A non-neutral init per kind, at an extreme where signed and unsigned order disagree
    (umax from MAX: all-ones after the sign flip of SSE2/AVX2's flipped scans; umin from MIN)."""
    if elt.startswith("f"):
        return {"max": -1.5, "min": 2.5}
    info = np.iinfo(MINMAX_TYPES[elt])
    return {"max": -1, "min": 0, "umax": int(info.max), "umin": int(info.min)}


def _minmax_program(elts: tuple[str, ...] = tuple(MINMAX_TYPES)) -> str:
    """One kernel `k_<kind>_<elt>` per min/max kind and element type (compiled once per ISA)."""
    funcs = []
    for elt in elts:
        for kind, init in _minmax_inits(elt).items():
            value = repr(float(init)) if elt.startswith("f") else str(init)
            funcs.append(f"""
func.func @k_{kind}_{elt}(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %z = arith.constant {value} : {elt}
  %p = df.scan {kind}(%x, %z) : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]>
  func.return %p : !df.array<{elt}, [i]>
}}""")
    return "\n".join(funcs) + "\n"


MINMAX_PROGRAM = _minmax_program()
MINMAX_SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 1009, 65537)
"""0, 1, W-1, W, W+1 of every width (2 to 64 lanes), primes, large."""


def _extremes(elt: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random lanes with 0, all-ones (-1), MIN, MAX, MIN+1, MAX-1 and 1 spread in (half of
    the lanes), so signed and unsigned orders and the flip's fixed points all occur; floats
    get ±inf, ±max and ±tiny (no NaN: those are the "nan" cases above)."""
    t = MINMAX_TYPES[elt]
    if elt.startswith("f"):
        info = np.finfo(t)
        specials = np.array([0.0, 1.0, -1.0, np.inf, -np.inf, info.max, -info.max, info.tiny, -info.tiny], t)
        x = rng.standard_normal(n).astype(t)
    else:
        info = np.iinfo(t)
        specials = np.array([0, -1, info.min, info.max, info.min + 1, info.max - 1, 1], t)
        x = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=t)
    pick = rng.random(n) < 0.5
    x[pick] = rng.choice(specials, size=int(pick.sum()))
    return x


def _minmax_ref(kind: str, elt: str, init: int | float, x: np.ndarray) -> np.ndarray:
    t = MINMAX_TYPES[elt]
    op = np.maximum if kind.endswith("max") else np.minimum
    if kind.startswith("u"):
        u = np.dtype(f"u{np.dtype(t).itemsize}")
        start = np.array([init], t).view(u)
        return op.accumulate(np.concatenate([start, x.view(u)]))[1:].view(t)
    return op.accumulate(np.concatenate([np.array([init], t), x]))[1:]


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", [f"{k}_{e}" for e in MINMAX_TYPES for k in _minmax_inits(e)])
def test_minmax_scan_extremes_match_numpy(name: str, isa: str) -> None:
    """Every min/max/umin/umax scan of every element type at the extremes (0, all-ones, MIN,
    MAX): SSE2/AVX2's lane-duplicating slides, the sign-flipped unsigned scans (init, lanes,
    store and tail all flipped right) and the serial carry agree with numpy's exactly."""
    kind, elt = name.split("_")
    init = _minmax_inits(elt)[kind]
    xs = [_extremes(elt, n, np.random.default_rng([n, 23, len(name)])) for n in MINMAX_SIZES]
    runs = run_each(compiled_source(MINMAX_PROGRAM, isa), f"k_{name}", [(x,) for x in xs])
    for x, got in zip(xs, runs, strict=True):
        problems = compare_results(got, (_minmax_ref(kind, elt, init, x),), {})
        assert not problems, f"{name} on {isa}, n={len(x)}: " + "; ".join(problems)


def test_sse2_i64_minmax_vector_scans_match_numpy() -> None:
    """SSE2's i64 min/max scans in their vector form (lane-duplicating pshufd, the serial
    carry, lo_max_i64x2 ..), which cpu=generic and zen4 keep scalar but a CPU without
    Costs.scalar_scans data (cpu=zen3) still emits: exact at the extremes."""
    compiled = compile(_minmax_program(("i64",)), target="sse2", pipeline="loop-pipeline{target=sse2 cpu=zen3}")
    for kind, init in _minmax_inits("i64").items():
        body = compiled.c_source.split(f" k_{kind}_i64(")[1].split("\n}\n")[0]
        assert "_mm_shuffle_epi32" in body, kind
        xs = [_extremes("i64", n, np.random.default_rng([n, 29])) for n in MINMAX_SIZES]
        for x, got in zip(xs, run_each(compiled, f"k_{kind}_i64", [(x,) for x in xs]), strict=True):
            problems = compare_results(got, (_minmax_ref(kind, "i64", init, x),), {})
            assert not problems, f"{kind} i64 on sse2 cpu=zen3, n={len(x)}: " + "; ".join(problems)


@pytest.mark.parametrize("name", ["kept_cummin_i8", "kept_cumumax_i16"])
def test_sse2_vector_scans_without_cost_data(name: str) -> None:
    """SSE2's i8/i16 filter → scan in its vector form (the shift-network compaction) on
    cpu=zen3 (no scan data; generic and zen4 emit it too since session 25): exact."""
    program, _, ref, _ = CASES[name]
    compiled = compile(program, target="sse2", pipeline="loop-pipeline{target=sse2 cpu=zen3}")
    assert _is_vector_scan(compiled.c_source, "sse2"), name
    cases = _cases(name)
    for (x, want), got in zip(cases, run_each(compiled, "k", [(x,) for x, _ in cases]), strict=True):
        problems = compare_results(got, (want,), {})
        assert not problems, f"{name} on sse2 cpu=zen3, n={len(x)}: " + "; ".join(problems)
