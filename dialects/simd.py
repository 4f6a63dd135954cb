"""`simd`: the target vector dialect, at concrete widths.

`convert-loop-to-simd{target=...}` turns lane-wise `loop.vecloop` / `loop.predloop` bodies
into these ops; the C printer maps each (op, element type, ISA) to an intrinsic. Values are
builtin `vector<NxT>` (T in f32 f64 i32 i64, N a power of two, at most 512 bits) and masks
are `vector<Nxi1>`; plain elementwise arithmetic stays `arith` / `math` on vector types.
Memory is a `!loop.buf<T>` addressed by an `index` element offset: a rank-1 buffer, or a
rank-2 one read as its contiguous row-major elements (row `r`, column `c` is offset `r * cols + c`).

Semantics are per lane; `loopopt.interp.simd` runs them on numpy arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import auto
from typing import ClassVar

from typing_extensions import TypeVar

from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.irdl.constraints import VerificationContext
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from loopopt.dialects.loop_attrs import BufType
from loopopt.dialects.reduction_kind import ReductionKind, ReductionKindSyntax
from loopopt.dialects.simd_targets import TARGETS, TargetInfo, element_bits, get_target

__all__ = ["TARGETS", "TargetInfo", "get_target", "Simd"]

# --------------------------------------------------------------------------- types

MAX_VECTOR_BITS = 512
LANE_COUNTS = (1, 2, 4, 8, 16, 32, 64)  # 32 and 64: i8/i16 lanes


def _element_class(t: Attribute) -> str | None:
    """'float', 'int' or 'mask' for a simd element type, None for anything else (f16, bf16: storage
    lanes, loaded, stored and converted to f32)."""
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return "float"
    if isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64):
        return "int"
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "mask"
    return None


@dataclass(frozen=True)
class SimdVectorConstraint(AttrConstraint):
    """A rank-1 `vector<NxT>` that fits a SIMD register: N in 1..16 a power of two,
    N * bits(T) <= 512, T of one of the allowed classes ('float', 'int', 'mask')."""

    classes: frozenset[str]

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        allowed = " or ".join(sorted(self.classes))
        if not isinstance(attr, VectorType) or attr.get_num_dims() != 1 or attr.get_num_scalable_dims():
            raise VerifyException(f"expected a rank-1 vector of {allowed} lanes, got {attr}")
        elem_class = _element_class(attr.element_type)
        if elem_class not in self.classes:
            raise VerifyException(f"expected a vector of {allowed} lanes, got {attr}")
        lanes = attr.get_shape()[0]
        if lanes not in LANE_COUNTS:
            raise VerifyException(f"{attr}: lanes {lanes} is not one of {LANE_COUNTS}")
        bits = lanes * (1 if elem_class == "mask" else element_bits(attr.element_type))
        if bits > MAX_VECTOR_BITS:
            raise VerifyException(f"{attr}: {bits} bits > {MAX_VECTOR_BITS}-bit registers")

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> SimdVectorConstraint:
        return self


DataVector = SimdVectorConstraint(frozenset({"float", "int"}))
FloatVector = SimdVectorConstraint(frozenset({"float"}))
IntVector = SimdVectorConstraint(frozenset({"int"}))
MaskVector = SimdVectorConstraint(frozenset({"mask"}))


def lanes(t: Attribute) -> int:
    """Lane count of a (verified) simd vector or mask type."""
    assert isinstance(t, VectorType)
    return t.get_shape()[0]


_MASK_TYPES: dict[int, VectorType] = {}


def _mask_type(n: int) -> VectorType:
    """`vector<n x i1>`, built once per lane count (a VectorType costs ~0.1 ms to build)."""
    mt = _MASK_TYPES.get(n)
    if mt is None:
        mt = _MASK_TYPES[n] = VectorType(IntegerType(1), [n])
    return mt


def _check_buffer(buf: SSAValue, vector_type: Attribute, what: str = "vector") -> None:
    """A buffer whose element type is the vector's (rank 2 is addressed row-major, flat)."""
    buf_type = buf.type
    assert isinstance(buf_type, BufType) and isinstance(vector_type, VectorType)
    if buf_type.element_type != vector_type.element_type:
        raise VerifyException(
            f"buffer element type {buf_type.element_type} != {what} element type "
            f"{vector_type.element_type}"
        )


def _check_mask(mask: SSAValue, vector_type: Attribute) -> None:
    """Mask width equals the vector width."""
    if lanes(mask.type) != lanes(vector_type):
        raise VerifyException(f"mask lanes {lanes(mask.type)} != vector width {lanes(vector_type)}")


