"""loop-bench's rotating buffer sets (tools/bench/rotation.py): cells beyond the LLC read a
different, identical, checked copy of their buffers on every call; the count follows the LLC.
A tiny pretend LLC makes small cells rotate, so nothing here allocates more than a few KiB."""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.tools.bench import cells, report, rotation
from loopopt.tools.bench.impls import Built, Candidate
from loopopt.tools.bench.patterns import PATTERNS
from loopopt.tools.bench.timing import QUICK, TimingConfig

MiB = 1 << 20


@pytest.mark.parametrize(
    "working_set, llc, expected",
    [
        (16 * MiB, 32 * MiB, 1),  # within the LLC: cache-resident on purpose
        (32 * MiB, 32 * MiB, 1),
        (64 * MiB, 32 * MiB, 2),  # 16 Mi f32 fold on Zen 4: 2 x 64 MiB = 4 x the L3
        (40 * MiB, 32 * MiB, 4),
        (192 * MiB, 32 * MiB, 1),  # 16 Mi axpy: already 6 x the L3
        (64 * MiB, 8 * MiB, 1),
        (64 * MiB, 60 * MiB, 4),
    ],
)
def test_copies_follow_the_llc(working_set, llc, expected):
    k = rotation.copies(working_set, llc)
    assert k == expected
    if k > 1:
        assert k * working_set >= rotation.REUSE_LLCS * llc > (k - 1) * working_set


def test_copies_are_capped():
    # A 400 MiB cell on a 384 MiB LLC would want 4 sets (1200 MiB extra): the cap keeps 2 extra.
    k = rotation.copies(400 * MiB, 384 * MiB)
    assert k == 3 and (k - 1) * 400 * MiB <= rotation.MAX_EXTRA_BYTES
    assert rotation.copies(2048 * MiB, 1024 * MiB) == 1  # one extra copy would exceed the cap


def test_llc_is_loopopts_cpu_model():
    from loopopt.lowering.target import native_cpu

    assert rotation.llc_bytes() == native_cpu().caches.llc > 0


def test_rotating_runner_goes_round_robin_across_calls():
    seen: list[tuple[int, int]] = []
    runs = [lambda reps, i=i: seen.append((i, reps)) for i in range(3)]
    run = rotation.rotating(runs)
    run(4)
    run(2)
    assert seen == [(0, 1), (1, 1), (2, 1), (0, 1), (1, 1), (2, 1)]
    assert rotation.rotating(runs[:1]) is runs[0]


def _fake_candidates(calls: dict[int, int], checked: list[int], base: list[int]):
    """A `candidates` stand-in: `good` sums its own buffer; `bad` is right only on the first buffer set."""

    def make(built, pattern, dtype, x, y, out=None):
        addr = x.ctypes.data
        base.append(addr) if not base else None
        calls.setdefault(addr, 0)

        def run(reps: int) -> None:
            calls[addr] += reps

        def good():
            checked.append(addr)
            return None, np.float32(x.astype(np.float64).sum())

        def bad():
            return None, np.float32(x.astype(np.float64).sum() + (0 if addr == base[0] else 1e6))

        return [Candidate("good", run, good), Candidate("bad", run, bad)]

    return make


def test_cell_beyond_the_llc_rotates_distinct_checked_copies(monkeypatch):
    calls: dict[int, int] = {}
    checked: list[int] = []
    monkeypatch.setattr(cells, "candidates", _fake_candidates(calls, checked, []))
    n = 1024  # 4 KiB of f32 against a pretend 3 KiB LLC: ceil(4 x 3 / 4) = 3 sets
    cell = cells.measure_cell(Built(()), PATTERNS["sum"], "f32", n, TimingConfig(min_sample=1e-5, trials=3), llc=3 << 10)
    assert cell.copies == 3
    assert len(calls) == 3 and all(a % 64 == 0 for a in calls)  # distinct, aligned buffers
    assert sorted(checked) == sorted(calls)  # every copy checked
    assert "wrong result" in cell.errors["bad"] and "bad" not in cell.timings
    assert "good" in cell.timings
    assert min(calls.values()) > 0  # the timed calls went to every copy


def test_cell_within_the_llc_keeps_one_buffer_set(monkeypatch):
    calls: dict[int, int] = {}
    monkeypatch.setattr(cells, "candidates", _fake_candidates(calls, [], []))
    cell = cells.measure_cell(Built(()), PATTERNS["sum"], "f32", 1024, QUICK, llc=4 << 10)
    assert cell.copies == 1 and len(calls) == 1
    assert set(cell.timings) == {"good", "bad"}


def test_copies_hold_the_same_data_and_only_used_inputs_are_copied(monkeypatch):
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def record(built, pattern, dtype, x, y, out=None):
        seen.append((x, y))
        return []

    monkeypatch.setattr(cells, "candidates", record)
    cells.measure_cell(Built(()), PATTERNS["axpy"], "i32", 256, QUICK, llc=1 << 10)  # 3 KiB moved: 2 sets
    cells.measure_cell(Built(()), PATTERNS["sum"], "i32", 256, QUICK, llc=512)  # 1 KiB moved: 2 sets
    (x0, y0), (x1, y1), (s0, t0), (s1, t1) = seen
    assert np.array_equal(x0, x1) and np.array_equal(y0, y1) and not np.shares_memory(x0, x1)
    assert not np.shares_memory(y0, y1)  # axpy reads y: its own copy
    assert np.array_equal(s0, s1) and not np.shares_memory(s0, s1)
    assert t1 is t0  # sum never reads y: no copy of it


