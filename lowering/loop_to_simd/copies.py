"""The K copies of a lowered body block cloned from the first one instead of translated again.

A vecloop's main loop holds K copies of its body per iteration (and a predloop's, of its pred
and body regions), each a W-lane block at variable `i + c*W` stepping its own accumulators;
the remainder loop holds one copy more. `BlockEmitter` translating copy c does what it did for
copy 0 with other inputs (the variable, the accumulators, a predloop's cursor), except where a
lookup shared by the copies of one loop body finds what copy 0 built: the numbered ops, the
splats and the index arithmetic whose operands do not depend on the inputs (a splat of a
uniform value, a row start `r * cols`). So copy c is exactly copy 0's ops outside such lookups,
in order, their operands mapped to copy c's values: `Trace` records them while copy 0 is
translated, `clone_copy` builds copy c from them. The remainder loop's one copy, the first
in a new body where those lookups start empty, is all of copy 0's ops (`fresh`).

A copy is not traced (it is translated as before) when a translation would emit something
before the loop again for every copy (`LoopLowering.volatile`: an exact compress's room left)
or emits into the block outside the emitter (a runtime-step loop's variable).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.ir import Block, Operation, SSAValue

if TYPE_CHECKING:
    from loopopt.lowering.loop_to_simd.lanes import LoopLowering


@dataclass(slots=True)
class Trace:
    """What copy 0 of a body emitted into its block, while `BlockEmitter` translates it."""

    inputs: list[SSAValue]
    """Copy 0's inputs: the values a copy c has its own of (variable, accumulators, cursor)."""
    volatile: int
    """`LoopLowering.volatile` when the copy started: the trace holds only if it is unchanged."""
    outputs: list[SSAValue] = field(default_factory=list[SSAValue])
    """Copy 0's results (next accumulators, cursor), set by the caller."""
    ops: list[Operation] = field(default_factory=list[Operation])
    again: list[bool] = field(default_factory=list[bool])
    """Per op of `ops`: whether copy c emits it again (outside every shared lookup that finds it)."""
    dependent: set[SSAValue] = field(default_factory=set[SSAValue])
    """The inputs and the results of the ops a copy emits again: the values copy c has its own of."""
    shared: int = 0
    """How many lookups shared by the copies, with a key no input reaches, enclose the ops being emitted."""
    valid: bool = True

    def __post_init__(self) -> None:
        self.dependent.update(self.inputs)

    def record(self, op: Operation) -> None:
        """`op` was emitted into the block (BlockEmitter.emit)."""
        again = self.shared == 0
        self.ops.append(op)
        self.again.append(again)
        if again:
            self.dependent.update(op.results)
        if op.regions:
            self.valid = False

    def holds(self, volatile: int) -> bool:
        """Whether the copies may be cloned from this trace (`volatile`: LoopLowering's now)."""
        return self.valid and volatile == self.volatile

    def reaches(self, values: tuple[SSAValue | None, ...]) -> bool:
        """Whether any of `values` (a shared lookup's key) is one copy c has its own of."""
        dependent = self.dependent
        return any(v in dependent for v in values)


def clone_copy(trace: Trace, block: Block, inputs: list[SSAValue], fresh: bool = False) -> list[SSAValue]:
    """Copy c of `trace`'s body at `inputs` (in the order of `trace.inputs`) appended to `block`;
    returns its outputs. `fresh`: `block` is a new loop body (every op of copy 0, as the first
    copy translated there emits), else the block copy 0 is in (the ops it emits again)."""
    mapping = dict(zip(trace.inputs, inputs, strict=True))
    get = mapping.get
    add = block.add_op
    for op, again in zip(trace.ops, trace.again, strict=True):
        if not (again or fresh):
            continue
        new = type(op).create(operands=[get(v, v) for v in op._operands], result_types=[r.type for r in op.results],
                              properties=op.properties, attributes=op.attributes, location=op.location)  # (create copies the dicts)
        for old, r in zip(op.results, new.results, strict=True):
            r._name = old._name  # pyright: ignore[reportPrivateUsage] (a valid name already)
            mapping[old] = r
        add(new)
    return [get(v, v) for v in trace.outputs]


@dataclass
class Copies:
    """The copies of one loop body's block in turn (`next`): the first translated by `emit`
    (inputs, the trace recording it or None) while a `Trace` records it, the later ones cloned
    from it. `traces` receives the first copy's trace when it holds (a remainder loop clones it);
    with `like` (a trace of the same block in another loop) every copy is cloned from it as the
    first in a new body."""

    lowering: LoopLowering
    block: Block
    k: int
    emit: Callable[[list[SSAValue], Trace | None], list[SSAValue]]
    traces: list[Trace] | None = None
    like: Trace | None = None
    trace: Trace | None = None
    emitted: int = 0

    def next(self, inputs: list[SSAValue], traceable: bool = True) -> list[SSAValue]:
        """The next copy at `inputs` (in the order of a trace's inputs); returns its outputs.
        `traceable`: the copy may be recorded (not when its translation differs per copy)."""
        if self.trace is not None or self.like is not None:
            return clone_copy(self.trace or self.like, self.block, inputs, fresh=self.trace is None)  # type: ignore[arg-type]
        lowering = self.lowering
        first = self.emitted == 0
        self.emitted += 1
        traced = first and traceable and (self.k > 1 or self.traces is not None)
        trace = Trace(inputs, lowering.volatile) if traced else None
        out = self.emit(inputs, trace)
        if trace is not None and trace.holds(lowering.volatile):
            self.trace = trace
            if self.traces is not None:
                self.traces.append(trace)
        return out
