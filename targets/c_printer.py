"""The C printer core: a module of kernels (Loop IR + simd + arith/math) to one C11 file.

One `FunctionPrinter` per `func.func`; one method per structural op (functions, loops,
buffers, accesses); every value-computing op goes through a table row (`IsaTable.rows`, see
c_isa), the scalar table when its operands are scalars and the ISA's when they are vectors.
Any op without a method or a row is a `LoopoptDiagnostic` at the op's location: the printer
never guesses. Helpers the rows call (`lo_*`) are emitted once, before the kernels.

Values become C expressions: constants and lengths inline (`3`, `x_len`), everything else a
`const`-free local named after the IR's name hint (`%sum` -> `sum`). Unused pure ops are not
printed (a C warning would fail -Werror builds); unused parameters get `(void)p;`.

Here: the file (header, includes, helpers) and the function frame (signature, parameters,
returns, which ops are live, dispatch). Statements by dialect: c_print_loops (buffers and
loops), c_print_simd, c_print_arith (arith/math, constants); what they share (names, C types,
literals, `_row`) is c_print_values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.lowering.abi import KERNEL as KERNEL_ATTR
from loopopt.lowering.abi import verify_kernel_abi
from loopopt.names import c_comment_text, check_c_name
from loopopt.targets import c_ops
from loopopt.targets.c_helpers import Helper, all_helpers, required_helpers
from loopopt.targets.c_isa import BUFFER_C_TYPES, IsaTable
from loopopt.targets.c_print_arith import FOLDABLE_CLASSES, ArithStatements, folded_value
from loopopt.targets.c_print_loops import ALLOC_HELPER, IN_REGISTER, LoopStatements
from loopopt.targets.c_print_simd import SimdStatements
from loopopt.targets.c_small_calls import LARGE_SUFFIX, NOINLINE, SmallCallVersions
from loopopt.targets.c_print_values import Buffer, float_literal, int_literal, is_a, scalar_key

__all__ = ["CPrinter", "FunctionPrinter", "Kernel", "float_literal", "int_literal", "print_module"]

CALL_DIM_PARAM = "loopopt_call_len"
"""The C parameter a `loop.call_dim` reads: the whole call's length, which a parallel kernel's
driver passes to its chunk last (targets/c_parallel.py). The `loopopt` prefix is reserved for
generated code (user names get `v_`), and its only other names are global runtime symbols."""

WRITERS = (loop.StoreOp, loop.AppendOp, simd.StoreOp, simd.MaskedStoreOp, simd.CompressStoreOp)


@dataclass
class Kernel:
    """The C view of a `func.func`: its parameters in ABI order."""

    name: str
    params: list[str] = field(default_factory=list)
    """C parameter declarations."""
    param_names: list[str] = field(default_factory=list)
    returns: str = "void"
    ret_ptrs: list[str] = field(default_factory=list)


class CPrinter:
    """Prints a whole module for one ISA."""

    def __init__(self, isa: IsaTable, target: str, pipeline: str | None = None):
        self.isa = isa
        self.target = target
        self.pipeline = pipeline
        self.helpers = _helpers_of(isa) | {h.name: h for h in (ALLOC_HELPER, IN_REGISTER, NOINLINE)}
        self.symbols: set[str] = set()
        self.row_forms: dict[tuple[str, int, int], tuple[Attribute, Attribute | None, IsaTable, str, str, str]] = {}
        """`FunctionCore._row_form`'s answers, for all the module's functions."""

    def print_module(self, module: ModuleOp) -> str:
        return self.assemble(*self.print_functions(module))

    def print_functions(
        self, module: ModuleOp, only: Container[str] | None = None, symbols: Iterable[str] = ()
    ) -> tuple[str, bool]:
        """The C of `module`'s functions (those named in `only`, all by default) and whether it
        allocates (needs stdlib.h). `symbols`: the file's other function names (a `--jobs`
        worker holds a share of the module, loopopt/compile_jobs.py; c_small_calls checks
        names against the whole file's)."""
        functions: list[str] = []
        needs_stdlib = False
        self.symbols = set(symbols)
        for op in module.ops:
            if not isinstance(op, func.FuncOp):
                raise LoopoptDiagnostic(f"the C printer prints func.func kernels, found {op.name} at module level", op)
            self.symbols.add(check_c_name(op.sym_name.data, "function name", op))
        for op in module.ops:
            assert isinstance(op, func.FuncOp)
            if op.is_declaration or (only is not None and op.sym_name.data not in only):
                continue
            fp = FunctionPrinter(self, op)  # (raises nothing the ABI check would raise first)
            if KERNEL_ATTR in op.attributes:
                verify_kernel_abi(op, fp.written)  # the same writers (WRITERS): one walk less
            functions.append(fp.print())
            needs_stdlib |= fp.uses_alloc
        return "\n".join(functions), needs_stdlib

    def assemble(self, code: str, needs_stdlib: bool) -> str:
        """The C file of the functions' `code`: header, includes, the helpers it calls, `code`."""
        helpers = required_helpers(self.isa, code, self.helpers)
        header = [
            "/* Generated by loopopt: do not edit.",
            f" * target: {c_comment_text(self.target)} ({c_comment_text(self._flags())})",
            f" * pipeline: {c_comment_text(self.pipeline or 'none recorded')}",
            " */",
        ]
        includes = ["stddef.h", "stdint.h", "math.h"] + (["stdlib.h", "errno.h"] if needs_stdlib else []) + list(self.isa.includes)
        parts = ["\n".join(header), "".join(f"{p}\n" for p in self.isa.pragmas) + "".join(f"#include <{h}>\n" for h in includes)]
        if helpers:
            parts.append("\n".join(h.code for h in helpers))
        parts.append(code)
        if self.isa.pragmas_end:
            parts.append("".join(f"{p}\n" for p in self.isa.pragmas_end))
        return "\n".join(parts)

    def _flags(self) -> str:
        if self.isa.name == "scalar":
            return "portable C"
        return " ".join(self.isa.cflags) or "baseline ISA, no flags"