# --------------------------------------------------------------------------- kinds


class CmpPredicate(StrEnum):
    """Lane comparison predicates: IEEE ordered / unordered for floats; eq ne, signed (s*)
    and unsigned (`ult ule ugt uge`, which read the lanes' bits unsigned) for integers."""

    OEQ = auto()
    ONE = auto()
    OLT = auto()
    OLE = auto()
    OGT = auto()
    OGE = auto()
    ORD = auto()
    UEQ = auto()
    UNE = auto()
    ULT = auto()
    ULE = auto()
    UGT = auto()
    UGE = auto()
    UNO = auto()
    EQ = auto()
    NE = auto()
    SLT = auto()
    SLE = auto()
    SGT = auto()
    SGE = auto()


FLOAT_PREDICATES = frozenset(p for p in CmpPredicate if p.value[0] in "ou")
"""Ordered predicates are false when a lane is NaN, unordered ones are true."""
INT_PREDICATES = (frozenset(CmpPredicate) - FLOAT_PREDICATES) | {
    CmpPredicate.ULT, CmpPredicate.ULE, CmpPredicate.UGT, CmpPredicate.UGE,
}
"""eq ne slt sle sgt sge, and ult ule ugt uge: on integer lanes the `u` predicates compare
unsigned (arith.cmpi's meaning), on float lanes they are the unordered IEEE predicates."""


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate]):
    """`<olt>`: the comparison of a `simd.cmp`."""

    name = "simd.cmp_predicate"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> CmpPredicate:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)


ReduceKind = ReductionKind
"""The kinds of `simd.hreduce`: the shared reduction kinds less `custom`."""


@irdl_attr_definition
class ReduceKindAttr(ReductionKindSyntax, EnumAttribute[ReductionKind]):
    """`<add>`: the combining operation of a `simd.hreduce` (and/or on integers only)."""

    name = "simd.reduce_kind"
    kinds = tuple(k for k in ReductionKind if k.is_builtin)


# --------------------------------------------------------------------------- memory


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`simd.load %b[%i] : !loop.buf<f32> -> vector<8xf32>`: lane k = b[i + k].

    Every lane must be in bounds. Unaligned by default (`_mm256_loadu_ps`, `vld1q_f32`);
    `aligned` promises that &b[i] is a multiple of the vector size in bytes
    (`_mm256_load_ps`, which faults otherwise). `halves` asks for two loads of half the
    register each (same lanes; a speed hint, see CpuModel.half_load_bytes), `quarters` for four
    of a quarter (CpuModel.quarter_load_bytes); ISAs without that form print the one load."""

    name = "simd.load"

    buf = operand_def(BufType)
    index = operand_def(IndexType)
    result = result_def(DataVector)
    aligned = opt_prop_def(UnitAttr)
    """Present when the address is aligned to the vector size."""
    halves = opt_prop_def(UnitAttr)
    """Present when the vector is to be loaded as two half-register loads."""
    quarters = opt_prop_def(UnitAttr)
    """Present when the vector is to be loaded as four quarter-register loads."""

    traits = traits_def(MemoryReadEffect())

    assembly_format = (
        "$buf `[` $index `]` (`aligned` $aligned^)? (`halves` $halves^)? (`quarters` $quarters^)? attr-dict `:` type($buf) `->` type($result)"
    )

    def __init__(self, buf: SSAValue | Operation, index: SSAValue | Operation,
                 result_type: VectorType, aligned: bool = False, halves: bool = False, quarters: bool = False):
        props = {"aligned": UnitAttr()} if aligned else {}
        if halves:
            props["halves"] = UnitAttr()
        if quarters:
            props["quarters"] = UnitAttr()
        super().__init__(operands=[buf, index], result_types=[result_type], properties=props)

    def verify_(self) -> None:
        _check_buffer(self.buf, self.result.type)
        if self.halves is not None and self.quarters is not None:
            raise VerifyException("simd.load: halves and quarters exclude each other")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`simd.store %v, %b[%i] : vector<8xf32>, !loop.buf<f32>`: b[i + k] = lane k.

    Every lane must be in bounds. `aligned` as for `simd.load`; `nontemporal` streams the
    store past the caches (`_mm256_stream_ps`) for outputs larger than the last-level
    cache. Streaming stores need an aligned address, so `nontemporal` requires `aligned`;
    NEON and the scalar target print an ordinary store."""

    name = "simd.store"

    value = operand_def(DataVector)
    buf = operand_def(BufType)
    index = operand_def(IndexType)
    aligned = opt_prop_def(UnitAttr)
    """Present when the address is aligned to the vector size."""
    nontemporal = opt_prop_def(UnitAttr)
    """Present for a streaming (cache-bypassing) store."""

    traits = traits_def(MemoryWriteEffect())

    assembly_format = (
        "$value `,` $buf `[` $index `]` (`aligned` $aligned^)? (`nontemporal` $nontemporal^)? "
        "attr-dict `:` type($value) `,` type($buf)"
    )

    def __init__(self, value: SSAValue | Operation, buf: SSAValue | Operation,
                 index: SSAValue | Operation, aligned: bool = False, nontemporal: bool = False):
        properties: dict[str, Attribute] = {}
        if aligned:
            properties["aligned"] = UnitAttr()
        if nontemporal:
            properties["nontemporal"] = UnitAttr()
        super().__init__(operands=[value, buf, index], properties=properties)

    def verify_(self) -> None:
        _check_buffer(self.buf, self.value.type)
        if self.nontemporal is not None and self.aligned is None:
            raise VerifyException("a nontemporal store requires 'aligned' (streaming stores fault on unaligned addresses)")


