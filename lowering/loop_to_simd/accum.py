"""Vector accumulators: neutral start, combining interleaved copies, the horizontal epilogue.

A vecloop accumulator becomes K independent `vector<WxT>` accumulators in the main loop
(interleaving hides the latency of a float add), each starting at the kind's neutral
element on every lane. After the main loop the K copies are combined lane-wise (a tree),
the remainder blocks continue that one vector, `simd.hreduce` folds its lanes and the
result is combined with the init; a scalar tail continues from there. i1 accumulators
(all / any) are masks: they combine with and/or/xor and fold with `simd.mask_popcount`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import FloatAttr, Float32Type, Float64Type, IndexType, IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import AccKind, AccumAttr, acc_kind_fits_type, neutral_element
from loopopt.lowering.loop_to_simd.lanes import LoopLowering, const_op, is_mask_type
from loopopt.lowering.loop_to_simd.table import FLOAT_COMBINE, INT_COMBINE, MASK_COMBINE

Emit = Callable[[Operation], Operation]


def check_vectorizable(acc: loop.Accumulator, at: Operation) -> None:
    """A vector accumulator needs a neutral element (not custom) and lanes (not index)."""
    if acc.kind == AccKind.CUSTOM:
        raise LoopoptDiagnostic(
            f"accumulator #{acc.arg.index - 1} of kind custom cannot be split across lanes: "
            "a vector loop needs add, mul, min, max, and or or (run loop-vectorize, which keeps such loops scalar)",
            at,
        )
    if isinstance(acc.arg.type, IndexType):
        raise LoopoptDiagnostic(
            f"accumulator #{acc.arg.index - 1} of type index has no vector form (lanes hold f32, f64, i32, i64, i1)", at
        )


def is_float_sum_or_product(acc: loop.Accumulator) -> bool:
    """A float add/mul accumulator: rounding makes its order matter, and its scalar steps
    form a chain of fp-latency steps."""
    return acc.kind in (AccKind.ADD, AccKind.MUL) and _is_float(acc.arg.type)


def carried_kind(acc: AccumAttr, carried_type: Attribute) -> AccumAttr:
    """The `#loop.acc` of a lowered loop's accumulator of `carried_type`.

    The lowered loops are plain `loop.for`s, which never split their accumulators, so the
    kind is informative only; and/or/umin/umax are stated as `custom` on vectors and on index cursors
    since the loop dialect accepts and/or only on scalar integer types.
    """
    if not acc_kind_fits_type(acc.acc_kind, carried_type):
        return AccumAttr(AccKind.CUSTOM)
    return acc


def neutral_vector(lowering: LoopLowering, kind: AccKind, t: Attribute, at: Operation) -> SSAValue:
    """Every lane at the kind's neutral element (built once, before the loop)."""
    return lowering.splat_constant(neutral_element(kind, t), lowering.vector_type(t, at))


def lane_start(kind: AccKind, t: Attribute, init: SSAValue) -> int | float | bool:
    """Where a vector accumulator's lanes start, and what its masked-off lanes add: the kind's
    neutral element (-0.0 for a float sum), except that a float sum whose init is the constant
    +0.0 starts at +0.0. Its result is never -0.0 (+0.0 + -0.0 is +0.0), and +0.0 lanes zero in
    one instruction, make a masked step an AND and need no final add of the init
    (`init_is_identity`); a -0.0 start would give the same bits a little slower."""
    if kind == AccKind.ADD and _is_float(t) and _is_positive_zero(init):
        return 0.0
    return neutral_element(kind, t)


def accumulator_start(lowering: LoopLowering, kind: AccKind, t: Attribute, init: SSAValue, at: Operation) -> SSAValue:
    """`lane_start` in every lane (built once, before the loop)."""
    return lowering.splat_constant(lane_start(kind, t, init), lowering.vector_type(t, at))


