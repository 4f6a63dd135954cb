"""The shape of an ISA table: how the C printer spells every (operation, element type) for one ISA.

Each ISA module (`isa_sse2`, `isa_avx2`, `isa_avx512`, `isa_neon`, `isa_scalar`) is data: the C
types of its vectors and masks, its native lane counts, and one template row per
(operation key, element type). The printer never spells an intrinsic itself; a missing row is
a located error ("simd.fma on i64 has no avx2 row"), never a guess.

Template placeholders (str.format fields):

* `{dst}`    the result variable. A template starting with `{dst} = ` is printed as a
             declaration `T dst = ...;`; anything after the first `;` is further statements.
* `{a} {b} {c}`  operands in IR order (for `select`: `{mask}` chooses `{a}` over `{b}`).
* `{buf} {idx}`  the pointer and index expression of a memory access, `{value}` the stored
             vector, `{mask}` a lane mask, `{passthru}` the value of inactive lanes of a masked load.
* `{T}`      the scalar C type of the element type (for casts).

Element-type keys are "f32", "f64", "i8", "i16", "i32", "i64", and "i1xN" for an N-lane mask
(`vector<Nxi1>`), whose C representation depends on N (AVX2: all-ones lanes of 256/N bits;
AVX-512: `__mmaskN`; NEON: `uint32x4_t`/`uint64x2_t`).

Operation keys (see `c_ops.py` for which IR op maps to which key):
load, load_aligned, store, store_aligned, store_nt (aligned non-temporal), masked_load,
masked_store, gather.<index type> / gather_lanes.<index type> (simd.gather: the instruction / lane by lane), compress_store, broadcast, add, sub, mul, div, min, max (NaN-propagating on
floats), minnum, maxnum, neg, abs, sqrt, fma (a*b+c, one rounding), and, or, xor, not, shl, shr,
cmp.<pred> (arith.cmpf/cmpi predicate names), select, hreduce.<kind> (add mul min max and or),
convert.<to> (lane count preserved), popcount (active lanes of a mask, as int64_t).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from loopopt.targets.c_part import is_part_lanes, part_key, part_vector_type, whole_register_row

ELEMENT_C_TYPES: dict[str, str] = {
    "f16": "uint16_t",  # storage: IEEE half bits, converted to and from float (c_part)
    "bf16": "uint16_t",  # storage: bfloat16 bits (f32's upper half), converted likewise
    "f32": "float",
    "f64": "double",
    "i8": "int8_t",
    "i16": "int16_t",
    "i32": "int32_t",
    "i64": "int64_t",
    "index": "int64_t",
    "i1": "_Bool",
}
"""Scalar C types (docs/calling_convention.md); `i1` buffers are `uint8_t` (see `BUFFER_C_TYPES`)."""

BUFFER_C_TYPES: dict[str, str] = {**ELEMENT_C_TYPES, "i1": "uint8_t"}
"""Element C types of buffers: a bool array is bytes of 0/1."""


@dataclass(frozen=True)
class IsaTable:
    """Everything the printer needs to know about one ISA, as data."""

    name: str
    """The target name: scalar, sse2, avx2, avx512, neon."""
    includes: tuple[str, ...]
    """Headers the ISA's intrinsics need, beyond the common ones."""
    lanes: Mapping[str, int]
    """Native lane count per element type (a vector of another width is rejected)."""
    vector_types: Mapping[str, str]
    """C type of a native vector, per element type."""
    mask_types: Mapping[int, str]
    """C type of a `vector<Nxi1>` mask, per lane count N."""
    rows: Mapping[tuple[str, str], str]
    """(operation key, element type key) -> C template."""
    cflags: tuple[str, ...] = field(default=())
    """gcc/clang flags enabling the ISA (documentation; the runtime owns the real list)."""
    pragmas: tuple[str, ...] = field(default=())
    """Lines before the includes enabling a CPU extension the rows use past the ISA's flags
    (`#pragma GCC target(...)`, clang's `#pragma clang attribute push`: c_part.with_cpu_features)."""
    pragmas_end: tuple[str, ...] = field(default=())
    """Lines at the end of the file closing what `pragmas` opened (clang's attribute pop)."""

    def row(self, key: str, elt: str) -> str | None:
        found = self.rows.get((key, elt))
        if found is None:
            found = extra_rows(self.name).get((key, elt))
        if found is None and (whole := whole_register_row(key, elt)) is not None:
            return self.row(*whole)  # a lane-wise op on a part vector: the whole register's row (c_part)
        return found

    def c_vector_type(self, elt: str, lanes: int) -> str | None:
        """The C type of `vector<lanes x elt>`, or None if it is not native to this ISA."""
        if elt == "i1":
            return self.mask_types.get(lanes)
        if self.lanes.get(elt) != lanes and not is_part_lanes(self.lanes, elt, lanes):
            return None
        # a part vector is held in a whole register, f16 lanes in a type of their own (c_part)
        return part_vector_type(self.name, elt) or self.vector_types.get(elt)

    def element_key(self, elt: str, lanes: int) -> str:
        """The row element key of `vector<lanes x elt>`: `i1x4` for a mask, `f32x4` for a vector
        that fills part of a register (c_part), else `elt`."""
        if elt == "i1":
            return mask_key(lanes)
        if is_part_lanes(self.lanes, elt, lanes):
            return part_key(elt, lanes)
        return elt

    def coverage(self) -> dict[str, list[str]]:
        """operation key -> element types with a row (for reports and tests)."""
        out: dict[str, list[str]] = {}
        for key, elt in {**extra_rows(self.name), **self.rows}:
            out.setdefault(key, []).append(elt)
        return out


ROW_HOOKS: tuple[str, ...] = ("loopopt.targets.c_vmath", "loopopt.targets.c_gather", "loopopt.targets.c_part",
                              "loopopt.targets.c_intvec", "loopopt.targets.c_narrow", "loopopt.targets.c_narrow_part",
                              "loopopt.targets.c_narrow_compress")
"""Modules whose `rows(isa_name)` add rows to every ISA table (an ISA module's own row wins):
families of rows kept in one place for all ISAs, such as vector math (targets/c_vmath.py)."""


@functools.cache
def extra_rows(isa_name: str) -> Mapping[tuple[str, str], str]:
    """The rows the `ROW_HOOKS` modules add to ISA `isa_name` (imported on first use: they import this module)."""
    out: dict[tuple[str, str], str] = {}
    for module in ROW_HOOKS:
        out.update(importlib.import_module(module).rows(isa_name))
    return out


def mask_key(lanes: int) -> str:
    """The element-type key of an N-lane mask."""
    return f"i1x{lanes}"

