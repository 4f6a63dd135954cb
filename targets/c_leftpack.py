"""Compaction (compress store) without AVX-512: a lookup-table left-pack.

`lo_compress_store_<T>x<N>(p, v, mask)` writes the active lanes of `v` contiguously at `p` and
returns how many; `lo_compress_full_<T>x<N>` (for `simd.compress_store ... full`) may write a
whole vector there, so it ends in one plain store. The lane mask becomes an N-bit integer
(movemask on x86, an AND with lane bits and an across-lane add on NEON) that indexes a table:

* AVX2: permutation indices for `_mm256_permutevar8x32_*`; exact: `_mm256_maskstore_*` of the
  first `count` lanes; full: `_mm256_storeu_*`.
* SSE2 (no variable permute; pshufb is SSSE3): a two-stage shift network like the kernel
  library's — stage 0 moves a lane down by one where the table says so, stage 1 by two
  (`_mm_srli_si128` + and/andnot/or); full: `_mm_storeu_*`; exact: the `count` lanes one by one.
  SSE2 has no popcnt instruction (`__builtin_popcount` is a libgcc call there), so the count of
  a 4-bit mask is a nibble lookup in one 64-bit constant.
* NEON: byte indices for `vqtbl1q_u8`; full: `vst1q`; exact: the `count` lanes one by one.

AVX-512 needs none of this (`_mm512_mask_compressstoreu_*`, a row in its table).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable


def _active(bits: int, n: int) -> list[int]:
    return [k for k in range(n) if bits >> k & 1]


def lane_lut(n: int) -> list[list[int]]:
    """Row `bits`: the indices of the active lanes of mask `bits`, first, then zeros."""
    return [(_active(b, n) + [0] * n)[:n] for b in range(1 << n)]


def _table(name: str, c_elt: str, rows: list[list[int]]) -> Helper:
    width = len(rows[0])
    body = ",\n".join("    {" + ", ".join(str(x) for x in row) + "}" for row in rows)
    return Helper(name, f"static const {c_elt} {name}[{len(rows)}][{width}] = {{\n{body}\n}};\n")


def _sub_lane_lut(n: int, parts: int) -> list[list[int]]:
    """Like `lane_lut`, in units of `1/parts` of a lane (32-bit halves, or bytes)."""
    return [[lane * parts + p for lane in row for p in range(parts)] for row in lane_lut(n)]


def _avx2(io: LaneIO) -> list[Helper]:
    out = [_table("lo_leftpack_idx8", "uint8_t", lane_lut(8)), _table("lo_leftpack_idx4x2", "uint8_t", _sub_lane_lut(4, 2))]
    for elt in ("f32", "i32", "f64", "i64"):
        t, vt = c_type(elt), io.vtype(elt)
        n = io.n(elt)
        if n == 8:
            bits = "(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m))"
            table = "lo_leftpack_idx8"
            keep = "_mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))"
        else:
            bits = "(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m))"
            table = "lo_leftpack_idx4x2"
            keep = "_mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3))"
        packed = {
            "f32": "_mm256_permutevar8x32_ps(v, perm)",
            "i32": "_mm256_permutevar8x32_epi32(v, perm)",
            "f64": "_mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), perm))",
            "i64": "_mm256_permutevar8x32_epi32(v, perm)",
        }[elt]
        masked = {
            "f32": "_mm256_maskstore_ps(p, keep, packed);",
            "i32": "_mm256_maskstore_epi32((int *)p, keep, packed);",
            "f64": "_mm256_maskstore_pd(p, keep, packed);",
            "i64": "_mm256_maskstore_epi64((long long *)p, keep, packed);",
        }[elt]
        head = (
            f"    unsigned bits = {bits};\n"
            "    int n = __builtin_popcount(bits);\n"
            f"    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *){table}[bits]));\n"
            f"    {vt} packed = {packed};\n"
        )
        name = f"lo_compress_store_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m256i m)\n{{\n{head}"
            f"    __m256i keep = {keep};\n    {masked}\n    return n;\n}}\n"
        )))  # fmt: skip
        name = f"lo_compress_full_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m256i m)\n{{\n{head}"
            f"    {io.store(elt, 'p', 'packed')}\n    return n;\n}}\n"
        )))  # fmt: skip
    return out


SSE2_POPCOUNT4 = "(int)((0x4332322132212110ull >> (4 * (bits))) & 15u)"
"""popcount of a 4-bit mask without a popcnt instruction: nibble k of the constant is popcount(k)."""


def shift_network4(bits: int) -> tuple[list[int], list[int]]:
    """SSE2 left-pack of 4 lanes in two stages: which lanes take the lane one above (stage 0)
    and then the lane two above (stage 1). Active lane a_j (the j-th active one) moves down
    by d_j = a_j - j; bit 0 of d_j is done by stage 0, bit 1 by stage 1."""
    active = _active(bits, 4)
    stage0, stage1 = [0] * 4, [0] * 4
    for j, a in enumerate(active):
        d = a - j
        mid = a - (d & 1)
        if d & 1:
            stage0[mid] = 1
        if d & 2:
            stage1[mid - 2] = 1
    return stage0, stage1


def _net_table() -> Helper:
    rows = []
    for bits in range(16):
        s0, s1 = shift_network4(bits)
        lanes = [", ".join("0xffffffffu" if x else "0" for x in stage) for stage in (s0, s1)]
        rows.append("    {{" + lanes[0] + "}, {" + lanes[1] + "}}")
    body = ",\n".join(rows)
    return Helper("lo_leftpack_net4", f"static const uint32_t lo_leftpack_net4[16][2][4] = {{\n{body}\n}};\n")


def _sse2(io: LaneIO) -> list[Helper]:
    out = [_net_table(), Helper("lo_leftpack4_sse2", (
        "static inline __m128i lo_leftpack4_sse2(__m128i v, unsigned bits)\n{\n"
        "    __m128i s0 = _mm_loadu_si128((const __m128i *)lo_leftpack_net4[bits][0]);\n"
        "    __m128i s1 = _mm_loadu_si128((const __m128i *)lo_leftpack_net4[bits][1]);\n"
        "    v = _mm_or_si128(_mm_and_si128(s0, _mm_srli_si128(v, 4)), _mm_andnot_si128(s0, v));\n"
        "    return _mm_or_si128(_mm_and_si128(s1, _mm_srli_si128(v, 8)), _mm_andnot_si128(s1, v));\n}\n"
    )), Helper("lo_leftpack2_sse2", (
        "static inline __m128i lo_leftpack2_sse2(__m128i v, unsigned bits)\n{\n"
        "    __m128i move = _mm_set1_epi64x(-(int64_t)(bits == 2u));\n"
        "    return _mm_or_si128(_mm_and_si128(move, _mm_srli_si128(v, 8)), _mm_andnot_si128(move, v));\n}\n"
    ))]  # fmt: skip
    for elt, n in io.isa.lanes.items():
        t, vt = c_type(elt), io.vtype(elt)
        movemask = "_mm_movemask_ps(_mm_castsi128_ps(m))" if n == 4 else "_mm_movemask_pd(_mm_castsi128_pd(m))"
        to_i = {"f32": "_mm_castps_si128(v)", "f64": "_mm_castpd_si128(v)"}.get(elt, "v")
        from_i = {"f32": "_mm_castsi128_ps", "f64": "_mm_castsi128_pd"}.get(elt, "")
        head = (
            f"    unsigned bits = (unsigned){movemask};\n"
            f"    {vt} packed = {from_i}(lo_leftpack{n}_sse2({to_i}, bits));\n"
        )
        name = f"lo_compress_store_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m128i m)\n{{\n{head}"
            f"    int n = {SSE2_POPCOUNT4};\n"
            f"    {t} x[{n}];\n    {io.store(elt, 'x', 'packed')}\n"
            "    for (int k = 0; k < n; k++)\n        p[k] = x[k];\n"
            "    return n;\n}\n"
        )))  # fmt: skip
        name = f"lo_compress_full_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m128i m)\n{{\n{head}"
            f"    {io.store(elt, 'p', 'packed')}\n"
            f"    return {SSE2_POPCOUNT4};\n}}\n"
        )))  # fmt: skip
    return out


_NEON = {"f32": "f32", "f64": "f64", "i32": "s32", "i64": "s64"}


def _neon(io: LaneIO) -> list[Helper]:
    out = [
        _table("lo_leftpack_bytes4", "uint8_t", _sub_lane_lut(4, 4)),
        _table("lo_leftpack_bytes2", "uint8_t", _sub_lane_lut(2, 8)),
        Helper("lo_lane_bits4", "static const uint32_t lo_lane_bits4[4] = {1, 2, 4, 8};\n"),
        Helper("lo_lane_bits2", "static const uint64_t lo_lane_bits2[2] = {1, 2};\n"),
    ]
    for elt, n in io.isa.lanes.items():
        t, vt, s = c_type(elt), io.vtype(elt), _NEON[elt]
        u = "u32" if n == 4 else "u64"
        name = f"lo_compress_store_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, {io.mtype(n)} m)\n{{\n"
            f"    unsigned bits = (unsigned)vaddvq_{u}(vandq_{u}(m, vld1q_{u}(lo_lane_bits{n})));\n"
            "    int n = __builtin_popcount(bits);\n"
            f"    uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_{s}(v), vld1q_u8(lo_leftpack_bytes{n}[bits]));\n"
            f"    {t} x[{n}];\n    vst1q_{s}(x, vreinterpretq_{s}_u8(packed));\n"
            "    for (int k = 0; k < n; k++)\n        p[k] = x[k];\n"
            "    return n;\n}\n"
        )))  # fmt: skip
        name = f"lo_compress_full_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, {io.mtype(n)} m)\n{{\n"
            f"    unsigned bits = (unsigned)vaddvq_{u}(vandq_{u}(m, vld1q_{u}(lo_lane_bits{n})));\n"
            f"    uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_{s}(v), vld1q_u8(lo_leftpack_bytes{n}[bits]));\n"
            f"    vst1q_{s}(p, vreinterpretq_{s}_u8(packed));\n"
            "    return __builtin_popcount(bits);\n}\n"
        )))  # fmt: skip
    return out


def helpers(isa: IsaTable) -> list[Helper]:
    io = LaneIO(isa)
    return {"avx2": _avx2, "sse2": _sse2, "neon": _neon}.get(isa.name, lambda _: [])(io)
