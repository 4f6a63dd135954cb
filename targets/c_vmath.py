"""Vector math: exp, exp2, expm1, log, log2, log1p, sin, cos, tanh, erf, pow, rsqrt on every SIMD ISA.

One readable C implementation per function, written once with GCC/clang vector extensions on
`double` lanes (`lo_vd<N>`) and instantiated at each ISA's native f64 width (SSE2/NEON 2,
AVX2 4, AVX-512 8). Every f32 function but rsqrt has a native f32 core (`NATIVE_F32`, `_CORE_F32`: twice
the lanes per instruction; within 0.84 ulp over every input, pow within 0.75 ulp over a random scan).
Each function has a fast path for the usual range (range reduction + Cephes minimax/Pade
polynomials, cited per function) and hands the other lanes (NaN, infinities, zero or negative
log arguments, subnormals where the fast path needs normal numbers, huge sin/cos arguments,
results that overflow or underflow) to the C library one lane at a time, as glibc's libmvec
does: the IEEE special cases are libm's by construction. The ulp bounds and the measurement
that chose this over SLEEF are in docs/vector_math.md.

MLIR's `fastmath<afn>` on an f32 exp or exp2 selects a faster core within 2 ulp instead (`AFN_F32`: FMA,
a short polynomial, the same libm lanes; c_ops.approximate_key picks the row).

The C text is emitted only when a row uses it: rows call `lo_vm_<fn>_<elt>x<lanes>` helpers,
which `c_helpers.required_helpers` pulls in with their dependencies. The rows are merged into
every ISA table through `c_isa.IsaTable.row`'s hook (`rows` below); the scalar target keeps its
libm rows (targets/isa_scalar.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from loopopt.targets.c_helpers import Helper

UNARY_FUNCTIONS: tuple[str, ...] = (
    "exp", "exp2", "expm1", "log", "log2", "log1p", "sin", "cos", "tanh", "erf", "rsqrt",
)  # fmt: skip
"""Operation keys (targets/c_ops.py) with a vector row on every SIMD ISA, f32 and f64."""

BINARY_FUNCTIONS: tuple[str, ...] = ("pow",)

ULP_BOUNDS: dict[str, tuple[float, float]] = {
    # function: (f32, f64) maximum error in ulps, every input (test/python/vmath checks them)
    "exp": (1.0, 1.0),
    "exp2": (1.0, 2.0),
    "expm1": (1.0, 2.0),
    "log": (1.0, 1.0),
    "log2": (1.0, 2.0),
    "log1p": (1.0, 1.0),
    "sin": (1.0, 1.0),
    "cos": (1.0, 1.0),
    "tanh": (1.0, 2.0),
    "erf": (1.0, 2.0),
    "pow": (1.0, 1.0),
    "rsqrt": (1.5, 1.5),
}
"""Documented accuracy (docs/vector_math.md has the measured maxima): the f32 functions in `NATIVE_F32`
are native f32 cores (every input scanned, 0.84 ulp at most; pow, with two arguments, 0.75 ulp over
4 x 10^8 random pairs); rsqrt is 1/sqrt, rounded twice.
Lanes off the fast path get the C library's result, whatever its accuracy (f64 sin/cos beyond
2^21: glibc 2.36's cos is 7.9 ulp off at the classic hard case 6381956970095103 * 2^797)."""

TRIG_FAST_LIMIT = 2.0**21
"""f64 sin/cos arguments beyond this magnitude are the C library's (Payne-Hanek reduction)."""

