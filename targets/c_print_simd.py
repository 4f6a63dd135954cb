"""Printing `simd` ops: vector memory accesses, fences, and the lane operations with special cases.

Most simd ops are one table row (the lambdas in `FunctionPrinter`'s dispatch); these are the
ones whose row key depends on op properties (aligned, nontemporal, full) or that print as
less than a row: a one-lane vector on the scalar target is its scalar, and a select against +0
is an AND with the mask where the ISA has that row.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.targets.c_isa import ELEMENT_C_TYPES
from loopopt.targets.c_print_values import FunctionCore, is_a, scalar_key


class SimdStatements(FunctionCore):
    """The `simd` half of `FunctionPrinter`."""

    def _simd_load(self, op: Operation) -> None:
        assert isinstance(op, simd.LoadOp)
        buf = self.buffer(op.buf, op)
        key = "load_aligned" if op.aligned is not None else "load"
        table, elt = self.row_key(op.result.type)
        if op.halves is not None and table.row("load_halves", elt) is not None:
            key = "load_halves"  # two half-register loads where the ISA has them (else the one load)
        if op.quarters is not None and table.row("load_quarters", elt) is not None:
            key = "load_quarters"  # four quarter-register loads, likewise
        idx = self.e(op.index) if not self.half_offset else f"({self.e(op.index)}) + {self.half_offset}"
        self._row(op, key, op.result.type, buf=buf.ptr, idx=idx)

    def _simd_store(self, op: Operation) -> None:
        assert isinstance(op, simd.StoreOp)
        buf = self.buffer(op.buf, op)
        aligned = op.aligned is not None
        key = "store_nt" if aligned and op.nontemporal is not None else "store_aligned" if aligned else "store"
        idx = self.e(op.index) if not self.half_offset else f"({self.e(op.index)}) + {self.half_offset}"
        self._row(op, key, op.value.type, buf=buf.ptr, idx=idx, value=self.e(op.value))

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

    def _simd_gather(self, op: Operation) -> None:
        """The ISA's gather instruction (`gather.<index type>` row) unless the op is `lanewise`
        or the ISA has none; else scalar loads lane by lane (`gather_lanes.<index type>`, c_gather)."""
        assert isinstance(op, simd.GatherOp)
        buf = self.buffer(op.buf, op)
        table, elt = self.row_key(op.result.type)
        _, ie = self.row_key(op.indices.type)
        key = f"gather.{ie}"
        if op.lanewise is not None or table.row(key, elt) is None:
            key = f"gather_lanes.{ie}"
        self._row(op, key, op.result.type, buf=buf.ptr, idx=self.e(op.indices),
                  mask=self.e(op.mask), passthru=self.e(op.passthru))  # fmt: skip

    def _simd_compress_store(self, op: Operation) -> None:
        assert isinstance(op, simd.CompressStoreOp)
        buf = self.buffer(op.buf, op)
        key = "compress_store_full" if op.full is not None else "compress_store"
        table, elt = self.row_key(op.value.type)
        # the CPU compresses faster in a register (loop_to_simd/predloop.IN_REGISTER_ATTR): the
        # ISA's `_reg` rows, which exist for the full form only (a limited one spills through it)
        reg = "_reg" if "simd.compress_in_register" in op.attributes else ""
        fields = {"buf": buf.ptr, "idx": self.e(op.offset), "mask": self.e(op.mask), "value": self.e(op.value)}
        if op.limit is None and (op.full is not None or table.row(key, elt) is not None):
            self._row(op, key + reg if table.row(key + reg, elt) is not None else key, op.value.type, **fields)
        elif op.limit is None:  # exact, without an exact row: as a limit of the whole count
            self._spilled_compress_store(op, key + reg, fields)
        elif table.row(key.replace("compress_store", "compress_store_limit"), elt) is not None:
            self._row(op, key.replace("compress_store", "compress_store_limit"), op.value.type, limit=self.e(op.limit), **fields)
        else:
            self._spilled_compress_store(op, key + reg, fields)
        if not op.results[0].uses:  # a zipped filter's second store: its count is the first's
            self.line(f"(void){self.e(op.results[0])};")

    def _spilled_compress_store(self, op: simd.CompressStoreOp, key: str, fields: dict[str, str]) -> None:
        """A `limit`ed compress_store without a `compress_store_limit` row: the `full` row (a
        whole register) while the limit leaves a vector of room, as in the loop before the
        exact tail (one predictable branch); else the `full` row into a local spill of N lanes,
        of which the first min(count, limit) are copied, so nothing past the limit is written.
        An exact one (no limit: only hand-written simd IR, the lowering always says `full` or
        gives a limit) is the spill alone, its whole count copied."""
        assert isinstance(op.value.type, VectorType)
        table, elt = self.row_key(op.value.type)
        lanes = op.value.type.get_shape()[0]
        count, limit = self.name_of(op.results[0]), self.e(op.limit) if op.limit is not None else None
        c_type = ELEMENT_C_TYPES[scalar_key(op.value.type.element_type) or ""]
        fast = key.replace("compress_store", "compress_store_full")  # the register form (`_reg`) too
        template = table.row(fast, elt) or table.row(fast.removesuffix("_reg"), elt)
        if template is None:
            raise LoopoptDiagnostic(f"{op.name} has no {self.isa.name} compress row: the {self.printer.target} target cannot print it", op)
        self.line(f"int64_t {count};")
        if limit is not None:
            self.line(f"if ({limit} >= {lanes}) {{")
            self.depth += 1
            self.statements(template.format(**fields, dst=count, T=c_type))
            self.depth -= 1
            self.line("} else {")
        else:
            self.line("{")
        self.depth += 1
        spill, j = self.fresh("spill"), self.fresh("j")
        self.line(f"{c_type} {spill}[{lanes}];")
        self.statements(template.format(**{**fields, "buf": spill, "idx": "0"}, dst=count, T=c_type))
        bound = f"{j} < {count}" + (f" && {j} < {limit}" if limit is not None else "")
        self.line(f"for (int64_t {j} = 0; {bound}; {j}++) {fields['buf']}[({fields['idx']}) + {j}] = {spill}[{j}];")
        self.depth -= 1
        self.line("}")

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

    def _select_is_and(self, op: simd.SelectOp) -> bool:
        table, elt = self.row_key(op.result.type)
        return _is_positive_zero(op.false_value) and table.row("select_zero", elt) is not None

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
            self.exprs[id(op.result)] = self.e(op.scalar)  # the scalar itself, no copy
            return
        self._row(op, "broadcast", op.result.type, a=self.e(op.scalar))

    def _simd_hreduce(self, op: Operation) -> None:
        assert isinstance(op, simd.HReduceOp)
        if self._one_lane(op.value.type):
            self.exprs[id(op.result)] = self.e(op.value)  # one lane: the lane itself
            return
        self._row(op, f"hreduce.{op.kind.data.value}", op.value.type, a=self.e(op.value))

    def _lane_scan(self, op: Operation) -> None:
        """`loop.lane_scan` left in a scalar loop (a scan's tail, the scalar target) is one
        lane: the value itself. Vector loops lower it (loop_to_simd/scan.py) before C."""
        assert isinstance(op, loop.LaneScanOp)
        if isinstance(op.value.type, VectorType):
            raise LoopoptDiagnostic(f"{op.name} on a vector: run convert-loop-to-simd first", op)
        self.exprs[id(op.result)] = self.e(op.value)

    def _simd_convert(self, op: Operation) -> None:
        assert isinstance(op, simd.ConvertOp)
        src, res = op.value.type, op.result.type
        if src == res:
            self.exprs[id(op.result)] = self.e(op.value)
            return
        _, to = self.row_key(res)
        self._row(op, f"convert.{to}", src, a=self.e(op.value))


def _is_positive_zero(value: SSAValue) -> bool:
    """Every lane +0 (all bits clear): a splat of a 0 / +0.0 constant, or a zero dense constant."""
    owner = value.owner
    if is_a(owner, simd.BroadcastOp):
        owner = owner.scalar.owner
    if not is_a(owner, arith.ConstantOp):
        return False
    v = owner.value
    values = list(v.get_values()) if isinstance(v, DenseIntOrFPElementsAttr) else [v.value.data] if isinstance(v, IntegerAttr | FloatAttr) else []
    return bool(values) and all(x == 0 and math.copysign(1.0, x) > 0 for x in values)


