"""Printing `arith` and `math` ops: operator keys (c_ops), conversions, constants and comparisons.

The same op prints through the scalar table on scalars and through the ISA's table on vectors
(`FunctionCore._row` picks the table). Two spellings depend on the operands, not the op: an
`xori` with all-true is a `not`, and a division by a constant other than 0 and -1 is C's own
operator (it cannot trap), the `<key>_const` rows.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IndexType, IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import simd
from loopopt.targets import c_intvec, c_ops
from loopopt.targets.c_helpers import LaneIO
from loopopt.targets.c_isa import ELEMENT_C_TYPES
from loopopt.targets.c_print_values import FunctionCore, _item, float_literal, int_literal, is_a, scalar_key


class ArithStatements(FunctionCore):
    """The `arith` / `math` half of `FunctionPrinter`."""

    def _arith(self, op: Operation) -> bool:
        t = type(op)
        key = c_ops.BINARY.get(t)
        if key is not None:
            a, b = op._operands
            xor = is_a(op, arith.XOrIOp)
            if xor and self._is_all_true(b):
                self._row(op, "not", _item(op.results, 0).type, a=self.e(a))
            elif xor and self._is_all_true(a):
                self._row(op, "not", _item(op.results, 0).type, a=self.e(b))
            elif t in _MIN_MAX and self._folded(op):
                pass
            else:
                key, fields, b_read = self._binary_form(op, key)  # not b_read: a constant inside the row
                b_read = b_read or xor  # (as arith_operands_read answers)
                self._row(op, key, _item(op.results, 0).type, a=self.e(a), b=self.e(b) if b_read else "", **fields)
            return True
        if t in c_ops.UNARY:
            key, result_type = c_ops.UNARY[t], _item(op.results, 0).type
            afn = c_ops.approximate_key(op, key)
            if afn is not None:
                table, elt = self.row_key(result_type)
                if table.row(afn, elt) is not None:
                    key = afn  # else the accurate row: afn allows approximation, it does not require it
            self._row(op, key, result_type, a=self.e(op._operands[0]))
            return True
        if t in c_ops.TERNARY:
            a, b, c = (self.e(v) for v in op._operands)
            self._row(op, c_ops.TERNARY[t], _item(op.results, 0).type, a=a, b=b, c=c)
            return True
        if t in c_ops.CONVERSIONS:
            src, res = op._operands[0].type, _item(op.results, 0).type
            _, to = self.row_key(res)
            to = "i1" if to.startswith("i1x") else to
            key = f"convert.{to}"
            from_i1 = scalar_key(_elt(src)) == "i1" or self.row_key(src)[1].startswith("i1x")
            if isinstance(op, arith.ExtUIOp) and not from_i1:
                key = f"zext.{to}"
            elif isinstance(op, arith.FPToUIOp):
                key = f"fptoui.{to}"
            elif isinstance(op, arith.UIToFPOp):
                key = f"uitofp.{to}"
            elif isinstance(op, arith.ExtSIOp | arith.SIToFPOp | arith.IndexCastOp) and from_i1:
                key = f"sext.{to}"  # i1 read signed: true is -1
            self._row(op, key, src, a=self.e(op._operands[0]))
            return True
        return False

    def _binary_row(self, op: Operation, key: str) -> tuple[str, dict[str, str]]:
        """The row key and extra fields of a binary op: `<key>_const` for a division by a
        constant (C's operators on scalars, multiply-high on i32 vectors: c_intvec) and for a
        shift by a constant where the ISA has an immediate form; `key` itself otherwise."""
        b, result_type = op._operands[1], _item(op.results, 0).type
        divisor = _constant_divisor(b) if key in _CONST_DIVISOR_KEYS else None
        if divisor is not None:
            return _const_division(key, divisor, result_type)
        amount = _constant_shift(b) if key in _SHIFT_KEYS else None
        table, elt = self.row_key(result_type)
        if amount is not None and table.row(f"{key}_const", elt) is not None:
            return f"{key}_const", {"k": str(amount)}
        return key, {}

    def arith_operands_read(self, op: Operation) -> tuple[SSAValue, ...] | None:
        """The operands a binary op's C reads when that is not all of them (a constant divisor
        or shift amount folded into the row: its splat is then not printed, -Werror=unused-variable);
        None for all operands."""
        key = c_ops.BINARY.get(type(op))
        if key is None or is_a(op, arith.XOrIOp):
            return None
        return None if self._binary_form(op, key)[2] else (op._operands[0],)

    def _binary_form(self, op: Operation, key: str) -> tuple[str, dict[str, str], bool]:
        """`_binary_row(op, key)` and whether the row reads `{b}` (or there is no row: its error
        comes when the op prints), remembered per op and ISA table: the printer asks once for
        liveness and again when the op prints."""
        known = self.binary_forms.get(id(op))
        if known is not None and known[0] is op and known[1] is self.isa:
            return known[2]
        row_key, fields = self._binary_row(op, key)
        table, elt = self.row_key(_item(op.results, 0).type)
        template = table.row(row_key, elt)
        form = (row_key, fields, template is None or "{b}" in template)
        self.binary_forms[id(op)] = (op, self.isa, form)
        return form

    def _is_all_true(self, value: SSAValue) -> bool:
        owner = value.owner
        if not is_a(owner, arith.ConstantOp) or scalar_key(_elt(value.type)) != "i1":
            return False
        v = owner.value
        if isinstance(v, IntegerAttr):
            return v.value.data != 0
        if isinstance(v, DenseIntOrFPElementsAttr):
            return all(x != 0 for x in v.get_values())
        return False

    def _constant(self, op: Operation) -> None:
        assert isinstance(op, arith.ConstantOp)
        t, v = op.result.type, op.value
        if isinstance(v, IntegerAttr | FloatAttr) and not isinstance(t, VectorType):
            self.exprs[id(op.result)] = self._literal(v.value.data, scalar_key(t) or "", op)
            return
        if isinstance(v, DenseIntOrFPElementsAttr) and isinstance(t, VectorType):
            elt = scalar_key(t.element_type) or ""
            values = list(v.get_values())
            if len(set(values)) == 1 or len(values) == 1:
                self._row(op, "broadcast", t, a=self._literal(values[0], elt, op))
                return
            literals = ", ".join(self._literal(x, elt, op) for x in values)
            if elt == "i1":
                n = t.get_shape()[0]
                ct = self.c_type(t, op)
                expr = LaneIO(self.isa).bools_to_mask(n, f"(const _Bool[]){{{literals}}}")
                self.line(f"{ct} {self.name_of(op.result, 'mask')} = {expr};")
                return
            self._row(op, "load", t, buf=f"((const {ELEMENT_C_TYPES[elt]}[]){{{literals}}})", idx="0")
            return
        raise LoopoptDiagnostic(f"arith.constant {v} of type {t} has no C form", op)

    def _literal(self, value: int | float, elt: str, op: Operation) -> str:
        if elt in ("f16", "bf16", "f32", "f64"):
            return float_literal(float(value), elt)
        if elt in ("i1", "i8", "i16", "i32", "i64", "index"):
            return int_literal(int(value), elt)
        raise LoopoptDiagnostic(f"constant of element type {elt or '?'} has no C form", op)

    def _cmp(self, op: Operation) -> None:
        assert isinstance(op, arith.CmpfOp | arith.CmpiOp)
        table = arith.CMPF_COMPARISON_OPERATIONS if isinstance(op, arith.CmpfOp) else arith.CMPI_COMPARISON_OPERATIONS
        pred = table[op.predicate.value.data]
        if isinstance(op, arith.CmpiOp) and self._folded(op):
            return
        self._row(op, f"cmp.{pred}", op.lhs.type, a=self.e(op.lhs), b=self.e(op.rhs))

    def _folded(self, op: Operation) -> bool:
        """Print `op` as its value when `folded_value` knows it (nothing printed: False)."""
        value = folded_value(op)
        a, b = op._operands
        if value is None and id(a) in self.exprs and self.exprs[id(a)] == self.exprs.get(id(b)):
            value = folded_value(op, same=True)  # e.g. two lengths that are both `x_len`
        if value is None:
            return False
        result = op.results[0]
        text = value if isinstance(value, str) else self.e(value)
        self.line(f"{self.c_type(result.type, op)} {self.name_of(result)} = {text};")
        return True

    def _arith_select(self, op: Operation) -> None:
        assert isinstance(op, arith.SelectOp)
        if isinstance(op.result.type, VectorType) and not isinstance(op.cond.type, VectorType):
            raise LoopoptDiagnostic("arith.select of vectors on a scalar condition: use a mask (simd.select)", op)
        self._row(op, "select", op.result.type, mask=self.e(op.cond), a=self.e(op.lhs), b=self.e(op.rhs))


_MIN_MAX = {arith.MinSIOp: "min", arith.MaxSIOp: "max", arith.MinUIOp: "minu", arith.MaxUIOp: "maxu"}
FOLDABLE_CLASSES = (*_MIN_MAX, arith.CmpiOp)
"""The classes `folded_value` may fold (for any other op it answers None)."""


def folded_value(op: Operation, same: bool = False) -> SSAValue | str | None:
    """The value of a scalar integer min, max or comparison that C would compute from a
    constant-false/true comparison (an operand or a C literal): `minsi(x, x)` and `x < x`
    (gcc -Wall: "self-comparison always evaluates to false"), an unsigned min, max or compare
    with 0 or all-ones (`minui(x, -1)` is x, `x <u 0` is false; gcc -Wextra: "comparison is
    always false due to limited range of data type"). Printed as that value, so -Werror builds
    pass. `same`: the two operands print as the same C expression. None for any other op or
    operands."""
    key = _MIN_MAX.get(type(op))
    if key is None and is_a(op, arith.CmpiOp):
        key = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    if key is None:
        return None
    a, b = op._operands
    if is_a(a.type, VectorType) and a.type.get_shape() != (1,):
        return None  # vector rows are intrinsics, which gcc does not warn about
    if a is b or same:
        return a if key in _MIN_MAX.values() else "1" if key in ("eq", "sle", "sge", "ule", "uge") else "0"
    if key not in ("minu", "maxu", *_UNSIGNED_CMP):
        return None
    for x, other, first in ((a, b, True), (b, a, False)):
        found = _constant_bits(x)
        if found is None or found[0] not in (0, (1 << found[1]) - 1):
            continue
        low = found[0] == 0
        if key in ("minu", "maxu"):
            return other if low == (key == "maxu") else x
        pred = key if first else _UNSIGNED_CMP[key]  # the predicate with the constant on the left
        value = ({"ule": "1", "ugt": "0"} if low else {"uge": "1", "ult": "0"}).get(pred)
        if value is not None:
            return value
    return None


_UNSIGNED_CMP = {"ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}
"""Unsigned predicates and their mirror (`a <u b` is `b >u a`)."""

_CONST_DIVISOR_KEYS = frozenset({"div", "rem", "divu", "remu"})
"""Divisions whose `<key>_const` row is C's operator, for a constant divisor other than 0 and -1."""


def _constant_bits(value: SSAValue) -> tuple[int, int] | None:
    """(the unsigned bit pattern, the width) of an integer constant: a scalar, a splat vector
    constant or a `simd.broadcast` of a scalar one; None for anything else."""
    owner = value.owner
    if is_a(owner, simd.BroadcastOp):
        return _constant_bits(owner.operands[0])
    if not is_a(owner, arith.ConstantOp):
        return None
    v, t = owner.value, _elt(value.type)
    if isinstance(v, DenseIntOrFPElementsAttr):
        values = set(v.get_values())
        if len(values) != 1:
            return None
        x = values.pop()
    elif isinstance(v, IntegerAttr):
        x = v.value.data
    else:
        return None
    if not isinstance(t, IntegerType | IndexType) or isinstance(x, float):
        return None
    bits = t.width.data if isinstance(t, IntegerType) else 64
    return int(x) % (1 << bits), bits  # 4294967295 : i32 and -1 : i32 are the same bits


def _constant_divisor(value: SSAValue) -> int | None:
    """The divisor as a signed int when `value` is an integer constant other than 0 and -1:
    dividing by it cannot trap, overflow (MIN / -1) or need the defined x / 0 = 0, so C's `/`
    and `%` (scalar) or a multiply-high (vector) are exact. None otherwise."""
    found = _constant_bits(value)
    if found is None or found[0] in (0, (1 << found[1]) - 1):
        return None
    x, bits = found
    return x - (1 << bits) if x >> (bits - 1) else x


_SHIFT_KEYS = frozenset({"shl", "shr", "shru"})
"""Shifts whose `<key>_const` row (where an ISA has one) takes the amount as an immediate `{k}`."""


def _constant_shift(value: SSAValue) -> int | None:
    """A constant shift amount read unsigned (as docs/integer_semantics.md reads it), clamped to
    255: x86's immediate shifts give 0 (or the sign fill) for any count >= the width, as the
    rule says, but take an 8-bit immediate. None if `value` is not such a constant."""
    found = _constant_bits(value)
    return None if found is None else min(found[0], 255)


def _const_division(key: str, d: int, result_type: Attribute) -> tuple[str, dict[str, str]]:
    """The `<key>_const` row and its fields: `{m}` `{s1}` `{s2}` (unsigned) or `{m}` `{s}` `{neg}`
    (signed) from c_intvec's magic numbers, `{d}` the divisor, for i32 vectors; nothing more for
    scalars and i64 lanes (C's operators there). A signed division by 1 is the unsigned one."""
    if not (isinstance(result_type, VectorType) and scalar_key(result_type.element_type) == "i32"):
        return f"{key}_const", {}
    if key in ("divu", "remu") or d == 1:
        m, s1, s2 = c_intvec.magic_unsigned(d % 2**32)
        unsigned_key = "divu" if key in ("div", "divu") else "remu"
        return f"{unsigned_key}_const", {"m": str(m), "s1": str(s1), "s2": str(s2), "d": str(d % 2**32)}
    m, s = c_intvec.magic_signed(d)
    return f"{key}_const", {"m": str(m), "s": str(s), "neg": str(int(d < 0)), "d": int_literal(d, "i32")}


def _elt(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t

