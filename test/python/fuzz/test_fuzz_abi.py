"""The C-ABI fuzzer (`loopopt.tools.fuzz.abi`, docs/fuzzing.md "Hostile C callers"): a fixed-seed
batch under ASan + UBSan, proof that its oracle catches a write past a capacity and a wrong count,
and the bugs it found, each called the way that failed before its fix."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from loopopt.runtime.isa import host_isas
from loopopt.tools.fuzz.abi import NEGATIVE, AbiFuzzer, Case, make_cases
from loopopt.tools.fuzz.generate import GenOptions, Generator
from loopopt.tools.fuzz.program import Arg, Const, Filter, Fold, Gather, Input, Kernel, Map, Op, Param, Range, Reduce
from loopopt.tools.fuzz.runner import EMIT_ONLY, Config, compile_groups

VECTOR = [isa for isa in ("avx512", "avx2", "sse2") if isa in host_isas()][:1]
ISAS = ["scalar", *VECTOR]
ALL = [isa for isa in ("scalar", "sse2", "avx2", "avx512") if isa in host_isas()]
SEED = 20261127

GT0 = Op("cmp:sgt", (Arg(0, "i32"), Const(0, "i32")), "i1")
KEEP = Kernel("keep", (Input("i32"), Filter((0,), GT0, "k0")), (1,))
"""x[x > 0]: one filter output, the kernel's result."""


def _long_predicate() -> Op:
    e: Op | Arg = Arg(0, "i32")
    for c in range(1, 6):  # 20 ops: past df-fuse's recompute limit (8), so the filter stays materialized
        e = Op("xor", (Op("add", (e, Const(c, "i32")), "i32"), Const(3 * c, "i32")), "i32")
    return Op("cmp:sgt", (e, Const(0, "i32")), "i1")


KEEP_SUM = Kernel("keep_sum", (Input("i32"), Filter((0,), _long_predicate(), "k0"), Reduce("add", 1, Const(0, "i32"))), (1, 2))
"""A filter result that is also summed: the sum reads the kept elements after the filter ran."""

DEAD_ZIP = Kernel("dead_zip", (
    Input("i8"), Input("i8"),
    Map((0,), Const(47, "i8")),
    Filter((1, 2), Op("cmp:ugt", (Arg(1, "i8"), Arg(0, "i8")), "i1"), "k0"),  # nobody reads it
    Map((0, 1), Op("add", (Arg(0, "i8"), Arg(1, "i8")), "i8")),
), (4,))  # fmt: skip
"""The session-22 leftover: a zipped filter nobody reads still allocated and filled scratch."""


def _run(kernel: Kernel, isa: str, cases: list[Case], config: Config = Config(), patch=None) -> AbiFuzzer:
    fuzzer = AbiFuzzer([isa])
    groups, fails = compile_groups([kernel], EMIT_ONLY + isa, None, config)
    assert not fails, fails[0].message
    ((compiled, _),) = groups
    if patch is not None:
        patched = patch(compiled.c_source)
        assert patched != compiled.c_source, "the injected bug did not apply"
        compiled.c_source = patched
    fuzzer.run_group(compiled, [kernel], isa, config, 0, cases)
    return fuzzer


def _report(fuzzer: AbiFuzzer) -> str:
    return "\n\n".join(f"{f.cls} on {f.isa} {f.config.label()} case {f.case.label() if f.case else '-'}:\n{f.message[:1500]}"
                       for f in fuzzer.failures)  # fmt: skip


def test_fixed_seed_batch() -> None:
    """12 generated programs, scalar and the best vector ISA, half of the ISAs' batches with the
    parallel drivers (parallel=-1, chunks of 64, 1-4 threads, filter_block 0 or -1)."""
    kernels = [Generator(s, GenOptions(max_steps=3)).kernel(f"f{s}") for s in range(SEED, SEED + 12)]
    fuzzer = AbiFuzzer(ISAS, cases_per_kernel=5, configs=True)
    fuzzer.run_batch(kernels, SEED)
    assert not fuzzer.failures, _report(fuzzer)
    for isa in ISAS:
        assert fuzzer.stats[isa]["runs"] >= 40, fuzzer.table()


