"""Affine buffer indices: Σ coeff·var + offset per dimension (seed 003 `Affine`).

An access op (`loop.load`, `loop.store`) keeps its indices as index operands plus three
DenseArray properties, so that the generic form stays plain MLIR:

* `dim_terms[d]` — how many index operands dimension d uses (they come in dimension order),
* `coeffs[k]`    — the coefficient of index operand k,
* `offsets[d]`   — the constant offset of dimension d.

`%b[2 * %i + 1, %j]` is operands (%i, %j), dim_terms [1, 1], coeffs [2, 1], offsets [1, 0].
Passes read an access as a list of `Affine` (one per dimension); `Affine.normalized()`
merges repeated variables and drops zero coefficients, which is what loop fusion (seed 001
elem0) and the vectorizer compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class Affine:
    """One dimension of an index: Σ coeff·var + offset over SSA `index` values."""

    terms: tuple[tuple[SSAValue, int], ...] = ()
    offset: int = 0

    @staticmethod
    def var(v: SSAValue, coeff: int = 1) -> Affine:
        return Affine(((v, coeff),), 0)

    @staticmethod
    def const(c: int) -> Affine:
        return Affine((), c)

    def __add__(self, other: Affine | int) -> Affine:
        if isinstance(other, int):
            return Affine(self.terms, self.offset + other)
        return Affine(self.terms + other.terms, self.offset + other.offset)

    def __mul__(self, k: int) -> Affine:
        return Affine(tuple((v, c * k) for v, c in self.terms), self.offset * k)

    __rmul__ = __mul__

    def normalized(self) -> tuple[dict[SSAValue, int], int]:
        """`({var: coeff}, offset)` with repeated vars merged and zero coefficients dropped."""
        coeffs: dict[SSAValue, int] = {}
        for v, c in self.terms:
            coeffs[v] = coeffs.get(v, 0) + c
        return {v: c for v, c in coeffs.items() if c != 0}, self.offset

    def coeff(self, v: SSAValue) -> int:
        """The coefficient of `v` (0 when absent)."""
        return self.normalized()[0].get(v, 0)

    @property
    def vars(self) -> tuple[SSAValue, ...]:
        return tuple(self.normalized()[0])

    def substitute(self, v: SSAValue, by: Affine) -> Affine:
        """This expression with `v` replaced by `by` (e.g. i := tile * T + lane)."""
        out = Affine((), self.offset)
        for w, c in self.terms:
            out = out + (by * c if w is v else Affine.var(w, c))
        return out

    def evaluate(self, env: Mapping[SSAValue, int]) -> int:
        return sum(c * env[v] for v, c in self.terms) + self.offset

    def same_as(self, other: Affine) -> bool:
        """Equal as affine functions of the same SSA variables."""
        return self.normalized() == other.normalized()


def encode(indices: Sequence[Affine]) -> tuple[list[SSAValue], DenseArrayBase, DenseArrayBase, DenseArrayBase]:
    """Operands and (dim_terms, coeffs, offsets) properties of an access."""
    operands = [v for a in indices for v, _ in a.terms]
    dim_terms = i64_array(tuple(len(a.terms) for a in indices))
    coeffs = i64_array(tuple(c for a in indices for _, c in a.terms))
    offsets = i64_array(tuple(a.offset for a in indices))
    return operands, dim_terms, coeffs, offsets


_I64_ARRAYS: dict[tuple[int, ...], DenseArrayBase] = {}
"""i64_array's attributes per value tuple (few distinct ones: coefficients 1, offsets 0, ...)."""


def i64_array(values: tuple[int, ...]) -> DenseArrayBase:
    """`DenseArrayBase.from_list(i64, values)`, one attribute object per distinct tuple: building
    one (normalizing, packing, verifying) cost ~25 µs, three per load or store built, and an
    attribute is an immutable value (equal either way; a shared object also hits `_values_of`'s
    identity cache). A tuple from_list rejects raises every time (nothing is remembered)."""
    found = _I64_ARRAYS.get(values)
    if found is None:
        if len(_I64_ARRAYS) > 4096:
            _I64_ARRAYS.clear()  # generated code with ever new offsets would keep growing it
        found = _I64_ARRAYS[values] = DenseArrayBase.from_list(i64, values)
    return found