def _is_positive_zero(value: SSAValue) -> bool:
    """`value` is the float constant +0.0 (not -0.0)."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, FloatAttr):
        return False
    v = owner.value.value.data
    return v == 0.0 and math.copysign(1.0, v) > 0


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


def combine(kind: AccKind, t: Attribute, a: SSAValue, b: SSAValue, emit: Emit) -> SSAValue:
    """`a <kind> b` for two partial results of scalar type `t` (scalars or vectors of it)."""
    vector = isinstance(a.type, VectorType)
    if is_mask_type(t):
        return emit(MASK_COMBINE[kind](a, b)).results[0]
    if vector and kind in (AccKind.MIN, AccKind.MAX):
        cls = simd.MinOp if kind == AccKind.MIN else simd.MaxOp
        return emit(cls(a, b)).results[0]
    table = FLOAT_COMBINE if _is_float(t) else INT_COMBINE
    return emit(table[kind](a, b)).results[0]


def combine_tree(kind: AccKind, t: Attribute, values: Sequence[SSAValue], emit: Emit) -> SSAValue:
    """The interleaved copies combined pairwise: ((a0 op a1) op (a2 op a3))."""
    vs = list(values)
    while len(vs) > 1:
        nxt = [combine(kind, t, vs[k], vs[k + 1], emit) for k in range(0, len(vs) - 1, 2)]
        if len(vs) % 2:
            nxt.append(vs[-1])
        vs = nxt
    return vs[0]


def reduce_lanes(kind: AccKind, t: Attribute, vector: SSAValue, width: int, emit: Emit) -> SSAValue:
    """One scalar from a vector accumulator's lanes."""
    if not is_mask_type(t):
        return emit(simd.HReduceOp(kind, vector)).results[0]  # loop and simd share one ReductionKind
    count = emit(simd.MaskPopcountOp(vector)).results[0]
    index = IndexType()
    if kind in (AccKind.AND, AccKind.MIN, AccKind.UMIN, AccKind.MUL):  # all lanes true
        w = emit(const_op(width, index)).results[0]
        return emit(arith.CmpiOp(count, w, "eq")).results[0]
    zero = emit(const_op(0, index)).results[0]
    if kind in (AccKind.OR, AccKind.MAX, AccKind.UMAX):  # some lane true
        return emit(arith.CmpiOp(count, zero, "ne")).results[0]
    one = emit(const_op(1, index)).results[0]  # add on i1: parity
    odd = emit(arith.AndIOp(count, one)).results[0]
    return emit(arith.CmpiOp(odd, zero, "ne")).results[0]


def finish(kind: AccKind, t: Attribute, init: SSAValue, vector: SSAValue, width: int, emit: Emit,
           no_negative_zero: bool = False) -> SSAValue:  # fmt: skip
    """The horizontal epilogue: fold the lanes, then combine with the init (init first) —
    unless the init is a constant that leaves every folded value as it is
    (`init_is_identity`: `0.0f + h` is h when no lane can hold -0.0)."""
    folded = reduce_lanes(kind, t, vector, width, emit)
    if init_is_identity(kind, t, init, no_negative_zero):
        return folded
    return combine(kind, t, init, folded, emit)


def init_is_identity(kind: AccKind, t: Attribute, init: SSAValue, no_negative_zero: bool) -> bool:
    """`init <kind> h == h` bit for bit for every h the lanes can fold to.

    Integers: add/or 0, mul 1, and -1. Floats: mul 1.0 and add -0.0 always; add +0.0 when
    `no_negative_zero` (+0.0 + -0.0 is +0.0): the lanes start at +0.0 (`lane_start`: only
    for this init) and only ever add to themselves, and a round-to-nearest sum is -0.0 only
    when both terms are."""
    owner = init.owner
    if not isinstance(owner, arith.ConstantOp) or is_mask_type(t):
        return False
    value = owner.value
    if isinstance(value, FloatAttr) and _is_float(t):
        v = value.value.data
        if kind == AccKind.MUL:
            return v == 1.0
        if kind == AccKind.ADD and v == 0.0:
            return math.copysign(1.0, v) < 0 or no_negative_zero
        return False
    if isinstance(value, IntegerAttr) and isinstance(t, IntegerType):
        v = value.value.data
        return {AccKind.ADD: 0, AccKind.OR: 0, AccKind.MUL: 1, AccKind.AND: -1, AccKind.UMAX: 0}.get(kind) == v
    return False


def adds_to_itself(acc: SSAValue, step: SSAValue) -> bool:
    """The accumulator's step is `acc + y` or `fma(a, b, acc)`: starting from +0.0 its lanes
    never hold -0.0 (see init_is_identity)."""
    owner = step.owner
    if isinstance(owner, arith.AddfOp):
        return acc in (owner.lhs, owner.rhs)
    if isinstance(owner, math_dialect.FmaOp):
        return owner.operands[2] == acc and owner.operands[0] != acc and owner.operands[1] != acc
    return False
