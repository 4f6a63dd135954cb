"""Filters keeping i8 and i16 values (targets/c_narrow_compress.py) against numpy, every ISA.

i8 lanes compact by 8-byte groups through the left-pack table's byte shuffle; i16 lanes as the
bytes of the same register (a word's mask sets both its bytes, the byte count is twice the
word count). Signed and unsigned predicates, scalar and masked tails, sizes 0..129, 1000 and
4099 with every buffer one element into its allocation (NEON under qemu in one batch), runs of
MAX and MIN (everything kept, nothing kept) in the large inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, run_each
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.runtime.sanitize import emit_program
from loopopt.tools.loop_run import compare_results

TYPES = {"i8": np.int8, "i16": np.int16}
SIZES = (*range(130), 1000, 4099)
PREDICATES = {"gt3": ("sgt", 3, lambda x: x > 3), "ult200": ("ult", 200, lambda x: x.view(f"u{x.itemsize}") < 200)}


def _program(elt: str) -> str:
    return "".join(f"""
func.func @{name}(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [j]> {{
  %r = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [j]> {{
  ^bb0(%e: {elt}):
    %c = arith.constant {c} : {elt}
    %p = arith.cmpi {pred}, %e, %c : {elt}
    df.yield %p : i1
  }}
  func.return %r : !df.array<{elt}, [j]>
}}
""" for name, (pred, c, _) in PREDICATES.items())


def _inputs(elt: str, n: int) -> np.ndarray:
    info = np.iinfo(TYPES[elt])
    x = np.random.default_rng([n, len(elt)]).integers(info.min, info.max, size=n, endpoint=True, dtype=TYPES[elt])
    if n > 300:
        x[1:150], x[150:300] = info.max, info.min
    return x


@pytest.mark.parametrize("tail", ["scalar", "masked"])
@pytest.mark.parametrize("elt", TYPES)
@pytest.mark.parametrize("isa", isa_params(ISAS))
def test_narrow_filter_matches_numpy(isa: str, elt: str, tail: str) -> None:
    compiled = compile(_program(elt), target=isa, pipeline=f"loop-pipeline{{target={isa} tail={tail}}}")
    xs = [_inputs(elt, n) for n in SIZES]
    for name, (_, _, keep) in PREDICATES.items():
        runs = run_each(compiled, name, [(x,) for x in xs])
        for x, got in zip(xs, runs, strict=True):
            problems = compare_results(got, (x[keep(x)],), {})
            assert not problems, f"{name} on {elt}/{isa} tail={tail}, n={len(x)}: " + "; ".join(problems)


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
def test_i16_filters_compact_in_vectors(isa: str) -> None:
    """i16 filters call the byte compaction helper on the word register (no scalar loop); SSE2
    compacts words in the register through its own shift network helper."""
    c = emit_program(_program("i16"), isa).c_source
    if isa == "sse2":
        assert c.count("lo_compress_full_i16x8(") >= 2 and "lo_compress_full_i8x" not in c, isa
    else:
        assert c.count("lo_compress_full_i8x") >= 2 and "(int8_t *)&" in c, isa
