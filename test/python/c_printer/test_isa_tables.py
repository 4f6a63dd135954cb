"""The intrinsic tables as data: complete where promised, consistent with their helpers, ISA-clean."""

from __future__ import annotations

import re

import numpy as np
import pytest

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.targets.c import isa_table
from loopopt.targets.c_helpers import HELPER_NAME, all_helpers
from loopopt.targets.c_printer import float_literal, int_literal

VECTOR_ISAS = ("sse2", "avx2", "avx512", "neon")
ELTS = ("f32", "f64", "i32", "i64")

# Every (op, element type) a lowered kernel needs, on every vector ISA (a limited or exact compress
# prints through compress_store_full into a spill: c_print_simd._spilled_compress_store).
CORE = ("load", "load_aligned", "store", "store_aligned", "store_nt", "masked_load", "masked_store",
        "compress_store_full", "broadcast", "add", "sub", "mul", "min", "max", "neg", "abs", "select",
        "cmp.eq" , "hreduce.add", "hreduce.mul", "hreduce.min", "hreduce.max", "iota")  # fmt: skip
FLOAT_ONLY = ("div", "sqrt", "fma", "minnum", "maxnum", "cmp.olt", "cmp.uno", "cmp.une", "cmp.one")
INT_ONLY = ("and", "or", "xor", "cmp.slt", "cmp.sge", "hreduce.and", "hreduce.or")
MASK = ("and", "or", "xor", "not", "select", "broadcast", "popcount", "prefix_mask")


def _key(op: str, elt: str) -> tuple[str, str]:
    return (op.replace("cmp.eq", "cmp.oeq"), elt) if elt.startswith("f") else (op, elt)


@pytest.mark.parametrize("isa", VECTOR_ISAS)
def test_core_rows_exist_for_every_element_type(isa: str) -> None:
    table = isa_table(isa)
    missing = [
        _key(op, e)
        for e in ELTS
        for op in (*CORE, *(FLOAT_ONLY if e.startswith("f") else INT_ONLY))
        if e != "f32" and e != "f64" or op != "iota"
        if table.row(*_key(op, e)) is None
    ]
    missing += [(op, f"i1x{n}") for n in table.mask_types for op in MASK if table.row(op, f"i1x{n}") is None]
    missing += [(f"convert.{t}", f) for f, t in (("i32", "f32"), ("f32", "i32"), ("i64", "f64"), ("f64", "i64"))
                if table.row(f"convert.{t}", f) is None]  # fmt: skip
    assert not missing, f"{isa} lacks rows {missing}"


@pytest.mark.parametrize("isa", VECTOR_ISAS)
def test_dup_slide_rows_where_the_lowering_emits_them(isa: str) -> None:
    """A target whose TargetInfo.dup_slides is set (the scan lowering then emits
    simd.slide_up_dup for min/max/and/or scans) prints every step of it: by 1, 2, .. < lanes."""
    from loopopt.dialects.simd_targets import TARGETS

    table = isa_table(isa)
    wanted = [(f"slide_up_dup.{by}", e) for e in ELTS for by in (1, 2, 4, 8) if by < table.lanes[e]]
    # i8/i16: only slides by whole 32-bit lanes duplicate (scan.dup_slides_from), every one of them
    wanted += [(f"slide_up_dup.{by}", e) for e, w in (("i8", 8), ("i16", 16)) for by in (1, 2, 4, 8, 16, 32)
               if by * w >= 32 and by < table.lanes[e]]  # fmt: skip
    narrower = [(f"slide_up_dup.{by}", e) for e, w in (("i8", 8), ("i16", 16)) for by in (1, 2) if by * w < 32]
    present = [k for k in wanted + narrower if table.row(*k) is not None]
    assert present == (wanted if TARGETS[isa].dup_slides else []), isa


