"""`loop-vectorize{width=W}`: lift innermost scalar loops to lane-wise vector loops (seed 000 §2.2).

Because a `loop.vecloop` body is written lane-wise (scalar-typed ops, each value standing
for W lanes), vectorizing does not rewrite the body at all: the loop op changes, the body
moves over unchanged. All the work is legality (passes/vectorize_legality.py), checked
against the table of ops with a vector form (passes/vectorize_table.py); a loop that fails
a condition stays scalar and, with `remarks=true`, says why with a stable code
(passes/vectorize_codes.py, docs/vectorize_codes.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import remark
from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccumAttr, TailKind, WidthAttr
from loopopt.passes.loop_surgery import is_innermost, zip_as_for
from loopopt.passes.vectorize_legality import Candidate, Decline, is_stored, scan_step, vectorization_decline
from loopopt.passes.options import check_options


@dataclass
class _VectorizePattern(RewritePattern):
    """Shared by the three patterns: the width to use and whether to print declines."""

    width: WidthAttr
    remarks: bool = False

    def declined(self, candidate: Candidate) -> Decline | None:
        decline = vectorization_decline(candidate)
        if decline is not None and self.remarks:
            remark(decline.op, decline.code.value, decline.reason)
        return decline


def _to_vecloop(rewriter: PatternRewriter, scalar: loop.ForOp, replaced: Operation, width: WidthAttr) -> None:
    """Replace `replaced` by a vecloop with `scalar`'s range, accumulators and (moved) body;
    a scan's accumulator becomes a `scan` accumulator stepping by `lane_scan(x)` (scan_lanes)."""
    accs = [scan_lanes(rewriter, acc) for acc in scalar.accumulators]
    body = rewriter.move_region_contents_to_new_regions(scalar.body)
    new = loop.VecLoopOp(list(scalar.bounds), list(scalar.inits), accs, body, width, TailKind.SCALAR)
    new.location = replaced.location
    new.attributes |= replaced.attributes
    rewriter.replace(replaced, new)


def scan_lanes(rewriter: PatternRewriter, acc: loop.Accumulator) -> AccumAttr:
    """The vecloop's kind for `acc`; a scan step `t = acc op x` (legality.scan_step) becomes
    `t = acc op lane_scan(x)` with a `scan` accumulator: the same scan at every width.

    ```
    loop.for ... accs(%acc = %z : i32 add)      loop.vecloop ... accs(%acc = %z : i32 add scan)
      %t = arith.addi %acc, %x : i32       →      %p = loop.lane_scan <add> %x : i32
      loop.store %t, %out[%i]                     %t = arith.addi %acc, %p : i32
    ```
    """
    if not is_stored(acc):
        return AccumAttr(acc.kind, acc.reassoc)
    step = scan_step(acc)
    assert step is not None  # legality checked the shape (vectorize_legality.scan_shape_error)
    (k,) = [j for j, v in enumerate(step.operands) if v is not acc.arg]
    prefix = loop.LaneScanOp(acc.kind, step.operands[k])
    prefix.location = step.location
    rewriter.insert(prefix, InsertPoint.before(step))
    step.operands[k] = prefix.result
    return AccumAttr(acc.kind, acc.reassoc, scan=True)


