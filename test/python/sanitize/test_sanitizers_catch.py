"""The sanitized runner really sanitizes: deliberate bugs end in a report (so the corpus test
cannot pass vacuously), and the runner's allocations are exact (one past the end is caught
at every size, at offset 0 and 1, for inputs and outputs)."""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.runtime.foreign import ForeignKernel, ForeignRunError
from loopopt.runtime.isa import host_isas
from loopopt.runtime.sanitize import (
    SanitizedKernel,
    SanitizerError,
    emit_program,
    report_head,
    sanitized_kernels,
    sanitizer_toolchain,
)
from loopopt.runtime.signature import ArrayParam, KernelSignature, ScalarParam

COPY_SIG = KernelSignature("lo_copy", (ArrayParam("x", "f32", axes=("i",)), ArrayParam("out", "f32", output=True, axes=("i",))))
# `last` selects the bug: 0 copies exactly, 1 also writes out[n], 2 also reads x[n].
COPY = r"""
#include <stdint.h>
static int64_t last = %d;
void lo_copy(const float *restrict x, int64_t x_len, float *restrict out, int64_t out_len) {
    (void)out_len;
    for (int64_t i = 0; i < x_len; i++) out[i] = x[i] + 1.0f;
    if (last == 1) out[x_len] = 0.0f;
    if (last == 2) out[0 < x_len ? 0 : x_len] += x[x_len];
}
"""

SUM_SIG = KernelSignature("lo_sum", (ArrayParam("x", "i32", axes=("i",)),), ("i32",))
SUM = r"""
#include <stdint.h>
int32_t lo_sum(const int32_t *restrict x, int64_t x_len) {
    int32_t s = 0;
    for (int64_t i = 0; i < x_len; i++) s += x[i];   /* signed overflow: undefined */
    return s;
}
"""

TRUNC_SIG = KernelSignature("lo_trunc", (ScalarParam("v", "f64"),), ("i32",))
TRUNC = "#include <stdint.h>\nint32_t lo_trunc(double v) { return (int32_t)v; }\n"

LEAK_SIG = KernelSignature("lo_leak", (ScalarParam("n", "i64"),), ("i64",))
LEAK = "#include <stdint.h>\n#include <stdlib.h>\nint64_t lo_leak(int64_t n) { char *p = malloc(16); p[0] = (char)n; return p[0]; }\n"

AVX2_LOAD_SIG = KernelSignature("lo_first8", (ArrayParam("x", "f32", axes=("i",)),), ("f32",))
# Sums 8 lanes loaded from x without checking the length: out of bounds below n = 8.
AVX2_LOAD = r"""
#include <stdint.h>
#include <immintrin.h>
float lo_first8(const float *restrict x, int64_t x_len) {
    (void)x_len;
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_loadu_ps(x));
    float s = 0.0f;
    for (int k = 0; k < 8; k++) s += lanes[k];
    return s;
}
"""

# Hand-written Loop IR, through the real C printer: the loop runs to n + 1 (one past the end).
LOOP_IR_OFF_BY_ONE = """
func.func @inc(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]},
               %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64})
    attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %end = arith.addi %n, %c%d : index
  loop.for %i in [%c0, %end) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    %w = arith.addf %v, %one : f32
    loop.store %w, %out[%i] : !loop.buf<f32>
  }
  func.return
}
"""

F32 = np.float32


def runnable(isa):
    return pytest.mark.skipif(isa not in host_isas(), reason=f"this CPU does not run {isa} (it runs {', '.join(host_isas())})")


