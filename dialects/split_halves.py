"""`loop.split_halves`: the one test of which loops the C printer can run with each 512-bit
accumulator kept as two 256-bit registers (targets/c_print_loops.py `_split_for`).

The lowering marks such a loop (a fold beyond the L2 on Zen 4, loop_to_simd/vecloop.py), the
`loop.for` verifier rejects a marked loop this test refuses (a located error, also for
hand-written IR), and the printer splits every marked loop it is given on an ISA with a
half-width table: no place re-decides, so a loop is never printed whole because two copies
of the rule drifted apart.

The printer prints each body op twice through the half-width ISA's rows (the high copy's loads
and stores half a register on), so the body must be lane-wise on the loop's own vectors:
contiguous loads and stores, the arithmetic below, constants, index arithmetic; all vectors 512
bits of a type with split rows. A vector defined before the loop (a splat of a scalar) is split
once before it. A loop without accumulators (a map's K-block loop in the L1d on Zen 4,
`Costs.half_blocks_in_l1`) must store: it then runs as twice as many 256-bit blocks.
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Operation, SSAValue

from loopopt.dialects import simd
from loopopt.dialects.simd_targets import element_bits

SPLIT_HALVES_ATTR = "loop.split_halves"
"""Attribute of a fold's `loop.for` whose vector accumulators and lane-wise body the C printer
keeps as two half-width registers (Zen 4 beyond the L2, vecloop.py)."""

SPLIT_ARITH = (arith.AddfOp, arith.AddiOp, arith.SubfOp, arith.SubiOp, arith.MulfOp, arith.MuliOp, math.FmaOp, simd.FmaOp,
               simd.MaxOp, simd.MinOp)
"""The lane-wise arithmetic a split body may hold: on Zen 4 at 16 Mi a split sum ran 1.04-1.09x,
a split sum of squares (fma; i32 mullo + add) 1.02-1.06x (results/amd-zen4/analysis.md,
Sessions 20-21). math.fma in the loop body becomes simd.fma; simd.max is a filtered sum's
`select(x > 0, x, 0)` (loop_to_simd/predloop.py `split_pred_loop`)."""

SPLIT_ELEMENTS = ("f32", "f64", "i32", "i64")
"""Element types with half_lo / half_hi / join_halves rows (targets/isa_avx512.py)."""

SPLIT_BITS = 512
"""The vector size a split loop's vectors have (two 256-bit halves)."""


def _vector_problem(t: VectorType) -> str | None:
    elt = str(t.element_type)
    if elt not in SPLIT_ELEMENTS:
        return f"a {t} (split rows exist for {', '.join(SPLIT_ELEMENTS)})"
    if t.get_shape()[0] * element_bits(t.element_type) != SPLIT_BITS:
        return f"a {t} (not {SPLIT_BITS} bits)"
    return None


def split_problem(op: Operation) -> str | None:
    """Why the loop `op` (a `loop.for`) cannot run split into halves, or None when it can."""
    block = op.regions[0].block
    accs = block.args[1:]
    if not accs and not any(isinstance(o, simd.StoreOp) for o in block.ops):
        return "a loop without accumulators or simd.store"
    shape = None
    for a in accs:
        if not isinstance(a.type, VectorType):
            return f"a scalar accumulator ({a.type})"
        if (why := _vector_problem(a.type)) is not None:
            return f"an accumulator of {why}"
        shape = shape or a.type.get_shape()
        if a.type.get_shape() != shape:
            return "accumulators of different lane counts"
    inside = set(block.args)
    body = list(block.ops)[:-1]  # the terminator (loop.yield) passes the values on
    for o in body:
        vectors = [v for v in (*o.operands, *o.results) if isinstance(v.type, VectorType)]
        if not vectors:
            if isinstance(o, arith.ConstantOp | arith.AddiOp | arith.SubiOp) and all(
                isinstance(r.type, IndexType) for r in o.results
            ):
                inside.update(o.results)
                continue  # index arithmetic: printed once, both halves read it
            return f"'{o.name}' on scalars (only index arithmetic)"
        if not isinstance(o, (simd.LoadOp, simd.StoreOp, arith.ConstantOp, *SPLIT_ARITH)):
            return f"'{o.name}' (lane-wise {', '.join(c.name for c in SPLIT_ARITH)}, simd.load, simd.store, constants only)"
        for v in vectors:
            if (why := _vector_problem(v.type)) is not None:
                return f"'{o.name}' on {why}"
            shape = shape or v.type.get_shape()
            if v.type.get_shape() != shape:
                return f"'{o.name}' on {v.type} next to {'accumulators' if accs else 'vectors'} of {shape[0]} lanes"
        inside.update(o.results)
    for v in block.last_op.operands:
        if isinstance(v.type, VectorType) and (why := _vector_problem(v.type)) is not None:
            return f"a loop.yield of {why}"
    return None


def outside_vectors(op: Operation) -> list[SSAValue]:
    """The vectors defined before the loop that its body reads, in first-use order: the printer
    splits each once before the loop, as the accumulators' inits."""
    block = op.regions[0].block
    inside = set(block.args)
    found: dict[SSAValue, None] = {}
    for o in block.ops:
        for v in o.operands:
            if isinstance(v.type, VectorType) and v not in inside:
                found.setdefault(v)
        inside.update(o.results)
    return list(found)


def split_lanes(op: Operation) -> int:
    """The lane count of a splittable loop's vectors (its accumulators', else its first vector's)."""
    for v in (*op.regions[0].block.args[1:], *(r for o in op.regions[0].block.ops for r in (*o.operands, *o.results))):
        if isinstance(v.type, VectorType):
            return v.type.get_shape()[0]
    raise ValueError("a loop without vectors has no halves")
