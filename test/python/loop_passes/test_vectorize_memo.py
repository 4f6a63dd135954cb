"""loop-vectorize's per-signature answers (vectorize_table.missing_vector_form) equal what the
unremembered check says, op by op."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float16Type, Float32Type, IntegerType
from xdsl.dialects.test import TestOp as _TestOp  # (not a pytest class: no collection warning)

import loopopt.compile as lc
from loopopt.passes import vectorize_table

ROOT = Path(__file__).resolve().parents[3]


def _loop_modules():
    for path in sorted((ROOT / "test/corpus/df").glob("*.mlir")):
        ctx = lc.make_context()
        module = lc.parse(path.read_text(), ctx, path.name)
        lc.run_pipeline(module, "df-fuse,convert-df-to-loop", ctx)
        yield module


def test_remembered_answers_equal_the_check_on_the_corpus():
    seen = 0
    for module in _loop_modules():
        for op in module.walk():
            assert vectorize_table.missing_vector_form(op) == vectorize_table._missing_vector_form(op), op
            seen += 1
    assert seen > 1000


def test_an_answer_is_remembered_per_operand_and_result_types():
    """addf on f32 has a form; on f16 (storage lanes) it has none: the f32 answer must not be reused."""
    f16, f32 = Float16Type(), Float32Type()
    x32, x16 = (_TestOp(result_types=[t]).results[0] for t in (f32, f16))
    assert vectorize_table.missing_vector_form(arith.AddfOp(x32, x32)) is None
    assert "storage" in vectorize_table.missing_vector_form(arith.AddfOp(x16, x16))
    # a conversion to i1 (no simd form) after the same conversion to i32 (one)
    i64 = _TestOp(result_types=[IntegerType(64)]).results[0]
    assert vectorize_table.missing_vector_form(arith.TruncIOp(i64, IntegerType(32))) is None
    assert "to i1" in vectorize_table.missing_vector_form(arith.TruncIOp(i64, IntegerType(1)))
