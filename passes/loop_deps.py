"""Loop-dependency sets (seed 004, LoopVectorization.jl's `loopdependencies`).

The loop-dependency set of an op is the set of enclosing loop variables its value
changes with: the variables it uses, transitively through its operands; the variable of
a loop whose accumulator (or zip stream element) it reads; and, for a `loop.load`, the
variable of every enclosing loop that may write the loaded buffer (the value can change
from one iteration to the next even at a fixed index). An op with regions depends on
what its nested ops depend on, minus the variables it binds itself.

A loop variable is identified by the body's first block argument (`LoopLike.var`); a
predloop's `pred` region variable stands for the same one.

In the matmul nest `for m, n: C[m,n] = Σ_k A[m,k] * B[k,n]`, `A[m,k]` depends on {m, k},
`B[k,n]` on {k, n}, the product on {m, n, k}, the k-loop's sum and the store on {m, n}.
"""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import MemoryEffectKind

from loopopt.dialects import loop
from loopopt.dialects.effects import effects_of, is_effect_free  # noqa: F401 (the passes import them from here)
from loopopt.passes.loop_fusion.noalias import may_alias


def loop_var_of(arg: BlockArgument) -> BlockArgument | None:
    """The loop variable a block argument of a loop region changes with (None elsewhere)."""
    parent = arg.block.parent_op()
    if not isinstance(parent, loop.LoopLike):
        return None
    return parent.var


def enclosing_loops(op: Operation) -> list[loop.LoopLike]:
    """The loops around `op`, innermost first."""
    out: list[loop.LoopLike] = []
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, loop.LoopLike):
            out.append(parent)
        parent = parent.parent_op()
    return out


def may_write(region_op: Operation, buf: SSAValue) -> bool:
    """Whether some op nested in `region_op` may write `buf` (unknown effects count)."""
    for inner in region_op.walk():
        if inner is region_op:
            continue
        effects = effects_of(inner)
        if effects is None and not inner.regions:
            return True
        for e in effects or ():
            if e.kind == MemoryEffectKind.WRITE and (not isinstance(e.value, SSAValue) or may_alias(e.value, buf)):
                return True
    return False


def _bound_args(op: Operation) -> set[SSAValue]:
    return {a for region in op.regions for block in region.blocks for a in block.args}


class LoopDependencies:
    """Memoized loop-dependency sets of the ops and values of one (unchanging) IR."""

    def __init__(self) -> None:
        self._ops: dict[Operation, frozenset[BlockArgument]] = {}

    def of_value(self, value: SSAValue) -> frozenset[BlockArgument]:
        if isinstance(value, BlockArgument):
            var = loop_var_of(value)
            return frozenset((var,)) if var is not None else frozenset()
        assert isinstance(value.owner, Operation)
        return self.of_op(value.owner)

    def of_op(self, op: Operation) -> frozenset[BlockArgument]:
        if op in self._ops:
            return self._ops[op]
        deps: set[BlockArgument] = set()
        for v in op.operands:
            deps |= self.of_value(v)
        if op.regions:
            bound = _bound_args(op)
            vars_bound = {loop_var_of(a) for a in bound if isinstance(a, BlockArgument)}
            for inner in op.walk():
                if inner is not op:
                    deps |= {v for v in self.of_op(inner) if v not in vars_bound}
        if isinstance(op, loop.LoadOp):
            deps |= {L.var for L in enclosing_loops(op) if may_write(L, op.buf)}
        result = frozenset(deps)
        self._ops[op] = result
        return result


def loop_dependencies(op: Operation) -> frozenset[BlockArgument]:
    """The enclosing loop variables `op` depends on (see the module docstring)."""
    return LoopDependencies().of_op(op)


def defined_inside(value: SSAValue, region_op: Operation) -> bool:
    """Whether `value` is defined in one of `region_op`'s regions (at any depth)."""
    block: Block | None = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()  # type: ignore[union-attr]
    while block is not None:
        parent = block.parent_op()
        if parent is region_op:
            return True
        block = parent.parent_block() if parent is not None else None
    return False
