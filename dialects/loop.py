"""The `loop` dialect: Loop IR (seed 000 §1) over buffers with affine indices.

Structured loops sit between the loop-free `df` dialect and the target `simd` dialect:

* `loop.for`      — Loop: a variable over a LoopRange, a body, accumulators (folds);
* `loop.vecloop`  — VecLoop: the same body run lane-wise (SPMD) W lanes at a time, plus a tail;
* `loop.predloop` — PredLoop: a vecloop whose body runs only on the lanes its `pred` selects;
* `loop.zip`      — Zip: named buffer streams walked together over one range;
* `loop.load` / `loop.store` / `loop.append`, `loop.dim` (`loop.call_dim`), `loop.alloc` / `loop.dealloc`.

A LoopRange is `[%lo, %hi)` (interval, unit step) or `range(%start, %end, %step)`
(range_desc; start, start+step, ... while before end, either sign of step). An accumulator
is a body block argument with an init operand, a kind (`#loop.acc<add reassoc>`) and a next
value given by `loop.yield`; the loop's results are the final values. Several accumulators on
one loop are horizontally fused folds. `LoopLike` is the Python view passes use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, OpResult, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
    VarConstraint,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    HasParent,
    IsTerminator,
    MemoryAllocEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.loop_affine import (
    Affine,
    decode,
    encode,
    parse_indices,
    print_indices,
    resolve_indices,
    verify_encoding,
)
from loopopt.dialects.split_halves import SPLIT_HALVES_ATTR as SPLIT_HALVES_ATTR, split_problem
from loopopt.dialects.loop_attrs import (
    AccKind,
    AccKindAttr,
    AccumAttr,
    BufType,
    MaskForm,
    MaskFormAttr,
    RangeKind,
    RangeKindAttr,
    TailKind,
    TailKindAttr,
    WidthAttr,
    acc_kind_fits_type,
    neutral_attr,
    neutral_element,
    parse_acc_spec,
    parse_width_value,
)

__all__ = [
    "Affine",
    "AccKind",
    "AccKindAttr",
    "AccumAttr",
    "Accumulator",
    "AllocOp",
    "AppendOp",
    "LaneScanOp",
    "BufType",
    "CallDimOp",
    "DeallocOp",
    "DimOp",
    "ForOp",
    "LoadOp",
    "Loop",
    "LoopLike",
    "MaskForm",
    "MaskFormAttr",
    "PredLoopOp",
    "RangeKind",
    "RangeKindAttr",
    "StoreOp",
    "TailKind",
    "TailKindAttr",
    "VecLoopOp",
    "WidthAttr",
    "YieldOp",
    "ZipOp",
    "neutral_attr",
    "neutral_element",
]


# =========================================================================== memory effects
# xDSL's effect traits, refined to name the buffer they touch so that fusion and LICM can
# ask "does this loop write %b?" rather than only "does it write something?".


class ReadsBuffer(MemoryReadEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return frozenset((EffectInstance(MemoryEffectKind.READ, op.operands[0]),))


class WritesBuffer(MemoryWriteEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        buf = op.operands[1]  # store and append: (value, buffer, ...)
        return frozenset((EffectInstance(MemoryEffectKind.WRITE, buf),))


class AllocatesBuffer(MemoryAllocEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return frozenset((EffectInstance(MemoryEffectKind.ALLOC, op.results[0]),))


class FreesBuffer(MemoryFreeEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return frozenset((EffectInstance(MemoryEffectKind.FREE, op.operands[0]),))


def _buf_type(value: SSAValue) -> BufType:
    """The type of an operand or result that IRDL already constrained to `!loop.buf`."""
    return cast(BufType, value.type)


# =========================================================================== buffers


@irdl_op_definition
class DimOp(IRDLOperation):
    """The length of dimension `dim` of a buffer (rows are dimension 0 of a rank-2 buffer).

    `%n = loop.dim %b, 0 : !loop.buf<f32>`
    """

    name = "loop.dim"

    buf = operand_def(BufType)
    dim = prop_def(IntegerAttr[I64])
    """Which dimension: 0, or 1 for the columns of a rank-2 buffer."""
    result = result_def(IndexType())

    assembly_format = "$buf `,` $dim attr-dict `:` type($buf)"
    traits = traits_def(Pure())

    def __init__(self, buf: SSAValue | Operation, dim: int):
        super().__init__(
            operands=[buf], result_types=[IndexType()], properties={"dim": IntegerAttr(dim, 64)}
        )

    def verify_(self) -> None:
        rank = _buf_type(self.buf).rank.data
        if not 0 <= self.dim.value.data < rank:
            raise VerifyException(f"dimension {self.dim.value.data} out of range for a rank-{rank} buffer")


PARALLEL_ATTR = "loop.parallel"
"""The func attribute holding a kernel's parallel plan (passes/loop_parallelize.py)."""


