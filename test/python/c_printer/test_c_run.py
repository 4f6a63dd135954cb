"""Printed simd-level kernels run through the runtime and agree with numpy and with the interpreter.

Sizes sweep the vector width (0, 1, W-1, W, W+1, 3W+1, and a longer one) so both the main
vector loop and the tail (scalar loop or masked vector step) run. NEON runs under qemu.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from isa_support import isa_params
from cprint_programs import ELTS, lanes, programs
from loopopt.compile import compile, parse
from loopopt.lowering.abi import call_loop_kernel


@functools.cache
def compiled(isa: str, elt: str):
    source = "builtin.module {\n" + "\n".join(p.mlir for p in programs(isa, elt)) + "}\n"
    return compile(source, target=isa, pipeline="")


def sizes(w: int) -> list[int]:
    return sorted({0, 1, max(w - 1, 0), w, w + 1, 3 * w + 1, 37})


def check(name: str, got, want, exact: bool) -> None:
    assert len(got) == len(want), name
    for g, w in zip(got, want):
        if exact:
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=name)
        else:  # float sums: the vector order differs from numpy's pairwise sum
            np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64), rtol=1e-5, atol=1e-4, err_msg=name)


@pytest.mark.parametrize("elt", ELTS)
@pytest.mark.parametrize("isa", isa_params())
def test_programs_match_numpy(isa: str, elt: str) -> None:
    kernels = compiled(isa, elt)
    rng = np.random.default_rng(1)
    for p in programs(isa, elt):
        cases = [p.make_inputs(n, rng) for n in sizes(lanes(isa, elt))]
        if isa == "neon":  # one emulator run for all sizes
            results = [(*outs, *res) for outs, res in kernels[p.name].batch(cases)]
        else:
            results = [kernels.outputs_and_results(p.name, *inputs) for inputs in cases]
        for inputs, got in zip(cases, results):
            check(f"{isa} {p.name} n={len(inputs[0])}", got, p.reference(*inputs), p.exact)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
@pytest.mark.parametrize("elt", ["f32", "f64"])
@pytest.mark.parametrize("kind", ["min", "max"])
def test_min_max_propagate_nan(isa: str, elt: str, kind: str) -> None:
    """x86 min/max drop NaN unless fixed up: a NaN anywhere (main loop or tail) must win."""
    kernels = compiled(isa, elt)
    w = lanes(isa, elt)
    for n in (w, 3 * w + 1):
        for where in range(n):
            x = np.arange(n, dtype=elt.replace("f", "float"))
            x[where] = np.nan
            init = np.inf if kind == "min" else -np.inf
            got = kernels.call_alloc(f"reduce_{kind}_{elt}", x, x.dtype.type(init))
            assert np.isnan(got), f"{isa} reduce_{kind}_{elt} n={n}: NaN at {where} lost ({got})"


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
@pytest.mark.parametrize("name", ["filter_pos_f32", "relu_count_i64", "reduce_max_i32", "axpy_f64"])
def test_programs_match_interpreter(isa: str, name: str) -> None:
    """The C and the simd/loop interpreter run the same module to the same results."""
    elt = name.rsplit("_", 1)[1]
    program = next(p for p in programs(isa, elt) if p.name == name)
    module = parse("builtin.module {\n" + program.mlir + "}\n")
    kernels = compiled(isa, elt)
    rng = np.random.default_rng(2)
    for n in sizes(lanes(isa, elt)):
        inputs = program.make_inputs(n, rng)
        interpreted = call_loop_kernel(module, name, inputs)
        native = kernels.outputs_and_results(name, *inputs)
        sig = kernels.signatures[name]
        counts = {o.count_result for o in sig.outputs if o.count_result is not None}
        outputs, results = native[: len(sig.outputs)], native[len(sig.outputs) :]
        for o, out in zip(sig.outputs, outputs):  # a filter's count is its output's length in df terms
            if o.count_result is not None:
                assert results[o.count_result] == len(out)
        native = (*outputs, *(r for k, r in enumerate(results) if k not in counts))
        assert len(interpreted) == len(native)
        for a, b in zip(native, interpreted):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f"{isa} {name} n={n}")