class FunctionPrinter(LoopStatements, SimdStatements, ArithStatements, SmallCallVersions):
    """Prints one `func.func` as a C function: the frame (signature, parameters, return) and the
    walk over its blocks; each op goes to its statement printer through `dispatch`."""

    def __init__(self, printer: CPrinter, op: func.FuncOp):
        self.printer = printer
        self.isa = printer.isa
        self.op = op
        self.exprs = {}
        self.buffers = {}
        self.symbols = printer.symbols
        self.used_names = set()
        self.next_suffix = {}
        self.lines = []
        self.depth = 1
        self.cursors = {}
        self.in_place = {}
        self.append_guards = {}
        self.row_keys = {}
        self.c_types = {}
        self.row_forms = printer.row_forms  # (shared: the lowering shares its type objects)
        self.binary_forms = {}
        self.reads: dict[int, tuple[Operation, Sequence[SSAValue]]] = {}
        """The printed operands of the ops that may print fewer than their operands (`_READS_SOME`),
        by op id (the op kept: its id is not reused)."""
        self.live: set[int] | None = None
        self.uses_alloc = False
        self.live_allocs = []
        self.kernel = Kernel(check_c_name(op.sym_name.data, "function name", op))
        self.ops = _preorder(op)
        """The function's ops in pre-order (the function first): the one walk its printing reads."""
        self.written: set[SSAValue] = set()
        self.call_dims: list[Operation] = []
        """The function's `loop.call_dim` ops (a parameter of their own)."""
        class_flags = _CLASS_FLAGS
        for o in self.ops:  # (one pass, the class's bits looked up inline)
            flags = class_flags.get(type(o))
            if flags is None:
                flags = _flags(o)
            if flags & (_WRITER | _CALL_DIM):
                if flags & _WRITER:
                    self.written.add(_written_buffer(o))
                if flags & _CALL_DIM:
                    self.call_dims.append(o)
        self.dispatch: dict[type[Operation], Callable[[Operation], None]] = {
            func.ReturnOp: self._return,
            arith.ConstantOp: self._constant,
            arith.SelectOp: self._arith_select,
            arith.CmpfOp: self._cmp,
            arith.CmpiOp: self._cmp,
            loop.DimOp: self._dim,
            loop.CallDimOp: lambda o: None,  # a parameter (print), inline like a length
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
            simd.GatherOp: self._simd_gather,
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
            simd.SlideUpOp: lambda o: self._row(
                o, f"slide_up.{o.by.value.data}", o.result.type, a=self.e(o.value), b=self.e(o.fill)
            ),
            simd.SlideUpDupOp: lambda o: self._row(o, f"slide_up_dup.{o.by.value.data}", o.result.type, a=self.e(o.value)),
            simd.SplatLastOp: lambda o: self._row(o, "splat_last", o.result.type, a=self.e(o.value)),
            simd.FirstLaneOp: lambda o: self._row(o, "first_lane", o.value.type, a=self.e(o.value)),
            loop.LaneScanOp: self._lane_scan,
            simd.MaskPopcountOp: lambda o: self._row(o, "popcount", o.mask.type, a=self.e(o.mask)),
            simd.WidenAddOp: lambda o: self._row(  # widen_addu.i64 / widen_adds.i32 of i8 / i16 lanes (c_narrow)
                o, f"widen_add{'s' if o.signed is not None else 'u'}.{scalar_key(o.acc.type.element_type)}",
                o.value.type, a=self.e(o.acc), b=self.e(o.value),
            ),
        }

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
        calls = self.call_dims
        if calls:  # the whole call's length: the driver passes it to the chunk (c_parallel)
            self.used_names.add(CALL_DIM_PARAM)
            self.kernel.params.append(f"int64_t {CALL_DIM_PARAM}")
            self.kernel.param_names.append(CALL_DIM_PARAM)
            for o in calls:
                self.exprs[id(o.result)] = CALL_DIM_PARAM
        self.function_body(op.body.block)  # c_small_calls: versioned when the lowering tests the size
        body = "\n".join(self.lines)
        prologue = self._unused_params(body)
        private = op.sym_visibility is not None and op.sym_visibility.data == "private"
        static = "static " if private and "loop.kernel" not in op.attributes else ""
        params = ", ".join(self.kernel.params) or "void"
        code = f"{static}{self.kernel.returns} {self.kernel.name}({params})\n{{\n{prologue}{body}\n}}\n"
        if self.large_body is None:
            return code
        # c_small_calls: the large arm's copy, declared before the kernel and defined after it
        large = f"static {NOINLINE.name} {self.kernel.returns} {self.kernel.name}{LARGE_SUFFIX}({params})"
        large_body = "\n".join(self.large_body)
        return f"{large};\n\n{code}\n{large}\n{{\n{self._unused_params(large_body)}{large_body}\n}}\n"

    def _unused_params(self, body: str) -> str:
        """`(void)p;` for each parameter `body` does not mention (no -Wunused-parameter)."""
        return "".join(f"    (void){p};\n" for p in self.kernel.param_names if not _mentions(body, p))

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
            self.exprs[id(arg)] = ptr
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
        o = block._first_op
        while o is not None:  # (block.ops: a Python iterator call per op)
            if id(o) in live and not (skip_terminator and o._next_op is None and isinstance(o, loop.YieldOp)):
                self.op_(o)
            o = o._next_op

    def _live_ops(self, block: Block) -> set[int]:
        """The ids of the ops worth printing, in `block` or any other block of the function
        (`_function_live`, computed once)."""
        if self.live is None:
            self.live = self._function_live()
        return self.live

    def _function_live(self) -> set[int]:
        """The ids of the function's ops worth printing: those with effects or regions, and what
        they (transitively) use. An op of block B is used when a result is a printed operand of a
        live op of B or of any op nested in an op of B (printed or not: such an op has regions, so
        it is live, and its whole body's reads count, as they did when each block was asked on
        its own). One backward pass over the function's pre-order walk, where every reader comes
        before what it reads; ids, not ops and values (their hash is a Python call). Each op's
        printed operands are kept where they may be fewer than its operands (`_printed`)."""
        live: set[int] = set()
        used: set[int] = set()
        reads = self.reads
        ops = self.ops
        class_flags = _CLASS_FLAGS
        for k in range(len(ops) - 1, 0, -1):  # ops[0] is the function
            o = ops[k]
            flags = class_flags.get(type(o))
            if flags is None:
                flags = _flags(o)
            if flags & _READS_SOME:
                read = self._printed_operands(o)
                reads[id(o)] = (o, read)
            else:
                read = o._operands
            results = o.results
            alive = flags & _LIVE_ANYWAY or not results or o.regions
            if not alive:
                for r in results:
                    if id(r) in used:
                        alive = True
                        break
            if alive:
                live.add(id(o))
                used.update(map(id, read))
                continue
            block = o.parent  # unprinted: its reads count for the blocks around its own
            used.update(id(v) for v in read if (v.owner if isinstance(v.owner, Block) else v.owner.parent) is not block)
        return live

    def _printed(self, op: Operation) -> Sequence[SSAValue]:
        """`_printed_operands(op)` as `_function_live` found it."""
        known = self.reads.get(id(op))
        return known[1] if known is not None and known[0] is op else op._operands

    def _read_by(self, value: SSAValue, readers: set[int]) -> bool:
        """Whether `value` is a printed operand of an op of the function's block whose id is in
        `readers` or of an op nested in one (found from its uses: no walk)."""
        top = self.op.body.block
        for use in value.uses:
            user = ancestor = use.operation
            while ancestor is not None and ancestor.parent is not top:
                ancestor = ancestor.parent_op()
            if ancestor is None:  # a user outside the function (built, never inserted): not printed
                continue
            if id(ancestor) in readers and any(v is value for v in self._printed(user)):
                return True
        return False

    def _printed_operands(self, op: Operation) -> tuple[SSAValue, ...]:
        """The operands whose C expression `op`'s printing reads: not the +0 of a select printed
        as an AND nor the all-true side of a `not`, so their splats are not printed unused
        (-Werror=unused-variable)."""
        flags = _flags(op)
        if flags & _SELECT and self._select_is_and(op):
            return (op.mask, op.true_value)
        if flags & _XOR:
            a, b = op._operands
            if self._is_all_true(b):
                return (a,)
            if self._is_all_true(a):
                return (b,)
        if flags & _FOLDS:
            folded = folded_value(op)  # printed as one operand or a literal
            if folded is not None:
                return () if isinstance(folded, str) else (folded,)
        read = self.arith_operands_read(op) if flags & _BINARY else None  # a constant divisor / shift amount inside the row
        return read if read is not None else op._operands

    def op_(self, op: Operation) -> None:
        handler = self.dispatch.get(type(op))
        if handler is not None:
            handler(op)
            return
        if self._arith(op):
            return
        raise LoopoptDiagnostic(f"the C printer cannot print {op.name} (no rule for this op)", op)


