"""A vector loop body's translation, decided once per lowering and replayed for every block.

A vecloop or predloop lowers its body 6-9 times (main loop, remainder, masked tail, the K
copies of an iteration, the streaming, half-load and split loops). What `BlockEmitter`
decides per op from the op alone is the same every time: which translation takes it, whether
it is hoisted, whether it is numbered (and the op-only part of its key), the simd form of a
lane-varying op with its vector type and predicate. `body_plan` decides that once per source
block (lazily, at the first block emitted, after `hoist_invariants`); the emitter then only
looks at what differs by block: its operands' lanes, the masks, the cursor. Diagnostics stay
where they were: a step whose translation fails raises when a block reaches it, in op order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator, MemoryEffect, NoMemoryEffect

from loopopt.dialects import loop, simd
from loopopt.lowering.loop_to_simd.narrow_convert import middle_type
from loopopt.lowering.loop_to_simd.table import CMP_PREDICATES, CONVERT, MIN_MAX, NO_VECTOR_FORM, SAME_OP

_NUMBERABLE: dict[type, tuple[Any, bool]] = {}
"""op class -> (its trait set when asked, whether `cse` may merge two equal ops of it)."""


def numberable(op: Operation) -> bool:
    """Whether equal ops of this class compute equal values with no effect (`NoMemoryEffect`
    traits only, no region, not a terminator): two of them with equal operands, attributes, properties and
    result types are one value, which `cse` would make them. Answered per class."""
    cls = type(op)
    traits = cls.traits.traits
    known = _NUMBERABLE.get(cls)
    if known is None or known[0] is not traits:
        effects = cls.get_traits_of_type(MemoryEffect)
        pure = bool(effects) and all(isinstance(t, NoMemoryEffect) for t in effects)
        known = _NUMBERABLE[cls] = (traits, pure and not cls.has_trait(IsTerminator))
    return known[1] and not op.regions


def op_key(op: Operation, operands: tuple[Any, ...]) -> tuple[Any, ...]:
    """What makes two ops of a `numberable` class the same value: class, properties,
    attributes, result types and `operands` (the values, or what stands for them)."""
    return (*static_key(op), operands)


def static_key(op: Operation) -> tuple[Any, ...]:
    """`op_key` without the operands: what a plan step decides once."""
    return (type(op), tuple(op.properties.items()), tuple(op.attributes.items()),
            tuple([r.type for r in op.results]))  # fmt: skip


YIELD, LOAD, STORE, APPEND, SCAN, OTHER, REGION, WIDEN = range(8)
_OP_KINDS: dict[type, int] = {}
"""Per op class: which of the BlockEmitter's translations takes it (an isinstance against an op
class runs ABCMeta's check, ~0.5 us)."""


def op_kind(cls: type) -> int:
    kind = _OP_KINDS.get(cls)
    if kind is None:
        kinds = ((loop.YieldOp, YIELD), (loop.LoadOp, LOAD), (loop.StoreOp, STORE), (loop.AppendOp, APPEND),
                 (loop.LaneScanOp, SCAN))  # fmt: skip
        kind = _OP_KINDS[cls] = next((k for c, k in kinds if issubclass(cls, c)), OTHER)
    return kind


@dataclass(slots=True)
class Step:
    """One source op of a body and what its translation is, whatever the block."""

    op: Operation
    kind: int
    """LOAD, STORE, APPEND, SCAN, WIDEN (a widening sum's extension or combine), REGION (an
    error when reached) or OTHER (by its operands' lanes: `BlockEmitter._lane_op`)."""
    widening: Any = None
    """The `WideningSum` of a WIDEN step."""
    key: int | None = None
    """The numbered op's `static_key`, interned per lowering (equal keys, equal ints), or None."""
    cast_to_index: bool = False
    """An `arith.index_cast` to index (of a gather's integer lanes, the lanes they are)."""
    index_op: int = 0
    """For index arithmetic on the loop variable: 1 index_cast, 2 addi, 3 subi, 4 muli, 0 other."""
    form: Any = None
    """The lane-varying translation (`varying_form`), decided when a block first needs it."""


@dataclass
class BodyPlan:
    """The steps of one source block, in order: its ops up to the `loop.yield`, without the
    ones `hoist_invariants` copied to the preheader (every result hoisted)."""

    steps: list[Step]
    of_op: dict[Operation, Step]


_INDEX_OPS: dict[type, int] = {}


def _index_op(cls: type) -> int:
    kind = _INDEX_OPS.get(cls)
    if kind is None:
        kinds = ((arith.IndexCastOp, 1), (arith.AddiOp, 2), (arith.SubiOp, 3), (arith.MuliOp, 4))
        kind = _INDEX_OPS[cls] = next((k for c, k in kinds if issubclass(cls, c)), 0)
    return kind


def body_plan(block: Block, hoisted: dict[Any, Any], widening_step: Any, keys: dict[tuple[Any, ...], int]) -> BodyPlan:
    """The steps of `block` (see BodyPlan); `widening_step(op)` is LoopLowering's, `keys` the
    lowering's interned static keys."""
    steps: list[Step] = []
    for op in block.ops:
        cls = type(op)
        kind = op_kind(cls)
        if kind == YIELD:
            break
        if op.results and all(r in hoisted for r in op.results):
            continue
        if op.regions:
            steps.append(Step(op, REGION))
            continue
        step = Step(op, kind)
        if kind not in (LOAD, STORE, APPEND) and (w := widening_step(op)) is not None:
            step.kind, step.widening = WIDEN, w
        elif kind == OTHER:
            if op.results and numberable(op):
                static = static_key(op)
                step.key = keys.setdefault(static, len(keys))
            step.index_op = _index_op(cls)
            step.cast_to_index = step.index_op == 1 and isinstance(op.results[0].type, IndexType)
        steps.append(step)
    return BodyPlan(steps, {s.op: s for s in steps})


