"""What a df value becomes during convert-df-to-loop: buffers, range descriptors, field groups.

A df array is not one SSA value in Loop IR: it is a buffer plus the extent of each of its
axes (a filter's result has its count as extent, not its buffer's capacity), a range
descriptor that never gets allocated, or — for an array of records — one such array per
field (struct of arrays). Tuples and records of scalars are compile-time groups of SSA
values. The lowering keeps one `Lowered` per df value; patterns read their operands
through it, the way MLIR conversion patterns read their adaptor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from loopopt.dialects.df_types import RecordType
from loopopt.dialects.loop_affine import Affine


@dataclass(frozen=True)
class BufArray:
    """A df array held in a buffer: `buf[pos]` for pos within `extents`."""

    buf: SSAValue
    axes: tuple[str, ...]
    extents: tuple[SSAValue, ...]
    """One `index` per axis: the number of valid elements (a filter's count, not the capacity)."""


@dataclass(frozen=True)
class RangeArray:
    """A `df.range start..end by step`: no storage; element k is start + k*step.

    Loops walk its positions k in [0, count) and compute the element in i64 arithmetic
    (which wraps, so start + k*step is exact for every element even when k*step alone is
    not an i64)."""

    start: SSAValue
    step: SSAValue
    """The df.range's i64 operands."""
    step_const: int | None
    start_const: int | None
    count: SSAValue
    """The number of elements the kernel iterates (`index`): the range's length when every
    buffer on its axis can hold it (the `fits` guard), else 0."""
    required: SSAValue
    """The range's length (`index`, exact, saturated at INT64_MAX), guard or not."""
    axis: str

    @property
    def axes(self) -> tuple[str, ...]:
        return (self.axis,)

    @property
    def extents(self) -> tuple[SSAValue, ...]:
        return (self.count,)


@dataclass(frozen=True)
class GatherArray:
    """A `df.gather` read where its one consumer reads it (fused into a full reduction,
    df_to_loop/gather.py): element i is source[idx[i]] when idx[i] <u bound, else 0. Positions
    from `readable` on (all of them when the source is empty) read nothing: with `zeroed`
    every element is 0, the bounds check's answer there."""

    source: BufArray
    indices: Lowered
    bound: SSAValue
    """len(source) in the index type, compared unsigned (a negative index is huge)."""
    readable: SSAValue
    """How many leading positions may load from source (`index`): the count, or 0 when empty."""
    zeroed: bool = False

    @property
    def axes(self) -> tuple[str, ...]:
        return self.indices.axes  # type: ignore[union-attr]

    @property
    def extents(self) -> tuple[SSAValue, ...]:
        return self.indices.extents  # type: ignore[union-attr]


@dataclass(frozen=True)
class RecordArray:
    """An array of records as struct of arrays: one lowered array per field, in field order."""

    record: RecordType
    fields: tuple[Lowered, ...]

    @property
    def axes(self) -> tuple[str, ...]:
        return self.fields[0].axes  # type: ignore[union-attr]

    @property
    def extents(self) -> tuple[SSAValue, ...]:
        return self.fields[0].extents  # type: ignore[union-attr]

    def field(self, name: str) -> Lowered:
        return self.fields[[n for n, _ in self.record.fields].index(name)]


@dataclass(frozen=True)
class RecordValue:
    """One record: its field scalars, in field order."""

    record: RecordType
    fields: tuple[SSAValue, ...]

    def field(self, name: str) -> SSAValue:
        return self.fields[[n for n, _ in self.record.fields].index(name)]


@dataclass(frozen=True)
class TupleValue:
    """A df tuple: resolved at compile time, never materialized."""

    items: tuple[Lowered, ...]


Lowered = SSAValue | BufArray | RangeArray | GatherArray | RecordArray | RecordValue | TupleValue
"""Everything a df value can lower to (a scalar stays its SSA value)."""

ArrayLike = BufArray | RangeArray | GatherArray | RecordArray


def is_array(v: Lowered) -> bool:
    return isinstance(v, BufArray | RangeArray | GatherArray | RecordArray)


def buffers_of(v: Lowered) -> list[BufArray]:
    """The buffers behind a lowered array (several for an array of records)."""
    if isinstance(v, BufArray):
        return [v]
    if isinstance(v, RecordArray):
        return [b for f in v.fields for b in buffers_of(f)]
    return []


def scalars_of(v: Lowered) -> list[SSAValue]:
    """The SSA scalars of a lowered scalar value (flattened records and tuples)."""
    if isinstance(v, SSAValue):
        return [v]
    if isinstance(v, RecordValue):
        return list(v.fields)
    if isinstance(v, TupleValue):
        return [s for item in v.items for s in scalars_of(item)]
    raise TypeError(f"not a scalar value: {v}")


@dataclass(frozen=True)
class Point:
    """One iteration of a loop nest: the 0-based position along each axis (an affine index)."""

    positions: dict[str, Affine]
    """Axis name (as the df op's types spell it) -> position."""

    def at(self, axes: Sequence[str]) -> list[Affine]:
        return [self.positions[a] for a in axes]
