"""Widening sums: an i32/i64 sum of i8/i16 lanes (or of 0/1 compares) at the narrow lane count.

```
%s = loop.vecloop %i in [%c0, %n) accs(%acc = %zero : i64 add) {
  %e = loop.load %x[%i] : !loop.buf<i8>
  %w = arith.extui %e : i8 to i64        // or extsi; or extui of a compare of i8 lanes (a count)
  %t = arith.addi %acc, %w : i64
  loop.yield %t : i64
}
```
A loop whose data is all of one narrow width apart from such accumulators runs at that width's
lane count (32 on AVX2) instead of the accumulator's (4): the accumulator is a register of
i64 lanes (`vector<4xi64>`) stepped by `simd.widen_add %acc, %e` (`_mm256_sad_epu8`, NEON's
`vpadal`), which adds every narrow lane into one of its lanes; the horizontal epilogue is the
ordinary `simd.hreduce <add>` of that register. A 0/1 count (`extui` of an i1) adds
`select(mask, 1, 0)` in the narrow lanes; a masked tail adds 0 on its inactive lanes. Integer
sums wrap, so any grouping of the lanes gives the scalar loop's answer bit for bit.

Why not the widest type's lane count, as other mixes do (loop_to_simd/width.py): an i8 vector
would then fill an eighth of a register and the loop would read 4 bytes per step instead of 32.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, VectorType
from xdsl.ir import Operation, SSAValue

from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccKind

NARROW_BITS = (8, 16)


@dataclass(frozen=True)
class WideningSum:
    """Accumulator `index` steps as `acc + ext(source)`, `source` narrow (or i1)."""

    index: int
    ext: arith.ExtUIOp | arith.ExtSIOp
    combine: arith.AddiOp
    source: SSAValue
    signed: bool

    @property
    def values(self) -> tuple[SSAValue, ...]:
        """The wide values of the step (they never become `vector<W x i64>`)."""
        return (self.ext.result, self.combine.result)


def _int_bits(t) -> int | None:  # noqa: ANN001
    return t.width.data if isinstance(t, IntegerType) else None


def widening_sums(op: loop.VecLoopOp | loop.PredLoopOp) -> list[WideningSum]:
    """The accumulators of `op` of the widening-sum shape (only in vecloops: a predloop keeps
    its accumulators at the loop's lane count)."""
    if not isinstance(op, loop.VecLoopOp):
        return []
    out = []
    for j, acc in enumerate(op.accumulators):
        if acc.kind != AccKind.ADD or _int_bits(acc.arg.type) not in (32, 64):
            continue
        uses = list(acc.arg.uses)
        if len(uses) != 1 or not isinstance(combine := uses[0].operation, arith.AddiOp):
            continue
        if acc.next is not combine.result or len(list(combine.result.uses)) != 1:
            continue
        x = combine.rhs if combine.lhs is acc.arg else combine.lhs
        ext = x.owner
        if not isinstance(ext, arith.ExtUIOp | arith.ExtSIOp) or len(list(x.uses)) != 1:
            continue
        if _int_bits(ext.input.type) not in (1, *NARROW_BITS):
            continue
        out.append(WideningSum(j, ext, combine, ext.input, isinstance(ext, arith.ExtSIOp)))
    return out


def accumulator_type(acc_type: IntegerType, vector_bits: int) -> VectorType:
    """A register of the accumulator's lanes: `vector<4xi64>` on AVX2."""
    return VectorType(acc_type, [vector_bits // acc_type.width.data])


def widened_values(sums: list[WideningSum], op: Operation) -> set[SSAValue]:
    """Values a lane count need not fit: the wide values of the steps, their accumulators and inits."""
    assert isinstance(op, loop.VecLoopOp)
    out: set[SSAValue] = set()
    for s in sums:
        acc = op.accumulators[s.index]
        out |= {acc.arg, acc.init, *s.values}
    return out
