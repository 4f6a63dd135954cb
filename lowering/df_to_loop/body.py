"""Inlining a df body (map / filter / reduce / fold / scan region) into a loop body.

The body's block arguments are bound to the elements the loop loaded (records as field
groups, accumulators as loop block arguments); its `arith` / `math` ops are cloned in
place, its scalar df ops lowered by `lower_scalar_op`, and its `df.yield` operands are
returned to the caller, which decides what they become (a store, an append, a predicate,
the accumulators' next values).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.builder import Builder
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.scalar import lower_scalar_op
from loopopt.lowering.df_to_loop.values import Lowered

Values = dict[SSAValue, Lowered]


def bind_args(block: Block, args: Sequence[Lowered]) -> Values:
    """The body's block arguments bound to `args` (loop values take the body's names)."""
    values: Values = dict(zip(block.args, args, strict=True))
    for param, arg in zip(block.args, args):
        if isinstance(arg, SSAValue) and arg.name_hint is None:
            arg.name_hint = param.name_hint
    return values


def inline_body(
    ctx: KernelLowering,
    b: Builder,
    block: Block,
    args: Sequence[Lowered],
    user: Operation,
    extra: Sequence[SSAValue] = (),
) -> list[Lowered]:
    """Emit `block` (a df body) at `b` with its arguments bound to `args`; the yielded values,
    followed by the lowered form of each body value in `extra`."""
    values = bind_args(block, args)
    term = block.last_op
    if not isinstance(term, df.YieldOp):
        raise LoopoptDiagnostic(f"the body of {user.name} does not end in df.yield", user)
    emit_ops(ctx, b, [op for op in block.ops if op is not term], values)
    return [_lookup(ctx, values, v, term) for v in (*term.arguments, *extra)]


_DIALECTS: dict[type[Operation], str] = {}
"""Per op class: its dialect's name (xDSL's `dialect_name()` splits the op name at every call)."""


def dialect_of(op: Operation) -> str:
    """`op.dialect_name()`, remembered per class (an unregistered op's name is its own)."""
    cls = type(op)
    found = _DIALECTS.get(cls)
    if found is None:
        found = op.dialect_name()
        if not issubclass(cls, UnregisteredOp):
            _DIALECTS[cls] = found
    return found


def emit_ops(ctx: KernelLowering, b: Builder, ops: Iterable[Operation], values: Values) -> None:
    """Emit body ops at `b`, recording each result's lowered form in `values`."""
    for op in ops:
        if dialect_of(op) == "df":
            results = lower_scalar_op(b, op, [_lookup(ctx, values, v, op) for v in op.operands])
            if results is None:
                raise LoopoptDiagnostic(f"{op.name} inside a df body has no lowering (a body works on scalars)", op)
            values.update(zip(op.results, results, strict=True))
            continue
        clone = op.clone(value_mapper=_ssa_mapper(ctx, op, values))
        b.insert(clone)
        values.update(zip(op.results, clone.results, strict=True))


def _lookup(ctx: KernelLowering, values: Values, v: SSAValue, at: Operation) -> Lowered:
    return values[v] if v in values else ctx.get(v, at)


def _ssa_mapper(ctx: KernelLowering, op: Operation, values: Values) -> dict[SSAValue, SSAValue]:
    """Operand replacements for cloning `op` (and its nested ops) into the loop."""
    mapper: dict[SSAValue, SSAValue] = {}
    for inner in op.walk():
        for v in inner.operands:
            if v in mapper or _defined_inside(v, op):
                continue
            new = _lookup(ctx, values, v, inner)
            if not isinstance(new, SSAValue):
                raise LoopoptDiagnostic(
                    f"{inner.name} takes a {type(new).__name__} operand, which has no scalar value", inner
                )
            if new is not v:
                mapper[v] = new
    return mapper


def _defined_inside(v: SSAValue, op: Operation) -> bool:
    owner = v.owner
    parent = owner if isinstance(owner, Operation) else owner.parent_op()  # type: ignore[union-attr]
    while parent is not None:
        if parent is op:
            return True
        parent = parent.parent_op()
    return False
