"""Which scalar ops have a lane-wise vector form: the table loop-vectorize checks, as data.

An op in a loop body may be vectorized when its class is a row of `VECTOR_FORMS` and every
operand and result type is in `LANE_TYPES`. The right column says what the op becomes
after convert-loop-to-simd (elementwise arith/math stay arith/math on `vector<NxT>`), so
the table only lists ops every SIMD target (targets/isa_*.py, plus the vector math rows of
targets/c_vmath.py: exp exp2 expm1 log log2 log1p sin cos tanh erf pow rsqrt, and the integer
rows of targets/c_intvec.py: division and remainder, unsigned min/max, ctpop) can express:
the other transcendentals (log10, tan, atan, cbrt, ...), rounding (floor, ceil) and calls are
absent on purpose and decline with VEC_REJECT_NO_VECTOR_FORM. Integer division keeps the
defined semantics in vector form too (by zero gives 0, MIN / -1 = MIN, never a trap).
Integer lanes are i8, i16, i32 and i64 (i8/i16 rows: targets/c_narrow.py); which widths a loop may
mix is convert-loop-to-simd's decision (loop_to_simd/width.py, widen.py), not legality's.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IndexType, IntegerType
from xdsl.ir import Attribute, Operation

from loopopt.dialects import loop, simd

VECTOR_FORMS: dict[type[Operation], str] = {
    # float elementwise                       -> arith/math on vector<NxT>
    arith.AddfOp: "vector add",
    arith.SubfOp: "vector sub",
    arith.MulfOp: "vector mul",
    arith.DivfOp: "vector div",
    arith.NegfOp: "vector neg",
    arith.MinimumfOp: "simd.min (NaN-propagating)",
    arith.MaximumfOp: "simd.max (NaN-propagating)",
    arith.MinnumfOp: "simd.min (number-preferring)",
    arith.MaxnumfOp: "simd.max (number-preferring)",
    math.FmaOp: "simd.fma",
    math.SqrtOp: "vector sqrt",
    math.AbsFOp: "vector abs",
    # vector math (targets/c_vmath.py: one C implementation per function, every SIMD ISA)
    math.ExpOp: "vector exp",
    math.Exp2Op: "vector exp2",
    math.ExpM1Op: "vector expm1",
    math.LogOp: "vector log",
    math.Log2Op: "vector log2",
    math.Log1pOp: "vector log1p",
    math.SinOp: "vector sin",
    math.CosOp: "vector cos",
    math.TanhOp: "vector tanh",
    math.ErfOp: "vector erf",
    math.PowFOp: "vector pow",
    math.RsqrtOp: "vector rsqrt",
    # integer elementwise (i32, i64, index; i1 for the bitwise ops)
    arith.AddiOp: "vector add",
    arith.SubiOp: "vector sub",
    arith.MuliOp: "vector mul",
    arith.AndIOp: "vector and",
    arith.OrIOp: "vector or",
    arith.XOrIOp: "vector xor",
    arith.ShLIOp: "vector shl",
    arith.ShRSIOp: "vector shr",
    arith.ShRUIOp: "vector shru",
    arith.MinSIOp: "simd.min",
    arith.MaxSIOp: "simd.max",
    arith.MinUIOp: "vector minui",
    arith.MaxUIOp: "vector maxui",
    math.AbsIOp: "vector abs",
    math.CtPopOp: "vector ctpop",
    # integer division: multiply-high for a constant i32 divisor, lane by lane otherwise (c_intvec)
    arith.DivSIOp: "vector divsi",
    arith.DivUIOp: "vector divui",
    arith.RemSIOp: "vector remsi",
    arith.RemUIOp: "vector remui",
    arith.FloorDivSIOp: "vector floordivsi",
    arith.CeilDivSIOp: "vector ceildivsi",
    arith.CeilDivUIOp: "vector ceildivui",
    # compare and select                      -> masks
    arith.CmpfOp: "simd.cmp -> mask",
    arith.CmpiOp: "simd.cmp -> mask",
    arith.SelectOp: "simd.select (blend)",
    # conversions
    arith.SIToFPOp: "simd.convert",
    arith.FPToSIOp: "simd.convert",
    arith.ExtFOp: "simd.convert",
    arith.TruncFOp: "simd.convert",
    arith.ExtSIOp: "simd.convert",
    arith.ExtUIOp: "simd.convert (i1 masks to 0/1 integers)",
    arith.TruncIOp: "simd.convert",
    arith.UIToFPOp: "simd.convert of the zero-extended i8/i16 lanes (loop_to_simd/narrow_convert.py)",
    arith.FPToUIOp: "simd.convert clamped to the i8/i16 range (loop_to_simd/narrow_convert.py)",
    arith.IndexCastOp: "simd.convert (of the lane indices: simd.iota + broadcast)",
    # uniform values
    arith.ConstantOp: "simd.broadcast",
    loop.DimOp: "uniform (scalar)",
    # memory: legal when the index is contiguous or uniform (see vectorize_legality)
    loop.LoadOp: "simd.load (contiguous) / simd.broadcast (uniform)",
    loop.StoreOp: "simd.store (contiguous)",
    loop.AppendOp: "simd.compress_store (predloop)",
    loop.YieldOp: "accumulator update / predicate",
}
"""Op class -> its vector form."""


def is_lane_type(t: Attribute) -> bool:
    """f32 f64 i8 i16 i32 i64 i1 index: the element types SIMD lanes hold (index lanes are i64); f16
    and bf16 lanes are storage (`F16_STORAGE_OPS`)."""
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type | IndexType):
        return True
    return isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64)


_TO_LANE_CONVERSIONS = (arith.SIToFPOp, arith.FPToSIOp, arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.TruncIOp)
"""The conversions that become `simd.convert`, which has no mask (i1) result."""


F16_STORAGE_OPS = (loop.LoadOp, loop.StoreOp, arith.ExtFOp, arith.TruncFOp)
"""The ops an f16 or bf16 value may meet in a vector loop: storage types, computed on as f32."""


def _is_i1(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


_MISSING: dict[tuple[Any, ...], str | None] = {}
"""`missing_vector_form`'s answer by what it reads: the class, the operand and result types and
a cmpi's predicate (loop-vectorize asks it of every body op of every candidate loop, and a
module holds few distinct such signatures)."""


def missing_vector_form(op: Operation) -> str | None:
    """Why `op` has no vector form, or None when it has one (remembered per signature)."""
    cls = type(op)
    if cls not in VECTOR_FORMS or op.regions:
        return _missing_vector_form(op)
    key = (cls, *[v.type for v in op._operands], None, *[r.type for r in op.results],
           op.properties.get("predicate") if cls is arith.CmpiOp else None)  # fmt: skip
    found = _MISSING.get(key, _MISSING)
    if found is _MISSING:
        if len(_MISSING) >= 4096:
            _MISSING.clear()
        found = _MISSING[key] = _missing_vector_form(op)
    return found  # type: ignore[return-value]


def _missing_vector_form(op: Operation) -> str | None:
    if type(op) not in VECTOR_FORMS:
        return f"{op.name} has no vector form"
    if op.regions:
        return f"{op.name} has regions"
    for value in (*op.operands, *op.results):
        if isinstance(value.type, loop.BufType):
            continue
        if not is_lane_type(value.type):
            return f"{op.name} on {value.type}: lanes hold f32, f64, i8, i16, i32, i64, i1 or index"
    storage = next((v.type for v in (*op.operands, *op.results) if isinstance(v.type, Float16Type | BFloat16Type)), None)
    if storage is not None and not isinstance(op, F16_STORAGE_OPS):
        return f"{op.name} on {storage}: {storage} lanes are storage, only loaded, stored and converted (extf/truncf) to f32"
    if isinstance(op, arith.UIToFPOp | arith.FPToUIOp):
        narrow = op.operands[0].type if isinstance(op, arith.UIToFPOp) else op.results[0].type
        if not (isinstance(narrow, IntegerType) and narrow.width.data in (8, 16)):
            return f"{op.name} on {narrow} has no vector form (only i8/i16 lanes convert unsigned, through i32)"
    if isinstance(op, _TO_LANE_CONVERSIONS) and _is_i1(op.results[0].type):
        return f"{op.name} to i1 has no vector form (simd.convert converts between data lanes)"
    if isinstance(op, arith.CmpiOp):
        name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if name not in {p.value for p in simd.INT_PREDICATES}:
            return f"{op.name} {name}: simd.cmp has no such integer predicate"
    return None
