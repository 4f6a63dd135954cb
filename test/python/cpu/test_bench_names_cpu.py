"""loop-bench names the CPU in every table heading and records loopopt's CPU model."""

from __future__ import annotations

from loopopt.tools.bench import env as bench_env
from loopopt.tools.bench import report
from loopopt.tools.bench.timing import TimingConfig


def test_every_table_names_the_cpu():
    env = {
        "cpu": "Test CPU 9000", "cores": 2, "caches": "L1d 32K", "host_isas": ["scalar"], "compiler": "gcc",
        "python": "3.11", "numpy": "2", "flags": {}, "load_average_start": "0", "loopopt_cpu": "zen3 (...)",
    }  # fmt: skip
    run = report.Run(env, ("scalar", "sse2"), {}, TimingConfig())
    text = report.markdown(run)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert len(headings) >= 5
    for heading in headings:
        assert heading.endswith(" — on Test CPU 9000"), heading
    assert "loopopt's CPU model for `target=native`: zen3 (...)" in text


def test_environment_records_the_detected_model():
    model = bench_env.loopopt_cpu()
    assert "LLC" in model and model.split()[0] in {
        "generic", "zen3", "zen4", "skylake-x", "icelake-server", "sapphirerapids", "neoverse-n1"
    }  # fmt: skip


def _cell_run(isas: tuple[str, ...]) -> report.Run:
    from loopopt.tools.bench import cells
    from loopopt.tools.bench.timing import Timing

    env = {
        "cpu": "Test CPU", "cores": 2, "caches": "L1d 32K", "host_isas": list(isas), "compiler": "gcc",
        "python": "3.11", "numpy": "2", "flags": {}, "load_average_start": "0",
    }  # fmt: skip
    cell = cells.CellResult("filter_gt0_scale", "filter→map", "f32", 1024, 8192, "1Ki")
    cell.timings = {f"loopopt/{isas[-1]}": Timing(1e-6, 1e-6, 1e-6, 1, 1), f"kernels/{isas[-1]}": Timing(1e-6, 1e-6, 1e-6, 1, 1)}
    return report.Run(env, isas, {}, TimingConfig(), cells=[cell])


def test_issue11_bar_names_the_hand_filter_form_this_cpu_has():
    # Zen 3 has no AVX-512: the library's best filters there are the AVX2 left-pack, not compress.
    avx2 = report.markdown(_cell_run(("scalar", "sse2", "avx2")))
    assert "hand AVX2 left-pack form" in avx2 and "AVX-512 filters" not in avx2
    avx512 = report.markdown(_cell_run(("scalar", "sse2", "avx2", "avx512")))
    assert "its AVX-512 filters are the hand register-compress form" in avx512
