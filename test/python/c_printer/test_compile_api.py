"""`loopopt.compile`: text or module in, callable kernels out; errors carry their location."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isa_support import isa_params
from loopopt.compile import CompiledKernels, compile, parse
from loopopt.diagnostics import LoopoptDiagnostic

SCALAR_KERNEL = """
func.func @scale_sum(%x: !loop.buf<f64> {loop.role = "in", loop.axes = ["i"]}, %k: f64,
                     %out: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"]}) -> f64 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  %n = loop.dim %x, 0 : !loop.buf<f64>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f64 add) {
    %v = loop.load %x[%i] : !loop.buf<f64>
    %y = arith.mulf %v, %k : f64
    loop.store %y, %out[%i] : !loop.buf<f64>
    %t = arith.addf %acc, %y : f64
    loop.yield %t : f64
  }
  func.return %s : f64
}
"""


@pytest.mark.parametrize("source_kind", ["text", "module"])
def test_compile_scalar_loop_ir(source_kind: str) -> None:
    source = SCALAR_KERNEL if source_kind == "text" else parse(SCALAR_KERNEL)
    kernels = compile(source, target="scalar", pipeline="")
    assert isinstance(kernels, CompiledKernels) and list(kernels) == ["scale_sum"]
    x = np.arange(5.0)
    out = np.zeros(5)
    total = kernels.scale_sum(x, 2.0, out)
    np.testing.assert_array_equal(out, 2 * x)
    assert total == 20.0
    assert kernels.call_alloc("scale_sum", x, 3.0)[1] == 30.0
    assert "double scale_sum(const double *restrict x, int64_t x_len, double k, double *restrict out" in kernels.c_source


def test_native_target_picks_the_best_host_isa() -> None:
    from loopopt.runtime import best_isa

    assert compile(SCALAR_KERNEL, pipeline="").target == best_isa()


def test_unprintable_op_is_a_located_error() -> None:
    bad = SCALAR_KERNEL.replace("%y = arith.mulf %v, %k : f64", "%y = math.sinh %v : f64")
    with pytest.raises(LoopoptDiagnostic, match="cannot print math.sinh") as info:
        compile(bad, target="scalar", pipeline="")
    assert str(info.value).startswith("<string>:9:5: error:")


def test_unknown_pass_is_reported() -> None:
    with pytest.raises(ValueError, match="no-such-pass"):
        compile(SCALAR_KERNEL, target="scalar", pipeline="no-such-pass")


EXAMPLE = Path(__file__).parents[3] / "examples" / "sum_of_squares.mlir"


# passes/simplify_rules.py (loop-simplify{fma=true}) still calls the deprecated rewriter.insert_op;
# reported to its owner, ignored here so that this test checks the printer and the runtime.
@pytest.mark.filterwarnings("ignore:Use .insert:DeprecationWarning")
@pytest.mark.parametrize("isa", isa_params())
def test_df_example_end_to_end(isa: str) -> None:
    """df source -> default pipeline -> printed C -> runtime, for every ISA, against numpy."""
    kernels = compile(EXAMPLE.read_text(), target=isa)
    assert f"target: {isa}" in kernels.c_source
    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 8, 9, 17, 33):
        x = rng.standard_normal(n).astype(np.float32)
        total = kernels.call_alloc("sumsq", x)
        np.testing.assert_allclose(total, (x.astype(np.float64) ** 2).sum(), rtol=1e-5, atol=1e-6)
        scaled, count = kernels.call_alloc("scale_positive", x, np.float32(3))
        np.testing.assert_array_equal(scaled, np.float32(3) * x[x > 0])
        assert count == int((x > 0).sum())
