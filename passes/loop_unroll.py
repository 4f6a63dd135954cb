"""`loop-unroll{factor=U, full_threshold=N}`: unroll innermost scalar loops (seed 000 §2.3).

Copies of the body index memory through affine offsets (`%b[%i + 2]`), not through new
index arithmetic, so unrolled accesses stay comparable for loop fusion and the vectorizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.dialects.loop_attrs import neutral_attr
from loopopt.passes.loop_surgery import (
    constant_index,
    index_const,
    is_innermost,
    located,
    split_point,
)
from loopopt.passes.options import check_options
from loopopt.passes.simplify_rules import constant_value
from loopopt.passes.vectorize_legality import is_stored, reduction_shape_error


def constant_iterations(op: loop.LoopLike) -> range | None:
    """The loop variable's values when every bound is an `arith.constant`, else None.

    A lazy `range`: its length is known without listing a huge trip count."""
    bounds = [constant_index(b) for b in op.bounds]
    if any(b is None for b in bounds):
        return None
    lo, hi, *rest = bounds
    step = rest[0] if rest else 1
    if step == 0:
        return None
    return range(lo, hi, step)  # type: ignore[arg-type]


MAX_FULL_UNROLL_OPS = 4096
"""Full unrolling makes at most this many ops from one loop (trip count x body ops), so a
nest of constant loops whose inner loops were unrolled first cannot grow without bound."""


def body_size(op: Operation) -> int:
    """Ops in `op`'s regions (nested ones included), terminators too."""
    return sum(1 for region in op.regions for _ in region.walk())


@dataclass
class BodyCopies:
    """Copies of one loop body, what is the same for every copy decided once: whether the
    variable needs an SSA value, each load's and store's decoded affine indices. A zip's
    `streams` ((stream, element argument) pairs) are read by a `loop.load stream[var_as]`
    at the head of each copy, as in the `loop.for` the zip means (`zip_as_for`), which is
    not built."""

    body: Block
    var: SSAValue
    acc_args: Sequence[SSAValue]
    streams: Sequence[tuple[SSAValue, SSAValue]]
    like: Operation
    _ops: list[tuple[Operation, list[Affine] | None]] = field(init=False)
    _needs_var: bool = field(init=False)

    @staticmethod
    def of(op: loop.ForOp | loop.ZipOp) -> BodyCopies:
        streams = tuple(zip(op.streams, op.stream_args, strict=True)) if isinstance(op, loop.ZipOp) else ()
        return BodyCopies(op.body.block, op.var, op.acc_args, streams, op)

    def __post_init__(self) -> None:
        var, body = self.var, self.body
        rebuilt = [u.operation for u in var.uses if isinstance(u.operation, loop.LoadOp | loop.StoreOp)]
        self._needs_var = any(u.operation not in rebuilt or u.operation.parent_block() is not body for u in var.uses)
        self._ops = []
        for op in body.ops:
            if isinstance(op, loop.YieldOp):
                break
            self._ops.append((op, op.affine_indices if isinstance(op, loop.LoadOp | loop.StoreOp) else None))

    def emit(self, var_as: Affine, accs: Sequence[SSAValue], emit) -> list[SSAValue]:
        """One copy with `var := var_as` and the accumulators `accs`; its yields."""
        var, like = self.var, self.like
        mapper: dict[SSAValue, SSAValue] = dict(zip(self.acc_args, accs, strict=True))
        if self._needs_var:
            mapper[var] = _materialize(var_as, emit, like)
        for stream, arg in self.streams:
            load = loop.LoadOp(stream, [_remap(Affine.var(var).substitute(var, var_as), mapper)])
            load.location = like.location
            load.results[0].name_hint = arg.name_hint
            mapper[arg] = load.results[0]
            emit(load)
        for op, affine in self._ops:
            if affine is not None:
                indices = [_remap(a.substitute(var, var_as), mapper) for a in affine]
                if isinstance(op, loop.LoadOp):
                    new: Operation = loop.LoadOp(mapper.get(op.buf, op.buf), indices)
                else:
                    new = loop.StoreOp(mapper.get(op.value, op.value), mapper.get(op.buf, op.buf), indices)
                new.location = op.location
                new.attributes |= op.attributes
                for old_r, new_r in zip(op.results, new.results, strict=True):
                    mapper[old_r] = new_r
                    new_r.name_hint = old_r.name_hint
                emit(new)
            else:
                emit(op.clone(mapper))
        last = self.body.last_op
        if isinstance(last, loop.YieldOp):
            return [mapper.get(v, v) for v in last.values]
        return []


def _remap(a: Affine, mapper: dict[SSAValue, SSAValue]) -> Affine:
    return Affine(tuple((mapper.get(v, v), c) for v, c in a.terms), a.offset)


def _materialize(a: Affine, emit, like: Operation) -> SSAValue:
    """An SSA index holding `a` (a constant, or `v + offset`)."""
    coeffs, offset = a.normalized()
    if not coeffs:
        return emit(index_const(offset, like)).result
    ((v, c),) = coeffs.items()
    assert c == 1, "unrolled variables are var + k"
    if offset == 0:
        return v
    return emit(located(arith.AddiOp(v, emit(index_const(offset, like)).result), like)).result