@dataclass
class VectorizeForLoop(_VectorizePattern):
    """An innermost `loop.for` becomes a `loop.vecloop` of width W with a scalar tail.

    ```
    %s = loop.for %i in [%c0, %n) accs(%a = %init : f32 add reassoc) {
      %x = loop.load %b[%i] : !loop.buf<f32>
      %t = arith.addf %a, %x : f32
      loop.yield %t : f32
    }
    ```
    becomes the same header and body as `loop.vecloop ... width(W) tail(scalar)`. The
    accumulator is now a vector accumulator: its lanes start at the kind's neutral element
    (0 for add) and are reduced horizontally and combined with %init after the last full
    block — the reduction epilogue is part of the vecloop's semantics, not new IR.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.ForOp) or not is_innermost(op):
            return
        if self.declined(Candidate.of(op)) is not None:
            return
        _to_vecloop(rewriter, op, op, self.width)


@dataclass
class VectorizeZip(_VectorizePattern):
    """An innermost `loop.zip` becomes a vecloop whose body loads each stream at the variable.

    ```
    %s = loop.zip %i in [%c0, %n) streams(%x = %bx : !loop.buf<f32>, %y = %by : !loop.buf<f32>) { B(%x, %y) }
    ```
    becomes
    ```
    %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
      %x = loop.load %bx[%i] : !loop.buf<f32>
      %y = loop.load %by[%i] : !loop.buf<f32>
      B(%x, %y)
    }
    ```
    (a zip has no width of its own: its streams are contiguous loads of the vecloop).
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.ZipOp) or not is_innermost(op):
            return
        scalar = zip_as_for(op)
        if self.declined(Candidate.of(scalar, located_at=op)) is None:
            _to_vecloop(rewriter, scalar, op, self.width)
        scalar.erase()


@dataclass
class VectorizePredLoop(_VectorizePattern):
    """A width-1 `loop.predloop` (a filter, as lowered) gets width W; pred and body move over.

    ```
    %cnt = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) pred { P } body { B }
    ```
    becomes `loop.predloop ... width(W) tail(scalar) mask(unset) pred { P } body { B }`: the
    pred region yields a lane mask, `loop.append` compacts the active lanes; the mask form is
    chosen by convert-loop-to-simd.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.PredLoopOp) or op.width.concrete != 1 or not is_innermost(op):
            return
        if self.declined(Candidate.of(op)) is not None:
            return
        accs = [scan_lanes(rewriter, acc) for acc in op.accumulators]
        pred = rewriter.move_region_contents_to_new_regions(op.pred)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = loop.PredLoopOp(
            list(op.bounds),
            list(op.inits),
            accs,
            pred,
            body,
            self.width,
            TailKind.SCALAR,
            op.mask_form.data,
        )
        new.location = op.location
        new.attributes |= op.attributes
        rewriter.replace(op, new)


def populate_loop_vectorize_patterns(width: WidthAttr, remarks: bool = False) -> list[RewritePattern]:
    return [VectorizeForLoop(width, remarks), VectorizeZip(width, remarks), VectorizePredLoop(width, remarks)]


def vectorize_candidates(module: ModuleOp) -> list[Operation]:
    """Innermost scalar loops (for, zip) and width-1 predloops, in program order."""
    return [
        op
        for op in module.walk()
        if (isinstance(op, loop.ForOp | loop.ZipOp) or (isinstance(op, loop.PredLoopOp) and op.width.concrete == 1))
        and is_innermost(op)
    ]


@dataclass(frozen=True)
class LoopVectorizePass(ModulePass):
    """Vectorize innermost loops to `loop.vecloop` / `loop.predloop` of width `width` (seed 000 §2.2).

    Input: Loop IR. Output: every innermost `loop.for` and `loop.zip` that passes the
    legality conditions becomes a `loop.vecloop` with `tail(scalar)`, and every width-1
    `loop.predloop` a predloop of that width (see the patterns for the forms). In a loop
    nest only the innermost loop is a candidate (a rank-2 row reduction vectorizes its inner
    accumulator loop). The body is unchanged: vecloop bodies are lane-wise, so the scalar
    ops stand for W lanes. A candidate that fails a condition stays as it was; with
    `remarks=true` the pass prints `loc: remark: VEC_REJECT_...: reason` for it.
    """

    name = "loop-vectorize"

    width: int | str = "W"
    """The vector width: a symbol (`W`, resolved by convert-loop-to-simd) or a power of two in [1, 64]."""
    remarks: bool = False
    """Print a remark with a stable code for every loop left scalar."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def width_attr(self) -> WidthAttr:
        return WidthAttr(self.width)  # checked by __post_init__

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = populate_loop_vectorize_patterns(self.width_attr(), self.remarks)
        for candidate in vectorize_candidates(op):
            rewriter = PatternRewriter(InsertPoint.before(candidate))
            for pattern in patterns:
                pattern.match_and_rewrite(candidate, rewriter)
                if rewriter.has_done_action:
                    break
