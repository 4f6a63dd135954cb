"""One description of the three x86 vector ISAs, and the intrinsic rows they spell alike.

SSE2, AVX2 and AVX-512 mostly differ in spelling, not in kind:

    ISA     prefix    integer vector   lanes f32/f64/i32/i64   vector<Nxi1> mask
    sse2    _mm_      __m128i  si128   4 / 2 / 4 / 2           all-ones lanes (__m128i)
    avx2    _mm256_   __m256i  si256   8 / 4 / 8 / 4           all-ones lanes (__m256i)
    avx512  _mm512_   __m512i  si512   16 / 8 / 16 / 8         mask register (__mmask16, __mmask8)

An `X86` is one line of that table; each `*_rows(x)` function below builds one family of rows
for it, from templates such as `f"{p}add_{s}"` (prefix `p`, element suffix `s` in
ps/pd/epi32/epi64). The comment on each template lists what it spells, so a search for
`_mm256_add_ps` lands on the template that produces it. The ISA modules (`isa_sse2`, `isa_avx2`,
`isa_avx512`) combine the families they share and write by hand only the rows where the ISAs
really differ: masks and compares on AVX-512, compaction and masked accesses, emulations of
what an ISA lacks, blends, min/max. `python -m loopopt.targets.isa_x86 avx2` prints a whole
table, every row expanded.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from loopopt.targets.c_isa import IsaTable, mask_key

Rows = dict[tuple[str, str], str]

FLOATS = ("f32", "f64")
INTS = ("i32", "i64")
ELTS = (*FLOATS, *INTS)
NARROW = ("i8", "i16")
"""Narrow integer lanes: their rows are built in targets/c_narrow.py (a row hook), the table
only knows their lane counts, vector types and masks."""

SUFFIX = {"f32": "ps", "f64": "pd", "i32": "epi32", "i64": "epi64"}
"""The element suffix of arithmetic intrinsics (`_mm_add_ps`, `_mm256_add_epi64`)."""

_NEG_ZERO = {"f32": "-0.0f", "f64": "-0.0"}

FLOAT_CMP_IMM = {
    "oeq": "_CMP_EQ_OQ", "ogt": "_CMP_GT_OQ", "oge": "_CMP_GE_OQ", "olt": "_CMP_LT_OQ",
    "ole": "_CMP_LE_OQ", "one": "_CMP_NEQ_OQ", "ord": "_CMP_ORD_Q", "ueq": "_CMP_EQ_UQ",
    "ugt": "_CMP_NLE_UQ", "uge": "_CMP_NLT_UQ", "ult": "_CMP_NGE_UQ", "ule": "_CMP_NGT_UQ",
    "une": "_CMP_NEQ_UQ", "uno": "_CMP_UNORD_Q",
}  # fmt: skip
"""arith.cmpf predicate -> the `_mm256_cmp_ps`/`_mm512_cmp_ps_mask` immediate (AVX and later)."""


@dataclass(frozen=True)
class X86:
    """One x86 vector ISA: its register width and how it holds a lane mask."""

    name: str
    """The target name (`sse2`, `avx2`, `avx512`)."""
    bits: int
    """Vector register width: 128, 256, 512."""
    mask_registers: bool
    """`vector<Nxi1>` is an `__mmaskN` (AVX-512) rather than a vector of all-ones lanes."""
    includes: tuple[str, ...]
    cflags: tuple[str, ...]

    @property
    def p(self) -> str:
        """Intrinsic prefix: `_mm_`, `_mm256_`, `_mm512_`."""
        return "_mm_" if self.bits == 128 else f"_mm{self.bits}_"

    @property
    def si(self) -> str:
        """Suffix of whole-register integer intrinsics: `si128`, `si256`, `si512`."""
        return f"si{self.bits}"

    @property
    def ivec(self) -> str:
        """The integer vector type: `__m128i`, `__m256i`, `__m512i`."""
        return f"__m{self.bits}i"

    def lanes(self, e: str) -> int:
        return self.bits // int(e[1:])

    def vector_type(self, e: str) -> str:
        """`__m128`, `__m256d`, `__m512i`, ..."""
        return f"__m{self.bits}" + {"f32": "", "f64": "d"}.get(e, "i")

    @property
    def masks(self) -> tuple[str, str]:
        """Mask keys for 32- and 64-bit lanes: sse2 (i1x4, i1x2), avx2 (i1x8, i1x4), avx512 (i1x16, i1x8)."""
        return mask_key(self.lanes("i32")), mask_key(self.lanes("i64"))

    def mask_type(self, lanes: int) -> str:
        return f"__mmask{lanes}" if self.mask_registers else self.ivec

    def set1(self, e: str) -> str:
        """Broadcast intrinsic: `_mm_set1_ps`; i64 is `_mm_set1_epi64x`/`_mm256_set1_epi64x`, `_mm512_set1_epi64`."""
        return f"{self.p}set1_" + ("epi64x" if e == "i64" and self.bits < 512 else SUFFIX[e])

    @property
    def ones(self) -> str:
        """All lanes true, as an all-ones-lanes mask: `_mm_set1_epi32(-1)`."""
        return f"{self.p}set1_epi32(-1)"

    @property
    def zero_i(self) -> str:
        """`_mm_setzero_si128()`, `_mm256_setzero_si256()`, `_mm512_setzero_si512()`."""
        return f"{self.p}setzero_{self.si}()"

    def int_ptr(self, const: bool = False) -> str:
        """The pointer cast integer loads/stores take: `(const __m128i *)`, `(__m256i *)`;
        AVX-512's take `void *`, so none."""
        if self.bits == 512:
            return ""
        return f"({'const ' if const else ''}{self.ivec} *)"

    def table(self, rows: Rows) -> IsaTable:
        """The IsaTable of this ISA with `rows`."""
        return IsaTable(
            name=self.name,
            includes=self.includes,
            lanes={e: self.lanes(e) for e in (*ELTS, *NARROW)},
            vector_types={e: self.vector_type(e) for e in (*ELTS, *NARROW)},
            mask_types={self.lanes(e): self.mask_type(self.lanes(e)) for e in ("i32", "i64", *NARROW)},
            rows=rows,
            cflags=self.cflags,
        )


