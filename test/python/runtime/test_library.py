"""Compiled libraries: per-ISA builds, the checked fast call path, results, call_alloc, overhead."""

import sys
import timeit

import numpy as np
import pytest
from rt_kernels import DOT_SIG, DOT_SOURCES, MIXED_SIGS, MIXED_SOURCE

from loopopt.runtime import CompileError, compile_library, host_isas

NATIVE_ISAS = ("scalar", "sse2", "avx2", "avx512")


@pytest.fixture(scope="module")
def lib():
    # -Werror: the generated wrapper must compile warning-free under -Wall -Wextra.
    return compile_library(MIXED_SOURCE, MIXED_SIGS, extra_cflags=["-Werror"])


def small_ints(rng, n, dtype=np.float32):
    # Small integers keep float sums exact whatever the association or fusion.
    return rng.integers(-8, 9, n).astype(dtype)


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in NATIVE_ISAS])
def test_dot_for_each_host_isa(isa):
    lib = compile_library(DOT_SOURCES[isa], [DOT_SIG], isa=isa, extra_cflags=["-Werror"])
    assert lib.isa == isa and lib.path.exists()
    rng = np.random.default_rng(0)
    for n in range(0, 70):
        # Views at offset 1 are unaligned for any vector width.
        x = np.zeros(n + 1, np.float32)[1:]
        y = np.zeros(n + 1, np.float32)[1:]
        x[:] = small_ints(rng, n)
        y[:] = small_ints(rng, n)
        got = lib.lo_dot(x, y)
        assert type(got) is np.float32
        assert got == np.dot(x.astype(np.float64), y.astype(np.float64)), n


@pytest.mark.isa("avx512")
def test_isa_flags_are_what_enables_intrinsics():
    with pytest.raises(CompileError) as info:
        compile_library(DOT_SOURCES["avx512"], [DOT_SIG], isa="avx2")
    assert "_mm512" in info.value.stderr


def test_native_default_and_foreign_isa_rejected():
    lib = compile_library(DOT_SOURCES["scalar"], [DOT_SIG])
    assert lib.isa == "native"
    with pytest.raises(ValueError, match="cannot run ISA 'neon'.*run_foreign"):
        compile_library(DOT_SOURCES["neon"], [DOT_SIG], isa="neon")
    with pytest.raises(ValueError, match="unknown ISA"):
        compile_library(DOT_SOURCES["scalar"], [DOT_SIG], isa="avx1024")


def test_library_lookup(lib):
    assert lib["lo_scale"] is lib.lo_scale
    assert "lo_mark" in lib and "nope" not in lib
    assert sorted(lib) == sorted(s.name for s in MIXED_SIGS)
    with pytest.raises(KeyError, match="no kernel 'nope'"):
        lib["nope"]
    with pytest.raises(AttributeError, match="no kernel 'nope'"):
        lib.nope
    assert lib.lo_scale.__doc__ == "lo_scale(x: f32[n], a: f32, out: out f32[n]) -> None"


def test_map_with_scalar(lib):
    x = np.arange(10, dtype=np.float32)
    out = np.full(12, -1, np.float32)  # spare capacity is left alone
    assert lib.lo_scale(x, 2.5, out) is None
    np.testing.assert_array_equal(out[:10], x * np.float32(2.5))
    np.testing.assert_array_equal(out[10:], [-1, -1])
    lib.lo_scale(x, np.float32(-1), out)  # numpy scalars convert too
    np.testing.assert_array_equal(out[:10], -x)


def test_two_results_filter_and_reduction(lib):
    x = np.array([3.0, -1.0, 5.5, 0.0, 7.0])
    out = np.zeros(5)
    count, total = lib.lo_keep_above(x, 0.5, out)
    assert (count, total) == (3, 15.5)
    assert type(count) is np.int64 and type(total) is np.float64
    np.testing.assert_array_equal(out[:count], [3.0, 5.5, 7.0])
    kept, count, total = lib.call_alloc("lo_keep_above", x, 4.0)
    np.testing.assert_array_equal(kept, [5.5, 7.0])
    assert (count, total) == (2, 12.5)


def test_call_alloc_filter_trims(lib):
    x = np.array([4, -3, 0, 9, -1, 2], np.int32)
    kept, count = lib.call_alloc("lo_positive", x)
    assert count == 3 and kept.dtype == np.int32
    np.testing.assert_array_equal(kept, [4, 9, 2])
    kept, count = lib.call_alloc("lo_positive", np.zeros(0, np.int32))
    assert count == 0 and kept.shape == (0,)


