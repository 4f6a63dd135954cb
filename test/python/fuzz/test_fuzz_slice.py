"""CI's fixed-seed slice of the differential fuzzer (docs/fuzzing.md).

200 random df kernels (seed 20261125, the default exclusions) compiled for the scalar target
and this CPU's best vector ISA and run on sizes 0..127 against the numpy evaluator; a sample
under qemu for NEON and, where this CPU lacks AVX-512, a sample compiled for it. Any
mismatch, internal error, C compile error, crash or timeout fails the test with the failing
kernel minimized in the message. `make fuzz` runs the same fuzzer for a time budget with a
fresh seed.
"""

from __future__ import annotations

import pytest

from loopopt.runtime.isa import host_isas, neon_runner_available
from loopopt.tools.fuzz.generate import GenOptions, Generator
from loopopt.tools.fuzz.minimize import minimize
from loopopt.tools.fuzz.printer import print_kernel
from loopopt.tools.fuzz.runner import FAILURES, BatchRunner, Stats

SEED = 20261125
PROGRAMS = 200
BATCH = 50


def slice_isas() -> list[str]:
    host = host_isas()
    isas = ["scalar"]
    best = next((i for i in ("avx512", "avx2", "sse2") if i in host), None)
    if best:
        isas.append(best)
    if neon_runner_available()[0]:
        isas.append("neon")
    if "avx512" not in host:
        isas.append("avx512")  # compiled only
    return isas


def test_fixed_seed_slice() -> None:
    stats = Stats()
    runner = BatchRunner(slice_isas(), stats, neon_sample=3, compile_only_sample=4, small_sizes=True)
    options = GenOptions()
    for b in range(PROGRAMS // BATCH):
        kernels = [Generator(SEED * 1000 + b * BATCH + k, options).kernel(f"s{b}_{k}") for k in range(BATCH)]
        runner.run_batch(kernels, SEED + b)
    print(stats.table())
    assert stats.total("programs") >= PROGRAMS
    assert stats.total("runs") > PROGRAMS  # the kernels really ran
    failures = [f for f in runner.failures if f.cls in FAILURES or f.cls == "evaluator_error"]
    if failures:
        first = failures[0]
        small = minimize(first, budget=15) if first.cls != "evaluator_error" else first
        listing = "\n".join(f"  {f.cls} on {f.isa}: @{f.kernel.name}" for f in failures[:20])
        pytest.fail(
            f"{len(failures)} fuzzer failures:\n{listing}\n\nfirst, minimized ({small.cls} on {small.isa}, "
            f"n={small.n} seed={small.seed}):\n{print_kernel(small.kernel)}\n{small.message[:3000]}\n\n{stats.table()}"
        )