_WRITER, _LIVE_ANYWAY, _CALL_DIM, _SELECT, _XOR, _FOLDS, _BINARY = (1 << k for k in range(7))
_READS_SOME = _SELECT | _XOR | _FOLDS | _BINARY
"""What the printer asks of an op's class (bits of `_flags`): a writer (WRITERS), printed whatever
its uses (a writer, `loop.alloc`), `loop.call_dim`, and the classes whose printed operands may
be fewer than their operands (`_printed_operands`: a select, an xori, a foldable min/max/cmpi
(`folded_value`), a binary op (`arith_operands_read`)); any other op's are all its operands."""
_CLASS_FLAGS: dict[type, int] = {}


def _flags(op: Operation) -> int:
    """The `_WRITER` ... `_BINARY` bits of `op`'s class, computed once per class (each test goes
    through ABCMeta)."""
    cls = type(op)
    known = _CLASS_FLAGS.get(cls)
    if known is None:
        tests = ((_WRITER, WRITERS), (_LIVE_ANYWAY, (*WRITERS, loop.AllocOp)), (_CALL_DIM, (loop.CallDimOp,)),
                 (_SELECT, (simd.SelectOp,)), (_XOR, (arith.XOrIOp,)), (_FOLDS, FOLDABLE_CLASSES))  # fmt: skip
        known = sum(bit for bit, classes in tests if issubclass(cls, classes)) | (_BINARY if cls in c_ops.BINARY else 0)
        _CLASS_FLAGS[cls] = known
    return known


