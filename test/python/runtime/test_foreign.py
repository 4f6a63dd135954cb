"""NEON kernels under qemu-aarch64: round trips, batches, and agreement with the native build."""

import numpy as np
import pytest
from rt_kernels import DOT_SIG, DOT_SOURCES, MIXED_SIGS, MIXED_SOURCE

from loopopt.runtime import ForeignKernel, ForeignRunError, compile_library, run_foreign, run_foreign_batch
from loopopt.runtime.signature import ArrayParam, KernelSignature, ScalarParam

pytestmark = pytest.mark.isa("neon")

SIGS = {s.name: s for s in MIXED_SIGS}


def test_neon_dot_round_trip():
    rng = np.random.default_rng(1)
    x = rng.integers(-8, 9, 37).astype(np.float32)
    y = rng.integers(-8, 9, 37).astype(np.float32)
    outputs, results = run_foreign(DOT_SOURCES["neon"], DOT_SIG, [x, y])
    assert outputs == [] and results == (np.dot(x, y),) and type(results[0]) is np.float32


def test_batch_matches_native_build_for_every_kind_of_kernel():
    native = compile_library(MIXED_SOURCE, MIXED_SIGS, isa="scalar")
    rng = np.random.default_rng(2)
    cases = {
        "lo_scale": [(rng.standard_normal(n).astype(np.float32), 1.5) for n in (0, 1, 17)],
        "lo_keep_above": [(rng.standard_normal(n), 0.25) for n in (0, 9, 40)],
        "lo_positive": [(rng.integers(-5, 5, n).astype(np.int32),) for n in (0, 3, 31)],
        "lo_mark": [(np.array([1, 2, 1], np.int32), 1, False), (np.array([4, 5], np.int32), 3, True)],
        "lo_row_sums": [(rng.standard_normal((3, 5)), np.array([1, -2, 3], np.int64))],
        "lo_col_sums_t": [(rng.integers(-9, 9, (r, c)).astype(np.int32),) for r, c in ((3, 5), (1, 7), (4, 0))],
    }
    for name, inputs in cases.items():
        got = run_foreign_batch(MIXED_SOURCE, SIGS[name], inputs)
        assert len(got) == len(inputs)
        for args, (outputs, results) in zip(inputs, got):
            expected = native.call_alloc(name, *args)
            n_out = len(SIGS[name].outputs)
            for a, b in zip(outputs, expected[:n_out]):
                assert a.dtype == b.dtype
                np.testing.assert_array_equal(a, b)
            assert results == tuple(expected[n_out:])
            assert [type(r) for r in results] == [type(e) for e in expected[n_out:]]


def test_foreign_kernel_validates_like_the_native_wrapper():
    k = ForeignKernel(MIXED_SOURCE, SIGS["lo_scale"])
    x = np.arange(4, dtype=np.float32)
    with pytest.raises(TypeError, match="'x' expects dtype float32, found float64"):
        k(x.astype(np.float64), 1.0)
    with pytest.raises(TypeError, match="'a' expects a f32 scalar"):
        k(x, "one")
    with pytest.raises(TypeError, match="takes 2 inputs"):
        k(x)
    dot = ForeignKernel(DOT_SOURCES["neon"], DOT_SIG)
    with pytest.raises(ValueError, match="length mismatch on axis 'n': 'x' has 4 but 'y' has 3"):
        dot(x, x[:3])
    # Strided inputs are serialized contiguously rather than refused.
    (outs, _), = k.batch([(np.arange(8, dtype=np.float32)[::2], 2.0)])
    np.testing.assert_array_equal(outs[0], [0, 4, 8, 12])


def test_extents_size_outputs_no_input_has():
    source = r"""
#include <stdint.h>
void lo_iota(int64_t n, int64_t *restrict out, int64_t out_len) { (void)out_len; for (int64_t i = 0; i < n; i++) out[i] = i; }
"""
    sig = KernelSignature("lo_iota", (ScalarParam("n", "i64"), ArrayParam("out", "i64", output=True, axes=("r",))))
    with pytest.raises(ValueError, match="cannot size output 'out': no input has axis 'r'"):
        run_foreign(source, sig, [3])
    ((a,), _), ((b,), _) = run_foreign_batch(source, sig, [(3,), (5,)], extents=[{"r": 3}, {"r": 5}])
    np.testing.assert_array_equal(a, np.arange(3))
    np.testing.assert_array_equal(b, np.arange(5))
    (c,), _ = run_foreign(source, sig, [2], extents={"r": 2})
    np.testing.assert_array_equal(c, np.arange(2))


def test_crashing_kernel_reports_the_failure():
    source = r"""
#include <stdint.h>
#include <stdlib.h>
int64_t lo_crash(const int64_t *restrict x, int64_t n) { (void)x; if (n == 3) abort(); return n; }
"""
    sig = KernelSignature("lo_crash", (ArrayParam("x", "i64"),), ("i64",))
    assert run_foreign(source, sig, [np.zeros(2, np.int64)]) == ([], (2,))
    with pytest.raises(ForeignRunError, match="lo_crash: qemu-aarch64 .* exited with status"):
        run_foreign(source, sig, [np.zeros(3, np.int64)])


def test_only_foreign_isas_have_a_runner():
    with pytest.raises(ValueError, match="no foreign runner"):
        ForeignKernel(DOT_SOURCES["scalar"], DOT_SIG, isa="avx2")