def test_exact_kernel_is_clean_at_every_size_and_offset():
    k = SanitizedKernel(COPY % 0, COPY_SIG, "scalar")
    sizes = [0, 1, 7, 8, 9, 33]
    cases = [(np.arange(n, dtype=F32),) for n in sizes for _ in (0, 1)]
    got = k.batch(cases, offsets=[o for _ in sizes for o in (0, 1)])
    for (x,), (outputs, results) in zip(cases, got, strict=True):
        np.testing.assert_array_equal(outputs[0], x + 1)
        assert results == ()


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_one_past_the_end_output_write_is_reported(n, offset):
    k = SanitizedKernel(COPY % 1, COPY_SIG, "scalar")
    with pytest.raises(SanitizerError, match="heap-buffer-overflow") as e:
        k.batch([(np.zeros(n, F32),)], offsets=[offset])
    assert e.value.sanitizer == "AddressSanitizer"
    assert "WRITE of size 4" in e.value.stderr and "lo_copy" in e.value.stderr


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("n", [0, 1, 9])
def test_one_past_the_end_input_read_is_reported(n, offset):
    k = SanitizedKernel(COPY % 2, COPY_SIG, "scalar")
    with pytest.raises(SanitizerError, match="heap-buffer-overflow") as e:
        k.batch([(np.zeros(n, F32),)], offsets=[offset])
    assert "READ of size 4" in e.value.stderr


def test_a_report_in_a_later_case_fails_the_whole_batch():
    k = SanitizedKernel(SUM, SUM_SIG, "scalar")
    ok = np.array([1, 2, 3], np.int32)
    assert k.batch([(ok,)]) == [([], (np.int32(6),))]
    with pytest.raises(SanitizerError, match="signed integer overflow") as e:
        k.batch([(ok,), (np.array([2**31 - 1, 1], np.int32),)])
    assert e.value.sanitizer == "UndefinedBehaviorSanitizer"
    assert "runtime error" in report_head(e.value.stderr)


def test_float_to_int_overflow_is_reported():
    k = SanitizedKernel(TRUNC, TRUNC_SIG, "scalar")
    assert k(-7.9) == ([], (np.int32(-7),))
    with pytest.raises(SanitizerError, match="outside the range of representable values"):
        k(3e9)


def test_leak_is_reported():
    k = SanitizedKernel(LEAK, LEAK_SIG, "scalar")
    with pytest.raises(SanitizerError, match="detected memory leaks") as e:
        k(5)
    assert e.value.sanitizer == "LeakSanitizer"


@runnable("avx2")
def test_vector_load_past_the_end_is_reported():
    k = SanitizedKernel(AVX2_LOAD, AVX2_LOAD_SIG, "avx2")
    assert k(np.ones(8, F32)) == ([], (F32(8),))
    for n, offset in ((7, 0), (7, 1), (0, 0), (0, 1)):
        with pytest.raises(SanitizerError, match="AddressSanitizer") as e:
            k.batch([(np.ones(n, F32),)], offsets=[offset])
        assert "READ of size 32" in e.value.stderr


def test_printed_loop_ir_off_by_one_is_reported():
    """The C printer's output for a hand-written Loop IR kernel that runs one step too far."""
    x = np.arange(5, dtype=F32)
    good = emit_program(LOOP_IR_OFF_BY_ONE.replace("%c%d", "%c0"), "scalar", pipeline="")
    (outputs, _), = sanitized_kernels(good.c_source, good.signatures.values(), "scalar")["inc"].batch([(x,)])
    np.testing.assert_array_equal(outputs[0], x + 1)
    bad = emit_program(LOOP_IR_OFF_BY_ONE.replace("%c%d", "%c1"), "scalar", pipeline="")
    with pytest.raises(SanitizerError, match="heap-buffer-overflow"):
        sanitized_kernels(bad.c_source, bad.signatures.values(), "scalar")["inc"].batch([(x,)])


def test_the_build_flags_and_options():
    tc = sanitizer_toolchain("avx2")
    for flag in ("-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g", "-mavx2"):
        assert flag in tc.flags
    assert "-static" not in tc.flags and "-fwrapv" not in tc.flags and tc.prefix == ()
    env = dict(tc.env)
    assert "halt_on_error=1" in env["ASAN_OPTIONS"] and "detect_leaks=1" in env["ASAN_OPTIONS"]
    assert "print_stacktrace=1" in env["UBSAN_OPTIONS"]
    with pytest.raises(ValueError, match="qemu"):
        sanitizer_toolchain("neon")


