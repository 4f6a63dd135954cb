"""`IsolatedFromAbove.verify` and `Operation.verify` through linked fields.

`IsolatedFromAbove.verify` (once per `func.func`) asks `op.is_ancestor(owner)` of every operand in
the function, each a walk up the owner's parents (~20,000 per 1,000 df ops). It now walks the same
ops in the same order keeping the ids of the blocks and ops met so far (all strictly inside `op`,
alive while it verifies): an operand defined by one of them passes at once, any other is asked
xDSL's question, so the same operand fails first with xDSL's message.

`Operation.verify` (every op verified) reads its operands, parent and the parent region's block
count through properties (`len(region.blocks)` walks the blocks), compares the block's last op
with `==` (a Python `__eq__` that is `is`) and asks `isinstance(operand, ErasedSSAValue)` through
`ABCMeta` per operand. The same checks, in the same order and with the same errors, read the
linked fields, compare with `is` and remember the `ErasedSSAValue` answer per operand type (until
an ABC `register`); an op with successors takes xDSL's code.
"""

from __future__ import annotations

import abc

from xdsl.ir import Operation, Region
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException


def install_isolated_check() -> None:
    if IsolatedFromAbove.verify is not _XDSL_ISOLATED_VERIFY:
        return  # replaced by someone else: left alone

    def verify(self: IsolatedFromAbove, op: Operation) -> None:
        seen: set[int] = set()  # ids of the blocks and ops strictly inside `op` met so far
        regions: list[Region] = list(op.regions)
        while regions:
            region = regions.pop()
            block = region._first_block
            while block is not None:
                seen.add(id(block))
                child = block._first_op
                while child is not None:
                    seen.add(id(child))
                    for operand in child._operands:
                        owner = operand.owner
                        if id(owner) not in seen and (not op.is_ancestor(owner) or owner is op):
                            raise VerifyException(
                                f"Operation using value defined out of its IsolatedFromAbove parent: {child}"
                            )
                    if child.regions and not child.has_trait(IsolatedFromAbove):
                        regions += child.regions
                    child = child._next_op
                block = block._next_block

    IsolatedFromAbove.verify = verify  # type: ignore[method-assign]


def install_operation_verify() -> None:
    from xdsl.ir.core import ErasedSSAValue
    from xdsl.traits import IsTerminator, NoTerminator

    original = Operation.verify
    if original is not _XDSL_OPERATION_VERIFY:
        return  # replaced by someone else: left alone
    erased: dict[type, bool] = {}
    """isinstance(operand, ErasedSSAValue) per operand type, until an ABC `register`."""
    token = [abc.get_cache_token()]

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if self._successors:
            original(self, verify_nested_ops)  # the successor checks: xDSL's
            return
        if abc.get_cache_token() != token[0]:
            erased.clear()
            token[0] = abc.get_cache_token()
        for operand in self._operands:
            kind = type(operand)
            is_erased = erased.get(kind)
            if is_erased is None:
                is_erased = erased[kind] = isinstance(operand, ErasedSSAValue)
            if is_erased:
                raise ValueError("Erased SSA value is used by the operation")
        parent_block = self.parent
        parent_region = None if parent_block is None else parent_block.parent
        if parent_region is not None and parent_block._last_op is self:  # type: ignore[union-attr]
            first = parent_region._first_block  # not None: it holds parent_block
            if first is parent_region._last_block:  # one block
                parent_op = parent_region.parent
                if parent_op is not None and not parent_op.has_trait(NoTerminator) and not self.has_trait(IsTerminator):
                    raise VerifyException(
                        f"Operation {self.name} terminates block in single-block region but is not a terminator"
                    )
            elif not self.has_trait(IsTerminator):
                raise VerifyException(
                    f"Operation {self.name} terminates block in multi-block region but is not a terminator"
                )
        if verify_nested_ops:
            for region in self.regions:
                region.verify()
        try:
            self.verify_()
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)

    Operation.verify = verify  # type: ignore[method-assign]


_XDSL_OPERATION_VERIFY = Operation.verify
"""xDSL's own Operation.verify (the fallback; tests compare against it)."""

_XDSL_ISOLATED_VERIFY = IsolatedFromAbove.verify
"""xDSL's own IsolatedFromAbove.verify (the fallback check's model; tests compare against it)."""
