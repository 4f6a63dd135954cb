"""df.gather through compiled kernels on every ISA, with hostile indices.

`y[i] = x[idx[i]]` when 0 <= idx[i] < len(x), else 0 (dialects/df_gather.py). Indices mix
in-bounds values (duplicates, 0, len(x) - 1) with -1, len(x), 2**31, INT32_MIN/MAX and
INT64_MIN/MAX; the sources have 0, 1, 5 and 1000 elements; the index arrays have the sizes
around every vector width (W-1, W, W+1), primes and a large one. Native ISAs run with every
buffer one element into a canary-guarded allocation; NEON runs under qemu in one batch; the
sanitized runner (every array in an allocation of exactly its size, gathers as checked C:
runtime/sanitize.py) proves no lane reads outside x. Results compare exactly (the sum is
`reassoc`: compared within a bound).
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import ISAS, compiled_source, run_each
from isa_support import isa_params

from loopopt.runtime.isa import host_isas
from loopopt.runtime.sanitize import emit_program, sanitized_kernels
from loopopt.tools.loop_run import compare_results

SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 97, 1009, 4099)
SOURCE_LENGTHS = (0, 1, 5, 1000)
TYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i8": np.int8, "i1": np.bool_}


def _take(elt: str, ie: str) -> str:
    return f"""
func.func @k(%x: !df.array<{elt}, [j]>, %idx: !df.array<{ie}, [i]>) -> !df.array<{elt}, [i]> {{
  %g = df.gather %x[%idx] : !df.array<{elt}, [j]>, !df.array<{ie}, [i]> -> !df.array<{elt}, [i]>
  func.return %g : !df.array<{elt}, [i]>
}}
"""


def _sum(elt: str, ie: str) -> str:
    reassoc = " reassoc" if elt.startswith("f") else ""
    return f"""
func.func @k(%x: !df.array<{elt}, [j]>, %idx: !df.array<{ie}, [i]>) -> {elt} {{
  %z = arith.constant 0{".0" if elt.startswith("f") else ""} : {elt}
  %g = df.gather %x[%idx] : !df.array<{elt}, [j]>, !df.array<{ie}, [i]> -> !df.array<{elt}, [i]>
  %s = df.reduce add(%g, %z) over [i]{reassoc} : !df.array<{elt}, [i]> -> {elt}
  func.return %s : {elt}
}}
"""


def _fused(elt: str, ie: str, kind: str, init: str, scale: bool = False) -> str:
    """x[idx] reduced by `kind` (after a map `2*e + w[i]` with `scale`: two inputs, one a
    gather): the gather is read in the reduction's loop (df_to_loop/gather.py, fused)."""
    if not scale:
        body, inputs, types = "", "%g", f"!df.array<{elt}, [i]>"
    else:
        body = f"""
  %m = df.map %g, %w : !df.array<{elt}, [i]>, !df.array<{elt}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%e: {elt}, %v: {elt}):
    %d = arith.addi %e, %e : {elt}
    %t = arith.addi %d, %v : {elt}
    df.yield %t : {elt}
  }}"""
        inputs, types = "%m", f"!df.array<{elt}, [i]>"
    w = f", %w: !df.array<{elt}, [i]>" if scale else ""
    return f"""
func.func @k(%x: !df.array<{elt}, [j]>, %idx: !df.array<{ie}, [i]>{w}) -> {elt} {{
  %z = arith.constant {init} : {elt}
  %g = df.gather %x[%idx] : !df.array<{elt}, [j]>, !df.array<{ie}, [i]> -> !df.array<{elt}, [i]>{body}
  %s = df.reduce {kind}({inputs}, %z) over [i] : {types} -> {elt}
  func.return %s : {elt}
}}
"""


def _mapped(elt: str, ie: str) -> str:
    """x[idx] * 3 - w[i], returned: the map reads the gather in its own loops (fused)."""
    return f"""
func.func @k(%x: !df.array<{elt}, [j]>, %idx: !df.array<{ie}, [i]>, %w: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %g = df.gather %x[%idx] : !df.array<{elt}, [j]>, !df.array<{ie}, [i]> -> !df.array<{elt}, [i]>
  %m = df.map %g, %w : !df.array<{elt}, [i]>, !df.array<{elt}, [i]> -> !df.array<{elt}, [i]> {{
  ^bb0(%e: {elt}, %v: {elt}):
    %three = arith.constant 3 : {elt}
    %t = arith.muli %e, %three : {elt}
    %d = arith.subi %t, %v : {elt}
    df.yield %d : {elt}
  }}
  func.return %m : !df.array<{elt}, [i]>
}}
"""


