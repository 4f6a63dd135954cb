"""loop-bench's per-trial buffer placement (tools/bench/placement.py, cells.py): a cell within the
LLC moves x, y and out to new offsets mod 4 KiB before every trial, every implementation of a
trial runs on the same placement, and every implementation is checked at every placement."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loopopt.tools.bench import cells, placement, report
from loopopt.tools.bench.impls import Built, Candidate
from loopopt.tools.bench.patterns import PATTERNS
from loopopt.tools.bench.timing import TimingConfig

CONFIG = TimingConfig(min_sample=1e-5, trials=7)


def test_sequence_is_seeded_distinct_and_64_byte_steps():
    plan = placement.sequence(31, 3)
    assert plan == placement.sequence(31, 3)  # runs repeat
    assert len(set(plan)) == 31  # no two trials share a placement
    assert all(len(p) == 3 and all(o % 64 == 0 and 0 <= o < 4096 for o in p) for p in plan)
    assert len({p[1] - p[0] for p in plan}) > 10  # the relative placement moves, not just the base
    assert placement.sequence(5, 3) == plan[:5]
    assert len(set(placement.sequence(64, 1))) == 64  # every placement once before any repeats


@pytest.mark.parametrize("shapes", [[(1024,), (1024,), (1024,)], [(1,), (0,), (4, 256)], [(1000,), (65536,)]])
def test_arena_views_are_aligned_disjoint_and_inside(shapes):
    templates = [np.zeros(s, np.float32) for s in shapes]
    arena = placement.Arena(templates)
    lo, hi = arena.raw.ctypes.data, arena.raw.ctypes.data + arena.raw.nbytes
    for offs in placement.sequence(50, len(shapes)) + [(4032,) * len(shapes), (0,) * len(shapes)]:
        views = arena.place(offs)
        spans = []
        for v, t, off in zip(views, templates, offs):
            assert v.shape == t.shape and v.dtype == t.dtype and v.flags.c_contiguous
            if v.size == 0:
                continue  # nothing to place (numpy may report any address for it)
            start = v.ctypes.data
            assert start % 64 == 0 and start % 4096 == off  # slots are 4 KiB-aligned
            assert lo <= start and start + v.nbytes <= hi
            spans.append((start, start + v.nbytes))
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no overlap
    with pytest.raises(ValueError, match="multiple of 64"):
        arena.place((32,) + (0,) * (len(shapes) - 1))
    with pytest.raises(ValueError, match="offsets for"):
        arena.place((0,) * (len(shapes) + 1))


def _recording_candidates(log: list, first: list[int]):
    """A `candidates` stand-in: `good` is right everywhere, `bad` only on the first placement of x;
    every call of any runner logs (label, x, y, out addresses); every placement logs a marker."""

    def make(built, pattern, dtype, x, y, out=None):
        where = (x.ctypes.data, y.ctypes.data, None if out is None else out.ctypes.data)
        log.append(("placed", where))
        if not first:
            first.append(x.ctypes.data)
        a, _ = (np.float32(1.5), np.float32(0.5))

        def runner(label):
            return lambda reps: log.append((label, where))

        def good():
            out[...] = a * x + y
            return out.copy(), None

        def bad():
            out[...] = a * x + y + (0 if x.ctypes.data == first[0] else 1)
            return out.copy(), None

        return [Candidate("good", runner("good"), good), Candidate("bad", runner("bad"), bad),
                Candidate("other", runner("other"), good)]

    return make


def test_each_trial_moves_the_buffers_and_every_implementation_shares_them(monkeypatch):
    log: list = []
    monkeypatch.setattr(cells, "candidates", _recording_candidates(log, []))
    monkeypatch.setattr(cells, "_check", lambda c, *a: None)  # every implementation passes here
    cell = cells.measure_cell(Built(()), PATTERNS["axpy"], "f32", 1000, CONFIG)
    segments: list[set] = []
    for label, where in log:
        if label == "placed":
            segments.append({where})
        else:
            segments[-1].add(where)
    assert len(segments) == CONFIG.trials
    assert all(len(s) == 1 for s in segments)  # within a trial every call saw one placement
    placements = [next(iter(s)) for s in segments]
    assert len(set(placements)) == CONFIG.trials
    assert len({(y - x) % 4096 for x, y, _ in placements}) > 1  # relative offsets rotate
    assert cell.placements == [[a % 4096 for a in p] for p in placements]
    assert all(a % 64 == 0 for p in placements for a in p)
    assert set(cell.timings) == {"good", "bad", "other"} and all(t.trials == CONFIG.trials for t in cell.timings.values())


def test_a_kernel_wrong_at_a_later_placement_gets_no_number(monkeypatch):
    monkeypatch.setattr(cells, "candidates", _recording_candidates([], []))
    cell = cells.measure_cell(Built(()), PATTERNS["axpy"], "f32", 1000, CONFIG)
    assert "wrong result" in cell.errors["bad"] and "at placement 2:" in cell.errors["bad"]
    assert "bad" not in cell.timings
    assert set(cell.timings) == {"good", "other"} and not set(cell.errors) - {"bad"}


def test_fixed_placement_keeps_one_buffer_set(monkeypatch):
    log: list = []
    monkeypatch.setattr(cells, "candidates", _recording_candidates(log, []))
    cell = cells.measure_cell(Built(()), PATTERNS["axpy"], "f32", 1000, CONFIG, placement=False)
    assert len({where for _, where in log}) == 1
    assert len(cell.placements) == 1 and cell.placements[0][0] % 64 == 0
    assert set(cell.timings) == {"good", "bad", "other"}  # `bad` is right on its only buffer set


def test_cells_beyond_the_llc_keep_their_placement(monkeypatch):
    log: list = []
    monkeypatch.setattr(cells, "candidates", _recording_candidates(log, []))
    cell = cells.measure_cell(Built(()), PATTERNS["axpy"], "f32", 1000, CONFIG, llc=4 << 10)
    assert cell.far and cell.copies > 1 and len(cell.placements) == 1
    assert sum(1 for label, _ in log if label == "placed") == cell.copies


def test_unused_inputs_are_not_placed_and_values_are_copied(monkeypatch):
    seen: list = []

    def record(built, pattern, dtype, x, y, out=None):
        seen.append((x.copy(), x.ctypes.data, y, out))
        return [Candidate("numpy", lambda reps: None)]

    monkeypatch.setattr(cells, "candidates", record)
    cell = cells.measure_cell(Built(()), PATTERNS["sum"], "f32", 333, CONFIG)
    x0, _ = cells.make_data(333, "f32")
    assert len(seen) == CONFIG.trials and all(np.array_equal(x, x0) for x, *_ in seen)
    assert len({a for _, a, _, _ in seen}) == CONFIG.trials
    assert all(out is None and y is seen[0][2] for *_, y, out in seen)  # sum reads no y, writes no out
    assert all(p[1] is None and p[2] is None for p in cell.placements)


def test_rank2_outputs_keep_their_shape(monkeypatch):
    shapes: list = []

    def record(built, pattern, dtype, x, y, out=None):
        shapes.append(out.shape)
        return []

    monkeypatch.setattr(cells, "candidates", record)
    cells.measure_cell(Built(()), PATTERNS["matmul"], "f32", 64 * 64, CONFIG)
    assert shapes == [(64, 64)] * CONFIG.trials


def test_real_implementations_agree_at_every_placement():
    from loopopt.tools.bench.impls import build_all

    patterns = [PATTERNS["axpy"], PATTERNS["filter_gt0_scale"]]
    built = build_all(patterns, ["f32", "i32"], ["scalar"])
    for p in patterns:
        for d in ("f32", "i32"):
            cell = cells.measure_cell(built, p, d, 1003, TimingConfig(min_sample=1e-5, trials=4))
            assert cell.errors == {} or set(cell.errors) <= {"loopopt/scalar"}, cell.errors
            assert len({tuple(w) for w in cell.placements}) == 4
            assert cell.timings and all(t.trials == 4 for t in cell.timings.values())


def test_report_states_the_placement_and_round_trips_it():
    env = {"cpu": "Test CPU", "cores": 2, "caches": "L3 32768K", "host_isas": ["scalar"], "compiler": "gcc",
           "python": "3.11", "numpy": "2", "flags": {}, "load_average_start": "0", "rotation_llc_bytes": 32 << 20}
    cell = cells.CellResult("sum", "fold", "f32", 1024, 4096, "1Ki", placements=[[0, None, None], [64, None, None]])
    run = report.Run({**env, "placement": "per-trial"}, ("scalar",), {}, CONFIG, cells=[cell])
    text = report.markdown(run)
    assert "* Buffer placement rotates per trial in the cells within the LLC (here 1 of 1 cells)" in text
    assert "checked there and run once" in text and "(at every placement)." in text
    again = report.from_json(report.to_json(run))
    assert again.cells[0].placements == cell.placements and report.markdown(again) == text
    assert json.loads(report.to_json(run))["cells"][0]["placements"] == [[0, None, None], [64, None, None]]
    assert "fixed (`--fixed-placement`)" in report.markdown(report.Run({**env, "placement": "fixed"}, ("scalar",), {}, CONFIG))
    assert "not recorded (a run before session 31)" in report.markdown(report.Run(env, ("scalar",), {}, CONFIG))


def test_cli_records_the_placement_mode(tmp_path):
    from loopopt.tools.loop_bench import main

    for flag, mode in (([], "per-trial"), (["--fixed-placement"], "fixed")):
        out = tmp_path / mode
        args = ["--quick", "--patterns", "axpy", "--dtypes", "f32", "--sizes", "100", "--trials", "3", "--no-compile-time"]
        assert main(args + flag + ["--out", str(out)]) == 0
        data = json.loads((out / "bench.json").read_text())
        assert data["env"]["placement"] == mode
        (cell,) = data["cells"]
        assert len(cell["placements"]) == (3 if mode == "per-trial" else 1) and not cell["errors"]
        assert "Buffer placement" in (out / "README.md").read_text()
