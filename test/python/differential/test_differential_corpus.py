"""Every df corpus kernel, compiled with the default pipeline for every ISA, equals numpy.

Covered: each corpus kernel (its own dtype: f32, f64, i32, i64, i1, records, rank 2) ×
scalar, sse2, avx2, avx512 (natively, where this CPU runs them) and neon (under qemu, all
sizes of a kernel in one batched run) × sizes 0, 1, W-1, W, W+1, 2W+3, 1000, 65537 for
each vector width W the compiled kernel uses × (native ISAs) buffers at their natural
alignment and at +1 element, inside canary-filled allocations (a write outside an output
fails the test).

Compared with (diff_harness.expected_for):
* numpy's reference from the REF header, with the case's own tolerance: integers exact,
  float maps exact (or in ulps), reassociated float reductions within the corpus bound;
* on ISAs where the kernel contracts `a*b + c` into an FMA, exact/ulp float results are
  compared instead with the df interpreter running the program after the pipeline's own
  contraction (`df-fuse,loop-simplify{fma=true}`), whose math.fma rounds once. Kernels whose
  reference then needs the interpreter element by element (custom folds and scans) skip
  65537 on those ISAs.
A second test runs each compiled kernel at n = 2W+3 against loopopt's interpreter running
the very simd IR it was printed from: bit-exact for every result (the IR fixes the
association order and the FMAs), so it checks the C printer and the C compiler exactly.

Not covered: NEON with misaligned buffers (the qemu runner copies inputs into fresh
allocations). Known failures in code outside these tests are listed in KNOWN_FAILURES
(strict xfail).
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import Expected, load_corpus
from diff_harness import (
    case_data,
    expected_for,
    fma_reference_is_costly,
    result_extents,
    sizes_for,
    vector_widths,
)

from loopopt.lowering.abi import call_loop_kernel
from loopopt.targets.c_vmath import uses_transcendentals
from loopopt.tools.loop_run import compare_results, contracts_fma, run_compiled, run_compiled_batch

CASES = load_corpus()
NATIVE = ("scalar", "sse2", "avx2", "avx512")

KNOWN_FAILURES: dict[tuple[str, str | None], str] = {}
"""(kernel, ISA or None for every ISA) -> why it fails today, in code outside these tests.
Marked strict xfail: the day it is fixed the test XPASSes and fails, so remove the entry."""


def params(isas):
    """(case, isa) parameters, each marked with its ISA and, if listed above, as a known failure."""
    out = []
    for case in CASES:
        for isa in isas:
            marks = [pytest.mark.isa(isa)]
            why = KNOWN_FAILURES.get((case.kernel, isa)) or KNOWN_FAILURES.get((case.kernel, None))
            if why:
                marks.append(pytest.mark.xfail(reason=why, strict=True))
            out.append(pytest.param(case, isa, marks=marks, id=f"{case.id}-{isa}"))
    return out


def _sizes(case, compiled, isa: str) -> list[int]:
    thin = contracts_fma(compiled.module, case.kernel) and fma_reference_is_costly(case)
    return sizes_for(vector_widths(compiled, case.kernel), large=not thin)


def _check(case, got, expected: Expected, where: str) -> None:
    try:
        case.compare(got, expected)
    except AssertionError as e:
        raise AssertionError(f"{where}: {e}") from None


@pytest.mark.parametrize(("case", "isa"), params(NATIVE))
def test_native_kernel_matches_numpy(case, isa, programs):
    compiled = programs.kernel(case, isa)
    for n in _sizes(case, compiled, isa):
        inputs, ref = case_data(case, n)
        expected, what = expected_for(case, compiled, inputs, ref)
        for offset in (0, 1):
            got = run_compiled(compiled, case.kernel, case.args(inputs), offset, result_extents(case, ref))
            _check(case, got, expected, f"{isa} n={n} offset={offset} (reference: {what})")


@pytest.mark.parametrize(("case", "isa"), params(["neon"]))
def test_neon_kernel_matches_numpy(case, isa, programs):
    compiled = programs.kernel(case, "neon")
    sizes = _sizes(case, compiled, "neon")
    data = [case_data(case, n) for n in sizes]
    runs = run_compiled_batch(compiled, case.kernel, [case.args(inputs) for inputs, _ in data],
                              [result_extents(case, ref) for _, ref in data])
    for n, (inputs, ref), got in zip(sizes, data, runs, strict=True):
        expected, what = expected_for(case, compiled, inputs, ref)
        _check(case, got, expected, f"neon n={n} (reference: {what})")


@pytest.mark.parametrize(("case", "isa"), params((*NATIVE, "neon")))
def test_kernel_matches_its_simd_ir(case, isa, programs):
    """Compiled C == the interpreter on the simd IR it came from, bit for bit, at n = 2W+3."""
    compiled = programs.kernel(case, isa)
    n = 2 * max(vector_widths(compiled, case.kernel)) + 3
    inputs, ref = case_data(case, n)
    extents = result_extents(case, ref)
    interpreted = call_loop_kernel(compiled.module, case.kernel, case.args(inputs), extents)
    if compiled.library is not None:
        got = run_compiled(compiled, case.kernel, case.args(inputs), 1, extents)
    else:
        got = run_compiled_batch(compiled, case.kernel, [case.args(inputs)], [extents])[0]
    if uses_transcendentals(compiled.module):
        # transcendentals (libm on scalars, targets/c_vmath.py on vectors) are correct to some ulps, not bit-equal to
        # the interpreter's numpy: compare with the kernel's own REF tolerance instead
        expected = Expected(interpreted)
        expected.bounds, expected.ulps, expected.rtol = ref.bounds, ref.ulps, ref.rtol
        _check(case, got, expected, f"{isa} n={n} (reference: its simd IR in the interpreter)")
        return
    problems = compare_results(got, interpreted, {})
    assert not problems, f"{isa} n={n}: compiled C differs from its simd IR: " + "; ".join(problems)


def test_comparison_catches_a_wrong_result(programs):
    """The harness can fail: a kernel result off by one ulp is caught (exact) and a sum
    off by more than its bound is caught (reduction)."""
    case = next(c for c in CASES if c.kernel == "affine_f32")
    compiled = programs.kernel(case, "scalar")
    inputs, ref = case_data(case, 9)
    (got,) = run_compiled(compiled, case.kernel, case.args(inputs))
    got = got.copy()
    got[3] = np.nextafter(got[3], np.float32(np.inf))
    with pytest.raises(AssertionError):
        case.compare((got,), ref)
    total = next(c for c in CASES if c.kernel == "sum_f32")
    inputs, ref = case_data(total, 1000)
    (s,) = run_compiled(programs.kernel(total, "scalar"), total.kernel, total.args(inputs))
    with pytest.raises(AssertionError):
        total.compare((np.float32(s + 10 * ref.bounds[0]),), ref)
