"""Min/max scans: loopopt's vector form before and after session 23 vs the scalar loop, interleaved.

Session 23 (issue 11): simd.slide_up_dup, the sign-flipped umin/umax and the serial carry
(TargetInfo.dup_slides / flipped_unsigned_minmax / serial_minmax_carry, lowering/loop_to_simd/scan.py).
For each KIND:ELT:ISA it emits the kernel `df.scan KIND(x, init)` three ways with loopopt.compile's
C flags: `scalar` (target=scalar), `old` (those TargetInfo fields off: the C of main before the
change, checked identical) and `new`; each .c is compiled on its own, one main times every
variant of a case in turn (R rounds, interleaved) on the same random lanes and checks that all
give the same bits. Prints median / min / p25 / p75 in µs a call.

    python results/amd-zen4/scalar_paths/minmax_scans.py [--n N] [--rounds R] [--variants V,..] KIND:ELT:ISA ...

Default cases: min/max/umin/umax over i32/i64 (min/max also f32/f64) on sse2 and avx2.
Session 24 (narrow scans: i8/i16 vectorize; before, loop-vectorize kept them scalar) adds the
variants `noflip` (no sign-flipped domain: SSE2's biased narrow min/max rows each step) and
`nodup` (every slide neutral-filled): `--variants scalar,noflip,nodup,new` with `--narrow`
for the 16 i8/i16 cases on sse2, avx2 and avx512; `--filtered` times filter (x > 0) -> scan.
Session 25 adds `zen4` (the pipeline with cpu=zen4, its scalar_scans and features as tabled) and
`zen4vec` (cpu=zen4 with no scalar scans: every scan vector), to re-measure SSE2_NARROW_FILTERED_SCANS.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import tempfile
from pathlib import Path

from loopopt.dialects import cpu_models as cm
from loopopt.dialects import simd_targets as st
from loopopt.runtime.isa import COMMON_CFLAGS, GENERATED_CFLAGS
from loopopt.runtime.sanitize import emit_program
from loopopt.targets.c import isa_table

INIT = {"umax": "0", "umin": "-1", "max": "-5", "min": "5", "or": "0", "and": "-1"}
CT = {"i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t", "f32": "float", "f64": "double"}
OFF = {"old": dict(dup_slides=False, flipped_unsigned_minmax=(), flipped_signed_minmax=(), serial_minmax_carry=()),
       "noflip": dict(flipped_unsigned_minmax=(), flipped_signed_minmax=()), "nodup": dict(dup_slides=False), "new": {}}
"""Per variant, the TargetInfo fields turned off (`scalar` is target=scalar)."""


def program(kind: str, elt: str, filtered: bool = False) -> str:
    init = INIT[kind] + (".0" if elt.startswith("f") else "")
    if filtered:  # filter -> scan (a predloop): the running value over the positive elements
        zero, cmp = ("0.0", "arith.cmpf ogt") if elt.startswith("f") else ("0", "arith.cmpi sgt")
        return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [k]> {{
  %z = arith.constant {init} : {elt}
  %zero = arith.constant {zero} : {elt}
  %p = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [k]> {{
  ^bb0(%e: {elt}):
    %c = {cmp}, %e, %zero : {elt}
    df.yield %c : i1
  }}
  %y = df.scan {kind}(%p, %z) : !df.array<{elt}, [k]> -> !df.array<{elt}, [k]>
  func.return %y : !df.array<{elt}, [k]>
}}
"""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [i]> {{
  %z = arith.constant {init} : {elt}
  %p = df.scan {kind}(%x, %z) : !df.array<{elt}, [i]> -> !df.array<{elt}, [i]>
  func.return %p : !df.array<{elt}, [i]>
}}
"""


def emit(kind: str, elt: str, isa: str, variant: str, filtered: bool = False) -> str:
    if variant in ("zen4", "zen4vec"):  # session 25: cpu=zen4 as tabled / with no scalar scans (every scan vector)
        saved_cpu = cm.CPUS["zen4"]
        if variant == "zen4vec":
            cm.CPUS["zen4"] = dataclasses.replace(saved_cpu, costs=dataclasses.replace(saved_cpu.costs, scalar_scans=frozenset()))
        try:
            return emit_program(program(kind, elt, filtered), isa, f"loop-pipeline{{target={isa} cpu=zen4}}").c_source
        finally:
            cm.CPUS["zen4"] = saved_cpu
    saved = st.TARGETS[isa]
    if isa != "scalar":
        st.TARGETS[isa] = dataclasses.replace(saved, **OFF[variant])
    try:
        return emit_program(program(kind, elt, filtered), isa).c_source
    finally:
        st.TARGETS[isa] = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--variants", default="scalar,old,new")
    ap.add_argument("--narrow", action="store_true", help="the i8/i16 cases on sse2, avx2, avx512")
    ap.add_argument("--filtered", action="store_true", help="filter (x > 0) -> scan instead of the scan")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    variants = args.variants.split(",")
    nv = len(variants)
    narrow = [(k, e, isa) for isa in ("sse2", "avx2", "avx512") for e in ("i8", "i16") for k in ("max", "min", "umax", "umin")]
    cases = [c.split(":") for c in args.cases] or (narrow if args.narrow else None) or [
        (k, e, isa) for isa in ("sse2", "avx2") for e in ("i32", "i64", "f32", "f64")
        for k in ("max", "min", "umax", "umin") if not (e.startswith("f") and k.startswith("u"))
    ]  # fmt: skip
    tmp = Path(tempfile.mkdtemp(prefix="minmax_scans_"))
    flags = [f for f in COMMON_CFLAGS if f != "-fPIC"] + list(GENERATED_CFLAGS)
    decls, blocks, objs = [], [], []
    for kind, elt, isa in cases:
        names = []
        for var in variants:
            target = "scalar" if var == "scalar" else isa
            name = f"{kind}_{elt}_{isa}_{var}"
            c = emit(kind, elt, target, var, args.filtered).replace(" k(", f" {name}(")
            (tmp / f"{name}.c").write_text(c)
            subprocess.run(["gcc", *flags, *isa_table(target).cflags, "-w", "-c", f"{name}.c", "-o", f"{name}.o"],
                           cwd=tmp, check=True)  # fmt: skip
            objs.append(f"{name}.o")
            names.append(name)
            decls.append(f"{'int64_t' if args.filtered else 'void'} {name}(const {CT[elt]} *restrict, int64_t, {CT[elt]} *restrict, int64_t);")
        ret = "int64_t" if args.filtered else "void"
        ct, fill = CT[elt], ("x[i] = (%s)((double)(int64_t)r / 1e15);" % CT[elt]) if elt.startswith("f") else "memcpy(&x[i], &r, sizeof x[i]);"
        blocks.append(f"""  {{ static {ct} x[N], o[{nv}][N]; static double t[{nv}][R];
    for (int i = 0; i < N; i++) {{ uint64_t r = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 16) ^ (uint64_t)rand(); {fill} }}
    {ret} (*fs[{nv}])(const {ct} *restrict, int64_t, {ct} *restrict, int64_t) = {{{", ".join(names)}}};
    const char *nm[{nv}] = {{{", ".join(f'"{n}"' for n in names)}}};
    {"int64_t" if args.filtered else "int"} m[{nv}];  /* a filter's kept count; past it a vector filter may leave scratch */
    for (int r = 0; r < R; r++) for (int f = 0; f < {nv}; f++) {{ double s = now(); {"m[f] = " if args.filtered else "m[f] = N; "}fs[f](x, N, o[f], N); t[f][r] = now() - s; }}
    for (int f = 1; f < {nv}; f++) if (m[f] != m[0] || memcmp(o[f], o[0], m[0] * sizeof o[0][0])) printf("MISMATCH %s\\n", nm[f]);
    for (int f = 0; f < {nv}; f++) {{ qsort(t[f], R, sizeof(double), cmpd); printf("%-24s median %8.1f us  min %8.1f  p25 %8.1f  p75 %8.1f\\n", nm[f], t[f][R/2], t[f][0], t[f][R/4], t[f][3*R/4]); }} }}""")
    (tmp / "main.c").write_text("\n".join([
        "#define _POSIX_C_SOURCE 199309L", "#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>",
        "#include <string.h>", "#include <time.h>", f"#define N {args.n}", f"#define R {args.rounds}",
        "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }",
        "static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }",
        *decls, "int main(void) {", "  srand(3);", *blocks, "  return 0;", "}", ""]))  # fmt: skip
    subprocess.run(["gcc", "-O2", "-std=c11", "-o", "bench", "main.c", *objs], cwd=tmp, check=True)
    print(subprocess.run(["./bench"], cwd=tmp, capture_output=True, text=True, check=True).stdout, end="")


if __name__ == "__main__":
    main()
