"""The Markdown report of a `loop-bench` run: environment, STREAM, the comparison tables, the targets.

Every ratio is computed within the run (same process, interleaved trials), never against
numbers from another run. A cell with no number says why (the build error, the pipeline
diagnostic, or "wrong result") instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .cells import CellResult, StreamResult
from .impls import BLAS_LABEL, GCC, GCC_FAST, NUMPY, kernels_label, loopopt_label
from .overhead import CompileTime, Overheads
from .patterns import KERNELS, PATTERNS, size_label
from .placement import STEP
from .rotation import REUSE_LLCS
from .paired import PairedRatio, paired_ratio
from .timing import Timing, TimingConfig

L1_L2 = (1 << 10, 1 << 16)
DRAM = 1 << 24
CHAIN_SIZE = 1 << 20
STREAM_TARGET_PATTERNS = ("axpb", "axpy", "sum", "sumsq")
NUMPY_TARGETS: dict[str, tuple[float, float | None]] = {
    # pattern -> (min speed-up vs numpy's natural expression, vs its branch-free spelling)
    "sqrt_abs_axpb": (6.0, None),
    "sumsq": (5.0, None),
    "filter_gt0_scale": (40.0, None),
    "filter_gt0_sum": (40.0, 8.0),
}


@dataclass
class Run:
    """Everything one run measured."""

    env: dict[str, Any]
    isas: tuple[str, ...]
    pipelines: dict[str, str]
    config: TimingConfig
    streams: list[StreamResult] = field(default_factory=list)
    cells: list[CellResult] = field(default_factory=list)
    overheads: Overheads | None = None
    build_errors: dict[str, str] = field(default_factory=dict)

    @property
    def best(self) -> str:
        return self.isas[-1]

    def stream(self, n: int) -> StreamResult | None:
        return next((s for s in self.streams if s.n == n), None)

    def cell(self, pattern: str, dtype: str, n: int) -> CellResult | None:
        return next((c for c in self.cells if (c.pattern, c.dtype, c.n) == (pattern, dtype, n)), None)


def gcc_label(cell: CellResult) -> str:
    """The gcc baseline of the targets: -ffast-math for float reductions (the vectorizable build)."""
    return GCC_FAST if GCC_FAST in cell.timings or GCC_FAST in cell.errors else GCC


def ratio(cell: CellResult, a: str, b: str, best_of: bool = False) -> float | None:
    """Speed of `a` relative to `b` (time of b / time of a), on medians or on the fastest trials;
    beyond the LLC the median of the per-trial ratios (`paired`), where there are enough trials."""
    ta, tb = cell.timings.get(a), cell.timings.get(b)
    if not (ta and tb):
        return None
    if best_of:
        return tb.low / ta.low
    p = paired(cell, a, b)
    return p.median if p is not None else tb.median / ta.median


def paired(cell: CellResult, a: str, b: str, any_cell: bool = False) -> PairedRatio | None:
    """`a`'s speed relative to `b` from their paired trials, with its interval, for a cell beyond
    the LLC (bench/paired.py: its rate is bimodal from call to call); None elsewhere unless
    `any_cell` (every cell's trials are interleaved, so in-cache trials pair as well)."""
    ta, tb = cell.timings.get(a), cell.timings.get(b)
    if not ((cell.far or any_cell) and ta and tb):
        return None
    return paired_ratio(ta.samples, tb.samples)


def paired_verdicts(run: Run, cells: Sequence[CellResult], lo: str) -> str:
    """How many cells the run can tell apart from the best baseline, from every cell's paired
    trials: two implementations that compile to the same loop read 1.0x +- noise, so a bar of
    "≥ 1.0× by the medians" splits such cells by chance; the intervals say which differences
    are real (issue 11's targets are also read this way)."""
    slower, faster, noise, under, no_pair = [], 0, 0, 0, 0
    for c in cells:
        b = best_baseline(run, c)
        p = paired(c, lo, b, any_cell=True) if b else None
        if p is None:
            no_pair += 1
            continue
        if p.high < 1.0:
            slower.append(f"{c.pattern}/{c.dtype}/{size_label(c.n)} {p.median:.2f}× [{p.low:.2f}–{p.high:.2f}] ({b})")
        faster += p.low > 1.0
        noise += p.within_noise()
        under += p.high < 0.95
    text = (f"Paired per trial in every cell (~95% intervals of the median ratio): {len(slower)} of {len(cells)} cells measurably "
            f"slower than the best baseline, {noise} within noise of it, {faster} measurably faster; "
            f"{under} with the whole interval below 0.95×")
    text += (": " + ", ".join(slower) if slower else "") + (f"; {no_pair} without enough trials" if no_pair else "")
    return text + "."


def _x_paired(cell: CellResult, a: str, b: str | None) -> str:
    """A ratio cell of the main table: beyond the LLC with its interval, ≈ when that holds 1.0."""
    p = paired(cell, a, b) if b else None
    if p is None:
        return _x(ratio(cell, a, b) if b else None)
    return f"{p.median:.2f}×{'≈' if p.within_noise() else ''} [{p.low:.2f}–{p.high:.2f}]"


def best_baseline(run: Run, cell: CellResult) -> str | None:
    """The fastest (median) of the hand-written kernels on every ISA run (on AVX-512 their filters
    are the hand register-compress form), gcc (-ffast-math for float reductions) and BLAS where
    the pattern has it: the bar loopopt is held to in each cell (issues 11, 12)."""
    labels = [kernels_label(isa) for isa in run.isas] + [gcc_label(cell), BLAS_LABEL]
    timed = [(cell.timings[k].median, k) for k in labels if cell.timings.get(k)]
    return min(timed)[1] if timed else None


def stream_fraction(run: Run, cell: CellResult, label: str, plain_only: bool = False) -> float | None:
    s = run.stream(cell.n)
    kind = PATTERNS[cell.pattern].stream
    limit = (s.gbps(kind) if plain_only else s.limit(kind)) if s and kind else None
    got = cell.gbps(label)
    return got / limit if got is not None and limit else None


def _x(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}×"


def _g(v: float | None) -> str:
    return "—" if v is None else (f"{v:.1f}" if v >= 1 else f"{v:.2f}")


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.0f}%"


