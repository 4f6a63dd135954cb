"""The trip count of `range(start, end, step)` as `index` arithmetic that never overflows.

Shared by convert-df-to-loop (a df.range's extent) and convert-loop-to-simd (a vector
loop's block boundaries). The count is Python's `len(range(start, end, step))` for any i64
start, end and step, saturated at INT64_MAX (only a range of more than 2**63 - 1 elements
reaches it: one that could never run to its end), and 0 for step 0 (no hang).

Every op emitted is signed `arith` on operands for which it cannot overflow (no reliance on
wrap-around, no unsigned division), so the C printer and the interpreter agree on it:

* the range is empty unless lo < hi (lo, hi = start, end for step > 0, end, start for step
  < 0); otherwise the bounds are replaced by 0, 1 before any arithmetic on them;
* hi - lo - 1 (up to 2**64 - 2) is held as a + b with a, b in [0, INT64_MAX]: when lo < 0
  <= hi, a = hi and b = -1 - lo (= ~lo), else a = hi - lo - 1 and b = 0;
* (a + b) / t = a/t + b/t + carry, carry = 1 when (a%t - t) + rb >= 0, for t = |step| in
  [1, INT64_MAX]; step INT64_MIN has 1 or 2 elements: 1 + (a + b >= 2**63);
* count = (a + b) / t + 1, sums saturating (x + min(y, INT64_MAX - x) for x, y >= 0).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def constant_of(v: SSAValue) -> int | None:
    """The value of an integer `arith.constant` (any integer type or index), else None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass
