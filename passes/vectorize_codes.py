"""Stable decline codes of loop-vectorize, one per legality condition.

A code names the condition that failed. When a condition fails the loop stays scalar
(never wrong code), and with `remarks=true` the pass prints `loc: remark: CODE: reason` at
the op at fault. Each code is documented with an example in docs/vectorize_codes.md and
has a remark test in test/filecheck/passes/loop-vectorize/.
"""

from __future__ import annotations

from enum import StrEnum


class VecReject(StrEnum):
    NO_VECTOR_FORM = "VEC_REJECT_NO_VECTOR_FORM"
    """A body op (or its element type) has no lane-wise vector form: a call, integer division,
    a transcendental other than those of targets/c_vmath.py, an op with regions, a type other than f32 f64 i32 i64 i1 index."""

    FLOAT_REDUCTION_ORDER = "VEC_REJECT_FLOAT_REDUCTION_ORDER"
    """A float add/mul accumulator without `reassoc`: splitting it across lanes reorders the sum."""

    CUSTOM_REDUCTION = "VEC_REJECT_CUSTOM_REDUCTION"
    """A `custom` accumulator: no known neutral element or associativity."""

    NOT_A_REDUCTION = "VEC_REJECT_NOT_A_REDUCTION"
    """A carried value whose step is not `acc <kind-op> x` with the accumulator used once
    (a recurrence such as `acc * 0.5 + x`, or a combine op that does not match the kind)."""

    SCAN = "VEC_REJECT_SCAN"
    """A carried value stored every iteration that is not a vectorizable scan (custom kind, a
    recurrence, the running value used by other ops, mixed with a reduction)."""

    NONUNIT_STRIDE = "VEC_REJECT_NONUNIT_STRIDE"
    """A load/store whose index moves by neither 1 (contiguous) nor 0 (uniform) elements per
    iteration: a strided, row-wise or computed (gather/scatter) access."""

    MEMORY_DEPENDENCE = "VEC_REJECT_MEMORY_DEPENDENCE"
    """A buffer written in the loop is also accessed at another index (a loop-carried
    dependence through memory), or written at the same address every iteration."""
