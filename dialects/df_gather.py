"""`df.gather`: `x[idx]`, the elements of a rank-1 array at an array of integer positions.

`%y = df.gather %x[%idx] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>`

y[i] = x[idx[i]] when 0 <= idx[i] < len(x), and 0 (+0.0, false) otherwise: an index out of
bounds — negative, len(x) or more, any i64 or i32 value — reads nothing and gives the
element type's zero (docs/df.md "df.gather"). Numpy raises IndexError there and wraps
negative indices; df.gather does neither, so that a kernel has no error path and its vector
form is one masked gather (the lanes whose index is out of bounds are off).
"""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_types import ArrayType, format_axes, is_integer_type, is_scalar_type

INDEX_WIDTHS = (32, 64)
"""Index arrays are i32 or i64 (read signed)."""


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`x[idx]`: the result lives on idx's axis and has x's element type; out-of-bounds
    indices give 0 (see the module docstring)."""

    name = "df.gather"

    source = operand_def(ArrayType)
    """x: a rank-1 array of scalars."""
    indices = operand_def(ArrayType)
    """idx: a rank-1 i32 or i64 array; its axis is the result's."""
    result = result_def(ArrayType)

    traits = traits_def(Pure())

    assembly_format = "$source `[` $indices `]` attr-dict `:` type($source) `,` type($indices) `->` type($result)"

    def __init__(self, source: SSAValue, indices: SSAValue):
        x, idx = source.type, indices.type
        assert isinstance(x, ArrayType) and isinstance(idx, ArrayType)
        super().__init__(operands=[source, indices], result_types=[idx.with_element(x.element_type)])

    def verify_(self) -> None:
        x, idx, r = self.source.type, self.indices.type, self.result.type
        assert isinstance(x, ArrayType) and isinstance(idx, ArrayType) and isinstance(r, ArrayType)
        if x.rank != 1:
            raise VerifyException(f"df.gather source must be a rank-1 array, found rank {x.rank} ({x})")
        if not is_scalar_type(x.element_type):
            raise VerifyException(f"df.gather source elements must be scalars (f32, f64, i1, i8, i16, i32, i64), found {x.element_type}")
        it = idx.element_type
        if not (is_integer_type(it) and getattr(it, "width").data in INDEX_WIDTHS):
            raise VerifyException(f"df.gather indices must be an i32 or i64 array, found {idx}")
        if idx.rank != 1:
            raise VerifyException(f"df.gather indices must be a rank-1 array, found rank {idx.rank} ({idx})")
        if r.element_type != x.element_type:
            raise VerifyException(
                f"df.gather result element type {r.element_type} differs from the source's {x.element_type}"
            )
        if r.axis_names != idx.axis_names:
            raise VerifyException(
                f"df.gather result has axes {format_axes(r.axis_names)}, expected the indices' axes "
                f"{format_axes(idx.axis_names)}"
            )
