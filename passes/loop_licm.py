"""`loop-licm`: hoist loop-invariant ops out of loops (seed 004 loop-dependency sets)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from loopopt.dialects import loop
from loopopt.passes.loop_deps import LoopDependencies, defined_inside, enclosing_loops, is_effect_free
from loopopt.passes.loop_fusion.elem0 import IndexForm, elem0_domain, index_form
from loopopt.passes.options import check_options

def is_speculatable(op: Operation) -> bool:
    """Effect-free and cannot trap: safe to run even when the loop runs zero times.

    Integer division is total in loopopt (`x / 0 = 0`, `MIN / -1 = MIN`; the C printer
    routes any divisor that may be 0 or -1 through the non-trapping `lo_div*` helpers), so
    a division by a loop-invariant variable hoists like any other arithmetic."""
    return not op.regions and is_effect_free(op)


def runs_at_least_once(op: loop.LoopLike) -> bool:
    """The loop's trip count is a constant ≥ 1 (predloops may run their body on no lane)."""
    if isinstance(op, loop.PredLoopOp):
        return False
    dom = elem0_domain(op)
    n = dom.n.constant if dom is not None else None
    return n is not None and n >= 1


def load_in_bounds(load: loop.LoadOp) -> bool:
    """Every index is the variable of an enclosing `[c ≥ 0, dim(buf, d))` interval loop."""
    loops = {L.var: L for L in enclosing_loops(load)}
    for d, a in enumerate(load.affine_indices):
        coeffs, offset = a.normalized()
        if offset != 0 or len(coeffs) != 1:
            return False
        ((v, c),) = coeffs.items()
        L = loops.get(v)  # type: ignore[call-overload]
        if c != 1 or L is None or not L.is_interval or isinstance(L, loop.PredLoopOp):
            return False
        lo = index_form(L.lower).constant
        upper = L.upper
        if isinstance(upper.owner, arith.SelectOp) and index_form(upper.owner.rhs).constant == 0:
            upper = upper.owner.lhs  # an axis guard select(fits, len, 0) is at most len
        if lo is None or lo < 0 or index_form(upper) != IndexForm.of({("dim", load.buf, d): 1}):
            return False
    return True


@dataclass(frozen=True)
class LoopLICMPass(ModulePass):
    """Hoist what does not depend on a loop out of it, innermost loops first.

    An op in a loop body moves before the loop when its loop-dependency set
    (passes/loop_deps.py) does not contain the loop's variable, its operands are defined
    outside the loop, and running it when the loop would not is harmless:
    effect-free arithmetic (every arith op is total in loopopt, integer division included:
    docs/integer_semantics.md), `loop.dim`, and invariant loads (no write to the buffer in the loop)
    when the loop runs at least once or the load is provably in bounds (each index is the
    variable of an enclosing `[0, dim(buf, d))` loop); `speculate_loads=true` hoists
    invariant loads regardless. Stores, nested loops and ops with regions stay.

    ```
    loop.for %i in [%c0, %n) {                 %s = loop.load %scale[%c0]   (n ≥ 1 known)
      %s = loop.load %scale[0]          ->     %k = arith.mulf %s, %two
      %k = arith.mulf %s, %two                 loop.for %i in [%c0, %n) {
      %x = loop.load %a[%i]                      %x = loop.load %a[%i]
      %y = arith.mulf %x, %k                     %y = arith.mulf %x, %k
      loop.store %y, %out[%i]                    loop.store %y, %out[%i]
    }                                          }
    ```
    """

    name = "loop-licm"

    speculate_loads: bool = False
    """Hoist invariant loads even when the loop may run zero times (they must be in bounds)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [o for o in op.walk() if isinstance(o, loop.LoopLike)]
        for L in reversed(loops):  # inner loops before the loops around them
            self.hoist_from(L)

    def hoistable(self, op: Operation, L: loop.LoopLike) -> bool:
        if isinstance(op, loop.LoadOp):
            return self.speculate_loads or runs_at_least_once(L) or load_in_bounds(op)
        return is_speculatable(op)

    def hoist_from(self, L: loop.LoopLike) -> None:
        deps = LoopDependencies()
        for region in L.regions:
            for op in list(region.block.ops):
                if op.has_trait(IsTerminator) or L.var in deps.of_op(op):
                    continue
                if any(defined_inside(v, L) for v in op.operands) or not self.hoistable(op, L):
                    continue
                op.detach()
                L.parent_block().insert_op_before(op, L)  # type: ignore[union-attr]
