"""`loop-unroll-jam{rows=R}`: register blocking by unroll-and-jam of an outer (row) loop.

A matrix product after loop-interchange walks `i, j, k` (k contiguous, j jammed by the
interchange's `rows`):

```
loop.for %i in [%c0, %n_i) {
  loop.for %k in [%c0, %n_k) { loop.store %zero, %out[%i, %k] }
  loop.for %j in range(%c0, %split, %c4) {
    loop.for %k in [%c0, %n_k) {
      %c = loop.load %out[%i, %k]
      %a = loop.load %a[%i, %j]            // uniform in k: one broadcast per row and j
      %b = loop.load %b[%j, %k]            // does not change with %i
      ... c + a*b, three more rows of B ...
      loop.store %t, %out[%i, %k]
    }
  }
  ...
}
```
Each B vector is loaded once per row of C. Unrolled by R and jammed, the row loop steps R
rows and every inner loop runs once for all R of them; the ops that do not change with the
row (the B loads, the bounds) are emitted once, the others R times (copy r with `%i + r`):

```
loop.for %i in range(%c0, %split_i, %cR) {
  %i1 = arith.addi %i, %c1 ...
  loop.for %k { store zero -> out[i, k]; ... store zero -> out[i + R - 1, k] }
  loop.for %j in range(...) {
    loop.for %k {
      %b = loop.load %b[%j, %k] ...             // once: reused by R rows, in a register
      c0 = load out[i, k]; c0 + a[i, j]*b ...; store c0 -> out[i, k]
      ...
      cR-1 = load out[i+R-1, k]; ...; store -> out[i+R-1, k]
    }
  }
}
loop.for %i in [%split_i, %n_i) { the original body }     // n mod R rows
```
After loop-vectorize the innermost k loop holds R x J broadcasts of A (hoisted out of it),
J loads of B and R loads and stores of C per R x J FMAs: an R x J block of A in registers.

Every copy runs its own ops in their original order and different rows touch different
memory (the legality below), so every element is computed by the same operations in the same
order as before: float results are bit-identical, no `reassoc` needed.

Legality from seed 004's loop-dependency sets (passes/loop_deps.py): the row loop carries
nothing; every loop nested in it is a `loop.for` carrying nothing whose bounds do not depend
on the row variable; every op with memory effects is a load or store; every buffer the nest
writes is accessed only at row `i + c` (one `c` per buffer, no other index involving `i`)
and may alias no other buffer the nest touches, so the R rows of a group touch disjoint
memory. A row loop with something to gain (a load in an inner loop that does not depend on
the row, loaded once instead of R times) that may not be jammed prints `JAM_REJECT_*`
with `remarks=true` (docs/remarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import remark
from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.passes.loop_deps import LoopDependencies, is_effect_free
from loopopt.passes.loop_fusion.noalias import may_alias
from loopopt.passes.loop_surgery import index_const, is_innermost, located, split_point
from loopopt.passes.options import check_options


class UnrollJamReject(StrEnum):
    """Why a row loop whose inner loops would reuse a load across rows stays as it is."""

    SHAPE = "JAM_REJECT_SHAPE"
    """The row loop is not an interval or carries values, or a loop nested in it carries
    values, is not a `loop.for`, or has bounds that change with the row."""

    DEPENDENCE = "JAM_REJECT_DEPENDENCE"
    """Two rows may touch the same memory: a written buffer is accessed at more than one row
    offset or at an index that moves with the row other than `i + c`, may alias another
    buffer of the nest, or an op has memory effects other than a load or store."""


@dataclass(frozen=True)
class Reject:
    op: Operation
    code: UnrollJamReject
    reason: str


def _accesses(rows: loop.ForOp) -> list[loop.LoadOp | loop.StoreOp]:
    return [op for op in rows.body.walk() if isinstance(op, loop.LoadOp | loop.StoreOp)]


def reuses_across_rows(rows: loop.ForOp, deps: LoopDependencies) -> bool:
    """Some load in an innermost nested loop does not change with the row but with that
    loop: jammed, it is loaded once for R rows (what the pass is for)."""
    for inner in rows.body.walk():
        if inner is rows or not isinstance(inner, loop.LoopLike) or not is_innermost(inner):
            continue
        for op in inner.body.walk():
            if isinstance(op, loop.LoadOp):
                d = deps.of_op(op)
                if rows.var not in d and inner.var in d:
                    return True
    return False


def check_jammable(rows: loop.ForOp, deps: LoopDependencies) -> Reject | None:
    """The module docstring's legality rules; None when the row loop may be jammed."""
    if not rows.is_interval or rows.accs.data or rows.res:
        return Reject(rows, UnrollJamReject.SHAPE, "the row loop is not an interval or carries values")
    for op in rows.body.walk():
        if op is rows:
            continue
        if isinstance(op, loop.LoopLike):
            if not isinstance(op, loop.ForOp) or op.accs.data or op.res:
                return Reject(op, UnrollJamReject.SHAPE, "a nested loop carries values or is not a loop.for")
            if any(rows.var in deps.of_value(b) for b in op.bounds):
                return Reject(op, UnrollJamReject.SHAPE, "a nested loop's bounds change with the row")
        elif not isinstance(op, loop.LoadOp | loop.StoreOp | loop.YieldOp) and not is_effect_free(op):
            return Reject(op, UnrollJamReject.DEPENDENCE, f"{op.name} has memory effects")
    accesses = _accesses(rows)
    written = {a.buf for a in accesses if isinstance(a, loop.StoreOp)}
    bufs = {a.buf for a in accesses}
    for w in written:
        if any(may_alias(w, b) for b in bufs if b is not w):
            return Reject(rows, UnrollJamReject.DEPENDENCE, "a written buffer may alias another buffer of the nest")
        offsets: set[int] = set()
        for a in (a for a in accesses if a.buf is w):
            first, *others = a.affine_indices
            coeffs, offset = first.normalized()
            if coeffs.get(rows.var) != 1 or any(x.coeff(rows.var) for x in others):
                return Reject(a, UnrollJamReject.DEPENDENCE, "a written buffer is accessed at a row other than i + c")
            if any(rows.var in deps.of_value(v) for v in a.indices if v is not rows.var):
                return Reject(a, UnrollJamReject.DEPENDENCE, "a written buffer's index is computed from the row")
            offsets.add(offset)
        if len(offsets) > 1:
            return Reject(rows, UnrollJamReject.DEPENDENCE, "a written buffer is accessed at two row offsets")
    return None


