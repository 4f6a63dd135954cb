"""bf16 conversions bit for bit as ml_dtypes, on every ISA, and the AVX512_BF16 gate.

The rows and helpers targets/c_part.py prints (the scalar helpers, each vector ISA's
`lo_f32_to_bf16xW` and widening row, and AVX512_BF16's `lo_f32_to_bf16x16_ne`) are compiled into
a small program that converts every f32 whose upper half is any of the 65536 patterns and whose
lower half is one of the rounding-relevant ones (0, 1, just under / at / just over the tie,
0xFFFF: ties, NaN payloads, infinities, subnormals, overflow to inf), plus random bits, and every
bf16 back to f32; the results must equal ml_dtypes' bits (its NaN: the quiet NaN of the sign).
NEON runs under qemu. (All 2^32 inputs were checked once: docs/design.md's value model.)
The kernels themselves are checked on data by test_mixed_widths.py.
"""

from __future__ import annotations

import subprocess

import ml_dtypes
import numpy as np
import pytest
from isa_support import check_refused_without_feature, isa_params, isa_unavailable
from test_mixed_widths import bf16_sum, storage_scale

from loopopt.compile import emit
from loopopt.runtime import isa as isa_mod
from loopopt.targets.c import isa_table
from loopopt.targets.c_helpers import LaneIO
from loopopt.targets.c_part import (
    BF16,
    BF16_AVX512_BF16_HELPER,
    BF16_SCALAR_HELPERS,
    BF16_VECTOR_HELPERS,
    CPU_FEATURE_FLAGS,
    STORAGE16,
    bf16_bits,
)

LOWER_HALVES = (0x0000, 0x0001, 0x4000, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF)
"""Lower 16 bits that decide the rounding: none, a sticky bit, below / at / above the tie."""

HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
%(pragmas)s
%(includes)s
%(helpers)s
int main(int argc, char **argv)
{
    (void)argc;
    static float x[%(n)d], w[65536], ws[65536];
    static uint16_t y[%(n)d], ys[%(n)d], h[65536];
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    if (fread(x, 4, %(n)d, in) != %(n)d) return 1;
    for (int i = 0; i < %(n)d; i++) ys[i] = lo_f32_to_bf16(x[i]);
    for (int i = 0; i < 65536; i++) { h[i] = (uint16_t)i; ws[i] = lo_bf16_to_f32(h[i]); }
%(vector)s
    fwrite(ys, 2, %(n)d, out); fwrite(y, 2, %(n)d, out); fwrite(ws, 4, 65536, out); fwrite(w, 4, 65536, out);
    return fclose(out) != 0;
}
"""

VARIANTS = ("scalar", "sse2", "avx2", "avx512", "avx512_bf16", "neon")


def _inputs() -> np.ndarray:
    upper = np.arange(65536, dtype=np.uint32) << 16
    grid = (upper[:, None] | np.array(LOWER_HALVES, np.uint32)[None, :]).reshape(-1)
    rng = np.random.default_rng(16)
    bits = np.concatenate([grid, rng.integers(0, 2**32, 2**16, dtype=np.uint64).astype(np.uint32)])
    return bits.view(np.float32)


def _harness(variant: str, n: int) -> str:
    isa = "avx512" if variant == "avx512_bf16" else variant
    helpers = "".join(BF16_SCALAR_HELPERS.values())
    vector, pragmas, includes = "", "", "#include <arm_neon.h>" if isa == "neon" else "#include <immintrin.h>"
    if isa == "scalar":
        vector = "    memcpy(y, ys, sizeof y); memcpy(w, ws, sizeof w);"
        includes = ""
    else:
        io, s, conv = LaneIO(isa_table(isa)), STORAGE16[isa], BF16[isa]
        helpers += BF16_VECTOR_HELPERS[isa]
        narrow = conv.from_f32.format(a=io.load("f32", "&x[i]"))
        if variant == "avx512_bf16":
            pragmas = f'#pragma GCC target("{CPU_FEATURE_FLAGS["avx512_bf16"][0]}")'
            helpers += BF16_AVX512_BF16_HELPER
            narrow = f"lo_f32_to_bf16x16_ne({io.load('f32', '&x[i]')})"
        step = io.n("f32")
        vector = (
            f"    for (int i = 0; i < {n}; i += {step}) {s.store.format(p='&y[i]', v=narrow)}\n"
            f"    for (int i = 0; i < 65536; i += {step}) {io.store('f32', '&w[i]', conv.to_f32.format(a=s.load.format(p='&h[i]')))}"
        )
    return HARNESS % {"pragmas": pragmas, "includes": includes, "helpers": helpers, "n": n, "vector": vector}


def _run(variant: str, tmp_path) -> tuple[np.ndarray, bytes]:
    isa = "avx512" if variant == "avx512_bf16" else variant
    why = isa_unavailable(isa)
    if why is None and variant == "avx512_bf16" and "avx512_bf16" not in isa_mod._cpu_flags():
        why = "this CPU has no AVX512_BF16"
    if why is not None:
        pytest.skip(why)
    x = _inputs()
    x.tofile(tmp_path / "in")
    (tmp_path / "check.c").write_text(_harness(variant, len(x)))
    if isa == "neon":
        cc, qemu = isa_mod.FOREIGN_TOOLS["neon"]
        subprocess.run([cc, "-O2", "-std=c11", "-static", "-Werror", "-o", tmp_path / "check", tmp_path / "check.c"], check=True)
        cmd = [qemu, tmp_path / "check"]
    else:
        flags = [f for f in isa_mod.compile_flags(isa) if f != "-fPIC"]
        subprocess.run(["cc", *flags, "-Werror", "-o", tmp_path / "check", tmp_path / "check.c"], check=True)
        cmd = [tmp_path / "check"]
    subprocess.run([*cmd, tmp_path / "in", tmp_path / "out"], check=True)
    return x, (tmp_path / "out").read_bytes()


@pytest.mark.parametrize("variant", [*isa_params(VARIANTS[:4]), pytest.param("avx512_bf16", marks=pytest.mark.isa("avx512")),
                                     *isa_params(VARIANTS[5:])])  # fmt: skip
def test_bf16_conversions_match_ml_dtypes(variant, tmp_path):
    x, raw = _run(variant, tmp_path)
    n = len(x)
    with np.errstate(all="ignore"):  # signaling NaNs among the inputs
        ref = x.astype(ml_dtypes.bfloat16).view(np.uint16)
    widened_ref = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(ml_dtypes.bfloat16).astype(np.float32)
    scalar, vector = np.frombuffer(raw, np.uint16, n), np.frombuffer(raw, np.uint16, n, 2 * n)
    ws, wv = np.frombuffer(raw, np.uint32, 65536, 4 * n), np.frombuffer(raw, np.uint32, 65536, 4 * n + 4 * 65536)
    for what, got, want in (("f32 -> bf16 (scalar helper)", scalar, ref), (f"f32 -> bf16 ({variant})", vector, ref),
                            ("bf16 -> f32 (scalar helper)", ws, widened_ref.view(np.uint32)),
                            (f"bf16 -> f32 ({variant})", wv, widened_ref.view(np.uint32))):  # fmt: skip
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"{what}: {bad.size} differ, first input bits {[hex(int(b)) for b in x.view(np.uint32)[bad[:3]]] if 'f32 ->' in what else bad[:3]}"


def test_ml_dtypes_rounding_is_what_the_helpers_say():
    """The facts the helpers rely on, so a change in ml_dtypes fails here first: NaN -> the quiet
    NaN of its sign (payload dropped), subnormals round (no flush), ties to even, overflow to
    inf, and f64 -> bf16 through f32 (double rounding); the Python twin `bf16_bits` agrees."""
    bits = np.array([0x7F800001, 0xFFC12345, 0x807FFFFF, 0x00018000, 0x3F808000, 0x3F818000, 0x7F7F8000, 0x7F7F7FFF],
                    np.uint32)  # fmt: skip
    with np.errstate(all="ignore"):
        got = [int(b) for b in bits.view(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)]
    assert got == [0x7FC0, 0xFFC0, 0x8080, 0x0002, 0x3F80, 0x3F82, 0x7F80, 0x7F7F]
    assert [bf16_bits(float(f)) for f in bits.view(np.float32)] == got
    x = np.array([1 + 2.0**-8 + 2.0**-30])  # rounds up once, but to the tie (then to even) via f32
    assert int(x.astype(ml_dtypes.bfloat16).view(np.uint16)[0]) == 0x3F80


SCALE = storage_scale("bf16")


@pytest.mark.parametrize("cpu", ["generic", "zen4", "skylake-x", "icelake-server", "sapphirerapids"])
def test_avx512_bf16_only_where_the_cpu_has_it(cpu):
    c = emit(SCALE, "avx512", f"loop-pipeline{{target=avx512 cpu={cpu}}}").c_source
    has = cpu in ("zen4", "sapphirerapids")
    assert ("_mm512_cvtneps_pbh" in c) == has and ('#pragma GCC target("avx512bf16")' in c) == has
    assert "lo_f32_to_bf16x16(" in c  # the portable rounding: the whole row, or the fixed-up lanes


def test_avx2_on_zen4_keeps_the_portable_rounding():
    c = emit(SCALE, "avx2", "loop-pipeline{target=avx2 cpu=zen4}").c_source
    assert "cvtneps" not in c and "#pragma" not in c and "lo_f32_to_bf16x8(" in c


def test_detected_cpu_has_only_the_features_cpuinfo_lists(tmp_path):
    from loopopt.lowering.target import detect_cpu

    def zen4(flags: str) -> str:
        return f"processor : 0\nvendor_id : AuthenticAMD\ncpu family : 25\nmodel : 17\nflags : {flags}\n"

    (tmp_path / "with").write_text(zen4("fpu avx512f avx512_bf16"))
    (tmp_path / "without").write_text(zen4("fpu avx512f"))
    assert detect_cpu(tmp_path / "with", tmp_path / "none").features == ("avx512_bf16",)
    assert detect_cpu(tmp_path / "without", tmp_path / "none").features == ()


def test_a_cpu_without_avx512_bf16_refuses_the_library(monkeypatch):
    check_refused_without_feature(monkeypatch, emit(SCALE, "avx512", "loop-pipeline{target=avx512 cpu=zen4}"), "avx512_bf16")


def test_without_ml_dtypes_bf16_says_what_to_install(monkeypatch):
    import sys

    from loopopt.interp.dtypes import bfloat16_dtype
    from loopopt.runtime.signature import DTYPES

    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # import fails
    with pytest.raises(ImportError, match="pip install ml_dtypes"):
        bfloat16_dtype()
    with pytest.raises(ImportError, match="numpy has no bfloat16"):
        DTYPES["bf16"].numpy  # noqa: B018


def test_bf16_results_and_arrays_cross_the_python_boundary():
    """A bf16 array in and out (acquired as its uint16 view), a bf16 scalar result boxed as
    ml_dtypes.bfloat16, and a wrong dtype a TypeError naming the parameter."""
    from loopopt.compile import compile

    src = SCALE + bf16_sum("first", result="bf16")
    if isa_unavailable("avx2") is not None:
        pytest.skip("needs avx2")
    k = compile(src, target="avx2")
    x = np.array([1.5, -2.0, 3.25, np.nan], ml_dtypes.bfloat16)[:3]
    y = k.call_alloc("k", x, np.float32(2.0))
    y = y[0] if isinstance(y, tuple | list) else y
    assert y.dtype == ml_dtypes.bfloat16 and list(y.astype(np.float32)) == [3.0, -4.0, 6.5]
    m = k.first(x)
    assert type(m) is ml_dtypes.bfloat16 and float(m) == 2.75
    with pytest.raises(TypeError, match="parameter 'x' expects a rank-1 numpy array of dtype ml_dtypes.bfloat16, found float16"):
        k.first(np.zeros(3, np.float16))


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_avx512_bf16_c_compiles_with_gcc_and_clang(compiler, tmp_path):
    """clang has no `#pragma GCC target`: the C enables AVX512_BF16 for it with an attribute push."""
    import shutil

    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler}")
    (tmp_path / "k.c").write_text(emit(SCALE, "avx512", "loop-pipeline{target=avx512 cpu=zen4}").c_source)
    flags = [f for f in isa_mod.compile_flags("avx512") if f != "-fPIC"]
    subprocess.run([compiler, *flags, "-Werror", "-c", "-o", tmp_path / "k.o", tmp_path / "k.c"], check=True)


def _storage_filter(t: str) -> str:
    """Keep the positive values (f16/bf16 data, compared in f32), and their f32 values."""
    return f"""