@dataclass
class FullyUnrollConstantLoop(RewritePattern):
    """Replace a loop with constant bounds and at most `threshold` iterations by its body copies.

    ```
    %s = loop.for %i in [%c0, %c3) accs(%a = %z : i32 add) {
      %x = loop.load %b[%i] : !loop.buf<i32>
      %t = arith.addi %a, %x : i32
      loop.yield %t : i32
    }
    ```
    becomes
    ```
    %x0 = loop.load %b[0] : !loop.buf<i32>
    %t0 = arith.addi %z, %x0 : i32
    %x1 = loop.load %b[1] : !loop.buf<i32>
    %t1 = arith.addi %t0, %x1 : i32
    %x2 = loop.load %b[2] : !loop.buf<i32>
    %s  = arith.addi %t1, %x2 : i32
    ```
    Each copy's accumulators are the previous copy's yields (the inits for the first);
    the loop's results are the last copy's yields (the inits when there is no iteration).
    """

    threshold: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.ForOp | loop.ZipOp) or not is_innermost(op):
            return
        values = constant_iterations(op)
        if values is None or len(values) > self.threshold:
            return
        if len(values) * body_size(op) > MAX_FULL_UNROLL_OPS:
            return
        copies = BodyCopies.of(op)
        accs: list[SSAValue] = list(op.inits)
        for value in values:
            accs = copies.emit(Affine.const(value), accs, rewriter.insert)
        rewriter.replace(op, [], accs)


def splittable(op: loop.ForOp | loop.ZipOp) -> bool:
    """Whether every accumulator of `op` is a reduction that may run as independent partial
    chains combined at the end: a builtin kind whose combining order does not matter on its
    type (integers wrap exactly, min/max/and/or are lattices) or a float add/mul marked
    `reassoc`, stepped once by its combine op and not stored (a scan is not split)."""
    for k, acc in enumerate(op.accumulators):
        t = acc.arg.type
        if acc.scan or not acc.kind.is_builtin or acc.kind.arith_combiner(t) is None:
            return False
        if acc.kind.order_matters(t) and not acc.reassoc:
            return False
        if is_stored(acc) or reduction_shape_error(acc, k) is not None:
            return False
    return True


@dataclass
class UnrollByFactor(RewritePattern):
    """Unroll an interval loop by `factor`, with a remainder loop for the last n mod U.

    ```
    %r = loop.for %i in [%lo, %hi) accs(%a = %init : f32 add reassoc) { B(%i, %a) }
    ```
    becomes
    ```
    %cU    = arith.constant U : index
    %trips = arith.subi %hi, %lo : index
    %rem   = arith.remsi %trips, %cU : index
    %split = arith.subi %hi, %rem : index
    %m = loop.for %i in range(%lo, %split, %cU) accs(%a = %init : f32 add reassoc) {
      B(%i, %a) -> %a1;  B(%i + 1, %a1) -> %a2;  ...;  B(%i + U-1, %a{U-1}) -> %aU
      loop.yield %aU : f32
    }
    %r = loop.for %i in [%split, %hi) accs(%a = %m : f32 add reassoc) { B(%i, %a) }
    ```
    With constant bounds the split is a constant, and the remainder is left out when U
    divides the trip count; a constant trip count below U is left alone.

    With `split`, copy k of the body steps its own accumulators instead (U independent
    chains: the latency of the combine op is paid once per U elements), the copies after the
    first starting at the kind's neutral element; after the main loop they are combined
    pairwise, ((a0 op a1) op (a2 op a3)), into the remainder loop's inits. Only loops whose
    accumulators are all `splittable` are unrolled then: one chain through U copies hides
    nothing.
    """

    factor: int
    split: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if self.factor < 2 or not isinstance(op, loop.ForOp | loop.ZipOp):
            return
        if not op.is_interval or not is_innermost(op):
            return
        values = constant_iterations(op)
        if values is not None and len(values) < self.factor:
            return
        split_accs = self.split and bool(op.inits)
        if split_accs and not splittable(op):
            return
        c_factor = rewriter.insert(index_const(self.factor, op)).result
        split, split_const = _split_point(rewriter, op, self.factor, c_factor)

        copies = BodyCopies.of(op)
        chains = self.factor if split_accs else 1
        neutrals = [_neutral(acc, rewriter, op) for acc in op.accumulators] if chains > 1 else []
        inits = list(op.inits) + neutrals * (chains - 1)
        block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
        var = block.args[0]
        for new_arg, old_arg in zip(block.args, [op.var, *op.acc_args * chains], strict=True):
            new_arg.name_hint = old_arg.name_hint
        n = len(op.inits)
        accs: list[SSAValue] = list(block.args[1:])

        def add(new: Operation) -> Operation:
            block.add_op(new)
            return new

        for k in range(self.factor):
            j = n * (k % chains)
            accs[j : j + n] = copies.emit(Affine.var(var) + k, accs[j : j + n], add)
        block.add_op(located(loop.YieldOp(*accs), op))
        main = located(loop.ForOp([op.lower, split, c_factor], inits, list(op.accs.data) * chains, block), op)
        rewriter.insert(main)
        results = [_combined(op.accumulators[i], list(main.res)[i::n], rewriter, op) for i in range(n)]

        if split_const is not None and split_const >= (constant_index(op.upper) or 0):
            rewriter.replace(op, [], results)
            return
        # the remainder is the loop itself over [split, hi), continuing from the main loop's
        # results: its operands rebound (a clone would copy the body once more)
        streams = list(op.streams) if isinstance(op, loop.ZipOp) else []
        op.operands = [split, op.upper, *streams, *results]
        rewriter.handle_operation_modification(op)