@dataclass
class _Jammer:
    """Emits R jammed copies of a row loop's body for the row variables `rows[r]`."""

    var: BlockArgument
    """The original row variable."""
    row: SSAValue
    """The jammed loop's variable (row i of the group)."""
    deps: LoopDependencies
    mappers: list[dict[SSAValue, SSAValue]]
    """Copy r's value mapping (the row variable -> row i + r, and every cloned result)."""

    def block(self, source: Block, target: Block) -> None:
        """Jam `source`'s ops into `target`: nested loops once (their bodies jammed), runs of
        other ops copy-major (copy 0's ops, then copy 1's, ...), row-invariant ops once."""
        run: list[Operation] = []
        for op in source.ops:
            if isinstance(op, loop.ForOp):
                self._copies(run, target)
                run = []
                target.add_op(self._loop(op))
            elif not isinstance(op, loop.YieldOp):
                run.append(op)
        self._copies(run, target)
        target.add_op(located(loop.YieldOp(), source.parent_op() or run[0]))

    def _copies(self, ops: list[Operation], target: Block) -> None:
        for r, mapper in enumerate(self.mappers):
            for op in ops:
                if self.var not in self.deps.of_op(op):
                    if r == 0:  # the same on every row: once, shared by every copy
                        new = op.clone(mapper)
                        target.add_op(new)
                        for m in self.mappers[1:]:
                            m.update(zip(op.results, new.results, strict=True))
                    continue
                if r and isinstance(op, loop.LoadOp | loop.StoreOp):
                    target.add_op(self._access(op, mapper, r))
                else:
                    target.add_op(op.clone(mapper))

    def _access(self, op: loop.LoadOp | loop.StoreOp, mapper: dict[SSAValue, SSAValue], r: int) -> Operation:
        """Copy r of a load or store, its row as the affine `i + r` (not an SSA `i + r`): so
        loop-vectorize sees that two rows' accesses never touch the same element."""
        moved = [a.substitute(self.var, Affine.var(self.row) + r) for a in op.affine_indices]
        indices = [Affine(tuple((mapper.get(v, v), k) for v, k in a.terms), a.offset) for a in moved]
        buf = mapper.get(op.buf, op.buf)
        if isinstance(op, loop.LoadOp):
            new: Operation = loop.LoadOp(buf, indices)
            new.results[0].name_hint = op.results[0].name_hint
            mapper[op.results[0]] = new.results[0]
        else:
            new = loop.StoreOp(mapper.get(op.value, op.value), buf, indices)
        return located(new, op)

    def _loop(self, op: loop.ForOp) -> loop.ForOp:
        body = Block(arg_types=[IndexType()])
        body.args[0].name_hint = op.var.name_hint
        for m in self.mappers:
            m[op.var] = body.args[0]
        self.block(op.body.block, body)
        bounds = [self.mappers[0].get(b, b) for b in op.bounds]
        return located(loop.ForOp(bounds, [], [], body), op)  # type: ignore[return-value]


