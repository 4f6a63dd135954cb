"""f16 and bf16 scalar kernel parameters (`uint16_t` bits by value): the native wrapper and the
foreign (qemu) caller take any real number and round it as numpy's float16(v) (once, from
double) and ml_dtypes' bfloat16(v) (through f32) do; a non-number is a TypeError."""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params

import loopopt

ml_dtypes = pytest.importorskip("ml_dtypes")

SCALE = """
func.func @scale(%x: !df.array<T, [i]>, %a: T) -> !df.array<T, [i]> {
  %m = df.map %x : !df.array<T, [i]> -> !df.array<T, [i]> {
  ^bb0(%e: T):
    %ef = arith.extf %e : T to f32
    %af = arith.extf %a : T to f32
    %s = arith.mulf %ef, %af : f32
    %r = arith.truncf %s : f32 to T
    df.yield %r : T
  }
  func.return %m : !df.array<T, [i]>
}
"""

VALUES = (0.1, 1 / 3, -2.5, 65504.0, 65519.99, 65520.0, 2.0**-24, 2.0**-25, 1.5 * 2.0**-25, 3e38, 1e-40,
          float("inf"), float("-inf"), 7, True, np.float32(0.3), np.float64(-1e-5))


@pytest.mark.parametrize("isa", isa_params(("scalar", "avx2", "avx512", "neon")))
@pytest.mark.parametrize("name,dt", [("f16", np.float16), ("bf16", ml_dtypes.bfloat16)])
def test_scalar_parameter_rounds_like_numpy(name, dt, isa):
    k = loopopt.compile(SCALE.replace("T", name), target=isa)
    x = np.array([1, -1, 3, 0.5, 2.0**-14, 0, 1, 1, 1], dt)
    for v in VALUES:
        with np.errstate(over="ignore", invalid="ignore"):
            a = dt(v)
            want = (x.astype(np.float32) * np.float32(a)).astype(dt)
        got = k.call_alloc("scale", x, v)
        assert got.dtype == want.dtype
        nan = np.isnan(want.astype(np.float32))  # 0 * inf: the NaN's sign is the CPU's (x86 -, ARM +)
        assert (np.isnan(got.astype(np.float32)) == nan).all(), (name, v, isa)
        np.testing.assert_array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan],
                                      err_msg=f"{name} {v!r} on {isa}")
    nan = k.call_alloc("scale", x, float("nan"))
    assert np.isnan(nan.astype(np.float32)).all()
    with pytest.raises(TypeError, match="scalar"):
        k.call_alloc("scale", x, "2")
