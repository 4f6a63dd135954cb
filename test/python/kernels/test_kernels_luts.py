"""The left-pack tables: the checked-in header matches its generator, and every entry packs correctly."""

from __future__ import annotations

import pytest

from loopopt.kernels import gen_luts


def test_header_is_up_to_date():
    assert gen_luts.HEADER.read_text() == gen_luts.render(), "run python -m loopopt.kernels.gen_luts"


@pytest.mark.parametrize("lanes", [4, 8])
def test_vpermd_entries_pack_selected_lanes(lanes):
    per = 8 // lanes
    for mask in range(1 << lanes):
        idx = gen_luts.permute8_entry(mask, lanes)
        packed = [idx[per * k] // per for k in range(bin(mask).count("1"))]
        assert packed == [j for j in range(lanes) if mask >> j & 1]


@pytest.mark.parametrize("lanes", [2, 4])
def test_neon_byte_entries_pack_selected_lanes(lanes):
    size = 16 // lanes
    for mask in range(1 << lanes):
        idx = gen_luts.neon_entry(mask, lanes)
        got = [idx[size * k] // size for k in range(bin(mask).count("1"))]
        assert got == [j for j in range(lanes) if mask >> j & 1]
        assert all(idx[size * k + b] == idx[size * k] + b for k in range(len(got)) for b in range(size))


def test_sse2_shift_network_packs_every_mask():
    """Simulate the two select-shift stages on lane labels, as sse2.c runs them."""
    for mask in range(16):
        v = list(range(4))
        for stage, sel in enumerate(gen_luts.shift_network(mask, 4)):
            s = 1 << stage
            shifted = v[s:] + [None] * s
            v = [shifted[p] if sel[p] else v[p] for p in range(4)]
        assert v[: bin(mask).count("1")] == [j for j in range(4) if mask >> j & 1]