@irdl_op_definition
class MaskedLoadOp(IRDLOperation):
    """`simd.masked_load %b[%i], %m, %pass : !loop.buf<f32>, vector<8xi1> -> vector<8xf32>`:
    lane k = m[k] ? b[i + k] : pass[k].

    Inactive lanes are not read, so they may lie past the end of the buffer (the safe way to
    load an array's tail). AVX2 `_mm256_maskload_ps` + blend, AVX-512 `_mm512_mask_loadu_ps`;
    SSE2, NEON and scalar C load the active lanes one by one."""

    name = "simd.masked_load"

    T: ClassVar = VarConstraint("T", DataVector)

    buf = operand_def(BufType)
    index = operand_def(IndexType)
    mask = operand_def(MaskVector)
    passthru = operand_def(T)
    result = result_def(T)

    traits = traits_def(MemoryReadEffect())

    assembly_format = (
        "$buf `[` $index `]` `,` $mask `,` $passthru attr-dict "
        "`:` type($buf) `,` type($mask) `->` type($result)"
    )

    def __init__(self, buf: SSAValue | Operation, index: SSAValue | Operation,
                 mask: SSAValue | Operation, passthru: SSAValue | Operation):
        passthru = SSAValue.get(passthru)
        super().__init__(operands=[buf, index, mask, passthru], result_types=[passthru.type])

    def verify_(self) -> None:
        _check_buffer(self.buf, self.result.type)
        _check_mask(self.mask, self.result.type)


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`simd.gather %b[%idx], %m, %pass : !loop.buf<f32>, vector<8xi32>, vector<8xi1> -> vector<8xf32>`:
    lane k = m[k] ? b[idx[k]] : pass[k].

    Inactive lanes are not read (a bounds-checked gather turns off the lanes whose index is
    out of range). `idx` has the result's lane count and i32 or i64 lanes, read signed.
    `lanewise` loads the active lanes one by one with scalar loads instead of the ISA's gather
    instruction (AVX2 `_mm256_mask_i32gather_ps`, AVX-512 `_mm512_mask_i32gather_ps`): the
    CPU model's choice (lowering/loop_to_simd/gather.py); SSE2, NEON and scalar C always go
    lane by lane."""

    name = "simd.gather"

    T: ClassVar = VarConstraint("T", DataVector)

    buf = operand_def(BufType)
    indices = operand_def(IntVector)
    mask = operand_def(MaskVector)
    passthru = operand_def(T)
    result = result_def(T)
    lanewise = opt_prop_def(UnitAttr)
    """Scalar loads lane by lane instead of the gather instruction (the printer's choice of row)."""

    traits = traits_def(MemoryReadEffect())

    assembly_format = (
        "$buf `[` $indices `]` `,` $mask `,` $passthru (`lanewise` $lanewise^)? attr-dict "
        "`:` type($buf) `,` type($indices) `,` type($mask) `->` type($result)"
    )

    def __init__(self, buf: SSAValue | Operation, indices: SSAValue | Operation,
                 mask: SSAValue | Operation, passthru: SSAValue | Operation, lanewise: bool = False):
        passthru = SSAValue.get(passthru)
        props = {"lanewise": UnitAttr()} if lanewise else {}
        super().__init__(operands=[buf, indices, mask, passthru], result_types=[passthru.type], properties=props)

    def verify_(self) -> None:
        _check_buffer(self.buf, self.result.type)
        _check_mask(self.mask, self.result.type)
        if lanes(self.indices.type) != lanes(self.result.type):
            raise VerifyException(
                f"index lanes {lanes(self.indices.type)} != vector width {lanes(self.result.type)}"
            )
        buf_type = self.buf.type
        assert isinstance(buf_type, BufType)
        if buf_type.rank.data != 1:
            raise VerifyException(f"simd.gather reads a rank-1 buffer, found rank {buf_type.rank.data}")


@irdl_op_definition
class MaskedStoreOp(IRDLOperation):
    """`simd.masked_store %v, %b[%i], %m : vector<8xf32>, !loop.buf<f32>, vector<8xi1>`:
    b[i + k] = lane k where m[k].

    Inactive lanes are neither read nor written (they may lie past the end of the buffer).
    AVX2 `_mm256_maskstore_ps`, AVX-512 `_mm512_mask_storeu_ps`; elsewhere lane by lane."""

    name = "simd.masked_store"

    value = operand_def(DataVector)
    buf = operand_def(BufType)
    index = operand_def(IndexType)
    mask = operand_def(MaskVector)

    traits = traits_def(MemoryWriteEffect())

    assembly_format = (
        "$value `,` $buf `[` $index `]` `,` $mask attr-dict "
        "`:` type($value) `,` type($buf) `,` type($mask)"
    )

    def __init__(self, value: SSAValue | Operation, buf: SSAValue | Operation,
                 index: SSAValue | Operation, mask: SSAValue | Operation):
        super().__init__(operands=[value, buf, index, mask])

    def verify_(self) -> None:
        _check_buffer(self.buf, self.value.type)
        _check_mask(self.mask, self.value.type)


@irdl_op_definition
class CompressStoreOp(IRDLOperation):
    """`%n = simd.compress_store %v, %m, %b[%off] : vector<8xf32>, vector<8xi1>, !loop.buf<f32>`:
    the active lanes of v, in lane order, go to b[off], b[off + 1], ...; returns their count.

    This is filter → map compaction. By default only `count` elements are written (they
    must be in bounds), nothing past them: AVX-512 `_mm512_mask_compressstoreu_ps`; AVX2 a
    permute from a lookup table indexed by the mask bits and a masked store; SSE2 a
    LUT-driven shift network, then the `count` lanes; NEON a byte table lookup, then the
    `count` lanes; scalar C `if (m) b[off] = v`.

    With `full` the op may write all N lanes b[off .. off + N) — the packed lanes, then
    scratch values — so all N must be in bounds. That lets every target store a whole
    register (AVX2 permute + `_mm256_storeu_ps`, SSE2 shift network + `_mm_storeu_ps`,
    scalar C `b[off] = v; n = m;` with no branch); convert-loop-to-simd uses it where the
    cursor is provably a vector away from the buffer's end.

    With `limit %l` (not with `full`) nothing is written at or past b[off + max(l, 0)]: the
    first min(count, l) packed lanes are, and like `full` the op may write scratch values
    after them up to b[off + min(N, l)) (so b[off .. off + min(N, l)) must be in bounds), which
    lets a target store a whole register while l >= N. The result is still the full count.
    A filter's exact tail passes its buffer's room left, `max(len - cursor, 0)`, so a caller's
    capacity below the count is never written past (the filter returns the full count, like
    snprintf)."""

    name = "simd.compress_store"

    value = operand_def(DataVector)
    mask = operand_def(MaskVector)
    buf = operand_def(BufType)
    offset = operand_def(IndexType)
    limit = opt_operand_def(IndexType)
    """At most this many elements are written (the buffer's room left at the offset)."""
    count = result_def(IndexType)
    full = opt_prop_def(UnitAttr)
    """Present when lanes past the count may be overwritten (b[off .. off + N) is in bounds)."""

    traits = traits_def(MemoryWriteEffect())

    assembly_format = (
        "$value `,` $mask `,` $buf `[` $offset `]` (`full` $full^)? (`limit` $limit^)? attr-dict "
        "`:` type($value) `,` type($mask) `,` type($buf)"
    )

    def __init__(self, value: SSAValue | Operation, mask: SSAValue | Operation,
                 buf: SSAValue | Operation, offset: SSAValue | Operation, full: bool = False,
                 limit: SSAValue | Operation | None = None):  # fmt: skip
        super().__init__(operands=[value, mask, buf, offset, [limit] if limit is not None else []],
                         result_types=[IndexType()], properties={"full": UnitAttr()} if full else {})

    def verify_(self) -> None:
        _check_buffer(self.buf, self.value.type)
        _check_mask(self.mask, self.value.type)
        if self.full is not None and self.limit is not None:
            raise VerifyException("a `full` compress_store writes all N lanes: it cannot take a `limit`")


@irdl_op_definition
class AlignOffsetOp(IRDLOperation):
    """`%p = simd.align_offset %b[%i], 64 : !loop.buf<f32>`: how many elements from &b[i] to
    the first address that is a multiple of `alignment` bytes (0 when &b[i] already is).

    The result is in [0, alignment / sizeof(T)). The peel count before a loop whose
    stores must be aligned (streaming stores); `&b[i]` itself must be element-aligned, as
    every C pointer to T is. Prints as plain C on every target:
    `(-(uintptr_t)&b[i] & (alignment - 1)) / sizeof(T)`."""

    name = "simd.align_offset"

    buf = operand_def(BufType)
    index = operand_def(IndexType)
    alignment = prop_def(IntegerAttr[I64])
    """The byte alignment to reach: a power of two, at least the element size, at most 64."""
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "$buf `[` $index `]` `,` $alignment attr-dict `:` type($buf)"

    def __init__(self, buf: SSAValue | Operation, index: SSAValue | Operation, alignment: int):
        super().__init__(operands=[buf, index], result_types=[IndexType()],
                         properties={"alignment": IntegerAttr(alignment, i64)})

    def verify_(self) -> None:
        buf_type = self.buf.type
        assert isinstance(buf_type, BufType)
        if _element_class(buf_type.element_type) not in ("float", "int"):
            raise VerifyException(f"expected a buffer of f32, f64, i32 or i64, got {buf_type}")
        elem_bytes = element_bits(buf_type.element_type) // 8
        alignment = self.alignment.value.data
        if alignment & (alignment - 1) or not elem_bytes <= alignment <= 64:
            raise VerifyException(
                f"alignment {alignment} must be a power of two in [{elem_bytes}, 64] "
                f"(the element size of {buf_type.element_type} up to a cache line)"
            )


@irdl_op_definition
class StoreFenceOp(IRDLOperation):
    """`simd.store_fence`: earlier streaming (`nontemporal`) stores become globally visible
    before any later store.

    Streaming stores are weakly ordered; a loop that used them ends with this fence so the
    kernel's caller (or another thread) sees its output like any other. x86 `_mm_sfence()`;
    targets without streaming stores print nothing."""

    name = "simd.store_fence"

    traits = traits_def(MemoryWriteEffect())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


# --------------------------------------------------------------------------- lanes


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """`simd.broadcast %s : f32 -> vector<8xf32>`: every lane = s.

    `_mm256_set1_ps`, `vdupq_n_f32`."""

    name = "simd.broadcast"

    scalar = operand_def()
    result = result_def(DataVector)

    traits = traits_def(Pure())

    assembly_format = "$scalar attr-dict `:` type($scalar) `->` type($result)"

    def __init__(self, scalar: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[scalar], result_types=[result_type])

    def verify_(self) -> None:
        assert isinstance(self.result.type, VectorType)
        if self.scalar.type != self.result.type.element_type:
            raise VerifyException(
                f"scalar type {self.scalar.type} != vector element type {self.result.type.element_type}"
            )


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`simd.iota : vector<8xi64>`: lane k = k (lane indices for index-dependent bodies).

    The printer emits a constant vector (`_mm256_setr_epi32(0, 1, ...)`)."""

    name = "simd.iota"

    result = result_def(IntVector)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class PrefixMaskOp(IRDLOperation):
    """`simd.prefix_mask %n : vector<8xi1>`: lane k is active iff k < n.

    The tail mask of a masked vector loop: n <= 0 gives no lane, n >= N every lane.
    AVX-512 `_bzhi_u32(0xffff, n)` into a `__mmask16`; elsewhere `iota < broadcast(n)`."""

    name = "simd.prefix_mask"

    count = operand_def(IndexType)
    result = result_def(MaskVector)

    traits = traits_def(Pure())

    assembly_format = "$count attr-dict `:` type($result)"

    def __init__(self, count: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[count], result_types=[result_type])


@irdl_op_definition
class FmaOp(IRDLOperation):
    """`simd.fma %a, %b, %c : vector<8xf32>`: lane k = a[k] * b[k] + c[k] with one rounding.

    `_mm256_fmadd_ps`, `_mm512_fmadd_ps`, `vfmaq_f32`. Emitted only for targets with
    `has_fma`; elsewhere the printer calls C's `fmaf` per lane (still fused)."""

    name = "simd.fma"

    T: ClassVar = VarConstraint("T", FloatVector)

    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$a `,` $b `,` $c attr-dict `:` type($result)"

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation, c: SSAValue | Operation):
        c = SSAValue.get(c)
        super().__init__(operands=[a, b, c], result_types=[c.type])


