"""Lane-wise body -> simd ops at a concrete width: the translator the vecloop and predloop lowerings share.

A vecloop / predloop body is written for one lane; every value stands for W lanes. Emitting
a block of the lowered loop walks the body once and gives each old value a `Lanes`:

* `Uniform(v)`  — the same scalar `v` on every lane (constants, loop-invariant values,
  loads at an index that does not move with the loop variable);
* `Strided(b, s)` — an `index` value whose lane k is `b + k*s` (the loop variable is
  `Strided(i, step)`); loads whose index moves by one element per lane become `simd.load`;
* `Varying(v)` — a `vector<WxT>` (or a `vector<Wxi1>` mask) of per-lane values.

Uniform values are materialized as vectors only where a varying op needs them
(`simd.broadcast`; a uniform i1 becomes an all-or-nothing `simd.prefix_mask`). Pure body ops
whose operands do not depend on the loop are emitted once, before the loop (with their
broadcasts), so the main loop carries only the per-block work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    FloatAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_affine import Affine
from loopopt.dialects.loop_attrs import neutral_element
from loopopt.dialects.simd_targets import TargetInfo
from loopopt.lowering.loop_to_simd import plan as P
from loopopt.lowering.loop_to_simd.copies import Trace
from loopopt.lowering.loop_to_simd.narrow_convert import emit_narrow_conversion
from loopopt.lowering.loop_to_simd.plan import BodyPlan, Step, binary, body_plan, numberable, op_key, rebuild, varying_form
from loopopt.passes.memo_dce import EffectMemo


# =========================================================================== lane values


@dataclass(frozen=True)
class Uniform:
    """The same scalar on every lane."""

    value: SSAValue


@dataclass(frozen=True)
class Strided:
    """An index whose lane k is `base + k * stride` (the loop variable and affine functions of it)."""

    base: SSAValue
    stride: int


@dataclass(frozen=True)
class Stepped(Strided):
    """An index whose lane k is `base + k * stride * step`, `step` a runtime `index` value
    defined before the loop: the variable of a loop over range(lo, hi, %step) (and affine
    functions of it; loop_to_simd/range.py). Only index arithmetic and `arith.index_cast`
    take it (iota x step); a memory access at it would be strided by an unknown amount."""

    step: SSAValue | None = None


@dataclass(frozen=True)
class Varying:
    """A `vector<WxT>` or `vector<Wxi1>` holding each lane's value."""

    value: SSAValue


Lanes = Uniform | Strided | Stepped | Varying


_FLOAT, _INTEGER, _OTHER = 1, 2, 0
_TYPE_KINDS: dict[type, int] = {}
"""Per attribute class: a float lane type, IntegerType or neither (an isinstance against xDSL's
ABC classes costs more than the rest of the test; the lowering asks it of every value)."""


def _type_kind(t: Attribute) -> int:
    cls = type(t)
    kind = _TYPE_KINDS.get(cls)
    if kind is None:
        floats = (Float16Type, BFloat16Type, Float32Type, Float64Type)
        kind = _TYPE_KINDS[cls] = _FLOAT if issubclass(cls, floats) else _INTEGER if issubclass(cls, IntegerType) else _OTHER
    return kind


def is_data_type(t: Attribute) -> bool:
    """f32 f64 i8 i16 i32 i64 (and f16/bf16 storage lanes): the element types of simd data vectors."""
    kind = _type_kind(t)
    return kind == _FLOAT or (kind == _INTEGER and t.width.data in (8, 16, 32, 64))  # type: ignore[attr-defined]


def is_mask_type(t: Attribute) -> bool:
    return _type_kind(t) == _INTEGER and t.width.data == 1  # type: ignore[attr-defined]


INDEX = IndexType()
"""The index type, built once: the lowering asks for it ~2.5 times per df op, and building one
(an attribute's init and verification) costs more than the dict lookups it keys."""

_CONST_ATTRS: dict[tuple[Attribute, type, str], FloatAttr | IntegerAttr] = {}


def const_op(value: int | float | bool, t: Attribute) -> arith.ConstantOp:
    """`arith.constant value : t` for a scalar type (its attribute built once per value and
    type: the lowering emits a few distinct constants thousands of times), rebuilt per value and
    type (plan.rebuild: by its repr, as const_attr keys it, so -0.0 and 0.0 stay apart)."""
    return rebuild((arith.ConstantOp, t, type(value), repr(value)), [], lambda: arith.ConstantOp(const_attr(value, t)))  # type: ignore[return-value]


def const_attr(value: int | float | bool, t: Attribute) -> FloatAttr | IntegerAttr:
    """`const_op`'s attribute."""
    key = (t, type(value), repr(value))  # repr: -0.0 and 0.0, True and 1 are equal keys otherwise
    attr = _CONST_ATTRS.get(key)
    if attr is None:
        if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
            attr = FloatAttr(float(value), t)
        else:
            assert isinstance(t, IntegerType | IndexType)
            attr = IntegerAttr(int(value), t)
        if len(_CONST_ATTRS) >= 4096:
            _CONST_ATTRS.clear()
        _CONST_ATTRS[key] = attr
    return attr


_HINTS: dict[str, str | None] = {}
"""Name hint -> what xDSL's setter keeps of it (it strips a `_N` suffix after a regex check)."""


def set_hint(value: SSAValue, like: SSAValue) -> None:
    """`value.name_hint = like.name_hint`, the setter's answer remembered per name."""
    name = like.name_hint
    if name is None:
        value.name_hint = None
        return
    kept = _HINTS.get(name)
    if kept is None:
        value.name_hint = name
        if len(_HINTS) >= 4096:
            _HINTS.clear()
        kept = _HINTS[name] = value.name_hint
    else:
        value._name = kept  # pyright: ignore[reportPrivateUsage]


def located(op: Operation, like: Operation) -> Operation:
    op.location = like.location
    return op


# =========================================================================== per-loop state


@dataclass(frozen=True, slots=True)
class Access:
    """A source load's or store's operands and index decoding, read once per lowering (the IRDL
    accessors and the affine decoding cost more than the per-block work they feed)."""

    affine: list[Affine]
    buf: SSAValue
    indices: tuple[SSAValue, ...]
    buf_type: Any
    value: SSAValue
    """The load's result or the stored value."""