def test_bool_arrays_scalars_and_results(lib):
    x = np.array([1, 2, 1, 3], np.int32)
    out, found = lib.call_alloc("lo_mark", x, 1, False)
    assert found is np.True_ and out.dtype == np.bool_
    np.testing.assert_array_equal(out, [True, False, True, False])
    out, found = lib.call_alloc("lo_mark", x, 7, np.bool_(False))
    assert found is np.False_ and not out.any()
    out, found = lib.call_alloc("lo_mark", x, 7, 1)
    assert found is np.True_ and out.all()


def test_rank2_input(lib):
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    w = np.array([1, 2, 3], np.int64)
    (sums,) = lib.call_alloc("lo_row_sums", m, w)
    np.testing.assert_array_equal(sums, m.sum(axis=1) * w)
    with pytest.raises(ValueError, match="length mismatch on axis 'r': 'm' dim 0 has 3 but 'w' has 2"):
        lib.lo_row_sums(m, w[:2], np.zeros(3))


def test_rank2_every_dimension_is_checked_and_sized(lib):
    m = np.arange(15, dtype=np.int32).reshape(3, 5)
    sums, t = lib.call_alloc("lo_col_sums_t", m)
    np.testing.assert_array_equal(sums, m.sum(axis=0))
    np.testing.assert_array_equal(t, m.T)
    sums, t = np.zeros(5, np.int32), np.zeros((5, 3), np.int32)
    with pytest.raises(ValueError, match="'sums' has capacity 4 but axis 'c' has length 5 \\(from 'm' dim 1\\)"):
        lib.lo_col_sums_t(m, sums[:4], t)
    with pytest.raises(ValueError, match="length mismatch on axis 'r': 'm' dim 0 has 3 but 't' dim 1 has 2"):
        lib.lo_col_sums_t(m, sums, np.zeros((5, 2), np.int32))
    with pytest.raises(ValueError, match="'t' has capacity 4 but axis 'c' has length 5"):
        lib.lo_col_sums_t(m, sums, np.zeros((4, 3), np.int32))
    assert lib.lo_col_sums_t.__doc__ == "lo_col_sums_t(m: i32[r, c], sums: out i32[c], t: out i32[c, r]) -> None"
    assert lib.lo_positive.__doc__ == "lo_positive(x: i32[n], out: out i32[<=n]) -> i64"


def test_large_arrays_release_the_gil_and_stay_correct(lib):
    x = np.arange(1 << 16, dtype=np.float32)
    (out,) = lib.call_alloc("lo_scale", x, 0.5)
    np.testing.assert_array_equal(out, x * np.float32(0.5))


def _bad_calls():
    f32 = np.arange(5, dtype=np.float32)
    out5 = np.zeros(5, np.float32)
    readonly = np.zeros(5, np.float32)
    readonly.flags.writeable = False
    misaligned = np.frombuffer(bytearray(24), np.float32, count=5, offset=1)
    i32 = np.array([1, 2, 3], np.int32)
    bout = np.zeros(3, np.bool_)
    # (kernel, args, exception, message fragment)
    return [
        ("lo_scale", (f32, 1.0), TypeError, r"lo_scale\(\) takes 3 positional arguments \(x, a, out\) but 2"),
        ("lo_scale", (f32, 1.0, out5, out5), TypeError, "but 4 were given"),
        ("lo_scale", (f32.astype(np.float64), 1.0, out5), TypeError, "'x' expects dtype float32, found float64"),
        ("lo_scale", (f32.astype(">f4"), 1.0, out5), TypeError, "'x' expects dtype float32, found >f4"),
        ("lo_scale", (list(f32), 1.0, out5), TypeError, "'x' expects a rank-1 numpy array of float32, found list"),
        ("lo_scale", (np.zeros(10, np.float32)[::2], 1.0, out5), ValueError, "'x' must be C-contiguous"),
        ("lo_scale", (f32.reshape(5, 1), 1.0, out5), ValueError, "'x' expects a rank-1 array, found rank 2"),
        ("lo_scale", (misaligned, 1.0, out5), ValueError, "'x' is not aligned to its 4-byte element size"),
        ("lo_scale", (f32, "2", out5), TypeError, "'a' expects a f32 scalar .*found str"),
        ("lo_scale", (f32, 1.0, np.zeros(4, np.float32)), ValueError, "'out' has capacity 4 but axis 'n' has length 5"),
        ("lo_scale", (f32, 1.0, readonly), ValueError, "output 'out' is read-only"),
        ("lo_scale", (f32, 1.0, f32), ValueError, "output 'out' overlaps parameter 'x'"),
        ("lo_positive", (i32, np.zeros(2, np.int32)), ValueError, "'out' has capacity 2 but axis 'n' has length 3"),
        ("lo_mark", (i32, 1.5, False, bout), TypeError, "'v' expects a i32 scalar \\(an integer\\), found float"),
        ("lo_mark", (i32, 2**31, False, bout), OverflowError, "'v' = 2147483648 is out of range for i32"),
        ("lo_mark", (i32, 2**70, False, bout), OverflowError, "'v' is out of range for i64|'v' is out of range for i32"),
        ("lo_mark", (i32, 1, 2, bout), TypeError, "'invert' expects a bool scalar"),
        ("lo_mark", (i32, 1, False, bout.astype(np.uint8)), TypeError, "'out' expects dtype bool, found uint8"),
        ("lo_row_sums", (np.zeros(4), np.zeros(4, np.int64), np.zeros(4)), ValueError, "'m' expects a rank-2 array"),
        ("lo_row_sums", (np.zeros((2, 2)), np.zeros(2, np.int32), np.zeros(2)), TypeError, "'w' expects dtype int64"),
    ]