def test_isa_this_cpu_lacks_builds_but_does_not_run():
    missing = next((isa for isa in ("avx512", "avx2") if isa not in host_isas()), None)
    if missing is None:
        pytest.skip("this CPU runs every x86 ISA")
    k = SanitizedKernel(COPY % 0, COPY_SIG, missing)
    assert k.path.is_file()
    with pytest.raises(RuntimeError, match=f"does not run {missing}"):
        k(np.zeros(3, F32))


def test_a_crash_that_is_not_a_report_is_a_plain_run_error():
    sig = KernelSignature("lo_exit", (ScalarParam("n", "i64"),), ("i64",))
    k = SanitizedKernel("#include <stdint.h>\n#include <stdlib.h>\nint64_t lo_exit(int64_t n) { if (n) exit(7); return n; }\n",
                        sig, "scalar")
    assert k(0) == ([], (np.int64(0),))
    with pytest.raises(ForeignRunError, match="exited with status 7") as e:
        k(1)
    assert not isinstance(e.value, SanitizerError)


def test_offsets_misalign_every_array():
    """offset 1 starts every array one element into its allocation (malloc aligns to 16)."""
    sig = KernelSignature("lo_addr", (ArrayParam("x", "f64", axes=("i",)), ArrayParam("out", "i64", output=True, axes=("i",))), ("i64",))
    source = r"""
#include <stdint.h>
int64_t lo_addr(const double *restrict x, int64_t x_len, int64_t *restrict out, int64_t out_len) {
    (void)x_len;
    if (out_len > 0) out[0] = (int64_t)((uintptr_t)out % 16);
    return (int64_t)((uintptr_t)x % 16);
}
"""
    k = SanitizedKernel(source, sig, "scalar")
    got = k.batch([(np.zeros(2),)] * 2, offsets=[0, 1])
    assert [int(r[0]) for _, r in got] == [0, 8] and [int(o[0][0]) for o, _ in got] == [0, 8]
    with pytest.raises(ValueError, match="offset -1"):
        k.batch([(np.zeros(2),)], offsets=[-1])


def test_kernels_of_one_program_share_one_runner():
    source = COPY % 0 + SUM
    kernels = sanitized_kernels(source, [COPY_SIG, SUM_SIG], "scalar")
    assert kernels["lo_copy"].path == kernels["lo_sum"].path
    assert kernels["lo_sum"](np.array([4, 5], np.int32)) == ([], (np.int32(9),))
    (out,), _ = kernels["lo_copy"](np.array([1.5], F32))
    np.testing.assert_array_equal(out, [2.5])
    with pytest.raises(ValueError, match="not among"):
        ForeignKernel(source, SUM_SIG, toolchain=sanitizer_toolchain("scalar"), signatures=[COPY_SIG])


# Masked AVX2 tails for every element type: `maskload`/`maskstore` of the n % W last elements.
# ASan does not instrument those builtins; the sanitized build checks them (checked_intrinsics).
MASKED_TAIL = r"""
#include <stdint.h>
#include <immintrin.h>
void lo_tail_{sfx}(const {elem} *restrict x, int64_t x_len, {elem} *restrict out, int64_t out_len) {{
    (void)out_len;
    int64_t i = 0;
    for (; i + {w} <= x_len; i += {w}) _mm256_storeu_{st}(({cast} *)&out[i], _mm256_loadu_{st}(({ccast} *)&x[i]));
    int64_t rest = x_len - i + {extra};
    __m256i lane = _mm256_set_epi{bits}{set1}({lanes});
    __m256i m = _mm256_cmpgt_epi{bits}(_mm256_set1_epi{bits}{set1}(rest), lane);
    {vec} v = _mm256_maskload_{sfx}(({lcast} *)&x[i], m);
    _mm256_maskstore_{sfx}(({scast} *)&out[i], m, v);
}}
"""
MASKED_TYPES = {
    # sfx: (numpy dtype, C element, W, load/store suffix, bits, vector type, pointer casts)
    "ps": ("f32", "float", 8, "ps", 32, "__m256", "float", "float", "float", "const float"),
    "pd": ("f64", "double", 4, "pd", 64, "__m256d", "double", "double", "double", "const double"),
    "epi32": ("i32", "int32_t", 8, "si256", 32, "__m256i", "__m256i", "__m256i", "int", "const __m256i"),
    "epi64": ("i64", "int64_t", 4, "si256", 64, "__m256i", "__m256i", "__m256i", "long long", "const __m256i"),
}