@irdl_op_definition
class CallDimOp(IRDLOperation):
    """The length of a rank-1 buffer's axis over the whole kernel call, in a kernel with a
    `loop.parallel` plan: its driver runs the kernel on chunks (offset pointers, the chunk's
    length), so `loop.dim` is the chunk's length and this is the driver's n (the first input's
    length; every buffer of a split kernel is on that axis). Run unsplit it is `loop.dim %b, 0`.

    `%n = loop.call_dim %b : !loop.buf<f32>`

    For decisions that must not depend on the split, only on the call: a map streams its
    output when the whole output reaches the threshold (loop_to_simd/vecloop.emit_streaming).
    The C target passes it to `<k>__chunk` as one more parameter (targets/c_parallel.py)."""

    name = "loop.call_dim"

    buf = operand_def(BufType)
    result = result_def(IndexType())

    assembly_format = "$buf attr-dict `:` type($buf)"
    traits = traits_def(Pure())

    def __init__(self, buf: SSAValue | Operation):
        super().__init__(operands=[buf], result_types=[IndexType()])

    def verify_(self) -> None:
        if _buf_type(self.buf).rank.data != 1:
            raise VerifyException("loop.call_dim of a buffer that is not rank 1")
        f = self.parent_op()
        while f is not None and f.name != "func.func":
            f = f.parent_op()
        if f is None or PARALLEL_ATTR not in f.attributes:
            raise VerifyException("loop.call_dim outside a kernel with a loop.parallel plan (its driver passes the length)")


@irdl_op_definition
class AllocOp(IRDLOperation):
    """A fresh buffer for a materialized intermediate, one length operand per dimension.

    `%t = loop.alloc(%n) : !loop.buf<f32>`; freed by `loop.dealloc`.
    """

    name = "loop.alloc"

    sizes = var_operand_def(IndexType())
    result = result_def(BufType)

    assembly_format = "`(` $sizes `)` attr-dict `:` type($result)"
    traits = traits_def(AllocatesBuffer())

    def __init__(self, sizes: Sequence[SSAValue | Operation], buf_type: BufType):
        super().__init__(operands=[sizes], result_types=[buf_type])

    def verify_(self) -> None:
        rank = _buf_type(self.result).rank.data
        if len(self.sizes) != rank:
            raise VerifyException(f"loop.alloc of a rank-{rank} buffer expects {rank} sizes, found {len(self.sizes)}")


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """Frees a buffer made by `loop.alloc`.

    `loop.dealloc %t : !loop.buf<f32>`
    """

    name = "loop.dealloc"

    buf = operand_def(BufType)

    assembly_format = "$buf attr-dict `:` type($buf)"
    traits = traits_def(FreesBuffer())

    def __init__(self, buf: SSAValue | Operation):
        super().__init__(operands=[buf])


class AffineAccess(IRDLOperation):
    """Shared by loads and stores: an affine index (Σ coeff·var + offset) per buffer dimension.

    Not an op by itself; see loop_affine.py for the encoding in properties.
    """

    @property
    def affine_indices(self) -> list[Affine]:
        """One `Affine` per dimension."""
        return decode(self.indices, self.dim_terms, self.coeffs, self.offsets)

    def normalized_indices(self) -> list[tuple[dict[SSAValue, int], int]]:
        """`[({var: coeff}, offset), ...]` per dimension: what fusion compares."""
        return [a.normalized() for a in self.affine_indices]

    @property
    def buf_type(self) -> BufType:
        return _buf_type(self.buf)

    def _verify_access(self, value_type: Attribute, what: str) -> None:
        bt = self.buf_type
        verify_encoding(bt.rank.data, len(self.indices), self.dim_terms, self.coeffs, self.offsets)
        if value_type != bt.element_type:
            raise VerifyException(f"{what} type {value_type} != buffer element type {bt.element_type}")


def _access_props(indices: Sequence[Affine]) -> tuple[list[SSAValue], dict[str, Attribute]]:
    operands, dim_terms, coeffs, offsets = encode(indices)
    return operands, {"dim_terms": dim_terms, "coeffs": coeffs, "offsets": offsets}


