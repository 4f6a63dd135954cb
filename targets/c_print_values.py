"""How IR values become C text: local names, C types, literals, and printing through a table row.

`FunctionCore` is the state one C function is printed with (the C expression of each SSA
value, the buffers, the names in scope, the output lines) and the few operations every
statement printer (c_print_loops, c_print_simd, c_print_arith) is written in: `e(value)` for
an operand, `name_of(result)` for a fresh local, `c_type`, and `_row`, which prints an op
through its ISA table row. `FunctionPrinter` (c_printer) combines them.
"""

from __future__ import annotations

import abc
import functools
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IndexType, IntegerType, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.names import _identifier_problem, c_name_problem
from loopopt.targets.c_isa import BUFFER_C_TYPES, ELEMENT_C_TYPES, IsaTable
from loopopt.targets.isa_scalar import SCALAR

if TYPE_CHECKING:
    from loopopt.targets.c_printer import CPrinter, Kernel

_item = tuple.__getitem__
"""`values[k]` without xDSL's `SSAValues.__getitem__` (a Python call that tests for a slice)."""

MAX_HINT_LENGTH = 40
"""Longest SSA name hint kept in a C local name (the rest is cut; suffixes keep names unique)."""


_SCALAR_CLASS_KEYS: dict[type, str | None] = {}
"""scalar_key's answer per attribute class (IntegerType: None here, the width decides), and
the ABC cache token the answers were computed under (a `register` call forgets them)."""
_scalar_token: list[object] = [abc.get_cache_token()]
_INTEGER_KEYS = {w: f"i{w}" for w in (1, 8, 16, 32, 64)}


def scalar_key(t: Attribute) -> str | None:
    """The element key of a scalar type (f32 f64 i8 i16 i32 i64 index i1), None for anything else
    (the class tests are answered once per class: every printed value asks, through ABCMeta)."""
    cls = type(t)
    if cls is IntegerType:
        return _INTEGER_KEYS.get(t.width.data)
    if _scalar_token[0] != abc.get_cache_token():
        _SCALAR_CLASS_KEYS.clear()
        _scalar_token[0] = abc.get_cache_token()
    try:
        return _SCALAR_CLASS_KEYS[cls]
    except KeyError:
        pass
    if issubclass(cls, IntegerType):
        return _scalar_key(t)
    key = _SCALAR_CLASS_KEYS[cls] = _scalar_key(t)
    return key


def _scalar_key(t: Attribute) -> str | None:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64):
        return f"i{t.width.data}"
    return None


@dataclass
class Buffer:
    """A `!loop.buf` value in C: its pointer and one length expression per dimension."""

    ptr: str
    lengths: list[str]
    elt: str


def float_literal(value: float, elt: str) -> str:
    if elt == "f16":  # storage: the half's bits (NaN, inf and rounding as numpy's float16)
        with np.errstate(all="ignore"):
            return f"0x{int(np.array(value, np.float16).view(np.uint16)):04X}"
    if elt == "bf16":  # storage: the bfloat16's bits (as ml_dtypes rounds, through f32)
        from loopopt.targets.c_part import bf16_bits

        return f"0x{bf16_bits(value):04X}"
    if math.isnan(value):
        return "NAN" if elt == "f32" else "(double)NAN"
    if math.isinf(value):
        inf = "INFINITY" if elt == "f32" else "(double)INFINITY"
        return inf if value > 0 else f"(-{inf})"
    text = str(np.float32(value)) if elt == "f32" else repr(float(value))
    if not re.search(r"[.eEn]", text):
        text += ".0"
    text += "f" if elt == "f32" else ""
    return f"({text})" if text.startswith("-") else text


