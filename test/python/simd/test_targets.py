"""The TARGETS table: seed 000 §3 widths and capability flags."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f32, f64, i32, i64

from loopopt.dialects.loop_attrs import MaskForm
from loopopt.dialects.simd import TARGETS, get_target


@pytest.mark.parametrize("name, w32, w64", [
    ("sse2", 4, 2), ("neon", 4, 2), ("avx2", 8, 4), ("avx512", 16, 8), ("scalar", 1, 1),
])
def test_natural_widths(name, w32, w64):
    target = TARGETS[name]
    assert (target.width(f32), target.width(i32)) == (w32, w32)
    assert (target.width(f64), target.width(i64)) == (w64, w64)


def test_mask_forms_follow_capabilities():
    for target in TARGETS.values():
        if target.has_mask_registers:
            assert target.mask_form == MaskForm.AVX512_MASK
        elif target.vector_bits:
            assert target.mask_form == MaskForm.SELECT_BLEND
        else:
            assert target.mask_form == MaskForm.BRANCH_PER_LANE
    assert [n for n, t in TARGETS.items() if t.has_compress] == ["avx512"]
    assert not TARGETS["sse2"].has_fma and TARGETS["avx2"].has_fma


def test_unknown_target_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown simd target 'avx3', expected one of sse2, avx2"):
        get_target("avx3")