def test_cases_are_hostile() -> None:
    """The case mix has negative lengths, aliased inputs, extreme scalars and large sizes."""
    kernels = [Generator(s).kernel(f"f{s}") for s in range(SEED, SEED + 40)]
    cases = [c for k in kernels for c in make_cases(k, SEED, 6, parallel=True)]
    assert any(c.negative for c in cases) and any(c.alias for c in cases) and any(c.extreme for c in cases)
    assert any(c.mismatch for c in cases)
    assert {c.negative for c in cases} & {min(NEGATIVE)}
    assert max(c.n for c in cases) > 65_536


# ------------------------------------------------------------------ the oracle catches


@pytest.mark.parametrize("slack", [False, True])
def test_oracle_catches_a_write_past_the_capacity(slack: bool) -> None:
    """The scalar filter's guarded tail store made unconditional: with the allocation exactly the
    capacity ASan reports it; with slack past the capacity the sentinel check does."""

    def unguard(c: str) -> str:
        return re.sub(r"if \(\w+ > 0\) (out\[count\] = )", r"\1", c)

    cases = [Case(37, seed, caps=seed, cap=cap, slack=40 if slack else 0) for seed in range(6) for cap in (3, 0)]
    fuzzer = _run(KEEP, "scalar", cases, patch=unguard)
    assert fuzzer.failures, "the oracle missed a write past the capacity"
    assert fuzzer.failures[0].cls == ("oob_write" if slack else "sanitizer"), _report(fuzzer)


def test_oracle_catches_a_wrong_count() -> None:
    fuzzer = _run(KEEP, "scalar", [Case(37, 1, caps=1)], patch=lambda c: c.replace("return count;", "return count + 1;"))
    assert [f.cls for f in fuzzer.failures] == ["count"], _report(fuzzer)


def test_oracle_catches_a_wrong_value() -> None:
    fuzzer = _run(KEEP, "scalar", [Case(37, 1, caps=1, cap=37)], patch=lambda c: c.replace("> 0;", ">= 0;"))
    assert [f.cls for f in fuzzer.failures] in (["count"], ["mismatch"]), _report(fuzzer)


# ------------------------------------------------------------------ found and fixed


@pytest.mark.parametrize("isa", ALL)
def test_negative_filter_capacity_reads_nothing_before_the_input(isa: str) -> None:
    """A negative capacity made the unrolled / vectorized filters split their loops at it: the
    exact tail started at a negative index and read x[-k] (lowering/loop_to_simd/predloop.py
    `_capacity`, now clamped at 0)."""
    cases = [Case(n, n, offsets=n, caps=n, cap=cap) for n in (1, 9, 37, 100) for cap in (-1, -7, -64, NEGATIVE[4])]
    fuzzer = _run(KEEP, isa, cases)
    assert not fuzzer.failures, _report(fuzzer)


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_filter_result_read_again_is_copied_within_the_capacity(isa: str) -> None:
    """A filter result that the kernel also reads (here: sums) was written straight into the
    caller's buffer and read back over the whole count: past a small capacity (an ASan report)
    (lowering/df_to_loop/kernel.py `_in_place`: scratch, then the first min(count, capacity) copied)."""
    cases = [Case(n, n, offsets=n, caps=n, cap=cap) for n in (9, 37, 100) for cap in (0, 1, 5, -3, 200)]
    fuzzer = _run(KEEP_SUM, isa, cases)
    assert not fuzzer.failures, _report(fuzzer)


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_negative_lengths_allocate_nothing(isa: str) -> None:
    """An intermediate buffer's size is a C caller's length: negative, it was cast to a huge size_t
    (ASan: allocation-size-too-big) (targets/c_print_loops.py `_alloc`, clamped at 0); a dead
    zipped filter allocated two such buffers and ran (now not lowered at all)."""
    cases = [Case(0, k, negative=neg, offsets=k, caps=k, cap=4) for k, neg in enumerate(NEGATIVE)]
    for kernel in (KEEP_SUM, DEAD_ZIP):
        fuzzer = _run(kernel, isa, cases)
        assert not fuzzer.failures, _report(fuzzer)


def test_dead_zipped_filter_is_not_lowered() -> None:
    from loopopt.runtime.sanitize import emit_program
    from loopopt.tools.fuzz.printer import print_kernel

    c = emit_program(print_kernel(DEAD_ZIP), "avx2").c_source
    assert "malloc" not in c and "compress" not in c, c