class IndexMath:
    """Emits `index` arithmetic through `emit` (which inserts an op and returns it), folding
    operations on constants so that constant bounds give short code."""

    emit: Callable[[Operation], Operation]
    const: Callable[[int], SSAValue]
    """An `index` constant."""
    _known: dict[SSAValue, int] = field(default_factory=dict)

    def c(self, n: int) -> SSAValue:
        v = self.const(n)
        self._known[v] = n
        return v

    def value(self, v: SSAValue) -> int | None:
        return self._known.get(v, constant_of(v))

    def _op(self, op: Operation) -> SSAValue:
        return self.emit(op).results[0]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(x + y)
        if y == 0:
            return a
        if x == 0:
            return b
        return self._op(arith.AddiOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(x - y)
        if y == 0:
            return a
        return self._op(arith.SubiOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """Truncating division, for a >= 0 and b > 0 (no overflow, no division by zero)."""
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(x // y)
        if y == 1:
            return a
        return self._op(arith.DivSIOp(a, b))

    def rem(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """Remainder, for a >= 0 and b > 0."""
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(x % y)
        if y == 1:
            return self.c(0)
        return self._op(arith.RemSIOp(a, b))

    def min(self, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(min(x, y))
        return self._op(arith.MinSIOp(a, b))

    def max(self, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return self.c(max(x, y))
        return self._op(arith.MaxSIOp(a, b))

    def cmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue | bool:
        x, y = self.value(a), self.value(b)
        if x is not None and y is not None:
            return {"slt": x < y, "sle": x <= y, "sgt": x > y, "sge": x >= y, "eq": x == y, "ne": x != y}[pred]
        return self._op(arith.CmpiOp(a, b, pred))

    def both(self, p: SSAValue | bool, q: SSAValue | bool) -> SSAValue | bool:
        if isinstance(p, bool):
            return q if p else False
        if isinstance(q, bool):
            return p if q else False
        return self._op(arith.AndIOp(p, q))

    def select(self, p: SSAValue | bool, a: SSAValue, b: SSAValue) -> SSAValue:
        if isinstance(p, bool):
            return a if p else b
        if a is b:
            return a
        return self._op(arith.SelectOp(p, a, b))

    def sat_add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a + b for a, b >= 0, saturated at INT64_MAX."""
        if self.value(b) == 0:
            return a
        if self.value(a) == 0:
            return b
        return self.add(a, self.min(b, self.sub(self.c(INT64_MAX), a)))


def trip_count(m: IndexMath, start: SSAValue, end: SSAValue, step: SSAValue | int) -> SSAValue:
    """`len(range(start, end, step))` (`index` operands), saturated at INT64_MAX; 0 for step 0.
    A step known at compile time may be given as an int: no constant is built for it unless
    the count reads it (a unit step from 0 does not: `max(end, 0)`)."""
    s = step if isinstance(step, int) else m.value(step)
    if s is not None:
        if s == 0:
            return m.c(0)
        lo, hi = (start, end) if s > 0 else (end, start)
        if s == 1 and m.value(start) == 0:
            return m.max(end, m.c(0))
        nonempty = m.cmp("slt", lo, hi)
        a, b, split = _distance(m, nonempty, lo, hi)
        if s == INT64_MIN:
            n = _count_min_step(m, a, b)
        else:
            n = _count(m, a, b, m.c(abs(s)), split)
        return m.select(nonempty, n, m.c(0))
    positive = m.cmp("sgt", step, m.c(0))
    lo, hi = m.select(positive, start, end), m.select(positive, end, start)
    nonempty = m.both(m.cmp("slt", lo, hi), m.cmp("ne", step, m.c(0)))
    a, b, split = _distance(m, nonempty, lo, hi)
    # |step| in [1, INT64_MAX] (INT64_MIN, 0 and positive steps leave the negation alone)
    is_min = m.cmp("eq", step, m.c(INT64_MIN))
    negative = m.select(m.both(m.cmp("slt", step, m.c(0)), m.cmp("ne", step, m.c(INT64_MIN))), step, m.c(-1))
    magnitude = m.select(positive, step, m.sub(m.c(0), negative))
    n = m.select(is_min, _count_min_step(m, a, b), _count(m, a, b, magnitude, split))
    return m.select(nonempty, n, m.c(0))


def _distance(
    m: IndexMath, nonempty: SSAValue | bool, lo: SSAValue, hi: SSAValue
) -> tuple[SSAValue, SSAValue, SSAValue | bool]:
    """(a, b, split) with a + b = hi - lo - 1 and a, b in [0, INT64_MAX] when lo < hi (both
    0 otherwise); split says whether b is used (lo < 0 <= hi)."""
    lo = m.select(nonempty, lo, m.c(0))
    hi = m.select(nonempty, hi, m.c(1))
    split = m.both(m.cmp("slt", lo, m.c(0)), m.cmp("sge", hi, m.c(0)))
    base = m.select(split, m.c(0), lo)
    one = m.select(split, m.c(0), m.c(1))
    a = m.sub(m.sub(hi, base), one)
    b = m.select(split, m.sub(m.c(-1), lo), m.c(0))
    return a, b, split


def _count(m: IndexMath, a: SSAValue, b: SSAValue, t: SSAValue, split: SSAValue | bool) -> SSAValue:
    """(a + b) / t + 1 for a, b in [0, INT64_MAX], t in [1, INT64_MAX], saturated."""
    if split is False:  # b == 0 and a <= INT64_MAX - 1
        return m.add(m.div(a, t), m.c(1))
    qa, ra = m.div(a, t), m.rem(a, t)
    qb, rb = m.div(b, t), m.rem(b, t)
    carry = m.select(m.cmp("sge", m.add(m.sub(ra, t), rb), m.c(0)), m.c(1), m.c(0))
    k = m.value(t)
    if k is not None and k >= 2:  # (a + b) / t <= (2**64 - 2) / 2 <= INT64_MAX: only + 1 may saturate (t = 2)
        q = m.add(m.add(qa, qb), carry)
        return m.sat_add(q, m.c(1)) if k == 2 else m.add(q, m.c(1))
    return m.sat_add(m.sat_add(m.sat_add(qa, qb), carry), m.c(1))


def _count_min_step(m: IndexMath, a: SSAValue, b: SSAValue) -> SSAValue:
    """Elements of a range with step INT64_MIN: 1 + ((a + b) >= 2**63)."""
    over = m.cmp("sgt", a, m.sub(m.c(INT64_MAX), b))
    return m.select(over, m.c(2), m.c(1))