class MinMaxOperation(IRDLOperation):
    """Lane-wise min / max of two vectors of one type.

    Floats propagate NaN like numpy's minimum/maximum: a lane is NaN when either input
    lane is. x86 MINPS/MAXPS do not (they return the second operand), so the printer adds
    a NaN fix-up there (`unord` compare + blend); NEON FMIN/FMAX already propagate NaN.
    Integers compare signed (`_mm256_min_epi32`; SSE2 i32 and AVX2 i64 via compare + blend)."""

    T: ClassVar = VarConstraint("T", DataVector)

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


@irdl_op_definition
class MinOp(MinMaxOperation):
    """`simd.min %a, %b : vector<8xf32>`: lane k = min(a[k], b[k]), NaN-propagating."""

    name = "simd.min"


@irdl_op_definition
class MaxOp(MinMaxOperation):
    """`simd.max %a, %b : vector<8xf32>`: lane k = max(a[k], b[k]), NaN-propagating."""

    name = "simd.max"


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`simd.cmp <olt> %a, %b : vector<8xf32> -> vector<8xi1>`: lane k = a[k] pred b[k].

    Float predicates o* are false and u* true on a NaN lane (`_mm256_cmp_ps` with
    `_CMP_LT_OQ` ...; AVX-512 writes a `__mmask`); integer predicates compare signed."""

    name = "simd.cmp"

    T: ClassVar = VarConstraint("T", DataVector)

    predicate = prop_def(CmpPredicateAttr)
    """The comparison; float predicates need float lanes, eq ne s* u{lt,le,gt,ge} integer lanes
    (the `u` predicates are unordered on floats, unsigned on integers)."""
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(MaskVector)

    traits = traits_def(Pure())

    assembly_format = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def __init__(self, predicate: CmpPredicate | str, lhs: SSAValue | Operation,
                 rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        mask_type = _mask_type(lanes(lhs.type))
        super().__init__(operands=[lhs, rhs], result_types=[mask_type],
                         properties={"predicate": CmpPredicateAttr(CmpPredicate(predicate))})

    def verify_(self) -> None:
        assert isinstance(self.lhs.type, VectorType)
        pred = self.predicate.data
        is_float = _element_class(self.lhs.type.element_type) == "float"
        if is_float and pred not in FLOAT_PREDICATES:
            raise VerifyException(f"predicate {pred} compares integers, got {self.lhs.type}")
        if not is_float and pred not in INT_PREDICATES:
            raise VerifyException(f"predicate {pred} compares floats, got {self.lhs.type}")
        if lanes(self.result.type) != lanes(self.lhs.type):
            raise VerifyException(
                f"mask lanes {lanes(self.result.type)} != vector width {lanes(self.lhs.type)}"
            )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`simd.select %m, %a, %b : vector<8xi1>, vector<8xf32>`: lane k = m[k] ? a[k] : b[k].

    A blend: `_mm256_blendv_ps`, `_mm512_mask_blend_ps`, `vbslq_f32`; SSE2 and/andnot/or."""

    name = "simd.select"

    T: ClassVar = VarConstraint("T", DataVector)

    mask = operand_def(MaskVector)
    true_value = operand_def(T)
    false_value = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$mask `,` $true_value `,` $false_value attr-dict `:` type($mask) `,` type($result)"
    )

    def __init__(self, mask: SSAValue | Operation, true_value: SSAValue | Operation,
                 false_value: SSAValue | Operation):
        true_value = SSAValue.get(true_value)
        super().__init__(operands=[mask, true_value, false_value], result_types=[true_value.type])

    def verify_(self) -> None:
        _check_mask(self.mask, self.result.type)


