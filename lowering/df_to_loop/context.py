"""The state one kernel's lowering shares between patterns (MLIR's conversion adaptor).

`KernelLowering` maps each df value to its `Lowered` form, hands out destinations for
array results (a kernel output buffer when the value is returned, a `loop.alloc`'d buffer
otherwise), caches index constants and buffer extents at the kernel's entry, and records
which axes are a filter's new axis (whose outputs carry a capacity), and the ranges whose
length the kernel computes (their guarded and required extents).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.df_types import ArrayType, RecordType
from loopopt.lowering.df_to_loop.values import BufArray, Lowered, RecordArray


def check_buffer_rank(t: ArrayType, at: Operation) -> None:
    """Buffers have rank 1 or 2: a rank-3 df array exists only inside a reduction it fuses into."""
    if t.rank > 2:
        raise LoopoptDiagnostic(
            f"{t} needs a rank-{t.rank} buffer: rank-3 arrays are only supported fused into a df.reduce "
            "over one of their axes (a broadcasting map then its reduction, e.g. a matrix product)",
            at,
        )


@dataclass(frozen=True)
class RangeExtent:
    """What the kernel computes for a df.range's axis."""

    count: SSAValue
    """The guarded length loops use (0 when a buffer on the axis is too small)."""
    required: SSAValue
    """The range's length, returned to the caller as the computed extent."""
    step: SSAValue
    """The step (the lowered df operand)."""


