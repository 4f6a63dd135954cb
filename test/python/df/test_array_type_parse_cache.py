"""ArrayType.parse_parameters skips a spelling it parsed before: same types, same errors."""

import pytest
from xdsl.dialects.builtin import f32

import loopopt.compile as lc
from loopopt.diagnostics import format_diagnostic
from loopopt.dialects import df_types
from loopopt.dialects.df_types import ArrayType


def _arg_types(src: str):
    module = lc.parse(src, lc.make_context(), "t")
    return list(next(iter(module.ops)).function_type.inputs.data)


def test_repeated_spellings_parse_to_equal_types():
    src = "func.func @f(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %z: !df.array< i64 ,[i, j] >) { func.return }"
    for _ in range(2):
        x, y, z = _arg_types(src)
        assert x == y == ArrayType(f32, ["i"])
        assert z.axis_names == ("i", "j") and str(z.element_type) == "i64"
    assert "<f32, [i]>" in df_types._ARRAY_PARAMETERS


def test_aliases_and_records_are_not_remembered():
    """`!a` means what the module says: another module may define it otherwise."""
    for alias in ("f64", "i32"):
        (x,) = _arg_types(f"!a = {alias}\nfunc.func @f(%x: !df.array<!a, [i]>) {{ func.return }}")
        assert str(x.element_type) == alias
    (r,) = _arg_types("func.func @f(%x: !df.array<!df.record<a: f32>, [i]>) { func.return }")
    assert "record" in str(r.element_type)
    assert not any("!" in k or k.count("<") > 1 for k in df_types._ARRAY_PARAMETERS)


@pytest.mark.parametrize("src", ["func.func @f(%x: !df.array<f32, [i]", "func.func @f(%x: !df.array<f32 [i]>) {}"])
def test_errors_after_a_remembered_spelling_are_unchanged(src):
    _arg_types("func.func @f(%x: !df.array<f32, [i]>) { func.return }")
    with pytest.raises(Exception) as e:
        lc.parse(src, lc.make_context(), "t")
    assert "error" in format_diagnostic(e.value, "t")