_VECTOR_TYPES: dict[tuple[Attribute, int], VectorType] = {}


def _vector_type(t: Attribute, width: int) -> VectorType:
    """`vector<width x t>`, built once: a VectorType costs ~0.1 ms to construct and verify,
    and the lowering asks for the same few types for every op (docs/compile_time.md)."""
    key = (t, width)
    vt = _VECTOR_TYPES.get(key)
    if vt is None:
        vt = _VECTOR_TYPES[key] = VectorType(t, [width])
    return vt


@dataclass
class LoopLowering:
    """What every block emitted for one vector loop shares: target, width, the preheader.

    `preheader` inserts before the loop being lowered; what it emits (hoisted pure ops,
    broadcasts of invariant values, constant vectors) is emitted once and reused by the
    main loop, the remainder loop and the masked tail.
    """

    source: loop.VecLoopOp | loop.PredLoopOp
    target: TargetInfo
    width: int
    preheader: Callable[[Operation], None]
    hoisted: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    """Old invariant body value -> its preheader copy."""
    outside: set[SSAValue] = field(default_factory=set[SSAValue])
    """New scalar values available before the loop (hoisted copies, values defined outside)."""
    broadcasts: dict[tuple[SSAValue, Attribute], SSAValue] = field(default_factory=dict[tuple[SSAValue, Attribute], SSAValue])
    """Preheader broadcasts of outside scalars (and constant vectors, index constants, casts,
    iotas: pure ops only), by (scalar or what it stands for, type). The pass shares one dict
    among the loops of a block (`VecOptions.preheaders`), lowered in order: a later loop's
    preheader reads the constants and broadcasts an earlier one built before it (what cse
    would merge them into); `abandon` takes out what it erases."""
    columns_of: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    """`columns`' `loop.dim`s (reads: not shared past another loop, which may write)."""
    inserted: list[Operation] = field(default_factory=list[Operation])
    """Everything emitted before the loop, in order (erased again by `abandon`)."""
    scratch: list[Block] = field(default_factory=list[Block])
    """Loop bodies under construction (their ops are dropped by `abandon`)."""
    runtime_step: tuple[SSAValue, SSAValue] | None = None
    """(lo, step) of a source loop over range(lo, hi, %step) with a runtime step, whose lowered
    loops walk its positions (loop_to_simd/range.py BlockRange.over_positions)."""
    widening: dict[int, Any] = field(default_factory=dict)
    """Accumulator index -> its `WideningSum` (loop_to_simd/widen.py): stepped by simd.widen_add."""
    narrow_type: IntegerType | None = None
    """The narrow lane type of a loop with widening sums (a 0/1 count is added in it)."""
    affine: dict[Operation, Access] = field(default_factory=dict[Operation, "Access"])
    """The source's loads and stores as `Access`es (decoded once, read by every block)."""
    per_block: dict[Block, tuple[dict[Any, SSAValue], dict[Any, SSAValue], dict[Any, tuple[Lanes, ...]]]] = field(default_factory=dict)
    """Per lowered loop body: the splats, index arithmetic and numbered ops its blocks (the K
    copies) built, which every copy reads (a row start `r * cols`, a splat of a uniform value)."""
    uniform: dict[SSAValue, Uniform] = field(default_factory=dict[SSAValue, Uniform])
    """A body operand not in a block's env -> its `Uniform` (its hoisted copy or itself, outside)."""
    plans: dict[Block, BodyPlan] = field(default_factory=dict[Block, BodyPlan])
    """Per source block (body, pred): its translation, decided at the first block emitted (plan.py)."""
    keys: dict[tuple[Any, ...], int] = field(default_factory=dict[tuple[Any, ...], int])
    """Interned `plan.static_key`s of the numbered body ops (the numbering's keys hold the int)."""
    volatile: int = 0
    """How many times a block's translation emitted before the loop what a cache does not keep
    (`BlockEmitter._room_left`): a copy that did cannot be cloned (copies.py)."""

    def access(self, op: loop.LoadOp | loop.StoreOp) -> Access:
        found = self.affine.get(op)
        if found is None:
            found = self.affine[op] = Access(op.affine_indices, op.buf, tuple(op.indices), op.buf_type,
                                             op.result if isinstance(op, loop.LoadOp) else op.value)  # fmt: skip
        return found

    def plan(self, block: Block) -> BodyPlan:
        """The steps of a source block (plan.body_plan), decided once: after `hoist_invariants`."""
        found = self.plans.get(block)
        if found is None:
            found = self.plans[block] = body_plan(block, self.hoisted, self.widening_step, self.keys)
        return found

    def widening_step(self, op: Operation) -> Any:
        """The `WideningSum` whose extension or combine `op` is, or None."""
        for w in self.widening.values():
            if op is w.ext or op is w.combine:
                return w
        return None

    def variable_lanes(self, var: SSAValue, block: Block, step: int | None) -> Lanes:
        """The source loop variable's lanes in a block whose lowered loop variable is `var`:
        `var` itself by `step`; with a runtime step `var` is a position p and lane 0 is
        lo + p*step (wrapping i64, exact for every element of the range), emitted into `block`."""
        if self.runtime_step is None:
            assert step is not None
            return Strided(var, step)
        lo, s = self.runtime_step
        i64 = IntegerType(64)
        lo64, s64 = (self.hoisted_cast(v, i64) for v in (lo, s))
        p64 = arith.IndexCastOp(var, i64)
        moved = binary(arith.MuliOp, p64.result, s64)
        at = binary(arith.AddiOp, lo64, moved.result)
        base = arith.IndexCastOp(at.result, IndexType())
        for o in (p64, moved, at, base):
            block.add_op(located(o, self.source))
        return Stepped(base.result, 1, s)

    def iota_by(self, t: Attribute, step: SSAValue, stride: int) -> SSAValue:
        """`[0, s, 2s, ...]` with s = stride * step (`step` a runtime index), as `vector<W x t>`
        in the cast type's wrapping arithmetic, in the preheader (cached)."""
        vt = _vector_type(t, self.width)
        key = (("iota_by", step, stride), vt)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            s = self.hoisted_cast(step, t)
            if stride != 1:
                s = self.emit_pre(binary(arith.MuliOp, s, self.emit_pre(const_op(stride, t)).results[0])).results[0]
            lanes = self.emit_pre(binary(arith.MuliOp, self.iota(t, 1), self.broadcast_outside(s, vt))).results[0]
            self.broadcasts[key] = lanes  # type: ignore[index]
        return self.broadcasts[key]  # type: ignore[index]

    def hoisted_cast(self, value: SSAValue, t: Attribute) -> SSAValue:
        """`arith.index_cast value : index to t` before the loop (cached)."""
        key = (("cast", value), t)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            self.broadcasts[key] = self.emit_pre(arith.IndexCastOp(value, t)).results[0]  # type: ignore[index]
        return self.broadcasts[key]  # type: ignore[index]

    def abandon(self, erase: Callable[[Operation], None]) -> None:
        """Undo a lowering that failed half-way (`erase` removes one op, e.g. through the
        rewriter): the source loop is left as it was."""
        for block in self.scratch:
            for op in block.walk():
                op.drop_all_references()
        mine = set(self.inserted)
        for key in [k for k, v in self.broadcasts.items() if v.owner in mine]:
            del self.broadcasts[key]
        for op in reversed(self.inserted):
            if op.parent is not None:
                erase(op)

    def vector_type(self, t: Attribute, at: Operation) -> VectorType:
        """`vector<W x t>`; index lanes have no simd form."""
        if is_data_type(t) or is_mask_type(t):
            return _vector_type(t, self.width)
        raise LoopoptDiagnostic(
            f"{at.name}: lane-varying values of type {t} have no simd form on {self.target.name} "
            "(lanes hold f32, f64, i8, i16, i32, i64 or i1 masks)",
            at,
        )

    def emit_pre(self, op: Operation) -> Operation:
        located(op, self.source)
        self.preheader(op)
        self.inserted.append(op)
        for r in op.results:
            self.outside.add(r)
        return op

    def hoist_invariants(self) -> None:
        """Copy the body's loop-invariant pure ops (and the pred region's) to the preheader.
        A `loop.lane_scan` stays: its value differs by lane even when its operand is invariant
        (the scan of a constant map counts up), and it must stay inside its loop."""
        regions = [self.source.body] + ([self.source.pred] if isinstance(self.source, loop.PredLoopOp) else [])
        inside = {r.block for r in regions}
        """The blocks whose ops are inside the loop: a top-level op's operand is defined by an op
        of one of them, by their arguments, or outside (an op nested deeper is not visible)."""
        effects = EffectMemo()  # xDSL's is_side_effect_free, answered per class where it can be
        copies: dict[tuple[Any, ...], Operation] = {}
        """Hoisted copies of `numberable` ops by `op_key`: a predloop's pred and body regions
        hold the same invariant ops (their constants), each copied once (what cse keeps)."""
        for region in regions:
            for op in region.block.ops:
                if op.regions or isinstance(op, loop.YieldOp | loop.LaneScanOp):
                    continue
                found = effects.get_effects(op)
                if found is None or found:
                    continue
                if not all(self._available(v, inside) for v in op._operands):
                    continue
                mapper = {v: self.hoisted[v] for v in op.operands if v in self.hoisted}
                key = op_key(op, tuple([mapper.get(v, v) for v in op.operands])) if numberable(op) else None
                new = copies.get(key) if key is not None else None
                if new is None:
                    new = op.clone(value_mapper=mapper)
                    self.emit_pre(new)
                    if key is not None:
                        copies[key] = new
                for old, r in zip(op.results, new.results, strict=True):
                    self.hoisted[old] = r

    def _available(self, value: SSAValue, inside: set[Block]) -> bool:
        if value in self.hoisted:
            return True
        owner = value.owner
        if isinstance(owner, Block):
            return owner.parent_op() is not self.source and not _is_within(owner.parent_op(), self.source)
        return owner.parent not in inside

    def broadcast_outside(self, scalar: SSAValue, vt: VectorType) -> SSAValue:
        """A preheader broadcast of a scalar available before the loop (cached)."""
        key = (scalar, vt)
        if key not in self.broadcasts:
            ops = _broadcast_op(scalar, vt, self)
            for o in ops:
                self.emit_pre(o)
            self.broadcasts[key] = ops[-1].results[0]
        return self.broadcasts[key]

    def columns(self, buf: SSAValue) -> SSAValue:
        """`loop.dim buf, 1` before the loop (cached): a rank-2 buffer's row length."""
        if buf not in self.columns_of:
            self.columns_of[buf] = self.emit_pre(loop.DimOp(buf, 1)).results[0]
        return self.columns_of[buf]

    def index_const(self, value: int) -> SSAValue:
        """`arith.constant value : index` before the loop (cached; the source loop's own operand
        when one is that constant, e.g. its lower bound %c0: cse would merge into it)."""
        key = (("index", value), INDEX)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            found = self._operand_constant(value, INDEX)
            self.broadcasts[key] = found if found is not None else self.emit_pre(const_op(value, INDEX)).results[0]  # type: ignore[index]
        return self.broadcasts[key]  # type: ignore[index]

    def _operand_constant(self, value: int | float | bool, t: Attribute) -> SSAValue | None:
        """An operand of the source loop that is `arith.constant value : t` (same type and repr:
        -0.0 is not 0.0), defined before the loop, or None."""
        want = const_attr(value, t)
        for v in self.source.operands:
            owner = v.owner
            if type(owner) is arith.ConstantOp and owner.value.type == t and type(owner.value) is type(want) and \
                    repr(owner.value.value.data) == repr(want.value.data):  # fmt: skip
                return v
        return None

    def emit_pre_numbered(self, op: Operation) -> SSAValue:
        """`emit_pre` for the index arithmetic of the loop bounds (one result): an op equal to one
        a loop of this block emitted before (the trip count of the same range) is not emitted
        again; its value is returned instead (cse would merge them)."""
        if not numberable(op):
            return self.emit_pre(op).results[0]
        key = (("pre", op_key(op, tuple(op.operands))), INDEX)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            self.broadcasts[key] = self.emit_pre(op).results[0]  # type: ignore[index]
        else:
            op.drop_all_references()
        return self.broadcasts[key]  # type: ignore[index]

    def splat_constant(self, value: int | float | bool, vt: VectorType) -> SSAValue:
        """A vector with every lane `value`, built in the preheader (cached: by its type and
        repr, as const_op keys it, so -0.0 and 0.0 stay two vectors)."""
        key = (("splat", type(value), repr(value)), vt)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            c = self._operand_constant(value, vt.element_type) or self.emit_pre(const_op(value, vt.element_type)).results[0]
            self.broadcasts[key] = self.broadcast_outside(c, vt)  # type: ignore[index]
        return self.broadcasts[key]  # type: ignore[index]

    def iota(self, t: Attribute, stride: int) -> SSAValue:
        """`[0, s, 2s, ...]` as `vector<W x t>` (t = i32 or i64), in the preheader."""
        vt = _vector_type(t, self.width)
        key = (("iota", stride), vt)
        if key not in self.broadcasts:  # type: ignore[comparison-overlap]
            lanes = self.emit_pre(simd.IotaOp(vt)).results[0]
            if stride != 1:
                lanes = self.emit_pre(binary(arith.MuliOp, lanes, self.splat_constant(stride, vt))).results[0]
            self.broadcasts[key] = lanes  # type: ignore[index]
        return self.broadcasts[key]  # type: ignore[index]