MUL16 = Kernel("mul16", (Input("i16"), Input("i16"), Map((1, 0), Op("mul", (Arg(0, "i16"), Arg(1, "i16")), "i16"))), (2,))
PARALLEL = Config("", parallel=-1, min_elements=0, chunk=64, threads=2)


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_parallel_map_of_a_negative_length_does_not_overflow(isa: str) -> None:
    """A parallel map's chunk decided streaming from the whole call's length times the element size,
    unclamped: INT64_MIN * 2 is a signed overflow (UBSan) (lowering/loop_to_simd/vecloop.py
    `call_trips`, now clamped at 0 like the serial trips)."""
    cases = [Case(0, k, negative=neg, offsets=k, caps=k) for k, neg in enumerate(NEGATIVE)]
    cases += [Case(n, n, offsets=n, caps=n) for n in (1, 63, 64, 65, 1000)]
    fuzzer = _run(MUL16, isa, cases, PARALLEL)
    assert not fuzzer.failures, _report(fuzzer)


TAKE = Kernel("take", (Input("i8", axis="j"), Input("i64", index=True), Gather(0, 1)), (2,))


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_gather_with_a_negative_length_writes_nothing(isa: str) -> None:
    """A gather from a non-empty source by a negative-length index array started its zero loop at
    `&out[n]`, n near INT64_MIN: a pointer overflow (UBSan) (lowering/df_to_loop/gather.py, the
    length now clamped at 0)."""
    cases = [Case(0, seed, negative=neg, offsets=seed, caps=seed) for seed in range(12) for neg in (-1, NEGATIVE[6])]
    fuzzer = _run(TAKE, isa, cases)
    assert not fuzzer.failures, _report(fuzzer)


MISMATCH = [Case(n, seed, offsets=seed, caps=seed, mismatch=seed + 1) for n in (1, 9, 37, 100) for seed in range(8)]
"""y or out passed longer or shorter than x (docs/calling_convention.md, "Mismatched lengths")."""


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("isa", ALL)
def test_mismatched_lengths_stay_inside_every_buffer(isa: str, parallel: bool) -> None:
    """A second input or the output shorter than the first input: the axis guard runs nothing
    (lowering/df_to_loop/kernel.py `guard_input_axes`; the parallel driver runs the serial
    kernel); longer: the first n elements are used."""
    fuzzer = _run(MUL16, isa, MISMATCH, PARALLEL if parallel else Config())
    assert not fuzzer.failures, _report(fuzzer)


ZIP_KEEP = Kernel("zip_keep", (Input("i32"), Input("i32"), Filter((0, 1), Op("cmp:sgt", (Arg(0, "i32"), Arg(1, "i32")), "i1"), "k0")), (2,))
"""x[x > y]: a filter over two inputs (the parallel filter drivers split y too)."""


@pytest.mark.parametrize("filter_block", [0, 128])
@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_mismatched_lengths_of_a_parallel_filter(isa: str, filter_block: int) -> None:
    """A short y: the parallel filter drivers (scratch-and-copy, count-first blocks) run the
    serial kernel, whose guard runs nothing (targets/c_parallel.py, c_filter_blocks.py
    `serial_conditions`). Blocks of 128 elements, so that 1000 and 70,001 elements are split
    into parts: with the CPU's block (-1: 256 Ki) every size here ran `<k>__copies`, the scratch
    driver, and the test passed with the block driver's fallback removed."""
    cases = [Case(n, seed, offsets=seed, caps=seed, mismatch=seed + 1) for n in (65, 1000, 70_001) for seed in range(6)]
    fuzzer = _run(ZIP_KEEP, isa, cases, replace(PARALLEL, filter_block=filter_block))
    assert not fuzzer.failures, _report(fuzzer)


def test_oracle_catches_an_unguarded_axis() -> None:
    """The guard removed (the loops trust x_len, as before): ASan reports the short buffer."""
    fuzzer = _run(MUL16, "scalar", MISMATCH, patch=lambda c: re.sub(r"\(fits_i\) \? (\w+) : 0", r"\1", c))
    assert fuzzer.failures and fuzzer.failures[0].cls in ("sanitizer", "oob_write"), _report(fuzzer)


