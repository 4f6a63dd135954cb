"""Reading ops: single operand/result accessors, block and region iterators.

Reading IR goes through small Python layers that each cost a call: a named operand or result
(`op.lhs`: an accessor that matches on the construct kind, builds an `OpOperands` view and
indexes it through `SSAValues.__getitem__`'s `isinstance` and `super()`), the block and region
iterators (a property per step), and `_unknown_loc` (an import statement per op built). The
same values are read directly: the accessor of a single operand or result indexes the op's
operand tuple or result tuple (what the view indexes), `SSAValues[int]` is the tuple's item,
the iterators read the linked fields their properties return, and the unknown location is
xDSL's one `UNKNOWN_LOC` object. Any other argument (a slice, a variadic accessor, a region or
successor accessor, the class instead of an op) takes xDSL's own code.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import core as ir_core
from xdsl.irdl.operations import AfterVariadicSingleAccessor, BeforeVariadicSingleAccessor, VarIRConstruct


_XDSL_READERS = (
    ir_core.SSAValues.__getitem__,
    BeforeVariadicSingleAccessor.__get__,
    AfterVariadicSingleAccessor.__get__,
    ir_core._unknown_loc,
)
"""xDSL's own readers (the fallbacks; tests compare against them)."""

_OPERAND, _RESULT = VarIRConstruct.OPERAND, VarIRConstruct.RESULT
_item = tuple.__getitem__


def install_readers() -> None:
    values_getitem, before_get, after_get, _ = _XDSL_READERS

    def getitem(self: tuple[Any, ...], idx: Any) -> Any:
        if type(idx) is int:
            return _item(self, idx)
        return values_getitem(self, idx)

    def accessor(original: Any, after_variadic: bool) -> Any:
        def get(self: Any, obj: Any, objtype: Any = None) -> Any:
            if obj is not None:
                construct = self.construct
                at = self.idx - self.num_defs if after_variadic else self.idx
                if construct is _OPERAND:
                    return _item(obj._operands, at)
                if construct is _RESULT:
                    return _item(obj.results, at)
            return original(self, obj, objtype)

        return get

    ir_core.SSAValues.__getitem__ = getitem  # type: ignore[method-assign,assignment]
    BeforeVariadicSingleAccessor.__get__ = accessor(before_get, False)  # type: ignore[method-assign]
    AfterVariadicSingleAccessor.__get__ = accessor(after_get, True)  # type: ignore[method-assign]

    from xdsl.dialects.builtin import UNKNOWN_LOC

    ir_core._unknown_loc = lambda: UNKNOWN_LOC

    def forward_ops(self: Any) -> Any:
        op = self.next_op
        if op is None:
            raise StopIteration
        self.next_op = op._next_op
        return op

    def backward_ops(self: Any) -> Any:
        op = self.prev_op
        if op is None:
            raise StopIteration
        self.prev_op = op._prev_op
        return op

    def forward_blocks(self: Any) -> Any:
        block = self.next_block
        if block is None:
            raise StopIteration
        self.next_block = block._next_block
        return block

    ir_core._BlockOpsIterator.__next__ = forward_ops  # type: ignore[method-assign]
    ir_core._BlockOpsReverseIterator.__next__ = backward_ops  # type: ignore[method-assign]
    ir_core._RegionBlocksIterator.__next__ = forward_blocks  # type: ignore[method-assign]
