"""The vector math rows reach every SIMD ISA table through c_isa's hook, and only used helpers print."""

from __future__ import annotations

import pytest

from loopopt.targets.c import isa_table
from loopopt.targets.c_helpers import all_helpers, required_helpers
from loopopt.targets import c_vmath
from loopopt.targets.c_isa import extra_rows
from loopopt.targets.c_vmath import BINARY_FUNCTIONS, ULP_BOUNDS, UNARY_FUNCTIONS

SIMD = ("sse2", "avx2", "avx512", "neon")


@pytest.mark.parametrize("isa", SIMD)
def test_every_function_has_a_row_per_float_type(isa: str) -> None:
    table = isa_table(isa)
    for fn in (*UNARY_FUNCTIONS, *BINARY_FUNCTIONS):
        for elt in ("f32", "f64"):
            row = table.row(fn, elt)
            assert row is not None and f"lo_vm_{fn}_{elt}x{table.lanes[elt]}(" in row
            assert elt in table.coverage()[fn]
    assert set(ULP_BOUNDS) == {*UNARY_FUNCTIONS, *BINARY_FUNCTIONS}


def test_an_isa_modules_own_row_wins() -> None:
    table = isa_table("avx2")
    assert table.row("sqrt", "f32") == table.rows[("sqrt", "f32")]
    assert ("sqrt", "f32") not in extra_rows("avx2")


def test_scalar_keeps_libm() -> None:
    scalar = isa_table("scalar")
    assert c_vmath.rows("scalar") == {}  # vector math adds no scalar rows: libm stays
    assert scalar.row("exp", "f32") == "{dst} = expf({a});"


@pytest.mark.parametrize("isa", SIMD)
def test_only_the_used_helpers_are_printed(isa: str) -> None:
    table = isa_table(isa)
    code = "v = " + table.row("exp", "f32").format(dst="y", a="x")
    names = [h.name for h in required_helpers(table, code, all_helpers(table))]
    n = table.lanes["f64"]
    assert names[-1] == f"lo_vm_exp_f32x{2 * n}"
    # f32 exp is a native f32 core: no f64 lanes (c_vmath.NATIVE_F32)
    assert f"lo_vm_exp_f{2 * n}" in names and f"lo_vf{2 * n}" in names and f"lo_vd{n}" not in names
    assert not any(name.startswith(("lo_vm_sin", "lo_vm_log", "lo_vm_pow_", "lo_vm_powf", "lo_vm_trig")) for name in names)
    # dependencies come before their users
    assert names.index(f"lo_vf{2 * n}") < names.index(f"lo_vm_expfast_f{2 * n}") < names.index(f"lo_vm_exp_f{2 * n}")
    f64 = [h.name for h in required_helpers(table, table.row("exp", "f64").format(dst="y", a="x"), all_helpers(table))]
    assert names_in_order(f64, f"lo_vd{n}", f"lo_vm_expfast_d{n}", f"lo_vm_exp_d{n}")


def names_in_order(names: list[str], *wanted: str) -> bool:
    return all(w in names for w in wanted) and [names.index(w) for w in wanted] == sorted(names.index(w) for w in wanted)


def test_uses_transcendentals_sees_libm_and_vector_math_but_not_sqrt() -> None:
    from loopopt.compile import emit
    from loopopt.targets.c_vmath import uses_transcendentals

    exp_map = """
    func.func @f(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
      %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
      ^bb0(%v: f32):
        %e = math.OP %v : f32
        df.yield %e : f32
      }
      func.return %y : !df.array<f32, [i]>
    }"""
    assert uses_transcendentals(emit(exp_map.replace("OP", "exp"), target="avx2").module)
    assert uses_transcendentals(emit(exp_map.replace("OP", "tan"), target="scalar").module)
    assert not uses_transcendentals(emit(exp_map.replace("OP", "sqrt"), target="avx2").module)


