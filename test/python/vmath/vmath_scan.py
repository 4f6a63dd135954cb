"""Exhaustive scan of an f32 vector math row over every f32 bit pattern (by hand, not in the suite).

    python test/python/vmath/vmath_scan.py sin cos --isa avx512 [--lo 0 --hi 0x100000000]
    python test/python/vmath/vmath_scan.py pow --isa avx512 --pairs 100000000

pow has two arguments: instead of every input, `--pairs` random pairs in each of four families (x any
positive normal with y log2 x in [-130, 130]; x within 2048 ulps of 1 the same way; any bit patterns; integer y)
plus every pair of 27 special values.

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

from vmath_build import _REF_C, c_source, reference  # noqa: E402

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


_POW_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#define BLOCK 65536
static uint64_t s = 88172645463325252ULL;
static uint32_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
static float fb(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static float uni(void) { return (rnd() >> 8) * 0x1p-24f; }
int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    long total = atol(argv[1]);
    static float x[BLOCK], y[BLOCK], r[BLOCK];
    const char *names[] = {"wide (any positive normal x, |y log2 x| <= 130)", "x near 1, large y", "any bit patterns",
                           "integer y, any x", "specials grid"};
    float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, 2.0f, -2.0f, 0x1p-149f, -0x1p-149f, 0x1p-126f,
                  0x1.fffffep127f, -0x1.fffffep127f, 3.0f, -3.0f, 0.25f, 1.5f, -1.5f, 0x1.000002p0f, 0x1.fffffep-1f, 1e10f,
                  -1e10f, 128.0f, -150.0f, 0.3f};
    int nsp = sizeof sp / sizeof sp[0];
    for (int cat = 0; cat < 5; cat++) {
        double worst = -1, wx = 0, wy = 0, wg = 0;
        long long over1 = 0, cnt = 0;
        long todo = cat == 4 ? nsp * nsp : total;
        for (long b = 0; b < todo; b += BLOCK) {
            long m = todo - b < BLOCK ? todo - b : BLOCK;
            for (long i = 0; i < BLOCK; i++) {
                float xi = 1.0f, yi = 1.0f;
                if (i < m) {
                    if (cat == 0) { xi = fb(0x00800000u + rnd() % (0x7f000000u)); float l = log2f(xi); yi = (uni() * 260.0f - 130.0f) / (l == 0 ? 1.0f : l); }
                    else if (cat == 1) { xi = fb(0x3f800000u + (int)(rnd() % 4096) - 2048); float l = log2f(xi); yi = (uni() * 260.0f - 130.0f) / (l == 0 ? 1.0f : l); }
                    else if (cat == 2) { xi = fb(rnd() ^ (rnd() << 16)); yi = fb(rnd() ^ (rnd() << 16)); }
                    else if (cat == 3) { xi = fb((rnd() % 0x42000000u) | (rnd() & 0x80000000u)); yi = (float)((int)(rnd() % 61) - 30); }
                    else { xi = sp[(b + i) / nsp]; yi = sp[(b + i) % nsp]; }
                }
                x[i] = xi; y[i] = yi;
            }
            vm_pow_f32(x, y, r, BLOCK);
            for (long i = 0; i < m; i++) {
                double e = ulps((long double)pow((double)x[i], (double)y[i]), r[i], 1);
                cnt++;
                over1 += e > 1.0;
                if (e > worst) { worst = e; wx = x[i]; wy = y[i]; wg = r[i]; }
            }
        }
        printf("%s: %lld pairs, max %.4f ulp at x = %a, y = %a (got %a); %lld > 1 ulp\n", names[cat], cnt, worst, wx, wy, wg, over1);
    }
    return 0;
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("functions", nargs="+")
    ap.add_argument("--isa", default="avx512")
    ap.add_argument("--lo", type=lambda s: int(s, 0), default=0)
    ap.add_argument("--hi", type=lambda s: int(s, 0), default=1 << 32)
    ap.add_argument("--pairs", type=int, default=10**8, help="pow: random pairs per family")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="loopopt-vmscan-"))
    lib = c_source(args.isa) + _REF_C
    for fn in args.functions:
        src = work / f"scan_{fn}.c"
        main_c = _POW_MAIN if fn == "pow" else _MAIN.replace("%CALL%", f"vm_{fn}_f32(x, r, BLOCK);").replace("%REF%", reference(fn))
        src.write_text(lib + main_c)
        exe = work / f"scan_{fn}"
        subprocess.run(["gcc", *compile_flags(args.isa), str(src), "-o", str(exe), "-lm"], check=True)
        run_args = [str(args.pairs)] if fn == "pow" else [fn, hex(args.lo), hex(args.hi)]
        subprocess.run([str(exe), *run_args], check=True)


if __name__ == "__main__":
    main()
