"""loop-simplify's identities as data: one `Rule` per line, read by one generic matcher.

A pattern is a tree: `P(op, *operands)` matches an op of that class, `V("x")` any value
(binding it to `x`; a name used twice must be the same value), `K(c)` an `arith.constant`
equal to `c` (`-0.0` and `0.0` differ; `True` is i1 true). A rule's rewrite gets an
`Emit` (which inserts new ops before the matched one) and the bindings, and returns the
replacement value (tinygrad's PatternMatcher, seed 003 "algebraic simplification").

Float rules are only the IEEE-exact ones: `x + 0.0` is not `x` (for x = -0.0), `x * 0.0`
is not `0.0` (NaN, inf, -0.0), `x - x` is not `0.0` (NaN, inf). Unrolled powers round at
every multiply, so `powf(x, 3.0) -> x*x*x` may differ from `powf` in the last place.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

# --------------------------------------------------------------------------- patterns


@dataclass(frozen=True)
class Pat:
    """Matches a value: by defining op and operands, by constant value, or anything."""

    op: type[Operation] | None = None
    src: tuple[Pat, ...] = ()
    name: str | None = None
    const: int | float | bool | None = None
    one_use: bool = False
    """The value must have exactly one use (a mul contracted into an fma must not be needed elsewhere)."""


def V(name: str) -> Pat:
    """Any value, bound to `name`."""
    return Pat(name=name)


def K(value: int | float | bool) -> Pat:
    """An arith.constant equal to `value` (same sign for float zeros)."""
    return Pat(const=value)


def P(op: type[Operation], *src: Pat, name: str | None = None, one_use: bool = False) -> Pat:
    """An op of class `op` whose operands match `src`."""
    return Pat(op=op, src=src, name=name, one_use=one_use)


def constant_value(value: SSAValue) -> int | float | None:
    """The scalar value of an arith.constant (i1 as 0/1), else None."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    attr = op.value
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        t = attr.type
        return int(v != 0) if isinstance(t, IntegerType) and t.width.data == 1 else v
    if isinstance(attr, FloatAttr):
        return attr.value.data
    return None


def _same_number(found: int | float, wanted: int | float | bool) -> bool:
    if isinstance(wanted, bool):
        return found == int(wanted)
    if isinstance(wanted, float) or isinstance(found, float):
        return float(found) == float(wanted) and pymath.copysign(1.0, found) == pymath.copysign(1.0, wanted)
    return found == wanted


def match(pat: Pat, value: SSAValue, env: dict[str, SSAValue]) -> bool:
    """Match `value` against `pat`, extending `env` with its bindings."""
    if pat.one_use and value.uses.get_length() != 1:
        return False
    if pat.const is not None:
        found = constant_value(value)
        if found is None or not _same_number(found, pat.const):
            return False
    if pat.op is not None:
        op = value.owner
        if not isinstance(op, pat.op) or len(op.operands) != len(pat.src):
            return False
        if not all(match(p, v, env) for p, v in zip(pat.src, op.operands)):
            return False
    if pat.name is not None:
        if pat.name in env and env[pat.name] is not value:
            return False
        env[pat.name] = value
    return True


# --------------------------------------------------------------------------- rewrites


class Emit:
    """Builds a rule's replacement before the matched op."""

    def __init__(self, rewriter: PatternRewriter, root: Operation):
        self.rewriter = rewriter
        self.root = root

    def op(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, InsertPoint.before(self.root))
        return op.results[0]

    def const(self, like: SSAValue, value: int | float) -> SSAValue:
        """A constant of `like`'s (scalar) type."""
        t = like.type
        attr = FloatAttr(float(value), t) if is_float(like) else IntegerAttr(int(value), t)  # type: ignore[arg-type]
        return self.op(arith.ConstantOp(attr))

    def mul(self, *xs: SSAValue) -> SSAValue:
        """x0 * x1 * ... (left to right), mulf or muli by type."""
        out = xs[0]
        for x in xs[1:]:
            out = self.op(arith.MulfOp(out, x) if is_float(out) else arith.MuliOp(out, x))
        return out

    def square_square(self, x: SSAValue) -> SSAValue:
        """(x*x)*(x*x) with one square."""
        sq = self.mul(x, x)
        return self.mul(sq, sq)


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def is_float(v: SSAValue) -> bool:
    return isinstance(_element(v.type), AnyFloat)


def is_scalar(x: SSAValue, **_: SSAValue) -> bool:
    """A `when` condition: the rewrite builds a scalar constant like `x`."""
    return not isinstance(x.type, VectorType)


@dataclass(frozen=True)
class Rule:
    pattern: Pat
    rewrite: Callable[..., SSAValue]
    """(emit, **bindings) -> the replacement of the matched op's result."""
    when: Callable[..., bool] | None = None
    """An extra condition on the bindings."""

    @property
    def root(self) -> type[Operation]:
        assert self.pattern.op is not None
        return self.pattern.op


x, a, b_, c = V("x"), V("a"), V("b"), V("c")