def test_the_interpreter_has_erf() -> None:
    """math.erf has a vector form, so the interpreter (the oracle) must run it too: libm's erf."""
    import math

    import numpy as np
    from xdsl.dialects.builtin import ModuleOp

    from loopopt.compile import make_context, parse
    from loopopt.tools.loop_run_check import interpret

    src = """
    func.func @f(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
      %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
      ^bb0(%v: f32):
        %e = math.erf %v : f32
        df.yield %e : f32
      }
      func.return %y : !df.array<f32, [i]>
    }"""
    module = parse(src, make_context())
    assert isinstance(module, ModuleOp)
    x = np.array([-2.0, -0.0, 0.5, 3.0], dtype=np.float32)
    (y,) = interpret(module, "f", [x])
    assert y.dtype == np.float32
    assert np.array_equal(y, np.array([math.erf(float(v)) for v in x], dtype=np.float32))
    assert np.signbit(y[1])


@pytest.mark.parametrize("isa", SIMD)
def test_native_f32_rows_compute_in_f32_lanes(isa: str) -> None:
    """Every NATIVE_F32 function's f32 row calls its f32-lane core and never widens to f64 halves;
    since session 21 that is every f32 function but rsqrt (1/sqrt needs no core)."""
    table = isa_table(isa)
    m = table.lanes["f32"]
    widen = c_vmath._GLUE[isa].widen[0]
    for fn in (*UNARY_FUNCTIONS, *BINARY_FUNCTIONS):
        code = all_helpers(table)[f"lo_vm_{fn}_f32x{m}"].code
        native = fn in c_vmath.NATIVE_F32
        assert (f"lo_vm_{fn}_f{m}((lo_vf{m})x" in code) == native, (fn, code)
        assert (widen in code) == (not native and fn != "rsqrt"), (fn, code)
    assert {"sin", "cos", "tanh", "log1p", "expm1", "erf", "pow"} <= set(c_vmath.NATIVE_F32)


@pytest.mark.parametrize("isa", SIMD)
def test_afn_rows_are_f32_only_and_pull_in_no_accurate_core(isa: str) -> None:
    """The fastmath<afn> rows (c_vmath.AFN_F32) exist on f32 only (f64 afn prints the accurate row), and the
    fast exp's helpers are its own: the FMA helper and the libm fallback, not the accurate exact-split core."""
    table = isa_table(isa)
    m = 2 * table.lanes["f64"]
    for fn in c_vmath.AFN_F32:
        assert f"lo_vm_{fn}_f32x{m}(" in table.row(fn, "f32") and table.row(fn, "f64") is None
    assert set(c_vmath.ULP_BOUNDS_AFN) == set(c_vmath.AFN_F32)
    names = [h.name for h in required_helpers(table, "v = " + table.row("exp_afn", "f32").format(dst="y", a="x"),
                                              all_helpers(table))]  # fmt: skip
    assert names_in_order(names, f"lo_vm_fma_f{m}", f"lo_vm_fmac_f{m}", f"lo_vm_exp_afn_f{m}")
    assert f"lo_vm_exp_f{m}" not in names and f"lo_vm_expfast_f{m}" not in names


@pytest.mark.parametrize(
    ("flags", "approximate"),
    [("", False), (" fastmath<none>", False), (" fastmath<reassoc,contract>", False),
     (" fastmath<nnan,ninf,nsz,arcp>", False), (" fastmath<afn>", True), (" fastmath<fast>", True),
     (" fastmath<reassoc,afn>", True)],
)  # fmt: skip
def test_afn_flag_picks_the_approximate_key(flags: str, approximate: bool) -> None:
    """MLIR's fastmath: `afn` (alone, with others, or in `fast`) on exp/exp2 selects the approximate row key;
    any other flag set does not, and neither does afn on a function without an approximate row."""
    from xdsl.context import Context
    from xdsl.dialects import arith, func, math
    from xdsl.parser import Parser

    from loopopt.targets.c_ops import approximate_key

    ctx = Context()
    for d in (arith.Arith, func.Func, math.Math):
        ctx.load_dialect(d)
    text = f"func.func @f(%x: f32) -> f32 {{\n %a = math.exp %x{flags} : f32\n %b = math.exp2 %a{flags} : f32\n" \
           f" %c = math.log %b{flags} : f32\n func.return %c : f32\n}}"  # fmt: skip
    ops = {op.name: op for op in Parser(ctx, text).parse_module().walk()}
    assert approximate_key(ops["math.exp"], "exp") == ("exp_afn" if approximate else None)
    assert approximate_key(ops["math.exp2"], "exp2") == ("exp2_afn" if approximate else None)
    assert approximate_key(ops["math.log"], "log") is None
