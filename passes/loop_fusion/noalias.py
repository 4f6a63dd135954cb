"""Which buffers are known not to alias (seed 001 §3.3, the calling convention's `restrict`).

A buffer is *known* when it is a function argument (kernel buffers are distinct, restrict
pointers: docs/calling_convention.md) or the result of a `loop.alloc` (fresh memory).
Two known buffers are the same buffer iff they are the same SSA value. Anything else (a
buffer from an unknown op, a block argument of another region) may alias anything.
"""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, SSAValue

from loopopt.dialects import loop


def is_known_buffer(buf: SSAValue) -> bool:
    """A function argument or a loop.alloc result."""
    if isinstance(buf, BlockArgument):
        block: Block = buf.block
        parent = block.parent_op()
        return isinstance(parent, FuncOp) and block is parent.body.blocks.first
    return isinstance(buf.owner, loop.AllocOp)


def may_alias(a: SSAValue, b: SSAValue) -> bool:
    """False only when `a` and `b` are provably different buffers."""
    if a is b:
        return True
    return not (is_known_buffer(a) and is_known_buffer(b))
