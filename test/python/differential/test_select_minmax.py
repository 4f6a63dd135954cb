"""Integer select-of-compare -> min/max (passes/select_minmax.py) through compiled kernels on every ISA.

The filtered sum (`acc + select(x > 0, x, 0)` after lowering) and clamps written as a select
(`select(x > t, x, t)`, unsigned and swapped forms) are compiled with the default pipeline for
scalar, sse2, avx2, avx512 (natively, where this CPU runs them) and neon (qemu, one batch), and
compared exactly with numpy on i32 and i64 data spanning the whole range (MIN, MAX, 0, -1 at
random positions), sizes 0, 1, W-1, W, W+1 of every width, primes and 65537, every buffer one
element into a canary-guarded allocation. A second test checks that the rewrite fires where
the target's max is one instruction, so the first one runs the rewritten code.
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, compiled_source, run_each
from isa_support import isa_params

from loopopt.runtime.sanitize import emit_program
from loopopt.tools.loop_run import compare_results

SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 97, 1009, 65537)
TYPES = {"i32": np.int32, "i64": np.int64}


def _filtered_sum(elt: str, pred: str) -> str:
    """sum of the x with `x pred 0` (wrapping): the predloop's `acc + select(mask, x, 0)`."""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> {elt} {{
  %zero = arith.constant 0 : {elt}
  %p = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [k]> {{
  ^bb0(%e: {elt}):
    %c = arith.cmpi {pred}, %e, %zero : {elt}
    df.yield %c : i1
  }}
  %s = df.reduce add(%p, %zero) over [k] : !df.array<{elt}, [k]> -> {elt}
  func.return %s : {elt}
}}
"""


def _clamp(elt: str, pred: str, swapped: bool) -> str:
    """map x -> select(x pred t, x, t) (or select(x pred t, t, x) when `swapped`)."""
    pick = "%t, %e" if swapped else "%e, %t"
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>, %t: {elt}) -> !df.array<{elt}, [i]> {{
  %m = df.map %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%e: {elt}):
    %c = arith.cmpi {pred}, %e, %t : {elt}
    %r = arith.select %c, {pick} : {elt}
    df.yield %r : {elt}
  }}
  func.return %m : !df.array<{elt}, [i]>
}}
"""


def _wrapping_sum(keep):
    def ref(x: np.ndarray) -> np.ndarray:
        return np.sum(x[keep(x)], dtype=x.dtype)

    return ref


_KEEP = {"sgt": lambda x: x > 0, "sge": lambda x: x >= 0, "slt": lambda x: x < 0, "sle": lambda x: x <= 0}
_CLAMP = {  # (pred, swapped) -> numpy reference of select(x pred t, ...)
    ("sgt", False): lambda x, t: np.maximum(x, t),
    ("sle", False): lambda x, t: np.minimum(x, t),
    ("slt", True): lambda x, t: np.maximum(x, t),
    ("ugt", False): lambda x, t: np.where(_u(x) > _u(t), x, t),
    ("ult", True): lambda x, t: np.where(_u(x) < _u(t), t, x),
    ("uge", True): lambda x, t: np.where(_u(x) >= _u(t), t, x),
}


def _u(v):
    v = np.asarray(v)
    return v.view(np.uint32 if v.dtype == np.int32 else np.uint64)


CASES: dict[str, tuple[str, str, object, bool]] = {
    **{f"sum_{p}_{e}": (_filtered_sum(e, p), e, _wrapping_sum(keep), False)
       for e in TYPES for p, keep in _KEEP.items()},
    **{f"clamp_{p}{'_swapped' if s else ''}_{e}": (_clamp(e, p, s), e, ref, True)
       for e in TYPES for (p, s), ref in _CLAMP.items()},
}  # fmt: skip
"""name -> (program, element type, numpy reference, takes the scalar t)."""


def _data(elt: str, n: int, rng: np.random.Generator) -> np.ndarray:
    info = np.iinfo(TYPES[elt])
    x = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=TYPES[elt])
    if n > 4:
        x[rng.integers(0, n, size=4)] = [info.min, info.max, 0, -1]
    return x


def _cases(name: str) -> list[tuple[tuple, np.ndarray]]:
    _, elt, ref, has_t = CASES[name]
    out = []
    for n in SIZES:
        rng = np.random.default_rng([n, len(name)])
        x = _data(elt, n, rng)
        args = (x, TYPES[elt](-7)) if has_t else (x,)
        out.append((args, np.asarray(ref(*args))))
    return out


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", CASES)
def test_select_minmax_matches_numpy(name: str, isa: str) -> None:
    cases = _cases(name)
    runs = run_each(compiled_source(CASES[name][0], isa), "k", [args for args, _ in cases])
    for (args, ref), got in zip(cases, runs, strict=True):
        problems = compare_results(got, (ref,), {})
        assert not problems, f"{name} on {isa}, n={len(args[0])}: " + "; ".join(problems)


_MAX = {"avx2": ("_mm256_max_epi32", None), "avx512": ("_mm512_max_epi32", "_mm512_max_epi64"),
        "neon": ("vmaxq_s32", None), "sse2": (None, None)}  # fmt: skip
"""The one-instruction signed max of i32 / i64 per ISA (None: emulated, so the select stays)."""


@pytest.mark.parametrize("isa", list(_MAX))
def test_filtered_sum_uses_max_where_it_is_one_instruction(isa: str) -> None:
    for elt, intrinsic in zip(TYPES, _MAX[isa]):
        c = emit_program(_filtered_sum(elt, "sgt"), isa).c_source
        if intrinsic is not None:  # the declines are pinned by passes/loop-simplify/select-minmax-c.mlir
            assert intrinsic in c, (isa, elt)


def test_which_min_max_rows_count_as_one_instruction() -> None:
    """The rewrite's cost gate per ISA: native rows (NEON's between free reinterpret casts) pass;
    SSE2's lo_* helpers and the compare + blend rows of AVX2/NEON i64 do not."""
    from xdsl.dialects.builtin import IntegerType, VectorType

    from loopopt.passes.select_minmax import min_max_is_one_instruction

    lanes = {"sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}
    got = {
        isa: sorted(
            f"{key}.i{w}"
            for key in ("max", "min", "maxu", "minu")
            for w in (32, 64)
            if min_max_is_one_instruction(isa, key, VectorType(IntegerType(w), [bits // w]))
        )
        for isa, bits in lanes.items()
    }
    i32 = ["max.i32", "maxu.i32", "min.i32", "minu.i32"]
    assert got == {"sse2": [], "avx2": i32, "neon": i32,
                   "avx512": sorted(i32 + ["max.i64", "maxu.i64", "min.i64", "minu.i64"])}  # fmt: skip
    assert min_max_is_one_instruction("sse2", "max", IntegerType(32))  # scalars: `a > b ? a : b` either way
