"""Does the placement matter beyond the LLC? axpy f32 at 16 Mi (192 MiB a call, 6x the L3), timed
with the per-trial placement that loop-bench uses within the LLC (tools/bench/cells.py's
`_measure_placed`, called directly: loop-bench itself keeps one placement there), twice over the
same seeded placements. A placement effect larger than the noise correlates the two runs'
per-trial ratios, as it does (weakly) at 64 Ki (README.md).

    .venv/bin/python results/amd-zen3/s31-placement/far_placement.py [trials]
"""

from __future__ import annotations

import math
import os
import statistics
import sys

import numpy as np

from loopopt.tools.bench import cells
from loopopt.tools.bench.impls import build_all
from loopopt.tools.bench.patterns import PATTERNS, make_data
from loopopt.tools.bench.timing import TimingConfig

trials = int(sys.argv[1]) if len(sys.argv) > 1 else 21
p, n = PATTERNS["axpy"], 1 << 24
built = build_all([p], ["f32"], ["sse2", "avx2"])
config = TimingConfig(trials=trials)
runs = []
for _ in range(2):
    x, y = make_data(n, "f32")
    cell = cells.CellResult(p.name, p.seed, "f32", n, p.bytes_moved(n, 4, 0), "16Mi")
    runs.append(cells._measure_placed(built, p, "f32", x, y, p.reference(x, y, "f32"), True, config, cell))
    print("load", os.getloadavg(), "errors", cell.errors, flush=True)
assert runs[0].placements == runs[1].placements
for a, b in (("loopopt/avx2", "kernels/sse2"), ("loopopt/avx2", "kernels/avx2"), ("kernels/avx2", "kernels/sse2"), ("loopopt/avx2", "gcc")):
    logs = [[math.log(tb / ta) for ta, tb in zip(c.timings[a].samples, c.timings[b].samples)] for c in runs]
    r = statistics.correlation(*logs)
    iqr = [statistics.quantiles(v, n=4) for v in logs]
    print(f"{a} vs {b}: Pearson r {r:.2f} over {len(logs[0])} placements; medians "
          + ", ".join(f"{math.exp(statistics.median(v)):.3f}" for v in logs)
          + "; IQR of log ratio " + ", ".join(f"{q[2] - q[0]:.3f}" for q in iqr))
for c in runs:
    print("GB/s loopopt/avx2 median", round(c.bytes / c.timings["loopopt/avx2"].median / 1e9, 1),
          "IQR/median %", {k: round(100 * (lambda q: (q[2] - q[0]) / statistics.median(t.samples))(statistics.quantiles(t.samples, n=4)), 1)
                           for k, t in c.timings.items()})