@lru_cache(maxsize=1024)
def _values(
    dim_terms: DenseArrayBase, coeffs: DenseArrayBase, offsets: DenseArrayBase
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The three properties unpacked, once per distinct triple: `affine_indices` is read for
    every access by every pass, and unpacking the dense arrays dominated it (the properties are
    immutable attributes, so the cache cannot go stale)."""
    return (tuple(int(v) for v in dim_terms.get_values()), tuple(int(v) for v in coeffs.get_values()),
            tuple(int(v) for v in offsets.get_values()))  # fmt: skip


_BY_IDENTITY: dict[tuple[int, int, int], tuple[object, object, object, tuple[tuple[int, ...], ...]]] = {}
"""_values per property objects (by id, holding them so that no id is reused while cached):
an op's accesses are decoded many times, and hashing three dense arrays for the LRU key
cost 15 % of convert-loop-to-simd (docs/compile_time.md)."""


def _values_of(
    dim_terms: DenseArrayBase, coeffs: DenseArrayBase, offsets: DenseArrayBase
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    key = (id(dim_terms), id(coeffs), id(offsets))
    hit = _BY_IDENTITY.get(key)
    if hit is not None:
        return hit[3]  # type: ignore[return-value]
    if len(_BY_IDENTITY) >= 4096:
        _BY_IDENTITY.clear()
    values = _values(dim_terms, coeffs, offsets)
    _BY_IDENTITY[key] = (dim_terms, coeffs, offsets, values)
    return values


def decode(
    operands: Sequence[SSAValue], dim_terms: DenseArrayBase, coeffs: DenseArrayBase, offsets: DenseArrayBase
) -> list[Affine]:
    """The per-dimension `Affine`s of an access (after `verify_encoding`)."""
    counts, cs, offs = _values_of(dim_terms, coeffs, offsets)
    out: list[Affine] = []
    k = 0
    for n, off in zip(counts, offs, strict=True):
        out.append(Affine(tuple((operands[k + t], int(cs[k + t])) for t in range(n)), int(off)))
        k += n
    return out


def verify_encoding(
    rank: int, num_operands: int, dim_terms: DenseArrayBase, coeffs: DenseArrayBase, offsets: DenseArrayBase
) -> None:
    """The properties describe `rank` dimensions over exactly the given index operands."""
    counts = dim_terms.get_values()
    if len(counts) != rank:
        raise VerifyException(f"access has {len(counts)} indices, buffer rank is {rank}")
    if len(offsets.get_values()) != rank:
        raise VerifyException(f"access has {len(offsets.get_values())} offsets, expected {rank} (one per dimension)")
    if any(n < 0 for n in counts) or sum(counts) != num_operands:
        raise VerifyException(f"dim_terms {list(counts)} must sum to the {num_operands} index operands")
    if len(coeffs.get_values()) != num_operands:
        raise VerifyException(
            f"access has {len(coeffs.get_values())} coefficients, expected {num_operands} (one per index operand)"
        )


# --------------------------------------------------------------------------- syntax
#   index ::= ['-'] term (('+' | '-') term)*      term ::= INT ['*' SSA] | SSA


def _parse_term(parser: Parser, sign: int) -> tuple[UnresolvedOperand | None, int]:
    n = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    if n is None:
        return parser.parse_unresolved_operand("expected an index: integer, %value or integer * %value"), sign
    if parser.parse_optional_punctuation("*") is not None:
        return parser.parse_unresolved_operand(), sign * n
    return None, sign * n


def parse_unresolved_index(parser: Parser) -> tuple[list[tuple[UnresolvedOperand, int]], int]:
    """One dimension: its (operand, coefficient) terms in source order and its offset."""
    terms: list[tuple[UnresolvedOperand, int]] = []
    offset = 0
    sign = -1 if parser.parse_optional_punctuation("-") is not None else 1
    while True:
        operand, value = _parse_term(parser, sign)
        if operand is None:
            offset += value
        else:
            terms.append((operand, value))
        if parser.parse_optional_punctuation("+") is not None:
            sign = 1
        elif parser.parse_optional_punctuation("-") is not None:
            sign = -1
        else:
            return terms, offset


def parse_indices(parser: Parser) -> list[tuple[list[tuple[UnresolvedOperand, int]], int]]:
    """`[index, index, ...]`."""
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_unresolved_index(parser))


def resolve_indices(parser: Parser, parsed: Iterable[tuple[list[tuple[UnresolvedOperand, int]], int]]) -> list[Affine]:
    from xdsl.dialects.builtin import IndexType

    index = IndexType()
    return [
        Affine(tuple((parser.resolve_operand(o, index), c) for o, c in terms), offset) for terms, offset in parsed
    ]


def print_index(printer: Printer, a: Affine) -> None:
    """`2 * %i + 1`, `%i - %j`, `-1 * %i + 7`, `3`."""
    first = True
    for v, c in a.terms:
        if first:
            if c != 1:
                printer.print_string(f"{c} * ")
        else:
            printer.print_string(" + " if c >= 0 else " - ")
            if abs(c) != 1:
                printer.print_string(f"{abs(c)} * ")
        printer.print_ssa_value(v)
        first = False
    if first:
        printer.print_string(str(a.offset))
    elif a.offset:
        printer.print_string(f" + {a.offset}" if a.offset > 0 else f" - {-a.offset}")


def print_indices(printer: Printer, indices: Sequence[Affine]) -> None:
    with printer.in_square_brackets():
        printer.print_list(indices, lambda a: print_index(printer, a))
