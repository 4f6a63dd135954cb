"""Which form a simd.gather takes: the CPU table's gather cost per lane against scalar loads
(lowering/loop_to_simd/gather.py), and the row the C printer then uses."""

from __future__ import annotations

from dataclasses import replace

import pytest

from loopopt.dialects.cpu_models import CPUS
from loopopt.dialects.simd_targets import get_target
from loopopt.lowering.loop_to_simd.gather import SCALAR_LOAD_LANE_COST, gather_instruction_pays
from loopopt.runtime.sanitize import emit_program

SOURCE = """
func.func @k(%x: !df.array<f32, [j]>, %idx: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %g = df.gather %x[%idx] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  func.return %g : !df.array<f32, [i]>
}
"""


@pytest.mark.parametrize("cpu", [c for c, m in CPUS.items() if m.runs("avx2")])
@pytest.mark.parametrize("isa", ["avx2", "avx512"])
def test_every_tabled_x86_cpu_gathers_with_the_instruction(cpu: str, isa: str) -> None:
    model = CPUS[cpu]
    if not model.runs(isa):
        pytest.skip(f"{cpu} does not run {isa}")
    assert gather_instruction_pays(get_target(isa), model)


def test_a_slow_gather_goes_lane_by_lane() -> None:
    """A CPU whose gathers cost more per lane than scalar loads gets the `lanewise` form."""
    slow = replace(CPUS["zen4"].costs, gather_256=8 * (SCALAR_LOAD_LANE_COST + 1))
    cpu = replace(CPUS["zen4"], costs=slow)
    assert not gather_instruction_pays(get_target("avx2"), cpu)
    assert gather_instruction_pays(get_target("avx512"), cpu)  # its zmm cost is unchanged


def test_unknown_cost_keeps_the_instruction() -> None:
    assert CPUS["generic"].costs.gather_256 is None
    assert gather_instruction_pays(get_target("avx2"), CPUS["generic"])


def test_printed_forms() -> None:
    assert "_mm256_mask_i32gather_ps" in emit_program(SOURCE, "avx2", "loop-pipeline{target=avx2 cpu=zen4}").c_source
    assert "_mm512_mask_i32gather_ps" in emit_program(SOURCE, "avx512", "loop-pipeline{target=avx512 cpu=skylake-x}").c_source
    assert "lo_gather_f32_by_i32" in emit_program(SOURCE, "sse2").c_source
