"""Vector math (targets/c_vmath.py) against exact references, on every ISA this machine runs.

Per ISA one compiled library (test/python/vmath/vmath_build.py); per function and element type
a few thousand inputs: random over the useful range and over the whole exponent range, tiny and
subnormal, the IEEE specials, overflow/underflow thresholds, multiples of pi/2 (and their
neighbours) for sin/cos, huge sin/cos arguments. Each result is within the function's
documented bound (`c_vmath.ULP_BOUNDS`) of the long double value, and the specials are exact
(NaN, the right infinity, zero with its sign). AVX-512 runs where the CPU has it (else compiles only).
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest
from isa_support import isa_params
from vmath_build import FUNCTIONS, compile_only, library, ulp_errors

from loopopt.targets.c_vmath import AFN_F32, TRIG_FAST_LIMIT, ULP_BOUNDS, ULP_BOUNDS_AFN

RUN_ISAS = ("sse2", "avx2", "avx512", "neon")  # each skipped where this machine cannot run it
DT = {"f32": np.float32, "f64": np.float64}

_RANGE = {
    "exp": (-120, 100, -760, 760), "exp2": (-160, 130, -1100, 1100), "expm1": (-20, 100, -760, 760),
    "log": (0, 10, 0, 1e300), "log2": (0, 10, 0, 1e300), "log1p": (-1, 10, -1, 1e300),
    "sin": (-20, 20, -1e5, 1e5), "cos": (-20, 20, -1e5, 1e5), "tanh": (-10, 10, -30, 30),
    "erf": (-4, 4, -7, 7), "rsqrt": (0, 10, 0, 1e300), "pow": (0, 20, 0, 1e3),
}  # fmt: skip
"""fn -> (small range lo, hi, wide range lo, hi) of the random inputs (clipped to the type)."""

_EDGES = {
    "exp": [709.78, 709.79, 708.0, -708.0, -708.4, -745.1, -745.2, 88.72, 88.73, -87.3, -103.97, -104.0],
    "exp2": [1023.99, 1024.0, 1020.0, -1020.0, -1022.0, -1074.0, -1075.0, 127.99, 128.0, -126.0, -149.0, -150.0],
    "expm1": [709.78, 709.79, 708.0, -708.0, -40.0, 88.72, 88.73, 0.34657, -0.34657, 1e-9, -1e-9],
    "log1p": [-0.5, -0.2928, 0.4142, -0.2929, 0.4143, 1e-300],
    "tanh": [0.625, 0.6249, 19.0, 22.0, 40.0, 1e-300, 0.62499994, 0.62500006, 9.01, 9.02, 10.0, 10.000001, 1e-20],
    # f32 sin/cos: the f32 inputs closest to a multiple of pi/2 per binade up to 2^12 (|r| down to 2^-27.8),
    # and the bounds of the reduction tiers, 6400 and 2^21 (c_vmath's lo_vm_sincos_f), with their neighbours
    "sin": [4.71238899, 252.898209, 505.796417, 1011.59283, 2023.18567, 2238.38477, 4476.76953, 6400.0, 6400.0005,
            8953.53906, 52516.4336, 2097152.0, 2097152.2, 2097151.9],
    "cos": [4.71238899, 252.898209, 505.796417, 1011.59283, 2023.18567, 2238.38477, 4476.76953, 6400.0, 6400.0005,
            8953.53906, 52516.4336, 2097152.0, 2097152.2, 2097151.9],
    # erf: f32 interval bounds (c_vmath's lo_vm_erf_f) and their neighbours, the largest x whose erf rounds below 1
    "erf": [1.0, 0.9999, 5.9, 6.0, 1e-300, 0.75, 0.74999994, 1.5, 1.4999999, 2.5, 2.4999998, 3.92, 3.9199998,
            3.9192057, 3.919206, 0.742940724],
}  # fmt: skip


_TRIG_HARD_F32 = np.array([
    0x460be628, 0x468be628, 0x474d246f, 0x47cd246f, 0x484d246f, 0x4882665e, 0x4902665e, 0x4982665e, 0x4a2562ae,
    0x4aa562ae, 0x4b2562ae, 0x4bf3b47b, 0x4c2332e9, 0x4ca332e9, 0x4d2332e9, 0x4d847661, 0x4e13d4a5, 0x4e93d4a5,
    0x4f0ffd14, 0x4fdbd32f, 0x507fd274, 0x50a3e87f, 0x5123e87f, 0x51a3e87f, 0x5223e87f, 0x52a3e87f, 0x5323e87f,
    0x53b146a6, 0x543146a6, 0x54b146a6, 0x553146a6, 0x55b146a6, 0x56787577, 0x56f87577, 0x57787577, 0x57b82989,
    0x58382989, 0x58dc36c9, 0x596e3d69, 0x59f740b9, 0x5a7bc261, 0x5afe0335, 0x5b7f239f, 0x5bffb3d4, 0x5c07bcd0,
    0x5c87bcd0, 0x5d07bcd0, 0x5d87bcd0, 0x5e07bcd0, 0x5e87bcd0, 0x5f07bcd0, 0x5fe4112c, 0x6064112c, 0x60ab0ce1,
    0x617c556b, 0x61d3b126, 0x6253b126, 0x62ec1b4a, 0x636c1b4a, 0x63e600c1, 0x642e0733, 0x64ae0733, 0x652e0733,
    0x65898498, 0x66098498, 0x66898498, 0x67098498, 0x67898498, 0x68098498, 0x68898498, 0x6946e3bb, 0x69c6e3bb,
    0x6a1976f1, 0x6a9976f1, 0x6b1976f1, 0x6b9976f1, 0x6c55da58, 0x6cd5da58, 0x6d2063c2, 0x6d85a877, 0x6e05a877,
    0x6e85a877, 0x6f79be45, 0x6ff9be45, 0x7079be45, 0x70f9be45, 0x7179be45, 0x71f9be45, 0x723fa09a, 0x72bfa09a,
    0x733fa09a, 0x73e61c18, 0x7452de59, 0x74d2de59, 0x756fa1dc, 0x75949471, 0x76507ce8, 0x76a426eb, 0x77584625,
    0x77d84625, 0x78584625, 0x78a8b883, 0x79407f54, 0x79c07f54, 0x7a105f7f, 0x7afccbab, 0x7b1675c0, 0x7b9675c0,
    0x7c6c3305, 0x7cff01bd, 0x7d7f01bd, 0x7dff01bd, 0x7e7f01bd, 0x7ebdcda0, 0x7f3dcda0,
], dtype=np.uint32).view(np.float32)  # fmt: skip
"""Per binade from 2^13 to 2^128, the f32 closest to a multiple of pi/2 (|x - n pi/2| down to 2^-29.2 at
0x6f79be45 = 7.73e28; an exact integer search, docs/vector_math.md): the inputs that need the most bits of
the second reduction tier (c_vmath's lo_vm_pio2big_d)."""


def _inputs(fn: str, elt: str, seed: int = 12) -> np.ndarray:
    dt = DT[elt]
    fi = np.finfo(dt)
    rng = np.random.default_rng(seed)
    lo, hi, wlo, whi = _RANGE[fn]
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, fi.tiny, -fi.tiny, fi.smallest_subnormal,
                -fi.smallest_subnormal, fi.max, -fi.max, 1.0, -1.0, 0.5, 2.0, 3.0 * fi.smallest_subnormal]  # fmt: skip
    parts = [
        np.array(specials),
        rng.uniform(lo, hi, 1500),
        np.clip(rng.uniform(wlo, whi, 500), -fi.max, fi.max),
        rng.choice([-1.0, 1.0], 500) * np.exp2(rng.uniform(fi.minexp - fi.nmant, fi.maxexp, 500)),  # every exponent
        rng.uniform(-1, 1, 300) * 10.0 ** rng.uniform(-30, 0, 300),  # tiny
        np.array(_EDGES.get(fn, []), dtype=np.float64),
    ]
    if fn in ("sin", "cos"):
        k = np.arange(-300, 300, dtype=np.float64)
        mult = np.concatenate([k * (np.pi / 2), (2.0**19 + k) * (np.pi / 2), (4000 + k) * (np.pi / 2)]).astype(dt)
        # the second tier (f32 |x| > 6400): its hardest inputs, both signs; powers of two and their neighbours
        # (2/pi's window moves every 8 exponents); random bit patterns up to the largest float
        p2 = np.exp2(np.arange(1.0, 128.0)).astype(np.float32)
        big = rng.integers(0x45C80000, 0x7F800000, 500).astype(np.uint32).view(np.float32)
        parts += [mult, np.nextafter(mult, dt(np.inf)), np.nextafter(mult, dt(-np.inf)),
                  np.array([2.0**21, 2.0**21 + 2, 1e22, 1e300, 3.4e38, 6381956970095103.0 * 2.0**797]),
                  _TRIG_HARD_F32, -_TRIG_HARD_F32, p2, np.nextafter(p2, np.float32(0)), -big, big]  # fmt: skip
    with np.errstate(over="ignore"):
        x = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]).astype(dt)
    return np.concatenate([x, np.ones(-x.size % 16, dt)])  # whole vectors on every ISA


