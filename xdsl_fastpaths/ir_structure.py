"""Blocks and walks: insertion without the ancestor walk, one generator per walk level.

Every op added to a block (`add_op`, `insert_op_before/after`; ~11,000 in convert-loop-to-simd
per 1,000 df ops) is checked by `Block._attach_op` not to contain the block, a walk up the
block's ancestors; an op without regions contains no block, so that walk is skipped for it
(an op with regions is walked as before), and `add_op` links the op at the end itself (the
same fields and errors as xDSL's). `_unknown_loc` (each block argument built) returns xDSL's
`UNKNOWN_LOC` without its import statement.

`Operation.walk` in its default order runs three generators per nesting level (the op's, its
region's, its block's); one generator per op with regions yields the same ops, reading an op's
regions after yielding it and a successor when an op is produced, as xDSL's do. `reverse`,
`region_first` and classes with a `walk` of their own take xDSL's code.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation
from xdsl.ir import core as ir_core


_XDSL_BLOCK_INSERTION = (ir_core.Block._attach_op, ir_core.Block.add_op, ir_core._unknown_loc)
"""xDSL's own op attachment, block append and unknown location (tests compare against them)."""


def install_block_insertion() -> None:
    """Every op added to a block (`add_op`, `insert_op_before/after`) is checked by
    `_attach_op` not to contain the block: a walk up the block's ancestors (5-7 steps in a
    lowered kernel) per op. An op without regions contains no block, so for it that walk
    cannot find the op and is skipped; an op with regions is walked as xDSL walks it.
    `add_op` appends as xDSL's does (the same fields, the same errors). `_unknown_loc` (each
    block argument built: an import statement per call) returns the same object directly."""
    block_cls = ir_core.Block
    if (block_cls._attach_op, block_cls.add_op) != _XDSL_BLOCK_INSERTION[:2]:
        return  # replaced by someone else: left alone
    from xdsl.dialects.builtin import UNKNOWN_LOC

    def attach_op(self: Any, operation: Operation) -> None:
        if operation.parent:
            raise ValueError("Can't add to a block an operation already attached to a block.")
        if operation.regions and operation.is_ancestor(self):
            raise ValueError("Can't add an operation to a block contained in the operation.")
        operation.parent = self

    def add_op(self: Any, operation: Operation) -> None:
        attach_op(self, operation)
        last = self._last_op
        if last is None:
            self._first_op = operation
        else:  # last._next_op is None: it is the last op
            operation._prev_op = last
            operation._next_op = None
            last._next_op = operation
        self._last_op = operation

    def unknown_loc() -> Any:
        return UNKNOWN_LOC

    block_cls._attach_op = attach_op  # type: ignore[method-assign]
    block_cls.add_op = add_op  # type: ignore[method-assign]
    ir_core._unknown_loc = unknown_loc  # type: ignore[assignment]


_XDSL_WALK = Operation.walk
"""xDSL's own Operation.walk (the fallback; tests compare against it)."""


def install_walk() -> None:
    original = _XDSL_WALK

    def walk(self: Operation, *, reverse: bool = False, region_first: bool = False) -> Any:
        if reverse or region_first:
            return original(self, reverse=reverse, region_first=region_first)
        return forward(self)

    def forward(op: Operation) -> Any:
        yield op
        if op.regions:
            yield from nested(op)

    def nested(op: Operation) -> Any:
        # Operation.walk -> Region.walk -> Block.walk -> Operation.walk, one generator per op
        # with regions instead of three per level; each read happens when xDSL's would (the
        # regions after the op is yielded, a block's or op's successor when it is produced)
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if type(child).walk is not walk:  # a class with a walk of its own
                        yield from child.walk()
                        continue
                    yield child
                    if child.regions:
                        yield from nested(child)

    Operation.walk = walk  # type: ignore[method-assign]
