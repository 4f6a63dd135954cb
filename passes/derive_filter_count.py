"""`derive-filter-count`: next to each parallel filter kernel planned in super-blocks
(`loop.parallel` with `block`), a counting kernel `<k>__count` derived from its simd IR.

The super-block driver (targets/c_parallel.py, docs/threads.md) must know where a part of
the input goes in the output before compacting it, so each thread first counts its part. The
count kernel is the kernel itself with every `simd.compress_store` replaced by the popcount of
its mask and everything that no longer matters removed: the same loops (their bounds read
the output's capacity, so the driver passes the part's length there), the same masks, so the
same count — the predicate only, no stores. Deriving it from the lowered kernel (not writing
a second kernel in the lowering) keeps the two in step by construction.

The count kernel is a private func without `loop.kernel` (the runtime does not export it; the
C printer prints it `static`) marked `loop.count_of = "<k>"`. A kernel is left alone when
anything else writes memory (a scalar predloop's `loop.append`, a scan): its driver then
keeps the scratch-and-copy strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects
from xdsl.transforms.dead_code_elimination import region_dce

from loopopt.dialects import loop
from loopopt.dialects.simd import CompressStoreOp, MaskPopcountOp
from loopopt.lowering import abi

COUNT_OF = "loop.count_of"
"""On a derived counting kernel: the name of the kernel it counts for."""
PARALLEL_ATTR = loop.PARALLEL_ATTR


def count_name(kernel: str) -> str:
    return f"{kernel}__count"


def wants_count(f: func.FuncOp) -> bool:
    """f is a kernel whose `loop.parallel` plan runs it in super-blocks."""
    plan = f.attributes.get(PARALLEL_ATTR)
    if not isinstance(plan, DictionaryAttr):
        return False
    block = plan.data.get("block")
    return isinstance(block, IntegerAttr) and block.value.data > 0


def derive_count(f: func.FuncOp) -> func.FuncOp | None:
    """`<f>__count`, or None when f writes anything but its compactions, still reads the
    call's length (`loop.call_dim`), or returns more than its count."""
    if len(f.function_type.outputs.data) != 1:
        return None
    g = f.clone()
    for op in list(g.walk()):
        if isinstance(op, CompressStoreOp):
            Rewriter.replace_op(op, MaskPopcountOp(op.mask))
    for op in g.body.walk():
        if isinstance(op, loop.CallDimOp):
            return None
        if op.regions or op.has_trait(IsTerminator):
            continue
        effects = get_effects(op)
        if effects is None or any(e.kind == MemoryEffectKind.WRITE for e in effects):
            return None
    region_dce(g.body)
    g.sym_name = StringAttr(count_name(f.sym_name.data))
    g.sym_visibility = StringAttr("private")
    for key in (PARALLEL_ATTR, abi.KERNEL):
        g.attributes.pop(key, None)
    g.attributes[COUNT_OF] = StringAttr(f.sym_name.data)
    return g


def count_kernels(module: ModuleOp) -> dict[str, func.FuncOp]:
    """Kernel name -> its derived counting kernel, for those the module holds."""
    out: dict[str, func.FuncOp] = {}
    for op in module.ops:
        if isinstance(op, func.FuncOp):
            of = op.attributes.get(COUNT_OF)
            if isinstance(of, StringAttr):
                out[of.data] = op
    return out


@dataclass(frozen=True)
class DeriveFilterCountPass(ModulePass):
    """Add `<k>__count` after every super-block filter kernel k (see the module docstring)."""

    name = "derive-filter-count"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        have = count_kernels(op)
        names = {f.sym_name.data for f in op.ops if isinstance(f, func.FuncOp)}
        for f in list(op.ops):
            if not isinstance(f, func.FuncOp) or f.is_declaration or not wants_count(f):
                continue
            name = f.sym_name.data
            if name in have or count_name(name) in names:
                continue  # derived already (or the name is taken: the driver keeps scratch and copies)
            g = derive_count(f)
            if g is not None:
                op.body.block.insert_op_after(g, f)
