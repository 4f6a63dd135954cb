"""elem0 normalization (seed 001 §2): every loop seen as j ∈ [0, n) with unit step.

A loop `%i in [lo, hi)` (or `range(lo, hi, 1)`) is `i = lo + j`, j ∈ [0, hi - lo). Index
arithmetic is compared as `IndexForm`s, Σ coeff·key + offset, where a key is an opaque SSA
value, a `loop.dim` of a buffer (two dims of one buffer are equal wherever they are), or
the elem0 variable `J`. Constants, `arith.addi`, `arith.subi` and multiplication by a
constant are looked through, so `[%c1, %n + 1)` and `[%c0, %n)` have the same trip count
and `tmp[%i - 1]` in the first is `tmp[j]`, as is `tmp[%i]` in the second.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from loopopt.dialects import loop


@dataclass(frozen=True)
class _Elem0Var:
    def __repr__(self) -> str:
        return "j"


J = _Elem0Var()
"""The elem0 variable j ∈ [0, n)."""

Key = SSAValue | tuple[str, SSAValue, int] | _Elem0Var


@dataclass(frozen=True)
class IndexForm:
    """Σ coeff·key + offset with zero coefficients dropped (so `==` is affine equality)."""

    terms: frozenset[tuple[Key, int]] = frozenset()
    offset: int = 0

    @staticmethod
    def of(coeffs: dict[Key, int], offset: int = 0) -> IndexForm:
        return IndexForm(frozenset((k, c) for k, c in coeffs.items() if c != 0), offset)

    @property
    def coeffs(self) -> dict[Key, int]:
        return dict(self.terms)

    def __add__(self, other: IndexForm) -> IndexForm:
        merged = self.coeffs
        for k, c in other.terms:
            merged[k] = merged.get(k, 0) + c
        return IndexForm.of(merged, self.offset + other.offset)

    def scale(self, k: int) -> IndexForm:
        return IndexForm.of({key: c * k for key, c in self.terms}, self.offset * k)

    def __sub__(self, other: IndexForm) -> IndexForm:
        return self + other.scale(-1)

    def coeff(self, key: Key) -> int:
        return self.coeffs.get(key, 0)

    @property
    def constant(self) -> int | None:
        """The value when there are no terms."""
        return None if self.terms else self.offset


def _int_constant(op: Operation | None) -> int | None:
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def index_form(value: SSAValue) -> IndexForm:
    """`value` as an affine form, looking through constants, add, sub, mul-by-constant, dim."""
    op = value.owner if isinstance(value.owner, Operation) else None
    if (c := _int_constant(op)) is not None:
        return IndexForm.of({}, c)
    if isinstance(op, arith.AddiOp):
        return index_form(op.lhs) + index_form(op.rhs)
    if isinstance(op, arith.SubiOp):
        return index_form(op.lhs) - index_form(op.rhs)
    if isinstance(op, arith.MuliOp):
        lhs, rhs = index_form(op.lhs), index_form(op.rhs)
        if lhs.constant is not None:
            return rhs.scale(lhs.constant)
        if rhs.constant is not None:
            return lhs.scale(rhs.constant)
    if isinstance(op, loop.DimOp):
        return IndexForm(frozenset({(("dim", op.buf, op.dim.value.data), 1)}))
    return IndexForm(frozenset({(value, 1)}))


@dataclass(frozen=True)
class Elem0Domain:
    """A loop's domain in elem0 space: its variable is `lo + j` for j ∈ [0, n)."""

    lo: IndexForm
    n: IndexForm


def elem0_domain(op: loop.LoopLike) -> Elem0Domain | None:
    """The elem0 domain of an interval or unit-step range_desc loop; None for other steps."""
    step = op.step
    if step is not None and index_form(step).constant != 1:
        return None
    lo = index_form(op.lower)
    return Elem0Domain(lo, index_form(op.upper) - lo)


def substitute_var(form: IndexForm, var: SSAValue, lo: IndexForm) -> IndexForm:
    """`form` with the loop variable replaced by `J + lo`."""
    c = form.coeff(var)
    if c == 0:
        return form
    rest = IndexForm.of({k: v for k, v in form.terms if k is not var}, form.offset)
    return rest + IndexForm.of({J: c}) + lo.scale(c)


def access_forms(access: loop.LoadOp | loop.StoreOp) -> tuple[IndexForm, ...]:
    """One form per dimension of a load/store (its index operands looked through)."""
    out: list[IndexForm] = []
    for a in access.affine_indices:
        form = IndexForm.of({}, a.offset)
        for v, c in a.terms:
            form = form + index_form(v).scale(c)
        out.append(form)
    return tuple(out)


def access_elem0(access: loop.LoadOp | loop.StoreOp, var: SSAValue, lo: IndexForm) -> tuple[IndexForm, ...]:
    """One elem0 form per dimension of a load/store in a loop with variable `var`."""
    return tuple(substitute_var(f, var, lo) for f in access_forms(access))


def is_injective(forms: tuple[IndexForm, ...]) -> bool:
    """Distinct iterations touch distinct elements: some dimension moves with j."""
    return any(f.coeff(J) != 0 for f in forms)
