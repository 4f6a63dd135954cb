"""Compaction (compress store) without AVX-512: a lookup-table left-pack.

`lo_compress_full_<T>x<N>(p, v, mask)` (for `simd.compress_store ... full`) writes the active
lanes of `v` contiguously at `p` and returns how many; it may write a whole vector there, so it
ends in one plain store. A limited compress (the filter's tail, a small capacity) prints through
it into a local spill and copies what fits (c_print_simd._spilled_compress_store), so does an
exact one (hand-written simd IR only): the exact `lo_compress_store_*` helpers are gone (session
24; nothing the lowering emits used them). The lane mask becomes an N-bit integer (movemask on
x86, an AND with lane bits and an across-lane add on NEON) that indexes a table:

* AVX2: permutation indices for `_mm256_permutevar8x32_*`; `_mm256_storeu_*`.
* SSE2 (no variable permute; pshufb is SSSE3): a two-stage shift network like the kernel
  library's — stage 0 moves a lane down by one where the table says so, stage 1 by two
  (`_mm_srli_si128` + and/andnot/or); `_mm_storeu_*`. SSE2 has no popcnt instruction
  (`__builtin_popcount` is a libgcc call there), so the count of a 4-bit mask is a nibble
  lookup in one 64-bit constant.
* NEON: byte indices for `vqtbl1q_u8`; `vst1q`.

AVX-512 needs none of this (`_mm512_mask_compressstoreu_*`, a row in its table).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable


# --------------------------------------------------------------------------- the tables
# One generator for every left-pack table: the helpers below and the kernel library's
# kernels/src/lo_luts.h (kernels/gen_luts.py) both render these rows with `c_table`.


def _active(bits: int, n: int) -> list[int]:
    return [k for k in range(n) if bits >> k & 1]


def pack_indices(bits: int, lanes: int, parts: int = 1, pad_whole_lanes: bool = False) -> list[int]:
    """Row `bits` of a left-pack table: the active lanes of mask `bits` in order, each as
    `parts` sub-lane indices (32-bit halves for vpermd on 64-bit lanes, bytes for vqtbl1q).
    The slots past the count hold lane 0 (`pad_whole_lanes`, as the generated C's tables do)
    or index 0 (the kernel library's); either way their output lies past the count."""
    order = _active(bits, lanes)
    if pad_whole_lanes:
        order += [0] * (lanes - len(order))
    idx = [lane * parts + p for lane in order for p in range(parts)]
    return idx + [0] * (lanes * parts - len(idx))


def pack_table(lanes: int, parts: int = 1, pad_whole_lanes: bool = False) -> list[list[int]]:
    """`pack_indices` for every mask of `lanes` bits."""
    return [pack_indices(bits, lanes, parts, pad_whole_lanes) for bits in range(1 << lanes)]


def shift_network(bits: int, lanes: int) -> list[list[int]]:
    """Select masks of a log2(lanes)-stage shift network left-packing by `bits` (SSE2 has no
    variable permute). Stage s (shift by 2**s lanes): new[p] = sel[s][p] ? old[p + 2**s] : old[p].

    Each kept element moves left by the number of rejected lanes before it; moving by the
    low bit of that distance first never makes two kept elements collide.
    """
    dist = {}  # current position -> remaining distance for kept elements
    zeros = 0
    for j in range(lanes):
        if bits >> j & 1:
            dist[j] = zeros
        else:
            zeros += 1
    stages = []
    s = 1
    while s < lanes:
        sel = [0] * lanes
        new = {}
        for pos, d in dist.items():
            if d & s:
                sel[pos - s] = 1
                new[pos - s] = d - s
            else:
                new[pos] = d
        assert len(new) == len(dist), "collision in the shift network"
        # a kept element staying at p must not be overwritten
        for pos in new:
            if not sel[pos]:
                assert pos in dist and not dist[pos] & s
        dist = new
        stages.append(sel)
        s *= 2
    assert sorted(dist) == list(range(len(dist))) and all(d == 0 for d in dist.values())
    return stages


def net_table(lanes: int) -> list[list[list[str]]]:
    """`shift_network` for every mask, as C lane selects (all ones where a lane takes the shifted value)."""
    return [[["0xffffffffu" if x else "0" for x in stage] for stage in shift_network(bits, lanes)]
            for bits in range(1 << lanes)]  # fmt: skip


def _initializer(value: object) -> str:
    return "{" + ", ".join(map(_initializer, value)) + "}" if isinstance(value, list) else str(value)


def c_table(name: str, c_elt: str, rows: list, end: str = "\n};\n") -> str:
    """`static const <c_elt> <name>[..][..] = {` and one row a line, closed by `end`."""
    dims, level = "", rows
    while isinstance(level, list):
        dims, level = dims + f"[{len(level)}]", level[0]
    body = ",\n".join("    " + _initializer(row) for row in rows)
    return f"static const {c_elt} {name}{dims} = {{\n{body}{end}"


def _table(name: str, c_elt: str, rows: list) -> Helper:
    return Helper(name, c_table(name, c_elt, rows))


def _compress_full(elt: str, n: int, vt: str, mt: str, body: str) -> Helper:
    """`lo_compress_full_<elt>x<n>` (a limited or exact compress spills through it:
    c_print_simd._spilled_compress_store)."""
    name = f"lo_compress_full_{elt}x{n}"
    return Helper(name, f"static inline int64_t {name}({c_type(elt)} *p, {vt} v, {mt} m)\n{{\n{body}}}\n")


def _avx2(io: LaneIO) -> list[Helper]:
    out = [
        _table("lo_leftpack_idx8", "uint8_t", pack_table(8)),
        _table("lo_leftpack_idx4x2", "uint8_t", pack_table(4, 2, pad_whole_lanes=True)),
    ]
    for elt in ("f32", "i32", "f64", "i64"):
        vt = io.vtype(elt)
        n = io.n(elt)
        if n == 8:
            bits = "(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m))"
            table = "lo_leftpack_idx8"
        else:
            bits = "(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m))"
            table = "lo_leftpack_idx4x2"
        packed = {
            "f32": "_mm256_permutevar8x32_ps(v, perm)",
            "i32": "_mm256_permutevar8x32_epi32(v, perm)",
            "f64": "_mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), perm))",
            "i64": "_mm256_permutevar8x32_epi32(v, perm)",
        }[elt]
        head = (
            f"    unsigned bits = {bits};\n"
            "    int n = __builtin_popcount(bits);\n"
            f"    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *){table}[bits]));\n"
            f"    {vt} packed = {packed};\n"
        )
        out.append(_compress_full(elt, n, vt, "__m256i", f"{head}    {io.store(elt, 'p', 'packed')}\n    return n;\n"))
    return out


SSE2_POPCOUNT4 = "(int)((0x4332322132212110ull >> (4 * (bits))) & 15u)"
"""popcount of a 4-bit mask without a popcnt instruction: nibble k of the constant is popcount(k)."""


def _sse2(io: LaneIO) -> list[Helper]:
    out = [_table("lo_leftpack_net4", "uint32_t", net_table(4)), Helper("lo_leftpack4_sse2", (
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
        if elt in ("i8", "i16"):
            continue  # narrow lanes have no compaction (loop.append of i8/i16 stays scalar)
        vt = io.vtype(elt)
        movemask = "_mm_movemask_ps(_mm_castsi128_ps(m))" if n == 4 else "_mm_movemask_pd(_mm_castsi128_pd(m))"
        to_i = {"f32": "_mm_castps_si128(v)", "f64": "_mm_castpd_si128(v)"}.get(elt, "v")
        from_i = {"f32": "_mm_castsi128_ps", "f64": "_mm_castsi128_pd"}.get(elt, "")
        head = (
            f"    unsigned bits = (unsigned){movemask};\n"
            f"    {vt} packed = {from_i}(lo_leftpack{n}_sse2({to_i}, bits));\n"
        )
        out.append(_compress_full(elt, n, vt, "__m128i", f"{head}    {io.store(elt, 'p', 'packed')}\n    return {SSE2_POPCOUNT4};\n"))
    return out


_NEON = {"f32": "f32", "f64": "f64", "i32": "s32", "i64": "s64"}


def _neon(io: LaneIO) -> list[Helper]:
    out = [
        _table("lo_leftpack_bytes4", "uint8_t", pack_table(4, 4, pad_whole_lanes=True)),
        _table("lo_leftpack_bytes2", "uint8_t", pack_table(2, 8, pad_whole_lanes=True)),
        Helper("lo_lane_bits4", "static const uint32_t lo_lane_bits4[4] = {1, 2, 4, 8};\n"),
        Helper("lo_lane_bits2", "static const uint64_t lo_lane_bits2[2] = {1, 2};\n"),
    ]
    for elt, n in io.isa.lanes.items():
        if elt in ("i8", "i16"):
            continue  # narrow lanes have no compaction (loop.append of i8/i16 stays scalar)
        vt, s = io.vtype(elt), _NEON[elt]
        u = "u32" if n == 4 else "u64"
        bits = f"    unsigned bits = (unsigned)vaddvq_{u}(vandq_{u}(m, vld1q_{u}(lo_lane_bits{n})));\n"
        packed = f"    uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_{s}(v), vld1q_u8(lo_leftpack_bytes{n}[bits]));\n"
        out.append(_compress_full(elt, n, vt, io.mtype(n),
                                  f"{bits}{packed}    vst1q_{s}(p, vreinterpretq_{s}_u8(packed));\n    return __builtin_popcount(bits);\n"))
    return out


def helpers(isa: IsaTable) -> list[Helper]:
    io = LaneIO(isa)
    return {"avx2": _avx2, "sse2": _sse2, "neon": _neon}.get(isa.name, lambda _: [])(io)
