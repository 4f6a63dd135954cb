"""Mixed element widths on every ISA: conversions between 32- and 64-bit lanes at their edge
values, and loops whose f32/i32 vectors fill half a register, with scalar and masked tails.

Each program is compiled by the default pipeline (scalar tail) and with `tail=masked`, runs at
sizes 0, 1, around the mixed-width W of every ISA (2, 4, 8), primes and large, on the native
ISAs with buffers at +1 element (unaligned) and on NEON under qemu in one batched run, and is
compared exactly with numpy references written from docs/integer_semantics.md (float -> int
truncates, saturates, NaN -> 0; int -> float and f64 -> f32 round once to nearest even; i64 ->
i32 keeps the low bits). The corpus (test/corpus/df/mixed.mlir) covers the same kernels on
random data through the differential suite.
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np
import pytest
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.tools.loop_run import compare_results, run_compiled, run_compiled_batch

SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 129, 1000, 4099)
PIPELINES = {"scalar_tail": None, "masked_tail": "tail=masked"}
BF16_CPU_PIPELINES = {"avx512_bf16": "cpu=zen4", "avx512_bf16_masked": "cpu=zen4 tail=masked"}
"""A CPU with AVX512_BF16: f32 -> bf16 by vcvtneps2bf16 and a fix-up (targets/c_part.py), avx512 only."""

T = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}


def _map(op: str, src: str, dst: str) -> str:
    return f"""
func.func @k(%x: !df.array<{src}, [i]>) -> !df.array<{dst}, [i]> {{
  %y = df.map %x : !df.array<{src}, [i]> -> !df.array<{dst}, [i]> {{
  ^bb0(%e: {src}):
    %v = {op} %e : {src} to {dst}
    df.yield %v : {dst}
  }}
  func.return %y : !df.array<{dst}, [i]>
}}"""


_SUM_COUNT_MIN = """
func.func @k(%x: !df.array<f32, [i]>) -> (f64, i64, f32) {
  %zd = arith.constant 0.0 : f64
  %zi = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %w = df.map %x : !df.array<f32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f32):
    %v = arith.extf %e : f32 to f64
    df.yield %v : f64
  }
  %s = df.reduce add(%w, %zd) over [i] reassoc : !df.array<f64, [i]> -> f64
  %c = df.map %x : !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: f32):
    %p = arith.cmpf olt, %e, %zf : f32
    %one = arith.extui %p : i1 to i64
    df.yield %one : i64
  }
  %k = df.reduce add(%c, %zi) over [i] : !df.array<i64, [i]> -> i64
  %m = df.reduce min(%x, %inf) over [i] : !df.array<f32, [i]> -> f32
  func.return %s, %k, %m : f64, i64, f32
}"""
"""An f64 sum of f32 data (integers: exact in any order), an i64 count and an f32 min (a part
vector reduced with +inf in its upper lanes) fused into one loop."""


def _sat(x: np.ndarray, dst) -> np.ndarray:
    """fptosi: truncate, saturate, NaN -> 0, in exact Python integers."""
    info = np.iinfo(dst)
    out = [0 if np.isnan(v) else info.max if v >= 2.0**63 or v > info.max else info.min if v < info.min
           else int(v) for v in x.astype(np.float64)]  # fmt: skip
    return np.array(out, dst)


F64_TO_I32 = (np.nan, np.inf, -np.inf, -0.0, 0.5, -0.5, 5e-324, 2147483647.0, 2147483647.99, 2147483648.0,
              -2147483648.0, -2147483648.99, -2147483649.0, 1e300, -1e300)  # fmt: skip
F32_TO_I64 = (np.nan, np.inf, -np.inf, -0.0, 0.99, -0.99, 2.0**63, -(2.0**63), 9223371487098961920.0, 1e30, -1e30)
I64_EDGES = (2**53 + 1, -(2**53 + 1), 2**60 + 2**36 + 1, -(2**60 + 2**36 + 1), 2**63 - 1, -(2**63), 16777217, -1, 0)
"""2^60 + 2^36 + 1 rounds up to f32 directly but down through f64 (a tie after the first rounding)."""
F64_TO_F32 = (np.nan, np.inf, -np.inf, -0.0, 3.5e38, -3.5e38, 1e-40, -1e-40, 1e-50, -1e-50, 1 + 2.0**-24,
              1 + 2.0**-24 + 2.0**-50, 3.4028235677973366e38)  # fmt: skip
F32_EDGES = (np.nan, np.inf, -np.inf, -0.0, 1e-40, -1e-45, 3.4028235e38)


def _sprinkle(x: np.ndarray, specials, rng) -> np.ndarray:
    """`x` with special values at random positions, the first and the last included."""
    n = len(x)
    if n == 0:
        return x
    values = np.array(specials, x.dtype) if x.dtype.kind == "f" else np.array(specials, x.dtype)
    where = rng.choice(n, size=min(n, max(1, n // 8)), replace=False)
    x[where] = rng.choice(values, where.size)
    x[[0, -1]] = rng.choice(values, 2)
    return x


def _floats(dtype, specials, scale=1e3):
    return lambda n, rng: (_sprinkle(rng.uniform(-scale, scale, n).astype(dtype), specials, rng),)


def _ints(dtype, specials):
    def make(n, rng):
        info = np.iinfo(dtype)
        return (_sprinkle(rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True), specials, rng),)

    return make


def _sum_count_min(x):
    return (np.float64(np.sum(x.astype(np.float64))), np.int64(np.sum(x < 0)),
            np.float32(np.min(x, initial=np.float32(np.inf))))  # fmt: skip


F16_EDGES = (np.nan, np.inf, -np.inf, -0.0, 65504.0, -65504.0, 6.1e-5, 6e-8, -6e-8, 1e-7)
"""f16 specials: NaN, infinities, the largest half, the smallest normal and subnormals."""
F32_TO_F16 = (np.nan, np.inf, -0.0, 65519.99, 65520.0, -65520.0, 1e6, 2.0**-25, 2.0**-25 * 1.0000001, 2.0**-24 * 1.5,
              1 + 2.0**-11, 1 + 3 * 2.0**-11, 1e-40)  # fmt: skip
"""f32 -> f16 edges: the overflow threshold 65520, the ties at 2^-25 (to 0) and 1 + 2^-11 (to even),
subnormal results."""


def storage_scale(t: str) -> str:
    """y = x * a for storage type `t` (f16, bf16): loaded, widened, multiplied in f32, rounded back."""
    return _map("arith.extf", t, "f32").replace("@k", "@unused") + f"""