def int_literal(value: int, elt: str) -> str:
    if elt == "i1":
        return "1" if value else "0"
    if elt in ("i8", "i16"):  # the two's complement value; int literals convert exactly
        w = int(elt[1:])
        value = (value + 2 ** (w - 1)) % 2**w - 2 ** (w - 1)
    elif elt == "i32":
        value = (value + 2**31) % 2**32 - 2**31
        if value == -(2**31):
            return "INT32_MIN"
    elif value == -(2**63):
        return "INT64_MIN"
    text = str(value) if -(2**31) < value < 2**31 else f"INT64_C({value})"
    return f"({text})" if value < 0 else text


@functools.lru_cache(maxsize=1024)
def _declaring(template: str) -> str:
    """A row's template with its `{dst} = ` assignments as declarations (`{decl} = `)."""
    return re.sub(r"(^|; )\{dst\} = ", lambda m: m.group(1) + "{decl} = ", template)


@functools.lru_cache(maxsize=1024)
def _assigns_once(template: str) -> bool:
    """Whether a declaring row template is one assignment of an expression that does not read its
    destination: every operand is read before the destination is written, so the destination
    may be an operand's variable (an accumulator updated in place)."""
    return template.startswith("{decl} = ") and "; " not in template and "{dst}" not in template


@functools.lru_cache(maxsize=4096)
def _name_base(hint: str | None, default: str) -> tuple[str, bool]:
    """fresh()'s name before any suffix and whether `loopopt.names` accepts it (a pure function
    of the hint: remembered, as most values share a few hints)."""
    base = re.sub(r"[^A-Za-z0-9_]", "_", hint or "")[:MAX_HINT_LENGTH] or default
    if c_name_problem(base) is not None:
        base = "v_" + base.lstrip("_")
        if c_name_problem(base) is not None:
            base = default
    return base, c_name_problem(base) is None


@functools.lru_cache(maxsize=4096)
def _suffix_base(base: str) -> str:
    """The base fresh() suffixes: `base`, or `v_base` when `base_1` is not a name C may use."""
    return "v_" + base if c_name_problem(f"{base}_1") is not None else base


_IS_A: dict[tuple[type, type], bool] = {}


def is_a(obj: object, cls: type) -> bool:
    """isinstance(obj, cls), answered once per class of `obj`: xDSL's op classes are ABCs, whose
    isinstance is a Python call (~15,000 per 1,000-op module in the printer's tests of operands)."""
    key = (type(obj), cls)
    known = _IS_A.get(key)
    if known is None:
        known = _IS_A[key] = isinstance(obj, cls)
    return known


