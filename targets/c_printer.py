"""The C printer core: a module of kernels (Loop IR + simd + arith/math) to one C11 file.

One `FunctionPrinter` per `func.func`; one method per structural op (functions, loops,
buffers, accesses); every value-computing op goes through a table row (`IsaTable.rows`, see
c_isa), the scalar table when its operands are scalars and the ISA's when they are vectors.
Any op without a method or a row is a `LoopoptDiagnostic` at the op's location: the printer
never guesses. Helpers the rows call (`lo_*`) are emitted once, before the kernels.

Values become C expressions: constants and lengths inline (`3`, `x_len`), everything else a
`const`-free local named after the IR's name hint (`%sum` -> `sum`). Unused pure ops are not
printed (a C warning would fail -Werror builds); unused parameters get `(void)p;`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.names import c_comment_text, c_name_problem, check_c_name
from loopopt.dialects import loop, simd
from loopopt.lowering.abi import KERNEL as KERNEL_ATTR
from loopopt.lowering.abi import verify_kernel_abi
from loopopt.targets import c_ops
from loopopt.targets.c_helpers import LaneIO, all_helpers, required_helpers
from loopopt.targets.c_isa import BUFFER_C_TYPES, ELEMENT_C_TYPES, IsaTable, mask_key
from loopopt.targets.isa_scalar import SCALAR

MAX_HINT_LENGTH = 40
"""Longest SSA name hint kept in a C local name (the rest is cut; suffixes keep names unique)."""

WRITERS = (loop.StoreOp, loop.AppendOp, simd.StoreOp, simd.MaskedStoreOp, simd.CompressStoreOp)


def scalar_key(t: Attribute) -> str | None:
    """The element key of a scalar type (f32 f64 i32 i64 index i1), None for anything else."""
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, IntegerType) and t.width.data in (1, 32, 64):
        return f"i{t.width.data}"
    return None


@dataclass
class Buffer:
    """A `!loop.buf` value in C: its pointer and one length expression per dimension."""

    ptr: str
    lengths: list[str]
    elt: str


@dataclass
class Kernel:
    """The C view of a `func.func`: its parameters in ABI order."""

    name: str
    params: list[str] = field(default_factory=list)
    """C parameter declarations."""
    param_names: list[str] = field(default_factory=list)
    returns: str = "void"
    ret_ptrs: list[str] = field(default_factory=list)


def float_literal(value: float, elt: str) -> str:
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
    if elt == "i32":
        value = (value + 2**31) % 2**32 - 2**31
        if value == -(2**31):
            return "INT32_MIN"
    elif value == -(2**63):
        return "INT64_MIN"
    text = str(value) if -(2**31) < value < 2**31 else f"INT64_C({value})"
    return f"({text})" if value < 0 else text


class CPrinter:
    """Prints a whole module for one ISA."""

    def __init__(self, isa: IsaTable, target: str, pipeline: str | None = None):
        self.isa = isa
        self.target = target
        self.pipeline = pipeline
        self.helpers = all_helpers(isa)
        self.symbols: set[str] = set()

    def print_module(self, module: ModuleOp) -> str:
        functions: list[str] = []
        needs_stdlib = False
        self.symbols = set()
        for op in module.ops:
            if not isinstance(op, func.FuncOp):
                raise LoopoptDiagnostic(f"the C printer prints func.func kernels, found {op.name} at module level", op)
            self.symbols.add(check_c_name(op.sym_name.data, "function name", op))
        for op in module.ops:
            assert isinstance(op, func.FuncOp)
            if op.is_declaration:
                continue
            if KERNEL_ATTR in op.attributes:
                verify_kernel_abi(op)
            fp = FunctionPrinter(self, op)
            functions.append(fp.print())
            needs_stdlib |= fp.uses_alloc
        code = "\n".join(functions)
        helpers = required_helpers(self.isa, code, self.helpers)
        header = [
            "/* Generated by loopopt: do not edit.",
            f" * target: {c_comment_text(self.target)} ({c_comment_text(self._flags())})",
            f" * pipeline: {c_comment_text(self.pipeline or 'none recorded')}",
            " */",
        ]
        includes = ["stddef.h", "stdint.h", "math.h"] + (["stdlib.h"] if needs_stdlib else []) + list(self.isa.includes)
        parts = ["\n".join(header), "".join(f"#include <{h}>\n" for h in includes)]
        if helpers:
            parts.append("\n".join(h.code for h in helpers))
        parts.append(code)
        return "\n".join(parts)


    def _flags(self) -> str:
        if self.isa.name == "scalar":
            return "portable C"
        return " ".join(self.isa.cflags) or "baseline ISA, no flags"


class FunctionPrinter:
    """Prints one `func.func` as a C function."""

    def __init__(self, printer: CPrinter, op: func.FuncOp):
        self.printer = printer
        self.isa = printer.isa
        self.op = op
        self.exprs: dict[SSAValue, str] = {}
        self.buffers: dict[SSAValue, Buffer] = {}
        self.used_names: set[str] = set(printer.symbols)
        self.next_suffix: dict[str, int] = {}
        """Per name base, the first `_k` suffix fresh() may still find free in this scope."""
        self.lines: list[str] = []
        self.depth = 1
        self.cursors: dict[Operation, str] = {}
        self.uses_alloc = False
        self.kernel = Kernel(check_c_name(op.sym_name.data, "function name", op))
        self.written = {_written_buffer(o) for o in op.walk() if isinstance(o, WRITERS)}
        self.dispatch: dict[type[Operation], Callable[[Operation], None]] = {
            func.ReturnOp: self._return,
            arith.ConstantOp: self._constant,
            arith.SelectOp: self._arith_select,
            arith.CmpfOp: self._cmp,
            arith.CmpiOp: self._cmp,
            loop.DimOp: self._dim,
            loop.AllocOp: self._alloc,
            loop.DeallocOp: self._dealloc,
            loop.LoadOp: self._loop_load,
            loop.StoreOp: self._loop_store,
            loop.AppendOp: self._append,
            loop.ForOp: self._for,
            loop.ZipOp: self._for,
            loop.VecLoopOp: self._for,
            loop.PredLoopOp: self._predloop,
            loop.YieldOp: self._yield,
            simd.LoadOp: self._simd_load,
            simd.StoreOp: self._simd_store,
            simd.MaskedLoadOp: self._simd_masked_load,
            simd.MaskedStoreOp: self._simd_masked_store,
            simd.CompressStoreOp: self._simd_compress_store,
            simd.AlignOffsetOp: self._simd_align_offset,
            simd.StoreFenceOp: self._simd_store_fence,
            simd.BroadcastOp: self._simd_broadcast,
            simd.IotaOp: lambda o: self._row(o, "iota", o.result.type),
            simd.PrefixMaskOp: lambda o: self._row(o, "prefix_mask", o.result.type, a=self.e(o.count)),
            simd.FmaOp: lambda o: self._row(o, "fma", o.result.type, a=self.e(o.a), b=self.e(o.b), c=self.e(o.c)),
            simd.MinOp: lambda o: self._row(o, "min", o.result.type, a=self.e(o.lhs), b=self.e(o.rhs)),
            simd.MaxOp: lambda o: self._row(o, "max", o.result.type, a=self.e(o.lhs), b=self.e(o.rhs)),
            simd.CmpOp: lambda o: self._row(
                o, f"cmp.{o.predicate.data.value}", o.lhs.type, a=self.e(o.lhs), b=self.e(o.rhs)
            ),
            simd.SelectOp: self._simd_select,
            simd.ConvertOp: self._simd_convert,
            simd.HReduceOp: self._simd_hreduce,
            simd.MaskPopcountOp: lambda o: self._row(o, "popcount", o.mask.type, a=self.e(o.mask)),
        }

    # ------------------------------------------------------------------ names and types

    def fresh(self, hint: str | None, default: str = "v") -> str:
        """A new local C name from an SSA name hint (user text: `%"x y"`, `%malloc`): non
        identifier characters become `_`; a name `loopopt.names` rejects (keyword, libc or
        intrinsic name, reserved, `lo_` helper prefix, too long) gets the prefix `v_`, or
        becomes `default`; a suffix `_k` makes it unique among the names in scope."""
        base = re.sub(r"[^A-Za-z0-9_]", "_", hint or "")[:MAX_HINT_LENGTH] or default
        if c_name_problem(base) is not None:
            base = "v_" + base.lstrip("_")
            if c_name_problem(base) is not None:
                base = default
        name = base
        if name in self.used_names or c_name_problem(name) is not None:
            # the smallest free suffix: those below next_suffix[base] were taken in this scope
            # and stay taken (names only leave with their scope, which restores next_suffix too),
            # so a function with n values of one hint costs O(n), not O(n^2)
            k = self.next_suffix.get(base, 1)
            name = f"{base}_{k}"
            while name in self.used_names or c_name_problem(name) is not None:
                k += 1
                name = f"{base}_{k}"
            self.next_suffix[base] = k + 1
        self.used_names.add(name)
        return name

    def name_of(self, value: SSAValue, default: str = "v") -> str:
        name = self.fresh(value.name_hint, default)
        self.exprs[value] = name
        return name

    def e(self, value: SSAValue) -> str:
        """The C expression of an SSA value."""
        try:
            return self.exprs[value]
        except KeyError:
            raise LoopoptDiagnostic("internal: value used before the C printer defined it", self.op) from None

    def c_type(self, t: Attribute, op: Operation) -> str:
        if isinstance(t, VectorType):
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
        """The table and element key that print ops on values of type `t`."""
        if isinstance(t, VectorType):
            elt = scalar_key(t.element_type) or str(t.element_type)
            n = t.get_shape()[0]
            table = SCALAR if self.isa.name == "scalar" else self.isa
            return table, mask_key(n) if elt == "i1" else elt
        return SCALAR, scalar_key(t) or str(t)

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    # ------------------------------------------------------------------ rows

    def _row(self, op: Operation, key: str, row_type: Attribute, **fields: str) -> None:
        """Print `op` through the row (key, element of `row_type`); the result (if any) is {dst}."""
        table, elt = self.row_key(row_type)
        template = table.row(key, elt)
        if template is None:
            where = "scalar C" if table is SCALAR else self.isa.name
            raise LoopoptDiagnostic(
                f"{op.name} ({key}) on {row_type} has no {where} row: the {self.printer.target} target cannot print it",
                op,
            )
        if op.results:
            result = op.results[0]
            ctype = self.c_type(result.type, op)
            dst = self.name_of(result)
            template = re.sub(r"(^|; )\{dst\} = ", lambda m: m.group(1) + "{decl} = ", template)
            fields = {**fields, "dst": dst, "decl": f"{ctype} {dst}"}
        scalar_t = row_type.element_type if isinstance(row_type, VectorType) else row_type
        fields.setdefault("T", ELEMENT_C_TYPES.get(scalar_key(scalar_t) or "", "void"))
        text = template.format(**fields)
        for statement in text.split("; "):
            self.line(statement if statement.endswith(";") or statement.endswith("}") else statement + ";")

    # ------------------------------------------------------------------ functions

    def print(self) -> str:
        op = self.op
        args = op.body.block.args
        arg_attrs = list(op.arg_attrs.data) if op.arg_attrs is not None else [DictionaryAttr({})] * len(args)
        for k, (arg, attrs) in enumerate(zip(args, arg_attrs, strict=True)):
            self._param(arg, attrs, k)
        results = list(op.function_type.outputs.data)
        if len(results) == 1:
            self.kernel.returns = self.abi_type(results[0], op)
        elif len(results) >= 2:
            for k, t in enumerate(results):
                name = self.fresh(f"ret{k}")
                self.kernel.ret_ptrs.append(name)
                self.kernel.params.append(f"{self.abi_type(t, op)} *restrict {name}")
                self.kernel.param_names.append(name)
        self.block(op.body.block)
        body = "\n".join(self.lines)
        unused = [p for p in self.kernel.param_names if not re.search(rf"\b{re.escape(p)}\b", body)]
        prologue = "".join(f"    (void){p};\n" for p in unused)
        private = op.sym_visibility is not None and op.sym_visibility.data == "private"
        static = "static " if private and "loop.kernel" not in op.attributes else ""
        params = ", ".join(self.kernel.params) or "void"
        return f"{static}{self.kernel.returns} {self.kernel.name}({params})\n{{\n{prologue}{body}\n}}\n"

    def _param(self, arg: SSAValue, attrs: Attribute, k: int) -> None:
        t = arg.type
        if isinstance(t, loop.BufType):
            elt = scalar_key(t.element_type)
            if elt is None or elt == "index":
                raise LoopoptDiagnostic(f"buffer element type {t.element_type} has no C representation", self.op)
            role = attrs.data.get("loop.role") if isinstance(attrs, DictionaryAttr) else None
            is_input = role.data == "in" if isinstance(role, StringAttr) else arg not in self.written
            ptr = self.fresh(arg.name_hint, f"p{k}")
            suffixes = ["len"] if t.rank.data == 1 else ["rows", "cols"]
            lengths = [self.fresh(f"{ptr}_{s}") for s in suffixes]
            self.buffers[arg] = Buffer(ptr, lengths, elt)
            self.exprs[arg] = ptr
            const = "const " if is_input else ""
            self.kernel.params.append(f"{const}{BUFFER_C_TYPES[elt]} *restrict {ptr}")
            self.kernel.params += [f"int64_t {n}" for n in lengths]
            self.kernel.param_names += [ptr, *lengths]
            return
        name = self.name_of(arg, f"a{k}")
        self.kernel.params.append(f"{self.abi_type(t, self.op)} {name}")
        self.kernel.param_names.append(name)

    def _return(self, op: Operation) -> None:
        assert isinstance(op, func.ReturnOp)
        values = [self.e(v) for v in op.arguments]
        if len(values) == 1:
            self.line(f"return {values[0]};")
            return
        for ptr, v in zip(self.kernel.ret_ptrs, values):
            self.line(f"*{ptr} = {v};")
        if op.next_op is not None or not isinstance(op.parent_op(), func.FuncOp):
            self.line("return;")

    # ------------------------------------------------------------------ blocks

    def block(self, block: Block, skip_terminator: bool = False) -> None:
        live = self._live_ops(block)
        for o in block.ops:
            if skip_terminator and o is block.last_op and isinstance(o, loop.YieldOp):
                continue
            if o not in live:
                continue
            self.op_(o)

    def _live_ops(self, block: Block) -> set[Operation]:
        """Ops worth printing: those with effects or regions, and what they (transitively) use."""
        live: set[Operation] = set()
        used: set[SSAValue] = set()
        for o in reversed(list(block.ops)):
            effectful = bool(o.regions) or not o.results or isinstance(o, (*WRITERS, loop.AllocOp))
            if effectful or any(r in used for r in o.results):
                live.add(o)
                for inner in o.walk():
                    used.update(self._printed_operands(inner))
        return live

    def _printed_operands(self, op: Operation) -> tuple[SSAValue, ...]:
        """The operands whose C expression `op`'s printing reads: not the +0 of a select printed
        as an AND nor the all-true side of a `not`, so their splats are not printed unused
        (-Werror=unused-variable)."""
        if isinstance(op, simd.SelectOp) and self._select_is_and(op):
            return (op.mask, op.true_value)
        if isinstance(op, arith.XOrIOp):
            a, b = op.operands
            if self._is_all_true(b):
                return (a,)
            if self._is_all_true(a):
                return (b,)
        return tuple(op.operands)

    def _select_is_and(self, op: simd.SelectOp) -> bool:
        table, elt = self.row_key(op.result.type)
        return _is_positive_zero(op.false_value) and table.row("select_zero", elt) is not None

    def op_(self, op: Operation) -> None:
        handler = self.dispatch.get(type(op))
        if handler is not None:
            handler(op)
            return
        if self._arith(op):
            return
        raise LoopoptDiagnostic(f"the C printer cannot print {op.name} (no rule for this op)", op)

    # ------------------------------------------------------------------ arith / math

    def _arith(self, op: Operation) -> bool:
        t = type(op)
        if t in c_ops.BINARY:
            key = c_ops.BINARY[t]
            a, b = op.operands
            if isinstance(op, arith.XOrIOp) and self._is_all_true(b):
                self._row(op, "not", op.results[0].type, a=self.e(a))
            elif isinstance(op, arith.XOrIOp) and self._is_all_true(a):
                self._row(op, "not", op.results[0].type, a=self.e(b))
            else:
                if key in _CONST_DIVISOR_KEYS and _constant_divisor(b):
                    key = f"{key}_const"  # plain `/` and `%`: no lo_div/lo_rem helper needed
                self._row(op, key, op.results[0].type, a=self.e(a), b=self.e(b))
            return True
        if t in c_ops.UNARY:
            self._row(op, c_ops.UNARY[t], op.results[0].type, a=self.e(op.operands[0]))
            return True
        if t in c_ops.TERNARY:
            a, b, c = (self.e(v) for v in op.operands)
            self._row(op, c_ops.TERNARY[t], op.results[0].type, a=a, b=b, c=c)
            return True
        if t in c_ops.CONVERSIONS:
            src, res = op.operands[0].type, op.results[0].type
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
            self._row(op, key, src, a=self.e(op.operands[0]))
            return True
        return False

    def _is_all_true(self, value: SSAValue) -> bool:
        owner = value.owner
        if not isinstance(owner, arith.ConstantOp) or scalar_key(_elt(value.type)) != "i1":
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
            self.exprs[op.result] = self._literal(v.value.data, scalar_key(t) or "", op)
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
        if elt in ("f32", "f64"):
            return float_literal(float(value), elt)
        if elt in ("i1", "i32", "i64", "index"):
            return int_literal(int(value), elt)
        raise LoopoptDiagnostic(f"constant of element type {elt or '?'} has no C form", op)

    def _cmp(self, op: Operation) -> None:
        assert isinstance(op, arith.CmpfOp | arith.CmpiOp)
        table = arith.CMPF_COMPARISON_OPERATIONS if isinstance(op, arith.CmpfOp) else arith.CMPI_COMPARISON_OPERATIONS
        pred = table[op.predicate.value.data]
        self._row(op, f"cmp.{pred}", op.lhs.type, a=self.e(op.lhs), b=self.e(op.rhs))

    def _arith_select(self, op: Operation) -> None:
        assert isinstance(op, arith.SelectOp)
        if isinstance(op.result.type, VectorType) and not isinstance(op.cond.type, VectorType):
            raise LoopoptDiagnostic("arith.select of vectors on a scalar condition: use a mask (simd.select)", op)
        self._row(op, "select", op.result.type, mask=self.e(op.cond), a=self.e(op.lhs), b=self.e(op.rhs))

    # ------------------------------------------------------------------ buffers

    def buffer(self, value: SSAValue, op: Operation) -> Buffer:
        try:
            return self.buffers[value]
        except KeyError:
            raise LoopoptDiagnostic("buffer is neither a kernel argument nor a loop.alloc", op) from None

    def _dim(self, op: Operation) -> None:
        assert isinstance(op, loop.DimOp)
        self.exprs[op.result] = self.buffer(op.buf, op).lengths[op.dim.value.data]

    def _alloc(self, op: Operation) -> None:
        assert isinstance(op, loop.AllocOp)
        t = op.result.type
        assert isinstance(t, loop.BufType)
        elt = scalar_key(t.element_type) or ""
        ct = BUFFER_C_TYPES[elt]
        name = self.name_of(op.result, "tmp")
        sizes = [self.e(s) for s in op.sizes]
        count = " * ".join(f"(size_t)({s})" for s in sizes)
        self.line(f"{ct} *restrict {name} = malloc({count} * sizeof({ct}) + 1);")
        self.buffers[op.result] = Buffer(name, sizes, elt)
        self.uses_alloc = True

    def _dealloc(self, op: Operation) -> None:
        assert isinstance(op, loop.DeallocOp)
        self.line(f"free({self.buffer(op.buf, op).ptr});")

    def index_expr(self, op: loop.LoadOp | loop.StoreOp, buf: Buffer) -> str:
        dims = [self._affine(a) for a in op.affine_indices]
        if len(dims) == 1:
            return dims[0]
        row, col = dims
        return f"{_paren(row)} * {buf.lengths[1]} + {_paren(col)}"

    def _affine(self, a: loop.Affine) -> str:
        coeffs, offset = a.normalized()
        text = ""
        for v, c in coeffs.items():
            term = self.e(v) if abs(c) == 1 else f"{abs(c)} * {_paren(self.e(v))}"
            text = (f"-{term}" if c < 0 else term) if not text else f"{text} {'-' if c < 0 else '+'} {term}"
        if offset or not text:
            text = str(offset) if not text else f"{text} {'-' if offset < 0 else '+'} {abs(offset)}"
        return text

    def _loop_load(self, op: Operation) -> None:
        assert isinstance(op, loop.LoadOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "load", op.result.type, buf=buf.ptr, idx=self.index_expr(op, buf))

    def _loop_store(self, op: Operation) -> None:
        assert isinstance(op, loop.StoreOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "store", op.value.type, buf=buf.ptr, idx=self.index_expr(op, buf), value=self.e(op.value))

    def _append(self, op: Operation) -> None:
        assert isinstance(op, loop.AppendOp)
        parent = op.parent_op()
        assert parent is not None
        buf = self.buffer(op.out, op)
        self._row(op, "store", op.value.type, buf=buf.ptr, idx=self.cursors[parent], value=self.e(op.value))

    # ------------------------------------------------------------------ loops

    def _check_width(self, op: loop.VecLoopOp | loop.PredLoopOp) -> None:
        width = op.width.concrete
        if width != 1:
            raise LoopoptDiagnostic(
                f"{op.name} of width {op.width.spelling} reaches the C printer: only width 1 prints as scalar C; "
                "run convert-loop-to-simd first",
                op,
            )

    def _header(self, op: loop.LoopLike) -> str:
        """The C `for` header of a loop; it never overflows and never hangs, for any int64
        bounds and step: `i < hi; i++` for a unit step (i stops at hi <= INT64_MAX), `i > hi;
        i--` for step -1, a counted loop for another constant step (the trip count is
        computed once in uint64_t; the variable steps in uint64_t and is converted back), and
        for a runtime step a clamped step (`i` moves to `hi` instead of past it; step 0 runs
        nothing)."""
        var = self.name_of(op.var, "i")
        lo, hi = self.e(op.lower), self.e(op.upper)
        if op.step is None:
            return f"for (int64_t {var} = {lo}; {var} < {hi}; {var}++)"
        step = self.e(op.step)
        owner = op.step.owner
        s = owner.value.value.data if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr) else None
        if s == 1:
            return f"for (int64_t {var} = {lo}; {var} < {hi}; {var}++)"
        if s == -1:
            return f"for (int64_t {var} = {lo}; {var} > {hi}; {var}--)"
        u = "(uint64_t)"
        if s is not None and s != 0:
            # left = trips - 1 <= (2**64 - 2) / 2 fits in int64_t; -1 when the range is empty
            left = self.fresh(f"{var}_left", "left")
            mag = f"{abs(s)}ull"
            if s > 0:
                nonempty, dist, move = f"({hi}) > {var}", f"{u}({hi}) - {u}{var}", "+"
            else:
                nonempty, dist, move = f"{var} > ({hi})", f"{u}{var} - {u}({hi})", "-"
            count = f"{nonempty} ? (int64_t)(({dist} - 1u) / {mag}) : -1"
            return (
                f"for (int64_t {var} = {lo}, {left} = {count}; {left} >= 0; "
                f"{left}--, {var} = (int64_t)({u}{var} {move} {mag}))"
            )
        # runtime step (or a constant 0): move i by step only while it stays before hi
        cond = f"({step}) > 0 ? {var} < ({hi}) : (({step}) < 0 && {var} > ({hi}))"
        room = (
            f"(({step}) > 0 ? {u}({hi}) - {u}{var} > {u}({step}) "
            f": {u}{var} - {u}({hi}) > 0ull - {u}({step}))"
        )
        return f"for (int64_t {var} = {lo}; {cond}; {var} = {room} ? (int64_t)({u}{var} + {u}({step})) : ({hi}))"

    def _start_accs(self, op: loop.LoopLike) -> list[str]:
        """Declare one C variable per accumulator (shared by the block argument and the result)."""
        names = []
        for acc in op.accumulators:
            hint = acc.result.name_hint or acc.arg.name_hint
            name = self.fresh(hint, "acc")
            self.line(f"{self.c_type(acc.arg.type, op)} {name} = {self.e(acc.init)};")
            self.exprs[acc.arg] = name
            self.exprs[acc.result] = name
            names.append(name)
        return names

    def _for(self, op: Operation) -> None:
        assert isinstance(op, loop.ForOp | loop.ZipOp | loop.VecLoopOp)
        if isinstance(op, loop.VecLoopOp):
            self._check_width(op)
        self._start_accs(op)
        outer_names = set(self.used_names)  # names declared in the loop go out of scope after it
        outer_suffix = dict(self.next_suffix)
        self.line(self._header(op) + " {")
        self.depth += 1
        if isinstance(op, loop.ZipOp):
            for arg, stream in zip(op.stream_args, op.streams):
                if arg.uses:
                    buf = self.buffer(stream, op)
                    self.line(f"{self.c_type(arg.type, op)} {self.name_of(arg, 'x')} = {buf.ptr}[{self.e(op.var)}];")
        self.block(op.body.block)
        self.depth -= 1
        self.line("}")
        self.used_names = outer_names
        self.next_suffix = outer_suffix

    def _predloop(self, op: Operation) -> None:
        assert isinstance(op, loop.PredLoopOp)
        self._check_width(op)
        count = self.name_of(op.count, "count")
        self.line(f"int64_t {count} = 0;")
        self.cursors[op] = count
        self._start_accs(op)
        outer_names = set(self.used_names)
        outer_suffix = dict(self.next_suffix)
        self.line(self._header(op) + " {")
        self.depth += 1
        self.exprs[op.pred_var] = self.e(op.var)
        self.block(op.pred.block, skip_terminator=True)
        pred_yield = op.pred_yield
        assert pred_yield is not None
        self.line(f"if ({self.e(pred_yield.values[0])}) {{")
        self.depth += 1
        self.block(op.body.block)
        self.line(f"{count}++;")
        self.depth -= 1
        self.line("}")
        self.depth -= 1
        self.line("}")
        self.used_names = outer_names
        self.next_suffix = outer_suffix

    def _yield(self, op: Operation) -> None:
        assert isinstance(op, loop.YieldOp)
        parent = op.parent_op()
        assert isinstance(parent, loop.LoopLike)
        targets = [self.e(a) for a in parent.acc_args]
        values = [self.e(v) for v in op.values]
        pairs = [(t, v) for t, v in zip(targets, values) if t != v]
        if len(pairs) > 1 and any(v in targets for _, v in pairs):
            temps = []
            for (t, v), acc in zip(pairs, parent.acc_args):
                tmp = self.fresh(f"{t}_next")
                self.line(f"{self.c_type(acc.type, op)} {tmp} = {v};")
                temps.append((t, tmp))
            pairs = temps
        for t, v in pairs:
            self.line(f"{t} = {v};")

    # ------------------------------------------------------------------ simd memory

    def _simd_load(self, op: Operation) -> None:
        assert isinstance(op, simd.LoadOp)
        buf = self.buffer(op.buf, op)
        key = "load_aligned" if op.aligned is not None else "load"
        self._row(op, key, op.result.type, buf=buf.ptr, idx=self.e(op.index))

    def _simd_store(self, op: Operation) -> None:
        assert isinstance(op, simd.StoreOp)
        buf = self.buffer(op.buf, op)
        aligned = op.aligned is not None
        key = "store_nt" if aligned and op.nontemporal is not None else "store_aligned" if aligned else "store"
        self._row(op, key, op.value.type, buf=buf.ptr, idx=self.e(op.index), value=self.e(op.value))

    def _simd_masked_load(self, op: Operation) -> None:
        assert isinstance(op, simd.MaskedLoadOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "masked_load", op.result.type, buf=buf.ptr, idx=self.e(op.index),
                  mask=self.e(op.mask), passthru=self.e(op.passthru))  # fmt: skip

    def _simd_masked_store(self, op: Operation) -> None:
        assert isinstance(op, simd.MaskedStoreOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "masked_store", op.value.type, buf=buf.ptr, idx=self.e(op.index),
                  mask=self.e(op.mask), value=self.e(op.value))  # fmt: skip

    def _simd_compress_store(self, op: Operation) -> None:
        assert isinstance(op, simd.CompressStoreOp)
        buf = self.buffer(op.buf, op)
        key = "compress_store_full" if op.full is not None else "compress_store"
        self._row(op, key, op.value.type, buf=buf.ptr, idx=self.e(op.offset),
                  mask=self.e(op.mask), value=self.e(op.value))  # fmt: skip

    def _simd_align_offset(self, op: Operation) -> None:
        assert isinstance(op, simd.AlignOffsetOp)
        buf = self.buffer(op.buf, op)
        t = op.buf.type
        assert isinstance(t, loop.BufType)
        self._row(op, "align_offset", t.element_type, buf=buf.ptr, idx=self.e(op.index),
                  align=str(op.alignment.value.data))  # fmt: skip

    def _simd_store_fence(self, op: Operation) -> None:
        """`_mm_sfence()` where the ISA has streaming stores; nothing where its "nontemporal"
        stores are ordinary ones (an empty row)."""
        template = self.isa.row("store_fence", "none")
        if template is None:
            raise LoopoptDiagnostic(f"{op.name} has no {self.isa.name} row: the {self.printer.target} target cannot print it", op)
        if template:
            self.line(template)

    def _simd_select(self, op: Operation) -> None:
        """A select whose other value is +0 is an AND with the mask (AVX-512: a zero-masking
        move), where the ISA has that row: the filtered sum's `acc + select(mask, x, 0)`."""
        assert isinstance(op, simd.SelectOp)
        if self._select_is_and(op):
            self._row(op, "select_zero", op.result.type, mask=self.e(op.mask), a=self.e(op.true_value))
            return
        self._row(op, "select", op.result.type, mask=self.e(op.mask), a=self.e(op.true_value), b=self.e(op.false_value))

    def _one_lane(self, t: Attribute) -> bool:
        """A `vector<1xT>` on the scalar target is just a `T`."""
        return self.isa.name == "scalar" and isinstance(t, VectorType) and t.get_shape()[0] == 1

    def _simd_broadcast(self, op: Operation) -> None:
        assert isinstance(op, simd.BroadcastOp)
        if self._one_lane(op.result.type):
            self.exprs[op.result] = self.e(op.scalar)  # the scalar itself, no copy
            return
        self._row(op, "broadcast", op.result.type, a=self.e(op.scalar))

    def _simd_hreduce(self, op: Operation) -> None:
        assert isinstance(op, simd.HReduceOp)
        if self._one_lane(op.value.type):
            self.exprs[op.result] = self.e(op.value)  # one lane: the lane itself
            return
        self._row(op, f"hreduce.{op.kind.data.value}", op.value.type, a=self.e(op.value))

    def _simd_convert(self, op: Operation) -> None:
        assert isinstance(op, simd.ConvertOp)
        src, res = op.value.type, op.result.type
        if src == res:
            self.exprs[op.result] = self.e(op.value)
            return
        _, to = self.row_key(res)
        self._row(op, f"convert.{to}", src, a=self.e(op.value))