func.func @k(%x: !df.array<{t}, [i]>, %a: f32) -> !df.array<{t}, [i]> {{
  %y = df.map %x : !df.array<{t}, [i]> -> !df.array<{t}, [i]> {{
  ^bb0(%e: {t}):
    %w = arith.extf %e : {t} to f32
    %m = arith.mulf %w, %a : f32
    %v = arith.truncf %m : f32 to {t}
    df.yield %v : {t}
  }}
  func.return %y : !df.array<{t}, [i]>
}}"""


def _scaled(dtype):
    return lambda x, a: (x.astype(np.float32) * a).astype(dtype)


BF16 = ml_dtypes.bfloat16
BF16_EDGES = (np.nan, np.inf, -np.inf, -0.0, 3.3895314e38, -3.3895314e38, 1.1754944e-38, 9.2e-41, -9.2e-41, 1e-45)
"""bf16 specials: NaN, infinities, the largest bf16, the smallest normal and subnormals."""
F32_TO_BF16 = (np.nan, -np.nan, np.inf, -0.0, 3.3961775e38, 3.3961776e38, -3.4028235e38, 1 + 2.0**-8, 1 + 3 * 2.0**-8,
               -(1 + 2.0**-8), 2.0**-133 * 3, 1e-40, -1e-45, 1.1754942e-38)  # fmt: skip
"""f32 -> bf16 edges: the overflow threshold (0x7F7F8000 rounds to inf), ties to even (1 + 2^-8 down,
1 + 3·2^-8 up), subnormals that round (not flush: ml_dtypes keeps them), the largest subnormal."""


def _bf16_sum(x):
    return np.float32(np.sum(x.astype(np.float32), dtype=np.float32))


def bf16_sum(name: str = "k", result: str = "f32") -> str:
    """A bf16 sum accumulates in f32 (as f16's does: the corpus' sum_f16_as_f32); `result`
    bf16 rounds the f32 total to a bf16 scalar."""
    ret = "func.return %s : f32" if result == "f32" else "%r = arith.truncf %s : f32 to bf16\n  func.return %r : bf16"
    return f"""