def _second_operand(x: np.ndarray, seed: int = 5) -> np.ndarray:
    """pow's exponents: specials and integers (odd/even, negative bases) then random."""
    rng = np.random.default_rng(seed)
    y = rng.uniform(-40, 40, x.size)
    head = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 1e10, -1e10, 7.0, 8.0, 100.0,
            -100.0, 1.5, 2.5]  # fmt: skip
    y[: len(head)] = head
    y[len(head) : 2 * len(head)] = np.round(y[len(head) : 2 * len(head)])
    return y.astype(x.dtype)


def _pow_bases(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x[20:60] = -np.abs(x[20:60])  # negative bases with integer and fractional exponents
    return x


def _pow_wide(dt: type, n: int = 2048, seed: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """pow pairs whose y log2 x spans [-130, 130] for x over every positive binade (and x within 2^-5 of
    1 with huge y): every interval of the f32 core's log2 table at the largest results it must carry."""
    rng = np.random.default_rng(seed)
    x = np.exp2(rng.uniform(-125, 127, n))
    x[: n // 4] = 1.0 + rng.uniform(-2.0**-5, 2.0**-5, n // 4)
    x = x.astype(dt)
    with np.errstate(divide="ignore"):
        y = rng.uniform(-130, 130, n) / np.log2(x.astype(np.float64))
    y = np.where(np.isfinite(y), y, 1.0)
    return x, y.astype(dt)


def _check(isa: str, fn: str, elt: str) -> None:
    run = library(isa)
    x = _inputs(fn, elt)
    if fn == "pow":
        x = _pow_bases(x)
        y = _second_operand(x)
        xw, yw = _pow_wide(DT[elt])
        x, y = np.concatenate([x, xw]), np.concatenate([y, yw])
        got = run(fn, elt, x, y)
        err = ulp_errors(fn, got, x, y)
    else:
        got = run(fn, elt, x)
        err = ulp_errors(fn, got, x)
    if fn in ("sin", "cos") and elt == "f64":
        # beyond the fast path the contract is the C library's own result, whatever its error
        huge = np.abs(x) > TRIG_FAST_LIMIT
        libm = getattr(ctypes.CDLL(ctypes.util.find_library("m")), fn)
        libm.restype, libm.argtypes = ctypes.c_double, [ctypes.c_double]
        want = np.array([libm(v) for v in x[huge]])
        assert np.array_equal(got[huge], want, equal_nan=True), f"{isa} {fn}: huge arguments differ from libm"
        err = np.where(huge, 0.0, err)
    bound = ULP_BOUNDS[fn][0 if elt == "f32" else 1]
    worst = int(np.argmax(err))
    assert err[worst] <= bound, (
        f"{isa} {fn} {elt}: {err[worst]:.3f} ulp > {bound} at x={x[worst]!r}"
        + (f" y={y[worst]!r}" if fn == "pow" else "")
        + f": got {got[worst]!r}"
    )


@pytest.mark.parametrize("isa", isa_params(RUN_ISAS))
@pytest.mark.parametrize("fn", FUNCTIONS)
@pytest.mark.parametrize("elt", ["f32", "f64"])
def test_within_documented_ulps(isa: str, fn: str, elt: str) -> None:
    _check(isa, fn, elt)


def test_avx512_compiles(tmp_path) -> None:
    """AVX-512 cannot run on every CI machine: its library must at least compile cleanly."""
    assert compile_only("avx512", tmp_path).stat().st_size > 0


def test_the_check_catches_an_error() -> None:
    """One ulp off in one lane, or a zero of the wrong sign, is caught."""
    x = np.array([0.5, -0.0, 2.0], dtype=np.float32)
    good = np.exp(x.astype(np.float64)).astype(np.float32)
    assert ulp_errors("exp", good, x).max() <= 0.5
    bad = good.copy()
    bad[2] = np.nextafter(bad[2], np.float32(np.inf))
    assert ulp_errors("exp", bad, x)[2] > 0.5
    wrong_zero = np.sin(x)
    wrong_zero[1] = 0.0
    assert ulp_errors("sin", wrong_zero, x)[1] == np.inf



_SCANS = {
    # fn: (sign-magnitude bit ranges scanned, maximum of the exhaustive scan in docs/vector_math.md)
    "exp": (((0x80000000, np.float32(-104.0).view(np.uint32)), (0, np.float32(89.0).view(np.uint32))), 0.681),
    "exp2": (((0x80000000, np.float32(-151.0).view(np.uint32)), (0, np.float32(129.0).view(np.uint32))), 0.677),
    "log": (((0, 0x7F800000),), 0.812),  # every positive float, subnormals and +inf included
    "log2": (((0, 0x7F800000),), 0.711),
    "sin": (((0x80000000, 0xFF800000), (0, 0x7F800000)), 0.7821),  # both tiers, every float up to +-inf
    "cos": (((0x80000000, 0xFF800000), (0, 0x7F800000)), 0.7826),
    "tanh": (((0x80000000, np.float32(-12.0).view(np.uint32)), (0, np.float32(12.0).view(np.uint32))), 0.7821),
    "log1p": (((0x80000000, np.float32(-1.0).view(np.uint32)), (0, 0x7F800000)), 0.8226),
    "expm1": (((0x80000000, np.float32(-20.0).view(np.uint32)), (0, np.float32(89.0).view(np.uint32))), 0.7420),
    "erf": (((0x80000000, 0xFF800000), (0, 0x7F800000)), 0.8332),  # every float up to +-inf
}  # fmt: skip
_SCAN_EDGES = {
    "exp": [-87.33, -87.3299, 88.0, 88.0001, -87.336, 88.7228, 88.7229, -103.97, -104.0],
    "exp2": [-126.0, -126.00001, 127.0, 127.00001, -149.0, -150.0, 128.0, 0.5, -0.5, 0.49999997],
    "log": [1.0, 0.70710677, 0.7071068, 1.4142135, 1.4142137, 1.17549435e-38, 1.1754942e-38, 3.4028235e38],
    "log2": [1.0, 2.0, 0.5, 0.70710677, 0.7071068, 1.4142135, 1.4142137, 1.17549435e-38, 3.4028235e38],
    "sin": [6400.0, 6400.0005, -6400.0005, 2097152.0, 2097152.2, -2097151.9, 4476.76953, 252.898209, 0.7853982, 0.78539819, 1e-30, -0.0, 7.72917892e28,
            2.19993846e10, 3.4028235e38, 2.0, 1.9999999],
    "cos": [6400.0, 6400.0005, -6400.0005, 2097152.0, 2097152.2, -2097151.9, 4476.76953, 252.898209, 0.7853982, 0.78539819, 1e-30, -0.0, 7.72917892e28,
            2.19993846e10, 3.4028235e38, 2.0, 1.9999999],
    "tanh": [0.625, 0.62499994, -0.625, 9.01, 9.02, 10.0, 10.000001, 1e-30, 1.4e-45, -0.0],
    "log1p": [-0.2928, -0.29279998, 0.4142, 0.41419998, -0.99999994, -1.0, 1e-30, -1e-30, 3.4028235e38, -0.0],
    "expm1": [-17.5, -17.500002, 88.0, 88.00001, 0.34657, -0.34657, 16.635532, 17.328680, 1e-30, -1e-30, -0.0],
    "erf": [0.75, 0.74999994, 1.5, 1.4999999, 2.5, 2.4999998, 3.92, 3.9199998, 3.9192057, 0.742940724, -0.742940724,
            1e-30, 1.4e-45, -0.0, 3.4028235e38],
}  # fmt: skip


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
@pytest.mark.parametrize("fn", sorted(_SCANS))
def test_native_f32_core_over_a_dense_scan(isa: str, fn: str) -> None:
    """A native f32 core (c_vmath.NATIVE_F32) on every 1021st float of its scanned range (about
    2 million inputs: every binade of the fast path, its thresholds, the libm lanes beyond). The
    whole range was scanned once (docs/vector_math.md); this keeps a cheap slice of it."""
    ranges, scanned = _SCANS[fn]
    parts = [np.arange(a, b + 1, 1021, dtype=np.uint32).view(np.float32) for a, b in ranges]
    x = np.concatenate([*parts, np.array(_SCAN_EDGES[fn], dtype=np.float32)])
    x = np.concatenate([x, np.ones(-x.size % 16, np.float32)])
    got = library(isa)(fn, "f32", x)
    err = ulp_errors(fn, got, x)
    worst = int(np.argmax(err))
    assert err[worst] <= ULP_BOUNDS[fn][0], f"{isa} {fn}: {err[worst]:.3f} ulp at {x[worst]!r}"
    assert err[worst] <= scanned, f"{isa} {fn}: {err[worst]:.3f} ulp at {x[worst]!r} beyond the scanned {scanned}"


_AFN_SCANNED = {"exp_afn": ("exp", 1.0077), "exp2_afn": ("exp2", 1.0825)}
"""Each fastmath<afn> core (c_vmath.AFN_F32): the accurate function whose scan ranges and edges it shares, and
the largest maximum of its exhaustive scans (avx2, sse2; docs/vector_math.md, "fastmath<afn>")."""


@pytest.mark.parametrize("isa", isa_params(RUN_ISAS))
@pytest.mark.parametrize("fn", AFN_F32)
def test_afn_core_over_a_dense_scan(isa: str, fn: str) -> None:
    """A fastmath<afn> core on every 1021st float of its accurate twin's scan range (every 65521st under
    qemu), its thresholds and the specials: within ULP_BOUNDS_AFN and its scanned maximum; every lane off
    the fast path (NaN, +-inf, overflow, subnormal and zero results) bit-equal to the accurate row's (both
    are the C library's); and not the accurate core under another name (they differ somewhere)."""
    base, scanned = _AFN_SCANNED[fn]
    ranges, _ = _SCANS[base]
    stride = 65521 if isa == "neon" else 1021
    parts = [np.arange(a, b + 1, stride, dtype=np.uint32).view(np.float32) for a, b in ranges]
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4028235e38, -3.4028235e38, 1.0, -1.0]
    x = np.concatenate([*parts, np.array(_SCAN_EDGES[base] + specials, dtype=np.float32)])
    x = np.concatenate([x, np.ones(-x.size % 16, np.float32)])
    got = library(isa)(fn, "f32", x)
    err = ulp_errors(fn, got, x)
    worst = int(np.argmax(err))
    assert err[worst] <= ULP_BOUNDS_AFN[fn], f"{isa} {fn}: {err[worst]:.3f} ulp at {x[worst]!r}"
    assert err[worst] <= scanned, f"{isa} {fn}: {err[worst]:.3f} ulp at {x[worst]!r} beyond the scanned {scanned}"
    accurate = library(isa)(base, "f32", x)
    lo, hi = (-87.33, 88.0) if base == "exp" else (-126.0, 127.0)
    off = ~((x >= lo) & (x <= hi))
    assert off.sum() > 0 and np.array_equal(got[off].view(np.uint32), accurate[off].view(np.uint32))
    assert (got != accurate).sum() > 100, f"{isa} {fn}: the same results as the accurate {base}"