def _why(cell: CellResult, label: str) -> str:
    """✗: the implementation exists but has no number; —: the pattern has no such baseline."""
    return "✗" if label in cell.errors else "—"


def _size(cell: CellResult) -> str:
    return cell.size or size_label(cell.n)


def _gbps_or_why(cell: CellResult, label: str) -> str:
    v = cell.gbps(label)
    return _g(v) if v is not None else _why(cell, label)


# --------------------------------------------------------------------------- sections


def on_cpu(run: Run) -> str:
    """Every table's heading names the machine: numbers from one CPU do not carry to another."""
    return f" — on {run.env.get('cpu', 'an unknown CPU')}"


def rotation_note(run: Run) -> str:
    """The bullet after Timing: which cells rotated buffer sets and why (bench/rotation.py), and their pages."""
    shares = [c.huge_pages for c in run.cells if c.huge_pages is not None]
    pages = ""
    if shares:
        lo, hi = min(shares), max(shares)
        span = f"{lo:.0%}" if hi - lo < 0.005 else f"{lo:.0%}–{hi:.0%}"
        pages = (f" Arrays are numpy allocations, on 2 MiB transparent huge pages where the OS grants them (here {span} of"
                 " the input bytes of the cells beyond the LLC; on 4 KiB pages one Zen 4 core streams about half as fast).")
    if "rotation_llc_bytes" not in run.env:
        return "* Buffers beyond the LLC: rotation not recorded (a run before session 22: one buffer set per cell)." + pages
    llc = run.env["rotation_llc_bytes"]
    if llc is None:
        return "* Buffers beyond the LLC: not rotated (`--no-rotate`): every call of a cell reads the same buffers." + pages
    rotated = sorted({c.copies for c in run.cells if c.copies > 1} | {k for s in run.streams for k in s.copies.values() if k > 1})
    which = (f"here {sum(c.copies > 1 for c in run.cells)} of {len(run.cells)} cells, with {'/'.join(map(str, rotated))} sets"
             if rotated else "none in this run")
    return (f"* Buffers beyond the LLC ({llc / (1 << 20):g} MiB, loopopt's CPU model): a cell (or STREAM kernel) moving more bytes"
            f" than that cycles through k identical copies of its buffers, one call per copy, k·bytes ≥ {REUSE_LLCS}× the LLC"
            f" ({which}); every implementation, numpy and STREAM alike, and every copy is checked. Re-reading one buffer"
            " call after call would let a non-LRU LLC keep part of it between calls." + pages)