_WORD = re.compile(r"\w+")
_WORD_CHAR = re.compile(r"\w")


def _mentions(text: str, name: str) -> bool:
    r"""Whether `name` occurs in `text` as a whole word (`\bname\b`). For a name of word
    characters (a C identifier) through `name\b`, whose literal prefix `re` searches fast
    (`\bname\b` steps through every character: ~70x slower on a 1 MB file), dropping candidates
    preceded by a word character: such a candidate spans word characters only, so no whole-word
    occurrence begins inside it."""
    if not _WORD.fullmatch(name):
        return re.search(rf"\b{re.escape(name)}\b", text) is not None
    for m in re.finditer(rf"{re.escape(name)}\b", text):
        start = m.start()
        if not start or not _WORD_CHAR.match(text, start - 1):
            return True
    return False


def _preorder(op: Operation) -> list[Operation]:
    """`list(op.walk())`, collected without a generator per op with regions nor a Python
    iterator call per op of a block (a class with a walk of its own gets its own walk)."""
    out = [op]
    default_walk = Operation.walk
    for region in op.regions:
        for block in region.blocks:
            child = block._first_op
            while child is not None:
                if type(child).walk is not default_walk:
                    out += child.walk()
                elif child.regions:
                    out += _preorder(child)
                else:
                    out.append(child)
                child = child._next_op
    return out


_HELPERS: dict[int, tuple[IsaTable, dict[str, Helper]]] = {}
"""`all_helpers` per ISA table (the table kept, so that its id is not reused): a few ms per
module for avx2's 315 helpers, the same for every module of the same table."""


def _helpers_of(isa: IsaTable) -> dict[str, Helper]:
    known = _HELPERS.get(id(isa))
    if known is None or known[0] is not isa:
        if len(_HELPERS) >= 64:  # (tables with CPU features are built per module)
            _HELPERS.clear()
        known = _HELPERS[id(isa)] = (isa, all_helpers(isa))
    return known[1]


def _written_buffer(op: Operation) -> SSAValue:
    if is_a(op, loop.AppendOp):
        return op.out
    assert isinstance(op, loop.StoreOp | simd.StoreOp | simd.MaskedStoreOp | simd.CompressStoreOp)
    return op.buf


def print_module(module: ModuleOp, isa: IsaTable, target: str, pipeline: str | None = None) -> str:
    """The C11 source of `module` for `isa`."""
    return CPrinter(isa, target, pipeline).print_module(module)