# The f64 cores. `$N` is the lane count, `$B` the vector size in bytes; each `// @helper name`
# starts one definition (the printer emits only those a kernel uses, dependencies first).
_CORE = r"""
// @helper lo_vd$N
typedef double lo_vd$N __attribute__((vector_size($B)));
// @helper lo_vl$N
typedef long long lo_vl$N __attribute__((vector_size($B)));
// @helper lo_vm_sel_d$N
/* Lanes of a where the mask m is all-ones, of b elsewhere. */
static inline lo_vd$N lo_vm_sel_d$N(lo_vl$N m, lo_vd$N a, lo_vd$N b)
{
    return (lo_vd$N)((m & (lo_vl$N)a) | (~m & (lo_vl$N)b));
}
// @helper lo_vm_twosum_d$N
/* s + *err == a + b exactly (Knuth's TwoSum). */
static inline lo_vd$N lo_vm_twosum_d$N(lo_vd$N a, lo_vd$N b, lo_vd$N *err)
{
    lo_vd$N s = a + b, bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}
// @helper lo_vm_expm1c_d$N
/* expm1(r) - r for |r| <= ln2/2: Cephes exp.c's Pade form e^r = 1 + 2 r P(r^2) / (Q(r^2) - r P(r^2)),
   rewritten as r + r (2P - Q + rP) / (Q - rP) so that the leading r stays exact. */
static inline lo_vd$N lo_vm_expm1c_d$N(lo_vd$N r)
{
    lo_vd$N rr = r * r;
    lo_vd$N p = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr + 9.99999999999999999910e-1);
    lo_vd$N q = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr + 2.27265548208155028766e-1) * rr
                + 2.00000000000000000009e0;
    lo_vd$N d = ((-3.00198505138664455042e-6 * rr - 2.27212901734721986016e-3) * rr - 1.66666666666666636506e-1) * rr;
    return r * (d + p) / (q - p);
}
// @helper lo_vm_expm1r_d$N
/* expm1(r) for |r| <= ln2/2. */
static inline lo_vd$N lo_vm_expm1r_d$N(lo_vd$N r)
{
    return r + lo_vm_expm1c_d$N(r);
}
// @helper lo_vm_expred_d$N
/* x = k ln2 + r + *rl with |r| <= ln2/2 for |x| <= 708 (Cody-Waite, k C1 exact, ln2 = C1 + C2;
   *rl is the rounding error of the last subtraction); returns r, sets k. */
static inline lo_vd$N lo_vm_expred_d$N(lo_vd$N x, lo_vl$N *k, lo_vd$N *rl)
{
    lo_vd$N t = x * 1.4426950408889634 + 0x1.8p52;
    lo_vd$N kd = t - 0x1.8p52;
    *k = (lo_vl$N)t - 0x4338000000000000LL;
    return lo_vm_twosum_d$N(x - kd * 6.93145751953125e-1, -(kd * 1.42860682030941723212e-6), rl);
}
// @helper lo_vm_pow2i_d$N
/* 2^k for integer lanes k in [-1022, 1023]: the exponent field built directly. */
static inline lo_vd$N lo_vm_pow2i_d$N(lo_vl$N k)
{
    return (lo_vd$N)((k + 1023) << 52);
}
// @helper lo_vm_expfast_d$N
/* e^x for |x| <= 708 (no checks). */
static inline lo_vd$N lo_vm_expfast_d$N(lo_vd$N x)
{
    lo_vl$N k;
    lo_vd$N rl, r = lo_vm_expred_d$N(x, &k, &rl);
    lo_vd$N em = lo_vm_expm1r_d$N(r);
    return (1.0 + (em + rl * (1.0 + em))) * lo_vm_pow2i_d$N(k);
}
// @helper lo_vm_exp_d$N
static inline lo_vd$N lo_vm_exp_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x >= -708.0) & (lo_vl$N)(x <= 708.0));
    lo_vd$N y = lo_vm_expfast_d$N(lo_vm_sel_d$N(bad, x - x, x));
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = exp(x[i]);
    return y;
}
// @helper lo_vm_exp2_d$N
/* 2^x = 2^k e^(r ln2), k = round(x), r = x - k exact. */
static inline lo_vd$N lo_vm_exp2_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x >= -1020.0) & (lo_vl$N)(x <= 1020.0));
    lo_vd$N xc = lo_vm_sel_d$N(bad, x - x, x);
    lo_vd$N t = xc + 0x1.8p52;
    lo_vd$N r = xc - (t - 0x1.8p52);
    lo_vl$N k = (lo_vl$N)t - 0x4338000000000000LL;
    lo_vd$N y = (1.0 + lo_vm_expm1r_d$N(r * 0.6931471805599453)) * lo_vm_pow2i_d$N(k);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = exp2(x[i]);
    return y;
}
// @helper lo_vm_expm1_d$N
/* expm1(x) = (2^k - 1) + 2^k r + 2^k (expm1(r) - r): the first two terms exact, added with their
   rounding error kept (TwoSum), so only the small last term's error reaches the result; k = 0 is
   r + (expm1(r) - r) itself; zero keeps its sign. */
static inline lo_vd$N lo_vm_expm1_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x >= -708.0) & (lo_vl$N)(x <= 708.0));
    lo_vl$N k;
    lo_vd$N rl, r = lo_vm_expred_d$N(lo_vm_sel_d$N(bad, x - x, x), &k, &rl);
    lo_vd$N c = lo_vm_expm1c_d$N(r), p = lo_vm_pow2i_d$N(k), e;
    c = c + rl * (1.0 + (r + c));
    lo_vd$N s = lo_vm_twosum_d$N(p - 1.0, p * r, &e);
    lo_vd$N y = lo_vm_sel_d$N(k == 0, r + c, s + (e + p * c));
    y = lo_vm_sel_d$N((lo_vl$N)(x == 0.0), x, y);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = expm1(x[i]);
    return y;
}
// @helper lo_vm_logparts_d$N
/* x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), for positive normal x; returns f, sets e. */
static inline lo_vd$N lo_vm_logparts_d$N(lo_vd$N x, lo_vd$N *e)
{
    lo_vl$N bits = (lo_vl$N)x;
    lo_vl$N ei = ((bits >> 52) & 0x7ff) - 1022;
    lo_vd$N m = (lo_vd$N)((bits & 0x000fffffffffffffLL) | 0x3fe0000000000000LL);
    lo_vl$N small = (lo_vl$N)(m < 0.70710678118654752440);
    *e = (lo_vd$N)((ei + small) + 0x4338000000000000LL) - 0x1.8p52;
    return (m + (lo_vd$N)(small & (lo_vl$N)m)) - 1.0;
}
// @helper lo_vm_logpq_d$N
/* log(1 + f) - f + f^2/2 for 1 + f in [sqrt(1/2), sqrt(2)): Cephes log.c, f^3 P(f) / Q(f). */
static inline lo_vd$N lo_vm_logpq_d$N(lo_vd$N f)
{
    lo_vd$N p = ((((1.01875663804580931796e-4 * f + 4.97494994976747001425e-1) * f + 4.70579119878881725854e0) * f
                  + 1.44989225341610930846e1) * f + 1.79368678507819816313e1) * f + 7.70838733755885391666e0;
    lo_vd$N q = ((((f + 1.12873587189167450590e1) * f + 4.52279145837532221105e1) * f + 8.29875266912776603211e1) * f
                 + 7.11544750618563894466e1) * f + 2.31251620126765340583e1;
    return f * (f * f * p / q);
}
// @helper lo_vm_logfast_d$N
/* log(x) for positive normal x (no checks); ln2 = C1 - C2 with e * C1 exact. */
static inline lo_vd$N lo_vm_logfast_d$N(lo_vd$N x)
{
    lo_vd$N e, f = lo_vm_logparts_d$N(x, &e);
    lo_vd$N y = (lo_vm_logpq_d$N(f) - e * 2.121944400546905827679e-4) - 0.5 * (f * f);
    return (f + y) + e * 0.693359375;
}
// @helper lo_vm_log_d$N
static inline lo_vd$N lo_vm_log_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x >= 0x1p-1022) & (lo_vl$N)(x <= 0x1.fffffffffffffp1023));
    lo_vd$N y = lo_vm_logfast_d$N(lo_vm_sel_d$N(bad, x - x + 1.0, x));
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = log(x[i]);
    return y;
}
// @helper lo_vm_log2_d$N
/* Cephes log2.c: log2(x) = e + (f + y) log2(e), log2(e) - 1 = LOG2EA carried separately. */
static inline lo_vd$N lo_vm_log2_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x >= 0x1p-1022) & (lo_vl$N)(x <= 0x1.fffffffffffffp1023));
    lo_vd$N e, f = lo_vm_logparts_d$N(lo_vm_sel_d$N(bad, x - x + 1.0, x), &e);
    lo_vd$N y = lo_vm_logpq_d$N(f) - 0.5 * (f * f);
    y = (((y * 0.44269504088896340736 + f * 0.44269504088896340736) + y) + f) + e;
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = log2(x[i]);
    return y;
}
// @helper lo_vm_log1p_d$N
/* log1p(x): f = x itself near 0; otherwise u = 1 + x, log(u) plus the rounding error of the
   addition, (x - (u - 1)) / u. Zero keeps its sign. */
static inline lo_vd$N lo_vm_log1p_d$N(lo_vd$N x)
{
    lo_vl$N bad = ~((lo_vl$N)(x > -1.0) & (lo_vl$N)(x <= 0x1.fffffffffffffp1023));
    lo_vd$N xc = lo_vm_sel_d$N(bad, x - x, x);
    lo_vd$N u = 1.0 + xc;
    lo_vd$N e, f = lo_vm_logparts_d$N(u, &e);
    lo_vd$N c = (xc - (u - 1.0)) / u;
    lo_vl$N near = (lo_vl$N)(xc > -0.2928) & (lo_vl$N)(xc < 0.4142);
    lo_vd$N zero = xc - xc;
    f = lo_vm_sel_d$N(near, xc, f);
    e = lo_vm_sel_d$N(near, zero, e);
    c = lo_vm_sel_d$N(near, zero, c);
    lo_vd$N y = ((lo_vm_logpq_d$N(f) - e * 2.121944400546905827679e-4) + c) - 0.5 * (f * f);
    y = lo_vm_sel_d$N((lo_vl$N)(xc == 0.0), xc, (f + y) + e * 0.693359375);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = log1p(x[i]);
    return y;
}
// @helper lo_vm_trigred_d$N
/* For 0 <= ax <= 2^21: ax = q pi/2 + *r + *rl, |r| <= pi/4, with pi/2 in four pieces (32, 32, 32, 53
   bits: q * piece is exact for the first three) and the subtractions carried as double-double,
   so multiples of pi/2 keep their tiny remainder. Returns q. */
static inline lo_vl$N lo_vm_trigred_d$N(lo_vd$N ax, lo_vd$N *r, lo_vd$N *rl)
{
    lo_vd$N t = ax * 0.63661977236758138 + 0x1.8p52;
    lo_vd$N q = t - 0x1.8p52;
    lo_vd$N e1, e2;
    lo_vd$N s1 = lo_vm_twosum_d$N(ax - q * 0x1.921fb544p+0, -(q * 0x1.0b4611a6p-34), &e1);
    lo_vd$N s2 = lo_vm_twosum_d$N(s1, -(q * 0x1.3198a2ep-69), &e2);
    *r = lo_vm_twosum_d$N(s2, (e1 + e2) - q * 0x1.b839a252049c1p-104, rl);
    return (lo_vl$N)t - 0x4338000000000000LL;
}
// @helper lo_vm_trig_d$N
/* For 0 <= ax <= 2^21: ax = q pi/2 + r + rl (trigred_d), then Cephes sin.c polynomials.
   Returns q; *s = sin(r + rl), *c = cos(r + rl). */
static inline lo_vl$N lo_vm_trig_d$N(lo_vd$N ax, lo_vd$N *s, lo_vd$N *c)
{
    lo_vd$N r, rl;
    lo_vl$N q = lo_vm_trigred_d$N(ax, &r, &rl);
    lo_vd$N z = r * r;
    lo_vd$N sp = ((((1.58962301576546568060e-10 * z - 2.50507477628578072866e-8) * z + 2.75573136213857245213e-6) * z
                   - 1.98412698295895385996e-4) * z + 8.33333333332211858878e-3) * z - 1.66666666666666307295e-1;
    lo_vd$N cp = ((((-1.13585365213876817300e-11 * z + 2.08757008419747316778e-9) * z - 2.75573141792967388112e-7) * z
                   + 2.48015872888517045348e-5) * z - 1.38888888888730564116e-3) * z + 4.16666666666665929218e-2;
    lo_vd$N hz = 0.5 * z, w = 1.0 - hz;
    *s = r + (r * z * sp + rl);
    *c = w + (((1.0 - w) - hz) + (z * z * cp - r * rl));
    return q;
}
// @helper lo_vm_sin_d$N
/* sin(x) = sign(x) sin(|x|); quadrant q picks sin/cos of r and the sign. */
static inline lo_vd$N lo_vm_sin_d$N(lo_vd$N x)
{
    lo_vl$N sign = (lo_vl$N)x & (-0x7fffffffffffffffLL - 1);
    lo_vd$N ax = (lo_vd$N)((lo_vl$N)x ^ sign);
    lo_vl$N bad = ~(lo_vl$N)(ax <= 0x1p21);
    lo_vd$N s, c;
    lo_vl$N q = lo_vm_trig_d$N(lo_vm_sel_d$N(bad, ax - ax, ax), &s, &c);
    lo_vd$N y = lo_vm_sel_d$N((q & 1) == 1, c, s);
    y = (lo_vd$N)((lo_vl$N)y ^ ((q & 2) << 62) ^ sign);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = sin(x[i]);
    return y;
}
// @helper lo_vm_cos_d$N
static inline lo_vd$N lo_vm_cos_d$N(lo_vd$N x)
{
    lo_vd$N ax = (lo_vd$N)((lo_vl$N)x & 0x7fffffffffffffffLL);
    lo_vl$N bad = ~(lo_vl$N)(ax <= 0x1p21);
    lo_vd$N s, c;
    lo_vl$N q = lo_vm_trig_d$N(lo_vm_sel_d$N(bad, ax - ax, ax), &s, &c);
    lo_vd$N y = lo_vm_sel_d$N((q & 1) == 1, s, c);
    y = (lo_vd$N)((lo_vl$N)y ^ (((q + 1) & 2) << 62));
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = cos(x[i]);
    return y;
}
// @helper lo_vm_tanh_d$N
/* Cephes tanh.c: x + x^3 P(x^2)/Q(x^2) below 0.625, else sign(x) (1 - 2 / (e^(2|x|) + 1)). */
static inline lo_vd$N lo_vm_tanh_d$N(lo_vd$N x)
{
    lo_vl$N sign = (lo_vl$N)x & (-0x7fffffffffffffffLL - 1);
    lo_vd$N ax = (lo_vd$N)((lo_vl$N)x ^ sign);
    lo_vl$N bad = ~(lo_vl$N)(ax <= 0x1.fffffffffffffp1023);
    lo_vl$N small = (lo_vl$N)(ax < 0.625);
    lo_vd$N xs = lo_vm_sel_d$N(small, ax, ax - ax);
    lo_vd$N z = xs * xs;
    lo_vd$N p = (-9.64399179425052238628e-1 * z - 9.92877231001918586564e1) * z - 1.61468768441708447952e3;
    lo_vd$N q = ((z + 1.12811678491632931402e2) * z + 2.23548839060100448583e3) * z + 4.84406305325125486048e3;
    lo_vd$N ys = xs + xs * z * p / q;
    lo_vd$N ab = lo_vm_sel_d$N((lo_vl$N)(ax < 40.0), ax, ax - ax + 40.0);
    lo_vd$N yb = 1.0 - 2.0 / (lo_vm_expfast_d$N(ab + ab) + 1.0);
    lo_vd$N y = (lo_vd$N)((lo_vl$N)lo_vm_sel_d$N(small, ys, yb) | sign);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = tanh(x[i]);
    return y;
}
// @helper lo_vm_erf_d$N
/* Below 1 a polynomial fit (see ys); else Cephes ndtr.c, sign(x) (1 - e^(-x^2) P(|x|)/Q(|x|)); |x| >= 6 is 1. */
static inline lo_vd$N lo_vm_erf_d$N(lo_vd$N x)
{
    lo_vl$N sign = (lo_vl$N)x & (-0x7fffffffffffffffLL - 1);
    lo_vd$N ax = (lo_vd$N)((lo_vl$N)x ^ sign);
    lo_vl$N bad = ~(lo_vl$N)(ax <= 0x1.fffffffffffffp1023);
    lo_vl$N small = (lo_vl$N)(ax < 1.0);
    lo_vd$N xs = lo_vm_sel_d$N(small, ax, ax - ax);
    lo_vd$N z = xs * xs;
    /* erf(x) = x + x (2/sqrt(pi) - 1 + x^2 g(x^2)), g a degree-10 Chebyshev fit on [0, 1]
       (error 5e-19); the exact leading x keeps the result within an ulp */
    lo_vd$N g = ((((((((((-8.101869549660952e-10) * z + 1.3884625209147687e-08) * z - 1.624658795725963e-07) * z + 1.6452392414414235e-06) * z - 1.4925137231361603e-05) * z + 0.00012055315509827725) * z - 0.0008548326651491142) * z + 0.005223977620813342) * z - 0.026866170644835378) * z + 0.11283791670954388) * z - 0.3761263890318375;
    lo_vd$N ys = xs + xs * (0.12837916709551257390 + z * g);
    lo_vd$N a = lo_vm_sel_d$N(small, ax - ax + 1.0, lo_vm_sel_d$N((lo_vl$N)(ax < 6.0), ax, ax - ax + 6.0));
    lo_vd$N p = (((((((2.46196981473530512524e-10 * a + 5.64189564831068821977e-1) * a + 7.46321056442269912687e0) * a
                     + 4.86371970985681366614e1) * a + 1.96520832956077098242e2) * a + 5.26445194995477358631e2) * a
                  + 9.34528527171957607540e2) * a + 1.02755188689515710272e3) * a + 5.57535335369399327526e2;
    lo_vd$N q = (((((((a + 1.32281951154744992508e1) * a + 8.67072140885989742329e1) * a + 3.54937778887819891062e2) * a
                    + 9.75708501743205489753e2) * a + 1.82390916687909736289e3) * a + 2.24633760818710981792e3) * a
                 + 1.65666309194161350182e3) * a + 5.57535340817727675546e2;
    lo_vd$N yb = 1.0 - lo_vm_expfast_d$N(-(a * a)) * p / q;
    lo_vd$N y = (lo_vd$N)((lo_vl$N)lo_vm_sel_d$N(small, ys, yb) | sign);
    if (lo_vm_any$N(bad))
        for (int i = 0; i < $N; i++) if (bad[i]) y[i] = erf(x[i]);
    return y;
}
// @helper lo_vm_pow_d$N
/* pow on f64 lanes: the C library's, lane by lane (a fast f64 pow needs a double-double log;
   see docs/vector_math.md). */
static inline lo_vd$N lo_vm_pow_d$N(lo_vd$N x, lo_vd$N y)
{
    lo_vd$N r;
    for (int i = 0; i < $N; i++) r[i] = pow(x[i], y[i]);
    return r;
}
"""

