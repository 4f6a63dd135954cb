"""The non-loopopt C baselines of `loop-bench`: plain scalar C loops for gcc, and STREAM.

* **gcc**: each pattern as the obvious scalar loop (`BenchPattern.c_body`), compiled with the
  runtime's flags plus `-march=native -ffp-contract=fast` (what plain `gcc -O3 -march=native`
  does: GNU C contracts `a*x+b` into an FMA; the runtime's `-std=c11` alone would not), and
  a second build adding `-ffast-math`, without which gcc's auto-vectorizer leaves float
  reductions scalar (it may not reassociate the sum).
* **STREAM**: copy `out = x`, triad `out = x + s*y` and read `Σx` over f32, written with explicit
  vector intrinsics for the widest ISA `-march=native` enables, with plain stores and with
  non-temporal (streaming) stores that skip the read-for-ownership. They are the memory
  bandwidth limit of a pattern with the same read/write mix (`BenchPattern.stream`).
"""

from __future__ import annotations

from loopopt.runtime import ArrayParam, KernelSignature, ScalarParam

from .patterns import C_TYPES, BenchPattern

GCC_FLAGS: tuple[str, ...] = ("-ffp-contract=fast",)
GCC_FAST_MATH_FLAGS: tuple[str, ...] = ("-ffp-contract=fast", "-ffast-math")


def gcc_name(pattern: BenchPattern, dtype: str) -> str:
    return f"gcc_{pattern.name}_{dtype}"


def gcc_signature(pattern: BenchPattern, dtype: str) -> KernelSignature:
    """The pattern's C calling convention (the kernel library's, for its patterns) under the plain C function's name."""
    return pattern.c_signature(gcc_name(pattern, dtype), dtype)


def gcc_source(pattern: BenchPattern, dtype: str) -> str:
    """The plain C function: the pattern's loop, in the calling convention."""
    t = C_TYPES[dtype]
    params, ret, unused = pattern.c_params()
    params = params.replace("T ", f"{t} ")
    ret = t if ret == "T" else ret
    body = pattern.c_body.replace("T s", f"{t} s").replace("T mx", f"{t} mx").replace("T aij", f"{t} aij")
    return f"{ret} {gcc_name(pattern, dtype)}({params})\n{{\n    {unused}\n    {body}\n}}\n"


def gcc_program(cells: list[tuple[BenchPattern, str]]) -> tuple[str, list[KernelSignature]]:
    source = "#include <stdint.h>\n#include <math.h>\n\n" + "\n".join(gcc_source(p, d) for p, d in cells)
    return source, [gcc_signature(p, d) for p, d in cells]


STREAM_SOURCE = r"""
#include <stdint.h>
#include <immintrin.h>

#if defined(__AVX512F__)
#define VW 16
typedef __m512 vf;
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_storeu_ps
#define VSTREAM _mm512_stream_ps
#define VADD _mm512_add_ps
#define VMUL _mm512_mul_ps
#define VSET1 _mm512_set1_ps
#define VZERO _mm512_setzero_ps
static inline float vhsum(vf v) { return _mm512_reduce_add_ps(v); }
#elif defined(__AVX__)
#define VW 8
typedef __m256 vf;
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_storeu_ps
#define VSTREAM _mm256_stream_ps
#define VADD _mm256_add_ps
#define VMUL _mm256_mul_ps
#define VSET1 _mm256_set1_ps
#define VZERO _mm256_setzero_ps
static inline float vhsum(vf v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
}
#else
#define VW 4
typedef __m128 vf;
#define VLOAD _mm_loadu_ps
#define VSTORE _mm_storeu_ps
#define VSTREAM _mm_stream_ps
#define VADD _mm_add_ps
#define VMUL _mm_mul_ps
#define VSET1 _mm_set1_ps
#define VZERO _mm_setzero_ps
static inline float vhsum(vf s) {
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
}
#endif

/* The prologue of the streaming variants stores scalars until out is vector aligned. */
#define ALIGN_HEAD(expr) \
    for (; i < n && ((uintptr_t)(out + i) % (VW * sizeof(float))) != 0; i++) out[i] = (expr);

#define STREAM_LOOP(STORE, vexpr, expr)                                          \
    for (; i + 4 * VW <= n; i += 4 * VW) {                                       \
        for (int u = 0; u < 4; u++) { int64_t j = i + u * VW; STORE(out + j, vexpr); } \
    }                                                                            \
    for (; i < n; i++) out[i] = (expr);

void stream_copy(const float *restrict x, int64_t n, float *restrict out, int64_t out_len)
{
    (void)out_len; int64_t i = 0;
    STREAM_LOOP(VSTORE, VLOAD(x + j), x[i])
}

void stream_copy_nt(const float *restrict x, int64_t n, float *restrict out, int64_t out_len)
{
    (void)out_len; int64_t i = 0;
    ALIGN_HEAD(x[i])
    STREAM_LOOP(VSTREAM, VLOAD(x + j), x[i])
    _mm_sfence();
}

void stream_triad(const float *restrict x, int64_t n, const float *restrict y, int64_t y_len, float s, float *restrict out, int64_t out_len)
{
    (void)y_len; (void)out_len; int64_t i = 0; vf vs = VSET1(s);
    STREAM_LOOP(VSTORE, VADD(VLOAD(x + j), VMUL(vs, VLOAD(y + j))), x[i] + s * y[i])
}

void stream_triad_nt(const float *restrict x, int64_t n, const float *restrict y, int64_t y_len, float s, float *restrict out, int64_t out_len)
{
    (void)y_len; (void)out_len; int64_t i = 0; vf vs = VSET1(s);
    ALIGN_HEAD(x[i] + s * y[i])
    STREAM_LOOP(VSTREAM, VADD(VLOAD(x + j), VMUL(vs, VLOAD(y + j))), x[i] + s * y[i])
    _mm_sfence();
}

float stream_read(const float *restrict x, int64_t n)
{
    vf a0 = VZERO(), a1 = VZERO(), a2 = VZERO(), a3 = VZERO();
    int64_t i = 0;
    for (; i + 4 * VW <= n; i += 4 * VW) {
        a0 = VADD(a0, VLOAD(x + i));
        a1 = VADD(a1, VLOAD(x + i + VW));
        a2 = VADD(a2, VLOAD(x + i + 2 * VW));
        a3 = VADD(a3, VLOAD(x + i + 3 * VW));
    }
    float s = vhsum(VADD(VADD(a0, a1), VADD(a2, a3)));
    for (; i < n; i++) s += x[i];
    return s;
}
"""


def _stream_signatures() -> list[KernelSignature]:
    x, y = ArrayParam("x", "f32", axes=("n",)), ArrayParam("y", "f32", axes=("n",))
    out = ArrayParam("out", "f32", output=True, axes=("n",))
    s = ScalarParam("s", "f32")
    return [
        KernelSignature("stream_copy", (x, out)),
        KernelSignature("stream_copy_nt", (x, out)),
        KernelSignature("stream_triad", (x, y, s, out)),
        KernelSignature("stream_triad_nt", (x, y, s, out)),
        KernelSignature("stream_read", (x,), ("f32",)),
    ]


STREAM_SIGNATURES = _stream_signatures()

STREAM_KERNELS: dict[str, tuple[str, str]] = {
    "copy": ("stream_copy", "stream_copy_nt"),
    "triad": ("stream_triad", "stream_triad_nt"),
    "read": ("stream_read", "stream_read"),
}
"""STREAM kind -> (plain-store kernel, non-temporal-store kernel); read stores nothing."""

STREAM_BYTES_PER_ELEMENT = {"copy": 8, "triad": 12, "read": 4}
