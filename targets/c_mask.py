"""Masked loads and stores on ISAs without masked memory instructions (SSE2, NEON).

A masked access must not touch memory of inactive lanes (they may lie past the end of the
buffer, which is what a masked tail is for), so a full-width load plus blend is wrong. These
helpers go lane by lane; inactive lanes of a masked load keep the passthru value. AVX2 and AVX-512 use their
instructions directly (rows in their tables).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable

_LANE_MASKED_ISAS = ("sse2", "neon")


def helpers(isa: IsaTable) -> list[Helper]:
    if isa.name not in _LANE_MASKED_ISAS:
        return []
    io = LaneIO(isa)
    out = []
    for elt in isa.lanes:
        out += masked_helpers(io, elt)
    return out


def masked_helpers(io: LaneIO, elt: str) -> list[Helper]:
    """`lo_masked_load_<elt>xN` and `lo_masked_store_<elt>xN` of one element type (also AVX2's
    i8/i16 lanes, which have no maskload: targets/c_narrow.py)."""
    n = io.n(elt)
    out = []
    t, vt, mt = c_type(elt), io.vtype(elt), io.mtype(n)
    load = f"lo_masked_load_{elt}x{n}"
    out.append(Helper(load, (
        f"static inline {vt} {load}(const {t} *p, {mt} m, {vt} passthru)\n{{\n"
        f"    {io.mask_to_bools(n, 'm', 'on')}\n"
        f"    {t} r[{n}]; {io.store(elt, 'r', 'passthru')}\n"
        f"    for (int k = 0; k < {n}; k++)\n        if (on[k])\n            r[k] = p[k];\n"
        f"    return {io.load(elt, 'r')};\n}}\n"
    )))  # fmt: skip
    store = f"lo_masked_store_{elt}x{n}"
    out.append(Helper(store, (
        f"static inline void {store}({t} *p, {mt} m, {vt} v)\n{{\n"
        f"    {io.mask_to_bools(n, 'm', 'on')}\n"
        f"    {t} x[{n}]; {io.store(elt, 'x', 'v')}\n"
        f"    for (int k = 0; k < {n}; k++)\n        if (on[k])\n            p[k] = x[k];\n}}\n"
    )))  # fmt: skip
    return out
