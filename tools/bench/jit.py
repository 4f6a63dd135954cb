"""Time loopopt.jit against plain numpy and against the hand-written df kernel (run by hand).

    .venv/bin/python tools/bench/jit.py [--n 1048576] [--target native] [--repeat 30]

Prints a markdown table (the one in docs/jit.md): per function, the best-of-`repeat` time of
numpy, of the jitted function (dispatch included) and, for the example of the issue, of the
same kernel written by hand in df and compiled with loopopt.compile; then the per-call
dispatch overhead of the jit over the raw kernel call on 8 elements, and the call overhead of
functions with array results at 4 Ki elements (`array_overhead`). Not run in CI.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import loopopt
from loopopt.tools.bench.env import cpu_model
from loopopt.tools.bench.timing import best_wall

HAND_DF = """
func.func @sum_where(%x: !df.array<f32, [i]>, %a: f32) -> f32 {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %e, %zero : f32
    %s = arith.mulf %e, %a : f32
    %r = arith.select %p, %s, %zero : f32
    df.yield %r : f32
  }
  %z = arith.constant 0.0 : f32
  %t = df.reduce add(%m, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %t : f32
}
"""


def sum_where(x, a):
    return np.sum(np.where(x > 0, x * a, 0))


def axpy(a, x, y):
    return a * x + y


def mask_sum(x, t):
    return np.sum(x[x > t])


def mask_index(x, t):
    return x[x > t]


def relu_clip(x):
    return np.clip(np.maximum(x, 0), 0, 1)


def variance(x):
    return np.mean((x - np.mean(x)) ** 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--target", default="native")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    n, rng = args.n, np.random.default_rng(0)
    x = (rng.standard_normal(n)).astype(np.float32)
    y = (rng.standard_normal(n)).astype(np.float32)
    a = np.float32(1.5)
    cases = [
        (sum_where, (x, a)),
        (axpy, (a, x, y)),
        (mask_sum, (x, np.float32(0.5))),
        (mask_index, (x, np.float32(0.5))),
        (relu_clip, (x,)),
        (variance, (x.astype(np.float64),)),
    ]
    hand = loopopt.compile(HAND_DF, target=args.target)
    isa = hand.target
    print(f"CPU: {cpu_model()}; target {isa}; n = {n}; best of {args.repeat}\n")
    print("| function | numpy | jit | hand df | jit vs numpy | jit vs hand df |")
    print("|---|---|---|---|---|---|")
    for fn, fargs in cases:
        jitted = loopopt.jit(fn, target=args.target)
        t_np = best_wall(lambda: fn(*fargs), args.repeat)
        t_jit = best_wall(lambda: jitted(*fargs), args.repeat)
        row = f"| {fn.__name__} | {t_np * 1e6:.0f} µs | {t_jit * 1e6:.0f} µs | "
        if fn is sum_where:
            t_hand = best_wall(lambda: hand.sum_where(*fargs), args.repeat)
            row += f"{t_hand * 1e6:.0f} µs | {t_np / t_jit:.1f}× | {t_hand / t_jit:.2f}× |"
        else:
            row += f"– | {t_np / t_jit:.1f}× | – |"
        print(row)
    small = (x[:8].copy(), a)
    jitted = loopopt.jit(sum_where, target=args.target)
    jitted(*small)
    raw = jitted.last.function
    k = 200_000
    for label, fn in (("raw kernel call", raw), ("jit call", jitted)):
        t0 = time.perf_counter()
        for _ in range(k):
            fn(*small)
        print(f"\n{label} (8 elements): {(time.perf_counter() - t0) / k * 1e6:.3f} µs", end="")
    print()
    array_overhead(args.target, 1 << 12, rng)


def array_overhead(target: str, n: int, rng: np.random.Generator, rounds: int = 9, k: int = 3000) -> None:
    """Per-call µs of jitted functions with array results at a small size, interleaved: numpy,
    the jit call, the jit's general path (`Specialization.slow`: outputs sized through the
    signature, what every array result took before the generated call) and the raw kernel
    wrapper with preallocated outputs; the overhead is jit minus raw."""
    x = rng.standard_normal(n).astype(np.float32)
    idx = rng.integers(0, n, n)
    rows = [("x[idx] * 2", lambda x, idx: x[idx] * 2, (x, idx)), ("x * 2", lambda x: x * 2, (x,)),
            ("x[x > t]", lambda x, t: x[x > t], (x, np.float32(0.5)))]
    print(f"\n| array result, n = {n} | numpy | jit | jit general path | raw kernel | jit overhead |")
    print("|---|---|---|---|---|---|")
    for label, fn, fargs in rows:
        jitted = loopopt.jit(fn, target=target)
        jitted(*fargs)
        spec = jitted.last
        flat = spec.inputs(fargs)
        outs = [np.empty(s, o.dt.numpy) for o, s in zip(spec.sig.outputs, spec.sig.output_shapes(flat, None))]
        runs = {"numpy": lambda: fn(*fargs), "jit": lambda: jitted(*fargs),
                "slow": lambda: spec.slow(fargs), "raw": lambda: spec.function(*flat, *outs)}
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(rounds):
            for name, run in runs.items():
                t0 = time.perf_counter()
                for _ in range(k):
                    run()
                best[name] = min(best[name], (time.perf_counter() - t0) / k * 1e6)
        print(f"| `{label}` | {best['numpy']:.2f} µs | {best['jit']:.2f} µs | {best['slow']:.2f} µs | "
              f"{best['raw']:.2f} µs | {best['jit'] - best['raw']:.2f} µs |")


if __name__ == "__main__":
    main()