@dataclass
class KernelLowering:
    """Lowering state of one func.func kernel."""

    func: FuncOp
    env: dict[SSAValue, Lowered] = field(default_factory=dict)
    """df value -> what it became."""
    destinations: dict[SSAValue, Lowered] = field(default_factory=dict)
    """Array results that must be written into a given (kernel output) buffer."""
    allocs: list[SSAValue] = field(default_factory=list)
    """Buffers from loop.alloc, freed before the kernel returns."""
    capacity_axis: dict[str, str] = field(default_factory=dict)
    """A filter's new axis -> the axis whose extent bounds its length."""
    axis_extent: dict[str, SSAValue] = field(default_factory=dict)
    """Extent of each axis known at the kernel's entry (kernel input buffers, guarded)."""
    axis_source: dict[str, SSAValue] = field(default_factory=dict)
    """Input axis -> the first input buffer on it (whose length its extent is when it fits)."""
    count_capacity: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """A filter's count -> the length that bounds it (its input's length, or that length's own bound)."""
    arg_attrs: dict[SSAValue, dict[str, Attribute]] = field(default_factory=dict)
    """ABI argument attributes of each new kernel argument."""
    out_params: list = field(default_factory=list)
    """The out buffer arguments (`OutParam`s), in order."""
    results: list[SSAValue] = field(default_factory=list)
    """The new kernel's results (scalars, filter counts, computed extents), once the return is converted."""
    ranges: dict[str, RangeExtent] = field(default_factory=dict)
    """Axis -> the first df.range walking it (its extents and step)."""
    extent_axis: dict[SSAValue, str] = field(default_factory=dict)
    """A range's guarded length -> its axis (a filter of the range has that capacity axis)."""
    computed: dict[str, int] = field(default_factory=dict)
    """`loop.extents`: computed axis -> position of the result returning its extent."""
    steps: dict[str, SSAValue] = field(default_factory=dict)
    """`loop.steps`: computed axis -> the scalar kernel argument that is its range's step."""
    _entry_anchor: Operation | None = None
    _index_consts: dict[int, SSAValue] = field(default_factory=dict)

    @property
    def block(self) -> Block:
        return self.func.body.block

    # ------------------------------------------------------------------ values

    def get(self, value: SSAValue, user: Operation) -> Lowered:
        """The lowered form of an operand (scalars defined outside df map to themselves)."""
        if value in self.env:
            return self.env[value]
        t = value.type
        if isinstance(t, ArrayType) or isinstance(t, RecordType):
            raise LoopoptDiagnostic(
                f"{user.name}: operand of type {t} was not lowered (its producer has no lowering)", user
            )
        return value

    def bind(self, value: SSAValue, lowered: Lowered) -> None:
        self.env[value] = lowered

    # ------------------------------------------------------------------ entry values

    def entry_insert(self, op: Operation) -> Operation:
        """Insert `op` at the kernel's entry, after earlier entry values."""
        point = (
            InsertPoint.at_start(self.block)
            if self._entry_anchor is None
            else InsertPoint.after(self._entry_anchor)
        )
        Builder(point).insert(op)
        self._entry_anchor = op
        return op

    def index(self, n: int) -> SSAValue:
        """An `index` constant, created once at the kernel's entry."""
        if n not in self._index_consts:
            op = self.entry_insert(arith.ConstantOp(IntegerAttr(n, IndexType())))
            op.results[0].name_hint = f"c{n}" if n >= 0 else f"cm{-n}"
            self._index_consts[n] = op.results[0]
        return self._index_consts[n]

    def dim(self, buf: SSAValue, d: int, name: str | None = None) -> SSAValue:
        """`loop.dim buf, d` at the kernel's entry (buf must be a kernel argument)."""
        op = self.entry_insert(loop.DimOp(buf, d))
        if name:
            op.results[0].name_hint = name
        return op.results[0]

    # ------------------------------------------------------------------ filter counts

    def note_count(self, count: SSAValue, capacity: SSAValue) -> None:
        self.count_capacity[count] = capacity

    def root_capacity(self, extent: SSAValue) -> SSAValue:
        """A length known before any filter ran that bounds `extent` (itself if not a count)."""
        while extent in self.count_capacity:
            extent = self.count_capacity[extent]
        return extent

    # ------------------------------------------------------------------ destinations

    def destination(
        self, builder: Builder, result: SSAValue, extents: Sequence[SSAValue], capacity: Sequence[SSAValue] | None = None
    ) -> Lowered:
        """Where to write array `result`: its kernel output buffer(s), or fresh loop.alloc'd ones.

        `extents` are the valid lengths per axis; `capacity` (default: extents) the lengths
        to allocate — a filter knows only its input's length before it runs.
        """
        t = result.type
        assert isinstance(t, ArrayType)
        if result in self.destinations:
            dest = self._complete(builder, t, self.destinations[result], extents, capacity, result.name_hint)
            return with_extents(dest, tuple(extents))
        return self.allocate(builder, t, extents, capacity, result.name_hint)

    def _complete(
        self, builder: Builder, t: ArrayType, dest: Lowered | None, extents, capacity, hint: str | None
    ) -> Lowered:
        """A preassigned destination with buffers allocated for the fields nobody returns."""
        if dest is None:
            return self.allocate(builder, t, extents, capacity, hint)
        if isinstance(dest, RecordArray):
            return RecordArray(
                dest.record,
                tuple(
                    self._complete(builder, t.with_element(ft), f, extents, capacity, f"{hint}_{n}" if hint else None)
                    for (n, ft), f in zip(dest.record.fields, dest.fields, strict=True)
                ),
            )
        return dest

    def allocate(
        self,
        builder: Builder,
        t: ArrayType,
        extents: Sequence[SSAValue],
        capacity: Sequence[SSAValue] | None = None,
        hint: str | None = None,
    ) -> Lowered:
        sizes = list(capacity if capacity is not None else extents)
        elem = t.element_type
        if isinstance(elem, RecordType):
            return RecordArray(
                elem,
                tuple(
                    self.allocate(builder, t.with_element(ft), extents, sizes, f"{hint}_{n}" if hint else None)
                    for n, ft in elem.fields
                ),
            )
        check_buffer_rank(t, self.func)
        op = builder.insert(loop.AllocOp(sizes, loop.BufType(elem, t.rank)))
        if hint:
            op.result.name_hint = hint
        self.allocs.append(op.result)
        return BufArray(op.result, t.axis_names, tuple(extents))


def with_extents(dest: Lowered, extents: tuple[SSAValue, ...]) -> Lowered:
    """A preassigned destination, with the extents the producer computed."""
    if isinstance(dest, BufArray):
        return BufArray(dest.buf, dest.axes, extents)
    assert isinstance(dest, RecordArray)
    return RecordArray(dest.record, tuple(with_extents(f, extents) for f in dest.fields))