NATIVE_F32: tuple[str, ...] = ("exp", "exp2", "log", "log2", "sin", "cos", "tanh", "log1p", "expm1", "erf", "pow")
"""Functions whose f32 rows compute in f32 lanes (`_CORE_F32`), twice the lanes per instruction of
the f64 path (docs/vector_math.md, "Native f32 cores"). f32 sin and cos reduce
|x| > 6400 in two more tiers (the f64 core's reduction up to 2^21, Payne-Hanek beyond), with no f64
polynomial and no C library lane."""

# The native f32 cores. `$M` is the f32 lane count, `$N` the f64 lane count of the same vector
# (for `lo_vm_any$N`, which tests bits whatever the lane width), `$B` the vector size in bytes, `$H`
# half of it; `$LO`, `$HI`, `$ALL` are the lane index lists of the low half, the high half, all lanes.
_CORE_F32 = r"""
// @helper lo_vf$M
typedef float lo_vf$M __attribute__((vector_size($B)));
// @helper lo_vi$M
typedef int lo_vi$M __attribute__((vector_size($B)));
// @helper lo_vm_sel_f$M
/* Lanes of a where the mask m is all-ones, of b elsewhere. */
static inline lo_vf$M lo_vm_sel_f$M(lo_vi$M m, lo_vf$M a, lo_vf$M b)
{
    return (lo_vf$M)((m & (lo_vi$M)a) | (~m & (lo_vi$M)b));
}
// @helper lo_vm_twosum_f$M
/* s + *err == a + b exactly (Knuth's TwoSum). */
static inline lo_vf$M lo_vm_twosum_f$M(lo_vf$M a, lo_vf$M b, lo_vf$M *err)
{
    lo_vf$M s = a + b, bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}
// @helper lo_vf$N_h
typedef float lo_vf$N_h __attribute__((vector_size($H)));
// @helper lo_vi$N_h
typedef int lo_vi$N_h __attribute__((vector_size($H)));
// @helper lo_vq$N
typedef unsigned long long lo_vq$N __attribute__((vector_size($B)));
// @helper lo_vm_2opi_bits
/* The first 192 bits of 2/pi as 24 overlapping 32-bit words: word i holds bits 8i - 24 to 8i + 7 (zeros
   before the binary point), so a window starting at any multiple of 8 bits is three aligned words. */
static const unsigned lo_vm_2opi_bits[24] = {
    0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
    0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0,
    0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599, 0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041,
};
// @helper lo_vm_pio2big_d$N
/* Payne-Hanek for f32 magnitudes 2 <= |x| < 2^128 given as bit patterns b (one per 64-bit lane): |x| 2/pi
   = n + f (n mod 4, |f| <= 1/2) as the middle 64 bits of the 32 x 96-bit product of the shifted
   significand and the window of 2/pi that x's exponent selects (bits worth 4 or more drop out mod 4,
   bits past the window are below 2^-64; glibc's sinf does the same per scalar). f is a 2.62 fixed-point
   fraction; the result f pi/2 is a double with at least 33 correct bits (|f| >= 2^-29.8 for every f32).
   Lanes of other magnitudes (NaN, inf too) give some value, no fault; returns f pi/2, sets *n. */
static inline lo_vd$N lo_vm_pio2big_d$N(lo_vq$N b, lo_vl$N *n)
{
    lo_vq$N w0, w1, w2;
    for (int i = 0; i < $N; i++) {
        unsigned j = (unsigned)(b[i] >> 26) & 15;
        w0[i] = lo_vm_2opi_bits[j];
        w1[i] = lo_vm_2opi_bits[j + 4];
        w2[i] = lo_vm_2opi_bits[j + 8];
    }
    lo_vq$N m = ((b & 0x7fffff) | 0x800000) << ((b >> 23) & 7);
    lo_vq$N p = (((m * w0) << 32) | ((m * w2) >> 32)) + m * w1;
    lo_vq$N k = (p + (1ULL << 61)) >> 62;
    lo_vl$N f = (lo_vl$N)(p - (k << 62));
    *n = (lo_vl$N)k;
    /* (double)f without a 64-bit integer conversion (none on SSE2/AVX2): both 32-bit halves exactly */
    lo_vd$N fh = (lo_vd$N)((f >> 32) + 0x4338000000000000LL) - 0x1.8p52;
    lo_vd$N fl = (lo_vd$N)((f & 0xffffffffLL) | 0x4330000000000000LL) - 0x1p52;
    return (fh * 0x1p32 + fl) * 0x1.921fb54442d18p-62;
}
// @helper lo_vm_tod_f$M
/* The f32 lanes of x as two f64 vectors: lanes 0..$N-1 in *lo, the rest in *hi. */
static inline void lo_vm_tod_f$M(lo_vf$M x, lo_vd$N *lo, lo_vd$N *hi)
{
    *lo = __builtin_convertvector(__builtin_shufflevector(x, x, $LO), lo_vd$N);
    *hi = __builtin_convertvector(__builtin_shufflevector(x, x, $HI), lo_vd$N);
}
// @helper lo_vm_trigtof_f$M
/* The f64 tiers' results as f32 lanes: the double-double remainders a + al (lanes 0..$N-1) and b + bl (the
   rest) as float-float *r + *rl, the quadrants qa, qb as int lanes (returned). */
static inline lo_vi$M lo_vm_trigtof_f$M(lo_vd$N a, lo_vd$N al, lo_vd$N b, lo_vd$N bl, lo_vl$N qa, lo_vl$N qb,
                                          lo_vf$M *r, lo_vf$M *rl)
{
    lo_vf$N_h ah = __builtin_convertvector(a, lo_vf$N_h), bh = __builtin_convertvector(b, lo_vf$N_h);
    lo_vf$N_h ae = __builtin_convertvector((a - __builtin_convertvector(ah, lo_vd$N)) + al, lo_vf$N_h);
    lo_vf$N_h be = __builtin_convertvector((b - __builtin_convertvector(bh, lo_vd$N)) + bl, lo_vf$N_h);
    *r = __builtin_shufflevector(ah, bh, $ALL);
    *rl = __builtin_shufflevector(ae, be, $ALL);
    lo_vi$N_h ia = __builtin_convertvector(qa, lo_vi$N_h), ib = __builtin_convertvector(qb, lo_vi$N_h);
    return __builtin_shufflevector(ia, ib, $ALL);
}
// @helper lo_vm_trigmid_f$M
/* The second reduction tier, 0 <= ax <= 2^21: the f64 core's Cody-Waite reduction (trigred_d, remainder
   to about 2^-100) on the two f64 halves; returns q, sets *r + *rl. */
static inline lo_vi$M lo_vm_trigmid_f$M(lo_vf$M ax, lo_vf$M *r, lo_vf$M *rl)
{
    lo_vd$N lo, hi, rlo, rhi, elo, ehi;
    lo_vm_tod_f$M(ax, &lo, &hi);
    lo_vl$N qlo = lo_vm_trigred_d$N(lo, &rlo, &elo), qhi = lo_vm_trigred_d$N(hi, &rhi, &ehi);
    return lo_vm_trigtof_f$M(rlo, elo, rhi, ehi, qlo, qhi, r, rl);
}
// @helper lo_vm_trigbig_f$M
/* The third reduction tier: |x| = q pi/2 + *r + *rl (q mod 4 returned) for 2 <= |x| < 2^128, b = |x|'s
   bits: Payne-Hanek on the two halves' 64-bit lanes. */
static inline lo_vi$M lo_vm_trigbig_f$M(lo_vi$M b, lo_vf$M *r, lo_vf$M *rl)
{
    lo_vl$N nl, nh;
    lo_vd$N dl = lo_vm_pio2big_d$N(__builtin_convertvector(__builtin_shufflevector(b, b, $LO), lo_vq$N), &nl);
    lo_vd$N dh = lo_vm_pio2big_d$N(__builtin_convertvector(__builtin_shufflevector(b, b, $HI), lo_vq$N), &nh);
    return lo_vm_trigtof_f$M(dl, dl - dl, dh, dh - dh, nl, nh, r, rl);
}
// @helper lo_vm_trigpick_f$M
/* Lanes m of *q, *r, *rl replaced by q2, r2, rl2 (one tier's results joining the others'). */
static inline void lo_vm_trigpick_f$M(lo_vi$M m, lo_vi$M q2, lo_vf$M r2, lo_vf$M rl2, lo_vi$M *q, lo_vf$M *r,
                                        lo_vf$M *rl)
{
    *q = (m & q2) | (~m & *q);
    *r = lo_vm_sel_f$M(m, r2, *r);
    *rl = lo_vm_sel_f$M(m, rl2, *rl);
}
// @helper lo_vm_trigred_f$M
/* The first reduction tier, for 0 <= ax <= 6400 (q <= 4075): ax = q pi/2 + *r + *rl, |r| <= pi/4, with pi/2
   in four pieces (12, 12, 12 and 24 bits; q has at most 12 bits, so q * piece is exact for the first
   three; the truncation error is below 2^-56) and the subtractions carried as float-float (TwoSum):
   every f32 in range has |r| >= 2^-28, which keeps 2^-28 relative. Returns q. */
static inline lo_vi$M lo_vm_trigred_f$M(lo_vf$M ax, lo_vf$M *r, lo_vf$M *rl)
{
    lo_vf$M t = ax * 0x1.45f306p-1f + 0x1.8p23f;
    lo_vf$M q = t - 0x1.8p23f;
    lo_vf$M e1, e2;
    lo_vf$M s1 = lo_vm_twosum_f$M(ax - q * 0x1.922p0f, q * 0x1.2aep-18f, &e1);
    lo_vf$M s2 = lo_vm_twosum_f$M(s1, q * 0x1.deap-31f, &e2);
    *r = lo_vm_twosum_f$M(s2, (e1 + e2) - q * 0x1.184698p-44f, rl);
    return (lo_vi$M)t - 0x4b400000;
}
// @helper lo_vm_trigpoly_f$M
/* *s = sin(r + rl), *c = cos(r + rl) for |r| <= pi/4: least-squares fits on Chebyshev nodes of |r| <= pi/4 +
   0.002, each coefficient rounded to f32 before the next is fitted (relative error 2^-32.3 for sin, 2^-32.9
   for cos). */
static inline void lo_vm_trigpoly_f$M(lo_vf$M r, lo_vf$M rl, lo_vf$M *s, lo_vf$M *c)
{
    lo_vf$M z = r * r;
    lo_vf$M sp = ((0x1.78595ep-19f * z - 0x1.a04a5ep-13f) * z + 0x1.111166p-7f) * z - 0x1.555556p-3f;
    lo_vf$M cp = (0x1.99e70cp-16f * z - 0x1.6c0c26p-10f) * z + 0x1.55554ap-5f;
    lo_vf$M hz = 0.5f * z, w = 1.0f - hz;
    *s = r + (r * z * sp + rl * w);
    *c = w + (((1.0f - w) - hz) + (z * z * cp - r * rl));
}
// @helper lo_vm_trigval_f$M
/* sin (cosine = 0) or cos of |x| = q pi/2 + r + rl, sign: x's sign bit for sin, 0 for cos. cos(x) =
   sin(|x| + pi/2) (quadrant q + 1); the quadrant picks sin/cos of r and the sign. */
static inline lo_vf$M lo_vm_trigval_f$M(lo_vi$M q, lo_vf$M r, lo_vf$M rl, lo_vi$M sign, int cosine)
{
    lo_vf$M s, c;
    lo_vm_trigpoly_f$M(r, rl, &s, &c);
    q += cosine;
    lo_vf$M y = lo_vm_sel_f$M((q & 1) == 1, c, s);
    return (lo_vf$M)((lo_vi$M)y ^ (((q & 2) == 2) & (-0x7fffffff - 1)) ^ sign);
}
// @helper lo_vm_sincoswide_f$M
/* sin or cos for |x| > 6400: the second reduction tier up to 2^21, the third beyond; NaN and inf give NaN.
   Out of line, so that the first tier's path stays small where it is inlined. */
static __attribute__((noinline)) lo_vf$M lo_vm_sincoswide_f$M(lo_vf$M x, int cosine)
{
    lo_vi$M sign = (lo_vi$M)x & (cosine ? 0 : -0x7fffffff - 1);
    lo_vf$M ax = (lo_vf$M)((lo_vi$M)x & 0x7fffffff);
    lo_vi$M huge = ~(lo_vi$M)(ax <= 0x1p21f), mid = ~(lo_vi$M)(ax <= 6400.0f) & ~huge;
    lo_vf$M r = ax - ax, rl = r, r2, rl2;
    lo_vi$M q = mid - mid;
    if (lo_vm_any$N((lo_vl$N)mid)) {
        lo_vi$M q2 = lo_vm_trigmid_f$M(lo_vm_sel_f$M(mid, ax, ax - ax), &r2, &rl2);
        lo_vm_trigpick_f$M(mid, q2, r2, rl2, &q, &r, &rl);
    }
    if (lo_vm_any$N((lo_vl$N)huge)) {
        lo_vi$M q3 = lo_vm_trigbig_f$M((lo_vi$M)ax, &r2, &rl2);
        lo_vm_trigpick_f$M(huge, q3, r2, rl2, &q, &r, &rl);
        r = lo_vm_sel_f$M(~(lo_vi$M)(ax <= 0x1.fffffep127f), ax - ax, r);  /* NaN for NaN and inf */
    }
    return lo_vm_trigval_f$M(q, r, rl, sign, cosine);
}
// @helper lo_vm_sincos_f$M
/* sin(x) = sign(x) sin(|x|), cos(x) = cos(|x|). Three reduction tiers, each run only for vectors with a lane
   in it: |x| <= 6400 Cody-Waite in float-float (trigred_f), up to 2^21 the f64 core's Cody-Waite on f64
   halves (trigmid_f), larger finite |x| Payne-Hanek on 64-bit integer lanes (trigbig_f); NaN and +-inf
   give NaN. No lane goes to the C library. */
static inline lo_vf$M lo_vm_sincos_f$M(lo_vf$M x, int cosine)
{
    lo_vi$M sign = (lo_vi$M)x & (cosine ? 0 : -0x7fffffff - 1);
    lo_vf$M ax = (lo_vf$M)((lo_vi$M)x & 0x7fffffff);
    lo_vi$M wide = ~(lo_vi$M)(ax <= 6400.0f);
    lo_vf$M y = x;
    if (lo_vm_any$N((lo_vl$N)~wide)) {  /* skipped when every lane is wide */
        lo_vf$M r, rl;
        lo_vi$M q = lo_vm_trigred_f$M(lo_vm_sel_f$M(wide, ax - ax, ax), &r, &rl);
        y = lo_vm_trigval_f$M(q, r, rl, sign, cosine);
    }
    if (lo_vm_any$N((lo_vl$N)wide))
        y = lo_vm_sel_f$M(wide, lo_vm_sincoswide_f$M(x, cosine), y);
    return y;
}
// @helper lo_vm_sin_f$M
static inline lo_vf$M lo_vm_sin_f$M(lo_vf$M x)
{
    return lo_vm_sincos_f$M(x, 0);
}
// @helper lo_vm_cos_f$M
static inline lo_vf$M lo_vm_cos_f$M(lo_vf$M x)
{
    return lo_vm_sincos_f$M(x, 1);
}
// @helper lo_vm_expq1_f$M
/* e^v - 1 - v - v^2/2 = v^3 q1(v) for |v| <= ln2/2 (the fit below without its constant 1/2). */
static inline lo_vf$M lo_vm_expq1_f$M(lo_vf$M v)
{
    return (((0x1.a1892cp-13f * v + 0x1.6d517cp-10f) * v + 0x1.1110ap-7f) * v + 0x1.5554e4p-5f) * v + 0x1.555556p-3f;
}
// @helper lo_vm_expq_f$M
/* e^v - 1 - v = v^2 q(v) for |v| <= ln2/2, q = 1/2 + v q1(v) a degree-5 least-squares fit on Chebyshev
   nodes (|error| < 2^-31). */
static inline lo_vf$M lo_vm_expq_f$M(lo_vf$M v)
{
    lo_vf$M q = lo_vm_expq1_f$M(v) * v + 0.5f;
    return v * v * q;
}
// @helper lo_vm_exp1_f$M
/* e^(u + ul) = s + *c before the last rounding (returns s = 1 + u rounded; the method is 2^k e^(u + ul)'s below). */
static inline lo_vf$M lo_vm_exp1_f$M(lo_vf$M u, lo_vf$M ul, lo_vf$M *c)
{
    lo_vf$M s = 1.0f + u;
    lo_vf$M e = (1.0f - s) + u;
    *c = e + (ul + lo_vm_expq_f$M(u + ul));
    return s;
}
// @helper lo_vm_exp2k_f$M
/* 2^k e^(u + ul) for |u + ul| <= ln2/2, |ul| < 2^-13, k in [-126, 127] (normal results): with v = u + ul
   rounded, e^(u + ul) = (1 + u) + ul + v^2 q(v) (the fit above); 1 + u is split
   exactly (Fast2Sum), so ul, the split error and v^2 q join before the single last rounding; 2^k
   is the exponent field. */
static inline lo_vf$M lo_vm_exp2k_f$M(lo_vf$M u, lo_vf$M ul, lo_vi$M k)
{
    lo_vf$M c, s = lo_vm_exp1_f$M(u, ul, &c);
    return (s + c) * (lo_vf$M)((k + 127) << 23);
}
// @helper lo_vm_expred_f$M
/* x = k ln2 + u + *ul with |u| <= ln2/2 for x in [-87.33, 88] (Cody-Waite, ln2 = C1 + C2, k C1
   exact; *ul is the rounding error of u); returns u, sets *k. */
static inline lo_vf$M lo_vm_expred_f$M(lo_vf$M x, lo_vi$M *k, lo_vf$M *ul)
{
    lo_vf$M t = x * 1.44269504f + 0x1.8p23f;
    lo_vf$M kf = t - 0x1.8p23f;
    lo_vf$M rh = x - kf * 0x1.62e4p-1f;
    lo_vf$M cl = kf * 0x1.7f7d1cp-20f;
    lo_vf$M u = rh - cl;
    *k = (lo_vi$M)t - 0x4b400000;
    *ul = (rh - u) - cl;
    return u;
}
// @helper lo_vm_expfast_f$M
/* e^x for x in [-87.33, 88] (normal results, no checks). All 2^32 f32 inputs of exp scanned: at
   most 0.681 ulp. */
static inline lo_vf$M lo_vm_expfast_f$M(lo_vf$M x)
{
    lo_vi$M k;
    lo_vf$M ul, u = lo_vm_expred_f$M(x, &k, &ul);
    return lo_vm_exp2k_f$M(u, ul, k);
}
// @helper lo_vm_twoprod_f$M
/* p + *err == a * b exactly (Dekker's product, no FMA; |a|, |b| < 2^114). */
static inline lo_vf$M lo_vm_twoprod_f$M(lo_vf$M a, lo_vf$M b, lo_vf$M *err)
{
    lo_vf$M p = a * b;
    lo_vf$M ca = a * 4097.0f, ah = ca - (ca - a), al = a - ah;
    lo_vf$M cb = b * 4097.0f, bh = cb - (cb - b), bl = b - bh;
    *err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return p;
}
// @helper lo_vm_tanhbig_f$M
/* 1 - 2 / (E + 1), E = e^(2 ab), for 0.625 <= ab <= 10, in float-float (see tanh_f below). */
static inline lo_vf$M lo_vm_tanhbig_f$M(lo_vf$M ab)
{
    lo_vi$M k;
    lo_vf$M ul, u = lo_vm_expred_f$M(ab + ab, &k, &ul);
    lo_vf$M c, s = lo_vm_exp1_f$M(u, ul, &c);
    lo_vf$M k2 = (lo_vf$M)((k + 127) << 23);
    lo_vf$M eh = s + c, el = ((s - eh) + c) * k2;
    eh = eh * k2;
    lo_vf$M dh = eh + 1.0f, dl = ((eh - dh) + 1.0f) + el;
    lo_vf$M pl, qh = 2.0f / dh, ph = lo_vm_twoprod_f$M(qh, dh, &pl);
    lo_vf$M ql = (((2.0f - ph) - pl) - qh * dl) / dh;
    lo_vf$M sb = 1.0f - qh;
    return sb + (((1.0f - sb) - qh) - ql);
}
// @helper lo_vm_tanh_f$M
/* Cephes tanhf.c: x + x^3 P(x^2) below 0.625, else sign(x) (1 - 2 / (E + 1)), E = e^(2|x|) with |x|
   clamped to 10 (tanh rounds to 1 from 9.02 on). Rounded plainly that form is 1.33 ulp off near
   0.625, so it is carried in float-float: E = eh + el from exp's last step (before its rounding), E + 1
   by Fast2Sum, 2 / D = qh + ql with the residual 2 - qh dh exact (Dekker's product), 1 - qh by
   Fast2Sum. Each branch runs only for vectors with a lane in it. NaN lanes are the C library's tanhf;
   zero keeps its sign. */
static inline lo_vf$M lo_vm_tanh_f$M(lo_vf$M x)
{
    lo_vi$M sign = (lo_vi$M)x & (-0x7fffffff - 1);
    lo_vf$M ax = (lo_vf$M)((lo_vi$M)x ^ sign);
    lo_vi$M bad = ~(lo_vi$M)(ax <= 0x1.fffffep127f);
    lo_vi$M small = (lo_vi$M)(ax < 0.625f);
    lo_vf$M y = ax;
    if (lo_vm_any$N((lo_vl$N)small)) {  /* each branch only for vectors with a lane in it */
        lo_vf$M xs = lo_vm_sel_f$M(small, ax, ax - ax);
        lo_vf$M z = xs * xs;
        lo_vf$M p = (((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z + 1.33314422036e-1f) * z
                    - 3.33332819422e-1f;
        y = xs + xs * z * p;
    }
    if (lo_vm_any$N((lo_vl$N)~small))
        y = lo_vm_sel_f$M(small, y, lo_vm_tanhbig_f$M(lo_vm_sel_f$M((lo_vi$M)(ax < 10.0f), ax, ax - ax + 10.0f)));
    y = (lo_vf$M)((lo_vi$M)y | sign);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = tanhf(x[i]);
    return y;
}
// @helper lo_vm_pick3_f$M
/* a in the lanes of neither mask, b in m2's, c in m3's (m3 lanes are m2 lanes too). */
static inline lo_vf$M lo_vm_pick3_f$M(lo_vi$M m2, lo_vi$M m3, float a, float b, float c)
{
    lo_vf$M zero = {0};
    return lo_vm_sel_f$M(m3, zero + c, lo_vm_sel_f$M(m2, zero + b, zero + a));
}
// @helper lo_vm_erf_f$M
/* erf on f32 lanes, no C library lanes. |x| < 0.75: x + x P(x^2), P of degree 5 (the exact leading x keeps
   the result within an ulp). [0.75, 1.5), [1.5, 2.5), [2.5, 3.92): erf(c) + p(|x| - c) around c = 1.125, 2,
   3.25 with erf(c) rounded to f32 and p a degree-8 fit of the rest, so only p's small value carries
   rounding errors (|x| - c is exact); the lanes pick their interval's coefficients. From 3.92 on the result
   is 1 (erf rounds to 1 from 3.9192). Least-squares fits on Chebyshev nodes, coefficients rounded to f32.
   NaN stays NaN; zero keeps its sign. */
static inline lo_vf$M lo_vm_erf_f$M(lo_vf$M x)
{
    lo_vi$M sign = (lo_vi$M)x & (-0x7fffffff - 1);
    lo_vf$M ax = (lo_vf$M)((lo_vi$M)x ^ sign);
    lo_vi$M small = (lo_vi$M)(ax < 0.75f), m2 = (lo_vi$M)(ax >= 1.5f), m3 = (lo_vi$M)(ax >= 2.5f);
    lo_vf$M z = ax * ax;
    lo_vf$M ps = ((((-0x1.625aep-11f * z + 0x1.4f427ap-8f) * z - 0x1.b7ab4cp-6f) * z + 0x1.ce2aeap-4f) * z
                  - 0x1.81273ap-2f) * z + 0x1.06eba8p-3f;
    lo_vf$M ys = ax + ax * ps;
    lo_vf$M t = ax - lo_vm_pick3_f$M(m2, m3, 1.125f, 2.0f, 3.25f);
    lo_vf$M p = lo_vm_pick3_f$M(m2, m3, -0x1.71706ap-8f, 0x1.76764p-10f, -0x1.793e5ap-14f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.36b09p-7f, -0x1.bbcbf4p-9f, 0x1.99a71ep-13f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.fb898ep-7f, 0x1.035cc6p-11f, -0x1.0d8796p-12f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, -0x1.f64088p-5f, 0x1.ace776p-7f, 0x1.3fc098p-12f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.ca5a94p-6f, -0x1.1a32f8p-5f, -0x1.2e428ep-12f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.4cb386p-3f, 0x1.8b0afap-5f, 0x1.9d1de2p-13f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, -0x1.6ea6d2p-2f, -0x1.529b6ap-5f, -0x1.8d4e1ep-14f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.45e99cp-2f, 0x1.529b9ep-6f, 0x1.e8fc0ap-16f);
    p = p * t + lo_vm_pick3_f$M(m2, m3, 0x1.0744f8p-26f, -0x1.83823p-26f, -0x1.be390cp-27f);
    lo_vf$M y = lo_vm_sel_f$M(small, ys, lo_vm_pick3_f$M(m2, m3, 0x1.c6dad2p-1f, 0x1.fd9ae2p-1f, 0x1.ffff7p-1f) + p);
    lo_vi$M one = (lo_vi$M)(ax >= 3.92f);
    return (lo_vf$M)(((one & 0x3f800000) | (~one & (lo_vi$M)y)) | sign);
}
// @helper lo_vm_log2tab
/* For pow's log2: 16 intervals of m in [sqrt(1/2), sqrt(2)) (bits - 0x3f3504f3 in steps of 2^19): 1/c rounded to
   f32 for c the interval's centre (exactly 1 for the interval holding 1, so x near 1 keeps its relative
   precision), and -log2 of that f32 as float-float (hi, lo), from a 200-bit log. */
static const float lo_vm_log2tab[3][16] = {
    {0x1.62362ep+0f, 0x1.5387ep+0f, 0x1.4604b6p+0f, 0x1.398a56p+0f, 0x1.2dfb7ap+0f, 0x1.233fp+0f, 0x1.193f4p+0f,
     0x1.0fe96cp+0f, 0x1.072d26p+0f, 0x1p+0f, 0x1.de4c28p-1f, 0x1.c3e984p-1f, 0x1.ac4928p-1f, 0x1.9701cep-1f,
     0x1.83be1ep-1f, 0x1.72382ep-1f},
    {-0x1.dfb606p-2f, -0x1.a12d12p-2f, -0x1.652e58p-2f, -0x1.2b871p-2f, -0x1.e8147cp-3f, -0x1.7d1f52p-3f,
     -0x1.15e6ep-3f, -0x1.6454d8p-4f, -0x1.46bf36p-5f, 0.0f, 0x1.925f8p-4f, 0x1.70d9p-3f, 0x1.07c074p-2f,
     0x1.530944p-2f, 0x1.9aab62p-2f, 0x1.defd4cp-2f},
    {-0x1.0d25bcp-27f, 0x1.b6fcc8p-27f, 0x1.67990ep-27f, -0x1.84423ep-27f, -0x1.7e05c4p-28f, 0x1.5a9ef4p-28f,
     0x1.fd67a2p-28f, 0x1.bae30cp-29f, -0x1.40dabep-30f, 0.0f, -0x1.c55ee8p-29f, 0x1.533764p-28f,
     -0x1.588c42p-27f, -0x1.88f9aap-28f, -0x1.415c72p-28f, -0x1.eb913ap-27f},
};
// @helper lo_vm_log2ff_f$M
/* log2(x) = *lo + hi (returned) as float-float, relative error about 2^-34, for positive normal finite x:
   x = 2^e m, m in [sqrt(1/2), sqrt(2)), m's interval i gives 1/c and -log2(1/c) (the table above); z = m/c - 1 is
   exact as zh + zl (Dekker's product; |z| < 0.04), log2(1 + z) = log2(e) (z - z^2/2 + z^3 R(z)) with z log2(e)
   and z^2/2 log2(e) as float-float, R the Taylor series to z^5 (truncation 2^-35). e + T + those two are summed
   with TwoSum, every small term joins before the last Fast2Sum. */
static inline lo_vf$M lo_vm_log2ff_f$M(lo_vf$M x, lo_vf$M *lo)
{
    lo_vi$M d = (lo_vi$M)x - 0x3f3504f3;
    lo_vi$M ei = d >> 23, idx = (d >> 19) & 15;
    lo_vf$M m = (lo_vf$M)((lo_vi$M)x - (ei << 23)), ic, th, tl;
    for (int i = 0; i < $M; i++) {
        ic[i] = lo_vm_log2tab[0][idx[i]];
        th[i] = lo_vm_log2tab[1][idx[i]];
        tl[i] = lo_vm_log2tab[2][idx[i]];
    }
    lo_vf$M lg = m - m + 0x1.715476p+0f;  /* log2(e) = lg + 0x1.4ae0cp-26 */
    lo_vf$M pl, ph = lo_vm_twoprod_f$M(m, ic, &pl);
    lo_vf$M z0 = ph - 1.0f, zh = z0 + pl, zl = (z0 - zh) + pl;
    lo_vf$M al, ah = lo_vm_twoprod_f$M(zh, lg, &al);
    al = al + (zh * 0x1.4ae0cp-26f + zl * 0x1.715476p+0f);
    lo_vf$M ql, qh = lo_vm_twoprod_f$M(zh, zh, &ql);
    lo_vf$M bl, bh = lo_vm_twoprod_f$M(0.5f * qh, lg, &bl);
    bl = bl + ((0.5f * ql + zh * zl) * 0x1.715476p+0f + (0.5f * qh) * 0x1.4ae0cp-26f);
    lo_vf$M rz = (((((-0.125f * zh + 0x1.24924ap-3f) * zh - 0x1.555556p-3f) * zh + 0.2f) * zh - 0.25f) * zh
                  + 0x1.555556p-2f);
    lo_vf$M r3 = (zh * qh) * rz * 0x1.715476p+0f;
    lo_vf$M t1, t2, t3;
    lo_vf$M s1 = lo_vm_twosum_f$M(__builtin_convertvector(ei, lo_vf$M), th, &t1);
    lo_vf$M s2 = lo_vm_twosum_f$M(s1, ah, &t2);
    lo_vf$M s3 = lo_vm_twosum_f$M(s2, -bh, &t3);
    lo_vf$M c = ((t1 + t2) + t3) + (((tl + al) - bl) + r3);
    lo_vf$M hi = s3 + c;
    *lo = (s3 - hi) + c;
    return hi;
}
// @helper lo_vm_pow_f$M
/* pow(x, y) = 2^(y log2 x) on f32 lanes: log2 x as float-float (log2ff_f), w = y log2 x as float-float
   (Dekker's product, y clamped to 2^100: beyond, w is out of range unless log2 x = 0), w = k + r with
   k = round(w), then exp2's tail (r in 12 + 12 bits times ln2 in pieces, exp2k_f) with w's low part
   joining ul. The fast path is x positive, normal and finite, y finite, w in [-126, 127] (normal
   results); every other lane (x <= 0 with C's integer-y rules, +-0, subnormal x, inf, NaN, overflow,
   underflow) is the C library's powf, so its IEEE special cases hold by construction. */
static inline lo_vf$M lo_vm_pow_f$M(lo_vf$M x, lo_vf$M y)
{
    lo_vi$M ok = (lo_vi$M)(x >= 0x1p-126f) & (lo_vi$M)(x <= 0x1.fffffep127f) & (lo_vi$M)(y >= -0x1.fffffep127f)
                 & (lo_vi$M)(y <= 0x1.fffffep127f);
    lo_vf$M one = {0};
    one += 1.0f;
    lo_vf$M ll, lh = lo_vm_log2ff_f$M(lo_vm_sel_f$M(ok, x, one), &ll);
    lo_vf$M yc = lo_vm_sel_f$M(ok, y, one - one);
    yc = lo_vm_sel_f$M((lo_vi$M)(yc > 0x1p100f), one * 0x1p100f, lo_vm_sel_f$M((lo_vi$M)(yc < -0x1p100f), one * -0x1p100f, yc));
    lo_vf$M wl, wh = lo_vm_twoprod_f$M(yc, lh, &wl);
    wl = wl + yc * ll;
    ok &= (lo_vi$M)(wh >= -126.0f) & (lo_vi$M)(wh <= 127.0f);
    wh = lo_vm_sel_f$M(ok, wh, one - one);
    wl = lo_vm_sel_f$M(ok, wl, one - one);
    lo_vf$M t = wh + 0x1.8p23f;
    lo_vf$M r0 = wh - (t - 0x1.8p23f);
    lo_vf$M r = r0 + wl, rl = (r0 - r) + wl;
    lo_vf$M rh = (r + 0x1.8p11f) - 0x1.8p11f;
    lo_vf$M u = rh * 0x1.62ep-1f;
    lo_vf$M ul = (r - rh) * 0x1.62ep-1f + (r * 0x1.0bfbe8p-15f + rl * 0x1.62e43p-1f);
    lo_vf$M res = lo_vm_exp2k_f$M(u, ul, (lo_vi$M)t - 0x4b400000);
    if (lo_vm_any$N((lo_vl$N)~ok))
        for (int i = 0; i < $M; i++) if (!ok[i]) res[i] = powf(x[i], y[i]);
    return res;
}
// @helper lo_vm_exp_f$M
/* Lanes off the fast path (NaN, +-inf, overflow above 88, subnormal or zero results below -87.33)
   are the C library's expf, one at a time. */
static inline lo_vf$M lo_vm_exp_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~((lo_vi$M)(x >= -87.33f) & (lo_vi$M)(x <= 88.0f));
    lo_vf$M y = lo_vm_expfast_f$M(lo_vm_sel_f$M(bad, x - x, x));
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = expf(x[i]);
    return y;
}
// @helper lo_vm_expm1_f$M
/* expm1(x) = (2^k - 1) + 2^k u + 2^k u^2/2 + small terms, x = k ln2 + u + ul as exp's. The large terms
   are exact (2^k - 1 as a TwoSum of 2^k and -1, so the -1 never gets lost; u^2/2 through Dekker's split
   u = uh + ul2, uh^2/2 exact) and summed with TwoSum, so only the small terms (ul, u ul, ul2 (u + uh)/2,
   u^3 q1(u), the sums' errors) join before the last rounding; k = 0 (|x| < 0.35) is u = x itself.
   x < -17.5 is -1; NaN, +inf and x > 88 are the C library's expm1f; zero keeps its sign. */
static inline lo_vf$M lo_vm_expm1_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~(lo_vi$M)(x <= 88.0f);
    lo_vi$M neg = (lo_vi$M)(x < -17.5f);
    lo_vf$M xc = (lo_vf$M)(~(bad | neg) & (lo_vi$M)x);
    lo_vi$M k;
    lo_vf$M ul, u = lo_vm_expred_f$M(xc, &k, &ul);
    lo_vf$M p = (lo_vf$M)((k + 127) << 23);
    lo_vf$M cu = u * 4097.0f, uh = cu - (cu - u);
    lo_vf$M m1 = xc - xc - 1.0f;
    lo_vf$M al, a = lo_vm_twosum_f$M(p, m1, &al);
    lo_vf$M t1, t = lo_vm_twosum_f$M(a, p * u, &t1);
    lo_vf$M t3, t2 = lo_vm_twosum_f$M(t, p * (0.5f * (uh * uh)), &t3);
    lo_vf$M small = ((ul + u * ul) + 0.5f * ((u - uh) * (u + uh))) + u * u * u * lo_vm_expq1_f$M(u);
    lo_vf$M y = t2 + ((al + (t1 + t3)) + p * small);
    y = lo_vm_sel_f$M(neg, m1, y);
    y = lo_vm_sel_f$M((lo_vi$M)(x == 0.0f), x, y);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = expm1f(x[i]);
    return y;
}
// @helper lo_vm_exp2_f$M
/* 2^x = 2^k e^(r ln2), k = round(x), r = x - k exact (|r| <= 1/2); r = rh + rl with rh a multiple of
   2^-12 (12 bits) and ln2 = L1 + L2 with L1 of 12 bits, so rh L1 is exact and the rest is tiny.
   Lanes off [-126, 127] (NaN, +-inf, overflow, subnormal and zero results) are the C library's
   exp2f. */
static inline lo_vf$M lo_vm_exp2_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~((lo_vi$M)(x >= -126.0f) & (lo_vi$M)(x <= 127.0f));
    lo_vf$M xc = lo_vm_sel_f$M(bad, x - x, x);
    lo_vf$M t = xc + 0x1.8p23f;
    lo_vf$M r = xc - (t - 0x1.8p23f);
    lo_vf$M rh = (r + 0x1.8p11f) - 0x1.8p11f;
    lo_vf$M u = rh * 0x1.62ep-1f;
    lo_vf$M ul = (r - rh) * 0x1.62ep-1f + r * 0x1.0bfbe8p-15f;
    lo_vf$M y = lo_vm_exp2k_f$M(u, ul, (lo_vi$M)t - 0x4b400000);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = exp2f(x[i]);
    return y;
}
// @helper lo_vm_logq_f$M
/* log1p(f) = f - *h + f^3 P(f) (returned) for 1 + f in [sqrt(1/2), sqrt(2)), *h = f^2/2; P see logsplit. */
static inline lo_vf$M lo_vm_logq_f$M(lo_vf$M f, lo_vf$M *h)
{
    lo_vf$M p = (((((((0x1.116b4cp-4f * f - 0x1.dd09b8p-4f) * f + 0x1.e79df4p-4f) * f - 0x1.fc5d96p-4f) * f
                  + 0x1.232eb2p-3f) * f - 0x1.555a74p-3f) * f + 0x1.99a528p-3f) * f - 0x1.00000ap-2f) * f
                + 0x1.555546p-2f;
    lo_vf$M ff = f * f;
    *h = 0.5f * ff;
    return ff * f * p;
}
// @helper lo_vm_logparts_f$M
/* For positive normal x: x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)) by integer arithmetic on
   the bits (f exact); returns f, sets *e. */
static inline lo_vf$M lo_vm_logparts_f$M(lo_vf$M x, lo_vf$M *e)
{
    lo_vi$M bits = (lo_vi$M)x;
    lo_vi$M ei = (bits - 0x3f3504f3) >> 23;
    *e = __builtin_convertvector(ei, lo_vf$M);
    return (lo_vf$M)(bits - (ei << 23)) - 1.0f;
}
// @helper lo_vm_logsplit_f$M
/* x = 2^e (1 + f) as above; returns f, sets *e, *p3 = f^3 P(f) and *h = f^2/2, so log1p(f) = f - h + p3.
   P is a degree-8 least-squares fit (relative error of log1p 2^-29.4). */
static inline lo_vf$M lo_vm_logsplit_f$M(lo_vf$M x, lo_vf$M *e, lo_vf$M *p3, lo_vf$M *h)
{
    lo_vf$M f = lo_vm_logparts_f$M(x, e);
    *p3 = lo_vm_logq_f$M(f, h);
    return f;
}
// @helper lo_vm_log_f$M
/* log(x) = e ln2 + log1p(f); e ln2 = C1 + C2 with e C1 exact, e C1 + f split exactly (Fast2Sum), so
   the small terms join before the one last rounding. All positive floats scanned: at most 0.812
   ulp. Lanes off the fast path (NaN, x <= 0, subnormal x, +inf) are the C library's logf. */
static inline lo_vf$M lo_vm_log_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~((lo_vi$M)(x >= 0x1p-126f) & (lo_vi$M)(x <= 0x1.fffffep127f));
    lo_vf$M e, p3, h, f = lo_vm_logsplit_f$M(lo_vm_sel_f$M(bad, x - x + 1.0f, x), &e, &p3, &h);
    lo_vf$M c = (p3 + e * 0x1.7f7d1cp-20f) - h;
    lo_vf$M a = e * 0x1.62e4p-1f;
    lo_vf$M s = a + f;
    lo_vf$M y = s + (((a - s) + f) + c);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = logf(x[i]);
    return y;
}
// @helper lo_vm_log1p_f$M
/* log1p(x) as log's core: x itself is f near 0 (-0.2928 < x < 0.4142, e = 0); elsewhere u = 1 + x is split
   (2^e (1 + f)) and the rounding error of the addition joins the small terms as (x - (u - 1)) / u
   (u - 1 is exact there). Lanes off the fast path (NaN, x <= -1, +inf) are the C library's
   log1pf; zero keeps its sign. */
static inline lo_vf$M lo_vm_log1p_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~((lo_vi$M)(x > -1.0f) & (lo_vi$M)(x <= 0x1.fffffep127f));
    lo_vf$M xc = lo_vm_sel_f$M(bad, x - x, x);
    lo_vf$M u = 1.0f + xc;
    lo_vi$M near = (lo_vi$M)(xc > -0.2928f) & (lo_vi$M)(xc < 0.4142f);
    lo_vf$M e, h, f = lo_vm_logparts_f$M(lo_vm_sel_f$M(near, u - u + 1.0f, u), &e);
    lo_vf$M cu = lo_vm_sel_f$M(near, xc - xc, (xc - (u - 1.0f)) / u);
    f = lo_vm_sel_f$M(near, xc, f);
    lo_vf$M p3 = lo_vm_logq_f$M(f, &h);
    lo_vf$M c = ((p3 + e * 0x1.7f7d1cp-20f) + cu) - h;
    lo_vf$M a = e * 0x1.62e4p-1f;
    lo_vf$M s = a + f;
    lo_vf$M y = s + (((a - s) + f) + c);
    y = lo_vm_sel_f$M((lo_vi$M)(xc == 0.0f), xc, y);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = log1pf(x[i]);
    return y;
}
// @helper lo_vm_log2_f$M
/* log2(x) = e + log1p(f) log2(e). f = fh + fl with fh a multiple of 2^-12 (11 bits), so f^2/2 =
   fh^2/2 (exact) + fl (f + fh)/2, and log1p(f) = lh + ll with lh = f - fh^2/2 split exactly
   (Fast2Sum). lh = gh + gl with gh its upper 12 bits (Dekker's split) and log2(e) = H + L with H
   of 12 bits: gh H is exact and e + gh H splits exactly, so only small terms (gl H, lh L, ll log2(e)) join before the last
   rounding. Lanes off the fast path as log's. */
static inline lo_vf$M lo_vm_log2_f$M(lo_vf$M x)
{
    lo_vi$M bad = ~((lo_vi$M)(x >= 0x1p-126f) & (lo_vi$M)(x <= 0x1.fffffep127f));
    lo_vf$M e, p3, h, f = lo_vm_logsplit_f$M(lo_vm_sel_f$M(bad, x - x + 1.0f, x), &e, &p3, &h);
    lo_vf$M fh = (f + 0x1.8p11f) - 0x1.8p11f;
    lo_vf$M hh = 0.5f * (fh * fh);
    lo_vf$M lh = f - hh;
    lo_vf$M ll = ((f - lh) - hh) + (p3 - 0.5f * ((f - fh) * (f + fh)));
    lo_vf$M gc = lh * 4097.0f;
    lo_vf$M gh = gc - (gc - lh);
    lo_vf$M b = gh * 0x1.714p0f;
    lo_vf$M a = e + b;
    lo_vf$M c = ((lh - gh) * 0x1.714p0f + lh * 0x1.47652cp-12f) + ll * 0x1.715476p0f;
    lo_vf$M y = a + (((e - a) + b) + c);
    if (lo_vm_any$N((lo_vl$N)bad))
        for (int i = 0; i < $M; i++) if (bad[i]) y[i] = log2f(x[i]);
    return y;
}
"""

