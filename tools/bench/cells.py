"""Measuring: STREAM per size, then every (pattern, dtype) cell — check each implementation, then time.

An implementation whose result disagrees with the float64 / wrapping-integer reference
gets "wrong result" in its cell instead of a number. Tolerances: integers exact; float
maps 1e-5 relative (FMA vs separate multiply-add differ in the last bit); float
reductions the kernel library's documented bound n·eps·Σ|terms| (kernels/README.md), which
any summation order meets — gcc's sequential sum included — and garbage does not.

A cell (or STREAM kernel) moving more bytes than the LLC rotates through identical copies of its
buffers (bench/rotation.py); every copy of every implementation is checked.

A cell within the LLC moves its buffers to a new placement before every trial (bench/placement.py:
offsets mod 4 KiB from a seeded sequence, inputs copied in, every implementation checked there and
run once, all outside the samples), unless `placement=False` (`--fixed-placement`: one buffer set
for every trial, as before session 31). Cells beyond the LLC keep one placement per copy: each call
streams from DRAM, where a few store-forwarding stalls from 4 KiB aliasing hide behind the memory
rate (axpy f32 16 Mi on Zen 3: no per-placement effect, results/amd-zen3/s31-placement/), and
moving them cost ~1.8 s of copying and checking a trial against ~0.1 s of samples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .impls import Built, Candidate, candidates, stream_runners
from .patterns import BenchPattern, aligned_empty, make_data, size_label
from .placement import Arena, address_mod_span, sequence
from .rotation import copies, llc_bytes, rotating
from .timing import Runner, Timing, TimingConfig, time_group
from .baselines import STREAM_BYTES_PER_ELEMENT
from .env import huge_page_share


@dataclass
class CellResult:
    pattern: str
    seed: str
    dtype: str
    n: int
    bytes: int
    """Bytes the pattern must move: inputs read + outputs written."""
    size: str = ""
    """The size as the table shows it (`1Ki`; a rank-2 row's shape, `1×1024`, `256³`)."""
    timings: dict[str, Timing] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    copies: int = 1
    """Buffer sets the timed calls rotate through (bench/rotation.py; 1 within the LLC)."""
    huge_pages: float | None = None
    """Share of the input bytes on 2 MiB pages, for cells beyond the LLC (bench/env.py)."""
    far: bool = False
    """Beyond the LLC: more trials, and ratios paired per trial with an interval (bench/paired.py)."""
    placements: list[list[int | None]] = field(default_factory=list)
    """Where x, y and out started (address mod 4 KiB; None: a buffer the cell does not use), per
    trial when the placement rotated (bench/placement.py), else the one set every trial used."""

    def gbps(self, label: str) -> float | None:
        t = self.timings.get(label)
        return self.bytes / t.median / 1e9 if t else None

    def ns_per_element(self, label: str) -> float | None:
        t = self.timings.get(label)
        return t.median / self.n * 1e9 if t else None


@dataclass
class StreamResult:
    n: int
    timings: dict[str, Timing] = field(default_factory=dict)
    error: str | None = None
    copies: dict[str, int] = field(default_factory=dict)
    """Buffer sets each kernel rotates through (bench/rotation.py)."""

    def gbps(self, label: str) -> float | None:
        t = self.timings.get(label)
        if t is None:
            return None
        return STREAM_BYTES_PER_ELEMENT[label.removesuffix("-nt")] * self.n / t.median / 1e9

    def limit(self, kind: str) -> float | None:
        """The best of plain and non-temporal stores for one kind (the bandwidth limit)."""
        values = [v for v in (self.gbps(kind), self.gbps(f"{kind}-nt")) if v is not None]
        return max(values) if values else None


def mismatch(pattern: BenchPattern, dtype: str, x: np.ndarray, y: np.ndarray, got: tuple[np.ndarray | None, Any],
             expected: tuple[np.ndarray | None, Any]) -> str | None:
    """Why `got` is not an acceptable result, or None."""
    if pattern.custom_check:
        return pattern.mismatch(dtype, pattern.inputs(x, y, dtype), got, expected)
    out, result = got
    ref_out, ref_result = expected
    if pattern.kind == "filter_map" and result != ref_result:
        return f"wrong result: count {result} != {ref_result}"
    if ref_out is not None:
        assert out is not None
        ok = np.array_equal(out, ref_out) if dtype == "i32" else np.allclose(out, ref_out, rtol=1e-5, atol=1e-6)
        if not ok:
            bad = int(np.argmax(out != ref_out)) if dtype == "i32" else int(np.argmax(~np.isclose(out, ref_out, rtol=1e-5, atol=1e-6)))
            return f"wrong result: out[{bad}] = {out[bad]!r}, expected {ref_out[bad]!r}"
    if pattern.kind == "fold":
        if dtype == "i32":
            if int(result) != int(ref_result):
                return f"wrong result: {result!r} != {ref_result!r}"
        else:
            terms = {"sum": x, "sumsq": x.astype(np.float64) ** 2, "filter_gt0_sum": x[x > 0]}[pattern.name]
            eps = float(np.finfo(np.float32).eps)
            tol = len(x) * eps * float(np.abs(terms.astype(np.float64)).sum()) + 1e-6
            if not abs(float(result) - float(ref_result)) <= tol:
                return f"wrong result: {float(result)!r}, expected {float(ref_result)!r} ± {tol:.3g}"
    return None


def measure_stream(built: Built, n: int, config: TimingConfig, llc: int | None = None) -> StreamResult:
    llc = llc_bytes() if llc is None else llc
    wanted = {kind: copies(b * n, llc) for kind, b in STREAM_BYTES_PER_ELEMENT.items()}
    sets: list[dict[str, Callable[[int], object]]] = []
    for i in range(max(wanted.values())):
        runners = stream_runners(built, n, [kind for kind, k in wanted.items() if k > i])
        if isinstance(runners, str):
            return StreamResult(n, error=runners)
        sets.append(runners)
    k = {label: wanted[label.removesuffix("-nt")] for label in sets[0]}
    rotated = {label: rotating([s[label] for s in sets[: k[label]]]) for label in sets[0]}
    return StreamResult(n, time_group(rotated, config), copies=k)


def same_data(a: np.ndarray, dtype: str) -> np.ndarray:
    """An aligned copy of `a` in its own memory (the same values, so the same reference result)."""
    b = aligned_empty(a.size, dtype).reshape(a.shape)
    b[...] = a
    return b


def measure_cell(built: Built, pattern: BenchPattern, dtype: str, n: int, config: TimingConfig,
                 llc: int | None = None, placement: bool = True) -> CellResult:
    """Check and time every implementation of one cell; within the LLC on a new buffer placement
    per trial unless `placement` is False (bench/placement.py)."""
    llc = llc_bytes() if llc is None else llc
    x, y = make_data(n, dtype)
    expected = pattern.reference(x, y, dtype)
    count = expected[1] if pattern.kind == "filter_map" else 0
    cell = CellResult(pattern.name, pattern.seed, dtype, n, pattern.bytes_moved(n, x.itemsize, count), pattern.size_text(n))
    cell.copies = copies(cell.bytes, llc)
    uses_y = any(isinstance(a, np.ndarray) and np.shares_memory(a, y) for a in pattern.inputs(x, y, dtype))
    cell.far = cell.bytes > min(llc, llc_bytes())
    if placement and not cell.far:
        return _measure_placed(built, pattern, dtype, x, y, expected, uses_y, config, cell)
    data = [(x, y)] + [(same_data(x, dtype), same_data(y, dtype) if uses_y else y) for _ in range(cell.copies - 1)]
    if cell.far:  # recorded under --no-rotate too
        cell.huge_pages = huge_page_share([a for xc, yc in data for a in ((xc, yc) if uses_y else (xc,))])
    per_label: dict[str, list[Candidate]] = {}
    for i, (xc, yc) in enumerate(data):
        out = pattern.out_buffer(n, dtype)
        if i == 0:
            cell.placements.append([address_mod_span(a) for a in (xc, yc if uses_y else None, out)])
        for c in candidates(built, pattern, dtype, xc, yc, out):
            per_label.setdefault(c.label, []).append(c)
    runnable: dict[str, Callable[[int], object]] = {}
    for label, sets in per_label.items():
        # Every buffer set is checked: a kernel right on one copy and wrong on another gets no number.
        errors = (c.error or _check(c, pattern, dtype, x, y, expected) for c in sets)
        error = next((e for e in errors if e is not None), None)
        if error is not None:
            cell.errors[label] = error
        else:
            runnable[label] = rotating([c.run for c in sets if c.run is not None])
    cell.timings = time_group(runnable, config, far=cell.far)
    return cell


def _measure_placed(built: Built, pattern: BenchPattern, dtype: str, x: np.ndarray, y: np.ndarray, expected: Any,
                    uses_y: bool, config: TimingConfig, cell: CellResult) -> CellResult:
    """`measure_cell` within the LLC: before each trial, x, (y,) and out move to that trial's
    offsets in one arena, the inputs are copied in, every implementation is checked there (one
    wrong at any placement gets no number) and run once; then the trial times them all."""
    out = pattern.out_buffer(len(x), dtype)
    templates = [x] + ([y] if uses_y else []) + ([out] if out is not None else [])
    arena = Arena(templates)
    plan = sequence(config.trials, len(templates))
    current: dict[str, Candidate] = {}

    def place(trial: int) -> None:
        views = arena.place(plan[trial])
        xv, yv, outv = views[0], views[1] if uses_y else y, views[-1] if out is not None else None
        xv[...] = x
        if uses_y:
            yv[...] = y
        where = [address_mod_span(a) for a in (xv, yv if uses_y else None, outv)]
        cell.placements.append(where)
        for c in candidates(built, pattern, dtype, xv, yv, outv):
            if c.label in cell.errors:
                continue
            error = c.error or _check(c, pattern, dtype, x, y, expected)
            if error is None:
                current[c.label] = c
                continue
            at = "/".join("-" if w is None else str(w) for w in where)
            cell.errors[c.label] = error + (f" (at placement {trial + 1}: x/y/out at {at} mod 4 KiB)" if trial else "")
            current.pop(c.label, None)
        for c in current.values():  # warm the moved buffers as calibration warmed the first ones
            assert c.run is not None
            c.run(1)

    place(0)
    runnable = {label: _bound_now(current, label) for label in current}
    timings = time_group(runnable, config, before_trial=lambda t: place(t) if t else None)
    cell.timings = {label: t for label, t in timings.items() if label not in cell.errors}
    return cell


def _bound_now(current: dict[str, Candidate], label: str) -> Runner:
    """A runner of whichever candidate `label` is bound to at this trial's placement (none once found wrong)."""

    def run(reps: int) -> None:
        c = current.get(label)
        if c is not None and c.run is not None:
            c.run(reps)

    return run


def _check(c: Candidate, pattern: BenchPattern, dtype: str, x: np.ndarray, y: np.ndarray, expected: Any) -> str | None:
    if c.check is None:
        return None
    try:
        got = c.check()
    except Exception as e:  # a crash in the call is that implementation's cell, not the run's
        return f"call failed: {type(e).__name__}: {e}"
    return mismatch(pattern, dtype, x, y, got, expected)


def measure_all(built: Built, patterns: Sequence[BenchPattern], dtypes: Sequence[str], sizes: Sequence[int],
                config: TimingConfig, log: Callable[[str], None] = print,
                llc: int | None = None, placement: bool = True) -> tuple[list[StreamResult], list[CellResult]]:
    """Every cell; `llc` (bytes, default this machine's) decides which cells rotate buffers;
    `placement` whether cells within the LLC move theirs per trial (`measure_cell`)."""
    streams: list[StreamResult] = []
    cells: list[CellResult] = []
    for n in sizes:
        streams.append(measure_stream(built, n, config, llc))
        s = streams[-1]
        log(f"[{size_label(n)}] STREAM " + ", ".join(f"{k} {s.gbps(k):.1f}" for k in s.timings) + " GB/s")
        for p in patterns:
            for d in dtypes:
                if d not in p.dtypes or not p.fits(n):
                    continue
                cell = measure_cell(built, p, d, n, config, llc, placement)
                cells.append(cell)
                shown = ", ".join(f"{k} {cell.gbps(k):.1f}" for k in cell.timings)
                log(f"[{cell.size}] {p.name}_{d}: {shown} GB/s" + (f"; {len(cell.errors)} without a number" if cell.errors else "")
                    + (f" ({cell.copies} rotated buffer sets)" if cell.copies > 1 else ""))
    return streams, cells
