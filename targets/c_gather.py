"""`simd.gather` lane by lane: the rows and helpers every ISA shares.

A gather loads `b[idx[k]]` for each active lane k and keeps `passthru` elsewhere; inactive
lanes are never read (their index may be out of bounds). AVX2 and AVX-512 have gather
instructions (their `gather.<index type>` rows, isa_avx2 / isa_avx512); this module gives
every ISA the `gather_lanes.<index type>` row, which loads the active lanes one scalar load
at a time: SSE2 and NEON have no gather, and on an x86 CPU whose gathers are slow the
lowering marks the op `lanewise` (lowering/loop_to_simd/gather.py). The scalar target's
one-lane gather is a conditional load.

Index and data lanes are the same count (f32/i32 data with i32 indices, f64/i64 with i64),
so both are native vectors of the ISA.
"""

from __future__ import annotations

import functools

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable

INDEX_OF: dict[str, str] = {"f32": "i32", "i32": "i32", "f64": "i64", "i64": "i64"}
"""Data element type -> the index element type with the same lane count."""


@functools.cache
def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """(`gather_lanes.<index type>`, data type) -> template, for one ISA."""
    if isa_name == "scalar":
        return {(f"gather_lanes.{ie}", e): "{dst} = ({mask}) ? {buf}[{idx}] : {passthru};" for e, ie in INDEX_OF.items()}
    return {
        (f"gather_lanes.{ie}", e): f"{{dst}} = {_helper_name(e, ie)}({{buf}}, {{idx}}, {{mask}}, {{passthru}});"
        for e, ie in INDEX_OF.items()
    }


def _helper_name(elt: str, index_elt: str) -> str:
    return f"lo_gather_{elt}_by_{index_elt}"


def helpers(isa: IsaTable) -> list[Helper]:
    """`lo_gather_<T>_by_<I>`: spill indices, mask and passthru, load the active lanes, reload."""
    if isa.name == "scalar":
        return []
    io = LaneIO(isa)
    out = []
    for elt, ie in INDEX_OF.items():
        n = io.n(elt)
        if io.n(ie) != n:
            continue
        name = _helper_name(elt, ie)
        t, vt, it, ivt, mt = c_type(elt), io.vtype(elt), c_type(ie), io.vtype(ie), io.mtype(n)
        out.append(Helper(name, (
            f"static inline {vt} {name}(const {t} *p, {ivt} ix, {mt} m, {vt} passthru)\n{{\n"
            f"    {io.mask_to_bools(n, 'm', 'on')}\n"
            f"    {t} r[{n}]; {io.store(elt, 'r', 'passthru')}\n"
            f"    {it} i[{n}]; {io.store(ie, 'i', 'ix')}\n"
            f"    for (int k = 0; k < {n}; k++)\n        if (on[k])\n            r[k] = p[i[k]];\n"
            f"    return {io.from_lanes(elt, 'r')};\n}}\n"
        )))  # fmt: skip
    return out