def placement_note(run: Run) -> str:
    """The bullet after the rotation's: whether cells within the LLC moved their buffers per trial (bench/placement.py)."""
    mode = run.env.get("placement")
    if mode is None:
        return ("* Buffer placement: not recorded (a run before session 31): every trial of a cell used one buffer set,"
                " wherever numpy's allocator put it.")
    if mode == "fixed":
        return ("* Buffer placement: fixed (`--fixed-placement`): every trial of a cell used one buffer set, wherever numpy's"
                " allocator put it (each cell's addresses mod 4 KiB are in bench.json).")
    moved = [c for c in run.cells if len(c.placements) > 1]
    return (f"* Buffer placement rotates per trial in the cells within the LLC (here {len(moved)} of {len(run.cells)} cells):"
            f" before trial t, x, y and out move to offsets mod 4 KiB (multiples of {STEP} B, one seeded sequence) within"
            " one allocation per cell, the inputs are copied in, and every implementation is checked there and run once,"
            " untimed. Every implementation of a trial runs on that placement, so the per-trial ratios compare"
            " implementations on one placement and a cell's median is over placements (4 KiB aliasing between the"
            " streams decided in-cache cells by a few percent, results/amd-zen3/analysis.md session 30). Each trial's"
            " addresses mod 4 KiB are in bench.json. STREAM and the cells beyond the LLC keep one placement per buffer copy.")


def _far_trials(run: Run) -> str:
    """The trial counts the cells beyond the LLC got (their budget may stop them early)."""
    counts = sorted({t.trials for c in run.cells if c.far for t in c.timings.values()})
    if not counts:
        return "none in this run"
    return f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"


def header(run: Run) -> list[str]:
    env = run.env
    lines = [
        "# loop-bench results",
        "",
        "loopopt's generated code against the hand-written kernel library (`loopopt.kernels`), gcc's",
        "auto-vectorizer on the plain scalar loop, numpy's natural unfused expression, and STREAM",
        "(the memory-bandwidth limit), all measured in one run. Regenerate with `make bench` or",
        "`loop-bench --out results` (options: `--quick --patterns --sizes --dtypes --isa`).",
        "",
        f"* CPU: **{env['cpu']}**, {env['cores']} cores; caches {env['caches']}; ISAs run here: {', '.join(env['host_isas'])}",
        f"* loopopt's CPU model for `target=native`: {env.get('loopopt_cpu', 'not recorded')}",
        f"* Compiler: {env['compiler']}; Python {env['python']}, numpy {env['numpy']}"
        + (f"; BLAS: {env['blas']}" if env.get("blas") else ""),
        f"* Load average (1/5/15 min) at start: {env['load_average_start']}; at end: {env.get('load_average_end', '?')}"
        " — the machine is shared, so absolute GB/s drift; ratios are computed within the run.",
        f"* Timing: warm-up and calibration, then samples of ≥ {run.config.min_sample * 1e3:g} ms of the thread's CPU time"
        " (not wall time: a kernel preempted by another job on this shared machine is not slower); each C kernel is repeated"
        " inside C (a repeat wrapper calls it through a volatile function pointer), numpy in a Python loop;"
        f" {run.config.trials} trial(s) interleaved across the implementations of a cell, each trial in its own (seeded, shuffled) order; the median is reported"
        + (f" (cells beyond the LLC: up to {run.config.far_trials} trials within {run.config.far_budget:g} s, here {_far_trials(run)};"
           " their ratios are paired per trial)." if run.config.far_trials > run.config.trials else ".")
        + " Buffers are 64-byte aligned; f32 data is standard normal, i32 uniform in [-1000, 1000] (half of each is > 0).",
        rotation_note(run),
        placement_note(run),
        "* GB/s = bytes the pattern must move (inputs read + outputs written; a filter writes its count) / median time.",
        "* Every implementation's result is checked against a float64 / wrapping-int64 reference before it is timed"
        + (" (at every placement)." if run.env.get("placement") == "per-trial" else "."),
        "",
        "Flags:",
        "",
    ]
    lines += [f"* `{k}`: `{v}`" for k, v in env["flags"].items()]
    lines += ["", "loopopt pipeline per ISA (`loopopt.compile`'s default):", ""]
    lines += [f"* {isa}: `{p}`" for isa, p in run.pipelines.items()]
    return lines + [""]


