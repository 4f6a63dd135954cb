"""`loop-tile{size=T}`: split innermost loops into full tiles plus a remainder (seed 000 §2.1).

The module also holds the small pieces of loop surgery that loop-unroll and loop-vectorize
share (finding innermost loops, reading constant bounds, cloning a loop over new bounds,
a zip's equivalent `loop.for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine

# =========================================================================== shared loop surgery


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


# =========================================================================== loop-tile


@dataclass
class TileInnermostLoop(RewritePattern):
    """Tile one innermost interval loop (`loop.for` or `loop.zip`) by `size`.

    ```
    %r = loop.for %i in [%lo, %hi) accs(%a = %init : f32 add reassoc) { B(%i, %a) }
    ```
    becomes
    ```
    %cT    = arith.constant T : index
    %trips = arith.subi %hi, %lo : index
    %rem   = arith.remsi %trips, %cT : index
    %split = arith.subi %hi, %rem : index          // lo + T * (trips div T)
    %o = loop.for %t in range(%lo, %split, %cT) accs(%a0 = %init : f32 add reassoc) {
      %t_end = arith.addi %t, %cT : index
      %s = loop.for %i in [%t, %t_end) accs(%a = %a0 : f32 add reassoc) { B(%i, %a) }   // lanes
      loop.yield %s : f32
    }
    %r = loop.for %i in [%split, %hi) accs(%a = %o : f32 add reassoc) { B(%i, %a) }  // remainder
    ```
    The tile loop walks tile starts (seed 000's `tile` in [0, n/T) scaled by T), so the
    inner loop's variable is the original one and B is unchanged. Accumulators thread
    outer → inner → outer's yield → remainder. With constant bounds the split point is a
    constant and the remainder is left out when T divides the trip count.
    """

    size: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.ForOp | loop.ZipOp) or not op.is_interval or not is_innermost(op):
            return
        lo, hi = op.lower, op.upper
        c_size = rewriter.insert(index_const(self.size, op)).result
        split, split_const = split_point(rewriter, op, lo, hi, self.size, c_size)

        tile_block = Block(arg_types=[IndexType(), *(v.type for v in op.inits)])
        tile_start, tile_accs = tile_block.args[0], tile_block.args[1:]
        tile_start.name_hint = "t"
        tile_end = located(arith.AddiOp(tile_start, c_size), op)
        tile_end.result.name_hint = "t_end"
        lanes = clone_with(op, [tile_start, tile_end.result], tile_accs)
        tile_block.add_ops([tile_end, lanes, located(loop.YieldOp(*lanes.acc_results), op)])
        tiles = located(loop.ForOp([lo, split, c_size], list(op.inits), list(op.accs.data), tile_block), op)
        rewriter.insert(tiles)

        if split_const is not None and split_const >= (constant_index(hi) or 0):
            # constant bounds and T divides the trip count: no remainder
            rewriter.replace(op, [], list(tiles.res))
            return
        remainder = clone_with(op, [split, hi], list(tiles.res))
        rewriter.replace(op, remainder)


def populate_loop_tile_patterns(size: int) -> list[RewritePattern]:
    return [TileInnermostLoop(size)]


@dataclass(frozen=True)
class LoopTilePass(ModulePass):
    """Tile every innermost interval `loop.for` / `loop.zip` by `size` (seed 000 §2.1).

    Input: Loop IR. Output: each such loop becomes an outer tile loop (a range_desc
    `loop.for` over tile starts, step `size`) around an inner lane loop over
    `[t, t + size)` (a copy of the original loop: the vectorization target), followed by a
    remainder loop over the last `n mod size` iterations; see `TileInnermostLoop` for the
    form. Accumulators thread through all three. Loops with nested loops, range_desc
    loops and vector loops (vecloop, predloop) are left alone. Each candidate is tiled
    once per run (the loops the pass creates are not tiled again).
    """

    name = "loop-tile"

    size: int = 8
    """The tile size T, in iterations (positive)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.size < 1:
            raise LoopoptDiagnostic(f"loop-tile: size must be a positive integer, found {self.size}")
        patterns = populate_loop_tile_patterns(self.size)
        for candidate in scalar_loop_candidates(op):
            rewriter = PatternRewriter(InsertPoint.before(candidate))
            for pattern in patterns:
                pattern.match_and_rewrite(candidate, rewriter)
                if rewriter.has_done_action:
                    break
