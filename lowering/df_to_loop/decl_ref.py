"""df.decl_ref → the referenced declaration's computation, inlined before lowering.

We inline rather than call the lowered kernel: a call would force the callee's array
results through buffers the caller allocates and would hide its loops from loop-fuse,
while inlined df ops lower (and fuse) like the caller's own. The callee stays a kernel of
its own. Inlining runs on the df program, before any op is lowered, and repeats until no
decl_ref is left; a declaration that reaches itself is rejected.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df

MAX_DEPTH = 64
"""Nesting depth past which a chain of decl_refs is taken to be recursive."""


def inline_decl_refs(kernel: func.FuncOp) -> None:
    """Replace every df.decl_ref in `kernel` by a copy of the referenced func's body."""
    for depth in range(MAX_DEPTH + 1):
        refs = [op for op in kernel.walk() if isinstance(op, df.DeclRefOp)]
        if not refs:
            return
        if depth == MAX_DEPTH:
            raise LoopoptDiagnostic(
                f"df.decl_ref {refs[0].decl}: declarations reference each other recursively", refs[0]
            )
        for ref in refs:
            inline_one(ref)


def inline_one(ref: df.DeclRefOp) -> None:
    callee = SymbolTable.lookup_symbol(ref, ref.decl)
    if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
        raise LoopoptDiagnostic(f"df.decl_ref: {ref.decl} is not a func.func with a body", ref)
    if len(callee.body.blocks) != 1:
        raise LoopoptDiagnostic(f"df.decl_ref: {ref.decl} has {len(callee.body.blocks)} blocks, expected 1", ref)
    block = callee.body.block
    mapper: dict[SSAValue, SSAValue] = dict(zip(block.args, ref.args, strict=True))
    returned: list[SSAValue] = []
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            returned = [mapper.get(v, v) for v in op.arguments]
            break
        clone: Operation = op.clone(value_mapper=mapper)
        Rewriter.insert_op(clone, InsertPoint.before(ref))
    for r, v in zip(ref.outputs, returned, strict=True):
        r.replace_all_uses_with(v)
    Rewriter.erase_op(ref)