@irdl_op_definition
class HReduceOp(IRDLOperation):
    """`simd.hreduce <add> %v : vector<8xf32> -> f32`: combine all lanes into one scalar.

    Lane order is a pairwise tree, halving: v := v[0:N/2] op v[N/2:N] until one lane is
    left (for N = 8: ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7))). That is the order of the
    printer's extract-high/add/shuffle sequences, so a float sum may differ from the
    sequential sum within the usual reduction bound. min/max propagate NaN; integer add and
    mul wrap; and/or take integers only."""

    name = "simd.hreduce"

    kind = prop_def(ReduceKindAttr)
    """The combining operation."""
    value = operand_def(DataVector)
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$kind $value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, kind: ReduceKind | str, value: SSAValue | Operation):
        value = SSAValue.get(value)
        assert isinstance(value.type, VectorType)
        super().__init__(operands=[value], result_types=[value.type.element_type],
                         properties={"kind": ReduceKindAttr(ReduceKind(kind))})

    def verify_(self) -> None:
        assert isinstance(self.value.type, VectorType)
        element_type = self.value.type.element_type
        if self.result.type != element_type:
            raise VerifyException(
                f"result type {self.result.type} != vector element type {element_type}"
            )
        kind = self.kind.data
        if kind in (ReduceKind.AND, ReduceKind.OR, ReduceKind.UMIN, ReduceKind.UMAX) and _element_class(element_type) != "int":
            raise VerifyException(f"hreduce <{kind}> needs integer lanes, got {self.value.type}")


