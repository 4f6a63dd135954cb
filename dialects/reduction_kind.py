"""The reduction kinds shared by df, loop and simd: one enum, what each kind means, one syntax.

`df.reduce` / `df.scan` (`#df.kind<add>`), loop accumulators (`#loop.acc_kind<add>`) and
`simd.hreduce` (`#simd.reduce_kind<add>`) name the same kinds, so they are one `ReductionKind`
and a kind passes from dialect to dialect unchanged. The meaning lives here once: the neutral
element on each type, the combiner (as an arith op and as numpy), which kinds may be
reordered, and what NaN does. Each dialect spells its attribute as

    class ReduceKindAttr(ReductionKindSyntax, EnumAttribute[ReductionKind]):
        name = "df.kind"

(`kinds` narrows the kinds a dialect has: `simd.hreduce` has no `custom`).
"""

from __future__ import annotations

from enum import auto
from typing import Any, ClassVar, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, IntegerType
from xdsl.ir import Attribute, Operation
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class ReductionKind(StrEnum):
    """How a reduction, scan or accumulator combines elements.

    Integers are signed and wrap in their width, except umin/umax, which read the same bits as
    unsigned; i1 is a bool (add is xor, mul, min and umin are and, max and umax are or). Float
    min/max propagate NaN (arith.minimumf, numpy.minimum); float add/mul follow IEEE, so they
    are not associative (`float_order_matters`)."""

    ADD = auto()
    """Sum; integers wrap in the element type."""
    MUL = auto()
    """Product; integers wrap in the element type."""
    MIN = auto()
    """Minimum (signed for integers; a NaN operand gives NaN, like numpy and arith.minimumf)."""
    MAX = auto()
    """Maximum (signed for integers; NaN-propagating for floats)."""
    UMIN = auto()
    """Unsigned minimum (integers only: the bits read as unsigned; on i1 it is and)."""
    UMAX = auto()
    """Unsigned maximum (integers only: the bits read as unsigned; on i1 it is or)."""
    AND = auto()
    """Bitwise and (integers and i1 only)."""
    OR = auto()
    """Bitwise or (integers and i1 only)."""
    CUSTOM = auto()
    """A body region combines (acc, x) -> acc, applied in element order: no neutral element,
    so it cannot be split across lanes or reordered."""

    @property
    def is_builtin(self) -> bool:
        """Every kind but `custom`: a fixed, associative and commutative combiner."""
        return self is not ReductionKind.CUSTOM

    def order_matters(self, t: Attribute) -> bool:
        """Whether combining in another order may change the result on `t`: float add/mul
        (rounding) and custom. Integer kinds wrap exactly and min/max/and/or are lattices,
        so those are associative and commutative (float min/max up to the sign of a zero)."""
        return not self.is_builtin or (
            self in (ReductionKind.ADD, ReductionKind.MUL) and isinstance(t, Float32Type | Float64Type)
        )

    def neutral(self, t: Attribute) -> int | float | bool:
        """The identity of this kind on scalar type `t`: where every lane of a vector
        accumulator starts. add 0, mul 1, min +inf / INT_MAX, max -inf / INT_MIN, and
        all-ones, or 0, umin all-ones (-1: UINT_MAX's bits), umax 0; i1 as a bool. Float add's
        identity is -0.0 (x + -0.0 is x for every x, while -0.0 + +0.0 is +0.0);
        loop_to_simd.accum.lane_start starts a sum from +0.0 where that gives the same bits.
        ValueError for custom or a kind `t` lacks (umin/umax on floats)."""
        if not self.is_builtin:
            raise ValueError("a custom accumulator has no neutral element")
        if isinstance(t, Float32Type | Float64Type):
            if self not in _FLOAT_NEUTRAL:
                raise ValueError(f"accumulator kind {self.value} has no neutral element on {t}")
            return _FLOAT_NEUTRAL[self]
        if isinstance(t, IntegerType) and t.width.data == 1:
            return _BOOL_NEUTRAL[self]
        if isinstance(t, IntegerType | IndexType):
            bits = 64 if isinstance(t, IndexType) else t.width.data
            return {
                ReductionKind.ADD: 0,
                ReductionKind.MUL: 1,
                ReductionKind.MIN: 2 ** (bits - 1) - 1,
                ReductionKind.MAX: -(2 ** (bits - 1)),
                ReductionKind.UMIN: -1,
                ReductionKind.UMAX: 0,
                ReductionKind.AND: -1,
                ReductionKind.OR: 0,
            }[self]
        raise ValueError(f"no neutral element for type {t}")

    def arith_combiner(self, t: Attribute) -> type[Operation] | None:
        """The arith op computing `a ⊕ b` on scalar type `t` (or vectors of it); None for
        custom or a kind `t` lacks (float and/or)."""
        if isinstance(t, IntegerType) and t.width.data == 1:
            return _BOOL_COMBINERS.get(self)
        table = _FLOAT_COMBINERS if isinstance(t, Float32Type | Float64Type) else _INT_COMBINERS
        return table.get(self)

    def combine(self, t: Attribute, a: Any, b: Any) -> Any:
        """`a ⊕ b` on numpy scalars or arrays of `t`'s dtype, with `arith_combiner`'s meaning
        (wrapping integers, NaN-propagating min/max, i1 add as xor, umin/umax on the unsigned
        view of the same bits, returned in the operands' dtype)."""
        import numpy as np

        if not self.is_builtin:
            raise ValueError("a custom kind has no fixed combiner")
        if self in _UNSIGNED and not (isinstance(t, IntegerType) and t.width.data == 1):
            return unsigned_minmax(self, a, b)
        if isinstance(t, IntegerType) and t.width.data == 1:
            fn = np.logical_xor if self is ReductionKind.ADD else getattr(np, _BOOL_UFUNC[self])
        else:
            fn = getattr(np, _UFUNC[self])
        with np.errstate(over="ignore"):
            return fn(a, b)


