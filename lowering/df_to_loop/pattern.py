"""The shape of a df → loop lowering pattern (MLIR's OpConversionPattern, Python-sized).

A pattern lowers one df op type: it reads its operands' lowered forms from the
`KernelLowering`, emits Loop IR with the builder (positioned before the op) and binds the
op's results. It never erases the op: the pass erases every df op once the whole kernel is
lowered, so later patterns can still walk use-def chains.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, Generic, TypeVar

from xdsl.builder import Builder
from xdsl.ir import Operation

from loopopt.lowering.df_to_loop.context import KernelLowering

OpT = TypeVar("OpT", bound=Operation)


class DFLoweringPattern(ABC, Generic[OpT]):
    """Lowers every op of type `op_type`."""

    op_type: ClassVar[type[Operation]]

    @abstractmethod
    def lower(self, op: OpT, ctx: KernelLowering, b: Builder) -> None:
        """Emit the op's Loop IR at `b` and `ctx.bind` each of its results."""