@pytest.mark.parametrize("isa", VECTOR_ISAS)
def test_scan_rows_of_narrow_lanes(isa: str) -> None:
    """i8/i16 min/max scans (session 24) print every neutral-filled slide by 1, 2, .. < lanes,
    the last lane's broadcast and lane 0 as a scalar."""
    table = isa_table(isa)
    wanted = [(f"slide_up.{by}", e) for e in ("i8", "i16") for by in (1, 2, 4, 8, 16, 32) if by < table.lanes[e]]
    wanted += [(k, e) for e in ("i8", "i16") for k in ("splat_last", "first_lane")]
    assert [k for k in wanted if table.row(*k) is None] == [], isa


@pytest.mark.parametrize("isa", ("scalar", *VECTOR_ISAS))
def test_every_helper_a_row_calls_is_defined(isa: str) -> None:
    table = isa_table(isa)
    helpers = all_helpers(table)
    from loopopt.targets.isa_scalar import SCALAR

    for (op, elt), template in [*table.rows.items(), *SCALAR.rows.items()]:
        for name in HELPER_NAME.findall(template):
            assert name in helpers, f"{isa} row ({op}, {elt}) calls undefined helper {name}"
    for helper in helpers.values():
        for name in HELPER_NAME.findall(helper.code):
            assert name in helpers, f"{isa} helper {helper.name} calls undefined {name}"


SSE4_AND_LATER = re.compile(
    r"_mm_(blendv|blend_|mullo_epi32|min_epi32|max_epi32|min_epu|max_epu|cmpeq_epi64|cmpgt_epi64|abs_epi|"
    r"shuffle_epi8|hadd|hsub|extract_epi|insert_epi|cvtepi32_epi64|cvtepu|stream_load|fmadd|fmsub|testz|"
    r"round_|floor_|ceil_|dp_|alignr)|_mm256_|_mm512_"
)


def test_sse2_uses_no_newer_intrinsic() -> None:
    table = isa_table("sse2")
    code = [*table.rows.values(), *(h.code for h in all_helpers(table).values())]
    found = sorted({m.group(0) for text in code for m in SSE4_AND_LATER.finditer(text)})
    assert not found, f"SSE2 table or helpers use newer intrinsics: {found}"


def test_avx2_uses_no_avx512_intrinsic() -> None:
    table = isa_table("avx2")
    code = [*table.rows.values(), *(h.code for h in all_helpers(table).values())]
    assert not [t for t in code if "_mm512_" in t or "__mmask" in t or "_mm256_mullo_epi64" in t]


@pytest.mark.parametrize(
    ("value", "elt", "text"),
    [(0.1, "f32", "0.1f"), (1.0, "f32", "1.0f"), (-2.5, "f64", "(-2.5)"), (1e30, "f64", "1e+30"),
     (float("nan"), "f32", "NAN"), (float("-inf"), "f64", "(-(double)INFINITY)")],  # fmt: skip
)
def test_float_literals_round_trip(value: float, elt: str, text: str) -> None:
    assert float_literal(value, elt) == text
    if np.isfinite(value):
        dt = np.float32 if elt == "f32" else np.float64
        assert dt(float(text.strip("()").rstrip("f"))) == dt(value)


@pytest.mark.parametrize(
    ("value", "elt", "text"),
    [(5, "i32", "5"), (-1, "i32", "(-1)"), (2**31, "i32", "INT32_MIN"), (-(2**63), "i64", "INT64_MIN"),
     (2**40, "i64", "INT64_C(1099511627776)"), (1, "i1", "1")],  # fmt: skip
)
def test_int_literals(value: int, elt: str, text: str) -> None:
    assert int_literal(value, elt) == text


def test_unknown_target_is_a_diagnostic() -> None:
    from loopopt.compile import parse
    from loopopt.targets.c import emit_c

    with pytest.raises(LoopoptDiagnostic, match="unknown C target 'avx3'"):
        emit_c(parse("builtin.module {}"), target="avx3")
    module = parse('builtin.module attributes {loop.target = "avx2"} {}')
    with pytest.raises(LoopoptDiagnostic, match="lowered for target 'avx2' but the C printer was asked for 'sse2'"):
        emit_c(module, target="sse2")