REC_ALIAS = Kernel("rec_alias", (
    Input("i32", fields=("a", "b")), Input("i32"), Input("i32"),
    Reduce("min", 1, Const(32, "i32")), Reduce("add", 2, Const(0, "i32")),
), (3, 4))  # fmt: skip
"""Two aliasable inputs after an array of records (one C pointer per field)."""


def test_aliased_inputs_after_a_record_input() -> None:
    """Found by seed 31 (session 24): the fuzzer passed the aliased input as the wrong pointer when
    a record input came first (it counted the record as one C parameter, not one per field), so
    the evaluator's copy and the kernel's input differed: a false `mismatch` on every ISA."""
    cases = [Case(n, seed, alias=(1, 2), offsets=seed, caps=seed) for n in (2, 9, 37) for seed in range(4)]
    fuzzer = _run(REC_ALIAS, "scalar", cases)
    assert not fuzzer.failures, _report(fuzzer)


RANGE_FILTER = Kernel(name="range_filter", nodes=(
    Input("f32"), Param("i64", "start"), Param("i64", "end"), Param("i64", "step"), Range(1, 2, 3, zipped=True),
    Map((0,), Op("cast", (Arg(0, "f32"),), "bf16")), Map((4,), Const(1, "i1")),
    Fold((6,), (Const(0, "i1"),), (Arg(1, "i1"),)), Filter((4, 5), Const(0, "i1"), "k0"),
), results=(5, 7, 8))  # fmt: skip
"""Seed 32 (session 24), minimized by abi_minimize from 11 nodes, n=32, a mismatched length and
2 threads: a fold over a range's axis and a filter of that axis with capacity 0."""


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_filter_of_a_range_zipped_with_an_input_keeps_its_capacity_rule(isa: str) -> None:
    """A range zipped with input axis i (no extent result: an input axis) guarded its loops by the
    filter output's capacity too, as a computed axis does: capacity 0 ran nothing on the axis and
    the fold gave its init (and a kept element would have made the count 0). Now a filter there
    writes min(count, capacity) and returns the full count, as on any input axis
    (lowering/df_to_loop/sources.py `LowerRange`: range_guard's `filtered` off)."""
    cases = [Case(n, seed, offsets=seed, caps=seed, cap=cap) for n in (1, 9, 37) for seed in range(2) for cap in (0, 1, n, n + 3)]
    fuzzer = _run(RANGE_FILTER, isa, cases)
    assert not fuzzer.failures, _report(fuzzer)


FREE_RANGE_FILTER = Kernel("free_range_filter", (
    Param("i64", "rstart"), Param("i64", "rend"), Param("i64", "rstep"), Range(0, 1, 2, zipped=False),
    Map((3,), Const(1, "i1")), Fold((4,), (Const(0, "i1"),), (Op("or", (Arg(0, "i1"), Arg(1, "i1")), "i1"),)),
    Filter((3,), Const(1, "i1"), "k0"),
), (6, 5))  # fmt: skip


def test_oracle_filter_capacity_on_a_computed_axis() -> None:
    """A free range is a computed axis (its extent a result): a filter capacity below the extent
    runs nothing on the axis (docs/calling_convention.md "Computed axes"; the Python wrapper
    rejects the call). The oracle expected the full count (a false `count`, found with the case
    above)."""
    cases = [Case(0, seed, offsets=seed, caps=seed, cap=cap) for seed in range(4) for cap in (0, 1, 3, 100)]
    fuzzer = _run(FREE_RANGE_FILTER, "scalar", cases)
    assert not fuzzer.failures, _report(fuzzer)


def test_isas_this_machine_does_not_run_are_named_not_silently_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    """`--isas scalar,neon` on x86 ran scalar only and said nothing (session 26): the ABI fuzzer
    calls kernels natively, so it names what it leaves out; an unknown name or nothing runnable
    is a usage error (exit 2) before any kernel is built."""
    from loopopt.tools.fuzz.abi import main

    foreign = next(isa for isa in ("neon", "avx512", "avx2", "sse2") if isa not in host_isas())
    with pytest.raises(SystemExit) as exit_:
        main(["--isas", f"{foreign},avx9", "--programs", "1"])
    assert exit_.value.code == 2 and "unknown avx9" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--isas", foreign, "--programs", "1"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and f"skipping {foreign}" in err and "none of them runs" in err