def _split_point(rewriter: PatternRewriter, op: loop.ForOp | loop.ZipOp, factor: int, c_factor: SSAValue) -> tuple[SSAValue, int | None]:
    """`split_point` of `op`'s interval; from a constant 0 to a runtime bound, `hi - hi rem U`
    without its `hi - 0` (what loop-simplify's `x-0 -> x` left of it after the lowering: its only
    rewrite on the scalar pipeline's lowered module, which cost it a second walk of the module)."""
    if constant_value(op.lower) == 0 and constant_index(op.upper) is None:
        hi = op.upper
        rem = rewriter.insert(located(arith.RemSIOp(hi, c_factor), op))
        split = rewriter.insert(located(arith.SubiOp(hi, rem), op)).result
        rem.result.name_hint, split.name_hint = "rem", "split"
        if not hi.name_hint:
            hi.name_hint = "trips"  # the name the replaced `trips = hi - 0` handed it
        return split, None
    return split_point(rewriter, op, op.lower, op.upper, factor, c_factor)


def _neutral(acc: loop.Accumulator, rewriter: PatternRewriter, like: Operation) -> SSAValue:
    """Where a split-off partial chain of `acc` starts."""
    value = rewriter.insert(located(arith.ConstantOp(neutral_attr(acc.kind, acc.arg.type)), like)).result
    value.name_hint = acc.arg.name_hint
    return value


def _combined(acc: loop.Accumulator, partials: list[SSAValue], rewriter: PatternRewriter, like: Operation) -> SSAValue:
    """The partial chains of `acc` combined pairwise (one chain: itself)."""
    combiner = acc.kind.arith_combiner(acc.arg.type)
    while len(partials) > 1:
        assert combiner is not None, "splittable accumulators have a combiner"
        pairs = [
            rewriter.insert(located(combiner(partials[k], partials[k + 1]), like)).results[0]
            for k in range(0, len(partials) - 1, 2)
        ]
        partials = pairs + partials[len(pairs) * 2 :]
    return partials[0]


def populate_loop_unroll_patterns(factor: int, full_threshold: int, split: bool = False) -> list[RewritePattern]:
    """Full unrolling first: a small constant loop needs no remainder."""
    return [FullyUnrollConstantLoop(full_threshold), UnrollByFactor(factor, split)]


@dataclass(frozen=True)
class LoopUnrollPass(ModulePass):
    """Unroll innermost scalar loops (`loop.for`, `loop.zip`) (seed 000 §2.3).

    Input: Loop IR. A loop whose bounds are constants and whose trip count is at most
    `full_threshold` is replaced by that many copies of its body (no loop; constant
    indices); otherwise an interval loop is unrolled by `factor` into a range_desc main loop
    with `factor` body copies per iteration plus a remainder loop (see `UnrollByFactor`).
    Accumulators thread through the copies. A zip's streams become explicit loads. When full
    unrolling empties a loop nest's inner loop, the enclosing loop becomes innermost and is
    considered too. Vector loops (vecloop, predloop) and loops with nested loops are left
    alone; `factor=1` turns partial unrolling off, `full_threshold=0` full unrolling.
    """

    name = "loop-unroll"

    factor: int = 4
    """Body copies per iteration of the main loop (1: no partial unrolling)."""
    full_threshold: int = 8
    """Fully unroll loops with a constant trip count at most this (0: never)."""
    accs: str = "chain"
    """chain: accumulators thread through the copies; split: each copy steps its own partial
    accumulators (loops with an accumulator that may not be reordered are left alone)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = populate_loop_unroll_patterns(self.factor, self.full_threshold, self.accs == "split")
        worklist = [c for c in op.walk() if isinstance(c, loop.ForOp | loop.ZipOp) and is_innermost(c)]
        while worklist:
            candidate = worklist.pop(0)
            parent = candidate.parent_op()
            rewriter = PatternRewriter(InsertPoint.before(candidate))
            applied = None
            for pattern in patterns:
                pattern.match_and_rewrite(candidate, rewriter)
                if rewriter.has_done_action:
                    applied = pattern
                    break
            if isinstance(applied, FullyUnrollConstantLoop) and isinstance(parent, loop.ForOp | loop.ZipOp) and is_innermost(parent):
                worklist.append(parent)
