"""`loop-fuse`: fuse adjacent loops of Loop IR under seed 001's six legality rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from loopopt.diagnostics import remark
from loopopt.dialects import loop
from loopopt.passes.loop_fusion.legality import (
    FusionGates,
    Rejection,
    fusion_rejection,
    loop_buffers,
    previous_loop,
)
from loopopt.passes.loop_fusion.rewrite import erase_dead_intermediates, forward_stores, fuse_loops
from loopopt.passes.options import check_options
from loopopt.passes.pattern_dispatch import DispatchApplier


@dataclass(frozen=True)
class FuseWithPreviousLoop(RewritePattern):
    """A loop and the loop before it in its block become one loop when fusion is legal.

    ```
    loop.for %i in [%c0, %n) {                 loop.for %i in [%c0, %n) {
      %x = loop.load %a[%i]                      %x = loop.load %a[%i]
      %y = arith.mulf %x, %x                     %y = arith.mulf %x, %x
      loop.store %y, %tmp[%i]          ->        %z = arith.addf %y, %y
    }                                            loop.store %z, %out[%i]
    loop.for %i in [%c0, %n) {                 }
      %y = loop.load %tmp[%i]                  (tmp's alloc, stores and dealloc are gone)
      %z = arith.addf %y, %y
      loop.store %z, %out[%i]
    }
    ```
    """

    gates: FusionGates = FusionGates()
    roots: ClassVar[tuple[type[Operation], ...]] = (loop.LoopLike,)
    """The op classes the pattern starts from (pattern_dispatch)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.roots):
            return
        first = previous_loop(op)
        if first is None or fusion_rejection(first, op, self.gates) is not None:
            return
        assert isinstance(first, loop.LoopLike)
        stored: set[SSAValue] = loop_buffers(first) | loop_buffers(op)
        fused = fuse_loops(first, op, rewriter)
        forward_stores(fused.body_block, rewriter)
        erase_dead_intermediates(stored, rewriter)


def populate_loop_fuse_patterns(gates: FusionGates = FusionGates()) -> list[RewritePattern]:
    return [FuseWithPreviousLoop(gates)]


def declined_fusions(module: ModuleOp, gates: FusionGates) -> list[Rejection]:
    """Every pair of consecutive loops left unfused, in program order."""
    return [
        r
        for op in module.walk()
        if isinstance(op, loop.LoopLike)
        and (first := previous_loop(op)) is not None
        and (r := fusion_rejection(first, op, gates)) is not None
    ]


@dataclass(frozen=True)
class LoopFusePass(ModulePass):
    """Fuse each loop with the loop before it in its block when seed 001's rules allow.

    Input: Loop IR (hand-written, or lowered from df without df-fuse). Loops are compared
    in elem0 space (`passes/loop_fusion/elem0.py`: j ∈ [0, n), unit step). Two scalar
    loops (`loop.for`, `loop.zip`) or two `loop.vecloop`s of one width and tail fuse when (1) their trip
    counts match, (2) a buffer one writes and both access is accessed at one injective
    elem0 index, (3) every buffer is a function argument or a `loop.alloc` result,
    (4) no body has RNG or unknown-effect ops, (5) they carry the same `loop.guard`
    attribute, (6) nothing between them touches their buffers (ops in between are moved
    out of the way) and the second does not use the first's results; control flow in a
    body and broadcast reads block fusion unless their opt-in gate admits them.

    Output: the fused loop (a `loop.for` for scalar loops, zip streams becoming loads at
    the variable) runs the first body then the second in each iteration and carries
    both accumulator sets (folds fuse horizontally). A load of an element the
    iteration just stored is replaced by the stored value, and a `loop.alloc` buffer
    left without readers is deleted with its stores and dealloc.

    With `remarks=true`, each pair of consecutive loops left unfused prints
    `file:line:col: remark: FUSE_REJECT_...: reason` at the second loop
    (codes: passes/loop_fusion/codes.py, docs/fusion_codes.md).
    """

    name = "loop-fuse"

    remarks: bool = False
    """Print a remark with a stable code for every pair of loops left unfused."""
    allow_control_flow_simple: bool = False
    """Admit bodies holding one simple if-assign (scf.if with one result, effect-free branches)."""
    allow_broadcast_identity: bool = False
    """Admit identity-safe broadcast reads of the first loop's output (tmp[lo], tmp[i // k])."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        gates = FusionGates(self.allow_control_flow_simple, self.allow_broadcast_identity)
        PatternRewriteWalker(
            DispatchApplier(populate_loop_fuse_patterns(gates), dce_enabled=False),
        ).rewrite_module(op)
        if self.remarks:
            for r in declined_fusions(op, gates):
                remark(r.op, r.code, r.reason)
