"""What each lane-wise scalar op becomes at a concrete width: convert-loop-to-simd's table, as data.

A vecloop / predloop body is scalar-typed (each value stands for W lanes). When an op has
a lane-varying operand it is rewritten by the row of its class below; an op whose operands
are all uniform stays the scalar op it is (computed once per block). An op with a varying
operand and no row is a located error: the transcendentals without a vector math row
(targets/c_vmath.py) stay scalar (loop-vectorize declines them), and nothing here scalarizes
(the simd dialect has no lane extract/insert). Integer division, unsigned min/max and ctpop
stay `arith`/`math` ops on vectors; the C printer spells them (targets/c_intvec.py).
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.ir import Operation

from loopopt.dialects import simd
from loopopt.dialects.loop_attrs import AccKind

SAME_OP: frozenset[type[Operation]] = frozenset({
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.NegfOp,   # x + y -> vector add
    arith.AddiOp, arith.SubiOp, arith.MuliOp,                               # wrapping integer ops
    arith.AndIOp, arith.OrIOp, arith.XOrIOp,                                # also on masks (i1)
    arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp,                             # amounts read as unsigned (>= width: 0 / sign)
    arith.MinnumfOp, arith.MaxnumfOp,                                       # number-preferring: printer's minnum rows
    math.SqrtOp, math.AbsFOp, math.AbsIOp, math.CtPopOp,
    arith.MinUIOp, arith.MaxUIOp,                                           # unsigned min/max
    arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp,             # by zero: 0, MIN / -1 = MIN
    arith.FloorDivSIOp, arith.CeilDivSIOp, arith.CeilDivUIOp,
    math.ExpOp, math.Exp2Op, math.ExpM1Op, math.LogOp, math.Log2Op, math.Log1pOp,  # vector math:
    math.SinOp, math.CosOp, math.TanhOp, math.ErfOp, math.PowFOp, math.RsqrtOp,    # targets/c_vmath.py
})  # fmt: skip
"""Elementwise ops that stay the same `arith`/`math` op, on `vector<WxT>` operands."""

MIN_MAX: dict[type[Operation], type[simd.MinMaxOperation]] = {
    arith.MinimumfOp: simd.MinOp,  # NaN-propagating min  -> simd.min
    arith.MaximumfOp: simd.MaxOp,  # NaN-propagating max  -> simd.max
    arith.MinSIOp: simd.MinOp,     # signed min           -> simd.min
    arith.MaxSIOp: simd.MaxOp,     # signed max           -> simd.max
}  # fmt: skip
"""Min/max ops whose vector form is `simd.min` / `simd.max`."""

CONVERT: frozenset[type[Operation]] = frozenset({
    arith.SIToFPOp, arith.FPToSIOp, arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.TruncIOp,
})  # fmt: skip
"""Conversions whose vector form is `simd.convert` (same lane count)."""

NO_VECTOR_FORM: dict[type[Operation], str] = {}
"""Why an op has no vector form, for the ops where a reason is worth more than the default."""

CMP_PREDICATES: dict[str, simd.CmpPredicate] = {p.value: p for p in simd.CmpPredicate}
"""arith.cmpf / arith.cmpi predicate names that `simd.cmp` has (IEEE ones for cmpf; signed and
unsigned ones for cmpi: `simd.INT_PREDICATES` / `simd.FLOAT_PREDICATES` say which apply)."""

FLOAT_COMBINE: dict[AccKind, type[Operation]] = {
    AccKind.ADD: arith.AddfOp,
    AccKind.MUL: arith.MulfOp,
    AccKind.MIN: arith.MinimumfOp,
    AccKind.MAX: arith.MaximumfOp,
}
"""How two float partial results of an accumulator kind combine (as scalars)."""

INT_COMBINE: dict[AccKind, type[Operation]] = {
    AccKind.ADD: arith.AddiOp,
    AccKind.MUL: arith.MuliOp,
    AccKind.MIN: arith.MinSIOp,
    AccKind.MAX: arith.MaxSIOp,
    AccKind.UMIN: arith.MinUIOp,  # vectors too: the printer's minu / maxu rows
    AccKind.UMAX: arith.MaxUIOp,
    AccKind.AND: arith.AndIOp,
    AccKind.OR: arith.OrIOp,
}
"""How two integer partial results of an accumulator kind combine (as scalars)."""

MASK_COMBINE: dict[AccKind, type[Operation]] = {
    AccKind.AND: arith.AndIOp,
    AccKind.OR: arith.OrIOp,
    AccKind.MIN: arith.AndIOp,  # on i1, min is and
    AccKind.MAX: arith.OrIOp,   # on i1, max is or
    AccKind.UMIN: arith.AndIOp,
    AccKind.UMAX: arith.OrIOp,
    AccKind.MUL: arith.AndIOp,  # on i1, mul is and
    AccKind.ADD: arith.XOrIOp,  # on i1, add wraps: xor
}  # fmt: skip
"""How two i1 partial results (scalars or masks) of an accumulator kind combine."""
