"""loop-unroll-jam keeps every float sum's order: the jammed Loop IR of the corpus's f32 matrix
product, run by the loop interpreter, equals the df interpreter bit for bit (each element of C
still adds its products over j in order from 0), at row counts around R = 3."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from loopopt.compile import make_context, parse, run_pipeline
from loopopt.dialects import loop
from loopopt.interp.runner import run_function
from loopopt.lowering.abi import call_loop_kernel

ROOT = Path(__file__).resolve().parents[3]
SOURCE = (ROOT / "test" / "corpus" / "df" / "matmul.mlir").read_text()
LOWER = "df-fuse,convert-df-to-loop,loop-fuse,loop-simplify,loop-licm,loop-interchange{rows=2},loop-unroll-jam{rows=3}"


@pytest.mark.parametrize("rows", [0, 1, 2, 3, 4, 7])
def test_jammed_loop_ir_matches_the_df_interpreter_bit_for_bit(rows: int) -> None:
    rng = np.random.default_rng(rows)
    a = (rng.standard_normal((rows, 5)) * 1e3).astype(np.float32)
    b = (rng.standard_normal((5, 6)) * 1e-3).astype(np.float32)
    (expected,) = run_function(parse(SOURCE, make_context()), "matmul_f32", a, b)
    module = parse(SOURCE, make_context())
    run_pipeline(module, LOWER, make_context())
    steps = {op.step.owner.value.value.data for op in module.walk()  # type: ignore[union-attr]
             if isinstance(op, loop.ForOp) and op.step is not None}
    assert 3 in steps  # the rows were jammed by 3
    (got,) = call_loop_kernel(module, "matmul_f32", [a, b])
    assert np.asarray(got, np.float32).tobytes() == np.asarray(expected, np.float32).tobytes()
