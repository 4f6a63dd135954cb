"""The x86 intrinsic tables are built from one description (targets/isa_x86.py); these digests pin
their content, so that a refactor of how rows are built cannot change a single template.

A digest covers the sorted (key, element, template) rows and the table's types, lane counts,
includes and flags. An INTENDED change of a row updates the digest here in the same commit (the
failure message prints the new one); `python -m loopopt.targets.isa_x86 NAME` shows the rows.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from loopopt.targets.c import isa_table
from loopopt.targets.isa_x86 import AVX2_X86, AVX512_X86, SSE2_X86, X86, main, without

PINNED = {
    "sse2": "8339020020038c80a5638dab51183a941978103c6ef1daf768ae505b9821d737",  # + i8/i16 scan rows (scans), - exact compress_store rows (robust), s24
    "avx2": "7d73f880f988733711850001043164d09aa46b9bf1c776f02576f9ca984e26a7",  # + i8/i16 scan rows (scans), - exact compress_store rows (robust), s24
    "avx512": "908b4153b24f44a63e1f4150ce6b8b0db3d8a549a483859e1396e390073d05b3",  # + i8/i16 scan rows (scans, s24)
}


def digest(name: str) -> str:
    t = isa_table(name)
    content = {
        "rows": sorted([key, elt, template] for (key, elt), template in t.rows.items()),
        "lanes": sorted(t.lanes.items()),
        "vector_types": sorted(t.vector_types.items()),
        "mask_types": sorted(t.mask_types.items()),
        "includes": list(t.includes),
        "cflags": list(t.cflags),
    }
    return hashlib.sha256(json.dumps(content).encode()).hexdigest()


@pytest.mark.parametrize("name", PINNED)
def test_table_content_is_pinned(name: str) -> None:
    got = digest(name)
    assert got == PINNED[name], f"{name} table changed: if intended, pin {got!r}"


@pytest.mark.parametrize(
    ("x", "prefix", "si", "lanes", "masks"),
    # masks of i32, i64, i8, i16 lanes (the narrow ones: targets/c_narrow.py)
    [(SSE2_X86, "_mm_", "si128", (4, 2, 4, 2), ("__m128i",) * 4),
     (AVX2_X86, "_mm256_", "si256", (8, 4, 8, 4), ("__m256i",) * 4),
     (AVX512_X86, "_mm512_", "si512", (16, 8, 16, 8), ("__mmask16", "__mmask8", "__mmask64", "__mmask32"))],  # fmt: skip
)
def test_description_spells_each_isa(x: X86, prefix: str, si: str, lanes: tuple[int, ...], masks: tuple[str, str]) -> None:
    assert (x.p, x.si) == (prefix, si)
    table = isa_table(x.name)
    assert tuple(table.lanes[e] for e in ("f32", "f64", "i32", "i64")) == lanes
    assert tuple(table.mask_types.values()) == masks


def test_rows_print_expanded(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m loopopt.targets.isa_x86 avx2`: every row spelled out, so a search finds it."""
    assert main(["avx2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "avx2    add                      f32    {dst} = _mm256_add_ps({a}, {b});" in out
    assert len(out) == len(isa_table("avx2").rows)


def test_without_rejects_a_row_the_family_lacks() -> None:
    rows = {("shr", "i64"): "x", ("shl", "i64"): "y"}
    assert without(rows, ("shr", "i64")) == {("shl", "i64"): "y"}
    with pytest.raises(AssertionError, match="no rows"):
        without(rows, ("shr", "i32"))
