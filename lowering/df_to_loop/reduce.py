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

df-fuse's fused forms stay one loop: a `map` prologue is inlined in the step, between the
loads and the combine (map → reduce: ONE loop.for nest whose accumulators keep their kind
and reassoc flag; partial reductions too); a `where` predicate (filter → reduce, rank 1)
makes the loop a width-1 `loop.predloop` with the accumulators, its `pred` region the
predicate and its body the prologue and combine (accumulators change on active lanes only).

```
%r = df.reduce(%x) add(%z) over [i] reassoc : !df.array<f32, [i]> -> f32 where {p} map {f}
  →
%cnt, %r = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset)
    accs(%acc = %z : f32 add reassoc) pred {
  %e = loop.load %x[%i] : !loop.buf<f32>
  ... p(%e) ...
  loop.yield %c : i1
} body {
  %e = loop.load %x[%i] : !loop.buf<f32>
  ... %v = f(%e) ...
  %t = arith.addf %acc, %v : f32
  loop.yield %t : f32
}
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.combine import accum, body_kinds, combine
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.filter import build_predloop
from loopopt.lowering.df_to_loop.gather import loops_reading_gathers
from loopopt.lowering.df_to_loop.nest import StepFn, build_nest, iters_for, load, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.values import GatherArray, Lowered, Point, RecordValue, scalars_of


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


def load_distinct(ctx: KernelLowering, b: Builder, op: df.ReduceOp | df.ScanOp, inputs: Sequence[Lowered],
                  axes: Sequence[str], point: Point) -> list[Lowered]:
    """The element of each input at `point`, one load per distinct input value (an input
    broadcast along some of `axes` is read at its own axes' positions)."""
    loaded: dict[SSAValue, Lowered] = {}
    for v, x in zip(op.inputs, inputs, strict=True):
        if v not in loaded:
            loaded[v] = load(ctx, b, x, v.type.axis_names, point)  # type: ignore[attr-defined]
    return [loaded[v] for v in op.inputs]


def prologue_values(ctx: KernelLowering, b: Builder, op: df.ReduceOp | df.ScanOp,
                    elements: list[Lowered]) -> list[Lowered]:
    """The values a reduce / scan combines: its map prologue's yields, or the elements."""
    return inline_body(ctx, b, op.map.block, elements, op) if op.has_map else elements


class LowerReduce(DFLoweringPattern[df.ReduceOp]):
    op_type = df.ReduceOp

    def lower(self, op: df.ReduceOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        inits = [scalar_init(ctx, v, op) for v in op.inits]
        kinds = op.kind_values
        axes, over = op.domain_axes, op.over_axis_names
        kept = [a for a in axes if a not in over]
        in_axes = [v.type.axis_names for v in op.inputs] if op.broadcasts else None  # type: ignore[attr-defined]
        reassoc = op.reassoc is not None
        flat_inits = flatten(inits)
        custom = [k for k, kind in enumerate(kinds) if kind == ReduceKind.CUSTOM]
        loop_kinds = list(kinds)
        for k, kind in zip(custom, body_kinds(op.body.block, len(custom)) if custom else [], strict=True):
            loop_kinds[k] = kind  # a body that is one kind's step: that kind's accumulator
        accs = [accum(k, reassoc) for k, v in zip(loop_kinds, inits, strict=True) for _ in scalars_of(v)]

        def step_for(inputs: list[Lowered]) -> StepFn:
            return lambda inner, point, acc_args: step(inner, point, acc_args, inputs)

        def step(inner: Builder, point: Point, acc_args: list[SSAValue], inputs: list[Lowered] = inputs) -> list[SSAValue]:
            cur = regroup(inits, acc_args)
            xs = prologue_values(ctx, inner, op, load_distinct(ctx, inner, op, inputs, axes, point))
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

        over_iters = iters_for(inputs, axes, over, in_axes)
        if op.has_where:  # rank 1 (verified): one predloop
            (it,) = over_iters

            def pred(pb: Builder, point: Point) -> SSAValue:
                elements = load_distinct(ctx, pb, op, inputs, axes, point)
                (p,) = inline_body(ctx, pb, op.where.block, elements, op)
                assert isinstance(p, SSAValue)
                return p

            pl = build_predloop(ctx, b, it, pred, step, flat_inits, accs)
            for r, v in zip(op.outputs, regroup(inits, list(pl.acc_results)), strict=True):
                ctx.bind(r, v)
            return
        if not kept and any(isinstance(x, GatherArray) for x in inputs):  # gathers read here (rank 1)
            results = loops_reading_gathers(ctx, b, over_iters[0], inputs, flat_inits, accs, step_for)
            for r, v in zip(op.outputs, regroup(inits, results), strict=True):
                ctx.bind(r, v)
            return
        if not kept:
            results = build_nest(ctx, b, over_iters, flat_inits, accs, step)
            for r, v in zip(op.outputs, regroup(inits, results), strict=True):
                ctx.bind(r, v)
            return

        kept_iters = iters_for(inputs, axes, kept, in_axes)
        dests = [ctx.destination(b, r, [it.extent for it in kept_iters]) for r in op.outputs]

        def row(outer: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
            finals = build_nest(ctx, outer, over_iters, flat_inits, accs, step, point)
            for v, dest in zip(regroup(inits, finals), dests, strict=True):
                store(outer, v, dest, kept, point)
            return []

        build_nest(ctx, b, kept_iters, [], [], row)
        for r, dest in zip(op.outputs, dests, strict=True):
            ctx.bind(r, dest)