# fmt: off
RULES: tuple[Rule, ...] = (
    # ---- add
    Rule(P(arith.AddiOp, x, K(0)), lambda e, x: x),                                    # x+0 -> x
    Rule(P(arith.AddiOp, K(0), x), lambda e, x: x),                                    # 0+x -> x
    Rule(P(arith.AddfOp, x, K(-0.0)), lambda e, x: x),                                 # x+(-0.0) -> x
    Rule(P(arith.AddfOp, K(-0.0), x), lambda e, x: x),                                 # (-0.0)+x -> x
    # ---- sub
    Rule(P(arith.SubiOp, x, K(0)), lambda e, x: x),                                    # x-0 -> x
    Rule(P(arith.SubfOp, x, K(0.0)), lambda e, x: x),                                  # x-0.0 -> x
    Rule(P(arith.SubiOp, x, x), lambda e, x: e.const(x, 0), when=is_scalar),           # x-x -> 0 (integers)
    # ---- mul
    Rule(P(arith.MuliOp, x, K(1)), lambda e, x: x),                                    # x*1 -> x
    Rule(P(arith.MuliOp, K(1), x), lambda e, x: x),                                    # 1*x -> x
    Rule(P(arith.MuliOp, x, K(0)), lambda e, x: e.const(x, 0), when=is_scalar),        # x*0 -> 0 (integers)
    Rule(P(arith.MuliOp, K(0), x), lambda e, x: e.const(x, 0), when=is_scalar),        # 0*x -> 0 (integers)
    Rule(P(arith.MulfOp, x, K(1.0)), lambda e, x: x),                                  # x*1.0 -> x
    Rule(P(arith.MulfOp, K(1.0), x), lambda e, x: x),                                  # 1.0*x -> x
    # ---- div
    Rule(P(arith.DivSIOp, x, K(1)), lambda e, x: x),                                   # x/1 -> x
    Rule(P(arith.DivfOp, x, K(1.0)), lambda e, x: x),                                  # x/1.0 -> x
    # ---- bitwise
    Rule(P(arith.AndIOp, x, x), lambda e, x: x),                                       # x&x -> x
    Rule(P(arith.OrIOp, x, K(0)), lambda e, x: x),                                     # x|0 -> x
    Rule(P(arith.OrIOp, x, x), lambda e, x: x),                                        # x|x -> x
    Rule(P(arith.XOrIOp, x, K(0)), lambda e, x: x),                                    # x^0 -> x
    Rule(P(arith.XOrIOp, x, x), lambda e, x: e.const(x, 0), when=is_scalar),           # x^x -> 0
    # ---- select
    Rule(P(arith.SelectOp, K(True), a, b_), lambda e, a, b: a),                        # select(true,a,b) -> a
    Rule(P(arith.SelectOp, K(False), a, b_), lambda e, a, b: b),                       # select(false,a,b) -> b
    Rule(P(arith.SelectOp, c, a, a), lambda e, c, a: a),                               # select(c,a,a) -> a
    # ---- negation
    Rule(P(arith.NegfOp, P(arith.NegfOp, x)), lambda e, x: x),                         # -(-x) -> x
    # ---- integer powers, unrolled
    Rule(P(math.IPowIOp, x, K(0)), lambda e, x: e.const(x, 1), when=is_scalar),        # x**0 -> 1
    Rule(P(math.IPowIOp, x, K(1)), lambda e, x: x),                                    # x**1 -> x
    Rule(P(math.IPowIOp, x, K(2)), lambda e, x: e.mul(x, x)),                          # x**2 -> x*x
    Rule(P(math.IPowIOp, x, K(3)), lambda e, x: e.mul(x, x, x)),                       # x**3 -> x*x*x
    Rule(P(math.IPowIOp, x, K(4)), lambda e, x: e.square_square(x)),                   # x**4 -> (x*x)*(x*x)
    Rule(P(math.FPowIOp, x, K(0)), lambda e, x: e.const(x, 1.0), when=is_scalar),      # fpowi(x,0) -> 1.0
    Rule(P(math.FPowIOp, x, K(1)), lambda e, x: x),                                    # fpowi(x,1) -> x
    Rule(P(math.FPowIOp, x, K(2)), lambda e, x: e.mul(x, x)),                          # fpowi(x,2) -> x*x
    Rule(P(math.FPowIOp, x, K(3)), lambda e, x: e.mul(x, x, x)),                       # fpowi(x,3) -> x*x*x
    Rule(P(math.FPowIOp, x, K(4)), lambda e, x: e.square_square(x)),                   # fpowi(x,4) -> (x*x)*(x*x)
    Rule(P(math.PowFOp, x, K(0.0)), lambda e, x: e.const(x, 1.0), when=is_scalar),     # powf(x,0.0) -> 1.0
    Rule(P(math.PowFOp, x, K(1.0)), lambda e, x: x),                                   # powf(x,1.0) -> x
    Rule(P(math.PowFOp, x, K(2.0)), lambda e, x: e.mul(x, x)),                         # powf(x,2.0) -> x*x
    Rule(P(math.PowFOp, x, K(3.0)), lambda e, x: e.mul(x, x, x)),                      # powf(x,3.0) -> x*x*x
    Rule(P(math.PowFOp, x, K(4.0)), lambda e, x: e.square_square(x)),                  # powf(x,4.0) -> (x*x)*(x*x)
)

FMA_RULES: tuple[Rule, ...] = (
    # only with loop-simplify{fma=true}: contraction rounds once where mul+add round twice
    Rule(P(arith.AddfOp, P(arith.MulfOp, b_, c, one_use=True), a),
         lambda e, a, b, c: e.op(math.FmaOp(b, c, a))),                                # b*c+a -> fma(b,c,a)
    Rule(P(arith.AddfOp, a, P(arith.MulfOp, b_, c, one_use=True)),
         lambda e, a, b, c: e.op(math.FmaOp(b, c, a))),                                # a+b*c -> fma(b,c,a)
)
# fmt: on
