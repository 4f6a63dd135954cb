"""Helpers shared by the df → loop tests: parse a corpus file afresh, lower it (with or
without df-fuse), size outputs no input determines, and count loop nests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corpus import context
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.abi import find_kernel
from loopopt.lowering.df_to_loop.convert import ConvertDFToLoopPass

LOOP_OPS = (loop.ForOp, loop.ZipOp, loop.PredLoopOp, loop.VecLoopOp)
DF_LOOP_OPS = (df.MapOp, df.FilterOp, df.ReduceOp, df.FoldOp, df.ScanOp, df.GatherOp)
"""df ops that need a loop (plus df.select on arrays); a gather needs two (nests_of)."""


def nests_of(op) -> int:
    """Loop nests one df op lowers to: a gather's in-bounds loop plus the loop writing zeros
    where its source is empty (lowering/df_to_loop/gather.py); one for the others. A gather
    read by its one user (a full reduction or a rank-1 map) has none: the user has the two."""
    from loopopt.lowering.df_to_loop.gather import fuses_into_user

    if isinstance(op, df.GatherOp):
        return 0 if fuses_into_user(op) else 2
    gathers = [v.owner for v in op.operands if isinstance(v.owner, df.GatherOp)]
    return 2 if any(fuses_into_user(g) for g in gathers) else 1


def lowering_context() -> Context:
    ctx = context()
    ctx.load_dialect(loop.Loop)
    return ctx


def parse(path: Path | str, text: str | None = None) -> ModuleOp:
    """A fresh (mutable) module of a corpus file."""
    path = Path(path)
    module = Parser(lowering_context(), text if text is not None else path.read_text(), str(path)).parse_module()
    module.verify()
    return module


FUSED_FORMS_DIR = Path(__file__).resolve().parents[1] / "df_fuse" / "fused_forms"
"""Kernels whose chains df-fuse turns into df's fused forms (the corpus's REF format)."""


def lower(module: ModuleOp, fuse: bool) -> ModuleOp:
    """df-fuse (when `fuse`) then convert-df-to-loop, in place; verifies the result."""
    ctx = lowering_context()
    if fuse:
        from loopopt.passes.df_fuse import DFFusePass

        DFFusePass().apply(ctx, module)
    ConvertDFToLoopPass().apply(ctx, module)
    module.verify()
    return module


def lower_unfused_where_possible(path: Path) -> ModuleOp:
    """convert-df-to-loop alone, except for files whose kernels exist only fused: a matrix
    product's rank-3 products are stored nowhere, so unfused convert-df-to-loop refuses them
    (test_structure's test_rank3_product_unfused_is_an_error); those files are df-fused first."""
    from loopopt.diagnostics import LoopoptDiagnostic

    try:
        return lower(parse(path), fuse=False)
    except LoopoptDiagnostic as e:
        if "rank-3 arrays are only supported fused" not in str(e):
            raise
    return lower(parse(path), fuse=True)


def result_extents(df_func: FuncOp, df_results: tuple[Any, ...]) -> dict[str, int]:
    """Axis lengths of the df kernel's array results (for outputs on a range's axis)."""
    extents: dict[str, int] = {}
    for t, r in zip(df_func.function_type.outputs, df_results, strict=True):
        if isinstance(t, ArrayType):
            arr = next(iter(r.values())) if isinstance(r, dict) else r
            extents.update(zip(t.axis_names, arr.shape, strict=True))
    return extents


def loop_nests(module: ModuleOp, kernel: str) -> list:
    """The top-level loops of a kernel (one per loop nest)."""
    return [op for op in find_kernel(module, kernel).body.block.ops if isinstance(op, LOOP_OPS)]


def is_copy(nest) -> bool:
    """A nest that only moves elements (a returned value not made in place): its ops are
    loads and stores, and every store writes a loaded value."""
    ops = [op for op in nest.walk() if op is not nest and not isinstance(op, LOOP_OPS)]
    stores = [op for op in ops if isinstance(op, loop.StoreOp)]
    return (
        bool(stores)
        and {op.name for op in ops} <= {"loop.load", "loop.store", "loop.yield"}
        and all(isinstance(s.value.owner, loop.LoadOp) for s in stores)
    )


def df_loop_ops(module: ModuleOp, kernel: str) -> list:
    """The df ops of a kernel that each need a loop nest."""
    return [
        op
        for op in find_kernel(module, kernel).body.block.ops
        if isinstance(op, DF_LOOP_OPS) or (isinstance(op, df.SelectOp) and isinstance(op.result.type, ArrayType))
    ]
