"""Build targets/c_vmath.py's helpers into something a test can call: one library per ISA.

`library(isa)` returns `run(fn, elt, *inputs) -> output` for the vector math rows of `isa`:
the helper text comes from the printer's own path (`c_helpers.required_helpers`), wrapped in
one batch entry point per (function, element type) that walks an array a native vector at a
time. Native ISAs are a shared object loaded with ctypes; NEON is a static aarch64 executable
run under qemu (inputs and outputs through files). `ulp_errors(fn, got, *inputs)` measures results
against the C library's long double functions (64-bit significand: 11 bits beyond f64).
"""

from __future__ import annotations

import ctypes
import functools
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from loopopt.runtime.foreign import FOREIGN_CFLAGS
from loopopt.runtime.isa import FOREIGN_TOOLS, compile_flags
from loopopt.targets.c import isa_table
from loopopt.targets.c_helpers import all_helpers, required_helpers
from loopopt.targets.c_vmath import AFN_F32, BINARY_FUNCTIONS, UNARY_FUNCTIONS

FUNCTIONS = (*UNARY_FUNCTIONS, *BINARY_FUNCTIONS)
ROWS = (*((fn, elt) for fn in FUNCTIONS for elt in ("f32", "f64")), *((fn, "f32") for fn in AFN_F32))
"""Every (row key, element type) with a vector math row: each function on f32 and f64, the afn cores on f32."""


def reference(fn: str) -> str:
    """The C library function a row key computes (`exp_afn` is an approximate `exp`)."""
    return fn.removesuffix("_afn")
_T = {"f32": "float", "f64": "double"}

_MEM = {
    "sse2": {"f32": ("_mm_loadu_ps", "_mm_storeu_ps"), "f64": ("_mm_loadu_pd", "_mm_storeu_pd")},
    "avx2": {"f32": ("_mm256_loadu_ps", "_mm256_storeu_ps"), "f64": ("_mm256_loadu_pd", "_mm256_storeu_pd")},
    "avx512": {"f32": ("_mm512_loadu_ps", "_mm512_storeu_ps"), "f64": ("_mm512_loadu_pd", "_mm512_storeu_pd")},
    "neon": {"f32": ("vld1q_f32", "vst1q_f32"), "f64": ("vld1q_f64", "vst1q_f64")},
}


def lanes(isa: str, elt: str) -> int:
    return isa_table(isa).lanes[elt]


def c_source(isa: str) -> str:
    """Every vector math row of `isa` behind `void vm_<fn>_<elt>(const T *x[, const T *y], T *r, long n)`."""
    table = isa_table(isa)
    entries = []
    for fn, elt in ROWS:
        t, w = _T[elt], table.lanes[elt]
        load, store = _MEM[isa][elt]
        row = table.row(fn, elt)
        assert row is not None, f"{isa} has no {fn} row on {elt}"
        ops = "abc"[: 2 if fn in BINARY_FUNCTIONS else 1]
        expr = row.split("= ", 1)[1].rstrip(";").replace("{a}", f"{load}(x + i)").replace("{b}", f"{load}(y + i)")
        params = f"const {t} *x, " + (f"const {t} *y, " if len(ops) == 2 else "") + f"{t} *r, long n"
        entries.append(f"void vm_{fn}_{elt}({params})\n{{\n    for (long i = 0; i + {w} <= n; i += {w}) {store}(r + i, {expr});\n}}\n")
    body = "\n".join(entries)
    helpers = "\n".join(h.code for h in required_helpers(table, body, all_helpers(table)))
    includes = "".join(f"#include <{h}>\n" for h in ("stddef.h", "stdint.h", "math.h", *table.includes))
    return f"{includes}\n{helpers}\n{body}"


_NEON_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* argv: fn elt n in_x [in_y] out */
static void *slurp(const char *path, size_t size)
{
    void *p = malloc(size ? size : 1);
    FILE *f = fopen(path, "rb");
    if (!f || fread(p, 1, size, f) != size) exit(2);
    fclose(f);
    return p;
}
int main(int argc, char **argv)
{
    const char *fn = argv[1], *elt = argv[2];
    long n = atol(argv[3]);
    size_t size = (size_t)n * (strcmp(elt, "f32") == 0 ? 4 : 8);
    int binary = argc == 7;
    void *x = slurp(argv[4], size), *y = binary ? slurp(argv[5], size) : NULL, *r = calloc(1, size ? size : 1);
%DISPATCH%
    FILE *f = fopen(argv[argc - 1], "wb");
    if (!f || fwrite(r, 1, size, f) != size) return 3;
    fclose(f);
    return 0;
}
"""


def _neon_dispatch() -> str:
    lines = []
    for fn, elt in ROWS:
        args = "x, y, r, n" if fn in BINARY_FUNCTIONS else "x, r, n"
        lines.append(f'    if (!strcmp(fn, "{fn}") && !strcmp(elt, "{elt}")) vm_{fn}_{elt}({args});')
    return "\n".join(lines)


def compile_only(isa: str, workdir: Path) -> Path:
    """Compile `isa`'s library to an object file (for ISAs this CPU cannot run)."""
    src = workdir / f"vmath_{isa}.c"
    src.write_text(c_source(isa))
    out = workdir / f"vmath_{isa}.o"
    subprocess.run(["gcc", *compile_flags(isa), "-Werror", "-c", str(src), "-o", str(out)], check=True,
                   capture_output=True, text=True)  # fmt: skip
    return out