def _is_within(op: Operation | None, ancestor: Operation) -> bool:
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op()
    return False


def _broadcast_op(scalar: SSAValue, vt: VectorType, lowering: LoopLowering) -> list[Operation]:
    """Ops that splat `scalar` over `vt`'s lanes (the last one's result is the vector).

    A data scalar is a `simd.broadcast`; an i1 becomes `simd.prefix_mask(cond ? W : 0)`.
    """
    if is_mask_type(scalar.type):
        w = const_op(lowering.width, INDEX)
        z = const_op(0, INDEX)
        n = arith.SelectOp(scalar, w, z)
        return [w, z, n, simd.PrefixMaskOp(n, vt)]
    return [rebuild((simd.BroadcastOp, vt), [scalar], lambda: simd.BroadcastOp(scalar, vt))]


# =========================================================================== one block


@dataclass
class BlockEmitter:
    """Emits one lowered block (W lanes) of a vector loop body into `block`.

    `load_mask` makes contiguous loads masked (the lanes past the end of a masked tail);
    `store_mask` makes contiguous stores masked and selects the lanes `loop.append`
    compacts (a predloop's predicate, and-ed with `load_mask` in a tail).
    """

    lowering: LoopLowering
    block: Block
    env: dict[SSAValue, Lanes]
    load_mask: SSAValue | None = None
    store_mask: SSAValue | None = None
    cursor: SSAValue | None = None
    """A predloop's running append position (index) at the start of this block."""
    full_compress: bool = False
    """`loop.append` may write a whole vector at the cursor (`simd.compress_store ... full`):
    the lowering has checked that the cursor is a vector away from the buffers' ends."""
    masked_steps: dict[Operation, SSAValue] = field(default_factory=dict[Operation, SSAValue])
    """Accumulation steps `acc <op> x` of a predloop to emit as `acc <op> select(mask, x, neutral)`,
    with the neutral vector: only the combine is loop-carried (no blend after it)."""
    streaming: SSAValue | None = None
    """A buffer whose contiguous stores are aligned here and go `nontemporal` (streaming)."""
    half_loads: bool = False
    """Contiguous unmasked loads are `simd.load halves` (data beyond the L2 on Zen 4)."""
    quarter_loads: bool = False
    """Contiguous unmasked loads are `simd.load quarters` (a one-input map beyond the L1d on Zen 4)."""
    append_counts: list[SSAValue] = field(default_factory=list[SSAValue])
    """Results of this block's `simd.compress_store`s (all equal: the active lane count)."""
    _splats: dict[tuple[SSAValue, Attribute], SSAValue] = field(init=False)
    _loaded: dict[tuple[SSAValue, SSAValue, Attribute], SSAValue] = field(
        default_factory=dict[tuple[SSAValue, SSAValue, Attribute], SSAValue]
    )
    """Vectors loaded in this block by (buffer, start, type), until a store to the buffer: a
    predloop's pred and body regions load the same elements, the block loads them once."""
    _index_values: dict[tuple[Any, ...], SSAValue] = field(init=False)
    """`index_arith`'s values by (class, operands)."""
    trace: Trace | None = None
    """Records what this block emits, for the copies cloned from it (copies.py)."""
    _numbering: dict[tuple[Any, ...], tuple[Lanes, ...]] = field(init=False)
    """The lanes of every `numberable` body op by its `op_key` over its operands' lanes: an op
    equal to one translated before in this loop body takes its lanes instead of emitting the
    same ops again. A predloop's pred and body regions compute the same values (the body
    recomputes what the predicate read), which `cse` would otherwise erase afterwards."""

    def __post_init__(self) -> None:
        shared = self.lowering.per_block.get(self.block)
        if shared is None:
            shared = self.lowering.per_block[self.block] = ({}, {}, {})
        self._splats, self._index_values, self._numbering = shared

    @property
    def width(self) -> int:
        return self.lowering.width

    def emit(self, op: Operation, like: Operation) -> Operation:
        op.location = like.location  # located(op, like), without the call
        self.block.add_op(op)
        if self.trace is not None:
            self.trace.record(op)
        return op

    # ----------------------------------------------------------------- values

    def lanes(self, value: SSAValue) -> Lanes:
        lanes = self.env.get(value)
        if lanes is not None:
            return lanes
        lowering = self.lowering
        lanes = lowering.uniform.get(value)
        if lanes is None:
            hoisted = lowering.hoisted.get(value)
            if hoisted is None:
                lowering.outside.add(value)  # defined outside the loop
            lanes = lowering.uniform[value] = Uniform(value if hoisted is None else hoisted)
        return lanes

    def vector(self, value: SSAValue, at: Operation) -> SSAValue:
        """`value` as a `vector<WxT>` (broadcasting a uniform value)."""
        lanes = self.lanes(value)
        if isinstance(lanes, Varying):
            return lanes.value
        if isinstance(lanes, Strided):
            raise LoopoptDiagnostic(
                f"{at.name}: index lanes (the loop variable) have no simd form; cast them with arith.index_cast first",
                at,
            )
        return self.splat(lanes.value, at)

    def splat(self, scalar: SSAValue, at: Operation) -> SSAValue:
        vt = self.lowering.vector_type(scalar.type, at)
        if scalar in self.lowering.outside:
            return self.lowering.broadcast_outside(scalar, vt)
        key = (scalar, vt)
        if key not in self._splats:
            ops = _broadcast_op(scalar, vt, self.lowering)
            shared = self._shared((scalar,))
            for o in ops:
                self.emit(o, at)
            if shared:
                self.trace.shared -= 1  # type: ignore[union-attr]
            self._splats[key] = ops[-1].results[0]
        return self._splats[key]

    def scalar(self, value: SSAValue, at: Operation) -> SSAValue:
        lanes = self.lanes(value)
        if isinstance(lanes, Uniform):
            return lanes.value
        raise LoopoptDiagnostic(f"{at.name}: expected a value that is the same on every lane", at)

    # ----------------------------------------------------------------- the body

    def run(self, source: Block) -> None:
        """Translate the ops of `source` (a body or pred block) up to its `loop.yield`, by its
        plan (plan.py: what is the same for every block is decided once per lowering)."""
        masked = self.masked_steps
        numbering = self._numbering
        env = self.env
        for step in self.lowering.plan(source).steps:
            kind = step.kind
            op = step.op
            if kind == P.OTHER:
                if masked and op in masked:
                    self._masked_step(op, masked[op])
                    continue
                operand_lanes = [self.lanes(v) for v in op._operands]
                key = step.key
                if key is None:
                    self._lane_op(step, operand_lanes)
                    continue
                key = (key, tuple(operand_lanes))
                known = numbering.get(key)
                if known is not None:
                    for old, lanes in zip(op.results, known, strict=True):
                        env[old] = lanes
                    continue
                if self.trace is not None and self._shared(tuple([_lane_value(x) for x in operand_lanes])):
                    self._lane_op(step, operand_lanes)
                    self.trace.shared -= 1
                else:
                    self._lane_op(step, operand_lanes)
                numbering[key] = tuple([env[r] for r in op.results])
            elif kind == P.LOAD:
                self._load(op)  # type: ignore[arg-type]
            elif kind == P.STORE:
                self._store(op)  # type: ignore[arg-type]
            elif kind == P.APPEND:
                self._append(op)  # type: ignore[arg-type]
            elif kind == P.WIDEN:
                self._widening_step(op, step.widening)
            elif kind == P.REGION:
                raise LoopoptDiagnostic(f"{op.name}: a nested region in a vector loop body has no simd form", op)
            elif masked and op in masked:
                self._masked_step(op, masked[op])
            else:  # P.SCAN
                self._lane_scan(op)  # type: ignore[arg-type]

    def _lane_op(self, step: Step, operand_lanes: list[Lanes]) -> None:
        """A body op other than memory, scans and the accumulation steps, by its operands' lanes."""
        op = step.op
        if step.cast_to_index and isinstance(operand_lanes[0], Varying):
            self.env[op.results[0]] = operand_lanes[0]  # index lanes: the integer lanes they were cast from (a gather's)
            return
        if any(isinstance(x, Strided) for x in operand_lanes):
            return self._index_op(op, operand_lanes)
        if all(isinstance(x, Uniform) for x in operand_lanes):
            return self._uniform(op)
        return self._varying(step)

    def _uniform(self, op: Operation) -> None:
        """Every operand is uniform: the scalar op, once per block."""
        mapper = {v: self.scalar(v, op) for v in op.operands}
        new = self.emit(op.clone(value_mapper=mapper), op)
        for old, r in zip(op.results, new.results, strict=True):
            self.env[old] = Uniform(r)

    def _varying(self, step: Step) -> None:
        """An op with a lane-varying operand, by its form (plan.varying_form, decided once)."""
        op = step.op
        form = step.form
        if form is None:
            lowering = self.lowering
            form = step.form = varying_form(op, lowering.target.name, lowering.target.vector_bits, self.width, is_mask_type)
        code = form.code
        if code == P.ERROR:
            raise LoopoptDiagnostic(form.data, op)
        (result,) = op.results
        first, *rest = op._operands  # (unpacked: indexing xDSL's operand tuple is a Python call)
        new: Operation
        if code == P.SAME:
            operands = [self.vector(v, op) for v in op._operands]
            vt = self.lowering.vector_type(form.result, op)
            new = form.data.create(operands=operands, result_types=[vt], properties=dict(op.properties),
                                   attributes=dict(op.attributes))  # fmt: skip
        elif code == P.NARROW:  # a conversion of narrow lanes: through the wide integer (narrow_convert.py)
            x = self.vector(first, op)
            value = emit_narrow_conversion(op, x, form.data, self.width, lambda o: self.emit(o, op), self.lowering.splat_constant)
            set_hint(value, result)
            self.env[result] = Varying(value)
            return
        elif code == P.MINMAX:
            a, b = self.vector(first, op), self.vector(rest[0], op)
            new = rebuild((form.data, a.type), [a, b], lambda: form.data(a, b))
        elif code == P.FMA:
            # simd.fma is fused on every target: one instruction with has_fma, C's fma per lane without.
            a, b, c = (self.vector(v, op) for v in op.operands)
            new = rebuild((simd.FmaOp, c.type), [a, b, c], lambda: simd.FmaOp(a, b, c))
        elif code == P.MASK_TO_INT:
            # i1 read signed: a true lane is -1 (docs/integer_semantics.md)
            vt = self.lowering.vector_type(form.result, op)
            one, zero = self.lowering.splat_constant(-1, vt), self.lowering.splat_constant(0, vt)
            new = simd.SelectOp(self.vector(first, op), one, zero)
        elif code == P.CONVERT_FORM:
            x, vt = self.vector(first, op), self.lowering.vector_type(form.result, op)
            new = rebuild((simd.ConvertOp, vt), [x], lambda: simd.ConvertOp(x, vt))
        elif code == P.CMP:
            a, b = self.vector(first, op), self.vector(rest[0], op)
            new = rebuild((simd.CmpOp, form.data, a.type), [a, b], lambda: simd.CmpOp(form.data, a, b))
        elif code == P.CMP_CONST:
            self.env[result] = Varying(self.lowering.splat_constant(form.data, _vector_type(i1, self.width)))
            return
        elif code == P.SELECT:
            mask = self.vector(first, op)
            out = self.blend(mask, self.vector(rest[0], op), self.vector(rest[1], op), op)
            set_hint(out, result)
            self.env[result] = Varying(out)
            return
        elif code == P.EXTUI_MASK:
            vt = self.lowering.vector_type(form.result, op)
            one, zero = self.lowering.splat_constant(1, vt), self.lowering.splat_constant(0, vt)
            new = simd.SelectOp(self.vector(first, op), one, zero)
        else:  # P.EXTUI: zero extension = sign extension & (2^w - 1): simd.convert extends signed
            vt = self.lowering.vector_type(form.result, op)
            wide = self.emit(simd.ConvertOp(self.vector(first, op), vt), op).results[0]
            new = binary(arith.AndIOp, wide, self.lowering.splat_constant(form.data, vt))
        self.emit(new, op)
        set_hint(new.results[0], result)
        self.env[result] = Varying(new.results[0])

    def _lane_scan(self, op: loop.LaneScanOp) -> None:
        """The in-register prefix of the block's lanes (a uniform value is splat first); in a
        predloop the inactive lanes count as the kind's neutral element."""
        from loopopt.lowering.loop_to_simd.scan import emit_lane_scan  # scan builds on this module

        value = self.vector(op.value, op)
        if self.store_mask is not None:
            neutral = self.lowering.splat_constant(neutral_element(op.kind.data, op.value.type), value.type)  # type: ignore[arg-type]
            value = self.blend(self.store_mask, value, neutral, op)
        value = emit_lane_scan(op.kind.data, value, self.lowering, lambda o: self.emit(o, op), op)
        self.env[op.result] = Varying(value)

    def _widening_step(self, op: Operation, w: Any) -> None:
        """`simd.widen_add acc, x` for a widening sum's combine (loop_to_simd/widen.py); its
        extension emits nothing. A 0/1 count adds select(mask, ±1, 0) in the narrow lanes, and
        the inactive lanes of a masked block add 0."""
        if op is w.ext:
            return
        x = self.vector(w.source, op)
        assert isinstance(x.type, VectorType) and self.lowering.narrow_type is not None
        nt = _vector_type(self.lowering.narrow_type, self.width)
        # the zero vector only where a select reads it: splat_constant is cached, so an unused
        # first one would be the one kept, at its earlier place (the C would move)
        if is_mask_type(x.type.element_type):
            zero = self.lowering.splat_constant(0, nt)
            x = self.emit(simd.SelectOp(x, self.lowering.splat_constant(-1 if w.signed else 1, nt), zero), op).results[0]
        mask = self.store_mask if self.store_mask is not None else self.load_mask
        if mask is not None:
            x = self.emit(simd.SelectOp(mask, x, self.lowering.splat_constant(0, nt)), op).results[0]
        acc = self.vector(self.lowering.source.acc_args[w.index], op)
        new = self.emit(simd.WidenAddOp(acc, x, w.signed), op)
        new.results[0].name_hint = w.combine.result.name_hint
        self.env[w.combine.result] = Varying(new.results[0])

    def _masked_step(self, op: Operation, neutral: SSAValue) -> None:
        """`acc <op> x` on the active lanes only, as `acc <op> select(mask, x, neutral)`."""
        assert self.store_mask is not None
        source = self.lowering.source
        (x,) = [v for v in op.operands if v not in source.acc_args]
        selected = self.blend(self.store_mask, self.vector(x, op), neutral, op)
        saved = self.env.get(x)
        self.env[x] = Varying(selected)
        try:
            self._varying(next(p.of_op[op] for p in self.lowering.plans.values() if op in p.of_op))
        finally:
            if saved is None:
                del self.env[x]
            else:
                self.env[x] = saved

    def blend(self, mask: SSAValue, a: SSAValue, b: SSAValue, at: Operation) -> SSAValue:
        """Lane k = mask[k] ? a[k] : b[k]; `simd.select` for data, (m & a) | (~m & b) for masks."""
        assert isinstance(a.type, VectorType)
        if not is_mask_type(a.type.element_type):
            return self.emit(rebuild((simd.SelectOp, a.type), [mask, a, b], lambda: simd.SelectOp(mask, a, b)), at).results[0]
        ones = self.lowering.splat_constant(True, _vector_type(i1, self.width))
        not_m = self.emit(binary(arith.XOrIOp, mask, ones), at).results[0]
        t = self.emit(binary(arith.AndIOp, mask, a), at).results[0]
        f = self.emit(binary(arith.AndIOp, not_m, b), at).results[0]
        return self.emit(binary(arith.OrIOp, t, f), at).results[0]

    # ----------------------------------------------------------------- index arithmetic

    def _index_op(self, op: Operation, xs: Sequence[Lanes]) -> None:
        """Ops on the loop variable: affine index arithmetic stays strided, index_cast makes lanes."""
        if any(isinstance(x, Stepped) for x in xs):
            return self._stepped_op(op, xs)
        if isinstance(op, arith.IndexCastOp) and isinstance(xs[0], Strided):
            s = xs[0]
            t = op.result.type
            if not (isinstance(t, IntegerType) and t.width.data in (32, 64)):
                raise LoopoptDiagnostic(f"{op.name} of the loop variable to {t} has no simd form", op)
            base = self.emit(arith.IndexCastOp(s.base, t), op).results[0]
            new = self.emit(binary(arith.AddiOp, self.splat(base, op), self.lowering.iota(t, s.stride)), op)
            new.results[0].name_hint = op.results[0].name_hint
            self.env[op.results[0]] = Varying(new.results[0])
            return
        if isinstance(op, arith.AddiOp | arith.SubiOp) and all(isinstance(x, Uniform | Strided) for x in xs):
            a, b = xs
            sign = 1 if isinstance(op, arith.AddiOp) else -1
            base = self.emit(type(op)(_base(a), _base(b)), op).results[0]
            self.env[op.result] = Strided(base, _stride(a) + sign * _stride(b))
            return
        if isinstance(op, arith.MuliOp):
            a, b = xs
            const = _const_int(b.value) if isinstance(b, Uniform) else _const_int(a.value) if isinstance(a, Uniform) else None
            if const is not None:
                base = self.emit(binary(arith.MuliOp, _base(a), _base(b)), op).results[0]
                self.env[op.result] = Strided(base, (_stride(a) + _stride(b)) * const)
                return
        raise LoopoptDiagnostic(
            f"{op.name} on the loop variable has no simd form (only +, -, * by a constant and arith.index_cast)", op
        )

    def _stepped_op(self, op: Operation, xs: Sequence[Lanes]) -> None:
        """Index arithmetic on a runtime-step loop's variable (`Stepped`): + and - of uniform
        values or of the same step's lanes, * by a constant; index_cast makes the lanes
        `base + iota * (stride * step)` in the cast type (which wraps, as the scalar cast does)."""
        if isinstance(op, arith.IndexCastOp) and isinstance(xs[0], Stepped):
            x = xs[0]
            t = op.result.type
            if not (isinstance(t, IntegerType) and t.width.data in (32, 64)) or x.step is None:
                raise LoopoptDiagnostic(f"{op.name} of the loop variable to {t} has no simd form", op)
            base = self.emit(arith.IndexCastOp(x.base, t), op).results[0]
            new = self.emit(binary(arith.AddiOp, self.splat(base, op), self.lowering.iota_by(t, x.step, x.stride)), op)
            new.results[0].name_hint = op.results[0].name_hint
            self.env[op.results[0]] = Varying(new.results[0])
            return
        steps = {x.step for x in xs if isinstance(x, Stepped)}
        plain = all(isinstance(x, Uniform | Stepped) for x in xs)
        if plain and len(steps) == 1 and isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp):
            a, b = xs
            (step,) = steps
            if isinstance(op, arith.MuliOp):
                const = _const_int(b.value) if isinstance(b, Uniform) else _const_int(a.value) if isinstance(a, Uniform) else None
                if const is None:
                    raise LoopoptDiagnostic(f"{op.name}: the loop variable times a non-constant has no simd form", op)
                stride = (_stride(a) + _stride(b)) * const
            else:
                stride = _stride(a) + (1 if isinstance(op, arith.AddiOp) else -1) * _stride(b)
            base = self.emit(type(op)(_base(a), _base(b)), op).results[0]
            self.env[op.result] = Stepped(base, stride, step) if stride else Uniform(base)
            return
        raise LoopoptDiagnostic(
            f"{op.name} on the variable of a loop with a runtime step has no simd form "
            "(only +, -, * by a constant and arith.index_cast)", op
        )

    def index_at_lane0(self, a: Affine, at: Operation) -> tuple[SSAValue, int]:
        """Lane 0's value of an affine index, and how far it moves per lane."""
        stride = 0
        total: SSAValue | None = None
        for v, c in a.terms:
            lanes = self.lanes(v)
            if isinstance(lanes, Varying):
                raise LoopoptDiagnostic(f"{at.name}: a computed (gather/scatter) index has no simd form", at)
            _no_runtime_stride(lanes, at)
            stride += c * _stride(lanes)
            term = _base(lanes)
            if c != 1:
                k = self.lowering.index_const(c)
                term = self.index_arith(arith.MuliOp, term, k, at)
            total = term if total is None else self.index_arith(arith.AddiOp, total, term, at)
        if total is None or a.offset:
            off = self.lowering.index_const(a.offset)
            total = off if total is None else self.index_arith(arith.AddiOp, total, off, at)
        return total, stride

    def index_arith(self, cls: type[arith.MuliOp | arith.AddiOp], a: SSAValue, b: SSAValue, at: Operation) -> SSAValue:
        """`cls(a, b)` on index values in this block, once: every access at `x[i + 1]` (or row
        `r` of a rank-2 buffer) computes the same element offset, which cse would merge."""
        key = (cls, a, b)
        value = self._index_values.get(key)
        if value is None:
            new = rebuild((cls, a.type), [a, b], lambda: cls(a, b))
            shared = self._shared((a, b))
            value = self._index_values[key] = self.emit(new, at).results[0]
            if shared:
                self.trace.shared -= 1  # type: ignore[union-attr]
        return value

    def _shared(self, key: tuple[SSAValue | None, ...]) -> bool:
        """Entering a lookup shared by the copies of this loop body that missed, with `key`'s
        values: when traced and no input reaches them, a later copy finds what is emitted now,
        so the trace marks it not emitted again (the caller leaves with `trace.shared -= 1`)."""
        trace = self.trace
        if trace is None or trace.reaches(key):
            return False
        trace.shared += 1
        return True

    # ----------------------------------------------------------------- memory

    def _strides(self, op: loop.LoadOp | loop.StoreOp, access: Access) -> list[int]:
        out = []
        for a in access.affine:
            s = 0
            for v, c in a.terms:
                lanes = self.lanes(v)
                if isinstance(lanes, Varying):
                    raise LoopoptDiagnostic(f"{op.name}: a computed (gather/scatter) index has no simd form", op)
                _no_runtime_stride(lanes, op)
                s += c * _stride(lanes)
            out.append(s)
        return out

    def _contiguous_start(self, op: loop.LoadOp | loop.StoreOp, access: Access, strides: list[int]) -> SSAValue:
        """Lane 0's flat element offset of an access whose lanes are consecutive elements:
        `j` in a rank-1 buffer, `row * cols + j` in a rank-2 one (row uniform, `j` the lanes);
        `strides` is `_strides(op)`, which the caller has already asked."""
        if any(strides[:-1]):
            raise LoopoptDiagnostic(
                f"{op.name}: the row index of a rank-{len(strides)} buffer moves with the lanes "
                f"({strides[0]} rows per lane); only the last (contiguous) index may (no gather/scatter)",
                op,
            )
        if strides[-1] != 1:
            raise LoopoptDiagnostic(
                f"{op.name}: the index moves by {strides[-1]} elements per lane; only contiguous (1) or "
                "uniform (0) accesses have a simd form (no gather/scatter)",
                op,
            )
        if not is_data_type(access.buf_type.element_type):
            raise LoopoptDiagnostic(
                f"{op.name}: lane-varying accesses to {access.buf_type} have no simd form (bool buffers are bytes)", op
            )
        *rows, col = (self.index_at_lane0(a, op)[0] for a in access.affine)
        if not rows:
            return col
        (row,) = rows
        row_start = self.index_arith(arith.MuliOp, row, self.lowering.columns(access.buf), op)
        return self.index_arith(arith.AddiOp, row_start, col, op)

    def _load(self, op: loop.LoadOp) -> None:
        access = self.lowering.access(op)
        if any(isinstance(self.lanes(v), Varying) for v in access.indices):
            from loopopt.lowering.loop_to_simd.gather import emit_gather_load  # gather.py reads this module's types

            return emit_gather_load(self, op)
        strides = self._strides(op, access)
        if all(s == 0 for s in strides):
            return self._uniform_access(op)
        start = self._contiguous_start(op, access, strides)
        result = access.value
        vt = self.lowering.vector_type(result.type, op)
        buf = access.buf
        key = (buf, start, vt)
        known = self._loaded.get(key)
        if known is not None:
            self.env[result] = Varying(known)
            return
        if self.load_mask is None:
            halves, quarters = self.half_loads, self.quarter_loads
            new = self.emit(rebuild((simd.LoadOp, vt, halves, quarters), [buf, start],
                                    lambda: simd.LoadOp(buf, start, vt, halves=halves, quarters=quarters)), op)  # fmt: skip
        else:
            zero = self.lowering.splat_constant(0, vt)
            new = self.emit(simd.MaskedLoadOp(buf, start, self.load_mask, zero), op)
        value = new.results[0]
        set_hint(value, result)
        self.env[result] = Varying(value)
        self._loaded[key] = value

    def _forget(self, buf: SSAValue) -> None:
        self._loaded = {k: v for k, v in self._loaded.items() if k[0] != buf}

    def _store(self, op: loop.StoreOp) -> None:
        access = self.lowering.access(op)
        buf = access.buf
        self._forget(buf)
        strides = self._strides(op, access)
        if all(s == 0 for s in strides):
            if not isinstance(self.lanes(access.value), Uniform):
                raise LoopoptDiagnostic(f"{op.name}: a lane-varying value stored to a uniform index", op)
            if self.store_mask is not None:
                raise LoopoptDiagnostic(f"{op.name}: a store to a uniform index under a lane mask has no simd form", op)
            return self._uniform_access(op)
        start = self._contiguous_start(op, access, strides)
        value = self.vector(access.value, op)
        if self.store_mask is None and buf == self.streaming:
            self.emit(rebuild((simd.StoreOp, True), [value, buf, start],
                              lambda: simd.StoreOp(value, buf, start, aligned=True, nontemporal=True)), op)  # fmt: skip
        elif self.store_mask is None:
            self.emit(rebuild((simd.StoreOp, False), [value, buf, start], lambda: simd.StoreOp(value, buf, start)), op)
        else:
            self.emit(simd.MaskedStoreOp(value, buf, start, self.store_mask), op)

    def _uniform_access(self, op: loop.LoadOp | loop.StoreOp) -> None:
        mapper = {v: self.scalar(v, op) for v in op.operands if not isinstance(self.lanes(v), Strided)}
        mapper |= {v: _base(self.lanes(v)) for v in op.indices if isinstance(self.lanes(v), Strided)}
        new = self.emit(op.clone(value_mapper=mapper), op)
        for old, r in zip(op.results, new.results, strict=True):
            self.env[old] = Uniform(r)

    def _append(self, op: loop.AppendOp) -> None:
        self._forget(op.out)
        if self.cursor is None or self.store_mask is None:
            raise LoopoptDiagnostic(f"{op.name} outside a predicated block", op)
        if not is_data_type(op.value.type):
            raise LoopoptDiagnostic(f"{op.name} of {op.value.type} has no simd.compress_store form", op)
        value = self.vector(op.value, op)
        limit = None if self.full_compress else self._room_left(op)
        new = self.emit(simd.CompressStoreOp(value, self.store_mask, op.out, self.cursor, self.full_compress, limit), op)
        self.append_counts.append(new.results[0])

    def _room_left(self, op: loop.AppendOp) -> SSAValue:
        """`max(max(len, 0) - cursor, 0)`: what an exact compress may write at the cursor, so a
        caller's capacity below the count is never written past (the count still advances in
        full). The length is clamped first: both terms are in [0, INT64_MAX], no overflow."""
        assert self.cursor is not None
        zero = self.lowering.index_const(0)
        self.lowering.volatile += 1  # emitted for every block: the block cannot be cloned
        length = self.lowering.emit_pre(loop.DimOp(op.out, 0)).results[0]
        length = self.lowering.emit_pre(binary(arith.MaxSIOp, length, zero)).results[0]
        left = self.emit(binary(arith.SubiOp, length, self.cursor), op).results[0]
        return self.emit(binary(arith.MaxSIOp, left, zero), op).results[0]


def _lane_value(x: Lanes) -> SSAValue | None:
    """The value a lane value is built on (a Stepped one's step is defined before the loop)."""
    return x.base if isinstance(x, Strided) else x.value


def _no_runtime_stride(x: Lanes, at: Operation) -> None:
    if isinstance(x, Stepped):
        raise LoopoptDiagnostic(
            f"{at.name}: the index moves by the loop's runtime step per lane (a strided access) has no simd form", at
        )


def _base(x: Lanes) -> SSAValue:
    assert not isinstance(x, Varying)
    return x.value if isinstance(x, Uniform) else x.base


def _stride(x: Lanes) -> int:
    return x.stride if isinstance(x, Strided) else 0


def _const_int(v: SSAValue) -> int | None:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None
