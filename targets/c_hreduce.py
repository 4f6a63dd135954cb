"""Horizontal-reduction epilogues: a vector accumulator to one scalar, `lo_hreduce_<kind>_<T>x<N>`.

Every reduction halves the vector repeatedly (lane k combined with lane k + N/2, then N/4, ...),
so all ISAs add in the same order. The float sums on SSE2/AVX2 use shuffles; the others spill
the lanes and combine them with the scalar table's own operation (so min/max propagate NaN
exactly like scalar code does); compilers turn those loops into shuffles too. NEON and AVX-512
rows call across-lane instructions directly where those are exact (`vaddvq`, `vminvq`,
`_mm512_reduce_add_ps`) and only use these helpers for the rest.

Integer sums and products wrap: the generic tree combines lanes with the scalar table's
unsigned-cast rows, and x86's 32/64-bit sums (and the products, min/max and bitwise folds it has
lane instructions for) are halving trees of `_mm*_add_epi*`, `_mm*_mullo_epi*`, ... (not
`_mm512_reduce_add_epi32/64`, whose header adds signed lanes: undefined behaviour on overflow,
reported by UBSan).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable
from loopopt.targets.isa_scalar import SCALAR

KINDS_FLOAT = ("add", "mul", "min", "max")
KINDS_INT = ("add", "mul", "min", "max", "umin", "umax", "and", "or")
_SCALAR_OP = {"umin": "minu", "umax": "maxu"}
"""The scalar table's row for a reduction kind whose name differs from the row's."""

_X86_FLOAT_ADD: dict[str, str] = {
    "lo_hreduce_add_f32x4": """static inline float lo_hreduce_add_f32x4(__m128 v)
{
    __m128 s = _mm_add_ps(v, _mm_movehl_ps(v, v));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, _MM_SHUFFLE(1, 1, 1, 1)));
    return _mm_cvtss_f32(s);
}
""",
    "lo_hreduce_add_f64x2": """static inline double lo_hreduce_add_f64x2(__m128d v)
{
    return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v)));
}
""",
    "lo_hreduce_add_f32x8": """static inline float lo_hreduce_add_f32x8(__m256 v)
{
    return lo_hreduce_add_f32x4(_mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1)));
}
""",
    "lo_hreduce_add_f64x4": """static inline double lo_hreduce_add_f64x4(__m256d v)
{
    return lo_hreduce_add_f64x2(_mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1)));
}
""",
}


_BITWISE = ("and", "or")
_X86_INT_TREES: dict[str, tuple[tuple[str, str], ...]] = {
    "sse2": (("add", "i32"), ("add", "i64"), *((k, e) for k in _BITWISE for e in ("i32", "i64"))),
    "avx2": (
        ("add", "i32"), ("add", "i64"), ("mul", "i32"),
        *((k, "i32") for k in ("min", "max", "umin", "umax")),
        *((k, e) for k in _BITWISE for e in ("i32", "i64")),
    ),
    "avx512": (("add", "i32"), ("add", "i64"), ("mul", "i32"), ("mul", "i64")),
}  # fmt: skip
"""The integer reductions x86 computes as a halving tree of vector ops (the rest: `tree_helper`;
AVX-512's min/max/and/or rows are `_mm512_reduce_*`, exact for integers). gcc turns the generic
tree's spilled lanes into a chain of `pextrd` and scalar ops (AVX2 i32 sum: 16 instructions
after the vector loop against 6 here). SSE2 has no 32-bit lane min/max or multiply (SSE4.1),
AVX2 no 64-bit lane min/max or multiply (AVX-512)."""

_X86_INT_OP = {"add": "add_epi{b}", "mul": "mullo_epi{b}", "min": "min_epi{b}", "max": "max_epi{b}",
               "umin": "min_epu{b}", "umax": "max_epu{b}", "and": "and_si{w}", "or": "or_si{w}"}  # fmt: skip


def _x86_int_tree(vector_bits: int, kind: str, elt: str) -> Helper:
    """`kind` over a `__m512i`/`__m256i`/`__m128i`'s lanes in halves: 512 -> 256 -> 128 bits, then
    within 128 bits (the same halving order as `tree_helper`; wrapping lane arithmetic)."""
    bits = elt[1:]
    n = vector_bits // int(bits)
    name = f"lo_hreduce_{kind}_{elt}x{n}"

    def op(width: int) -> str:
        return {128: "_mm_", 256: "_mm256_", 512: "_mm512_"}[width] + _X86_INT_OP[kind].format(b=bits, w=width)

    vtype = {512: "__m512i", 256: "__m256i", 128: "__m128i"}[vector_bits]
    lines = []
    if vector_bits == 512:
        lines.append(f"__m256i h = {op(256)}(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));")
    if vector_bits >= 256:
        h = "h" if vector_bits == 512 else "v"
        lines.append(f"__m128i q = {op(128)}(_mm256_castsi256_si128({h}), _mm256_extracti128_si256({h}, 1));")
    else:
        lines.append("__m128i q = v;")
    lines.append(f"q = {op(128)}(q, _mm_unpackhi_epi64(q, q));")
    if bits == "32":
        lines.append(f"q = {op(128)}(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 1, 1, 1)));")
        lines.append("return _mm_cvtsi128_si32(q);")
    else:
        lines.append("return _mm_cvtsi128_si64(q);")
    body = "\n    ".join(lines)
    return Helper(name, f"static inline {c_type(elt)} {name}({vtype} v)\n{{\n    {body}\n}}\n")


def tree_helper(io: LaneIO, kind: str, elt: str) -> Helper:
    """The generic halving reduction of `kind` over the lanes of a native `elt` vector."""
    n = io.n(elt)
    name = f"lo_hreduce_{kind}_{elt}x{n}"
    step = SCALAR.rows[(_SCALAR_OP.get(kind, kind), elt)].format(dst="x[k]", a="x[k]", b="x[k + w]", T=c_type(elt))
    code = (
        f"static inline {c_type(elt)} {name}({io.vtype(elt)} v)\n{{\n"
        f"    {c_type(elt)} x[{n}];\n"
        f"    {io.store(elt, 'x', 'v')}\n"
        f"    for (int w = {n // 2}; w >= 1; w /= 2)\n"
        f"        for (int k = 0; k < w; k++)\n"
        f"            {step}\n"
        f"    return x[0];\n}}\n"
    )
    return Helper(name, code)


def helpers(isa: IsaTable) -> list[Helper]:
    if isa.name == "scalar":
        return []
    io = LaneIO(isa)
    out: dict[str, Helper] = {}
    for elt in isa.lanes:
        for kind in KINDS_FLOAT if elt.startswith("f") else KINDS_INT:
            h = tree_helper(io, kind, elt)
            out[h.name] = h
    for kind, elt in _X86_INT_TREES.get(isa.name, ()):
        h = _x86_int_tree(isa.lanes["i32"] * 32, kind, elt)
        out[h.name] = h
    if isa.name in ("sse2", "avx2"):
        for name, code in _X86_FLOAT_ADD.items():
            if isa.name == "sse2" and "x8" in name or isa.name == "sse2" and "f64x4" in name:
                continue
            out[name] = Helper(name, code)
    return list(out.values())