@functools.cache
def _workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="loopopt-vmath-"))


@functools.cache
def library(isa: str) -> Callable[..., np.ndarray]:
    """`run(fn, elt, *inputs)`: the vector math rows of `isa` applied to whole arrays."""
    work = _workdir()
    src = work / f"vmath_{isa}.c"
    if isa in FOREIGN_TOOLS:
        cc, emulator = FOREIGN_TOOLS[isa]
        src.write_text(c_source(isa) + _NEON_MAIN.replace("%DISPATCH%", _neon_dispatch()))
        exe = work / f"vmath_{isa}"
        subprocess.run([cc, *FOREIGN_CFLAGS, "-Werror", str(src), "-o", str(exe), "-lm"], check=True)

        def run_foreign(fn: str, elt: str, *inputs: np.ndarray) -> np.ndarray:
            paths = []
            for k, a in enumerate(inputs):
                paths.append(work / f"in{k}.bin")
                paths[-1].write_bytes(np.ascontiguousarray(a).tobytes())
            out = work / "out.bin"
            n = inputs[0].size
            subprocess.run([emulator, str(exe), fn, elt, str(n), *map(str, paths), str(out)], check=True, timeout=120)
            return np.frombuffer(out.read_bytes(), dtype=inputs[0].dtype).copy()

        return run_foreign
    src.write_text(c_source(isa))
    so = work / f"vmath_{isa}.so"
    subprocess.run(["gcc", *compile_flags(isa), "-Werror", "-shared", str(src), "-o", str(so), "-lm"], check=True)
    lib = ctypes.CDLL(str(so))

    def run(fn: str, elt: str, *inputs: np.ndarray) -> np.ndarray:
        arrays = [np.ascontiguousarray(a) for a in inputs]
        r = np.zeros_like(arrays[0])
        ptrs = [ctypes.c_void_p(a.ctypes.data) for a in (*arrays, r)]
        getattr(lib, f"vm_{fn}_{elt}")(*ptrs, ctypes.c_long(r.size))
        return r

    return run


_REF_C = r"""
#include <math.h>
/* |got - v| in ulps of v rounded to got's type (f32 when is_f32), computed in long double;
   when v rounds to an infinity or a zero the result must be that value exactly (else inf). */
static double ulps(long double v, double got, int is_f32)
{
    long double r = is_f32 ? (long double)(float)v : (long double)(double)v;
    if (isnan(v)) return isnan(got) ? 0.0 : INFINITY;
    if (!isfinite(r) || r == 0) return (got == r && !signbit(got) == !signbit(r)) ? 0.0 : INFINITY;
    long double a = fabsl(r);
    long double spacing = is_f32 ? (long double)(nextafterf((float)a, INFINITY) - (float)a)
                                 : (long double)(nextafter((double)a, INFINITY) - (double)a);
    double e = (double)(fabsl(v - (long double)got) / spacing);
    return isnan(e) ? INFINITY : e;
}
#define U(name, expr) void ref_##name(const double *x, const double *got, int is_f32, double *err, long n) \
    { for (long i = 0; i < n; i++) err[i] = ulps(expr, got[i], is_f32); }
U(exp, expl(x[i])) U(exp2, exp2l(x[i])) U(expm1, expm1l(x[i])) U(log, logl(x[i])) U(log2, log2l(x[i]))
U(log1p, log1pl(x[i])) U(sin, sinl(x[i])) U(cos, cosl(x[i])) U(tanh, tanhl(x[i])) U(erf, erfl(x[i]))
U(rsqrt, 1.0L / sqrtl(x[i]))
void ref_pow(const double *x, const double *y, const double *got, int is_f32, double *err, long n)
    { for (long i = 0; i < n; i++) err[i] = ulps(powl(x[i], y[i]), got[i], is_f32); }
"""


@functools.cache
def _reference_lib() -> ctypes.CDLL:
    work = _workdir()
    (work / "ref.c").write_text(_REF_C)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", str(work / "ref.c"), "-o", str(work / "ref.so"), "-lm"], check=True)
    return ctypes.CDLL(str(work / "ref.so"))


def ulp_errors(fn: str, got: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """|got - exact| in units in the last place of the exact value rounded to got's type, the
    exact value from the C library's long double `fn` (64-bit significand, 11 bits beyond f64).

    Special values must match exactly: NaN for NaN, the same infinity, zero with the right
    sign (any mismatch is an infinite error).
    """
    arrays = [np.ascontiguousarray(a, dtype=np.float64) for a in (*inputs, got)]
    err = np.empty(got.size)
    ptrs = [ctypes.c_void_p(a.ctypes.data) for a in arrays]
    getattr(_reference_lib(), f"ref_{reference(fn)}")(*ptrs, ctypes.c_int(got.dtype == np.float32),
                                          ctypes.c_void_p(err.ctypes.data), ctypes.c_long(got.size))  # fmt: skip
    return err
