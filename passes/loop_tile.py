"""`loop-tile{size=T}`: split innermost loops into full tiles plus a remainder (seed 000 §2.1)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.passes.loop_surgery import (
    clone_with,
    constant_index,
    index_const,
    is_innermost,
    located,
    scalar_loop_candidates,
    split_point,
)
from loopopt.passes.options import check_options


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
    """The tile size T, in iterations (1 ..= options.MAX_TILE)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = populate_loop_tile_patterns(self.size)
        for candidate in scalar_loop_candidates(op):
            rewriter = PatternRewriter(InsertPoint.before(candidate))
            for pattern in patterns:
                pattern.match_and_rewrite(candidate, rewriter)
                if rewriter.has_done_action:
                    break
