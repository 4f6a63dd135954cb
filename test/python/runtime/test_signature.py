"""Kernel signatures: validation, C declarations, output allocation."""

import ml_dtypes
import numpy as np
import pytest

from loopopt.runtime.signature import DTYPES, ArrayParam, KernelSignature, ScalarParam, dtype_info

FILTER = KernelSignature(
    "keep_pos",
    (
        ArrayParam("x", "f32", axes=("n",)),
        ScalarParam("t", "f32"),
        ArrayParam("out", "f32", output=True, capacity="n", count_result=0),
    ),
    ("i64", "f64"),
)


def test_dtype_table_matches_convention():
    assert {k: (d.c_type, d.numpy) for k, d in DTYPES.items()} == {
        "f32": ("float", np.float32),
        "f64": ("double", np.float64),
        "f16": ("uint16_t", np.float16),
        "bf16": ("uint16_t", ml_dtypes.bfloat16),
        "i8": ("int8_t", np.int8),
        "i16": ("int16_t", np.int16),
        "i32": ("int32_t", np.int32),
        "i64": ("int64_t", np.int64),
        "bool": ("uint8_t", np.bool_),
    }
    with pytest.raises(ValueError, match="unknown dtype 'f128'.*f32"):
        dtype_info("f128")
    # i8 / i16 are signless: the unsigned numpy twin is accepted too, nothing else
    assert DTYPES["i8"].accepts(np.dtype(np.uint8)) and DTYPES["i16"].accepts(np.dtype(np.uint16))
    assert not DTYPES["i8"].accepts(np.dtype(np.int16)) and not DTYPES["i32"].accepts(np.dtype(np.uint32))


def test_c_declaration_follows_convention():
    assert FILTER.c_declaration() == (
        "void keep_pos(const float *restrict, int64_t, float, float *restrict, int64_t, "
        "int64_t *restrict, double *restrict);"
    )
    one = KernelSignature("s", (ArrayParam("m", "f64", rank=2),), ("f64",))
    assert one.c_declaration() == "double s(const double *restrict, int64_t, int64_t);"
    assert KernelSignature("nothing", ()).c_declaration() == "void nothing(void);"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ArrayParam("x", "f128"), "unknown dtype"),
        (lambda: ArrayParam("x", "f32", rank=3), "rank must be 1 or 2"),
        (lambda: ArrayParam("1x", "f32"), "not a valid C identifier"),
        (lambda: ArrayParam("x", "f32", count_result=0), "only an output"),
        (lambda: ArrayParam("m", "f32", rank=2, axes=("i",)), r"axes \('i',\) name 1 dimensions, expected one per"),
        (lambda: ArrayParam("x", "f32", axes=("",)), "must be non-empty strings"),
        (lambda: ArrayParam("x", "f32", capacity="n"), "only a rank-1 output can have a capacity"),
        (lambda: KernelSignature("k", (ArrayParam("x", "f32"), ScalarParam("x", "f32"))), "duplicate"),
        (
            lambda: KernelSignature("k", (ArrayParam("o", "f32", output=True), ScalarParam("a", "f32"))),
            "comes after an output",
        ),
        (
            lambda: KernelSignature("k", (ArrayParam("o", "f32", output=True, count_result=0),), ("f32",)),
            "not an i64 result",
        ),
        (lambda: KernelSignature("k", (), ("f128",)), "unknown dtype"),
    ],
)
def test_invalid_signatures_are_rejected(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_output_shapes_and_trimming():
    x = np.arange(7, dtype=np.float32)
    assert FILTER.output_shapes([x, 1.0]) == [(7,)]
    outs = FILTER.allocate_outputs([x, 1.0])
    assert outs[0].dtype == np.float32 and outs[0].shape == (7,)
    assert FILTER.trim_outputs(outs, (3, 0.0))[0].shape == (3,)
    with pytest.raises(TypeError, match="takes 2 inputs"):
        FILTER.output_shapes([x])
    matrix = KernelSignature(
        "t", (ArrayParam("m", "f64", rank=2, axes=("r", "c")), ArrayParam("o", "f64", rank=2, output=True, axes=("r", "c")))
    )
    assert matrix.output_shapes([np.zeros((3, 4))]) == [(3, 4)]


COLUMNS = KernelSignature(
    "cols",
    (
        ArrayParam("m", "i32", rank=2, axes=("i", "j")),
        ArrayParam("w", "i32", axes=("j",)),
        ArrayParam("sums", "i32", output=True, axes=("j",)),
        ArrayParam("t", "i32", rank=2, output=True, axes=("j", "i")),
    ),
)


def test_outputs_are_sized_on_any_axis_of_any_input():
    m = np.zeros((3, 5), np.int32)
    assert COLUMNS.output_shapes([m, np.zeros(5, np.int32)]) == [(5,), (5, 3)]
    assert COLUMNS.axis_extents([m, np.zeros(5, np.int32)]) == {"i": 3, "j": 5}
    with pytest.raises(ValueError, match="length mismatch on axis 'j': 'm' dim 1 has 5 but 'w' has 4"):
        COLUMNS.output_shapes([m, np.zeros(4, np.int32)])
    with pytest.raises(ValueError, match="'m' expects a rank-2 array, found rank 1"):
        COLUMNS.output_shapes([np.zeros(3, np.int32), np.zeros(3, np.int32)])


def test_extents_size_outputs_no_input_has():
    iota = KernelSignature("iota", (ScalarParam("n", "i64"), ArrayParam("o", "i64", output=True, axes=("r",))))
    with pytest.raises(ValueError, match=r"cannot size output 'o': no input has axis 'r' \(pass extents="):
        iota.output_shapes([5])
    assert iota.output_shapes([5], extents={"r": 5}) == [(5,)]
    with pytest.raises(ValueError, match="length mismatch on axis 'n': extents= has 2 but 'x' has 7"):
        FILTER.output_shapes([np.zeros(7, np.float32), 1.0], extents={"n": 2})
    loose = KernelSignature("k", (ArrayParam("o", "f32", output=True),))
    with pytest.raises(ValueError, match="cannot size output 'o': it has no axes"):
        loose.output_shapes([])