SSE2_X86 = X86("sse2", 128, mask_registers=False, includes=("emmintrin.h",), cflags=("-msse2",))
AVX2_X86 = X86("avx2", 256, mask_registers=False, includes=("immintrin.h",), cflags=("-mavx2", "-mfma", "-mf16c"))
AVX512_X86 = X86("avx512", 512, mask_registers=True, includes=("immintrin.h",),
                 cflags=("-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma"))  # fmt: skip
"""-mfma as runtime/isa.py builds it: gcc's -mavx512f does not imply FMA, and Zen 4's split folds
use 256-bit FMAs (`_mm256_fmadd_ps`); the header names these flags for builds by hand."""


def without(rows: Rows, *keys: tuple[str, str]) -> Rows:
    """`rows` less `keys` (each must be there): a family minus what one ISA lacks."""
    missing = [k for k in keys if k not in rows]
    assert not missing, f"without: no rows {missing}"
    return {k: v for k, v in rows.items() if k not in keys}


# ---------------------------------------------------------------------------- every x86 ISA


def x86_rows(x: X86) -> Rows:
    """The families every x86 table shares (memory_rows, arithmetic_rows, conversion_rows)."""
    return {**memory_rows(x), **arithmetic_rows(x), **conversion_rows(x)}


def memory_rows(x: X86) -> Rows:
    """Full-width loads and stores, the store fence, broadcasts. Integer accesses use the whole
    register intrinsics (`_mm_loadu_si128((const __m128i *)p)`); AVX-512's take `void *`."""
    p, rows = x.p, {}
    for e in ELTS:
        s, load_ptr, store_ptr, nt_ptr = SUFFIX[e], "", "", ""
        if e in INTS:
            s, load_ptr, store_ptr = x.si, x.int_ptr(const=True), x.int_ptr()
            nt_ptr = store_ptr or "(void *)"
        rows.update({
            # _mm_loadu_ps _mm256_loadu_pd _mm512_loadu_ps _mm_loadu_si128 _mm256_loadu_si256 _mm512_loadu_si512
            ("load", e): f"{{dst}} = {p}loadu_{s}({load_ptr}&{{buf}}[{{idx}}]);",
            # _mm_load_ps _mm256_load_pd _mm512_load_ps _mm_load_si128 _mm256_load_si256 _mm512_load_si512
            ("load_aligned", e): f"{{dst}} = {p}load_{s}({load_ptr}&{{buf}}[{{idx}}]);",
            # _mm_storeu_ps _mm256_storeu_pd _mm512_storeu_ps _mm_storeu_si128 _mm256_storeu_si256 _mm512_storeu_si512
            ("store", e): f"{p}storeu_{s}({store_ptr}&{{buf}}[{{idx}}], {{value}});",
            # _mm_store_ps _mm256_store_pd _mm512_store_ps _mm_store_si128 _mm256_store_si256 _mm512_store_si512
            ("store_aligned", e): f"{p}store_{s}({store_ptr}&{{buf}}[{{idx}}], {{value}});",
            # aligned non-temporal: _mm_stream_ps _mm256_stream_pd _mm_stream_si128 _mm512_stream_si512((void *)p)
            ("store_nt", e): f"{p}stream_{s}({nt_ptr}&{{buf}}[{{idx}}], {{value}});",
        })  # fmt: skip
    rows[("store_fence", "none")] = "_mm_sfence();"
    # _mm_set1_ps _mm256_set1_pd _mm512_set1_epi32; i64: _mm_set1_epi64x _mm256_set1_epi64x _mm512_set1_epi64
    rows.update({("broadcast", e): f"{{dst}} = {x.set1(e)}({{a}});" for e in ELTS})
    return rows


