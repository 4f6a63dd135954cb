"""convert-df-to-loop: every df kernel becomes a Loop IR kernel over buffers.

One pattern per df op (`populate_df_to_loop_patterns`), applied to each kernel's ops in
program order; each pattern emits its Loop IR in front of its op and binds the op's
results (buffers, range descriptors, scalars). Afterwards every df op is erased, the
signature follows the kernel ABI (lowering/df_to_loop/kernel.py) and dead index
arithmetic is dropped. Nothing falls through: a df op without a pattern, or a construct a
pattern cannot lower, raises a `LoopoptDiagnostic` at that op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TupleType, UnknownLoc
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.df_types import ArrayType, RecordType
from loopopt.lowering.df_to_loop.aggregates import LowerField, LowerGet, LowerMakeRecords, LowerMakeTuple
from loopopt.lowering.df_to_loop.body import dialect_of
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.decl_ref import inline_decl_refs
from loopopt.lowering.df_to_loop.filter import LowerFilter
from loopopt.lowering.df_to_loop.fold import LowerFold
from loopopt.lowering.df_to_loop.gather import LowerGather
from loopopt.lowering.df_to_loop.kernel import (
    convert_inputs,
    convert_outputs,
    guard_input_axes,
    convert_return,
    finish_signature,
)
from loopopt.lowering.df_to_loop.map import LowerMap
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.reduce import LowerReduce
from loopopt.lowering.df_to_loop.scan import LowerScan
from loopopt.lowering.df_to_loop.select import LowerSelect
from loopopt.lowering.df_to_loop.sources import LowerConstant, LowerRandom, LowerRange


def populate_df_to_loop_patterns() -> list[DFLoweringPattern]:
    """One lowering pattern per df op (df.yield is consumed by its parent's pattern and
    df.decl_ref is inlined before lowering)."""
    return [
        # sources
        LowerConstant(),
        LowerRange(),
        LowerRandom(),
        # elementwise
        LowerMap(),
        LowerFilter(),
        LowerSelect(),
        LowerGather(),
        # reductions
        LowerReduce(),
        LowerFold(),
        LowerScan(),
        # compile-time groups
        LowerMakeTuple(),
        LowerGet(),
        LowerMakeRecords(),
        LowerField(),
    ]


def _is_df_type(t: Attribute) -> bool:
    if isinstance(t, TupleType):
        return any(_is_df_type(e) for e in t.types)
    return isinstance(t, ArrayType | RecordType)


def is_df_kernel(f: func.FuncOp) -> bool:
    """A func.func with df values in its signature or df ops in its body."""
    ft = f.function_type
    if any(_is_df_type(t) for t in (*ft.inputs, *ft.outputs)):
        return True
    return any(dialect_of(op) == "df" for op in f.walk())


def lower_kernel(f: func.FuncOp, patterns: dict[type[Operation], DFLoweringPattern]) -> None:
    """Lower one df kernel in place."""
    if len(f.body.blocks) != 1:
        raise LoopoptDiagnostic(
            f"kernel @{f.sym_name.data} has {len(f.body.blocks)} blocks; a df kernel has one", f
        )
    ctx = KernelLowering(f)
    block = f.body.block
    ret = block.last_op
    if not isinstance(ret, func.ReturnOp):
        raise LoopoptDiagnostic(f"kernel @{f.sym_name.data} does not end in func.return", f)
    old_args = list(block.args)
    drop_dead_df_ops(block)
    convert_inputs(ctx)
    out_dests = convert_outputs(ctx, ret)
    guard_input_axes(ctx)
    lowered_ops: list[Operation] = []
    for op in list(block.ops):
        if op is ret:
            break
        if dialect_of(op) != "df":
            continue
        lowered_ops.append(op)
        pattern = patterns.get(type(op))
        if pattern is None:
            raise LoopoptDiagnostic(f"{op.name} has no Loop IR lowering", op)
        before = op.prev_op
        pattern.lower(op, ctx, Builder(InsertPoint.before(op)))
        _locate_new_ops(before.next_op if before is not None else block.first_op, op)
        for r in op.results:
            new = ctx.env.get(r)
            if isinstance(new, SSAValue) and new is not r:
                r.replace_all_uses_with(new)
    convert_return(ctx, ret, out_dests)
    for op in reversed(lowered_ops):
        op.detach()
        op.erase(safe_erase=False)
    for arg in old_args:
        block.erase_arg(arg, safe_erase=False)
    finish_signature(ctx)
    drop_dead_values(f)
    _check_fully_lowered(f)


def _locate_new_ops(first: Operation | None, df_op: Operation) -> None:
    """Give the ops a pattern built for `df_op` (from `first` up to it, nested ops too) the df op's
    location where they have none, so later passes' remarks and errors point at the user's line."""
    op = first
    while op is not None and op is not df_op:
        for inner in op.walk():
            if isinstance(inner.location, UnknownLoc):
                inner.location = df_op.location
        op = op.next_op


def drop_dead_df_ops(block: Block) -> None:
    """Erase df ops whose results nobody uses and that have no effects (last first, so a dead
    chain goes): lowered, a dead filter would still allocate and fill scratch buffers."""
    for op in reversed(list(block.ops)):
        if dialect_of(op) == "df" and op.results and is_trivially_dead(op):
            op.detach()
            op.erase()


DEAD_IF_UNUSED = (loop.DimOp, loop.LoadOp)
"""Besides arith ops: ops the lowering may leave without users, safe to drop."""


def drop_dead_values(f: func.FuncOp) -> None:
    """Erase arith / loop.dim / loop.load ops whose results nobody uses (to a fixpoint)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(f.walk())):
            if not op.results or any(r.uses for r in op.results):
                continue
            if dialect_of(op) == "arith" or isinstance(op, DEAD_IF_UNUSED):
                op.detach()
                op.erase()
                changed = True


