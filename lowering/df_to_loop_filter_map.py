"""filter → map as ONE `loop.predloop` (df has no filtered-map op, so the lowering fuses).

When a df.map is the only user of a df.filter's results and reads nothing else, the map
body runs in the predloop's body on the filter's input elements and its results are
appended — the filtered intermediate is never written. The predloop's count is the extent
of the map's (new) axis.

```
%p = df.filter %x ... -> !df.array<f32, [k]> {pred}
%y = df.map %p ... -> !df.array<f32, [k]> {f}
  →
%cnt = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) pred {
  %e = loop.load %x[%i] : !loop.buf<f32>
  ... loop.yield %c : i1
} body {
  %e = loop.load %x[%i] : !loop.buf<f32>
  ... %fe = f(%e)
  loop.append %fe, %out : !loop.buf<f32>
}
```
Disabled by the pass option `fuse-filter-map=false` (then filter and map are two loops).
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop_body import inline_body
from loopopt.lowering.df_to_loop_context import KernelLowering, with_extents
from loopopt.lowering.df_to_loop_nest import Iter, load
from loopopt.lowering.df_to_loop_values import Lowered, Point


def fusible_map(op: df.FilterOp) -> df.MapOp | None:
    """The df.map that is the sole user of `op`'s results and reads only them, if any."""
    users = {id(use.operation): use.operation for r in op.outputs for use in r.uses}
    if len(users) != 1:
        return None
    (user,) = users.values()
    if not isinstance(user, df.MapOp) or user.parent_block() is not op.parent_block():
        return None
    if not all(v.owner is op for v in user.inputs):
        return None
    return user


def lower_filter_map(
    op: df.FilterOp, consumer: df.MapOp, ctx: KernelLowering, b: Builder, inputs: list[Lowered], it: Iter
) -> None:
    """Emit the fused predloop of `op` and its sole user `consumer`; binds the map's results."""
    # df_to_loop_filter dispatches here, so import its builders lazily (no import cycle)
    from loopopt.lowering.df_to_loop_filter import append, build_predloop, filter_predicate

    t = op.inputs.types[0]
    assert isinstance(t, ArrayType)
    axes = t.axis_names
    capacity = ctx.root_capacity(it.extent)
    dests = [ctx.destination(b, r, (capacity,), (capacity,)) for r in consumer.outputs]

    def body(bb: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
        elements = [load(ctx, bb, x, axes, point) for x in inputs]
        mapped = [elements[v.index] for v in consumer.inputs]  # type: ignore[union-attr]
        outs = inline_body(ctx, bb, consumer.body.block, mapped, consumer)
        for value, dest in zip(outs, dests, strict=True):
            append(bb, value, dest, consumer)
        return []

    pl = build_predloop(ctx, b, it, filter_predicate(ctx, op, inputs), body)
    pl.count.name_hint = "count"
    ctx.note_count(pl.count, capacity)
    for r, dest in zip(consumer.outputs, dests, strict=True):
        ctx.bind(r, with_extents(dest, (pl.count,)))
    ctx.lowered_with_producer.add(consumer)
