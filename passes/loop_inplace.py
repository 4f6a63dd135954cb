"""`loop-inplace`: a temporary whose last reader is the map writing an output lives in that output.

convert-df-to-loop materializes a value with two consumers (softmax's exps: the sum and the
scaling map) as a `loop.alloc` temporary. When the last loop reading it is an elementwise map
that writes an output buffer of the same type, the temporary can be that output: the map reads
element i and then writes element i, and nothing else reads or writes the output. The kernel
then allocates nothing (softmax at 16 Mi floats called `malloc`/`mmap` of 64 MiB and touched
fresh pages on every call) and walks one buffer less.

```
%e = loop.alloc(%n)                              (gone)
loop.for %i in [%c0, %n) {                       loop.for %i in [%c0, %n) {
  loop.store %x1, %e[%i]                ->         loop.store %x1, %out[%i]
}                                                }
loop.for %i in [%c0, %n) {                       loop.for %i in [%c0, %n) {
  %v = loop.load %e[%i]                            %v = loop.load %out[%i]
  loop.store %q, %out[%i]                          loop.store %q, %out[%i]
}                                                }
loop.dealloc %e                                  (gone)
```

Legality (each a stable code, printed with `remarks=true`):
* the temporary is rank 1 and every use is a `loop.load`/`loop.store` of it or its
  `loop.dealloc`, all in the block of its alloc (INPLACE_REJECT_TEMP_USE);
* its last reader L is a loop over `[0, size)` of the alloc's own size, unit step (not a
  predloop: its stores are per selected lane), whose body
  block holds every access to the temporary in it: loads at exactly `[i]`, before one
  unconditional store `out[i]` (INPLACE_REJECT_NOT_ELEMENTWISE); the deallocs come after L,
  every other use before it (INPLACE_REJECT_ORDER);
* `out` is an argument of the function with the temporary's type, and nothing but that store and
  `loop.dim`/`loop.call_dim` uses it (INPLACE_REJECT_OUTPUT_USE);
* the kernel is not split across threads (INPLACE_REJECT_PARALLEL): loop-parallelize planned its
  chunks with the temporary, each chunk's own and cache-sized (a gathered scan would read its
  output again, which the scan's chunk chaining does not allow). So loop-pipeline runs it after
  loop-parallelize.

Capacity: L writes `out[i]` for every i in `[0, size)`, so `out` holds at least `size` elements
wherever the kernel is in bounds (its axis guard), and every other access to the temporary was
within `[0, size)`. Kernel arguments do not alias (`restrict` in the C ABI), so no input is read
through `out`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from loopopt.dialects import loop
from loopopt.passes.decline import Decline
from loopopt.passes.loop_fusion.elem0 import index_form
from loopopt.passes.options import check_options


class InplaceReject(StrEnum):
    TEMP_USE = "INPLACE_REJECT_TEMP_USE"
    NOT_ELEMENTWISE = "INPLACE_REJECT_NOT_ELEMENTWISE"
    ORDER = "INPLACE_REJECT_ORDER"
    OUTPUT_USE = "INPLACE_REJECT_OUTPUT_USE"
    PARALLEL = "INPLACE_REJECT_PARALLEL"


def _at_var(access: loop.LoadOp | loop.StoreOp, var: SSAValue) -> bool:
    """The access reads or writes exactly element `[var]`."""
    (index,) = access.affine_indices
    coeffs, offset = index.normalized()
    return offset == 0 and coeffs == {var: 1}


def inplace_output(alloc: loop.AllocOp) -> BlockArgument | Decline:
    """The output temporary `alloc` can live in (module docstring), or why none."""
    t = alloc.result
    block = alloc.parent_block()
    if len(alloc.sizes) != 1 or block is None:
        return Decline(alloc, InplaceReject.TEMP_USE, "the temporary is not rank 1")
    tops: list[tuple[Operation, Operation]] = []  # (use, its op in the alloc's block)
    for use in t.uses:
        user = use.operation
        accessed = isinstance(user, loop.LoadOp | loop.StoreOp) and user.buf is t
        top = block.find_ancestor_op_in_block(user)
        if not (accessed or isinstance(user, loop.DeallocOp)) or top is None:
            return Decline(user, InplaceReject.TEMP_USE, "a use of the temporary other than a load, a store or its dealloc")
        tops.append((user, top))
    readers = [top for user, top in tops if isinstance(user, loop.LoadOp)]
    if not readers:
        return Decline(alloc, InplaceReject.ORDER, "nothing reads the temporary")
    last = max(readers, key=block.get_operation_index)
    if (not isinstance(last, loop.LoopLike) or isinstance(last, loop.ZipOp | loop.PredLoopOp) or not last.is_interval
            or last.upper is not alloc.sizes[0] or index_form(last.lower).constant != 0):  # fmt: skip
        return Decline(last, InplaceReject.NOT_ELEMENTWISE, "the temporary's last reader is not a loop over [0, its size)")
    at = block.get_operation_index(last)
    for user, top in tops:
        after = isinstance(user, loop.DeallocOp)
        if top is not last and (block.get_operation_index(top) > at) != after:
            return Decline(user, InplaceReject.ORDER, "the temporary is used after its last reader" if not after else "the temporary is freed before its last reader")
    body = last.body_block
    stores = [o for o in body.ops if isinstance(o, loop.StoreOp) and isinstance(o.buf, BlockArgument)]
    if len(stores) != 1 or not _at_var(stores[0], last.var):
        return Decline(last, InplaceReject.NOT_ELEMENTWISE, "the last reader does not store one argument's element [i]")
    store = stores[0]
    out = store.buf
    assert isinstance(out, BlockArgument)
    for user, top in tops:
        if top is last and (user.parent_block() is not body or not isinstance(user, loop.LoadOp) or not _at_var(user, last.var)
                            or body.get_operation_index(user) > body.get_operation_index(store)):  # fmt: skip
            return Decline(user, InplaceReject.NOT_ELEMENTWISE, "the last reader accesses the temporary other than at [i] before its store")
    f = out.owner.parent_op()
    if not isinstance(f, FuncOp) or out.owner is not f.body.block or out.type != t.type:
        return Decline(store, InplaceReject.OUTPUT_USE, "the stored buffer is not an argument of the temporary's type")
    if loop.PARALLEL_ATTR in f.attributes:
        return Decline(alloc, InplaceReject.PARALLEL, "the kernel runs in chunks (loop.parallel): the temporary is each chunk's own, cache-sized")
    if any(use.operation is not store and not isinstance(use.operation, loop.DimOp | loop.CallDimOp) for use in out.uses):
        return Decline(store, InplaceReject.OUTPUT_USE, "the output is read or written elsewhere")
    return out


@dataclass(frozen=True)
class LoopInplacePass(ModulePass):
    """Temporaries whose last reader is an elementwise map into an output live in that output
    (module docstring: softmax's exps)."""

    name = "loop-inplace"

    remarks: bool = False
    """Print why a temporary stays (INPLACE_REJECT_* codes)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for alloc in [o for o in op.walk() if isinstance(o, loop.AllocOp)]:
            out = inplace_output(alloc)
            if isinstance(out, Decline):
                if self.remarks:
                    out.remark()
                continue
            for use in list(alloc.result.uses):
                if isinstance(use.operation, loop.DeallocOp):
                    Rewriter.erase_op(use.operation)
            alloc.result.replace_all_uses_with(out)
            Rewriter.erase_op(alloc)