@irdl_op_definition
class WidenAddOp(IRDLOperation):
    """`simd.widen_add %acc, %x : vector<4xi64>, vector<32xi8>`: the lanes of a narrow vector,
    extended (zero-extended; `signed`: sign-extended), added into an accumulator of wider lanes
    that fills the same register: the step of a sum of i8/i16 data (or of 0/1 counts) into an
    i32/i64 accumulator at the narrow lane count (loop_to_simd/widen.py).

    Every lane of `x` is added (wrapping) to exactly one accumulator lane. Which one is the
    printer's choice (`_mm256_sad_epu8` sums bytes 0-7 into lane 0; SSE2's i32 accumulators
    take the 16 bytes in lanes 0 and 2), so only the total over the accumulator's lanes is
    defined: the lowering folds it with `simd.hreduce <add>`. The interpreter adds group k
    of consecutive lanes into lane k."""

    name = "simd.widen_add"

    T: ClassVar = VarConstraint("T", IntVector)
    acc = operand_def(T)
    value = operand_def(IntVector)
    signed = opt_prop_def(UnitAttr)
    """Present when the narrow lanes are sign-extended (arith.extsi), else zero-extended."""
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$acc `,` $value (`signed` $signed^)? attr-dict `:` type($acc) `,` type($value)"

    def __init__(self, acc: SSAValue | Operation, value: SSAValue | Operation, signed: bool = False):
        acc = SSAValue.get(acc)
        properties: dict[str, Attribute] = {"signed": UnitAttr()} if signed else {}
        super().__init__(operands=[acc, value], result_types=[acc.type], properties=properties)

    def verify_(self) -> None:
        acc_t, x_t = self.acc.type, self.value.type
        assert isinstance(acc_t, VectorType) and isinstance(x_t, VectorType)
        if self.result.type != acc_t:
            raise VerifyException(f"result type {self.result.type} != accumulator type {acc_t}")
        wide, narrow = element_bits(acc_t.element_type), element_bits(x_t.element_type)
        if wide <= narrow:
            raise VerifyException(f"accumulator lanes ({acc_t}) must be wider than the added lanes ({x_t})")
        if lanes(acc_t) * wide != lanes(x_t) * narrow:
            raise VerifyException(f"{acc_t} and {x_t} must fill the same register")