_SECTION = re.compile(r"^// @helper (\S+)\n", re.M)


@dataclass(frozen=True)
class _Glue:
    """How one ISA talks to the f64 cores: widths, casts, the any-lane test, f32 <-> 2 x f64."""

    n: int
    """f64 lanes of a native vector."""
    f32: str
    f64: str
    any: str
    """C expression: is any lane of `lo_vl<n>` mask `m` set."""
    widen: tuple[str, str]
    """f64 low / high halves (native f64 vectors) of the f32 vector `x`."""
    narrow: str
    """The f32 vector of f64 halves `lo`, `hi`."""
    sqrt_f32: str
    sqrt_f64: str
    fma_f32: str
    """C expression: the fused a * b + c of native f32 vectors `a`, `b`, `c` (unfused without FMA)."""


_GLUE: dict[str, _Glue] = {
    "sse2": _Glue(
        2, "__m128", "__m128d", "_mm_movemask_epi8((__m128i)m) != 0",
        ("_mm_cvtps_pd(x)", "_mm_cvtps_pd(_mm_movehl_ps(x, x))"),
        "_mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi))", "_mm_sqrt_ps", "_mm_sqrt_pd",
        "(__m128)a * (__m128)b + (__m128)c",  # no FMA in SSE2: two roundings (-ffp-contract=off keeps them)
    ),
    "avx2": _Glue(
        4, "__m256", "__m256d", "!_mm256_testz_si256((__m256i)m, (__m256i)m)",
        ("_mm256_cvtps_pd(_mm256_castps256_ps128(x))", "_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))"),
        "_mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo))", "_mm256_sqrt_ps", "_mm256_sqrt_pd",
        "_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c)",  # the avx2 target assumes FMA (runtime/isa.py: -mfma)
    ),
    "avx512": _Glue(
        8, "__m512", "__m512d", "_mm512_test_epi64_mask((__m512i)m, (__m512i)m) != 0",
        ("_mm512_cvtps_pd(_mm512_castps512_ps256(x))",
         "_mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)))"),
        "_mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo))),"
        " _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1))",
        "_mm512_sqrt_ps", "_mm512_sqrt_pd",
        "_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c)",
    ),
    "neon": _Glue(
        2, "float32x4_t", "float64x2_t", "vmaxvq_u32((uint32x4_t)m) != 0",
        ("vcvt_f64_f32(vget_low_f32(x))", "vcvt_high_f64_f32(x)"),
        "vcvt_high_f32_f64(vcvt_f32_f64(lo), hi)", "vsqrtq_f32", "vsqrtq_f64",
        "vfmaq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b)",
    ),
}  # fmt: skip