def masked_tail(sfx: str, extra: int) -> tuple[str, KernelSignature]:
    dtype, elem, w, st, bits, vec, cast, _, scast, ccast = MASKED_TYPES[sfx]
    source = MASKED_TAIL.format(
        sfx=sfx, elem=elem, w=w, st=st, bits=bits, vec=vec, cast=cast, ccast=ccast, scast=scast,
        lcast="const " + scast, lanes=", ".join(str(k) for k in reversed(range(w))),
        set1="x" if bits == 64 else "", extra=extra,
    )
    sig = KernelSignature(f"lo_tail_{sfx}", (ArrayParam("x", dtype, axes=("i",)), ArrayParam("out", dtype, output=True, axes=("i",))))
    return source, sig


@runnable("avx2")
@pytest.mark.parametrize("sfx", list(MASKED_TYPES))
def test_masked_tails_equal_the_native_build_and_past_the_end_is_reported(sfx):
    from loopopt.runtime import compile_library

    source, sig = masked_tail(sfx, 0)
    native = compile_library(source, [sig], isa="avx2")
    k = SanitizedKernel(source, sig, "avx2")
    rng = np.random.default_rng(3)
    dtype = sig.params[0].dt.numpy
    xs = [(rng.integers(-1000, 1000, n).astype(dtype),) for n in (0, 1, 3, 4, 7, 8, 9, 17)]
    got = k.batch(xs + xs, offsets=[0] * len(xs) + [1] * len(xs))
    for (x,), (outputs, _) in zip(xs + xs, got, strict=True):
        (expected,) = native.call_alloc(sig.name, x)
        np.testing.assert_array_equal(outputs[0], expected)
        np.testing.assert_array_equal(outputs[0], x)
    bad_source, bad_sig = masked_tail(sfx, 1)  # one active lane too many
    bad = SanitizedKernel(bad_source, bad_sig, "avx2")
    with pytest.raises(SanitizerError, match="heap-buffer-overflow") as e:
        bad.batch([(np.zeros(3, dtype),)])
    assert "READ of size" in e.value.stderr and f"loopopt_san_mm256_maskload_{sfx}" in e.value.stderr


def test_checked_intrinsics_compile_for_every_isa():
    """The checked masked/compress/streaming intrinsics of avx512 (which this CPU may not run)
    compile and link; a kernel calling each of them builds."""
    zero = {"ps": "_mm512_setzero_ps()", "pd": "_mm512_setzero_pd()", "epi32": "_mm512_setzero_si512()",
            "epi64": "_mm512_setzero_si512()"}
    uses = "\n".join(
        f"    _mm512_mask_storeu_{s}(p, 1, _mm512_mask_loadu_{s}({z}, 1, p)); _mm512_mask_compressstoreu_{s}(p, 1, {z});"
        for s, z in zero.items()
    )
    source = (
        "#include <stdint.h>\n#include <immintrin.h>\n"
        "int64_t lo_all(int64_t n) {\n    double buf[16]; void *p = buf; (void)p;\n"
        f"{uses}\n    _mm512_stream_pd(buf, _mm512_setzero_pd());\n    return n;\n}}\n"
    )
    sig = KernelSignature("lo_all", (ScalarParam("n", "i64"),), ("i64",))
    assert SanitizedKernel(source, sig, "avx512").path.is_file()
    assert "loopopt_san_mm512_mask_compressstoreu_ps" in sanitizer_toolchain("avx512").prelude
    assert sanitizer_toolchain("scalar").prelude == ""
