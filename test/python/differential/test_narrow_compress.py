"""Filters keeping i8 and i16 values (targets/c_narrow_compress.py) against numpy, every ISA.

i8 lanes compact by 8-byte groups through the left-pack table's byte shuffle; i16 lanes as the
bytes of the same register (a word's mask sets both its bytes, the byte count is twice the
word count). Signed and unsigned predicates, scalar and masked tails, sizes 0..129, 1000 and
4099 with every buffer one element into its allocation (NEON under qemu in one batch), runs of
MAX and MIN (everything kept, nothing kept) in the large inputs. With AVX512_VBMI2 (cpu=zen4)
AVX-512 compacts both in one instruction.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from diff_harness import ISAS, run_each
from isa_support import check_refused_without_feature, isa_params

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


@pytest.mark.parametrize("tail", ["scalar", "masked"])
@pytest.mark.parametrize("elt", TYPES)
@pytest.mark.parametrize("isa", isa_params(["avx512"]))
def test_vbmi2_filter_matches_numpy(isa: str, elt: str, tail: str) -> None:
    """cpu=zen4 compacts i8/i16 with AVX512_VBMI2 (vpcompressb/w in the register, one 64-byte store;
    the exact tail through a spill): the same sizes, and past the 4-block loop (W = 64 bytes)."""
    from loopopt.runtime import isa as isa_mod

    if "avx512_vbmi2" not in isa_mod._cpu_flags():
        pytest.skip("this CPU has no AVX512_VBMI2")
    compiled = compile(_program(elt), target=isa, pipeline=f"loop-pipeline{{target={isa} cpu=zen4 tail={tail}}}")
    assert "_mm512_mask_compress_epi" in compiled.c_source and "lo_compress_full" not in compiled.c_source
    xs = [_inputs(elt, n) for n in (*SIZES, 255, 256, 257, 511, 513, 65537)]
    for name, (_, _, keep) in PREDICATES.items():
        runs = run_each(compiled, name, [(x,) for x in xs])
        for x, got in zip(xs, runs, strict=True):
            problems = compare_results(got, (x[keep(x)],), {})
            assert not problems, f"{name} on {elt}/{isa}+vbmi2 tail={tail}, n={len(x)}: " + "; ".join(problems)


@pytest.mark.parametrize("isa", ["sse2", "avx2", "avx512", "neon"])
def test_i16_filters_compact_in_vectors(isa: str) -> None:
    """i16 filters call the byte compaction helper on the word register (no scalar loop); SSE2
    compacts words in the register through its own shift network helper."""
    c = emit_program(_program("i16"), isa).c_source
    if isa == "sse2":
        assert c.count("lo_compress_full_i16x8(") >= 2 and "lo_compress_full_i8x" not in c, isa
    else:
        assert c.count("lo_compress_full_i8x") >= 2 and "(int8_t *)&" in c, isa


_EVERY_MASK = r"""
int main(void) {
  int bad = 0;
  for (int t = 0; t < 200000; t++) {
    int8_t x[16], exp[16]; unsigned r = (unsigned)t * 2654435761u; int ne = 0;
    for (int k = 0; k < 16; k++) x[k] = (int8_t)(r >> (k % 24) ^ k * 37);
    unsigned mb = t < 65536 ? (unsigned)t : (r & 0xFFFF);
    int8_t mm[16]; for (int k = 0; k < 16; k++) { mm[k] = (mb >> k & 1) ? -1 : 0; if (mb >> k & 1) exp[ne++] = x[k]; }
    __m128i v = _mm_loadu_si128((const __m128i *)x), m = _mm_loadu_si128((const __m128i *)mm);
    int8_t buf[40]; memset(buf, 0x55, 40);
    int64_t c = lo_compress_full_i8x16(buf + 8, v, m);
    if (c != ne || memcmp(buf + 8, exp, ne)) bad++;
    for (int k = 0; k < 40; k++) if ((k < 8 || k >= 24) && buf[k] != 0x55) { bad++; break; }
    unsigned mw = mb & 0xFF; int16_t xw[8], ew[8], mw16[8], bw[20]; int nw = 0;
    memcpy(xw, x, 16);
    for (int k = 0; k < 8; k++) { mw16[k] = (mw >> k & 1) ? -1 : 0; if (mw >> k & 1) ew[nw++] = xw[k]; }
    v = _mm_loadu_si128((const __m128i *)xw); m = _mm_loadu_si128((const __m128i *)mw16);
    for (int k = 0; k < 20; k++) bw[k] = 0x5555;
    c = lo_compress_full_i16x8(bw + 4, v, m);
    if (c != nw || memcmp(bw + 4, ew, 2 * nw)) bad++;
    for (int k = 0; k < 20; k++) if ((k < 4 || k >= 12) && bw[k] != 0x5555) { bad++; break; }
  }
  printf("bad %d\n", bad); return bad != 0;
}
"""


@pytest.mark.parametrize("isa", isa_params(["sse2"]))
def test_sse2_helpers_every_mask(isa: str, tmp_path: Path) -> None:
    """SSE2's shift-network helpers on every 16-bit byte mask (and 8-bit word mask), under ASan
    and UBSan: the kept lanes in order, nothing written past 16 bytes or before `p` (an exact or
    limited store spills through these, c_print_simd)."""
    from loopopt.targets.c_narrow_compress import _sse2_helpers

    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("no gcc")
    head = "#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n#include <emmintrin.h>\n"
    (tmp_path / "t.c").write_text(head + "".join(h.code for h in _sse2_helpers("__m128i", "__m128i")) + _EVERY_MASK)
    flags = ["-O2", "-msse2", "-Wall", "-Wextra", "-Werror", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    subprocess.run([cc, *flags, "-o", str(tmp_path / "t"), str(tmp_path / "t.c")], check=True)
    run = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "bad 0", run.stdout + run.stderr


def test_a_cpu_without_vbmi2_refuses_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C enables AVX512_VBMI2 by a pragma: the runtime checks the CPU has it before loading."""
    c = emit_program(_program("i8"), "avx512", "loop-pipeline{target=avx512 cpu=zen4}")
    check_refused_without_feature(monkeypatch, c, "avx512_vbmi2")
