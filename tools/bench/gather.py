"""Gathers on this CPU: the ISA's gather instruction vs scalar loads lane by lane vs scalar C.

    python -m loopopt.tools.bench.gather [--n 1048576] [--reps 9] [--cpu zen4] [--isas avx2,avx512]

A sum of x[idx] (df.gather + reduce, f32 by i32 and f64 by i64) over n random in-bounds
indices, from a source in L1 (4 Ki elements) and one in DRAM (16 Mi elements), compiled for
AVX2 and AVX-512 (`--isas`) with `cpu=zen4` (`--cpu`) twice: as the CPU table chooses (the instruction on every
tabled x86 CPU) and with the gathers forced `lanewise`. Process CPU time, best of `reps`
interleaved runs (the numbers in docs/vectorize_codes.md "Gathers"); print the load average
next to them.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import loopopt.lowering.loop_to_simd.gather as gather
from loopopt.compile import compile

SOURCE = """
func.func @gsum(%x: !df.array<T, [j]>, %idx: !df.array<I, [i]>) -> T {
  %zero = arith.constant 0.0 : T
  %g = df.gather %x[%idx] : !df.array<T, [j]>, !df.array<I, [i]> -> !df.array<T, [i]>
  %s = df.reduce add(%g, %zero) over [i] reassoc : !df.array<T, [i]> -> T
  func.return %s : T
}
"""


def build(isa: str, t: str, i: str, lanewise: bool, cpu: str = "zen4"):
    """The kernel for `isa` and `cpu`, its gathers lane by lane when `lanewise`."""
    src = SOURCE.replace("T", t).replace("I", i)
    if isa == "scalar":
        return compile(src, target="scalar")
    saved = gather.SCALAR_LOAD_LANE_COST
    gather.SCALAR_LOAD_LANE_COST = 0.0 if lanewise else saved
    try:
        return compile(src + ("// lanewise\n" if lanewise else ""), target=isa,
                       pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    finally:
        gather.SCALAR_LOAD_LANE_COST = saved


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--cpu", default="zen4", help="the cpu= both forms are compiled for")
    ap.add_argument("--isas", default="avx2,avx512", help="comma-separated vector targets")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for t, i, dt, it in (("f32", "i32", np.float32, np.int32), ("f64", "i64", np.float64, np.int64)):
        isas = args.isas.split(",")
        kernels = {(isa, lw): build(isa, t, i, lw, args.cpu) for isa in isas for lw in (False, True)}
        kernels[("scalar", False)] = build("scalar", t, i, False)
        for nx in (4096, 1 << 24):
            x = rng.standard_normal(nx).astype(dt)
            idx = rng.integers(0, nx, args.n).astype(it)
            best = dict.fromkeys(kernels, float("inf"))
            for _ in range(args.reps):
                for key, k in kernels.items():
                    t0 = time.process_time()
                    k.gsum(x, idx)
                    best[key] = min(best[key], time.process_time() - t0)
            row = ", ".join(f"{isa}{'-lanewise' if lw else ''} {best[(isa, lw)] * 1e3:.2f} ms" for isa, lw in kernels)
            print(f"{t} by {i}, len(x)={nx}, n={args.n}: {row}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