_UNSIGNED = (ReductionKind.UMIN, ReductionKind.UMAX)


def unsigned_order(x: Any) -> Any:
    """A numpy integer array (or scalar) viewed with the unsigned dtype of its width, so that
    numpy's minimum/maximum compare the bits as umin/umax do (bools and unsigned as they are)."""
    import numpy as np

    x = np.asarray(x)
    if x.dtype.kind == "i":
        return x.view(np.dtype(f"u{x.dtype.itemsize}"))
    if x.dtype.kind not in "ub":
        raise ValueError(f"unsigned min/max is defined on integers, not {x.dtype}")
    return x


def unsigned_minmax(kind: ReductionKind, a: Any, b: Any) -> Any:
    """umin / umax of two integer operands (numpy scalars or arrays), in `a`'s dtype."""
    import numpy as np

    a = np.asarray(a)
    fn = np.maximum if kind is ReductionKind.UMAX else np.minimum
    r = fn(unsigned_order(a), unsigned_order(np.asarray(b).astype(a.dtype, copy=False))).view(a.dtype)
    return r[()] if r.ndim == 0 else r


_FLOAT_NEUTRAL: dict[ReductionKind, float] = {
    ReductionKind.ADD: -0.0,
    ReductionKind.MUL: 1.0,
    ReductionKind.MIN: float("inf"),
    ReductionKind.MAX: float("-inf"),
}
_BOOL_NEUTRAL: dict[ReductionKind, bool] = {
    ReductionKind.ADD: False,
    ReductionKind.MUL: True,
    ReductionKind.MIN: True,
    ReductionKind.MAX: False,
    ReductionKind.UMIN: True,
    ReductionKind.UMAX: False,
    ReductionKind.AND: True,
    ReductionKind.OR: False,
}
_FLOAT_COMBINERS: dict[ReductionKind, type[Operation]] = {
    ReductionKind.ADD: arith.AddfOp,
    ReductionKind.MUL: arith.MulfOp,
    ReductionKind.MIN: arith.MinimumfOp,
    ReductionKind.MAX: arith.MaximumfOp,
}
_INT_COMBINERS: dict[ReductionKind, type[Operation]] = {
    ReductionKind.ADD: arith.AddiOp,
    ReductionKind.MUL: arith.MuliOp,
    ReductionKind.MIN: arith.MinSIOp,
    ReductionKind.MAX: arith.MaxSIOp,
    ReductionKind.UMIN: arith.MinUIOp,
    ReductionKind.UMAX: arith.MaxUIOp,
    ReductionKind.AND: arith.AndIOp,
    ReductionKind.OR: arith.OrIOp,
}
_BOOL_COMBINERS: dict[ReductionKind, type[Operation]] = {
    ReductionKind.ADD: arith.XOrIOp,
    ReductionKind.MUL: arith.AndIOp,
    ReductionKind.MIN: arith.AndIOp,
    ReductionKind.MAX: arith.OrIOp,
    ReductionKind.UMIN: arith.AndIOp,
    ReductionKind.UMAX: arith.OrIOp,
    ReductionKind.AND: arith.AndIOp,
    ReductionKind.OR: arith.OrIOp,
}
_UFUNC: dict[ReductionKind, str] = {
    ReductionKind.ADD: "add",
    ReductionKind.MUL: "multiply",
    ReductionKind.MIN: "minimum",
    ReductionKind.MAX: "maximum",
    ReductionKind.AND: "bitwise_and",
    ReductionKind.OR: "bitwise_or",
}
_BOOL_UFUNC: dict[ReductionKind, str] = {
    ReductionKind.MUL: "logical_and",
    ReductionKind.MIN: "logical_and",
    ReductionKind.MAX: "logical_or",
    ReductionKind.UMIN: "logical_and",
    ReductionKind.UMAX: "logical_or",
    ReductionKind.AND: "logical_and",
    ReductionKind.OR: "logical_or",
}


class ReductionKindSyntax:
    """Mixin for `EnumAttribute[ReductionKind]`: `<kind>` in angle brackets, and `kinds`, the
    kinds this dialect has (others neither parse nor verify). Build one as `Attr(kind)`."""

    kinds: ClassVar[tuple[ReductionKind, ...]] = tuple(ReductionKind)
    data: ReductionKind

    @classmethod
    def parse_kind(cls, parser: AttrParser) -> ReductionKind:
        """A bare kind keyword (op syntax such as `df.reduce add ...` uses it directly)."""
        start = parser.pos
        kind = parser.parse_str_enum(ReductionKind)
        if kind not in cls.kinds:
            names = [k.value for k in cls.kinds]
            parser.raise_error(f"Expected `{'`, `'.join(names[:-1])}`, or `{names[-1]}`.", start, parser.pos)
        return kind

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ReductionKind:
        with parser.in_angle_brackets():
            return cls.parse_kind(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_identifier_or_string_literal(self.data.value)

    def verify(self) -> None:
        if self.data not in self.kinds:
            raise VerifyException(f"{cast(Any, self).name} has no kind {self.data.value}")
