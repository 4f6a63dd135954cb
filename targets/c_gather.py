"""`simd.gather` lane by lane: the rows and helpers every ISA shares.

A gather loads `b[idx[k]]` for each active lane k and keeps `passthru` elsewhere; inactive
lanes are never read (their index may be out of bounds). AVX2 and AVX-512 have gather
instructions (their `gather.<index type>` rows, isa_avx2 / isa_avx512); this module gives
every ISA the `gather_lanes.<index type>` row, which loads the active lanes one scalar load
at a time: SSE2 and NEON have no gather, and on an x86 CPU whose gathers are slow the
lowering marks the op `lanewise` (lowering/loop_to_simd/gather.py). The scalar target's
one-lane gather is a conditional load.

Index and data lanes are the same count W: whole registers for f32/i32 data by i32 indices and
f64/i64 by i64, and W 64-bit lanes with the 32-bit side in the low half of a register (a
part vector, targets/c_part.py) for f32/i32 by i64 and f64/i64 by i32.
"""

from __future__ import annotations

import functools

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable

PAIRS: tuple[tuple[str, str], ...] = (
    ("f32", "i32"), ("i32", "i32"), ("f64", "i64"), ("i64", "i64"),  # one width: whole registers
    ("f32", "i64"), ("i32", "i64"), ("f64", "i32"), ("i64", "i32"),  # mixed: the 32-bit side a part vector
)
"""(data, index) element types a gather takes. In a loop mixing 32- and 64-bit lanes it runs at
the 64-bit lane count W and the 32-bit vector fills the low half of a register (targets/c_part.py):
its row key is the part key (`f32x4` on AVX2), and the mask has the 64-bit layout."""


def _lanes(isa: IsaTable, elt: str, index_elt: str) -> int:
    """The gather's lane count: the wider type's lanes per register."""
    return min(isa.lanes[elt], isa.lanes[index_elt])


def _key(isa: IsaTable, elt: str, lanes: int) -> str:
    return elt if isa.lanes[elt] == lanes else f"{elt}x{lanes}"


@functools.cache
def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """(`gather_lanes.<index key>`, data key) -> template, for one ISA."""
    if isa_name == "scalar":
        return {(f"gather_lanes.{ie}", e): "{dst} = ({mask}) ? {buf}[{idx}] : {passthru};" for e, ie in PAIRS}
    from loopopt.targets.c import isa_table

    isa = isa_table(isa_name)
    out = {}
    for e, ie in PAIRS:
        n = _lanes(isa, e, ie)
        out[(f"gather_lanes.{_key(isa, ie, n)}", _key(isa, e, n))] = (
            f"{{dst}} = {_helper_name(e, ie)}({{buf}}, {{idx}}, {{mask}}, {{passthru}});"
        )
    return out


def _helper_name(elt: str, index_elt: str) -> str:
    return f"lo_gather_{elt}_by_{index_elt}"


def helpers(isa: IsaTable) -> list[Helper]:
    """`lo_gather_<T>_by_<I>`: spill indices, mask and passthru, load the active lanes, rebuild
    the vector (the lanes of a part vector past the gather's W are zero, as after a load)."""
    if isa.name == "scalar":
        return []
    io = LaneIO(isa)
    out = []
    for elt, ie in PAIRS:
        n = _lanes(isa, elt, ie)
        name = _helper_name(elt, ie)
        t, vt, it, ivt, mt = c_type(elt), io.vtype(elt), c_type(ie), io.vtype(ie), io.mtype(n)
        out.append(Helper(name, (
            f"static inline {vt} {name}(const {t} *p, {ivt} ix, {mt} m, {vt} passthru)\n{{\n"
            f"    {io.mask_to_bools(n, 'm', 'on')}\n"
            f"    {t} r[{io.n(elt)}]; {io.store(elt, 'r', 'passthru')}\n"
            f"    {it} i[{io.n(ie)}]; {io.store(ie, 'i', 'ix')}\n"
            f"    for (int k = 0; k < {io.n(elt)}; k++)\n        if (k >= {n})\n            r[k] = 0;\n"
            f"        else if (on[k])\n            r[k] = p[i[k]];\n"
            f"    return {io.from_lanes(elt, 'r')};\n}}\n"
        )))  # fmt: skip
    return out
