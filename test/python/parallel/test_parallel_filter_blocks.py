"""Parallel filters in super-blocks (loop-parallelize{filter_block}, derive-filter-count, the
driver of targets/c_filter_blocks.py) against numpy and the serial kernel: sizes around the
part and piece boundaries, parts selecting nothing or everything, 1-4 threads, every ISA this
machine runs, every element type a filter compacts; the old scratch-and-copy driver stays
selectable (filter_block=0) and is what 16-bit filters (compacted by scalar appends, no
counting kernel) keep."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import pipeline

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import threads


def _filter(name: str, t: str, zero: str, cmp: str, scale: bool) -> str:
    arg = f", %a: {t}" if scale else ""
    body = (
        f"""
  %y = df.map %p : !df.array<{t}, [k]> -> !df.array<{t}, [k]> {{
  ^bb0(%e: {t}):
    %m = arith.mulf %a, %e : {t}
    df.yield %m : {t}
  }}
  func.return %y : !df.array<{t}, [k]>"""
        if scale
        else f"\n  func.return %p : !df.array<{t}, [k]>"
    )
    return f"""
func.func @{name}(%x: !df.array<{t}, [i]>{arg}) -> !df.array<{t}, [k]> {{
  %z = arith.constant {zero} : {t}
  %p = df.filter %x : !df.array<{t}, [i]> -> !df.array<{t}, [k]> {{
  ^bb0(%e: {t}):
    %c = {cmp}, %e, %z : {t}
    df.yield %c : i1
  }}{body}
}}
"""


BASE = "".join(
    [
        _filter("scale_f64", "f64", "0.0", "arith.cmpf ogt", True),  # filter -> map
        _filter("scale_f32", "f32", "0.0", "arith.cmpf ogt", True),
        _filter("keep_f32", "f32", "0.0", "arith.cmpf ogt", False),  # filter -> store
        _filter("keep_i64", "i64", "0", "arith.cmpi sgt", False),
        _filter("keep_i32", "i32", "0", "arith.cmpi sgt", False),
        _filter("keep_i16", "i16", "0", "arith.cmpi sgt", False),
        _filter("keep_i8", "i8", "0", "arith.cmpi sgt", False),
        _filter("keep_u8", "i8", "100", "arith.cmpi ugt", False),
    ]
)
F16 = """
func.func @keep_f16(%x: !df.array<f16, [i]>) -> !df.array<f16, [k]> {
  %z = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f16, [i]> -> !df.array<f16, [k]> {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    %c = arith.cmpf ogt, %w, %z : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f16, [k]>
}
"""
SOURCE = BASE + F16
NO_F16 = ("scalar",)
"""The scalar target prints no f16 filter, serial or parallel (vector<1xf16>; not this test's subject)."""
DTYPES = {
    "scale_f64": np.float64, "scale_f32": np.float32, "keep_f32": np.float32, "keep_i64": np.int64,
    "keep_i32": np.int32, "keep_i16": np.int16, "keep_i8": np.int8, "keep_u8": np.uint8, "keep_f16": np.float16,
}  # fmt: skip
COPYING = ("keep_f16",)
"""Compacted by scalar appends (f16 storage has no vector compaction; i16 compacts as the bytes
of its register): no counting kernel, the scratch-and-copy driver."""
BLOCKS = (128, 8192)
"""Part sizes: many parts at small n; parts of several pieces (2 KiB of input per call:
256 f64 ... 2048 i8 elements)."""
THREADS = (1, 2, 3, 4)


def sizes(block: int) -> list[int]:
    b = block
    # below block x threads x 4 the parts shrink (c_filter_blocks.PARTS_PER_THREAD): 16 b + 3 has
    # parts of b for every thread count
    out = [0, 1, 127, 128, 129, b - 1, b, b + 1, 2 * b - 1, 2 * b + 1, 3 * b + 17, 7 * b + 5, 16 * b + 3, 1009]
    if b >= 4096:
        out += [255, 257, 511, 513, 2047, 2049, b + 256, b + 513, b + 2048, b + 4097, 2 * b + 16383, 5 * b + 16385]
    return sorted(set(out))


def names(isa: str) -> list[str]:
    return [k for k in DTYPES if not (k == "keep_f16" and isa in NO_F16)]


@functools.cache
def build(isa: str, block: int = BLOCKS[0], parallel: int = -1):
    src = BASE if isa in NO_F16 else SOURCE
    if not parallel:
        return loopopt_compile(src, target=isa, pipeline=pipeline(isa, 0))
    return loopopt_compile(src, target=isa, pipeline=pipeline(isa, parallel, min_elements=0, filter_block=block))


def data(name: str, n: int, block: int, rng: np.random.Generator) -> np.ndarray:
    """Random values, a part selecting nothing and one selecting everything (when n allows),
    NaNs in the floats; an unaligned view (offset by one element)."""
    dt = np.dtype(DTYPES[name])
    if dt.kind == "f":
        x = rng.standard_normal(n).astype(dt)
        x[rng.integers(0, n, n // 50) if n else []] = np.nan
        lo, hi = -1, 1
    else:
        x = rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, n, dtype=np.int64, endpoint=True).astype(dt)
        lo, hi = (0, 255) if dt.kind == "u" else (-1, 1)
    x[block : 2 * block] = lo
    x[2 * block : 3 * block] = hi
    b = np.empty(n + 1, dt)
    b[1:] = x
    return b[1:]


def check_against_serial(k, serial, isa: str, block: int, rng: np.random.Generator, *label: object) -> None:
    """Every filter of `k` on THREADS threads, at the sizes around `block`'s parts, gives numpy's
    bits and so does the serial build."""
    for name in names(isa):
        for n in sizes(block):
            x = data(name, n, block, rng)
            want = reference(name, x)
            assert call(serial, name, x).tobytes() == want.tobytes(), (name, n)
            for t in THREADS:
                loopopt.set_num_threads(t)
                got = call(k, name, x)
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (isa, block, *label, name, n, t)


def call(k, name: str, x: np.ndarray) -> np.ndarray:
    dt = np.dtype(DTYPES[name])
    arg = x.view(np.int8) if dt.kind == "u" else x
    args = (arg, dt.type(-2.5)) if name.startswith("scale") else (arg,)
    out, count = k.outputs_and_results(name, *args)
    assert count == len(out)
    return out.view(dt)


def reference(name: str, x: np.ndarray) -> np.ndarray:
    if name == "keep_u8":
        return x[x > 100]
    kept = x[x > 0]
    return (kept.dtype.type(-2.5) * kept) if name.startswith("scale") else kept


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_super_block_filters_match_numpy_and_the_serial_kernel(isa, block):
    k, serial = build(isa, block), build(isa, parallel=0)
    counted = {f.attributes["loop.count_of"].data for f in k.module.ops if "loop.count_of" in f.attributes}
    assert counted == set(names(isa)) - set(COPYING)
    check_against_serial(k, serial, isa, block, np.random.default_rng(block))


@pytest.mark.parametrize("isa", isa_params(("avx2", "avx512")))
def test_super_blocks_many_calls_on_hundreds_of_parts(isa):
    """Places are sums of published counts: whichever thread runs ahead, every call on 2-4
    threads writes the serial output (here 400 parts of 128, a fifth selecting nothing)."""
    k = build(isa, 128)
    rng = np.random.default_rng(3)
    n = 400 * 128 + 3
    for name in ("scale_f32", "keep_i8", "keep_i64"):
        x = data(name, n, 128, rng)
        x[: n // 5] = 0  # selects nothing (> 0 and > 100 are false for 0)
        want = reference(name, x)
        for t in (2, 3, 4):
            loopopt.set_num_threads(t)
            for _ in range(10):
                assert call(k, name, x).tobytes() == want.tobytes(), (isa, name, t)


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx512")))
def test_counts_a_thread_has_not_published_are_counted_by_the_waiter(isa):
    """Built with LO_PAR_COUNT_SPINS=0, a thread never waits for a count: one not yet published
    (its thread parked, or only behind) it counts itself, as under load; same bits."""
    k = loopopt_compile(BASE, target=isa, pipeline=pipeline(isa, -1, min_elements=0, filter_block=128),
                        extra_cflags=["-DLO_PAR_COUNT_SPINS=0"])  # fmt: skip
    rng = np.random.default_rng(17)
    for name in ("scale_f64", "keep_i32", "keep_u8"):
        for n in (129, 3 * 128 + 17, 16 * 128 + 3, 20011):
            x = data(name, n, 128, rng)
            want = reference(name, x)
            for t in (2, 3, 4):
                loopopt.set_num_threads(t)
                for _ in range(3):
                    assert call(k, name, x).tobytes() == want.tobytes(), (isa, name, n, t)


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx512")))  # 16- and 64-byte streaming stores
def test_streamed_super_blocks_copy_each_piece_non_temporally(isa):
    """filter_block_stream=true: with an output past stream_bytes each piece goes through the
    thread's stage and `lo_par_drain` (whole lines non-temporal, the rest carried to the next
    piece, plain at the part's ends): the same bits. Sizes around the pieces (2 KiB of input:
    256 f64, 512 f32, 2048 i8) and parts; a selective filter (keep_u8) makes pieces whose
    output is shorter than the line the carry waits to complete."""
    k = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, -1, min_elements=0, filter_block=8192, stream_bytes=64, filter_block_stream="true"))
    assert "lo_par_drain(out + lo_at" in k.c_source and "lo_par_copy(out + lo_at" in k.c_source  # <k>__copies
    rng = np.random.default_rng(5)
    for name in ("scale_f64", "keep_f32", "keep_i8", "keep_u8", "keep_i16"):
        for n in (129, 255, 257, 511, 513, 2047, 2049, 4097, 8191, 8193, 3 * 8192 + 17, 5 * 8192 + 16385, 16 * 8192 + 3, 40009):
            x = data(name, n, 8192, rng)
            for t in (1, 2, 3, 4):
                loopopt.set_num_threads(t)
                assert call(k, name, x).tobytes() == reference(name, x).tobytes(), (name, n, t)


def test_filter_block_zero_keeps_the_scratch_driver():
    k = build("avx2", 0)
    assert "__count" not in k.c_source and "lo_par_copy(" in k.c_source
    x = data("keep_i32", 5000, 128, np.random.default_rng(1))
    loopopt.set_num_threads(3)
    assert call(k, "keep_i32", x).tobytes() == reference("keep_i32", x).tobytes()


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_super_block_filters_under_qemu(isa):
    k = build(isa, 128)
    rng = np.random.default_rng(9)
    for name in ("scale_f32", "keep_i8", "keep_i64"):
        for n in (0, 129, 5 * 128 + 17, 20011):
            x = np.ascontiguousarray(data(name, n, 128, rng))
            assert call(k, name, x).tobytes() == reference(name, x).tobytes(), (name, n)


@pytest.mark.parametrize("isa", isa_params(("avx2",)))
def test_super_block_driver_under_address_and_undefined_sanitizers(isa):
    """Arrays in allocations of exactly their size: the count kernel's reads, the prefetch
    ranges, the compaction with capacity = the count left, the stages and copies stay in bounds
    (LOOPOPT_NUM_THREADS=3: read by the C, no Python runtime)."""
    import os

    from loopopt.runtime.sanitize import emit_program, sanitized_kernels

    for stream in (-1, 64):
        extra = {"stream_bytes": stream, "filter_block_stream": "true"} if stream >= 0 else {}
        prog = emit_program(SOURCE, isa, pipeline(isa, -1, min_elements=0, filter_block=128, **extra))
        kernels = sanitized_kernels(prog.c_source, prog.signatures.values(), isa)
        rng = np.random.default_rng(13)
        os.environ["LOOPOPT_NUM_THREADS"] = "3"
        try:
            for name in ("scale_f64", "keep_i8"):
                dt = np.dtype(DTYPES[name])
                cases = []
                for n in (0, 1, 129, 3 * 128, 5 * 128 + 17, 9000):
                    x = np.ascontiguousarray(data(name, n, 128, rng))
                    cases.append((x, dt.type(-2.5)) if name.startswith("scale") else (x,))
                got = kernels[name].batch(cases, offsets=[j % 2 for j in range(len(cases))])
                for args, (outputs, results) in zip(cases, got):
                    want = reference(name, args[0])
                    assert outputs[0][: len(want)].tobytes() == want.tobytes() and results[0] == len(want), (name, len(args[0]))
        finally:
            del os.environ["LOOPOPT_NUM_THREADS"]
