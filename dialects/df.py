"""The `df` dialect: loop-free dataflow over arrays with named axes.

A df kernel is a `func.func` whose arguments and results are `!df.array` values and
scalars. Its body is a graph of map / filter / select / reduce / fold / scan nodes with
typed edges (dtype + axes in every type); there are no loops, buffers or indices yet.
`convert-df-to-loop` later turns domains into loops and reductions into accumulators.

Region-holding ops (map, filter, reduce, fold, scan) take a body whose entry block binds
the elements (and accumulators) as scalars; bodies use `arith`/`math`, may capture scalars
defined outside, and end in `df.yield`.

Horizontal fusion: one `df.reduce` carries several (kind, input, init) triples over one
domain and gives one result per triple (mean and variance in one pass), instead of a
separate multi-result op, so single and fused reductions share one verifier, one lowering
and one interpreter path. The custom triples share the body: its block takes
(acc_1..acc_m, x_1..x_m) for the m custom triples, in order, and yields the m new accs.

Fused forms: df-fuse's results are ordinary df ops whose fusion is spelled in verified
regions and properties, never in discardable attributes, so any pass may rewrite them:
`df.reduce` with an optional `map` prologue (map → reduce; partial reductions too) and an
optional `where` predicate (filter → reduce), `df.filter` with an optional `map` region
(filter → map), `df.scan` with an optional `map` prologue (map → scan). Each means exactly
the unfused chain. A `df.fold` that absorbs a map simply composes it into its body (exact,
no contract); df.fold stays for genuinely sequential custom folds.

Effects: everything is pure except `df.random` (reads and advances an RNG); region ops
have the effects of their bodies; `df.decl_ref` has the effects of the referenced
declaration; a `func.call` in a body has unknown effects (xDSL's default).

The ops live in one module per family, which this module gathers into the `DF` dialect (and
re-exports, so `df.MapOp` and `from loopopt.dialects.df import kind_combiner` keep working):
df_sources (constant, range, random), df_elementwise (map, filter, select), df_gather (gather), df_reductions
(reduce, fold, scan), df_records (tuples and records), df_decl_ref; df_body holds df.yield and
the body contract. What the ops share: df_syntax (custom-syntax pieces), df_verify (verifier
helpers), df_types (the types and the reduction kind attribute).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from loopopt.dialects.df_body import YieldOp
from loopopt.dialects.df_decl_ref import DeclRefEffects, DeclRefOp, DeclRefSymbolUse
from loopopt.dialects.df_elementwise import FilterOp, MapOp, SelectOp
from loopopt.dialects.df_gather import GatherOp
from loopopt.dialects.df_records import FieldOp, GetOp, MakeRecordsOp, MakeTupleOp
from loopopt.dialects.df_reductions import FoldOp, ReduceOp, ScanOp, kind_combiner, reduced_type
from loopopt.dialects.df_sources import ConstantOp, RandomEffect, RandomOp, RangeOp
from loopopt.dialects.df_types import ArrayType, RecordType, ReduceKind, ReduceKindAttr

__all__ = [
    "DF",
    "ArrayType",
    "RecordType",
    "ReduceKind",
    "ReduceKindAttr",
    "ConstantOp",
    "RangeOp",
    "RandomEffect",
    "RandomOp",
    "MapOp",
    "FilterOp",
    "SelectOp",
    "GatherOp",
    "ReduceOp",
    "FoldOp",
    "ScanOp",
    "kind_combiner",
    "reduced_type",
    "MakeTupleOp",
    "GetOp",
    "MakeRecordsOp",
    "FieldOp",
    "DeclRefSymbolUse",
    "DeclRefEffects",
    "DeclRefOp",
    "YieldOp",
]


DF = Dialect(
    "df",
    [
        # sources and scalars
        ConstantOp,
        RangeOp,
        RandomOp,
        # elementwise
        MapOp,
        FilterOp,
        SelectOp,
        GatherOp,
        # reductions
        ReduceOp,
        FoldOp,
        ScanOp,
        # tuples and records
        MakeTupleOp,
        GetOp,
        MakeRecordsOp,
        FieldOp,
        # declarations
        DeclRefOp,
        # terminator
        YieldOp,
    ],
    [ArrayType, RecordType, ReduceKindAttr],
)