@pytest.mark.parametrize(("kernel", "args", "exc", "message"), _bad_calls(), ids=lambda v: None)
def test_wrong_calls_raise_clean_errors(lib, kernel, args, exc, message):
    with pytest.raises(exc, match=message) as info:
        lib[kernel](*args)
    assert str(info.value).startswith(f"{kernel}()")


def test_keyword_arguments_by_parameter_name(lib):
    x = np.arange(5, dtype=np.float32)
    for args, kwargs in [((x, 2.0), {"out": None}), ((), {"out": None, "a": 2.0, "x": x}), ((x,), {"a": 2.0, "out": None})]:
        out = np.zeros(5, np.float32)
        kwargs["out"] = out
        assert lib.lo_scale(*args, **kwargs) is None
        np.testing.assert_array_equal(out, x * np.float32(2))
    i32 = np.array([3, -1, 4, -1, 5], np.int32)
    kept = np.zeros(5, np.int32)
    assert lib.lo_positive(x=i32, out=kept) == 3  # a result comes back as without keywords
    np.testing.assert_array_equal(kept[:3], [3, 4, 5])


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((), {"y": 1}, r"lo_scale\(\) got an unexpected keyword argument 'y' \(parameters: x, a, out\)"),
    ((np.zeros(3, np.float32),), {"x": 1}, r"lo_scale\(\) got multiple values for argument 'x'"),
    ((np.zeros(3, np.float32), 1.0), {}, r"takes 3 positional arguments \(x, a, out\) but 2 were given"),
    ((np.zeros(3, np.float32),), {"a": 1.0}, r"lo_scale\(\) missing required argument 'out'"),
    ((np.zeros(3, np.float32), 1.0, np.zeros(3, np.float32), 4), {"a": 1}, "but 4 were given"),
    ((), {"\u00e9": 1, "x": 1}, "unexpected keyword argument '\u00e9'"),  # non-ASCII names match nothing
])
def test_bad_keyword_calls_are_type_errors(lib, args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        lib.lo_scale(*args, **kwargs)


def test_keyword_errors_in_argument_checks_name_the_parameter(lib):
    x = np.arange(3, dtype=np.float32)
    with pytest.raises(ValueError, match="output 'out' overlaps parameter 'x'"):
        lib.lo_scale(out=x, a=1.0, x=x)
    with pytest.raises(TypeError, match="'x' expects dtype float32, found float64"):
        lib.lo_scale(out=np.zeros(3, np.float32), a=1.0, x=np.zeros(3))


def test_failed_calls_release_buffers_and_references(lib):
    x = np.arange(5, dtype=np.float32)
    out = np.zeros(5, np.float32)
    before = sys.getrefcount(x), sys.getrefcount(out)
    for _ in range(1000):
        lib.lo_scale(x, 1.0, out)
        with pytest.raises(ValueError):
            lib.lo_scale(x, 1.0, out[:3])  # fails after x and out were acquired
    assert (sys.getrefcount(x), sys.getrefcount(out)) == before
    # A still-exported buffer would make resizing fail.
    x.resize(7, refcheck=False)
    out.resize(7, refcheck=False)


def test_call_overhead(lib):
    """Per-call cost of the checked path on 1-element arrays (printed; loosely bounded)."""
    dot = compile_library(DOT_SOURCES["scalar"], [DOT_SIG], isa="scalar").lo_dot
    x = np.ones(1, np.float32)
    out = np.zeros(1, np.float32)
    n = 20000
    dot_us = min(timeit.repeat(lambda: dot(x, x), number=n, repeat=5)) / n * 1e6
    scale = lib.lo_scale
    scale_us = min(timeit.repeat(lambda: scale(x, 2.0, out), number=n, repeat=5)) / n * 1e6
    empty_us = min(timeit.repeat(lambda: None, number=n, repeat=5)) / n * 1e6
    print(f"\ncall overhead: lo_dot(x, y) {dot_us:.3f} us, lo_scale(x, a, out) {scale_us:.3f} us "
          f"(lambda itself {empty_us:.3f} us) on {host_isas()[-1]}")
    assert dot_us < 20 and scale_us < 20