@dataclass(frozen=True)
class LoopUnrollJamPass(ModulePass):
    """Unroll row loops by `rows` and jam the copies into their inner loops (see the module
    docstring for the form, the legality and why results do not change).

    Input: Loop IR before loop-vectorize (after loop-interchange). Output: each jammable row
    loop whose inner loops reuse a load across rows becomes a loop over groups of `rows` rows
    and a loop over the rest; other loops are unchanged.
    """

    name = "loop-unroll-jam"

    rows: int = 4
    """Rows per group (R); 1 leaves every loop as it is."""
    remarks: bool = False
    """Print JAM_REJECT_* for a row loop with reuse that stays as it is."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.rows < 2:
            return
        for nest in [o for o in op.walk() if isinstance(o, loop.ForOp)]:
            if not _inside(nest, op) or is_innermost(nest):
                continue  # replaced with a jammed row loop already, or nothing to jam into
            deps = LoopDependencies()
            if not reuses_across_rows(nest, deps):
                continue
            if reject := check_jammable(nest, deps):
                if self.remarks:
                    remark(reject.op, reject.code.value, reject.reason)
                continue
            self._jam(nest, deps)

    def _jam(self, rows: loop.ForOp, deps: LoopDependencies) -> None:
        rewriter = PatternRewriter(rows)
        lo, hi = rows.bounds
        c_rows = rewriter.insert(index_const(self.rows, rows)).result
        split, _ = split_point(rewriter, rows, lo, hi, self.rows, c_rows)
        body = Block(arg_types=[IndexType()])
        i = body.args[0]
        i.name_hint = rows.var.name_hint
        mappers: list[dict[SSAValue, SSAValue]] = [{rows.var: i}]
        for r in range(1, self.rows):
            c = index_const(r, rows)
            row = located(arith.AddiOp(i, c.result), rows)
            body.add_ops([c, row])
            mappers.append({rows.var: row.result})
        _Jammer(rows.var, i, deps, mappers).block(rows.body.block, body)
        jammed = located(loop.ForOp([lo, split, c_rows], [], [], body), rows)
        rest = rows.clone()
        rest.operands = [split, hi]
        Rewriter.insert_op(jammed, InsertPoint.before(rows))
        Rewriter.replace_op(rows, rest)


def _inside(op: Operation, ancestor: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.parent_op()
    return False