func.func @{name}(%x: !df.array<bf16, [i]>) -> {result} {{
  %zero = arith.constant 0.0 : f32
  %w = df.map %x : !df.array<bf16, [i]> -> !df.array<f32, [i]> {{
  ^bb0(%e: bf16):
    %v = arith.extf %e : bf16 to f32
    df.yield %v : f32
  }}
  %s = df.reduce add(%w, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  {ret}
}}"""


_SELECT_BF16 = """
func.func @k(%x: !df.array<f32, [i]>) -> !df.array<bf16, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<bf16, [i]> {
  ^bb0(%e: f32):
    %c = arith.constant 3.0e38 : bf16
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %e, %z : f32
    %h = arith.truncf %e : f32 to bf16
    %v = arith.select %p, %h, %c : bf16
    df.yield %v : bf16
  }
  func.return %y : !df.array<bf16, [i]>
}"""
"""A select of bf16 values and a bf16 constant: a bit move (scalar: a select on bf16 has no vector form)."""


CASES = {
    # name: (program, make inputs(n, rng), numpy reference(*inputs))
    "f16_load_f32_compute_store": (storage_scale("f16"), lambda n, rng: (*_floats(np.float16, F16_EDGES, 6e4)(n, rng), np.float32(1.25)),
                                   _scaled(np.float16)),
    "bf16_load_f32_compute_store": (storage_scale("bf16"),
                                    lambda n, rng: (*_floats(BF16, BF16_EDGES, 3e38)(n, rng), np.float32(1.0078125)), _scaled(BF16)),
    "extf_bf16_f32": (_map("arith.extf", "bf16", "f32"), _floats(BF16, BF16_EDGES, 1e30), lambda x: x.astype(np.float32)),
    "truncf_f32_bf16": (_map("arith.truncf", "f32", "bf16"), _floats(np.float32, F32_TO_BF16, 3e38), lambda x: x.astype(BF16)),
    "truncf_f64_bf16": (_map("arith.truncf", "f64", "bf16"), _floats(np.float64, F32_TO_BF16, 3e38), lambda x: x.astype(BF16)),
    "select_bf16": (_SELECT_BF16, _floats(np.float32, F32_TO_BF16, 3e38),
                    lambda x: np.where(x > 0, x.astype(BF16), np.array(3.0e38, np.float32).astype(BF16))),
    "sum_bf16_as_f32": (bf16_sum(), lambda n, rng: (_sprinkle(rng.integers(-128, 128, n).astype(BF16), (-0.0, 0.0, 256.0), rng),),
                        _bf16_sum),
    "extf_f16_f32": (_map("arith.extf", "f16", "f32"), _floats(np.float16, F16_EDGES, 6e4), lambda x: x.astype(np.float32)),
    "truncf_f32_f16": (_map("arith.truncf", "f32", "f16"), _floats(np.float32, F32_TO_F16, 7e4), lambda x: x.astype(np.float16)),
    "fptosi_f64_i32": (_map("arith.fptosi", "f64", "i32"), _floats(np.float64, F64_TO_I32, 5e9), lambda x: _sat(x, np.int32)),
    "fptosi_f32_i64": (_map("arith.fptosi", "f32", "i64"), _floats(np.float32, F32_TO_I64, 2e19), lambda x: _sat(x, np.int64)),
    "sitofp_i64_f32": (_map("arith.sitofp", "i64", "f32"), _ints(np.int64, I64_EDGES), lambda x: x.astype(np.float32)),
    "sitofp_i32_f64": (_map("arith.sitofp", "i32", "f64"), _ints(np.int32, (2**31 - 1, -(2**31), 0, -1)),
                       lambda x: x.astype(np.float64)),
    "truncf_f64_f32": (_map("arith.truncf", "f64", "f32"), _floats(np.float64, F64_TO_F32, 1e39), lambda x: x.astype(np.float32)),
    "extf_f32_f64": (_map("arith.extf", "f32", "f64"), _floats(np.float32, F32_EDGES, 1e38), lambda x: x.astype(np.float64)),
    "trunci_i64_i32": (_map("arith.trunci", "i64", "i32"), _ints(np.int64, I64_EDGES), lambda x: x.astype(np.int32)),
    "extsi_i32_i64": (_map("arith.extsi", "i32", "i64"), _ints(np.int32, (2**31 - 1, -(2**31), -1)), lambda x: x.astype(np.int64)),
    "sum_count_min_f32": (_SUM_COUNT_MIN, _floats(np.float32, (-0.0, 0.0, np.inf, -np.inf), 1e6), _sum_count_min),
}  # fmt: skip
F16_CASES = ("f16_load_f32_compute_store", "extf_f16_f32", "truncf_f32_f16")
BF16_CASES = ("bf16_load_f32_compute_store", "extf_bf16_f32", "truncf_f32_bf16", "sum_bf16_as_f32")
"""bf16 vectorizes on every vector ISA (integer SIMD); truncf_f64_bf16 (64-bit lanes) and
select_bf16 (a select on bf16 declines) stay scalar."""


def _sat_int(x: np.ndarray, lo: int, hi: int, dst) -> np.ndarray:
    """fptosi / fptoui to a narrow type: truncate toward zero, saturate to [lo, hi], NaN -> 0."""
    out = [0 if np.isnan(v) else hi if v >= hi else lo if v <= lo else int(v) for v in x.astype(np.float64)]
    return np.array(out, np.int64).astype(dst)


def _unsigned(x: np.ndarray) -> np.ndarray:
    return x.view(f"u{x.itemsize}")


F32_TO_NARROW = (np.nan, np.inf, -np.inf, -0.0, 0.5, -0.5, -0.99, -1.0, 126.99, 127.0, 127.5, 128.0, -128.99, -129.0,
                 254.99, 255.0, 255.5, 256.0, 32767.5, 32768.0, 65535.99, 65536.0, -32768.99, -32769.0, 2.0**31, -(2.0**31),
                 3e38, -3e38, 1e-40)  # fmt: skip
"""f32 edges of the narrow ranges: truncation toward zero just inside, saturation just outside,
NaN, infinities, and values past i32 (the 32-bit conversion saturates first)."""
I32_WRAP = (127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536, -32768, -32769, 2**31 - 1, -(2**31), -1, 0)
"""i32 values whose low 8 / 16 bits wrap differently from a saturating pack."""
I16_WRAP = (127, 128, 255, 256, -128, -129, 32767, -32768, -1, 0)
I8_EDGES = (-128, -1, 0, 1, 127)


def _narrow_zip(x: np.ndarray, y: np.ndarray, a: np.float32):
    """u8 data next to f32: y * a * float(x) where x < 200 (unsigned), else y; x + 1 where y < 0, else x."""
    u = _unsigned(x)
    scaled = np.where(u < 200, y * a * u.astype(np.float32), y)
    bumped = np.where(y < 0, (x.astype(np.int64) + 1).astype(np.int8), x)
    return scaled.astype(np.float32), bumped


_NARROW_ZIP = """
func.func @k(%x: !df.array<i8, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> (!df.array<f32, [i]>, !df.array<i8, [i]>) {
  %lim = arith.constant 200 : i8
  %one = arith.constant 1 : i8
  %zf = arith.constant 0.0 : f32
  %r:2 = df.map %x, %y : !df.array<i8, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>, !df.array<i8, [i]> {
  ^bb0(%u: i8, %f: f32):
    %small = arith.cmpi ult, %u, %lim : i8
    %w = arith.uitofp %u : i8 to f32
    %fa = arith.mulf %f, %a : f32
    %m = arith.mulf %fa, %w : f32
    %s = arith.select %small, %m, %f : f32
    %neg = arith.cmpf olt, %f, %zf : f32
    %u1 = arith.addi %u, %one : i8
    %b = arith.select %neg, %u1, %u : i8
    df.yield %s, %b : f32, i8
  }
  func.return %r#0, %r#1 : !df.array<f32, [i]>, !df.array<i8, [i]>
}"""
"""A zip of u8 and f32 data: an i8 compare's mask selects f32 lanes (widened), an f32 compare's
mask selects i8 lanes (narrowed), an unsigned conversion, an i8 result stored from its part."""

_U8_SCALE = """
func.func @k(%x: !df.array<i8, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i8, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i8):
    %w = arith.uitofp %e : i8 to f32
    %m = arith.mulf %w, %a : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}"""

_I16_VIA_I32 = """
func.func @k(%x: !df.array<i8, [i]>, %y: !df.array<i32, [i]>) -> (!df.array<i16, [i]>, !df.array<i16, [i]>) {
  %r:2 = df.map %x, %y : !df.array<i8, [i]>, !df.array<i32, [i]> -> !df.array<i16, [i]>, !df.array<i16, [i]> {
  ^bb0(%e: i8, %v: i32):
    %w = arith.extui %e : i8 to i16
    %t = arith.trunci %v : i32 to i16
    %s = arith.addi %w, %t : i16
    %n = arith.extsi %e : i8 to i16
    df.yield %s, %n : i16, i16
  }
  func.return %r#0, %r#1 : !df.array<i16, [i]>, !df.array<i16, [i]>
}"""
"""Three widths: i8 and i16 parts next to i32 (i8 -> i16 goes through i32)."""

_MASKS_I16_F32 = """
func.func @k(%x: !df.array<i16, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [i]>, !df.array<i16, [i]>) {
  %c = arith.constant 100 : i16
  %zf = arith.constant 0.0 : f32
  %r:2 = df.map %x, %y : !df.array<i16, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>, !df.array<i16, [i]> {
  ^bb0(%e: i16, %f: f32):
    %big = arith.cmpi sgt, %e, %c : i16
    %nf = arith.negf %f : f32
    %s = arith.select %big, %f, %nf : f32
    %pos = arith.cmpf ogt, %f, %zf : f32
    %ne = arith.xori %e, %c : i16
    %b = arith.select %pos, %e, %ne : i16
    df.yield %s, %b : f32, i16
  }
  func.return %r#0, %r#1 : !df.array<f32, [i]>, !df.array<i16, [i]>
}"""
"""Masks between i16 parts and f32 lanes, both ways."""

_MASKS_I8_I16 = """
func.func @k(%x: !df.array<i8, [i]>, %y: !df.array<i16, [i]>) -> (!df.array<i16, [i]>, !df.array<i8, [i]>) {
  %z8 = arith.constant 0 : i8
  %one = arith.constant 1 : i16
  %lim = arith.constant 1000 : i16
  %r:2 = df.map %x, %y : !df.array<i8, [i]>, !df.array<i16, [i]> -> !df.array<i16, [i]>, !df.array<i8, [i]> {
  ^bb0(%e: i8, %v: i16):
    %neg = arith.cmpi slt, %e, %z8 : i8
    %v1 = arith.addi %v, %one : i16
    %s = arith.select %neg, %v, %v1 : i16
    %small = arith.cmpi ult, %v, %lim : i16
    %b = arith.select %small, %e, %z8 : i8
    df.yield %s, %b : i16, i8
  }
  func.return %r#0, %r#1 : !df.array<i16, [i]>, !df.array<i8, [i]>
}"""
"""Masks between i8 parts and i16 lanes (the widest type i16), both ways."""

NARROW_CASES = {
    "masks_i16_f32": (_MASKS_I16_F32, lambda n, rng: (*_ints(np.int16, I16_WRAP)(n, rng), *_floats(np.float32, (-0.0, 0.0, np.nan))(n, rng)),
                      lambda x, y: (np.where(x > 100, y, -y), np.where(y > 0, x, x ^ np.int16(100)))),
    "masks_i8_i16": (_MASKS_I8_I16, lambda n, rng: (*_ints(np.int8, I8_EDGES)(n, rng), *_ints(np.int16, I16_WRAP)(n, rng)),
                     lambda x, y: (np.where(x < 0, y, (y.astype(np.int64) + 1).astype(np.int16)), np.where(_unsigned(y) < 1000, x, np.int8(0)))),
    "uitofp_u8_f32_scale": (_U8_SCALE, lambda n, rng: (*_ints(np.int8, I8_EDGES)(n, rng), np.float32(1.25)),
                            lambda x, a: _unsigned(x).astype(np.float32) * a),
    "sitofp_i8_f32": (_map("arith.sitofp", "i8", "f32"), _ints(np.int8, I8_EDGES), lambda x: x.astype(np.float32)),
    "uitofp_i16_f32": (_map("arith.uitofp", "i16", "f32"), _ints(np.int16, I16_WRAP), lambda x: _unsigned(x).astype(np.float32)),
    "sitofp_i16_f32": (_map("arith.sitofp", "i16", "f32"), _ints(np.int16, I16_WRAP), lambda x: x.astype(np.float32)),
    "extsi_i8_i32": (_map("arith.extsi", "i8", "i32"), _ints(np.int8, I8_EDGES), lambda x: x.astype(np.int32)),
    "extui_i8_i32": (_map("arith.extui", "i8", "i32"), _ints(np.int8, I8_EDGES), lambda x: _unsigned(x).astype(np.int32)),
    "extui_i16_i32": (_map("arith.extui", "i16", "i32"), _ints(np.int16, I16_WRAP), lambda x: _unsigned(x).astype(np.int32)),
    "extsi_i8_i16": (_map("arith.extsi", "i8", "i16"), _ints(np.int8, I8_EDGES), lambda x: x.astype(np.int16)),
    "fptoui_f32_u8": (_map("arith.fptoui", "f32", "i8"), _floats(np.float32, F32_TO_NARROW, 300),
                      lambda x: _sat_int(x, 0, 255, np.uint8).view(np.int8)),
    "fptosi_f32_i8": (_map("arith.fptosi", "f32", "i8"), _floats(np.float32, F32_TO_NARROW, 300),
                      lambda x: _sat_int(x, -128, 127, np.int8)),
    "fptoui_f32_u16": (_map("arith.fptoui", "f32", "i16"), _floats(np.float32, F32_TO_NARROW, 7e4),
                       lambda x: _sat_int(x, 0, 65535, np.uint16).view(np.int16)),
    "fptosi_f32_i16": (_map("arith.fptosi", "f32", "i16"), _floats(np.float32, F32_TO_NARROW, 7e4),
                       lambda x: _sat_int(x, -32768, 32767, np.int16)),
    "trunci_i32_i16": (_map("arith.trunci", "i32", "i16"), _ints(np.int32, I32_WRAP), lambda x: x.astype(np.int16)),
    "trunci_i32_i8": (_map("arith.trunci", "i32", "i8"), _ints(np.int32, I32_WRAP), lambda x: x.astype(np.int8)),
    "trunci_i16_i8": (_map("arith.trunci", "i16", "i8"), _ints(np.int16, I16_WRAP), lambda x: x.astype(np.int8)),
    "zip_u8_f32": (_NARROW_ZIP, lambda n, rng: (*_ints(np.int8, I8_EDGES)(n, rng), *_floats(np.float32, (-0.0, 0.0, np.inf))(n, rng),
                                                 np.float32(0.75)), _narrow_zip),
    "i8_i16_next_to_i32": (_I16_VIA_I32, lambda n, rng: (*_ints(np.int8, I8_EDGES)(n, rng), *_ints(np.int32, I32_WRAP)(n, rng)),
                           lambda x, y: ((_unsigned(x).astype(np.int64) + y.astype(np.int16)).astype(np.int16), x.astype(np.int16))),
}  # fmt: skip
"""i8/i16 lanes next to wider ones (targets/c_narrow_part.py): W is the widest type's lane count,
the narrow vectors fill part of a register."""
NARROW_WIDEST = {"trunci_i16_i8": 16, "extsi_i8_i16": 16, "masks_i8_i16": 16}
"""The cases whose widest type is i16 (every other narrow case has 32-bit lanes)."""
CASES.update(NARROW_CASES)


def _narrow_elt(name: str) -> str:
    """The narrowest type of a narrow case (by its name: u8/i8, else u16/i16)."""
    return "i8" if "i8" in name or "u8" in name else "i16"


@functools.cache
def _compiled(name: str, isa: str, tail: str):
    options = {**PIPELINES, **BF16_CPU_PIPELINES}[tail]
    pipeline = None if options is None else f"loop-pipeline{{target={isa} {options}}}"
    return compile(CASES[name][0], target=isa, pipeline=pipeline)


def _data(name: str, n: int):
    rng = np.random.default_rng([n, len(name)])
    inputs = CASES[name][1](n, rng)
    if name == "sum_count_min_f32":  # integral values: the f64 sum is exact in any order
        inputs = (np.where(np.isfinite(inputs[0]), np.round(inputs[0]), inputs[0]).astype(np.float32),)
    with np.errstate(all="ignore"):
        ref = CASES[name][2](*inputs)
    return inputs, ref if isinstance(ref, tuple) else (ref,)


@pytest.mark.parametrize("tail", PIPELINES)
@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("name", CASES)
def test_mixed_width_conversions_match_numpy(name, isa, tail):
    compiled = _compiled(name, isa, tail)
    data = [_data(name, n) for n in SIZES]
    if compiled.library is None:
        runs = run_compiled_batch(compiled, "k", [inputs for inputs, _ in data])
    else:
        runs = [run_compiled(compiled, "k", inputs, offset=1) for inputs, _ in data]
    for n, (inputs, ref), got in zip(SIZES, data, runs, strict=True):
        problems = compare_results(got, ref, {})
        assert not problems, f"{name} on {isa} ({tail}), n={n}: " + "; ".join(problems)


@pytest.mark.isa("avx512")
@pytest.mark.parametrize("tail", BF16_CPU_PIPELINES)
@pytest.mark.parametrize("name", BF16_CASES)
def test_bf16_with_avx512_bf16_matches_ml_dtypes(name, tail):
    from loopopt.runtime.isa import _cpu_flags, host_isas

    if "avx512" not in host_isas() or "avx512_bf16" not in _cpu_flags():
        pytest.skip("this CPU has no AVX512_BF16")
    test_mixed_width_conversions_match_numpy(name, "avx512", tail)


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
@pytest.mark.parametrize("name", CASES)
def test_mixed_width_loops_are_vectorized(name, isa):
    """No scalar fallback: the C has the ISA's vectors (the pipeline falls back silently)."""
    from loopopt.compile import emit

    c = emit(CASES[name][0], isa, None).c_source
    if isa == "sse2" and name in F16_CASES or name in ("truncf_f64_bf16", "select_bf16"):
        assert "__m128" not in c and "x2_t" not in c  # no F16C / a quarter register: scalar (SIMD_FALLBACK_SCALAR)
        return
    narrow = name in F16_CASES or name in BF16_CASES
    neon = "x4_t" if narrow else f"int{_narrow_elt(name)[1:]}x{128 // int(_narrow_elt(name)[1:])}_t" if name in NARROW_CASES else "x2_t"
    marker = {"sse2": "__m128", "avx2": "__m256", "avx512": "__m512", "neon": neon}[isa]
    assert marker in c