CASES = {
    # same lane count: vectorized with simd.gather
    "take_f32_by_i32": (_take("f32", "i32"), "f32", "i32"),
    "take_f64_by_i64": (_take("f64", "i64"), "f64", "i64"),
    "take_i32_by_i32": (_take("i32", "i32"), "i32", "i32"),
    "take_i64_by_i64": (_take("i64", "i64"), "i64", "i64"),
    "sum_f32_by_i32": (_sum("f32", "i32"), "f32", "i32"),
    "sum_i64_by_i64": (_sum("i64", "i64"), "i64", "i64"),
    # mixed widths: the 32-bit side is a part vector, the gather lane by lane
    "take_f32_by_i64": (_take("f32", "i64"), "f32", "i64"),
    "take_f64_by_i32": (_take("f64", "i32"), "f64", "i32"),
    # bytes and bools: scalar loops (no i8 gather, no bool lanes), just as bounded
    "take_i8_by_i32": (_take("i8", "i32"), "i8", "i32"),
    "take_bool_by_i64": (_take("i1", "i64"), "i1", "i64"),
    # gather -> reduce, fused: one loop reading x[idx[i]] (the sums above are fused too)
    "max_i32_by_i32": (_fused("i32", "i32", "max", "-2147483648"), "i32", "i32"),
    "umin_i64_by_i64": (_fused("i64", "i64", "umin", "-1"), "i64", "i64"),
    "min_f64_by_i32": (_fused("f64", "i32", "min", "0x7FF0000000000000"), "f64", "i32"),
    "scaled_sum_i32_by_i64": (_fused("i32", "i64", "add", "0", scale=True), "i32", "i64"),
    # gather -> map, fused: the map's loops read x[idx[i]]
    "mapped_i64_by_i32": (_mapped("i64", "i32"), "i64", "i32"),
    "mapped_i32_by_i32": (_mapped("i32", "i32"), "i32", "i32"),
}
FUSED_REFERENCE = {
    "max_i32_by_i32": lambda y, w: np.max(y, initial=np.iinfo(np.int32).min),
    "umin_i64_by_i64": lambda y, w: y.view(np.uint64).min(initial=np.uint64(2**64 - 1)).view(np.int64)
    if len(y) else np.int64(-1),
    "min_f64_by_i32": lambda y, w: np.min(y, initial=np.inf),
    "scaled_sum_i32_by_i64": lambda y, w: np.sum(2 * y + w, dtype=np.int32),
    "mapped_i64_by_i32": lambda y, w: y * 3 - w,
    "mapped_i32_by_i32": lambda y, w: y * 3 - w,
}
"""The fused reductions' references, on the gathered array y (and w)."""