def test_stream_rotates_each_kernel_by_its_own_bytes(monkeypatch):
    asked: list[list[str] | None] = []
    calls: dict[tuple[int, str], int] = {}

    def fake(built, n, kinds=None):
        asked.append(kinds)
        s = len(asked) - 1
        labels = [lbl for k in kinds for lbl in ((k,) if k == "read" else (k, f"{k}-nt"))]
        return {lbl: (lambda reps, lbl=lbl: calls.__setitem__((s, lbl), calls.get((s, lbl), 0) + reps)) for lbl in labels}

    monkeypatch.setattr(cells, "stream_runners", fake)
    # 1 Ki f32 against a pretend 3 KiB LLC: read 4 KiB -> 3 sets, copy 8 KiB -> 2, triad 12 KiB -> 1.
    result = cells.measure_stream(Built(()), 1024, TimingConfig(min_sample=1e-5, trials=2), llc=3 << 10)
    assert result.copies == {"copy": 2, "copy-nt": 2, "triad": 1, "triad-nt": 1, "read": 3}
    assert asked == [["copy", "triad", "read"], ["copy", "read"], ["read"]]
    assert all(calls.get((s, "read"), 0) > 0 for s in range(3))
    assert not any(s > 0 and lbl.startswith("triad") for s, lbl in calls)


def test_stream_runners_allocate_only_what_their_kinds_use():
    from loopopt import runtime
    from loopopt.tools.bench import baselines
    from loopopt.tools.bench.harness import with_wrappers
    from loopopt.tools.bench.impls import stream_runners

    src, sigs = with_wrappers(baselines.STREAM_SOURCE, baselines.STREAM_SIGNATURES)
    built = Built((), stream=runtime.compile_library(src, sigs, isa="native"))
    # 4 Ki f32 against a pretend 9 KiB LLC: read 16 KiB -> 3 sets, copy 32 KiB -> 2, triad 48 KiB -> 1.
    result = cells.measure_stream(built, 4096, TimingConfig(min_sample=1e-5, trials=2), llc=9 << 10)
    assert (result.copies["read"], result.copies["copy-nt"], result.copies["triad"]) == (3, 2, 1)
    assert all(result.gbps(k) > 0 for k in result.timings)
    assert set(stream_runners(built, 64, ["read"])) == {"read"}


def _run(env_extra: dict, copies: int) -> report.Run:
    env = {
        "cpu": "Test CPU", "cores": 2, "caches": "L3 32768K", "host_isas": ["scalar"], "compiler": "gcc",
        "python": "3.11", "numpy": "2", "flags": {}, "load_average_start": "0", **env_extra,
    }  # fmt: skip
    cell = cells.CellResult("sum", "fold", "f32", 1 << 24, 1 << 26, "16Mi", copies=copies)
    return report.Run(env, ("scalar",), {}, TimingConfig(), cells=[cell])


def test_report_header_states_the_rotation():
    text = report.markdown(_run({"rotation_llc_bytes": 32 * MiB}, 2))
    assert "* Buffers beyond the LLC (32 MiB, loopopt's CPU model)" in text
    assert "here 1 of 1 cells, with 2 sets" in text and "4× the LLC" in text
    assert "none in this run" in report.markdown(_run({"rotation_llc_bytes": 32 * MiB}, 1))
    assert "not rotated (`--no-rotate`)" in report.markdown(_run({"rotation_llc_bytes": None}, 1))
    assert "rotation not recorded" in report.markdown(_run({}, 1))


def test_report_header_states_the_huge_page_share():
    run = _run({"rotation_llc_bytes": 32 * MiB}, 2)
    assert "2 MiB transparent huge pages" not in report.markdown(run)  # not measured: not claimed
    run.cells[0].huge_pages = 0.97
    assert "(here 97% of the input bytes of the cells beyond the LLC" in report.markdown(run)
    run.cells.append(cells.CellResult("sum", "fold", "i32", 1 << 24, 1 << 26, "16Mi", copies=2, huge_pages=0.5))
    assert "(here 50%–97% of the input bytes" in report.markdown(run)


def test_huge_page_share_reads_smaps():
    from loopopt.tools.bench.env import huge_page_share

    a = np.zeros(1024, np.float32)
    lo = a.ctypes.data - 4096
    fake = (f"{lo:x}-{lo + 8192:x} rw-p 00000000 00:00 0\nSize: 8 kB\nAnonHugePages:      8 kB\n"
            f"{lo + 8192:x}-{lo + 16384:x} rw-p 00000000 00:00 0\nAnonHugePages:      0 kB\n")
    assert huge_page_share([a], fake) == 1.0
    assert huge_page_share([a], fake.replace("AnonHugePages:      8", "AnonHugePages:      4")) == 0.5
    assert huge_page_share([a], "") is None


def test_small_pages_count_as_none_on_linux():
    import mmap
    import sys

    from loopopt.tools.bench.env import huge_page_share

    if not sys.platform.startswith("linux"):
        pytest.skip("/proc/self/smaps is Linux's")
    m = mmap.mmap(-1, 4 << 20)
    m.madvise(mmap.MADV_NOHUGEPAGE)
    a = np.frombuffer(m, np.float32)
    a[:] = 1.0  # touch every page
    assert huge_page_share([a]) == 0.0
    del a