class FunctionCore:
    """What printing one `func.func` shares: values to C expressions, names in scope, lines."""

    printer: CPrinter
    isa: IsaTable
    op: func.FuncOp
    exprs: dict[int, str]
    """The C expression of every printed SSA value, by the value's id (its hash is a Python call;
    the values outlive the printing, so no id is reused)."""
    buffers: dict[SSAValue, Buffer]
    used_names: set[str]
    """The local names in scope (copied at every loop, so it holds locals only)."""
    symbols: set[str]
    """The module's function names: taken too, shared by every function, never copied (a copy
    per function and per loop made printing quadratic in the number of functions)."""
    next_suffix: dict[str, int]
    """Per name base, the first `_k` suffix fresh() may still find free in this scope."""
    lines: list[str]
    depth: int
    row_keys: dict[int, tuple[Attribute, tuple[IsaTable, str]]]
    """row_key's answer per type object (the object kept, so that its id is not reused)."""
    row_forms: dict[tuple[str, int, int], tuple[Attribute, Attribute | None, IsaTable, str, str, str]]
    """`_row_form`'s answer per (key, row type id, result type id), the types and ISA table kept
    (a split loop prints with a half table)."""
    binary_forms: dict[int, tuple[Operation, IsaTable, tuple[str, dict[str, str], bool]]]
    """`ArithStatements._binary_form`'s answer per op id (the op and ISA table kept)."""
    c_types: dict[int, tuple[Attribute, IsaTable, str]]
    """c_type's answer per type object and ISA table (a split loop prints with a half table)."""
    cursors: dict[Operation, str]
    """The output cursor of each `loop.predloop` (its count variable), for `loop.append`."""
    append_guards: dict[Operation, bool]
    """Per `loop.predloop` being printed branch-free: whether its appends test the cursor
    against the buffer's length (the part past lo + capacity)."""
    uses_alloc: bool
    live_allocs: list[tuple[str, int]]
    """`loop.alloc` buffers not yet freed (C name, depth): freed on the out-of-memory return."""
    kernel: Kernel
    in_place: dict[int, SSAValue]
    """Per value id, the loop accumulator (block argument) whose C variable the value is computed
    into instead of a new local (c_print_loops.in_place_yields)."""
    half_offset: int = 0
    """Lanes added to the index of every `simd.load` (the high half of a split loop, c_print_loops)."""

    def block(self, block: Block, skip_terminator: bool = False) -> None:
        """Print the live ops of `block` (`FunctionPrinter.block`: loops print their bodies)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ names and types

    def fresh(self, hint: str | None, default: str = "v") -> str:
        """A new local C name from an SSA name hint (user text: `%"x y"`, `%malloc`): non
        identifier characters become `_`; a name `loopopt.names` rejects (keyword, libc or
        intrinsic name, reserved, `lo_` helper prefix, too long) gets the prefix `v_`, or
        becomes `default`; a suffix `_k` makes it unique among the names in scope."""
        base, acceptable = _name_base(hint, default)
        name = base
        taken, symbols = self.used_names, self.symbols
        if name in taken or name in symbols or not acceptable:
            base = _suffix_base(base)  # `lo` is fine, but `lo_1`, `lo_2`, ... are the helper prefix
            # the smallest free suffix: those below next_suffix[base] were taken in this scope
            # and stay taken (names only leave with their scope, which restores next_suffix too),
            # so a function with n values of one hint costs O(n), not O(n^2)
            k = self.next_suffix.get(base, 1)
            name = f"{base}_{k}"
            while name in taken or name in symbols or _identifier_problem(name, False) is not None:  # (a str)
                k += 1
                name = f"{base}_{k}"
            self.next_suffix[base] = k + 1
        self.used_names.add(name)
        return name

    def name_of(self, value: SSAValue, default: str = "v") -> str:
        name = self.fresh(value.name_hint, default)
        self.exprs[id(value)] = name
        return name

    def e(self, value: SSAValue) -> str:
        """The C expression of an SSA value."""
        try:
            return self.exprs[id(value)]
        except KeyError:
            raise LoopoptDiagnostic("internal: value used before the C printer defined it", self.op) from None

    def c_type(self, t: Attribute, op: Operation) -> str:
        """The C type of a value of type `t` (remembered per type object and ISA table)."""
        known = self.c_types.get(id(t))
        if known is not None and known[0] is t and known[1] is self.isa:
            return known[2]
        ct = self._c_type(t, op)
        self.c_types[id(t)] = (t, self.isa, ct)
        return ct

    def _c_type(self, t: Attribute, op: Operation) -> str:
        if is_a(t, VectorType):
            elt = scalar_key(t.element_type)
            if t.get_num_dims() != 1 or elt is None or elt == "index":
                raise LoopoptDiagnostic(f"{t} has no C representation (rank-1 vectors of f32 f64 i32 i64 i1)", op)
            n = t.get_shape()[0]
            ct = self.isa.c_vector_type(elt, n)
            if ct is None:
                native = (f"{self.isa.name} masks have {sorted(self.isa.mask_types)} lanes" if elt == "i1"
                          else f"{self.isa.name} vectors hold {self.isa.lanes.get(elt)} {elt} lanes")  # fmt: skip
                raise LoopoptDiagnostic(f"{t} is not a native {self.isa.name} vector ({native})", op)
            return ct
        elt = scalar_key(t)
        if elt is None:
            raise LoopoptDiagnostic(f"type {t} has no C representation", op)
        return ELEMENT_C_TYPES[elt]

    def abi_type(self, t: Attribute, op: Operation) -> str:
        """The C type of a scalar parameter or result: a bool is a 0/1 `uint8_t` at the
        kernel boundary (docs/calling_convention.md), a `_Bool` inside."""
        if scalar_key(t) == "i1":
            return BUFFER_C_TYPES["i1"]
        return self.c_type(t, op)

    def row_key(self, t: Attribute) -> tuple[IsaTable, str]:
        """The table and element key that print ops on values of type `t` (remembered per type
        object: every row asks, ~10 times per df op)."""
        known = self.row_keys.get(id(t))
        if known is None or known[0] is not t:
            known = self.row_keys[id(t)] = (t, self._row_key(t))
        return known[1]

    def _row_key(self, t: Attribute) -> tuple[IsaTable, str]:
        if isinstance(t, VectorType):
            elt = scalar_key(t.element_type) or str(t.element_type)
            n = t.get_shape()[0]
            table = SCALAR if self.isa.name == "scalar" else self.isa
            return table, table.element_key(elt, n)
        return SCALAR, scalar_key(t) or str(t)

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    # ------------------------------------------------------------------ rows

    def _row(self, op: Operation, key: str, row_type: Attribute, **fields: str) -> None:
        """Print `op` through the row (key, element of `row_type`); the result (if any) is {dst}."""
        results = op.results
        result_type = _item(results, 0).type if results else None
        memo_key = (key, id(row_type), id(result_type))
        form = self.row_forms.get(memo_key)
        if form is None or form[0] is not row_type or form[1] is not result_type or form[2] is not self.isa:
            form = self.row_forms[memo_key] = (row_type, result_type, self.isa, *self._row_form(op, key, row_type))
        template, ctype, element_ctype = form[3:]
        fields.setdefault("T", element_ctype)
        if result_type is not None:
            result = _item(results, 0)
            acc = self.in_place.get(id(result)) if self.in_place else None
            if acc is not None and _assigns_once(template):  # `acc = f(acc, x);` (in_place_yields)
                dst = self.exprs[id(result)] = self.e(acc)
                fields["decl"] = dst
            else:
                dst = self.name_of(result)
                fields["decl"] = f"{ctype} {dst}"
            fields["dst"] = dst
        self.statements(template.format_map(fields))  # (format(**fields) copies the dict)

    def _row_form(self, op: Operation, key: str, row_type: Attribute) -> tuple[str, str, str]:
        """What `_row` prints with that depends on the op only through the key and the types, so
        is remembered per (key, row type, result type, ISA table) in `row_forms`: the template
        (declaring its `{dst}` when there is a result), the result's C type, `{T}`."""
        table, elt = self.row_key(row_type)
        template = table.row(key, elt)
        if template is None:
            where = "scalar C" if table is SCALAR else self.isa.name
            raise LoopoptDiagnostic(
                f"{op.name} ({key}) on {row_type} has no {where} row: the {self.printer.target} target cannot print it",
                op,
            )
        ctype = ""
        if op.results:
            ctype = self.c_type(op.results[0].type, op)
            template = _declaring(template)
        scalar_t = row_type.element_type if is_a(row_type, VectorType) else row_type
        return template, ctype, ELEMENT_C_TYPES.get(scalar_key(scalar_t) or "", "void")

    def statements(self, text: str) -> None:
        """A formatted row's statements (`; `-separated), one line each."""
        if "; " not in text:  # (most rows)
            self.lines.append("    " * self.depth + (text if text.endswith(";") or text.endswith("}") else text + ";"))
            return
        for statement in text.split("; "):
            self.line(statement if statement.endswith(";") or statement.endswith("}") else statement + ";")

    def buffer(self, value: SSAValue, op: Operation) -> Buffer:
        try:
            return self.buffers[value]
        except KeyError:
            raise LoopoptDiagnostic("buffer is neither a kernel argument nor a loop.alloc", op) from None