@irdl_op_definition
class SlideUpOp(IRDLOperation):
    """`simd.slide_up %v, %fill by 2 : vector<8xf32>`: lane k = v[k - 2], fill[N - 2 + k] below 2.

    The lanes move up by a constant power of two `by` < N and the low lanes fill from the top of `fill`
    (the last lanes of `fill ++ v`): one step of a log-step in-register scan, with `fill`
    the kind's neutral element. AVX-512 `valignd`/`valignq`; AVX2 `vperm2i128` + `vpalignr`
    (lanes cross the 128-bit halves); SSE2 `pslldq`/`psrldq`; NEON `vextq`."""

    name = "simd.slide_up"

    T: ClassVar = VarConstraint("T", DataVector)

    value = operand_def(T)
    fill = operand_def(T)
    by = prop_def(IntegerAttr[I64])
    """Lanes to move up: a power of two below N (the steps of a log-step scan)."""
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$value `,` $fill `by` $by attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation, fill: SSAValue | Operation, by: int):
        value = SSAValue.get(value)
        super().__init__(operands=[value, fill], result_types=[value.type], properties={"by": IntegerAttr(by, i64)})

    def verify_(self) -> None:
        n, by = lanes(self.result.type), self.by.value.data
        if not 0 < by < n or by & (by - 1):
            raise VerifyException(f"slide_up by {by} lanes: expected a power of two below {n} (the vector's lanes)")