@irdl_op_definition
class LoadOp(AffineAccess):
    """Reads one element: `%x = loop.load %b[2 * %i + 1] : !loop.buf<f32>`.

    In a vecloop body it reads W lanes (a gather when the index is not unit-stride in the loop
    variable, a broadcast when it does not depend on it).
    """

    name = "loop.load"

    buf = operand_def(BufType)
    indices = var_operand_def(IndexType())
    result = result_def()
    dim_terms = prop_def(DenseArrayBase[I64])
    """How many index operands each dimension uses."""
    coeffs = prop_def(DenseArrayBase[I64])
    """The coefficient of each index operand."""
    offsets = prop_def(DenseArrayBase[I64])
    """The constant offset of each dimension."""

    traits = traits_def(ReadsBuffer())

    def __init__(self, buf: SSAValue | Operation, indices: Sequence[Affine]):
        buf = SSAValue.get(buf)
        assert isinstance(buf.type, BufType)
        operands, props = _access_props(indices)
        super().__init__(operands=[buf, operands], result_types=[buf.type.element_type], properties=props)

    def verify_(self) -> None:
        self._verify_access(self.result.type, "loaded")

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        buf = parser.parse_unresolved_operand()
        parsed = parse_indices(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        bt = parser.parse_type()
        if not isinstance(bt, BufType):
            parser.raise_error(f"loop.load expects a !loop.buf type, found {bt}")
        op = cls(parser.resolve_operand(buf, bt), resolve_indices(parser, parsed))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.buf)
        print_indices(printer, self.affine_indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


@irdl_op_definition
class StoreOp(AffineAccess):
    """Writes one element: `loop.store %v, %b[%i + 3] : !loop.buf<f32>`.

    In a vecloop body it writes W lanes (a scatter in general); storing a lane-varying value to
    a uniform index is an error.
    """

    name = "loop.store"

    value = operand_def()
    buf = operand_def(BufType)
    indices = var_operand_def(IndexType())
    dim_terms = prop_def(DenseArrayBase[I64])
    """How many index operands each dimension uses."""
    coeffs = prop_def(DenseArrayBase[I64])
    """The coefficient of each index operand."""
    offsets = prop_def(DenseArrayBase[I64])
    """The constant offset of each dimension."""

    traits = traits_def(WritesBuffer())

    def __init__(self, value: SSAValue | Operation, buf: SSAValue | Operation, indices: Sequence[Affine]):
        operands, props = _access_props(indices)
        super().__init__(operands=[value, buf, operands], properties=props)

    def verify_(self) -> None:
        self._verify_access(self.value.type, "stored")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        buf = parser.parse_unresolved_operand()
        parsed = parse_indices(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        bt = parser.parse_type()
        if not isinstance(bt, BufType):
            parser.raise_error(f"loop.store expects a !loop.buf type, found {bt}")
        op = cls(
            parser.resolve_operand(value, bt.element_type),
            parser.resolve_operand(buf, bt),
            resolve_indices(parser, parsed),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.buf)
        print_indices(printer, self.affine_indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.buf.type)


# =========================================================================== terminator


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a loop body with the accumulators' next values (the Accum step), in order.

    In a `loop.predloop`'s `pred` region it yields the lane's predicate (one i1).
    `loop.yield %t, %m : f32, f32`
    """

    name = "loop.yield"

    values = var_operand_def()

    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(ForOp, VecLoopOp, PredLoopOp, ZipOp)))

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class LaneScanOp(IRDLOperation):
    """Inclusive prefix of a lane-wise value across the lanes of one vector-loop block.

    `%p = loop.lane_scan <add> %x : f32`: in a block of W lanes, lane k holds
    x[0] ⊕ ... ⊕ x[k] (⊕ the kind; a predloop's block: its active lanes, in order); on one
    lane (a `loop.for`, a scalar tail) it is x itself. loop-vectorize writes a scan's step
    `acc ⊕ x` as `acc ⊕ lane_scan(x)` with a `scan` accumulator (the running value on
    every lane), so the body means the same scan at every width. Floats add and multiply
    in lane order within the block; integers wrap; min/max propagate NaN.
    """

    name = "loop.lane_scan"

    T: ClassVar = VarConstraint("T", AnyAttr())

    kind = prop_def(AccKindAttr)
    value = operand_def(T)
    result = result_def(T)

    assembly_format = "$kind $value attr-dict `:` type($value)"
    traits = lazy_traits_def(lambda: (Pure(), HasParent(ForOp, VecLoopOp, PredLoopOp, ZipOp)))

    def __init__(self, kind: AccKind, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[value.type], properties={"kind": AccKindAttr(kind)})

    def verify_(self) -> None:
        t = self.value.type
        kind = self.kind.data
        if kind == AccKind.CUSTOM:
            raise VerifyException("loop.lane_scan needs a kind with a neutral element, found custom")
        if not isinstance(t, Float32Type | Float64Type) and not (isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64)):
            raise VerifyException(f"loop.lane_scan takes f32, f64, i8, i16, i32 or i64 lanes, found {t}")
        if not acc_kind_fits_type(kind, t):
            raise VerifyException(f"a {kind.value} scan needs integer lanes, found {t}")


# =========================================================================== loops


@dataclass(frozen=True)
class Accumulator:
    """One accumulator of a loop, as passes see it (seed 000 §1.2 Accum)."""

    arg: BlockArgument
    """The body block argument: the current value inside the body."""
    init: SSAValue
    """The value before the first iteration."""
    kind: AccKind
    reassoc: bool
    """Whether float reassociation is allowed (vectorizing a float add/mul needs it)."""
    result: OpResult
    """The final value, a result of the loop."""
    next: SSAValue | None
    """The value the body yields (None while the body has no terminator)."""
    scan: bool = False
    """A scan's running value (`#loop.acc<... scan>`): a vector loop carries its last lane."""


_INDEX_ONLY = (IndexType(),)
"""The leading body argument types of a loop.for / vecloop / predloop: the loop variable."""


class LoopLike(IRDLOperation):
    """What every loop op shares: a variable, a range, a body and accumulators.

    Not an op by itself: `loop.for`, `loop.vecloop`, `loop.predloop` and `loop.zip` derive
    from it, so passes can write `isinstance(op, LoopLike)` and use these accessors.
    """

    NUM_LEADING_RESULTS: ClassVar[int] = 0
    """Results before the accumulators' (predloop: its count)."""

    # ---- range
    @property
    def is_interval(self) -> bool:
        return self.range_kind.data == RangeKind.INTERVAL

    @property
    def lower(self) -> SSAValue:
        """`lo` of an interval, `start` of a range_desc."""
        return self.bounds[0]

    @property
    def upper(self) -> SSAValue:
        """`hi` (exclusive) of an interval, `end` (exclusive) of a range_desc."""
        return self.bounds[1]

    @property
    def step(self) -> SSAValue | None:
        """The step of a range_desc; None for an interval (unit step)."""
        return None if self.is_interval else self.bounds[2]

    # ---- body
    @property
    def body_block(self) -> Block:
        return self.body.block

    @property
    def var(self) -> BlockArgument:
        """The loop variable (in the body; a predloop's `pred` region has its own)."""
        return self.body.block.args[0]

    @property
    def num_leading_args(self) -> int:
        """Body block arguments before the accumulators' (the variable, zip stream elements)."""
        return 1

    @property
    def acc_args(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[self.num_leading_args :])

    @property
    def acc_results(self) -> tuple[OpResult, ...]:
        return tuple(self.res[self.NUM_LEADING_RESULTS :])

    @property
    def yield_op(self) -> YieldOp | None:
        last = self.body.block.last_op
        return last if isinstance(last, YieldOp) else None

    @property
    def accumulators(self) -> list[Accumulator]:
        y = self.yield_op
        return [
            Accumulator(arg, init, acc.acc_kind, acc.is_reassoc, result, y.values[k] if y else None, acc.is_scan)
            for k, (arg, init, acc, result) in enumerate(
                zip(self.acc_args, self.inits, self.accs.data, self.acc_results, strict=True)
            )
        ]

    # ---- verification shared by all loops
    def _verify_range(self) -> None:
        expected = 2 if self.is_interval else 3
        bounds = self.bounds  # (each read of a variadic accessor slices the operands anew)
        if len(bounds) != expected:
            raise VerifyException(
                f"{self.range_kind.data.value} range expects {expected} bound operands, found {len(bounds)}"
            )
        step = None if expected == 2 else bounds[2].owner
        if (
            isinstance(step, Operation)
            and step.name == "arith.constant"
            and isinstance(value := step.properties.get("value"), IntegerAttr)
            and value.value.data == 0
        ):
            raise VerifyException("range step must not be 0 (the loop would never end)")

    def _verify_accs(self, leading_arg_types: Sequence[Attribute]) -> None:
        # every accessor read once: a loop's verification was ~1/8 of verifying a lowered module
        inits = self.inits
        accs = self.accs.data
        if len(accs) != len(inits):
            raise VerifyException(
                f"expected {len(inits)} accumulator kinds (one per init), found {len(accs)}"
            )
        body = self.body.block
        args = body._args
        init_types = [v.type for v in inits]
        expected_types = [*leading_arg_types, *init_types]
        if len(args) != len(expected_types):
            raise VerifyException(
                f"body block expects {len(expected_types)} arguments "
                f"({len(leading_arg_types)} leading + {len(inits)} accumulators), found {len(args)}"
            )
        if not isinstance(args[0].type, IndexType):
            raise VerifyException(f"loop variable must be index, found {args[0].type}")
        for k, (arg, t) in enumerate(zip(args, expected_types)):
            if arg.type != t:
                raise VerifyException(f"body block argument #{k} has type {arg.type}, expected {t}")
        for k, (acc, t) in enumerate(zip(accs, init_types)):
            if not acc_kind_fits_type(acc.acc_kind, t):
                raise VerifyException(
                    f"accumulator #{k} of kind {acc.acc_kind.value} needs an integer type, found {t}"
                )
        results = list(self.res)
        leading = self._leading_result_types()
        expected_results = [*leading, *init_types]
        if [r.type for r in results] != expected_results:
            what = f"{len(leading)} leading + " if leading else ""
            raise VerifyException(
                f"expected results ({', '.join(map(str, expected_results))}) "
                f"({what}one per accumulator), found ({', '.join(str(r.type) for r in results)})"
            )
        last = body._last_op
        if isinstance(last, YieldOp):  # (yield_op)
            found = [v.type for v in last._operands]
            if found != init_types:
                raise VerifyException(
                    f"loop.yield must give the {len(init_types)} accumulators' next values "
                    f"({', '.join(map(str, init_types))}), found ({', '.join(map(str, found))})"
                )

    def _leading_result_types(self) -> list[Attribute]:
        return []

    def verify_(self) -> None:
        self._verify_range()
        self._verify_accs(_INDEX_ONLY)
        self._verify_split()

    def _verify_split(self) -> None:
        """`loop.split_halves` only on a `loop.for` the C printer can split (dialects/split_halves.py)."""
        if SPLIT_HALVES_ATTR not in self.attributes:
            return
        if not isinstance(self, ForOp):
            raise VerifyException(f"{SPLIT_HALVES_ATTR} on a {self.name}: only a loop.for splits into halves")
        if (why := split_problem(self)) is not None:
            raise VerifyException(f"{SPLIT_HALVES_ATTR} loop cannot be split into halves: {why}")


class VectorLoopLike(LoopLike):
    """A loop whose body runs lane-wise, W lanes at a time: vecloop and predloop."""

    def _verify_width(self) -> None:
        concrete = self.width.concrete
        for k, acc in enumerate(self.accs.data):
            if acc.acc_kind == AccKind.CUSTOM and concrete != 1:
                raise VerifyException(
                    f"accumulator #{k} of kind custom cannot be split across lanes: "
                    f"needs width 1, found {self.width.spelling}"
                )


# --------------------------------------------------------------------------- syntax helpers


def _parse_header(parser: Parser) -> tuple[Parser.UnresolvedArgument, RangeKind, list[SSAValue]]:
    """`%i in [%lo, %hi)` or `%i in range(%start, %end, %step)`."""
    var = parser.parse_argument(expect_type=False)
    parser.parse_keyword("in")
    index = IndexType()
    if parser.parse_optional_punctuation("[") is not None:
        lo = parser.parse_operand(index)
        parser.parse_punctuation(",")
        hi = parser.parse_operand(index)
        parser.parse_punctuation(")")
        return var, RangeKind.INTERVAL, [lo, hi]
    parser.parse_keyword("range", "expected a loop range: `[lo, hi)` or `range(start, end, step)`")
    bounds = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_operand(index))
    if len(bounds) != 3:
        parser.raise_error(f"range(start, end, step) expects 3 operands, found {len(bounds)}")
    return var, RangeKind.RANGE_DESC, bounds


def _print_header(printer: Printer, op: LoopLike, var: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(var)
    if op.is_interval:
        printer.print_string(" in [")
        printer.print_list(op.bounds, printer.print_ssa_value)
        printer.print_string(")")
    else:
        printer.print_string(" in range(")
        printer.print_list(op.bounds, printer.print_ssa_value)
        printer.print_string(")")


def _parse_accs(parser: Parser) -> tuple[list[Parser.UnresolvedArgument], list[SSAValue], list[Attribute], list[AccumAttr]]:
    """`accs(%acc = %init : f32 add reassoc, ...)`, optional."""
    args: list[Parser.UnresolvedArgument] = []
    inits: list[SSAValue] = []
    types: list[Attribute] = []
    kinds: list[AccumAttr] = []
    if parser.parse_optional_keyword("accs") is None:
        return args, inits, types, kinds

    def one() -> None:
        args.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        init: UnresolvedOperand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        kind, reassoc, scan = parse_acc_spec(parser)
        inits.append(parser.resolve_operand(init, t))
        types.append(t)
        kinds.append(AccumAttr(kind, reassoc, scan))

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
    return args, inits, types, kinds


def _print_accs(printer: Printer, op: LoopLike) -> None:
    if not op.inits:
        return
    printer.print_string(" accs(")

    def one(k: int) -> None:
        printer.print_ssa_value(op.acc_args[k])
        printer.print_string(" = ")
        printer.print_ssa_value(op.inits[k])
        printer.print_string(" : ")
        printer.print_attribute(op.inits[k].type)
        printer.print_string(" " + op.accs.data[k].spec)

    printer.print_list(range(len(op.inits)), one)
    printer.print_string(")")


def _parse_paren_word(parser: Parser, keyword: str, parse_value):
    parser.parse_keyword(keyword)
    with parser.in_parens():
        return parse_value()


def _print_body(printer: Printer, op: LoopLike, region: Region, always_terminator: bool = False) -> None:
    printer.print_string(" ")
    printer.print_region(
        region,
        print_entry_block_args=False,
        print_empty_block=False,
        print_block_terminators=always_terminator or bool(op.inits),
    )


def _finish(op: LoopLike, attrs: dict[str, Attribute]) -> None:
    op.attributes |= attrs
    for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
        ensure_terminator(op, trait)


def _loop_props(range_kind: RangeKind, accs: Sequence[AccumAttr]) -> dict[str, Attribute]:
    """A loop's properties (a fresh dict: each op owns its own), the attributes shared per
    (kind, accumulators): building them (IRDL checks, ~10 µs each) for every loop built cost more
    than the lookup, and attributes are immutable values."""
    key = (range_kind, tuple(accs))
    found = _LOOP_PROPS.get(key)
    if found is None:
        if len(_LOOP_PROPS) > 1024:
            _LOOP_PROPS.clear()
        found = _LOOP_PROPS[key] = (RangeKindAttr(range_kind), ArrayAttr(key[1]))
    return {"range_kind": found[0], "accs": found[1]}


_LOOP_PROPS: dict[tuple[RangeKind, tuple[AccumAttr, ...]], tuple[RangeKindAttr, ArrayAttr]] = {}


def _range_kind_of(bounds: Sequence[SSAValue | Operation]) -> RangeKind:
    return RangeKind.INTERVAL if len(bounds) == 2 else RangeKind.RANGE_DESC


@irdl_op_definition
class ForOp(LoopLike):
    """Loop (seed 000 §1.1): a scalar loop with optional accumulators.

    ```
    %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add reassoc) {
      %x = loop.load %b[%i] : !loop.buf<f32>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    loop.for %i in range(%start, %end, %c3) { ... }   // start, start+3, ... < end
    ```
    Body block arguments: the variable, then one per accumulator. Without accumulators it is
    a pure mapping loop (its effects are its stores).
    """

    name = "loop.for"

    bounds = var_operand_def(IndexType())
    inits = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")
    range_kind = prop_def(RangeKindAttr)
    """interval `[lo, hi)` (2 bounds) or range_desc `range(start, end, step)` (3 bounds)."""
    accs = prop_def(ArrayAttr[AccumAttr])
    """One `#loop.acc<kind [reassoc]>` per accumulator, in block-argument order."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect()))

    def __init__(
        self,
        bounds: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        accs: Sequence[AccumAttr],
        body: Region | Block,
    ):
        super().__init__(
            operands=[bounds, inits],
            result_types=[[SSAValue.get(v).type for v in inits]],
            regions=[body if isinstance(body, Region) else Region(body)],
            properties=_loop_props(_range_kind_of(bounds), accs),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        var, kind, bounds = _parse_header(parser)
        acc_args, inits, types, accs = _parse_accs(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([var.resolve(IndexType()), *(a.resolve(t) for a, t in zip(acc_args, types))])
        op = cls(bounds, inits, accs, body)
        _finish(op, attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        _print_header(printer, self, self.var)
        _print_accs(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        _print_body(printer, self, self.body)


@irdl_op_definition
class VecLoopOp(VectorLoopLike):
    """VecLoop (seed 000 §1.3): the body runs lane-wise, `width` lanes at a time (SPMD).

    ```
    %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %b[%i] : !loop.buf<f32>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    ```
    Body ops are scalar-typed and every value stands for W lanes. The variable is varying:
    lane k of a block starting at iteration i sees the value of iteration i+k, so
    `loop.load %b[%i]` reads lanes i..i+W-1 and a load whose index does not involve the
    variable is uniform (a broadcast). A store writes each lane's element.

    Accumulators are vector accumulators: every lane starts at the kind's neutral element,
    the blocks update them lane-wise, and after the last full block the lanes are combined
    horizontally (in lane order) and then with the init. The `tail` handles the n mod W
    iterations left: `scalar` runs the same body one lane at a time, continuing the now
    scalar accumulator; `masked` runs one partial block with the lanes past the end
    inactive (before the horizontal combine); `none` promises there are none.
    A width-1 loop is a scalar loop (its accumulator starts at the init), which is the only
    width a `custom` accumulator allows. Results equal `loop.for`'s up to float
    reassociation, which `reassoc` on an accumulator permits.
    """

    name = "loop.vecloop"

    bounds = var_operand_def(IndexType())
    inits = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")
    range_kind = prop_def(RangeKindAttr)
    """interval `[lo, hi)` (2 bounds) or range_desc `range(start, end, step)` (3 bounds)."""
    accs = prop_def(ArrayAttr[AccumAttr])
    """One `#loop.acc<kind [reassoc]>` per accumulator, in block-argument order."""
    width = prop_def(WidthAttr)
    """Lanes per block: `#loop.width<W>` until convert-loop-to-simd picks the ISA's, then an integer."""
    tail = prop_def(TailKindAttr)
    """How the n mod W leftover iterations run: scalar | none | masked."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect()))

    def __init__(
        self,
        bounds: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        accs: Sequence[AccumAttr],
        body: Region | Block,
        width: WidthAttr | int | str = "W",
        tail: TailKind = TailKind.SCALAR,
    ):
        super().__init__(
            operands=[bounds, inits],
            result_types=[[SSAValue.get(v).type for v in inits]],
            regions=[body if isinstance(body, Region) else Region(body)],
            properties=_loop_props(_range_kind_of(bounds), accs)
            | {"width": width if isinstance(width, WidthAttr) else WidthAttr(width), "tail": TailKindAttr(tail)},
        )

    def verify_(self) -> None:
        super().verify_()
        self._verify_width()

    @classmethod
    def parse(cls, parser: Parser) -> VecLoopOp:
        var, kind, bounds = _parse_header(parser)
        width = _parse_paren_word(parser, "width", lambda: parse_width_value(parser))
        tail = _parse_paren_word(parser, "tail", lambda: parser.parse_str_enum(TailKind))
        acc_args, inits, types, accs = _parse_accs(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([var.resolve(IndexType()), *(a.resolve(t) for a, t in zip(acc_args, types))])
        op = cls(bounds, inits, accs, body, WidthAttr(width), tail)
        _finish(op, attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        _print_header(printer, self, self.var)
        printer.print_string(f" width({self.width.spelling}) tail({self.tail.data.value})")
        _print_accs(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        _print_body(printer, self, self.body)


@irdl_op_definition
class PredLoopOp(VectorLoopLike):
    """PredLoop (seed 000 §1.4): a vecloop whose `body` runs only on the lanes `pred` selects.

    ```
    %cnt, %s = loop.predloop %i in [%c0, %n) width(8) tail(scalar) mask(unset)
        accs(%acc = %z : f32 add reassoc) pred {
      %x = loop.load %in[%i] : !loop.buf<f32>
      %p = arith.cmpf ogt, %x, %zero : f32
      loop.yield %p : i1
    } body {
      %x = loop.load %in[%i] : !loop.buf<f32>
      %y = arith.mulf %x, %x : f32
      loop.append %y, %out : !loop.buf<f32>
      %t = arith.addf %acc, %y : f32
      loop.yield %t : f32
    }
    ```
    `pred` (block argument: the variable) yields one i1 per lane; `body` (the variable, then
    the accumulators) runs on the active lanes only, and accumulators change only on active
    lanes. `loop.append` in the body writes the active lanes' values compacted, in lane
    order, at a running cursor (filter → map). The first result is the number of active lanes
    over the whole range (the filter's count, `index`), then the accumulators' final values.
    Width, tail and the lane-wise reading of the body are as for `loop.vecloop`; width 1 is
    the scalar form built before vectorization. `mask` says how lowering realises the mask.
    """

    name = "loop.predloop"

    bounds = var_operand_def(IndexType())
    inits = var_operand_def()
    res = var_result_def()
    pred = region_def("single_block")
    body = region_def("single_block")
    range_kind = prop_def(RangeKindAttr)
    """interval `[lo, hi)` (2 bounds) or range_desc `range(start, end, step)` (3 bounds)."""
    accs = prop_def(ArrayAttr[AccumAttr])
    """One `#loop.acc<kind [reassoc]>` per accumulator, in block-argument order."""
    width = prop_def(WidthAttr)
    """Lanes per block: `#loop.width<W>` until lowering, an integer after; 1 before vectorization."""
    tail = prop_def(TailKindAttr)
    """How the n mod W leftover iterations run: scalar | none | masked."""
    mask_form = prop_def(MaskFormAttr)
    """How the lane mask is realised: unset until lowering, then avx512_mask | select_blend | branch_per_lane."""

    NUM_LEADING_RESULTS: ClassVar[int] = 1

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect()))

    def __init__(
        self,
        bounds: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        accs: Sequence[AccumAttr],
        pred: Region | Block,
        body: Region | Block,
        width: WidthAttr | int | str = 1,
        tail: TailKind = TailKind.SCALAR,
        mask_form: MaskForm = MaskForm.UNSET,
    ):
        super().__init__(
            operands=[bounds, inits],
            result_types=[[IndexType(), *(SSAValue.get(v).type for v in inits)]],
            regions=[r if isinstance(r, Region) else Region(r) for r in (pred, body)],
            properties=_loop_props(_range_kind_of(bounds), accs)
            | {
                "width": width if isinstance(width, WidthAttr) else WidthAttr(width),
                "tail": TailKindAttr(tail),
                "mask_form": MaskFormAttr(mask_form),
            },
        )

    @property
    def count(self) -> OpResult:
        """The number of active lanes (elements appended by a filter)."""
        return self.res[0]

    @property
    def pred_var(self) -> BlockArgument:
        return self.pred.block.args[0]

    @property
    def pred_yield(self) -> YieldOp | None:
        last = self.pred.block.last_op
        return last if isinstance(last, YieldOp) else None

    def _leading_result_types(self) -> list[Attribute]:
        return [IndexType()]

    def verify_(self) -> None:
        super().verify_()
        self._verify_width()
        args = self.pred.block.args
        if len(args) != 1 or not isinstance(args[0].type, IndexType):
            raise VerifyException(
                f"pred region expects one index argument (the loop variable), found ({', '.join(str(a.type) for a in args)})"
            )
        y = self.pred_yield
        if y is not None and [v.type for v in y.values] != [i1]:
            raise VerifyException(
                f"pred region must yield one i1, found ({', '.join(str(v.type) for v in y.values)})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> PredLoopOp:
        var, kind, bounds = _parse_header(parser)
        width = _parse_paren_word(parser, "width", lambda: parse_width_value(parser))
        tail = _parse_paren_word(parser, "tail", lambda: parser.parse_str_enum(TailKind))
        mask = _parse_paren_word(parser, "mask", lambda: parser.parse_str_enum(MaskForm))
        acc_args, inits, types, accs = _parse_accs(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_keyword("pred")
        pred = parser.parse_region([var.resolve(IndexType())])
        parser.parse_keyword("body")
        body = parser.parse_region([var.resolve(IndexType()), *(a.resolve(t) for a, t in zip(acc_args, types))])
        op = cls(bounds, inits, accs, pred, body, WidthAttr(width), tail, mask)
        _finish(op, attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        _print_header(printer, self, self.pred_var)
        # Both regions bind the one variable named in the header. xDSL's Printer has no public
        # way to give two values one name, so alias the body's variable to the header's name.
        printer._ssa_values[self.var] = printer._ssa_values[self.pred_var]  # pyright: ignore[reportPrivateUsage]
        printer.print_string(
            f" width({self.width.spelling}) tail({self.tail.data.value}) mask({self.mask_form.data.value})"
        )
        _print_accs(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" pred")
        _print_body(printer, self, self.pred, always_terminator=True)
        printer.print_string(" body")
        _print_body(printer, self, self.body)


@irdl_op_definition
class ZipOp(LoopLike):
    """Zip (seed 000 §1.6): rank-1 buffer streams walked together over one range.

    ```
    %s = loop.zip %i in [%c0, %n) streams(%x = %bx : !loop.buf<f32>, %y = %by : !loop.buf<f32>)
        accs(%acc = %z : f32 add) {
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %acc, %p : f32
      loop.yield %t : f32
    }
    ```
    Body block arguments: the variable, each stream's element at the variable (`%bx[%i]`), then
    the accumulators. Used for zipWith and for struct-of-arrays record maps: one stream per field.
    """

    name = "loop.zip"

    bounds = var_operand_def(IndexType())
    streams = var_operand_def(BufType)
    inits = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")
    range_kind = prop_def(RangeKindAttr)
    """interval `[lo, hi)` (2 bounds) or range_desc `range(start, end, step)` (3 bounds)."""
    accs = prop_def(ArrayAttr[AccumAttr])
    """One `#loop.acc<kind [reassoc]>` per accumulator, in block-argument order."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect(), ZipReads()))

    def __init__(
        self,
        bounds: Sequence[SSAValue | Operation],
        streams: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        accs: Sequence[AccumAttr],
        body: Region | Block,
    ):
        super().__init__(
            operands=[bounds, streams, inits],
            result_types=[[SSAValue.get(v).type for v in inits]],
            regions=[body if isinstance(body, Region) else Region(body)],
            properties=_loop_props(_range_kind_of(bounds), accs),
        )

    @property
    def num_leading_args(self) -> int:
        return 1 + len(self.streams)

    @property
    def stream_args(self) -> tuple[BlockArgument, ...]:
        """The body block arguments bound to each stream's current element."""
        return tuple(self.body.block.args[1 : 1 + len(self.streams)])

    def verify_(self) -> None:
        self._verify_range()
        elem_types: list[Attribute] = []
        for k, s in enumerate(self.streams):
            bt = _buf_type(s)
            if bt.rank.data != 1:
                raise VerifyException(f"zip stream #{k} must be a rank-1 buffer, found rank {bt.rank.data}")
            elem_types.append(bt.element_type)
        self._verify_accs([IndexType(), *elem_types])

    @classmethod
    def parse(cls, parser: Parser) -> ZipOp:
        var, kind, bounds = _parse_header(parser)
        parser.parse_keyword("streams")
        names: list[Parser.UnresolvedArgument] = []
        streams: list[SSAValue] = []

        def one() -> None:
            names.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            operand = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            t = parser.parse_type()
            if not isinstance(t, BufType):
                parser.raise_error(f"zip streams must be !loop.buf, found {t}")
            streams.append(parser.resolve_operand(operand, t))

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
        acc_args, inits, types, accs = _parse_accs(parser)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        elem_args = [n.resolve(s.type.element_type) for n, s in zip(names, streams)]  # type: ignore[union-attr]
        body = parser.parse_region(
            [var.resolve(IndexType()), *elem_args, *(a.resolve(t) for a, t in zip(acc_args, types))]
        )
        op = cls(bounds, streams, inits, accs, body)
        _finish(op, attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        _print_header(printer, self, self.var)
        printer.print_string(" streams(")

        def one(k: int) -> None:
            printer.print_ssa_value(self.stream_args[k])
            printer.print_string(" = ")
            printer.print_ssa_value(self.streams[k])
            printer.print_string(" : ")
            printer.print_attribute(self.streams[k].type)

        printer.print_list(range(len(self.streams)), one)
        printer.print_string(")")
        _print_accs(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        _print_body(printer, self, self.body)


class ZipReads(MemoryReadEffect):
    """A zip reads its streams (besides whatever its body does)."""

    @classmethod
    def get_effects(cls, op: Operation):
        assert isinstance(op, ZipOp)
        return frozenset(EffectInstance(MemoryEffectKind.READ, s) for s in op.streams)


# =========================================================================== append


@irdl_op_definition
class AppendOp(IRDLOperation):
    """Writes the active lanes' values compacted, in lane order, at the predloop's cursor.

    `loop.append %y, %out : !loop.buf<f32>` — only directly in a `loop.predloop` body. The
    cursor is the number of lanes active in earlier iterations, so several appends in one
    body write their elements at the same positions (struct-of-arrays outputs).
    """

    name = "loop.append"

    value = operand_def()
    out = operand_def(BufType)

    traits = traits_def(WritesBuffer(), HasParent(PredLoopOp))

    def __init__(self, value: SSAValue | Operation, out: SSAValue | Operation):
        super().__init__(operands=[value, out])

    def verify_(self) -> None:
        bt = _buf_type(self.out)
        if bt.rank.data != 1:
            raise VerifyException(f"loop.append output must be a rank-1 buffer, found rank {bt.rank.data}")
        if self.value.type != bt.element_type:
            raise VerifyException(f"appended type {self.value.type} != buffer element type {bt.element_type}")
        parent = self.parent_op()
        if isinstance(parent, PredLoopOp) and self.parent_region() is not parent.body:
            raise VerifyException("loop.append must be in a loop.predloop's body region, found it in the pred region")

    @classmethod
    def parse(cls, parser: Parser) -> AppendOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        out = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        bt = parser.parse_type()
        if not isinstance(bt, BufType):
            parser.raise_error(f"loop.append expects a !loop.buf type, found {bt}")
        op = cls(parser.resolve_operand(value, bt.element_type), parser.resolve_operand(out, bt))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.out)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.out.type)


Loop = Dialect(
    "loop",
    [
        # buffers
        DimOp,
        CallDimOp,
        AllocOp,
        DeallocOp,
        LoadOp,
        StoreOp,
        AppendOp,
        # lane-wise
        LaneScanOp,
        # loops
        ForOp,
        VecLoopOp,
        PredLoopOp,
        ZipOp,
        YieldOp,
    ],
    [
        BufType,
        WidthAttr,
        AccumAttr,
        AccKindAttr,
        RangeKindAttr,
        TailKindAttr,
        MaskFormAttr,
    ],
)
