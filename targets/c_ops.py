"""Which table row prints an `arith` / `math` op: its operation key, and which type picks the row.

The same op prints through the scalar table when its operands are scalars and through the ISA
table when they are `vector<NxT>`, so the mapping is by op class only. Ops not listed here (and
not handled structurally by the printer) are unknown to the C printer: a located error.
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Operation

BINARY: dict[type[Operation], str] = {
    arith.AddfOp: "add",
    arith.AddiOp: "add",
    arith.SubfOp: "sub",
    arith.SubiOp: "sub",
    arith.MulfOp: "mul",
    arith.MuliOp: "mul",
    arith.DivfOp: "div",
    arith.DivSIOp: "div",
    arith.RemSIOp: "rem",
    arith.DivUIOp: "divu",
    arith.RemUIOp: "remu",
    arith.FloorDivSIOp: "floordiv",
    arith.CeilDivSIOp: "ceildiv",
    arith.CeilDivUIOp: "ceildivu",
    arith.AndIOp: "and",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
    arith.ShLIOp: "shl",
    arith.ShRSIOp: "shr",
    arith.ShRUIOp: "shru",
    arith.MinimumfOp: "min",
    arith.MaximumfOp: "max",
    arith.MinSIOp: "min",
    arith.MaxSIOp: "max",
    arith.MinUIOp: "minu",
    arith.MaxUIOp: "maxu",
    arith.MinnumfOp: "minnum",
    arith.MaxnumfOp: "maxnum",
    math.PowFOp: "pow",
    math.CopySignOp: "copysign",
    math.Atan2Op: "atan2",
}
"""Two operands `{a}`, `{b}`; the row is picked by the result type."""

UNARY: dict[type[Operation], str] = {
    arith.NegfOp: "neg",
    math.AbsFOp: "abs",
    math.AbsIOp: "abs",
    math.SqrtOp: "sqrt",
    math.RsqrtOp: "rsqrt",
    math.ExpOp: "exp",
    math.Exp2Op: "exp2",
    math.ExpM1Op: "expm1",
    math.LogOp: "log",
    math.Log2Op: "log2",
    math.Log10Op: "log10",
    math.Log1pOp: "log1p",
    math.SinOp: "sin",
    math.CosOp: "cos",
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.AtanOp: "atan",
    math.CbrtOp: "cbrt",
    math.ErfOp: "erf",
    math.FloorOp: "floor",
    math.CeilOp: "ceil",
    math.TruncOp: "trunc",
    math.RoundEvenOp: "roundeven",
    math.CtPopOp: "ctpop",
}
"""One operand `{a}`; the row is picked by the result type."""

AFN_KEYS: dict[str, str] = {"exp": "exp_afn", "exp2": "exp2_afn"}
"""Unary keys with an approximate row (targets/c_vmath.py's `AFN_F32`) that MLIR's `fastmath<afn>` on the op
(`fast` includes it) selects; the flag licenses approximation, it does not demand it: where the table has
no such row (f64, the scalar target and scalar tails) the op prints its accurate row."""


def approximate_key(op: Operation, key: str) -> str | None:
    """The approximate row key for `op` (printing through `key`) when its fastmath flags allow
    approximate functions (`afn`), else None."""
    afn = AFN_KEYS.get(key)
    flags = op.properties.get("fastmath")
    if afn is None or not isinstance(flags, FastMathFlagsAttr) or FastMathFlag.APPROX_FUNC not in flags.data:
        return None
    return afn


TERNARY: dict[type[Operation], str] = {
    math.FmaOp: "fma",
}
"""Three operands `{a}`, `{b}`, `{c}`."""

CONVERSIONS: tuple[type[Operation], ...] = (
    arith.IndexCastOp,
    arith.SIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.UIToFPOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
)
"""`convert.<result element>` rows, picked by the operand type (value-preserving casts).
The printer gives the cases one key cannot tell apart their own keys: `zext.<to>` (extui),
`sext.<to>` (extsi / sitofp / index_cast of i1: true is -1), `fptoui.<to>`, `uitofp.<to>`."""
