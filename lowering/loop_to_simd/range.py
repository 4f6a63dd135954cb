"""Where a lowered vector loop's blocks start and stop: trip count and full-block boundaries.

A vector loop over `[lo, hi)` (or `range(start, end, s)` with a constant step s) is split
into loops that each cover whole blocks: the main loop over multiples of W·K iterations,
a remainder loop over multiples of W, then the tail. Every boundary is `lo + m*s` for a
multiple m of the block size, computed once before the loops from the trip count.

A runtime step s (`range(lo, hi, %s)`, or a constant one too large for a block of W*K
iterations to stay an i64 step) has no constant block stride (`W*K*s` may not even be
an i64), so such a loop is lowered over its positions instead: the lowered loops walk
p in [0, trips) with unit step, exactly as a loop over `[0, trips)`, and every block computes
the variable's lanes `lo + (p + k)*s` (lanes.Stepped: i64 arithmetic, which wraps, so every
lane is the exact element of the range; iota x step after an index_cast); the scalar tail
walks the source range from the variable at its first position, `lo + p*s`. A step of 0
gives 0 trips (docs/ranges.md), so nothing runs.

Nothing overflows for any i64 bounds: the trip count is `len(range(lo, hi, s))` in
arithmetic that cannot overflow (df_to_loop/trips.py); a boundary after m < trips
iterations is an element of the range, computed as lo + m*s in i64 arithmetic (which wraps,
so the result is exact even when m*s alone is not an i64); after all trips iterations the
boundary is `hi` itself (lo + trips*s may lie past INT64_MAX), which ends a loop stepping
by a whole block exactly where lo + trips*s would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, VectorType
from xdsl.ir import Block, Region, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccumAttr
from loopopt.lowering.df_to_loop.trips import INT64_MAX, INT64_MIN, IndexMath, constant_of, trip_count
from loopopt.lowering.loop_to_simd.lanes import INDEX, LoopLowering, const_op
from loopopt.lowering.loop_to_simd.plan import binary, rebuild


LARGE_STEP = INT64_MAX // 256
"""Constant steps larger than this are lowered over positions like runtime ones: a block of
W*K iterations (up to 16 lanes x 16 blocks) would step past the i64 range."""


@dataclass
class BlockRange:
    """The source loop's range as (lo, step, trips), and the block boundaries derived from it."""

    lowering: LoopLowering
    lo: SSAValue
    end: SSAValue
    step: int
    trips: SSAValue
    """Number of iterations (>= 0)."""
    source_range: tuple[SSAValue, SSAValue, SSAValue] | None = None
    """With a runtime step: the source loop's (lo, end, step); lo/end/step above are then the
    positions [0, trips) by 1 (see the module docstring)."""

    @staticmethod
    def of(lowering: LoopLowering) -> BlockRange:
        op = lowering.source
        pre = lowering.emit_pre
        lo, end = op.lower, op.upper
        m = IndexMath(lambda o: lowering.emit_pre_numbered(o).owner, lowering.index_const)  # type: ignore[arg-type, return-value]
        if op.step is not None and (constant_of(op.step) is None or abs(constant_of(op.step)) > LARGE_STEP):
            return BlockRange.over_positions(lowering, m)
        if op.step is None:
            step = 1
        else:
            s = constant_of(op.step)
            if s == 0:
                raise LoopoptDiagnostic(
                    f"{op.name} over range(start, end, step) needs a nonzero step to be lowered to simd", op
                )
            assert s is not None
            step = s
        trips = trip_count(m, lo, end, step)  # the int: a unit step builds no dead `1 : index`
        if m.value(trips) is not None:  # constant bounds: a value of its own, not a shared constant
            trips = pre(binary(arith.MaxSIOp, trips, m.c(0))).results[0]
        trips.name_hint = "trips"
        return BlockRange(lowering, lo, end, step, trips)

    @staticmethod
    def over_positions(lowering: LoopLowering, m: IndexMath) -> BlockRange:
        """A loop with a runtime step, as its positions [0, trips) by 1 (the module docstring)."""
        op = lowering.source
        if isinstance(op, loop.PredLoopOp):
            raise LoopoptDiagnostic(f"{op.name} over range(start, end, step) with a runtime step has no simd form", op)
        assert op.step is not None
        trips = trip_count(m, op.lower, op.upper, op.step)
        trips.name_hint = "trips"
        lowering.runtime_step = (op.lower, op.step)
        return BlockRange(lowering, m.c(0), trips, 1, trips, (op.lower, op.upper, op.step))

    def full_blocks(self, block: int, limit: SSAValue | None = None) -> tuple[SSAValue, SSAValue]:
        """(iterations in whole blocks of `block`, the loop variable's value after them).

        With `limit` (an iteration count >= 0), no more than its whole blocks either: the
        blocks that end at or before iteration `limit`."""
        pre = self.lowering.emit_pre
        n = self.round_down(self.trips, block)
        if limit is not None:
            n = pre(binary(arith.MinSIOp, n, self.round_down(limit, block))).results[0]
        return n, self.point(n)

    def point(self, done: SSAValue) -> SSAValue:
        """The loop variable after `done` (<= trips) iterations: lo + done*step, or the end
        once every iteration is done (before the loop)."""
        pre = self.lowering.emit_pre
        if self.step == 1:  # lo + done <= lo + trips <= end
            if constant_of(self.lo) == 0 and constant_of(done) is None:
                return done  # 0 + done: what loop-simplify's `0+x -> x` would leave (its one rewrite
                # on most lowered modules, which cost it a second walk of the whole module)
            return pre(binary(arith.AddiOp, self.lo, done)).results[0]
        if self.step == -1:
            return pre(binary(arith.SubiOp, self.lo, done)).results[0]
        i64 = IntegerType(64)
        lo = pre(arith.IndexCastOp(self.lo, i64)).results[0]
        k = pre(arith.IndexCastOp(done, i64)).results[0]
        s = pre(const_op(self.step, i64)).results[0]
        at = pre(binary(arith.AddiOp, lo, pre(binary(arith.MuliOp, k, s)).results[0])).results[0]
        at = pre(arith.IndexCastOp(at, IndexType())).results[0]
        inside = pre(arith.CmpiOp(done, self.trips, "slt")).results[0]
        return pre(arith.SelectOp(inside, at, self.end)).results[0]

    def round_down(self, count: SSAValue, block: int) -> SSAValue:
        """`count - count % block` (before the loop)."""
        if block == 1:
            return count
        pre = self.lowering.emit_pre
        k = self.lowering.index_const(block)
        rem = pre(binary(arith.RemSIOp, count, k)).results[0]
        return pre(binary(arith.SubiOp, count, rem)).results[0]

    def after(self, done: SSAValue) -> BlockRange:
        """The range of the iterations after the first `done` (a count, before the loop)."""
        pre = self.lowering.emit_pre
        lo = self.point(done)
        trips = pre(binary(arith.SubiOp, self.trips, done)).results[0]
        return BlockRange(self.lowering, lo, self.end, self.step, trips, self.source_range)

    def remaining(self, done: SSAValue) -> SSAValue:
        """Iterations left after `done` of them."""
        return self.lowering.emit_pre(binary(arith.SubiOp, self.trips, done)).results[0]

    def block_loop(self, start: SSAValue, stop: SSAValue, block: int, inits: Sequence[SSAValue],
                   acc_types: Sequence, accs: Sequence[AccumAttr]) -> tuple[loop.ForOp, Block]:  # fmt: skip
        """`loop.for %i in range(start, stop, block*step)` with an empty body (to be filled)."""
        if not INT64_MIN <= block * self.step <= INT64_MAX:
            raise LoopoptDiagnostic(
                f"{self.lowering.source.name}: a block of {block} iterations of step {self.step} "
                "spans more than the i64 range; cannot be lowered to simd (leave this loop scalar)",
                self.lowering.source,
            )
        step = self.lowering.index_const(block * self.step)
        body = Block(arg_types=[INDEX, *acc_types])
        body.args[0].name_hint = self.lowering.source.var.name_hint
        sources = [a.name_hint or "acc" for a in self.lowering.source.acc_args]
        for k, arg in enumerate(body.args[1:]):
            arg.name_hint = f"{sources[k % len(sources)]}_v" if k < len(acc_types) and sources and isinstance(acc_types[k], VectorType) else "cursor"
        self.lowering.scratch.append(body)
        for_op = new_for([start, stop, step], inits, accs, body)
        for_op.location = self.lowering.source.location
        return for_op, body

    def tail_bounds(self, start: SSAValue) -> list[SSAValue]:
        """Bounds of a unit loop from `start` to the source loop's end (same step); with a
        runtime step `start` is a position, and the loop starts at the variable there."""
        op = self.lowering.source
        if self.source_range is not None:
            lo, end, step = self.source_range
            return [self.variable_at(start, lo, end, step), end, step]
        if op.step is None:
            return [start, self.end]
        return [start, self.end, op.step]

    def variable_at(self, position: SSAValue, lo: SSAValue, end: SSAValue, step: SSAValue) -> SSAValue:
        """The source loop variable at `position` (<= trips) of a runtime-step loop: lo + p*step in
        wrapping i64 (an element of the range, so exact), or the end after every iteration."""
        pre = self.lowering.emit_pre
        i64 = IntegerType(64)
        lo64, p64, s64 = (pre(arith.IndexCastOp(v, i64)).results[0] for v in (lo, position, step))
        at = pre(binary(arith.AddiOp, lo64, pre(binary(arith.MuliOp, p64, s64)).results[0])).results[0]
        at = pre(arith.IndexCastOp(at, IndexType())).results[0]
        inside = pre(arith.CmpiOp(position, self.trips, "slt")).results[0]
        return pre(arith.SelectOp(inside, at, end)).results[0]


def new_for(bounds: Sequence[SSAValue], inits: Sequence[SSAValue], accs: Sequence[AccumAttr], body: Block | Region) -> loop.ForOp:
    """`loop.ForOp(bounds, inits, accs, body)`, built like the first equal one (plan.rebuild): the
    IRDL constructor packs the operand segment sizes and checks the region again for every loop."""
    key = (loop.ForOp, len(bounds), tuple([v.type for v in inits]), tuple(accs))
    region = body if isinstance(body, Region) else Region(body)
    op = rebuild(key, [*bounds, *inits], lambda: loop.ForOp(bounds, inits, accs, region), [region])
    assert isinstance(op, loop.ForOp)
    return op
