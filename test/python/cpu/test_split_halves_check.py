"""`loop.split_halves` has one test of which loops split (dialects/split_halves.py): the verifier
rejects a marked loop it refuses (lit cpu/split_halves_invalid.mlir), and the C printer, given
such a loop unverified, raises a located error instead of printing it whole."""

from __future__ import annotations

import pytest

from loopopt.compile import parse
from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.split_halves import split_problem
from loopopt.targets.c import emit_c

MUL = """
func.func @mul(%x: !loop.buf<f32>, %lo: index, %hi: index, %z: vector<16xf32>) -> vector<16xf32> {
  %c16 = arith.constant 16 : index
  %s = loop.for %i in range(%lo, %hi, %c16) accs(%acc = %z : vector<16xf32> add reassoc) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f32> -> vector<16xf32>
    %m = arith.OP %e, %e : vector<16xf32>
    %t = arith.addf %acc, %m : vector<16xf32>
    loop.yield %t : vector<16xf32>
  }
  func.return %s : vector<16xf32>
}
"""


def _for(module) -> loop.ForOp:
    return next(op for op in module.walk() if isinstance(op, loop.ForOp))


def test_printer_refuses_what_the_verifier_refuses():
    bad = parse(MUL.replace("OP", "divf"))  # parsed, not verified
    assert split_problem(_for(bad)) is not None
    with pytest.raises(LoopoptDiagnostic, match="cannot be split into halves: 'arith.divf'"):
        emit_c(bad, target="avx512")


def test_printer_splits_what_the_verifier_accepts():
    good = parse(MUL.replace("OP", "subf"))
    good.verify()
    assert split_problem(_for(good)) is None
    c = emit_c(good, target="avx512")
    assert "_mm256_sub_ps(e, e)" in c and "_mm256_sub_ps(e_1, e_1)" in c and "_mm512_insertf32x8" in c
    assert "_mm256_loadu_ps(&x[(i) + 8])" in c


MAP = """
func.func @scale(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %lo: index, %hi: index, %a: vector<16xf32>) {
  %c16 = arith.constant 16 : index
  loop.for %i in range(%lo, %hi, %c16) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f32> -> vector<16xf32>
    %m = arith.mulf %a, %e : vector<16xf32>
    STORE
  }
  func.return
}
"""


def test_a_map_splits_its_stores_too():
    """A marked loop without accumulators (a Zen 4 map in the L1d) stores each half at its own
    lanes; one with neither accumulators nor stores is refused."""
    good = parse(MAP.replace("STORE", "simd.store %m, %out[%i] : vector<16xf32>, !loop.buf<f32>"))
    good.verify()
    c = emit_c(good, target="avx512")
    assert "_mm256_storeu_ps(&out[i], m);" in c and "_mm256_storeu_ps(&out[(i) + 8], m_1);" in c
    bad = parse(MAP.replace("STORE", ""))
    assert split_problem(_for(bad)) == "a loop without accumulators or simd.store"