def _core_helpers(n: int, any_expr: str, fma_f32: str) -> list[Helper]:
    text = _CORE.replace("$N", str(n)).replace("$B", str(8 * n))
    parts = _SECTION.split(text)
    out = [Helper(name, code.strip() + "\n") for name, code in zip(parts[1::2], parts[2::2], strict=True)]
    out.insert(2, Helper(
        f"lo_vm_any{n}",
        f"static inline int lo_vm_any{n}(lo_vl{n} m)\n{{\n    return {any_expr};\n}}\n",
    ))  # fmt: skip
    lanes = [str(i) for i in range(2 * n)]
    text32 = (_CORE_F32.replace("$LO", ", ".join(lanes[:n])).replace("$HI", ", ".join(lanes[n:]))
              .replace("$ALL", ", ".join(lanes)).replace("$M", str(2 * n)).replace("$N", str(n))
              .replace("$B", str(8 * n)).replace("$H", str(4 * n)))
    text32 += _CORE_F32_AFN.replace("$FMA", fma_f32).replace("$M", str(2 * n)).replace("$N", str(n))
    parts = _SECTION.split(text32)
    out += [Helper(name, code.strip() + "\n") for name, code in zip(parts[1::2], parts[2::2], strict=True)]
    return out


def _wrapper(g: _Glue, fn: str, elt: str) -> Helper:
    """`lo_vm_<fn>_<elt>x<lanes>` on native vectors."""
    n = g.n
    core = f"lo_vm_{fn}_d{n}"
    if elt == "f64":
        name = f"lo_vm_{fn}_f64x{n}"
        if fn == "rsqrt":
            body = f"return ({g.f64})(1.0 / (lo_vd{n})({g.sqrt_f64}(x)));"
            return Helper(name, f"static inline {g.f64} {name}({g.f64} x)\n{{\n    {body}\n}}\n")
        if fn in BINARY_FUNCTIONS:
            return Helper(name, f"static inline {g.f64} {name}({g.f64} x, {g.f64} y)\n{{\n"
                                f"    return ({g.f64}){core}((lo_vd{n})x, (lo_vd{n})y);\n}}\n")  # fmt: skip
        return Helper(name, f"static inline {g.f64} {name}({g.f64} x)\n{{\n    return ({g.f64}){core}((lo_vd{n})x);\n}}\n")
    name = f"lo_vm_{fn}_f32x{2 * n}"
    if fn == "rsqrt":
        # 1 / sqrt correctly rounded twice: within 1 ulp, no widening needed
        lanes = ", ".join(["1.0f"] * 2 * n)
        vf = f"float __attribute__((vector_size({8 * n})))"
        body = f"return ({g.f32})(({vf}){{{lanes}}} / ({vf}){g.sqrt_f32}(x));"
        return Helper(name, f"static inline {g.f32} {name}({g.f32} x)\n{{\n    {body}\n}}\n")
    if fn in NATIVE_F32 or fn in AFN_F32:
        m = 2 * n
        if fn in BINARY_FUNCTIONS:
            return Helper(name, f"static inline {g.f32} {name}({g.f32} x, {g.f32} y)\n{{\n"
                                f"    return ({g.f32})lo_vm_{fn}_f{m}((lo_vf{m})x, (lo_vf{m})y);\n}}\n")  # fmt: skip
        return Helper(name, f"static inline {g.f32} {name}({g.f32} x)\n{{\n    return ({g.f32})lo_vm_{fn}_f{m}((lo_vf{m})x);\n}}\n")
    lo_x, hi_x = g.widen
    if fn in BINARY_FUNCTIONS:
        lo_y, hi_y = (w.replace("(x", "(y").replace("x)", "y)") for w in g.widen)
        calls = (f"{g.f64} lo = ({g.f64}){core}((lo_vd{n}){lo_x}, (lo_vd{n}){lo_y});\n"
                 f"    {g.f64} hi = ({g.f64}){core}((lo_vd{n}){hi_x}, (lo_vd{n}){hi_y});")  # fmt: skip
        params = f"{g.f32} x, {g.f32} y"
    else:
        calls = (f"{g.f64} lo = ({g.f64}){core}((lo_vd{n}){lo_x});\n"
                 f"    {g.f64} hi = ({g.f64}){core}((lo_vd{n}){hi_x});")  # fmt: skip
        params = f"{g.f32} x"
    return Helper(name, f"static inline {g.f32} {name}({params})\n{{\n    {calls}\n    return {g.narrow};\n}}\n")