def stream_table(run: Run) -> list[str]:
    lines = [
        "## STREAM (f32, GB/s as STREAM counts them: copy 8 B, triad 12 B, read 4 B per element)" + on_cpu(run),
        "",
        "| size | copy | copy (non-temporal) | triad | triad (non-temporal) | read (Σx) |",
        "|---|---|---|---|---|---|",
    ]
    for s in run.streams:
        if s.error:
            lines.append(f"| {size_label(s.n)} | {s.error} | | | | |")
            continue
        cols = [_g(s.gbps(k)) for k in ("copy", "copy-nt", "triad", "triad-nt", "read")]
        lines.append(f"| {size_label(s.n)} | " + " | ".join(cols) + " |")
    lines += [
        "",
        "A pattern's limit is the better of plain and non-temporal stores of the STREAM kernel with its",
        "read/write mix: copy for maps and filter→map, triad for zip→map, read for folds.",
        "",
    ]
    return lines


def main_table(run: Run) -> list[str]:
    best = run.best
    lo, kl = loopopt_label(best), kernels_label(best)
    lines = [
        f"## loopopt ({best}) vs the kernel library ({best}), gcc and numpy" + on_cpu(run),
        "",
        "GB/s (higher is better) and loopopt's speed ratio (its time divided into the other's: > 1 means loopopt is faster).",
        f"Each ratio column names its baseline: ÷{kl} the hand-written kernel library (matvec: its"
        " `lo_dot` once per row), ÷gcc the plain scalar C, ÷numpy numpy's natural expression (its first"
        " spelling), ÷BLAS numpy's `@` (OpenBLAS, one thread); ÷best the fastest of the kernel library on every ISA"
        " run here, gcc and BLAS, named in brackets.",
        "gcc is `-O3 -march=native`, with `-ffast-math` for float reductions (the numbers without it are in the gcc (no fast-math) column).",
        "Sizes are elements, or a rank-2 row's shape (rows×cols; matmul s³ is s×s times s×s); GB/s counts each input read"
        " and each output written once (for matmul that is far from its bound, the flops: compare its ratios).",
        "—: the pattern has no such baseline (no hand kernel for softmax or matmul, BLAS only for matrix products)."
        " ✗: no number — see \"Cells without a number\".",
        "Beyond the LLC one core's rate is bimodal from call to call, so there each ratio is the median of the per-trial"
        " ratios (trial t of both implementations ran back to back) and ÷best shows its ~95% interval [low–high];"
        " ≈ marks a ratio whose interval holds 1.0: within noise, the run cannot tell the two apart.",
        "",
        f"| pattern | dtype | size | loopopt GB/s | ns/elt | kernels GB/s | gcc GB/s | gcc (no fast-math) | numpy GB/s | BLAS GB/s "
        f"| ÷{kl} | ÷gcc | ÷BLAS | ÷best (which) | ÷numpy | % of STREAM |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in run.cells:
        g = gcc_label(c)
        b = best_baseline(run, c)
        ns = c.ns_per_element(lo)
        lines.append(
            f"| {c.seed} `{c.pattern}` | {c.dtype} | {_size(c)} | {_gbps_or_why(c, lo)} | "
            f"{'—' if ns is None else f'{ns:.3f}'} | {_gbps_or_why(c, kl)} | {_gbps_or_why(c, g)} | "
            f"{_gbps_or_why(c, GCC) if g == GCC_FAST else ''} | {_gbps_or_why(c, NUMPY)} | {_gbps_or_why(c, BLAS_LABEL)} | "
            f"{_x(ratio(c, lo, kl))} | {_x(ratio(c, lo, g))} | {_x(ratio(c, lo, BLAS_LABEL))} | "
            f"{_x_paired(c, lo, b)}{f' ({b})' if b else ''} | "
            f"{_x(ratio(c, lo, NUMPY), 1)} | {_pct(stream_fraction(run, c, lo))} |"
        )
    return lines + [""]


def isa_table(run: Run) -> list[str]:
    if len(run.isas) < 2:
        return []
    lines = [
        "## loopopt ÷ kernel library, per ISA (same ISA on both sides)" + on_cpu(run),
        "",
        "| pattern | dtype | size | " + " | ".join(run.isas) + " |",
        "|---|---|---|" + "---|" * len(run.isas),
    ]
    for c in run.cells:
        cols = []
        for isa in run.isas:
            r = ratio(c, loopopt_label(isa), kernels_label(isa))
            cols.append(_x(r) if r is not None else _why(c, loopopt_label(isa)) if loopopt_label(isa) in c.errors else "—")
        lines.append(f"| {c.seed} `{c.pattern}` | {c.dtype} | {_size(c)} | " + " | ".join(cols) + " |")
    return lines + [""]


# --------------------------------------------------------------------------- targets


def _noise(cell: CellResult, lo: str, run: Run) -> str:
    """For a cell below the 0.95× bar beyond the LLC: its paired interval, and whether it holds the bar."""
    b = best_baseline(run, cell)
    p = paired(cell, lo, b) if b else None
    if p is None:
        return ""
    return f" [{p.low:.2f}–{p.high:.2f}{', within noise' if p.within_noise(0.95) else ''}]"


def _verdict(ok: bool | None) -> str:
    return "not measured" if ok is None else ("**met**" if ok else "**missed**")


def _hand_filters(run: Run) -> str:
    """Which hand filter form the library's best ISA in this run is: the bar's "hand register-compress
    variant" is AVX-512's; a run without AVX-512 (Zen 3) has the AVX2 left-pack (LUT + permute)."""
    if "avx512" in run.isas:
        return "its AVX-512 filters are the hand register-compress form"
    return "no AVX-512 here: its filters are the hand AVX2 left-pack form (table + permute)" if "avx2" in run.isas else "its filters are scalar or SSE2"


def targets(run: Run) -> list[str]:
    best = run.best
    lo = loopopt_label(best)
    lines = ["## Targets" + on_cpu(run), ""]
    seed_cells = [c for c in run.cells if PATTERNS[c.pattern].issue11]

    # 0: issue 11: loopopt vs the best baseline in every cell of the seed patterns.
    rs = [(c, ratio(c, lo, b) if (b := best_baseline(run, c)) else None) for c in seed_cells]
    got = [(c, r) for c, r in rs if r is not None]
    if got:
        under = [(c, r) for c, r in got if r < 0.95]
        at_par = sum(r >= 1.0 for _, r in got)
        ok = not under and at_par >= 0.9 * len(got)
        text = (f"* loopopt ({best}) ≥ 0.95× the best of the kernel library (every ISA; {_hand_filters(run)}) "
                f"and gcc in every cell, ≥ 1.0× in 90% of cells: {_verdict(ok)}. "
                f"{at_par}/{len(got)} cells ≥ 1.0× ({100 * at_par / len(got):.0f}%); {len(under)} below 0.95×")
        text += (": " + ", ".join(f"{c.pattern}/{c.dtype}/{size_label(c.n)} {r:.2f}× ({best_baseline(run, c)}){_noise(c, lo, run)}"
                               for c, r in under) if under else "") + "."
        best_of = [ratio(c, lo, best_baseline(run, c) or "", best_of=True) for c, _ in got]
        best_of = [r for r in best_of if r is not None]
        if best_of:
            text += (f" (On the fastest trials instead of the medians: {sum(r >= 1.0 for r in best_of)}/{len(best_of)} ≥ 1.0×, "
                     f"{sum(r < 0.95 for r in best_of)} below 0.95×, worst {min(best_of):.2f}×.)")
        text += " " + paired_verdicts(run, [c for c, _ in got], lo)
        lines.append(text)

    # 1-2: loopopt vs kernels and gcc at L1/L2 on the best ISA.
    small = [c for c in seed_cells if c.n in L1_L2 and PATTERNS[c.pattern].has(KERNELS)]
    for name, other, bar, floor in (
        ("the kernel library", lambda c: kernels_label(best), 1.0, 0.9),
        ("gcc -O3 -march=native (-ffast-math for float reductions)", gcc_label, 1.0, None),
    ):
        rs = [(c, ratio(c, lo, other(c))) for c in small]
        missing = [c for c, r in rs if r is None]
        got = [(c, r) for c, r in rs if r is not None]
        ok = None if not got else all(r >= bar for _, r in got) and not missing
        worst = min(got, key=lambda t: t[1]) if got else None
        text = (
            f"* loopopt ≥ {bar:.1f}× {name} for every pattern at L1/L2 sizes on {best}"
            + (f" (none below {floor}×)" if floor else "")
            + f": {_verdict(ok)}."
        )
        if got:
            below = [f"{c.pattern}/{c.dtype}/{size_label(c.n)} {r:.2f}×" for c, r in got if r < bar]
            text += f" {len(got) - len(below)}/{len(got)} cells ≥ {bar:.1f}×; worst {worst[1]:.2f}× ({worst[0].pattern}/{worst[0].dtype}/{size_label(worst[0].n)})"
            if floor:
                under = sum(1 for _, r in got if r < floor)
                text += f"; {under} below {floor}×"
            if below:
                text += "; below: " + ", ".join(below)
            best_of = [r for c in small if (r := ratio(c, lo, other(c), best_of=True)) is not None]
            if best_of:
                text += (f" (On the fastest of each implementation's trials instead of the medians: "
                         f"{sum(r >= bar for r in best_of)}/{len(best_of)} ≥ {bar:.1f}×, worst {min(best_of):.2f}×.)")
            else:
                text += "."
        if missing:
            text += " No number: " + ", ".join(f"{c.pattern}/{c.dtype}/{size_label(c.n)}" for c in missing) + "."
        lines.append(text)

    # 3: bandwidth at 16 Mi.
    big = [c for c in run.cells if c.n == DRAM and c.pattern in STREAM_TARGET_PATTERNS]
    if big:
        fr = [(c, stream_fraction(run, c, lo), stream_fraction(run, c, lo, plain_only=True)) for c in big]
        ok = all(f is not None and f >= 0.9 for _, f, _ in fr)
        lines.append(
            f"* At 16 Mi elements, map, zip→map, fold, map→fold ≥ 90% of STREAM for their bytes: {_verdict(ok)}: "
            + ", ".join(f"{c.seed} {c.dtype} {_pct(f)} ({_pct(p)} of plain-store STREAM)" for c, f, p in fr)
            + "."
        )
    else:
        lines.append(f"* At 16 Mi elements, ≥ 90% of STREAM: {_verdict(None)} (no map/fold seed pattern at 16Mi in this run).")

    # 4: fused chains vs numpy at 1 Mi.
    for pattern, (bar, branch_free_bar) in NUMPY_TARGETS.items():
        cs = [c for c in run.cells if c.n == CHAIN_SIZE and c.pattern == pattern]
        seed = PATTERNS[pattern].seed
        if not cs:
            lines.append(f"* {seed} at 1 Mi ≥ {bar:g}× numpy: {_verdict(None)} (not in this run).")
            continue
        parts, oks = [], []
        for c in cs:
            r = ratio(c, lo, NUMPY)
            oks.append(r is not None and r >= bar)
            part = f"{c.dtype} {_x(r, 1)}"
            if branch_free_bar is not None:
                bf = next((k for k in c.timings if k.startswith(f"{NUMPY}:")), None)
                rb = ratio(c, lo, bf) if bf else None
                oks.append(rb is not None and rb >= branch_free_bar)
                part += f" (vs branch-free `{bf.split(':', 1)[1] if bf else '?'}` {_x(rb, 1)}, target ≥ {branch_free_bar:g}×)"
            parts.append(part)
        lines.append(f"* {seed} `{pattern}` at 1 Mi ≥ {bar:g}× numpy: {_verdict(all(oks))}: " + ", ".join(parts) + ".")

    lines += issue12_targets(run, lo)

    # 5: fixed costs.
    o = run.overheads
    if o is not None:
        call = next((t for k, t in o.calls.items() if k.startswith("loopopt sum")), None)
        call_map = next((t for k, t in o.calls.items() if k.startswith("loopopt axpb")), None)
        if call is not None:
            worst = max(t.median for t in (call, call_map) if t is not None)
            lines.append(
                f"* Python→kernel call overhead ≤ 1 µs: {_verdict(worst <= 1e-6)}: "
                + ", ".join(f"{k} {t.median * 1e9:.0f} ns" for k, t in o.calls.items())
                + "."
            )
        else:
            lines.append(f"* Python→kernel call overhead: not measured ({o.call_error}).")
        examples = [ct for ct in o.compiles if ct.name.startswith("examples/")]
        if examples:
            ok = all(ct.error is None and ct.total < 1.0 for ct in examples)
            parts = []
            for ct in examples:
                part = (f"{ct.name} {ct.total * 1e3:.0f} ms CPU in process (parse {ct.parse * 1e3:.0f}, pipeline "
                        f"{ct.pipeline * 1e3:.0f}, print {ct.print_c * 1e3:.0f} ms; {ct.wall * 1e3:.0f} ms wall)")
                if ct.cold_process is not None:
                    part += f"; {ct.cold_process:.2f} s wall as a fresh `loop-opt` process"
                    if ct.startup_process is not None:
                        part += f", of which {ct.startup_process:.2f} s is `loop-opt`'s start-up on an empty module"
                if ct.error:
                    part += f" [{ct.error}]"
                parts.append(part)
            lines.append(f"* Compile time (default pipeline + C printing) < 1 s per example: {_verdict(ok)}: " + ", ".join(parts) + ".")
        scale = next((ct for ct in o.compiles if not ct.name.startswith("examples/")), None)
        if scale is not None:
            slowest = sorted(scale.passes.items(), key=lambda kv: -kv[1])[:3]
            lines.append(
                f"* {scale.ops}-op generated df module: parse {scale.parse:.2f} s, pipeline {scale.pipeline:.2f} s, "
                f"C printing {scale.print_c:.2f} s CPU ({scale.total / max(scale.ops, 1) * 1e3:.2f} ms/op; "
                f"{scale.wall:.1f} s wall); slowest passes: "
                + ", ".join(f"`{k.split(' ', 1)[1]}` {v:.2f} s" for k, v in slowest)
                + (f" [{scale.error}]" if scale.error else "")
                + "."
            )
    return lines + [""]


ISSUE12_BARS: tuple[tuple[str, str, float, str], ...] = (
    # pattern, baseline ("best": the fastest of hand/gcc/BLAS), minimum loopopt ratio, what
    ("matvec", "best", 0.8, "matvec ≥ 80% of the hand-written/BLAS speed"),
    ("matmul", BLAS_LABEL, 0.5, "matmul 256³ ≥ 50% of OpenBLAS (numpy's `@`)"),
    ("cumsum", GCC, 2.0, "cumsum ≥ 2× the scalar loop (gcc -O3 -march=native does not vectorize a scan) in cache (≤ 1 Mi)"),
)
CACHE_ONLY = {"cumsum": 1 << 20}
"""Bars that hold in cache only (at DRAM sizes both sides wait on memory)."""


def issue12_targets(run: Run, lo: str) -> list[str]:
    """Issue 12's bars on its rows, each against the baseline it names."""
    lines = []
    for pattern, base, bar, what in ISSUE12_BARS:
        cs = [c for c in run.cells if c.pattern == pattern and (pattern != "matmul" or c.size == "256³")
              and c.n <= CACHE_ONLY.get(pattern, c.n)]
        if not cs:
            lines.append(f"* {what}: {_verdict(None)} (not in this run).")
            continue
        parts, oks = [], []
        for c in cs:
            b = best_baseline(run, c) if base == "best" else base
            r = ratio(c, lo, b) if b else None
            oks.append(r is not None and r >= bar)
            parts.append(f"{c.dtype} {_size(c)} {_x(r)} ({b})")
        lines.append(f"* {what}: {_verdict(all(oks))}: " + ", ".join(parts) + ".")
    return lines


def overhead_section(run: Run) -> list[str]:
    o = run.overheads
    if o is None:
        return []
    lines = ["## Call overhead and compile time" + on_cpu(run), "", "| call | ns per call |", "|---|---|"]
    lines += [f"| `{k}` | {t.median * 1e9:.0f} |" for k, t in o.calls.items()]
    lines += ["", "Compile time, CPU ms of this thread (wall ms alongside: the machine is shared):", "",
              "| input | ops | parse | pipeline | C printing | total | wall | fresh `loop-opt` process s | `loop-opt` start-up s |",
              "|---|---|---|---|---|---|---|---|---|"]
    for ct in o.compiles:
        if ct.error:
            lines.append(f"| {ct.name} | {ct.ops} | {ct.error} | | | | | | |")
            continue
        cold = "—" if ct.cold_process is None else f"{ct.cold_process:.2f}"
        start = "—" if ct.startup_process is None else f"{ct.startup_process:.2f}"
        lines.append(f"| {ct.name} | {ct.ops} | {ct.parse * 1e3:.0f} | {ct.pipeline * 1e3:.0f} | "
                     f"{ct.print_c * 1e3:.0f} | {ct.total * 1e3:.0f} | {ct.wall * 1e3:.0f} | {cold} | {start} |")
    with_passes = [ct for ct in o.compiles if ct.passes and not ct.error]
    if with_passes:
        names = list(dict.fromkeys(k for ct in with_passes for k in ct.passes))
        lines += ["", "Pipeline CPU ms per pass:", "", "| pass | " + " | ".join(ct.name for ct in with_passes) + " |",
                  "|---|" + "---|" * len(with_passes)]
        for k in names:
            lines.append(f"| `{k.split(' ', 1)[1]}` | " + " | ".join(
                f"{ct.passes[k] * 1e3:.0f}" if k in ct.passes else "—" for ct in with_passes) + " |")
    return lines + [""]


def errors_section(run: Run) -> list[str]:
    seen: dict[tuple[str, str], list[str]] = {}
    for c in run.cells:
        for label, error in c.errors.items():
            seen.setdefault((label, error), []).append(f"{c.pattern}/{c.dtype}/{_size(c)}")
    lines = ["## Cells without a number" + on_cpu(run), ""]
    if not seen and not run.build_errors:
        return lines + ["None: every implementation built and matched the reference in every cell.", ""]
    for (label, error), where in seen.items():
        lines.append(f"* `{label}` on {', '.join(where)}: {error}")
    lines += [f"* build `{k}`: {v}" for k, v in run.build_errors.items()]
    return lines + [""]


def markdown(run: Run, extra: Sequence[str] = ()) -> str:
    sections: list[Callable[[Run], list[str]]] = [header, targets, stream_table, main_table, isa_table, overhead_section, errors_section]
    lines: list[str] = []
    for section in sections:
        lines += section(run)
    lines += list(extra)
    return "\n".join(lines).rstrip() + "\n"


def to_json(run: Run) -> str:
    """The raw numbers (seconds per call, bytes, errors) for anyone re-plotting or re-checking."""
    data = {
        "env": run.env,
        "isas": list(run.isas),
        "pipelines": run.pipelines,
        "config": asdict(run.config),
        "stream": [asdict(s) for s in run.streams],
        "cells": [asdict(c) for c in run.cells],
        "overheads": asdict(run.overheads) if run.overheads else None,
        "build_errors": run.build_errors,
    }
    return json.dumps(data, indent=1, default=str)


def _timings(data: dict[str, Any]) -> dict[str, Timing]:
    return {k: Timing(**{**t, "samples": tuple(t.get("samples", ()))}) for k, t in data.items()}


def from_json(text: str) -> Run:
    """The run `to_json` wrote, to render its report again with this version of the report (the
    numbers are the run's; only what is computed from them can change)."""
    d = json.loads(text)
    streams = [StreamResult(**{**s, "timings": _timings(s["timings"])}) for s in d["stream"]]
    cells = [CellResult(**{**c, "timings": _timings(c["timings"])}) for c in d["cells"]]
    o = d.get("overheads")
    overheads = None
    if o is not None:
        overheads = Overheads(_timings(o["calls"]), o.get("call_error"), [CompileTime(**ct) for ct in o["compiles"]])
    return Run(d["env"], tuple(d["isas"]), d["pipelines"], TimingConfig(**d["config"]), streams, cells, overheads,
               d.get("build_errors", {}))