def _check_fully_lowered(f: func.FuncOp) -> None:
    for op in f.walk():
        if dialect_of(op) == "df":
            raise LoopoptDiagnostic(f"{op.name} was left after convert-df-to-loop (no lowering reached it)", op)
        for v in op.results:
            if _is_df_type(v.type):
                raise LoopoptDiagnostic(f"{op.name} still produces a df value of type {v.type}", op)


@dataclass(frozen=True)
class ConvertDFToLoopPass(ModulePass):
    """Lower every df kernel to Loop IR.

    Input: func.func kernels over df arrays (fused by df-fuse or not).
    Output: func.func kernels marked `loop.kernel` over `!loop.buf` arguments with the ABI
    attributes of docs/calling_convention.md; one loop nest per df op (a fused df op is one
    op, hence one nest: fusion is df-fuse's job, this pass never fuses two df ops); no df
    op or df type left. df-fuse's fused forms: a reduce with a map prologue is one loop
    nest whose accumulators keep kind and reassoc; with a `where`, a width-1 predloop with
    accumulators; a filter with a map region, a predloop appending the mapped values; a
    scan with a prologue, one loop.

    ```
    func.func @sq(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
      %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
      ^bb0(%e: f32):
        %s = arith.mulf %e, %e : f32
        df.yield %s : f32
      }
      func.return %y : !df.array<f32, [i]>
    }
      →
    func.func @sq(%x: !loop.buf<f32> {loop.axes = ["i"], loop.role = "in"},
                  %out: !loop.buf<f32> {loop.axes = ["i"], loop.result = 0 : i64, loop.role = "out"})
        attributes {loop.kernel} {
      %c0 = arith.constant 0 : index
      %n_i = loop.dim %x, 0 : !loop.buf<f32>
      loop.for %i in [%c0, %n_i) {
        %e = loop.load %x[%i] : !loop.buf<f32>
        %s = arith.mulf %e, %e : f32
        loop.store %s, %out[%i] : !loop.buf<f32>
      }
      func.return
    }
    ```
    """

    name = "convert-df-to-loop"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = [f for f in op.walk() if isinstance(f, func.FuncOp) and is_df_kernel(f)]
        for f in kernels:
            inline_decl_refs(f)
        patterns = {p.op_type: p for p in populate_df_to_loop_patterns()}
        for f in kernels:
            lower_kernel(f, patterns)