# =========================================================================== building again

_TEMPLATES: dict[tuple[Any, ...], tuple[type[Operation], list[Attribute], dict[str, Attribute], dict[str, Attribute]]] = {}


def rebuild(key: tuple[Any, ...], operands: list[SSAValue], make: Callable[[], Operation], regions: list[Region] = []) -> Operation:  # noqa: B006
    """`make()`, built from the first op `make` gave under `key` (class, result types, properties,
    attributes) with `operands` instead: an IRDL constructor infers the result type and fills
    the properties again for every block, and costs ~1.7x `Operation.create`. `key` must hold
    everything but the operand values `make` reads (the types it infers from, its flags);
    `regions` are the new op's (those `make` puts in it)."""
    known = _TEMPLATES.get(key)
    if known is None:
        op = make()
        if len(_TEMPLATES) >= 4096:
            _TEMPLATES.clear()
        _TEMPLATES[key] = (type(op), [r.type for r in op.results], dict(op.properties), dict(op.attributes))
        return op
    cls, types, properties, attributes = known
    return cls.create(operands=operands, result_types=types, properties=properties, attributes=attributes, regions=regions)


def binary(cls: type[Operation], a: SSAValue, b: SSAValue) -> Operation:
    """`cls(a, b)` for an arith op whose result has `a`'s type (addi, subi, muli, remsi, divsi,
    minsi, maxsi, and, or, xor), rebuilt per class and type."""
    return rebuild((cls, a.type), [a, b], lambda: cls(a, b))  # type: ignore[call-arg]


def yield_op(values: list[SSAValue]) -> Operation:
    """`loop.YieldOp(*values)`, rebuilt per operand count (its constructor infers nothing)."""
    return rebuild((loop.YieldOp, len(values)), values, lambda: loop.YieldOp(*values))


# =========================================================================== lane-varying forms

NARROW, SAME, MINMAX, FMA, MASK_TO_INT, CONVERT_FORM, CMP, CMP_CONST, SELECT, EXTUI_MASK, EXTUI, ERROR = range(12)


@dataclass(frozen=True, slots=True)
class Form:
    """How a lane-varying op becomes simd ops: `code` (one of the names above) and its data.

    `result`: the source result type (the vector type is asked of the lowering at emission,
    which raises for index lanes in op order); `data`: the middle type (NARROW), the op class
    to build (SAME, MINMAX), the simd predicate (CMP), the constant (CMP_CONST), the mask
    (EXTUI) or the diagnostic's message (ERROR)."""

    code: int
    result: Attribute | None = None
    data: Any = None


def varying_form(op: Operation, target_name: str, vector_bits: int, width: int, is_mask: Any) -> Form:
    """The translation of `op` when an operand varies by lane (BlockEmitter._varying's choice)."""
    if len(op.results) != 1:
        return Form(ERROR, None, f"{op.name} has no simd form on {target_name}")
    cls = type(op)
    rt = op.results[0].type
    mid = middle_type(op, vector_bits // width if vector_bits else None)
    if mid is not None:  # a conversion of narrow lanes: through the wide integer (narrow_convert.py)
        return Form(NARROW, rt, mid)
    if cls in SAME_OP:
        return Form(SAME, rt, cls)
    if cls in MIN_MAX:
        return Form(MINMAX, rt, MIN_MAX[cls])
    if isinstance(op, math.FmaOp):
        return Form(FMA, rt)
    if isinstance(op, arith.ExtSIOp | arith.SIToFPOp) and is_mask(op.operands[0].type):
        return Form(MASK_TO_INT, rt)
    if cls in CONVERT and is_mask(rt):
        return Form(ERROR, rt, f"{op.name} to i1 on lane-varying operands cannot be lowered to simd for target "
                               f"'{target_name}': simd.convert has no mask result")  # fmt: skip
    if cls in CONVERT:
        return Form(CONVERT_FORM, rt)
    if isinstance(op, arith.CmpfOp | arith.CmpiOp):
        table = arith.CMPF_COMPARISON_OPERATIONS if isinstance(op, arith.CmpfOp) else arith.CMPI_COMPARISON_OPERATIONS
        name = table[op.predicate.value.data]
        if name in ("true", "false"):
            return Form(CMP_CONST, rt, name == "true")
        allowed = simd.INT_PREDICATES if isinstance(op, arith.CmpiOp) else simd.FLOAT_PREDICATES
        if name not in CMP_PREDICATES or CMP_PREDICATES[name] not in allowed:
            return Form(ERROR, rt, f"{op.name} {name}: simd.cmp has no such predicate on {op.lhs.type}")
        return Form(CMP, rt, CMP_PREDICATES[name])
    if isinstance(op, arith.SelectOp):
        return Form(SELECT, rt)
    if isinstance(op, arith.ExtUIOp) and is_mask(op.input.type):
        return Form(EXTUI_MASK, rt)
    if isinstance(op, arith.ExtUIOp) and isinstance(op.input.type, IntegerType):
        return Form(EXTUI, rt, (1 << op.input.type.width.data) - 1)
    reason = NO_VECTOR_FORM.get(cls, "no vector form")
    return Form(ERROR, rt, f"{op.name} on lane-varying operands cannot be lowered to simd for target '{target_name}': {reason}")

