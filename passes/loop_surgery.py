"""Small pieces of loop surgery shared by loop-tile, loop-unroll and loop-vectorize.

Finding innermost loops, reading constant bounds, cloning a loop over new bounds, a zip's
equivalent `loop.for`, and where whole groups of iterations end.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine



def is_innermost(op: loop.LoopLike) -> bool:
    """No loop nested anywhere in `op`'s regions."""
    return not any(isinstance(inner, loop.LoopLike) for region in op.regions for inner in region.walk())


def constant_index(value: SSAValue) -> int | None:
    """The integer a value holds when an `arith.constant` defines it (through index casts)."""
    owner = value.owner
    while isinstance(owner, arith.IndexCastOp):
        owner = owner.input.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def index_const(value: int, like: Operation) -> arith.ConstantOp:
    """`arith.constant value : index`, located at `like`."""
    op = arith.ConstantOp(IntegerAttr(value, IndexType()))
    op.location = like.location
    return op


def located(op: Operation, like: Operation) -> Operation:
    op.location = like.location
    return op


def clone_with(op: loop.ForOp | loop.ZipOp, bounds: Sequence[SSAValue], inits: Sequence[SSAValue]):
    """A copy of a scalar loop (body included) over new interval bounds and accumulator inits."""
    assert len(bounds) == len(op.bounds) and len(inits) == len(op.inits)
    new = op.clone()
    streams = list(op.streams) if isinstance(op, loop.ZipOp) else []
    new.operands = [*bounds, *streams, *inits]
    return new


def zip_as_for(op: loop.ZipOp) -> loop.ForOp:
    """The `loop.for` a zip means: each stream element becomes `loop.load %stream[%i]`.

    The new loop is detached (not inserted anywhere); the zip is left untouched.
    """
    block = Block(arg_types=[IndexType(), *(v.type for v in op.inits)])
    var = block.args[0]
    for new_arg, old_arg in zip(block.args, (op.var, *op.acc_args), strict=True):
        new_arg.name_hint = old_arg.name_hint
    mapper: dict[SSAValue, SSAValue] = {op.var: var}
    mapper |= dict(zip(op.acc_args, block.args[1:], strict=True))
    for stream, arg in zip(op.streams, op.stream_args, strict=True):
        load = located(loop.LoadOp(stream, [Affine.var(var)]), op)
        block.add_op(load)
        load.results[0].name_hint = arg.name_hint
        mapper[arg] = load.results[0]
    for body_op in op.body.block.ops:
        block.add_op(body_op.clone(mapper))
    new = loop.ForOp(list(op.bounds), list(op.inits), list(op.accs.data), block)
    new.location = op.location
    return new


def split_point(
    rewriter: PatternRewriter, op: loop.LoopLike, lo: SSAValue, hi: SSAValue, factor: int, c_factor: SSAValue
) -> tuple[SSAValue, int | None]:
    """`lo + factor * ((hi - lo) div factor)`: where whole groups of `factor` iterations end.

    Returns the SSA value and, when both bounds are constants, its integer (so callers can
    drop an empty remainder). Emitted as `hi - (hi - lo) rem factor`, which is also right
    for an empty range (hi <= lo): the groups and the remainder are then both empty.
    """
    clo, chi = constant_index(lo), constant_index(hi)
    if clo is not None and chi is not None:
        n = max(chi - clo, 0)
        end = clo + factor * (n // factor)
        split = rewriter.insert(index_const(end, op)).result
        split.name_hint = "split"
        return split, end
    n = rewriter.insert(located(arith.SubiOp(hi, lo), op))
    rem = rewriter.insert(located(arith.RemSIOp(n, c_factor), op))
    split = rewriter.insert(located(arith.SubiOp(hi, rem), op)).result
    n.result.name_hint, rem.result.name_hint, split.name_hint = "trips", "rem", "split"
    return split, None


def scalar_loop_candidates(module: ModuleOp) -> list[loop.ForOp | loop.ZipOp]:
    """Innermost `loop.for` / `loop.zip` over an interval, in program order."""
    return [
        op
        for op in module.walk()
        if isinstance(op, loop.ForOp | loop.ZipOp) and op.is_interval and is_innermost(op)
    ]