AFN_F32: tuple[str, ...] = ("exp_afn", "exp2_afn")
"""Row keys of the fast f32 cores that `fastmath<afn>` (or `fast`) selects on `math.exp` / `math.exp2`
(c_ops.AFN_KEYS; docs/vector_math.md, "fastmath<afn>"): FMA where the ISA has it, a short polynomial, no
exact split. Only f32 on the SIMD ISAs has them; every other afn op prints its accurate row."""

ULP_BOUNDS_AFN: dict[str, float] = {"exp_afn": 2.0, "exp2_afn": 2.0}
"""Documented f32 accuracy of the `AFN_F32` cores, every input (measured maxima in docs/vector_math.md)."""

# The fast (afn) f32 cores, instantiated like _CORE_F32; `$FMA` is the ISA's fused a * b + c on native
# vectors `a`, `b`, `c` (an unfused a * b + c where the ISA has none: SSE2).
_CORE_F32_AFN = r"""
// @helper lo_vm_fma_f$M
/* a * b + c, fused where the ISA has FMA: an intrinsic, so that -ffp-contract=off cannot split it. */
static inline lo_vf$M lo_vm_fma_f$M(lo_vf$M a, lo_vf$M b, lo_vf$M c)
{
    return (lo_vf$M)($FMA);
}
// @helper lo_vm_fmac_f$M
/* a * b + c for a constant c. */
static inline lo_vf$M lo_vm_fmac_f$M(lo_vf$M a, lo_vf$M b, float c)
{
    return lo_vm_fma_f$M(a, b, (lo_vf$M){0} + c);
}
// @helper lo_vm_exp_afn_f$M
/* e^x under fastmath<afn>: x = k ln2 + r (Cody-Waite, ln2 = C1 + C2, k C1 exact, |r| <= ln2/2), e^r = 1 + r +
   r^2 u(r) with u a degree-4 weighted least-squares fit of (e^r - 1 - r) / r^2 (relative error 2^-28, each
   coefficient rounded to f32 before the next is fitted), Horner with FMA, 2^k the exponent field and
   2^k + 2^k (r + r^2 u) one fused rounding. Lanes off [-87.33, 88] (NaN, +-inf, overflow, subnormal and zero
   results) compute on 0 and are then the C library's expf, as in the accurate core (bit for bit). */
static inline lo_vf$M lo_vm_exp_afn_f$M(lo_vf$M x)
{
    lo_vi$M ok = (lo_vi$M)(x >= -87.33f) & (lo_vi$M)(x <= 88.0f);
    lo_vf$M xc = (lo_vf$M)(ok & (lo_vi$M)x);
    lo_vf$M t = lo_vm_fmac_f$M(xc, (lo_vf$M){0} + 1.44269504f, 0x1.8p23f);
    lo_vf$M kf = t - 0x1.8p23f;
    lo_vf$M r = lo_vm_fma_f$M(kf, (lo_vf$M){0} - 0x1.62e4p-1f, xc);
    r = lo_vm_fma_f$M(kf, (lo_vf$M){0} - 0x1.7f7d1cp-20f, r);
    lo_vf$M u = lo_vm_fmac_f$M((lo_vf$M){0} + 0x1.685eecp-10f, r, 0x1.123d3ap-7f);
    u = lo_vm_fmac_f$M(u, r, 0x1.555b8ep-5f);
    u = lo_vm_fmac_f$M(u, r, 0x1.55548cp-3f);
    u = lo_vm_fmac_f$M(u, r, 0x1.fffff8p-2f);
    lo_vf$M s = (lo_vf$M)((((lo_vi$M)t - 0x4b400000) + 127) << 23);
    lo_vf$M y = lo_vm_fma_f$M(lo_vm_fma_f$M(r * r, u, r), s, s);
    if (lo_vm_any$N((lo_vl$N)~ok))
        for (int i = 0; i < $M; i++) if (!ok[i]) y[i] = expf(x[i]);
    return y;
}
// @helper lo_vm_exp2_afn_f$M
/* 2^x under fastmath<afn>: k = round(x), r = x - k exact, 2^r = 1 + r v(r) with v a degree-5 minimax
   fit (SLEEF 3.5's exp2f_u10 coefficients; 1 + r v fused, then times 2^k exactly). Lanes off [-126, 127]
   are the C library's exp2f. */
static inline lo_vf$M lo_vm_exp2_afn_f$M(lo_vf$M x)
{
    lo_vi$M ok = (lo_vi$M)(x >= -126.0f) & (lo_vi$M)(x <= 127.0f);
    lo_vf$M xc = (lo_vf$M)(ok & (lo_vi$M)x);
    lo_vf$M t = xc + 0x1.8p23f;
    lo_vf$M r = xc - (t - 0x1.8p23f);
    lo_vf$M v = lo_vm_fmac_f$M((lo_vf$M){0} + 0.1535920892e-3f, r, 0.1339262701e-2f);
    v = lo_vm_fmac_f$M(v, r, 0.9618384764e-2f);
    v = lo_vm_fmac_f$M(v, r, 0.5550347269e-1f);
    v = lo_vm_fmac_f$M(v, r, 0.2402264476e+0f);
    v = lo_vm_fmac_f$M(v, r, 0.6931471825e+0f);
    lo_vf$M y = lo_vm_fmac_f$M(v, r, 1.0f) * (lo_vf$M)((((lo_vi$M)t - 0x4b400000) + 127) << 23);
    if (lo_vm_any$N((lo_vl$N)~ok))
        for (int i = 0; i < $M; i++) if (!ok[i]) y[i] = exp2f(x[i]);
    return y;
}
"""

