"""Verifier helpers df ops share: inputs on one domain, a kind that fits its element type, and
type lists as they appear in messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_types import ArrayType, ReduceKind, format_axes, is_storage_float, kind_accepts


def types_text(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def broadcast_axes(op_name: str, values: Sequence[SSAValue], domain: Sequence[str]) -> tuple[str, ...]:
    """`domain` (the op's iteration axes), checked against its inputs: each on some of the
    domain's axes, in any order (named-axis broadcasting: `v[j]` next to `m[i, j]` is read at
    each `(i, j)` as `v[j]`), and every domain axis on some input (its length comes from one)."""
    domain = tuple(domain)
    covered: set[str] = set()
    for i, v in enumerate(values):
        t = v.type
        if not isinstance(t, ArrayType):
            raise VerifyException(f"{op_name} input {i} must be a !df.array, found {t}")
        if not set(t.axis_names) <= set(domain):
            raise VerifyException(
                f"{op_name} input {i} has axes {format_axes(t.axis_names)}, expected axes of the domain "
                f"{format_axes(domain)}"
            )
        covered |= set(t.axis_names)
    if missing := [a for a in domain if a not in covered]:
        raise VerifyException(f"{op_name} domain axis {missing[0]!r} is on no input (its length is unknown)")
    return domain


def common_axes(op_name: str, values: Sequence[SSAValue], what: str = "input") -> tuple[str, ...]:
    """The axes all `values` (df arrays) share; raises naming the first that differs."""
    first = values[0].type
    if not isinstance(first, ArrayType):
        raise VerifyException(f"{op_name} {what} 0 must be a !df.array, found {first}")
    axes = first.axis_names
    for i, v in enumerate(values[1:], 1):
        t = v.type
        if not isinstance(t, ArrayType):
            raise VerifyException(f"{op_name} {what} {i} must be a !df.array, found {t}")
        if t.axis_names != axes:
            raise VerifyException(
                f"{op_name} {what}s must share one domain: {what} {i} has axes "
                f"{format_axes(t.axis_names)}, expected {format_axes(axes)}"
            )
    return axes


def verify_kind(op_name: str, index: int, kind: ReduceKind, element_type: Attribute) -> None:
    if not kind_accepts(kind, element_type) and is_storage_float(element_type):
        raise VerifyException(
            f"{op_name} kind {kind.value} (triple {index}) on {element_type}: {element_type} is a storage type, "
            f"reduce its values widened to f32 (arith.extf in a df.map)"
        )
    if not kind_accepts(kind, element_type):
        need = {
            ReduceKind.AND: "an integer or i1",
            ReduceKind.OR: "an integer or i1",
            ReduceKind.UMIN: "an integer or i1",
            ReduceKind.UMAX: "an integer or i1",
            ReduceKind.ADD: "a float or i32/i64",
            ReduceKind.MUL: "a float or i32/i64",
        }.get(kind, "a scalar")
        raise VerifyException(
            f"{op_name} kind {kind.value} (triple {index}) needs {need} element type, "
            f"found {element_type}"
        )