def hostile_indices(ie: str, nx: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """n indices into a source of nx elements: in-bounds ones with duplicates, and every
    kind of out-of-bounds value, the edge values at the first and last positions too."""
    info = np.iinfo(TYPES[ie])
    edges = [0, nx - 1, -1, nx, nx + 1, info.min, info.max, info.min + 1, 2**31 - 1]
    if ie == "i64":
        edges += [2**31, 2**32, -(2**31) - 1, 2**32 + max(nx - 1, 0)]
    idx = rng.integers(-3, max(nx, 1) + 3, size=n)
    if n:
        picks = rng.integers(0, n, size=min(n, 3 * len(edges)))
        idx[picks] = rng.choice(edges, size=len(picks))
        idx[0], idx[-1] = edges[(n + nx) % len(edges)], edges[(n * 7 + nx) % len(edges)]
    return idx.astype(TYPES[ie])


def reference(x: np.ndarray, idx: np.ndarray, reduce: bool):
    inside = (idx.astype(np.int64) >= 0) & (idx.astype(np.int64) < len(x))
    picked = x[np.where(inside, idx, 0)] if len(x) else np.zeros(len(idx), x.dtype)
    y = np.where(inside, picked, np.zeros((), x.dtype)).astype(x.dtype)
    if not reduce:
        return (y,)
    with np.errstate(over="ignore"):
        return (x.dtype.type(np.sum(y, dtype=x.dtype)),)


def _cases(name: str) -> list[tuple[tuple[np.ndarray, np.ndarray], tuple]]:
    _, elt, ie = CASES[name]
    out = []
    for nx in SOURCE_LENGTHS:
        for n in SIZES:
            rng = np.random.default_rng([nx, n, len(name)])
            if elt.startswith("f"):
                x = rng.standard_normal(nx).astype(TYPES[elt])
            elif elt == "i1":
                x = rng.random(nx) < 0.5
            elif elt == "i8":
                x = rng.integers(-128, 128, size=nx).astype(np.int8)
            else:
                x = rng.integers(-(2**30), 2**30, size=nx).astype(TYPES[elt])
            idx = hostile_indices(ie, nx, n, rng)
            if name in FUSED_REFERENCE:
                (y,) = reference(x, idx, False)
                w = rng.integers(-(2**30), 2**30, size=n).astype(TYPES[elt]) if name.startswith(("scaled", "mapped")) else None
                with np.errstate(over="ignore"):
                    r = np.asarray(FUSED_REFERENCE[name](y, w), dtype=TYPES[elt])
                    ref = (r if r.ndim else r[()],)
                out.append(((x, idx) if w is None else (x, idx, w), ref))
                continue
            out.append(((x, idx), reference(x, idx, name.startswith("sum"))))
    return out


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("name", CASES)
def test_gather_matches_numpy(name: str, isa: str) -> None:
    cases = _cases(name)
    runs = run_each(compiled_source(CASES[name][0], isa), "k", [inputs for inputs, _ in cases])
    for (inputs, ref), got in zip(cases, runs, strict=True):
        if name.startswith("sum_f"):
            tol = 1e-4 * (1 + np.sum(np.abs(ref[0])) + np.sum(np.abs(inputs[0])))
            assert abs(float(got[0]) - float(ref[0])) <= tol, (name, isa, len(inputs[0]), len(inputs[1]), got, ref)
            continue
        problems = compare_results(got, ref, {})
        assert not problems, f"{name} on {isa}, len(x)={len(inputs[0])}, n={len(inputs[1])}: " + "; ".join(problems)


def test_gathers_vectorize() -> None:
    """The same-width cases print the ISA's gather instruction (AVX2/AVX-512) or the lane-wise
    helper (SSE2, NEON); the mixed-width ones the lane-wise helper everywhere."""
    for name in ("take_f32_by_i32", "take_f64_by_i64", "take_i32_by_i32", "take_i64_by_i64"):
        assert "_mm512_mask_i" in emit_program(CASES[name][0], "avx512").c_source, name
        assert "_mm256_mask_i" in emit_program(CASES[name][0], "avx2").c_source, name
        assert "lo_gather_" in emit_program(CASES[name][0], "sse2").c_source, name
        assert "lo_gather_" in emit_program(CASES[name][0], "neon").c_source, name
    for name, helper in (("take_f32_by_i64", "lo_gather_f32_by_i64"), ("take_f64_by_i32", "lo_gather_f64_by_i32")):
        for isa in ("sse2", "avx2", "avx512", "neon"):
            assert helper + "(" in emit_program(CASES[name][0], isa).c_source, (name, isa)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_gathers_stay_in_bounds_under_sanitizers(isa: str) -> None:
    """ASan + UBSan on every case: each array in an allocation of exactly its size (and one
    element in), the gather instructions replaced by checked lane-wise C."""
    if isa not in host_isas():
        pytest.skip(f"this CPU does not run {isa}")
    for name in ("take_f32_by_i32", "take_f64_by_i64", "sum_i64_by_i64", "take_f32_by_i64", "max_i32_by_i32",
                 "min_f64_by_i32", "scaled_sum_i32_by_i64", "mapped_i32_by_i32"):
        program = emit_program(CASES[name][0], isa)
        kernel = sanitized_kernels(program.c_source, program.signatures.values(), isa)["k"]
        cases = _cases(name)
        for offset in (0, 1):
            runs = kernel.batch([inputs for inputs, _ in cases], offsets=[offset] * len(cases))
            for (inputs, ref), (outputs, results) in zip(cases, runs, strict=True):
                got = tuple(outputs) + tuple(results)
                assert not compare_results(got, ref, {}), (name, isa, len(inputs[0]), len(inputs[1]))


@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("take")])
def test_gather_fuses_into_its_user(name: str) -> None:
    """No buffer holds the gathered array: the reduction's (map's) loop reads x[idx[i]] (a
    gather instruction on AVX-512), and a second loop over [n_ok, n) stands for an empty x."""
    from loopopt.compile import make_context, parse, run_pipeline

    module = parse(CASES[name][0])
    run_pipeline(module, "df-fuse,convert-df-to-loop", make_context())
    loop_ir = str(module)
    assert "loop.alloc" not in loop_ir, name
    assert loop_ir.count("loop.for") == 2 and "n_i_in_x" in loop_ir, name
    _, elt, ie = CASES[name]
    if elt[1:] == ie[1:]:  # same lane width: the gather instruction
        assert "_mm512_mask_i" in emit_program(CASES[name][0], "avx512").c_source, name


UNCHECKED = """
func.func @k(%b: !loop.buf<f32> {loop.role = "in", loop.axes = ["j"]}, %idx: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %z: f32) -> f32 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %idx, 0 : !loop.buf<i32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %k = loop.load %idx[%i] : !loop.buf<i32>
    %j = arith.index_cast %k : i32 to index
    %x = loop.load %b[%j] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
"""


@pytest.mark.parametrize("isa", isa_params(("avx2", "avx512")))
def test_sanitizers_see_an_out_of_bounds_gather(isa: str) -> None:
    """The check above can fail: Loop IR that gathers without a bounds check (a Loop IR load
    promises its index is in bounds) is reported when a lane reads past the source."""
    from loopopt.runtime.sanitize import SanitizerError

    if isa not in host_isas():
        pytest.skip(f"this CPU does not run {isa}")
    program = emit_program(UNCHECKED, isa)
    assert "gather" in program.c_source
    kernel = sanitized_kernels(program.c_source, program.signatures.values(), isa)["k"]
    x = np.ones(4, np.float32)
    ok = np.arange(16, dtype=np.int32) % 4
    (_, (total,)), = kernel.batch([(x, ok, np.float32(0))])
    assert total == 16
    bad = ok.copy()
    bad[5] = 4
    with pytest.raises(SanitizerError, match="AddressSanitizer"):
        kernel.batch([(x, bad, np.float32(0))])
