"""Session 31: per-trial placement against one fixed placement, from the runs' bench.json.

    .venv/bin/python results/amd-zen3/s31-placement/compare.py results/amd-zen3/s31-placement/{rotate1,fixed1,rotate2,fixed2}
    .venv/bin/python results/amd-zen3/s31-placement/compare.py --repeat results/amd-zen3/s31-placement/axpy-rotate{1,2} A B

Per run: the paired verdicts of the seed cells (loopopt on the best ISA against the best baseline,
tools/bench/report.py's `paired_verdicts`), the median width of those ~95% intervals, and the
per-trial spread of every timed implementation (interquartile range / median of its trials).
Then every seed cell's paired ratio in each run, and for each cell whose verdicts differ between
runs, which placement the fixed runs used. `--repeat` correlates the per-trial ratio of
implementations A and B in axpy f32 64 Ki between two rotated runs (same placements per trial).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from loopopt.tools.bench import report
from loopopt.tools.bench.impls import loopopt_label
from loopopt.tools.bench.patterns import PATTERNS, size_label


def quartile_spread(samples: tuple[float, ...]) -> float:
    q = statistics.quantiles(samples, n=4)
    return (q[2] - q[0]) / statistics.median(samples)


def verdict(p) -> str:
    return "slower" if p.high < 1.0 else "faster" if p.low > 1.0 else "noise"


def main(dirs: list[str]) -> None:
    runs = {Path(d).name: report.from_json((Path(d) / "bench.json").read_text()) for d in dirs}
    print("| run | load start / end | seed cells | slower | within noise | faster | median interval width | median IQR/median of trials (all impls) | loopopt's |")
    print("|---|---|---|---|---|---|---|---|---|")
    per_cell: dict[tuple[str, str, int], dict[str, str]] = {}
    for name, run in runs.items():
        lo = loopopt_label(run.best)
        seed = [c for c in run.cells if PATTERNS[c.pattern].issue11]
        counts = {"slower": 0, "noise": 0, "faster": 0}
        widths, spreads, lo_spreads = [], [], []
        for c in seed:
            b = report.best_baseline(run, c)
            p = report.paired(c, lo, b, any_cell=True) if b else None
            if p is None:
                continue
            counts[verdict(p)] += 1
            widths.append(p.high - p.low)
            per_cell.setdefault((c.pattern, c.dtype, c.n), {})[name] = f"{p.median:.3f} [{p.low:.3f}–{p.high:.3f}] {verdict(p)} ({b})"
        for c in run.cells:
            for label, t in c.timings.items():
                if len(t.samples) >= 4:
                    spreads.append(quartile_spread(t.samples))
                    if label == lo:
                        lo_spreads.append(quartile_spread(t.samples))
        load = f"{run.env['load_average_start'].split()[0]} / {run.env.get('load_average_end', '?').split()[0]}"
        print(f"| {name} | {load} | {sum(counts.values())} | {counts['slower']} | {counts['noise']} | {counts['faster']} | "
              f"{statistics.median(widths):.3f} | {100 * statistics.median(spreads):.2f}% | {100 * statistics.median(lo_spreads):.2f}% |")
    print()
    names = list(runs)
    print("| cell | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for (pat, dt, n), got in per_cell.items():
        print(f"| {pat} {dt} {size_label(n)} | " + " | ".join(got.get(k, "—") for k in names) + " |")
    print()
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name.rstrip("0123456789"), []).append(name)
    for group, members in groups.items():
        same = sum(1 for got in per_cell.values() if len({got[m].split()[2] for m in members if m in got}) == 1)
        walls = ", ".join(f"{runs[m].env.get('wall_time_s')}" for m in members)
        print(f"* {group}: {same} of {len(per_cell)} cells get the same verdict in all of {', '.join(members)} (wall s: {walls})")
    print()
    print("Fixed runs' placements (x/y/out address mod 4 KiB) of the cells whose verdict differs between runs:")
    for key, got in per_cell.items():
        if len({v.split()[2] for v in got.values()}) > 1:
            where = []
            for name, run in runs.items():
                c = run.cell(*key)
                if c is not None and len(c.placements) == 1:
                    where.append(f"{name} {'/'.join('-' if a is None else str(a) for a in c.placements[0])}")
            print(f"* {key[0]} {key[1]} {size_label(key[2])}: " + ", ".join(where))
    print()
    for name, run in runs.items():
        by_placement(run, name, ("axpy", "f32", 1 << 16))


def by_placement(run: report.Run, name: str, key: tuple[str, str, int]) -> None:
    """One rotated cell's per-trial ratio (best baseline's time / loopopt's) against where out sat
    relative to x and y (mod 4 KiB): which placements decide it."""
    c = run.cell(*key)
    lo = loopopt_label(run.best)
    b = report.best_baseline(run, c) if c else None
    if c is None or b is None or len(c.placements) < 2 or lo not in c.timings:
        return
    rows = []
    for (x, y, out), ta, tb in zip(c.placements, c.timings[lo].samples, c.timings[b].samples):
        rel = [(out - x) % 4096 if out is not None and x is not None else None,
               (out - y) % 4096 if out is not None and y is not None else None,
               (y - x) % 4096 if y is not None and x is not None else None]
        rows.append((tb / ta, rel))
    rows.sort(key=lambda r: r[0])
    print(f"{name}: {key[0]} {key[1]} {size_label(key[2])}, {lo} vs {b} per trial "
          "(ratio: out-x, out-y, y-x mod 4096): " + ", ".join(f"{r:.3f} ({a}, {b_}, {c_})" for r, (a, b_, c_) in rows))


def placement_repeat(dirs: list[str], key: tuple[str, str, int], a: str, b: str) -> None:
    """Whether one cell's per-trial ratio (b's time / a's) follows the placement: two rotated runs
    use the same seeded placements in the same trial order, so a placement effect larger than the
    noise correlates the two runs' ratios trial by trial (Pearson r of the log ratios)."""
    import math

    runs = [report.from_json((Path(d) / "bench.json").read_text()) for d in dirs]
    cs = [r.cell(*key) for r in runs]
    assert all(c is not None for c in cs) and cs[0].placements == cs[1].placements
    logs = [[math.log(tb / ta) for ta, tb in zip(c.timings[a].samples, c.timings[b].samples)] for c in cs]
    r = statistics.correlation(*logs)
    meds = [math.exp(statistics.median(v)) for v in logs]
    print(f"{key[0]} {key[1]} {size_label(key[2])}, {a} vs {b}: {len(logs[0])} placements; per-trial ratios' "
          f"Pearson r between the runs {r:.2f}; medians {', '.join(f'{m:.3f}' for m in meds)}")
    # The placements both runs found lowest / highest (the mean of the two runs' log ratios).
    mean = [((x + y) / 2, p) for x, y, p in zip(logs[0], logs[1], cs[0].placements)]
    mean.sort(key=lambda t: t[0])
    for what, rows in (("lowest", mean[:5]), ("highest", mean[-5:])):
        print(f"  {what} 5: " + ", ".join(f"{math.exp(v):.3f} (x/y/out {p[0]}/{p[1]}/{p[2]})" for v, p in rows))


if __name__ == "__main__":
    if sys.argv[1] == "--repeat":
        placement_repeat(sys.argv[2:4], ("axpy", "f32", 1 << 16), *sys.argv[4:6])
    else:
        main(sys.argv[1:])
