"""`loop-interchange{columns=B}`: column reductions walk rows outermost, so the contiguous axis vectorizes.

A reduction over the rows of a row-major matrix (`df.reduce ... over [i]`, a column sum)
lowers to a column loop around a row loop that carries the accumulator:

```
loop.for %j in [%c0, %n_j) {
  %s = loop.for %i in [%c0, %n_i) accs(%a = %init : f32 add reassoc) {
    %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>        // a row apart per iteration
    %t = arith.addf %a, %x : f32
    loop.yield %t : f32
  }
  loop.store %s, %out[%j] : !loop.buf<f32>
}
```
The inner loop walks a column (VEC_REJECT_NONUNIT_STRIDE). Interchanged, the accumulators
live in the output (one per column, a vector of them per SIMD block) and the inner loop
walks a row, contiguously:

```
loop.for %j in [%c0, %n_j) { loop.store %init, %out[%j] : !loop.buf<f32> }
loop.for %i in [%c0, %n_i) {
  loop.for %j in [%c0, %n_j) {
    %a = loop.load %out[%j] : !loop.buf<f32>
    %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
    %t = arith.addf %a, %x : f32
    loop.store %t, %out[%j] : !loop.buf<f32>
  }
}
```
Every column still combines its elements in row order from its init, so the results are
bit-identical to the original nest (float sums without `reassoc` and custom kinds too).
With `columns=B > 0` the columns are walked in blocks of B (2-D tiling), so the block of
accumulators stays in L1 while the rows stream past: `for jb step B { for i { for j in
[jb, min(jb + B, n_j)) } }`.

Legality uses the loop-dependency sets of seed 004 (passes/loop_deps.py): the row loop's
bounds and inits and the store's index do not depend on the column loop's iterations
other than through the column variable; the body only reads memory, and nothing in the
nest writes a buffer the body reads (else a load's dependency set would gain the column
variable through memory); each result is stored once, at an index that moves with the
column. A nest the pass would turn (a body load walking a column) but may not prints
`INTERCHANGE_REJECT_*` with `remarks=true` (docs/remarks.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.passes.decline import Decline
from loopopt.passes.loop_deps import LoopDependencies, defined_inside, is_effect_free, may_write
from loopopt.passes.loop_fusion.noalias import may_alias
from loopopt.passes.loop_surgery import index_const, is_innermost, located, split_point
from loopopt.passes.options import check_options


class InterchangeReject(StrEnum):
    """Why a column-walking reduction nest stays as it is."""

    SHAPE = "INTERCHANGE_REJECT_SHAPE"
    """The nest is not `for j { r = for i accs(...) {...}; store r -> out[.. j ..] }`: other ops
    in the column loop, a result used otherwise, bounds or inits computed per column."""

    DEPENDENCE = "INTERCHANGE_REJECT_DEPENDENCE"
    """The row loop writes memory, or reads a buffer the nest writes (an output it accumulates
    into): running all columns of a row before the next row would change what it reads."""


@dataclass(frozen=True)
class ColumnReduction:
    """A matched nest: the column loop, its row loop and the store of each row-loop result."""

    columns: loop.ForOp
    rows: loop.ForOp
    stores: tuple[loop.StoreOp, ...]
    """`stores[k]` stores `rows.res[k]`."""


def walks_a_column(rows: loop.ForOp, column_var: SSAValue) -> bool:
    """Some load in the row loop moves by whole rows with the row variable and along the
    contiguous (last) index with the column variable: what interchanging makes contiguous."""
    for op in rows.body.walk():
        if isinstance(op, loop.LoadOp) and op.buf_type.rank.data == 2:
            row, col = op.affine_indices
            if row.coeff(rows.var) != 0 and col.coeff(column_var) == 1 and col.coeff(rows.var) == 0:
                return True
    return False


def match_column_reduction(columns: loop.ForOp) -> ColumnReduction | Decline | None:
    """The nest's parts, a Decline naming what stops the interchange, or None when `columns`
    is not a column loop around a column-walking row reduction (nothing to say)."""
    body = [op for op in columns.body.block.ops if not isinstance(op, loop.YieldOp)]
    rows = next((op for op in body if isinstance(op, loop.ForOp)), None)
    if rows is None or not is_innermost(rows) or not walks_a_column(rows, columns.var):
        return None
    if columns.accs.data or not columns.is_interval or not rows.is_interval or not rows.accs.data:
        return Decline(columns, InterchangeReject.SHAPE, "the column loop carries values or a loop is not over an interval")
    stores = [op for op in body if op is not rows]
    if len(stores) != len(rows.res) or not all(isinstance(s, loop.StoreOp) for s in stores):
        return Decline(columns, InterchangeReject.SHAPE, "the column loop does more than run the row loop and store its results")
    by_result = {s.value: s for s in stores if isinstance(s, loop.StoreOp)}
    if set(by_result) != set(rows.res) or any(len(list(r.uses)) != 1 for r in rows.res):
        return Decline(columns, InterchangeReject.SHAPE, "a row-loop result is not stored exactly once")
    ordered = tuple(by_result[r] for r in rows.res)
    if reject := _reject_dependences(columns, rows, ordered):
        return reject
    return ColumnReduction(columns, rows, ordered)


def _reject_dependences(columns: loop.ForOp, rows: loop.ForOp, stores: Sequence[loop.StoreOp]) -> Decline | None:
    """Seed 004's loop-dependency sets decide: what runs once per column before the row loop
    must not depend on the column, and no load may depend on the column through memory."""
    deps = LoopDependencies()
    for v in (*rows.bounds, *rows.inits):
        if defined_inside(v, columns):
            return Decline(rows, InterchangeReject.SHAPE, "the row loop's bounds or inits are computed per column")
    for store in stores:
        moves = [a.coeff(columns.var) != 0 for a in store.affine_indices]
        if moves.count(True) != 1 or deps.of_op(store) - {columns.var, rows.var} - _outer_vars(columns):
            return Decline(store, InterchangeReject.SHAPE, "a result is not stored at an index that moves with the column")
        if any(defined_inside(v, columns) for v in store.indices if v is not columns.var):
            return Decline(store, InterchangeReject.SHAPE, "a result's index is computed per column")
    outs = [s.buf for s in stores]
    if len({*outs}) != len(outs) or any(may_alias(a, b) for k, a in enumerate(outs) for b in outs[k + 1:]):
        return Decline(columns, InterchangeReject.DEPENDENCE, "two results are stored to the same buffer")
    for op in rows.body.walk():
        if op is rows:
            continue
        if isinstance(op, loop.LoadOp):
            if may_write(columns, op.buf):
                # its dependency set would hold the column variable through memory
                return Decline(op, InterchangeReject.DEPENDENCE, "the row loop reads a buffer the nest writes")
        elif not isinstance(op, loop.YieldOp) and not is_effect_free(op):
            return Decline(op, InterchangeReject.DEPENDENCE, f"{op.name} in the row loop has memory effects")
    return None


def _outer_vars(op: Operation) -> set[BlockArgument]:
    out: set[BlockArgument] = set()
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, loop.LoopLike):
            out.add(parent.var)
        parent = parent.parent_op()
    return out


@dataclass
class InterchangeColumnReduction(RewritePattern):
    """`for j { r = for i accs {B}; store r -> out[j] }` -> `for j { store init -> out[j] };
    for i { for j { a = load out[j]; B; store -> out[j] } }` (the module docstring's form),
    the column loop blocked by `columns` when it is > 0."""

    columns: int = 0
    rows: int = 1
    remarks: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, loop.ForOp):
            return
        found = match_column_reduction(op)
        if isinstance(found, Decline):
            if self.remarks:
                found.remark()
            return
        if found is None:
            return
        self._rewrite(found, rewriter)

    def _rewrite(self, nest: ColumnReduction, rewriter: PatternRewriter) -> None:
        cols, rows = nest.columns, nest.rows
        lo_j, hi_j = cols.bounds
        # every column's accumulator starts at its init, in the output
        init_block = Block(arg_types=[IndexType()])
        init_block.args[0].name_hint = cols.var.name_hint
        for store, init in zip(nest.stores, rows.inits, strict=True):
            init_block.add_op(located(_store_like(store, init, {cols.var: init_block.args[0]}), store))
        init_block.add_op(located(loop.YieldOp(), cols))
        rewriter.insert(located(loop.ForOp([lo_j, hi_j], [], [], init_block), cols))

        split: SSAValue | None = None
        if self.rows > 1:
            lo_i, hi_i = rows.bounds
            c_rows = rewriter.insert(index_const(self.rows, rows)).result
            split, _ = split_point(rewriter, rows, lo_i, hi_i, self.rows, c_rows)
        if self.columns > 0:
            c_block = rewriter.insert(index_const(self.columns, cols)).result
            block_loop = Block(arg_types=[IndexType()])
            jb = block_loop.args[0]
            jb.name_hint = "jb"
            end = located(arith.AddiOp(jb, c_block), cols)
            je = located(arith.MinSIOp(end, hi_j), cols)
            je.result.name_hint = "je"
            block_loop.add_ops([end, je, *self._row_loops(nest, jb, je.result, split), located(loop.YieldOp(), cols)])
            rewriter.replace(cols, located(loop.ForOp([lo_j, hi_j, c_block], [], [], block_loop), cols))
        else:
            rewriter.replace(cols, self._row_loops(nest, lo_j, hi_j, split))

    def _row_loops(self, nest: ColumnReduction, lo_j: SSAValue, hi_j: SSAValue, split: SSAValue | None) -> list[Operation]:
        """The row loop over all rows, or with `rows=U` one over groups of U rows up to `split`
        (each column updated U rows at a time, in row order) and one over the rest."""
        lo_i, hi_i = nest.rows.bounds
        if split is None:
            return [self._row_loop(nest, lo_j, hi_j, [lo_i, hi_i], 1)]
        step = _const_like(self.rows, nest.rows)
        return [step, self._row_loop(nest, lo_j, hi_j, [lo_i, split, step.result], self.rows),
                self._row_loop(nest, lo_j, hi_j, [split, hi_i], 1)]

    def _row_loop(self, nest: ColumnReduction, lo_j: SSAValue, hi_j: SSAValue, bounds: Sequence[SSAValue], group: int) -> loop.ForOp:
        """`for i { for j in [lo_j, hi_j) { a = load out[j]; B(i); ...; B(i + group - 1); store out[j] } }`."""
        cols, rows = nest.columns, nest.rows
        row_block = Block(arg_types=[IndexType()])
        i = row_block.args[0]
        i.name_hint = rows.var.name_hint
        col_block = Block(arg_types=[IndexType()])
        j = col_block.args[0]
        j.name_hint = cols.var.name_hint
        current: list[SSAValue] = []
        for store, acc in zip(nest.stores, rows.acc_args, strict=True):
            load = located(loop.LoadOp(store.buf, [a.substitute(cols.var, Affine.var(j)) for a in store.affine_indices]), store)
            load.result.name_hint = acc.name_hint
            col_block.add_op(load)
            current.append(load.result)
        for u in range(group):
            row: SSAValue = i
            if u:  # row i + u, computed outside the column loop (a uniform row for loop-vectorize)
                offset = located(arith.AddiOp(i, _const_like(u, rows, row_block).result), rows)
                row_block.add_op(offset)
                row = offset.result
            mapper: dict[SSAValue, SSAValue] = {rows.var: row, cols.var: j, **dict(zip(rows.acc_args, current, strict=True))}
            for op in rows.body.block.ops:
                if isinstance(op, loop.YieldOp):
                    current = [mapper.get(v, v) for v in op.values]
                    continue
                col_block.add_op(op.clone(mapper))
        for store, value in zip(nest.stores, current, strict=True):
            col_block.add_op(located(_store_like(store, value, {cols.var: j}), store))
        col_block.add_op(located(loop.YieldOp(), cols))
        row_block.add_ops([located(loop.ForOp([lo_j, hi_j], [], [], col_block), cols), located(loop.YieldOp(), rows)])
        return located(loop.ForOp(list(bounds), [], [], row_block), rows)  # type: ignore[return-value]


def _const_like(value: int, like: Operation, block: Block | None = None) -> arith.ConstantOp:
    """`arith.constant value : index` located at `like` (added to `block` when given)."""
    c = index_const(value, like)
    if block is not None:
        block.add_op(c)
    return c


def _store_like(store: loop.StoreOp, value: SSAValue, vars: dict[SSAValue, SSAValue]) -> loop.StoreOp:
    """`store`'s buffer and index (variables renamed by `vars`), storing `value`."""
    indices = list(store.affine_indices)
    for old, new in vars.items():
        indices = [a.substitute(old, Affine.var(new)) for a in indices]
    return loop.StoreOp(value, store.buf, indices)


def populate_loop_interchange_patterns(columns: int = 0, rows: int = 1, remarks: bool = False) -> list[RewritePattern]:
    return [InterchangeColumnReduction(columns, rows, remarks)]


@dataclass(frozen=True)
class LoopInterchangePass(ModulePass):
    """Interchange column-walking reduction nests so the row loop is outermost (see the module
    docstring for the before/after form and the legality rules).

    Input: Loop IR before loop-vectorize. Output: each legal column reduction becomes an init
    loop and a row loop around a contiguous column loop whose accumulators are the output's
    elements (loop-vectorize then makes that loop a vecloop); other loops are unchanged.
    """

    name = "loop-interchange"

    columns: int = 0
    """Walk the columns in blocks of this many (2-D tiling for cache); 0: all columns per row."""
    rows: int = 1
    """Update each column this many rows at a time (unroll-and-jam of the row loop: one load and
    store of the accumulators per group of rows, in row order); the last n mod rows rows one by one."""
    remarks: bool = False
    """Print INTERCHANGE_REJECT_* for a column-walking nest left as it is."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = populate_loop_interchange_patterns(self.columns, self.rows, self.remarks)
        nests = [o for o in op.walk() if isinstance(o, loop.ForOp)]
        for nest in nests:
            if nest.parent is None:
                continue
            rewriter = PatternRewriter(InsertPoint.before(nest))
            for pattern in patterns:
                pattern.match_and_rewrite(nest, rewriter)
                if rewriter.has_done_action:
                    break