def arithmetic_rows(x: X86) -> Rows:
    """add/sub/neg on every element type, mul/div/sqrt on floats (integer mul: per ISA)."""
    p, rows = x.p, {}
    for e in ELTS:
        s = SUFFIX[e]
        rows[("add", e)] = f"{{dst}} = {p}add_{s}({{a}}, {{b}});"  # _mm_add_ps _mm256_add_ps _mm512_add_epi64 ...
        rows[("sub", e)] = f"{{dst}} = {p}sub_{s}({{a}}, {{b}});"  # _mm_sub_pd _mm256_sub_epi32 _mm512_sub_ps ...
    for e in FLOATS:
        s = SUFFIX[e]
        rows[("mul", e)] = f"{{dst}} = {p}mul_{s}({{a}}, {{b}});"  # _mm_mul_ps _mm256_mul_pd _mm512_mul_ps
        rows[("div", e)] = f"{{dst}} = {p}div_{s}({{a}}, {{b}});"  # _mm_div_ps _mm256_div_pd _mm512_div_ps
        rows[("sqrt", e)] = f"{{dst}} = {p}sqrt_{s}({{a}});"  # _mm_sqrt_ps _mm256_sqrt_pd _mm512_sqrt_ps
        # flip the sign bit: _mm_xor_ps(a, _mm_set1_ps(-0.0f)), _mm256_xor_pd, _mm512_xor_ps
        rows[("neg", e)] = f"{{dst}} = {p}xor_{s}({{a}}, {p}set1_{s}({_NEG_ZERO[e]}));"
    for e in INTS:
        # 0 - a: _mm_sub_epi32(_mm_setzero_si128(), a), _mm256_sub_epi64, _mm512_sub_epi32
        rows[("neg", e)] = f"{{dst}} = {p}sub_{SUFFIX[e]}({x.zero_i}, {{a}});"
    return rows


