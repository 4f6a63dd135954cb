"""df.reduce → `loop.for` with one accumulator per (kind, input, init) triple.

Kinds and `reassoc` carry over to the loop's `#loop.acc<kind reassoc>` (custom stays
custom, its body inlined as the accumulator step). A multi-result reduce (horizontally
fused folds) is ONE loop with several accumulators. Reducing every axis of a rank-2 array
nests the loops (over_axes order) and threads the accumulators through both; reducing one
axis keeps an outer loop over the other axis that stores each row's (column's) result.

```
%s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  →
%s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
  %e = loop.load %x[%i] : !loop.buf<f32>
  %t = arith.addf %acc, %e : f32
  loop.yield %t : f32
}
```
A record accumulator (custom kinds) is one custom accumulator per field.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, ReduceKind
from loopopt.lowering.df_to_loop_body import inline_body
from loopopt.lowering.df_to_loop_combine import accum, combine
from loopopt.lowering.df_to_loop_context import KernelLowering
from loopopt.lowering.df_to_loop_nest import build_nest, iters_for, load, store
from loopopt.lowering.df_to_loop_pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop_values import Lowered, Point, RecordValue, scalars_of


def flatten(values: Sequence[Lowered]) -> list[SSAValue]:
    """Accumulator SSA values of lowered scalars (a record gives one per field)."""
    return [s for v in values for s in scalars_of(v)]


def regroup(like: Sequence[Lowered], flat: Sequence[SSAValue]) -> list[Lowered]:
    """The inverse of `flatten`, shaped like `like`."""
    out: list[Lowered] = []
    k = 0
    for v in like:
        if isinstance(v, RecordValue):
            out.append(RecordValue(v.record, tuple(flat[k : k + len(v.fields)])))
            k += len(v.fields)
        else:
            out.append(flat[k])
            k += 1
    return out


def scalar_init(ctx: KernelLowering, v: SSAValue, user: Operation) -> Lowered:
    init = ctx.get(v, user)
    if not isinstance(init, SSAValue | RecordValue):
        raise LoopoptDiagnostic(f"{user.name}: an initial value must be a scalar or a record", user)
    return init


class LowerReduce(DFLoweringPattern[df.ReduceOp]):
    op_type = df.ReduceOp

    def lower(self, op: df.ReduceOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        inits = [scalar_init(ctx, v, op) for v in op.inits]
        kinds = op.kind_values
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        axes, over = t.axis_names, op.over_axis_names
        kept = [a for a in axes if a not in over]
        reassoc = op.reassoc is not None
        flat_inits = flatten(inits)
        accs = [accum(k, reassoc) for k, v in zip(kinds, inits, strict=True) for _ in scalars_of(v)]
        custom = [k for k, kind in enumerate(kinds) if kind == ReduceKind.CUSTOM]

        def step(inner: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            cur = regroup(inits, acc_args)
            loaded: dict[SSAValue, Lowered] = {}  # one load per distinct input
            for v, x in zip(op.inputs, inputs, strict=True):
                if v not in loaded:
                    loaded[v] = load(ctx, inner, x, axes, point)
            xs = [loaded[v] for v in op.inputs]
            nxt: list[Lowered] = list(cur)
            for k, kind in enumerate(kinds):
                if kind != ReduceKind.CUSTOM:
                    a, x = cur[k], xs[k]
                    assert isinstance(a, SSAValue) and isinstance(x, SSAValue)
                    nxt[k] = combine(inner, kind, a, x, op)
            if custom:
                outs = inline_body(ctx, inner, op.body.block, [cur[k] for k in custom] + [xs[k] for k in custom], op)
                for k, v in zip(custom, outs, strict=True):
                    nxt[k] = v
            return flatten(nxt)

        over_iters = iters_for(inputs, axes, over)
        if not kept:
            results = build_nest(ctx, b, over_iters, flat_inits, accs, step)
            for r, v in zip(op.outputs, regroup(inits, results), strict=True):
                ctx.bind(r, v)
            return

        (kept_iter,) = iters_for(inputs, axes, kept)
        dests = [ctx.destination(b, r, (kept_iter.extent,)) for r in op.outputs]

        def row(outer: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
            finals = build_nest(ctx, outer, over_iters, flat_inits, accs, step, point)
            for v, dest in zip(regroup(inits, finals), dests, strict=True):
                store(outer, v, dest, kept, point)
            return []

        build_nest(ctx, b, [kept_iter], [], [], row)
        for r, dest in zip(op.outputs, dests, strict=True):
            ctx.bind(r, dest)
