"""df-fuse keeps every corpus kernel's answers and fuses what it should.

Each kernel runs through the df interpreter before and after `df-fuse` on random inputs
of sizes 0, 1, 7, 8, 9, 1000 and 1009: array results and integer results are identical;
float scalar results (reductions, whose order a fold may change) stay within the
corpus's stated bound of the numpy reference.
"""

from __future__ import annotations

import sys
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "df"))
from corpus import SIZES, load_corpus  # noqa: E402

from loopopt.passes.df_fuse import DFFusePass  # noqa: E402
from loopopt.passes.df_fusion import FusionOptions, populate_df_fusion_patterns  # noqa: E402
from loopopt.passes.df_fusion.legality import Rejection  # noqa: E402

FUSED_FORMS_DIR = Path(__file__).resolve().parent / "fused_forms"
"""Extra kernels whose chains become df's fused forms (same REF format as the corpus)."""
CASES = load_corpus() + load_corpus(FUSED_FORMS_DIR)


def fused(module: ModuleOp, **options) -> ModuleOp:
    out = module.clone()
    DFFusePass(**options).apply(Context(), out)
    out.verify()
    return out


def df_ops(module: ModuleOp, kernel: str) -> Counter[str]:
    func = next(op for op in module.walk() if isinstance(op, FuncOp) and op.sym_name.data == kernel)
    return Counter(op.name for op in func.body.block.ops if op.name.startswith("df."))


def _same(before, after, what: str) -> None:
    if isinstance(before, dict):
        for f in before:
            _same(before[f], after[f], f"{what}.{f}")
    elif isinstance(before, tuple):
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            _same(b, a, f"{what}[{k}]")
    else:
        b, a = np.asarray(before), np.asarray(after)
        assert a.dtype == b.dtype and a.shape == b.shape, what
        np.testing.assert_array_equal(a, b, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fusion_preserves_answers(case):
    after_module = fused(case.module())
    for n in SIZES:
        rng = np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode()))
        inputs = case.make_inputs(n, rng)
        before = case.run(inputs)
        after = case.run(inputs, after_module)
        case.compare(after, case.reference(inputs))
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            scalar_float = np.ndim(b) == 0 and not isinstance(b, dict | tuple) and \
                np.issubdtype(np.asarray(b).dtype, np.floating)
            if not scalar_float:  # arrays (maps) and integers: bit-exact
                _same(b, a, f"{case.id} n={n} result {k}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fixpoint_and_no_discardable_semantics(case):
    """After the pass no pattern has a legal candidate left, and no fused op carries a
    discardable attribute (fusion lives in verified regions and properties)."""
    module = fused(case.module())
    patterns = populate_df_fusion_patterns(FusionOptions())
    for op in module.walk():
        for p in patterns:
            legal = [c for c in p.candidates(op) if not isinstance(c, Rejection)]
            assert not legal, f"{case.id}: {type(p).__name__} still applies to {op.name}"
        if op.name.startswith("df."):
            assert not op.attributes, f"{case.id}: {op.name} carries {dict(op.attributes)}"


EXPECTED = {
    # kernel: df ops left in the kernel after df-fuse
    "map_chain_f32": {"df.map": 1},
    "zip_of_maps_i32": {"df.map": 1},
    "dot_f64": {"df.reduce": 1},                            # map prologue
    "max_abs_i64": {"df.reduce": 1},
    "hash_fold_i64": {"df.fold": 1},                        # map composed into the body
    "shared_square_f32": {"df.map": 1, "df.reduce": 1},     # cheap producer recomputed
    "costly_shared_f64": {"df.map": 2},                     # 9 ops > 8: materialized
    "positive_sum_f32": {"df.reduce": 1},                   # where predicate
    "even_count_max_i32": {"df.fold": 1},                   # filter recomputed, then fold ∥ where-reduce
    "mean_var_f32": {"df.reduce": 1},                       # horizontal, one with a prologue
    "min_max_sum_i64": {"df.reduce": 1},
    "var_two_pass_f64": {"df.reduce": 2},                   # the variance reads the mean
    "row_col_sums_i32": {"df.reduce": 2},                   # different reduced axes
    "ordered_and_free_sums_f32": {"df.reduce": 2},          # reassoc vs sequential
    "mean_var_f64": {"df.reduce": 1},                       # stats.mlir
    "even_times3_i32": {"df.filter": 1},                    # filter with a map region
    "count_above_i64": {"df.constant": 2, "df.reduce": 1},  # filter → map → reduce: where + map
    # fused_forms/fused_forms.mlir
    "scan_of_squares_i64": {"df.scan": 1},
    "row_sumsq_col_max_i32": {"df.reduce": 2},              # partial reductions with prologues
    "odd_scaled_shifted_i32": {"df.filter": 1},             # filter → map → map
    "gaps_where_below_f64": {"df.filter": 1},
    "positive_stats_f32": {"df.reduce": 1},                 # same predicate: one reduce
    "sumsq_and_max_product_i64": {"df.reduce": 1},          # merged prologues
    "below_above_counts_i64": {"df.reduce": 2},             # different predicates
    "even_tripled_hash_i64": {"df.fold": 1},
    "nonzero_custom_max_abs_i32": {"df.reduce": 1},
}


@pytest.mark.parametrize("kernel", sorted(EXPECTED))
def test_fusable_chains_fused(kernel):
    case = next(c for c in CASES if c.kernel == kernel)
    assert dict(df_ops(fused(case.module()), kernel)) == EXPECTED[kernel]


def test_options_change_decisions():
    case = next(c for c in CASES if c.kernel == "shared_square_f32")
    assert dict(df_ops(fused(case.module(), recompute=False), case.kernel)) == \
        {"df.map": 2, "df.reduce": 1}
    assert dict(df_ops(fused(case.module(), max_recompute_ops=0), case.kernel)) == \
        {"df.map": 2, "df.reduce": 1}
    case = next(c for c in CASES if c.kernel == "min_max_sum_i64")
    assert dict(df_ops(fused(case.module(), horizontal=False), case.kernel)) == {"df.reduce": 3}