@irdl_op_definition
class SlideUpDupOp(IRDLOperation):
    """`simd.slide_up_dup %v by 1 : vector<4xi32>`: lane k = v[k - 1], v[k] below 1 (lanes 0,0,1,2).

    A slide_up whose low `by` lanes keep their own value instead of a fill: a log-step scan
    step for an idempotent kind (min/max, and/or), where combining lane k's own prefix with
    itself changes nothing, so no neutral element is slid in. One lane permute where the
    neutral-filled slide takes two: SSE2 `pshufd`/`shufps`/`unpcklpd` (lanes 0,0,1,2 and
    0,1,0,1), AVX2 `vpermd`/`vpermq`."""

    name = "simd.slide_up_dup"

    T: ClassVar = VarConstraint("T", DataVector)

    value = operand_def(T)
    by = prop_def(IntegerAttr[I64])
    """Lanes to move up: a power of two below N (the steps of a log-step scan)."""
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$value `by` $by attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation, by: int):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[value.type], properties={"by": IntegerAttr(by, i64)})

    def verify_(self) -> None:
        n, by = lanes(self.result.type), self.by.value.data
        if not 0 < by < n or by & (by - 1):
            raise VerifyException(f"slide_up_dup by {by} lanes: expected a power of two below {n} (the vector's lanes)")


@irdl_op_definition
class SplatLastOp(IRDLOperation):
    """`simd.splat_last %v : vector<8xf32>`: every lane = v's last lane (a scan's carry).

    AVX-512 `vpermd`/`vpermq` by a constant index; AVX2 `vpermps`/`vpermpd`; SSE2 `shufps`
    /`pshufd`/`unpckhpd`; NEON `vdupq_laneq`."""

    name = "simd.splat_last"

    T: ClassVar = VarConstraint("T", DataVector)

    value = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$value attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[value.type])


@irdl_op_definition
class FirstLaneOp(IRDLOperation):
    """`simd.first_lane %v : vector<8xf32> -> f32`: lane 0 as a scalar (`_mm256_cvtss_f32`,
    `vgetq_lane_f32(v, 0)`): a scan's carried value for the scalar tail."""

    name = "simd.first_lane"

    value = operand_def(DataVector)
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue | Operation):
        value = SSAValue.get(value)
        assert isinstance(value.type, VectorType)
        super().__init__(operands=[value], result_types=[value.type.element_type])

    def verify_(self) -> None:
        assert isinstance(self.value.type, VectorType)
        if self.result.type != self.value.type.element_type:
            raise VerifyException(f"result type {self.result.type} != vector element type {self.value.type.element_type}")


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """`simd.convert %v : vector<8xi32> -> vector<8xf32>`: lane k = (T) v[k].

    Between any two of f32 f64 i32 i64, same lane count (a widening convert may span two
    registers). int → float rounds to nearest-even; f64 → f32 rounds to nearest-even;
    f32 → f64 and i32 → i64 (sign-extending) are exact; i64 → i32 keeps the low 32 bits
    (wraps); float → int truncates toward zero and saturates, a NaN lane gives 0 (like
    arith.fptosi, docs/integer_semantics.md; the printer fixes up x86's "integer indefinite").
    `_mm256_cvtepi32_ps`, `_mm256_cvttps_epi32`, `vcvtq_f32_s32`, ..."""

    name = "simd.convert"

    value = operand_def(DataVector)
    result = result_def(DataVector)

    traits = traits_def(Pure())

    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        if lanes(self.value.type) != lanes(self.result.type):
            raise VerifyException(
                f"result lanes {lanes(self.result.type)} != vector width {lanes(self.value.type)}"
            )


@irdl_op_definition
class MaskPopcountOp(IRDLOperation):
    """`simd.mask_popcount %m : vector<8xi1>`: the number of active lanes, as an index.

    `_mm_popcnt_u32(_mm256_movemask_ps(m))`, `_mm_popcnt_u32(k)` on AVX-512,
    a lane sum on NEON."""

    name = "simd.mask_popcount"

    mask = operand_def(MaskVector)
    count = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue | Operation):
        super().__init__(operands=[mask], result_types=[IndexType()])


Simd = Dialect(
    "simd",
    [
        # memory
        LoadOp,
        StoreOp,
        MaskedLoadOp,
        MaskedStoreOp,
        GatherOp,
        CompressStoreOp,
        AlignOffsetOp,
        StoreFenceOp,
        # lane construction
        BroadcastOp,
        IotaOp,
        PrefixMaskOp,
        # lane-wise arithmetic not covered by arith/math
        FmaOp,
        MinOp,
        MaxOp,
        CmpOp,
        SelectOp,
        ConvertOp,
        # across lanes (scans)
        SlideUpOp,
        SlideUpDupOp,
        SplatLastOp,
        FirstLaneOp,
        # horizontal
        HReduceOp,
        MaskPopcountOp,
        WidenAddOp,
    ],
    [
        CmpPredicateAttr,
        ReduceKindAttr,
    ],
)
