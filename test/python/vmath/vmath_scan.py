"""Exhaustive scan of an f32 vector math row over every f32 bit pattern (by hand, not in the suite).

    python test/python/vmath/vmath_scan.py sin cos --isa avx512 [--lo 0 --hi 0x100000000]

Builds the ISA's library text (vmath_build.c_source, the printer's own helpers) into one C program
that runs `vm_<fn>_f32` over the bit patterns [lo, hi) in blocks and measures each result with
vmath_build's ulp rule (specials exact) against the f64 C library function (error about 2^-53,
far below the f32 ulp). Prints the maximum, where, and how many inputs are over 1 and 2 ulp.
The test suite keeps a cheap slice of this (test_vmath_accuracy's dense scan); all 2^32 inputs
take minutes per function.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from vmath_build import _REF_C, c_source  # noqa: E402

from loopopt.runtime.isa import compile_flags  # noqa: E402

_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define BLOCK 65536
int main(int argc, char **argv)
{
    if (argc != 4) return 2;
    unsigned long long lo = strtoull(argv[2], 0, 0), hi = strtoull(argv[3], 0, 0);
    static float x[BLOCK], r[BLOCK];
    double worst = -1, worst_x = 0, worst_got = 0;
    long long over1 = 0, over2 = 0;
    for (unsigned long long b = lo; b < hi; b += BLOCK) {
        long n = hi - b < BLOCK ? (long)(hi - b) : BLOCK;
        for (long i = 0; i < n; i++) { unsigned u = (unsigned)(b + i); memcpy(&x[i], &u, 4); }
        for (long i = n; i < BLOCK; i++) x[i] = 1.0f;
        %CALL%
        for (long i = 0; i < n; i++) {
            double e = ulps((long double)%REF%((double)x[i]), r[i], 1);
            over1 += e > 1.0;
            over2 += e > 2.0;
            if (e > worst) { worst = e; worst_x = x[i]; worst_got = r[i]; }
        }
    }
    printf("%s [%#llx, %#llx): max %.4f ulp at x = %.9g (%a), got %a; %lld inputs > 1 ulp, %lld > 2 ulp\n",
           argv[1], lo, hi, worst, worst_x, worst_x, worst_got, over1, over2);
    return 0;
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("functions", nargs="+")
    ap.add_argument("--isa", default="avx512")
    ap.add_argument("--lo", type=lambda s: int(s, 0), default=0)
    ap.add_argument("--hi", type=lambda s: int(s, 0), default=1 << 32)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="loopopt-vmscan-"))
    lib = c_source(args.isa) + _REF_C
    for fn in args.functions:
        src = work / f"scan_{fn}.c"
        src.write_text(lib + _MAIN.replace("%CALL%", f"vm_{fn}_f32(x, r, BLOCK);").replace("%REF%", fn))
        exe = work / f"scan_{fn}"
        subprocess.run(["gcc", *compile_flags(args.isa), str(src), "-o", str(exe), "-lm"], check=True)
        subprocess.run([str(exe), fn, hex(args.lo), hex(args.hi)], check=True)


if __name__ == "__main__":
    main()
