"""Narrow accumulators in a loop of wider lanes: carried in the loop's integer width.

A reduction of i8/i16 values in a loop whose lanes are 32-bit (the bytes an f32 compare
selects, summed or maxed as i8) would reduce a part vector (its W lanes in the low bytes of a
register, targets/c_narrow_part.py), which has no form. Carried in i32 instead, the
accumulator is an ordinary vector of the loop's W 32-bit lanes, and the narrow values reach it
through the part vectors' conversion to the wide integer (loop_to_simd/narrow_convert.py):

```
%m = loop.vecloop ... accs(%acc = %z : i8 max) {      %zw = arith.extsi %z : i8 to i32
  ...                                           ->    %mw = loop.vecloop ... accs(%acc = %zw : i32 max) {
  %t = arith.maxsi %acc, %s : i8                        %sw = arith.extsi %s : i8 to i32
  loop.yield %t : i8                                    %t = arith.maxsi %acc, %sw : i32
}                                                       loop.yield %t : i32
                                                      }
                                                      %m = arith.trunci %mw : i32 to i8
```
The same bits (docs/integer_semantics.md): add, mul, and, or wrap modulo 2^32, whose low 8
(16) bits are the narrow wrapping result; min/max compare sign-extended values and umin/umax
zero-extended ones, in the narrow type's order; truncation gives the narrow value back. The
rewrite is of the loop IR (the scalar tail runs the widened body too); a predloop's (a filter
-> reduce) the same. Scans of i8/i16 are not vectorized at all (VEC_REJECT_SCAN).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float16Type, IntegerType
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccKind
from loopopt.dialects.simd_targets import element_bits
from loopopt.lowering.loop_to_simd.lanes import located
from loopopt.lowering.loop_to_simd.table import INT_COMBINE
from loopopt.lowering.loop_to_simd.widen import widened_values, widening_sums
from loopopt.lowering.loop_to_simd.width import data_types

UNSIGNED = (AccKind.UMIN, AccKind.UMAX)
"""Kinds whose narrow order is the zero-extended one (the others sign-extend)."""


def _step(acc: loop.Accumulator) -> Operation | None:
    """The accumulator's only use, `acc ⊕ x` of its kind, yielded and used nowhere else."""
    uses = list(acc.arg.uses)
    combine = INT_COMBINE.get(acc.kind)
    if acc.scan or combine is None or len(uses) != 1 or type(step := uses[0].operation) is not combine:
        return None
    if acc.next is not step.results[0] or len(list(step.results[0].uses)) != 1:
        return None
    return step


def _narrow(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data in (8, 16)


def widen_narrow_accumulators(op: loop.VecLoopOp | loop.PredLoopOp, rewriter: PatternRewriter) -> None:
    """Carry each i8/i16 reduction of a loop of wider (at most 32-bit) lanes in that width."""
    if not any(_narrow(acc.arg.type) for acc in op.accumulators):
        return  # nothing to widen: the analysis below walks the whole body (every vector loop)
    # widening sums' i32/i64 values do not set the width (width.widening): leave them out
    sums = widening_sums(op)  # none in a predloop
    rest = data_types(op, widened_values(sums, op) if sums else set())
    types = {IntegerType(32) if isinstance(t, Float16Type | BFloat16Type) else t for t in rest}
    widest = max((element_bits(t) for t in types), default=0)
    if widest > 32:
        return  # i8/i16 next to 64-bit lanes has no part vectors at all (width.py)
    for j, acc in enumerate(op.accumulators):
        t = acc.arg.type
        if not _narrow(t) or t.width.data >= widest:  # type: ignore[attr-defined]
            continue
        step = _step(acc)
        if step is None:
            continue
        wide = IntegerType(widest)
        ext = arith.ExtUIOp if acc.kind in UNSIGNED else arith.ExtSIOp
        init = located(ext(acc.init, wide), op)
        rewriter.insert(init, InsertPoint.before(op))
        op.operands[len(op.bounds) + j] = init.result  # operands: the bounds, then the inits
        x = step.operands[1] if step.operands[0] is acc.arg else step.operands[0]
        x_wide = located(ext(x, wide), step)
        rewriter.insert(x_wide, InsertPoint.before(step))
        arg = rewriter.replace_value_with_new_type(acc.arg, wide)
        new_step = located(type(step)(arg, x_wide.result), step)
        rewriter.replace(step, new_step)
        result = rewriter.replace_value_with_new_type(acc.result, wide)
        trunc = located(arith.TruncIOp(result, t), op)
        rewriter.insert(trunc, InsertPoint.after(op))
        for use in list(result.uses):
            if use.operation is not trunc:
                use.operation.operands[use.index] = trunc.result