func.func @k(%x: !df.array<{t}, [i]>) -> (!df.array<{t}, [k]>, f32) {{
  %r = df.filter %x : !df.array<{t}, [i]> -> !df.array<{t}, [k]> {{
  ^bb0(%b: {t}):
    %w = arith.extf %b : {t} to f32
    %c = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %w, %c : f32
    df.yield %p : i1
  }}
  %m = df.map %r : !df.array<{t}, [k]> -> !df.array<f32, [k]> {{
  ^bb0(%b: {t}):
    %w = arith.extf %b : {t} to f32
    df.yield %w : f32
  }}
  %z = arith.constant 0.0 : f32
  %s = df.reduce max(%m, %z) over [k] : !df.array<f32, [k]> -> f32
  func.return %r, %s : !df.array<{t}, [k]>, f32
}}
"""


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("t", ["bf16", "f16"])
def test_filters_of_16_bit_floats_on_every_isa(t, isa):
    """Filters of f16/bf16 data (a predloop loading 16-bit floats) compile and run everywhere;
    on the scalar target they printed vector<1xbf16>, which has no C row (fuzzer find, session 21)."""
    from loopopt.compile import compile
    from loopopt.tools.loop_run import compare_results, run_compiled_batch

    if t == "f16" and isa == "sse2":
        pytest.skip("f16 needs F16C (a located error on sse2)")
    dtype = ml_dtypes.bfloat16 if t == "bf16" else np.float16
    compiled = compile(_storage_filter(t), target=isa)
    sizes = (0, 1, 7, 8, 9, 16, 17, 33, 1000)
    xs = [np.random.default_rng(n).normal(0, 4, n).astype(dtype) for n in sizes]
    for x in xs[1:]:
        x[0] = np.nan
    runs = run_compiled_batch(compiled, "k", [(x,) for x in xs])
    for n, x, got in zip(sizes, xs, runs, strict=True):
        kept = x[x.astype(np.float32) > 0]
        ref = (kept, np.float32(max(kept.astype(np.float32).max(initial=0.0), 0.0)))
        problems = compare_results(got, ref, {})
        assert not problems, f"{t} on {isa}, n={n}: " + "; ".join(problems)
