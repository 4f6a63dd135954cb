"""df.kind_combiner is the shared ReductionKind.arith_combiner restricted to what df defines
(df_types.kind_accepts): the arith op of every (kind, element type) df.reduce / df.scan
accept, None for the rest, so the lowering and df-fuse never build an op df rejects."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import f32, f64, i1, i32, i64

from loopopt.dialects.df import RecordType, ReduceKind, kind_combiner
from loopopt.dialects.df_types import kind_accepts

TYPES = [f32, f64, i1, i32, i64, RecordType([("x", f32)])]


@pytest.mark.parametrize("kind", list(ReduceKind))
@pytest.mark.parametrize("t", TYPES, ids=str)
def test_combiner_is_the_shared_one_where_df_defines_the_kind(kind, t):
    op = kind_combiner(kind, t)
    if kind is ReduceKind.CUSTOM or not kind_accepts(kind, t):
        assert op is None
    else:
        assert op is not None and op is kind.arith_combiner(t)


@pytest.mark.parametrize("kind, t, expected", [
    (ReduceKind.MIN, f32, arith.MinimumfOp),  # NaN-propagating, like the interpreter's np.minimum
    (ReduceKind.MAX, f64, arith.MaximumfOp),
    (ReduceKind.ADD, i32, arith.AddiOp),
    (ReduceKind.MIN, i64, arith.MinSIOp),
    (ReduceKind.MIN, i1, arith.AndIOp),
    (ReduceKind.MAX, i1, arith.OrIOp),
    (ReduceKind.OR, i1, arith.OrIOp),
    (ReduceKind.ADD, i1, None),  # df has no i1 sum (the verifier rejects it)
    (ReduceKind.AND, f32, None),
    (ReduceKind.MIN, RecordType([("x", f32)]), None),
])  # fmt: skip
def test_combiner_spelled_out(kind, t, expected):
    assert kind_combiner(kind, t) is expected