@functools.cache
def helpers_for(isa_name: str) -> tuple[Helper, ...]:
    g = _GLUE.get(isa_name)
    if g is None:
        return ()
    out = _core_helpers(g.n, g.any, g.fma_f32)
    for fn in (*UNARY_FUNCTIONS, *BINARY_FUNCTIONS):
        for elt in ("f32", "f64"):
            out.append(_wrapper(g, fn, elt))
    out += [_wrapper(g, fn, "f32") for fn in AFN_F32]
    return tuple(out)


def helpers(isa) -> list[Helper]:  # noqa: ANN001 - an IsaTable (c_helpers.HelperSource)
    """The vector math helpers of `isa` (none for the scalar target, which calls libm)."""
    return list(helpers_for(isa.name))


@functools.cache
def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """(operation key, element type) -> template, for the vector math functions of one ISA."""
    g = _GLUE.get(isa_name)
    if g is None:
        return {}
    out: dict[tuple[str, str], str] = {}
    for elt, lanes in (("f32", 2 * g.n), ("f64", g.n)):
        for fn in UNARY_FUNCTIONS:
            out[(fn, elt)] = f"{{dst}} = lo_vm_{fn}_{elt}x{lanes}({{a}});"
        for fn in BINARY_FUNCTIONS:
            out[(fn, elt)] = f"{{dst}} = lo_vm_{fn}_{elt}x{lanes}({{a}}, {{b}});"
    for fn in AFN_F32:
        out[(fn, "f32")] = f"{{dst}} = lo_vm_{fn}_f32x{2 * g.n}({{a}});"
    return out


TRANSCENDENTALS: frozenset[str] = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "tanh", "erf", "pow",
    "atan", "atan2", "cbrt",
})  # fmt: skip
"""Operation keys whose C (libm on scalars, these helpers on vectors) is correct to some ulps but
not bit-equal to numpy's, and so not to the interpreter's."""


def uses_transcendentals(module) -> bool:  # noqa: ANN001 - any xDSL operation (a module, a function)
    """Whether `module` computes a transcendental, on scalars or vectors: its compiled results
    agree with the interpreter's to the function's ulps (`ULP_BOUNDS`, libm's), not bit for bit."""
    from loopopt.targets.c_ops import BINARY, UNARY

    return any({**UNARY, **BINARY}.get(type(op)) in TRANSCENDENTALS for op in module.walk())
