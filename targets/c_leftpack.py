"""Compaction (compress store) without AVX-512: a lookup-table left-pack.

`lo_compress_store_<T>x<N>(p, v, mask)` writes the active lanes of `v` contiguously at `p` and
returns how many. The lane mask becomes an N-bit integer (movemask on x86, an AND with lane
bits and an across-lane add on NEON) that indexes a table of permutations moving the active
lanes to the front. Only `count` elements are written, so the caller needs no slack past the
output's end: AVX2 permutes (`_mm256_permutevar8x32_*`) then stores with a prefix mask
(`_mm256_maskstore_*`); NEON permutes bytes (`vqtbl1q_u8`) then copies `count` lanes; SSE2 has
no variable permute, so it gathers the active lanes through the table with scalar stores.
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
    for elt in ("f32", "i32"):
        t, vt = c_type(elt), io.vtype(elt)
        if elt == "f32":
            store = "_mm256_maskstore_ps(p, keep, _mm256_permutevar8x32_ps(v, perm));"
        else:
            store = "_mm256_maskstore_epi32((int *)p, keep, _mm256_permutevar8x32_epi32(v, perm));"
        name = f"lo_compress_store_{elt}x8"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m256i m)\n{{\n"
            "    unsigned bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m));\n"
            "    int n = __builtin_popcount(bits);\n"
            "    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)lo_leftpack_idx8[bits]));\n"
            "    __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));\n"
            f"    {store}\n"
            "    return n;\n}\n"
        )))  # fmt: skip
    for elt in ("f64", "i64"):
        t, vt = c_type(elt), io.vtype(elt)
        if elt == "f64":
            store = "_mm256_maskstore_pd(p, keep, _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), perm)));"
        else:
            store = "_mm256_maskstore_epi64((long long *)p, keep, _mm256_permutevar8x32_epi32(v, perm));"
        name = f"lo_compress_store_{elt}x4"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m256i m)\n{{\n"
            "    unsigned bits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m));\n"
            "    int n = __builtin_popcount(bits);\n"
            "    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)lo_leftpack_idx4x2[bits]));\n"
            "    __m256i keep = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));\n"
            f"    {store}\n"
            "    return n;\n}\n"
        )))  # fmt: skip
    return out


def _sse2(io: LaneIO) -> list[Helper]:
    out = [_table("lo_leftpack_idx4", "uint8_t", lane_lut(4)), _table("lo_leftpack_idx2", "uint8_t", lane_lut(2))]
    for elt, n in io.isa.lanes.items():
        t, vt = c_type(elt), io.vtype(elt)
        movemask = "_mm_movemask_ps(_mm_castsi128_ps(m))" if n == 4 else "_mm_movemask_pd(_mm_castsi128_pd(m))"
        name = f"lo_compress_store_{elt}x{n}"
        out.append(Helper(name, (
            f"static inline int64_t {name}({t} *p, {vt} v, __m128i m)\n{{\n"
            f"    unsigned bits = (unsigned){movemask};\n"
            "    int n = __builtin_popcount(bits);\n"
            f"    {t} x[{n}];\n    {io.store(elt, 'x', 'v')}\n"
            f"    for (int k = 0; k < n; k++)\n        p[k] = x[lo_leftpack_idx{n}[bits][k]];\n"
            "    return n;\n}\n"
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
    return out


def helpers(isa: IsaTable) -> list[Helper]:
    io = LaneIO(isa)
    return {"avx2": _avx2, "sse2": _sse2, "neon": _neon}.get(isa.name, lambda _: [])(io)