def test_edge_values_distinguish_the_wrong_roundings():
    """The i64 -> f32 edges round differently through f64, and the saturation edges differ from
    x86's cvtt (INT_MIN for NaN and overflow): a wrong lowering fails the tests above."""
    x = np.array([2**60 + 2**36 + 1], np.int64)
    assert x.astype(np.float32)[0] != x.astype(np.float64).astype(np.float32)[0]
    assert list(_sat(np.array([np.nan, 1e300, -1e300]), np.int32)) == [0, 2**31 - 1, -(2**31)]


F16_HELPER_CHECK = r"""
#include <stdint.h>
#include <stdio.h>
%s
int main(int argc, char **argv)
{
    FILE *in32 = fopen(argv[1], "rb"), *in64 = fopen(argv[2], "rb"), *out = fopen(argv[3], "wb");
    for (uint32_t h = 0; h < 65536; h++) { float f = lo_f16_to_f32((uint16_t)h); fwrite(&f, 4, 1, out); }
    float f; double d;
    while (fread(&f, 4, 1, in32) == 1) { uint16_t h = lo_f32_to_f16(f); fwrite(&h, 2, 1, out); }
    while (fread(&d, 8, 1, in64) == 1) { uint16_t h = lo_f64_to_f16(d); fwrite(&h, 2, 1, out); }
    return fclose(out) != 0;
}
"""