def conversion_rows(x: X86) -> Rows:
    """The conversions every x86 table spells alike (f64 <- i64 differs: DQ has it on AVX-512)."""
    return {
        ("convert.f32", "i32"): f"{{dst}} = {x.p}cvtepi32_ps({{a}});",  # _mm_cvtepi32_ps _mm256_cvtepi32_ps _mm512_cvtepi32_ps
        ("convert.i32", "f32"): f"{{dst}} = lo_cvt_f32_i32x{x.lanes('f32')}({{a}});",  # saturating, NaN -> 0 (c_emulate)
        ("convert.i64", "f64"): f"{{dst}} = lo_cvt_f64_i64x{x.lanes('f64')}({{a}});",
    }


def helper_hreduce_rows(x: X86, float_kinds: tuple[str, ...], int_kinds: tuple[str, ...]) -> Rows:
    """Horizontal reductions through c_hreduce helpers: `lo_hreduce_add_f32x4`, `lo_hreduce_min_i64x4`, ..."""
    return {
        (f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{x.lanes(e)}({{a}});"
        for e in ELTS
        for k in (float_kinds if e in FLOATS else int_kinds)
    }


# ---------------------------------------------------------------------------- AVX2 and AVX-512


def fma_rows(x: X86) -> Rows:
    """a*b+c, one rounding: `_mm256_fmadd_ps`, `_mm256_fmadd_pd`, `_mm512_fmadd_ps`, `_mm512_fmadd_pd`."""
    return {("fma", e): f"{{dst}} = {x.p}fmadd_{SUFFIX[e]}({{a}}, {{b}}, {{c}});" for e in FLOATS}


def variable_shift_rows(x: X86) -> Rows:
    """Per-lane shifts (the amount read as unsigned: >= width gives 0 or the sign fill):
    `_mm256_sllv_epi32` `_mm256_srav_epi32` `_mm256_srlv_epi64` `_mm512_srav_epi64` ..."""
    rows: Rows = {}
    for op, fn in (("shl", "sllv"), ("shr", "srav"), ("shru", "srlv")):
        rows.update({(op, e): f"{{dst}} = {x.p}{fn}_{SUFFIX[e]}({{a}}, {{b}});" for e in INTS})
    return rows


def float_cmp_rows(x: X86) -> Rows:
    """Float compares with a predicate immediate (FLOAT_CMP_IMM). All-ones lanes:
    `_mm256_castps_si256(_mm256_cmp_ps(a, b, P))`, `_mm256_castpd_si256(_mm256_cmp_pd(...))`;
    mask registers: `_mm512_cmp_ps_mask(a, b, P)`, `_mm512_cmp_pd_mask`."""
    rows: Rows = {}
    for e in FLOATS:
        s = SUFFIX[e]
        for pred, imm in FLOAT_CMP_IMM.items():
            if x.mask_registers:  # _mm512_cmp_ps_mask _mm512_cmp_pd_mask
                cmp = f"{x.p}cmp_{s}_mask({{a}}, {{b}}, {imm})"
            else:  # _mm256_castps_si256(_mm256_cmp_ps(...)) _mm256_castpd_si256(_mm256_cmp_pd(...))
                cmp = f"{x.p}cast{s}_{x.si}({x.p}cmp_{s}({{a}}, {{b}}, {imm}))"
            rows[("cmp." + pred, e)] = f"{{dst}} = {cmp};"
    return rows


# ---------------------------------------------------------------------------- masks as all-ones lanes (SSE2, AVX2)


def lane_mask_rows(x: X86) -> Rows:
    """The families SSE2 and AVX2 share, both holding a mask as all-ones lanes and compacting
    through c_leftpack. Integer compares need the ISA's eq/gt spellings: `lane_int_cmp_rows`."""
    assert not x.mask_registers, f"{x.name} holds masks in mask registers"
    return {
        **sign_bit_abs_rows(x),
        **lane_bitwise_rows(x),
        **lane_mask_broadcast_rows(x),
        **lane_mask_cmp_rows(x),
        **lane_select_zero_rows(x),
        **lane_iota_prefix_rows(x),
        **leftpack_compress_rows(x),
        **helper_hreduce_rows(x, ("add", "mul", "min", "max"), ("add", "mul", "min", "max", "umin", "umax", "and", "or")),
    }


def sign_bit_abs_rows(x: X86) -> Rows:
    """|a| clears the sign bit: `_mm_andnot_ps(_mm_set1_ps(-0.0f), a)`, `_mm256_andnot_pd`."""
    return {("abs", e): f"{{dst}} = {x.p}andnot_{SUFFIX[e]}({x.p}set1_{SUFFIX[e]}({_NEG_ZERO[e]}), {{a}});" for e in FLOATS}


def leftpack_compress_rows(x: X86) -> Rows:
    """Compaction through the c_leftpack shift network: `lo_compress_full_i64x4` (`full`: the
    caller guarantees W lanes of room; a limited or exact compress prints through it into a
    spill, c_print_simd._spilled_compress_store). {dst} = count."""
    rows: Rows = {}
    for e in ELTS:
        n = x.lanes(e)
        rows[("compress_store_full", e)] = f"{{dst}} = lo_compress_full_{e}x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
    return rows


def lane_bitwise_rows(x: X86) -> Rows:
    """and/or/xor of integers and of all-ones-lane masks, on the whole register:
    `_mm_and_si128` `_mm256_or_si256` `_mm_xor_si128`; `not` of a mask xors all ones."""
    rows: Rows = {}
    for op in ("and", "or", "xor"):
        rows.update({(op, e): f"{{dst}} = {x.p}{op}_{x.si}({{a}}, {{b}});" for e in (*INTS, *x.masks)})
    rows.update({("not", m): f"{{dst}} = {x.p}xor_{x.si}({{a}}, {x.ones});" for m in x.masks})
    return rows


def lane_mask_broadcast_rows(x: X86) -> Rows:
    """A bool to every lane: `_mm_set1_epi32(-(int32_t)(a))`, `_mm256_set1_epi64x(-(int64_t)(a))`."""
    m32, m64 = x.masks
    return {
        ("broadcast", m32): f"{{dst}} = {x.p}set1_epi32(-(int32_t)({{a}}));",
        ("broadcast", m64): f"{{dst}} = {x.set1('i64')}(-(int64_t)({{a}}));",
    }


def lane_int_cmp_rows(x: X86, e: str, eq: str, gt: str, lt: str | None = None) -> Rows:
    """Signed and unsigned compares of `e` from its eq and signed gt (and lt, where the ISA has
    one; else lt(a, b) = gt(b, a)), negating by xor with all ones. Unsigned: a <u b ==
    (a ^ MIN) <s (b ^ MIN). `eq`/`gt` are spelled by the caller: `_mm_cmpeq_epi32`,
    `_mm256_cmpgt_epi64`, or an emulation (`lo_cmpgt_i64x2`)."""
    xor, ones = f"{x.p}xor_{x.si}", x.ones

    def lt_(a: str, b: str) -> str:
        return f"{lt}({a}, {b})" if lt else f"{gt}({b}, {a})"

    bias = {"i8": f"{x.p}set1_epi8((char)0x80)", "i16": f"{x.p}set1_epi16((short)0x8000)",  # (c_narrow)
            "i32": f"{x.p}set1_epi32(INT32_MIN)"}.get(e, f"{x.set1('i64')}(INT64_MIN)")  # fmt: skip
    ua, ub = f"{xor}({{a}}, {bias})", f"{xor}({{b}}, {bias})"
    return {
        ("cmp.eq", e): f"{{dst}} = {eq}({{a}}, {{b}});",
        ("cmp.ne", e): f"{{dst}} = {xor}({eq}({{a}}, {{b}}), {ones});",
        ("cmp.sgt", e): f"{{dst}} = {gt}({{a}}, {{b}});",
        ("cmp.slt", e): f"{{dst}} = {lt_('{a}', '{b}')};",
        ("cmp.sle", e): f"{{dst}} = {xor}({gt}({{a}}, {{b}}), {ones});",
        ("cmp.sge", e): f"{{dst}} = {xor}({lt_('{a}', '{b}')}, {ones});",
        ("cmp.ugt", e): f"{{dst}} = {gt}({ua}, {ub});",
        ("cmp.ult", e): f"{{dst}} = {gt}({ub}, {ua});",
        ("cmp.ule", e): f"{{dst}} = {xor}({gt}({ua}, {ub}), {ones});",
        ("cmp.uge", e): f"{{dst}} = {xor}({gt}({ub}, {ua}), {ones});",
    }


def lane_mask_cmp_rows(x: X86) -> Rows:
    """Integer compares of masks (`vector<Nxi1>`) held as all-ones lanes: as a signed integer
    true is -1 (true < false), as an unsigned one it is 1. `andnot(x, y)` is `~x & y`
    (`_mm_andnot_si128`, `_mm256_andnot_si256`)."""
    xor, ones = f"{x.p}xor_{x.si}", x.ones

    def not_(v: str) -> str:
        return f"{xor}({v}, {ones})"

    a_not_b, b_not_a = f"{x.p}andnot_{x.si}({{b}}, {{a}})", f"{x.p}andnot_{x.si}({{a}}, {{b}})"
    rows: Rows = {}
    for m in x.masks:
        rows.update({
            ("cmp.eq", m): f"{{dst}} = {not_(xor + '({a}, {b})')};",
            ("cmp.ne", m): f"{{dst}} = {xor}({{a}}, {{b}});",
            ("cmp.slt", m): f"{{dst}} = {a_not_b};", ("cmp.ugt", m): f"{{dst}} = {a_not_b};",
            ("cmp.sgt", m): f"{{dst}} = {b_not_a};", ("cmp.ult", m): f"{{dst}} = {b_not_a};",
            ("cmp.sge", m): f"{{dst}} = {not_(a_not_b)};", ("cmp.ule", m): f"{{dst}} = {not_(a_not_b)};",
            ("cmp.sle", m): f"{{dst}} = {not_(b_not_a)};", ("cmp.uge", m): f"{{dst}} = {not_(b_not_a)};",
        })  # fmt: skip
    return rows


def lane_select_zero_rows(x: X86) -> Rows:
    """select(mask, a, +0) is an AND with the all-ones lanes (one uop; a blend takes two):
    `_mm_and_ps(_mm_castsi128_ps(mask), a)`, `_mm256_and_pd(_mm256_castsi256_pd(mask), a)`,
    `_mm_and_si128(mask, a)`."""
    rows = {("select_zero", e): f"{{dst}} = {x.p}and_{SUFFIX[e]}({x.p}cast{x.si}_{SUFFIX[e]}({{mask}}), {{a}});" for e in FLOATS}
    rows.update({("select_zero", e): f"{{dst}} = {x.p}and_{x.si}({{mask}}, {{a}});" for e in INTS})
    return rows


def lane_iota_prefix_rows(x: X86) -> Rows:
    """The i32 lane indices (`_mm_setr_epi32(0, 1, 2, 3)`, `_mm256_setr_epi32(0, ..., 7)`) and the
    32-bit-lane prefix mask `lane < clamp(a, 0, N)` built from them with `_mm*_cmpgt_epi32`."""
    n = x.lanes("i32")
    iota = f"{x.p}setr_epi32({', '.join(map(str, range(n)))})"
    count = f"{x.p}set1_epi32((int32_t)({{a}} < 0 ? 0 : {{a}} > {n} ? {n} : {{a}}))"
    return {
        ("iota", "i32"): f"{{dst}} = {iota};",
        ("prefix_mask", x.masks[0]): f"{{dst}} = {x.p}cmpgt_epi32({count}, {iota});",
    }


def main(argv: list[str]) -> int:
    """Print every row of the named tables (default: the three x86 ones), sorted, one a line."""
    from loopopt.targets.c import isa_table

    for name in argv or [SSE2_X86.name, AVX2_X86.name, AVX512_X86.name]:
        try:
            table = isa_table(name)
        except ValueError as e:
            print(f"isa_x86: {e}", file=sys.stderr)
            return 2
        for (key, elt), template in sorted(table.rows.items()):
            print(f"{name:7} {key:24} {elt:6} {template}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