_CONST_DIVISOR_KEYS = frozenset({"div", "rem", "divu", "remu"})
"""Divisions whose `<key>_const` row is C's operator, for a constant divisor other than 0 and -1."""


def _constant_divisor(value: SSAValue) -> bool:
    """`value` is a scalar integer constant other than 0 and -1: dividing by it cannot trap,
    overflow (MIN / -1) or need the defined x / 0 = 0, so C's `/` and `%` are exact."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or isinstance(value.type, VectorType):
        return False
    v, t = owner.value, value.type
    if not isinstance(v, IntegerAttr) or not isinstance(t, IntegerType | IndexType):
        return False
    bits = t.width.data if isinstance(t, IntegerType) else 64
    return int(v.value.data) % (1 << bits) not in (0, (1 << bits) - 1)  # 4294967295 : i32 is -1


def _written_buffer(op: Operation) -> SSAValue:
    if isinstance(op, loop.AppendOp):
        return op.out
    assert isinstance(op, loop.StoreOp | simd.StoreOp | simd.MaskedStoreOp | simd.CompressStoreOp)
    return op.buf


def _is_positive_zero(value: SSAValue) -> bool:
    """Every lane +0 (all bits clear): a splat of a 0 / +0.0 constant, or a zero dense constant."""
    owner = value.owner
    if isinstance(owner, simd.BroadcastOp):
        owner = owner.scalar.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    v = owner.value
    values = list(v.get_values()) if isinstance(v, DenseIntOrFPElementsAttr) else [v.value.data] if isinstance(v, IntegerAttr | FloatAttr) else []
    return bool(values) and all(x == 0 and math.copysign(1.0, x) > 0 for x in values)


def _elt(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def _paren(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z0-9_]+|\(.*\)", text) else f"({text})"


def print_module(module: ModuleOp, isa: IsaTable, target: str, pipeline: str | None = None) -> str:
    """The C11 source of `module` for `isa`."""
    return CPrinter(isa, target, pipeline).print_module(module)