def test_scalar_f16_helpers_round_like_numpy(tmp_path):
    """The portable f16 conversions every target's scalar code uses: f16 -> f32 on all 65536
    halves, f32 -> f16 on every 61st f32 of the half range plus random bits, f64 -> f16 on a
    dense grid and random values, all bit-equal to numpy's float16 (NaN: any NaN)."""
    import subprocess

    from loopopt.targets.c_part import F16_SCALAR_HELPERS

    rng = np.random.default_rng(12)
    f32 = np.concatenate([np.arange(0x33000000, 0x47800000, 61, dtype=np.uint32).view(np.float32),
                          rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
                          np.array(F32_TO_F16, np.float32)])  # fmt: skip
    f32 = np.concatenate([f32, -f32])
    with np.errstate(all="ignore"):  # signaling NaNs among the random bits
        f64 = np.concatenate([f32.astype(np.float64), np.arange(-70000, 70000, 0.25), rng.uniform(-1e-4, 1e-4, 200_000),
                              np.array([2.0**-25, 2.0**-25 * (1 + 2**-52), 65520.0, np.nextafter(65520.0, 0)])])  # fmt: skip
    f32.tofile(tmp_path / "in32")
    f64.tofile(tmp_path / "in64")
    (tmp_path / "check.c").write_text(F16_HELPER_CHECK % "".join(F16_SCALAR_HELPERS.values()))
    subprocess.run(["cc", "-O2", "-std=c11", "-o", tmp_path / "check", tmp_path / "check.c"], check=True)
    subprocess.run([tmp_path / "check", tmp_path / "in32", tmp_path / "in64", tmp_path / "out"], check=True)
    raw = (tmp_path / "out").read_bytes()
    widened = np.frombuffer(raw[: 4 * 65536], np.float32)
    narrowed = np.frombuffer(raw[4 * 65536 :], np.float16)
    with np.errstate(all="ignore"):
        halves = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
        checks = (("f16 -> f32", widened, halves.astype(np.float32)),
                  ("f32 -> f16", narrowed[: len(f32)], f32.astype(np.float16)),
                  ("f64 -> f16", narrowed[len(f32) :], f64.astype(np.float16)))  # fmt: skip
    for what, got, ref in checks:
        same = (got.view(f"u{got.itemsize}") == ref.view(f"u{ref.itemsize}")) | (np.isnan(got) & np.isnan(ref))
        assert same.all(), f"{what}: {np.count_nonzero(~same)} values differ, first at {np.flatnonzero(~same)[:5]}"


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
@pytest.mark.parametrize("name", NARROW_CASES)
def test_narrow_lanes_fill_part_of_a_register(name, isa):
    """The narrow mixes run at the widest type's lane count with their i8/i16 vectors in part of
    a register: `vector<W x i8>` in the simd IR, W = register bits / widest bits, no fallback."""
    from loopopt.compile import emit

    bits = {"sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}[isa]
    w = bits // NARROW_WIDEST.get(name, 32)
    out = emit(CASES[name][0], isa, None)
    ir = str(out.module)
    assert "SIMD_FALLBACK_SCALAR" not in ir
    narrow = _narrow_elt(name)
    assert f"vector<{w}x{narrow}>" in ir, f"{name} on {isa}: no vector<{w}x{narrow}>"


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
def test_every_narrow_part_has_its_whole_vector_rows(isa):
    """Each i8/i16 part key has the rows that see a part as a whole (memory, every compare, the
    selects, masked accesses, the conversions to and from the wide integer): a missing one
    would be a print-time error instead of a fallback."""
    from loopopt.targets.c import isa_table
    from loopopt.targets.c_narrow_part import parts

    table = isa_table(isa)
    preds = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
    for e, w, n in parts(isa):
        key = f"{e}x{n}"
        keys = (*(f"cmp.{p}" for p in preds), "select", "select_zero", "masked_load", "masked_store", "load",
                "load_aligned", "store", "store_aligned", "store_nt", f"convert.{w}", "add", "broadcast")  # fmt: skip
        missing = [k for k in keys if table.row(k, key) is None]
        if table.row(f"convert.{key}", w) is None:
            missing.append(f"convert.{key} from {w}")
        assert not missing, f"{isa} {key}: no rows for {missing}"
