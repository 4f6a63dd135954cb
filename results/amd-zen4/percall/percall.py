"""Per-call cost of small map/fold kernels: variants timed interleaved in one process (issue 11).

Usage:
  python percall.py KIND LABEL=FILE.c:ISA:SYMBOL ... [--sizes 64,256,1000,1024,2000] [--trials 41]
(ISA may carry extra gcc flags: avx512+-falign-loops=32.) KIND is axpy_f32 | axpy_i32 | axpb_f32 | axpb_i32 | sum_f32 | sum_i32. Every variant is compiled
alone with loopopt.runtime's flags for ISA (what loop-bench uses), its SYMBOL renamed to LABEL and
every other global made local (two copies of one file can be linked), then called from one
harness TU the way loop-bench's repeat wrapper calls a kernel: through a volatile function pointer
with a compiler memory barrier between calls. Each trial times every variant (in a shuffled
order) for ~REPS calls with rdtsc; reported: the median and minimum ns a call over the trials and
the median over trials of the per-trial ratio t(first variant) / t(variant) (> 1: variant faster).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

from loopopt import runtime

SIGS = {
    "axpy": ("void", "const {T} *x, int64_t xl, const {T} *y, int64_t yl, {T} a, {T} *out, int64_t ol",
             "x, n, y, n, a, out, n"),
    "axpb": ("void", "const {T} *x, int64_t xl, {T} a, {T} b, {T} *out, int64_t ol", "x, n, a, b, out, n"),
    "sum": ("{T}", "const {T} *x, int64_t xl", "x, n"),
}

HARNESS = r"""
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
typedef {RET} (*fn_t)({PARAMS});
{DECLS}
static fn_t fns[] = {{{FNS}}};
static const char *names[] = {{{NAMES}}};
enum {{ NV = {NV}, NPL = {NPL} }};
static const int place[][2] = {{{PLACE}}};
static {T} *x, *y, *out;
static {T} a = ({T})3, b = ({T})1;
static volatile double sink;
/* loop-bench's repeat wrapper: volatile pointer, memory barrier between calls */
__attribute__((noinline)) static void rep(fn_t f0, int64_t n, int64_t reps) {{
    fn_t volatile fp = f0;
    for (int64_t r = 0; r < reps; r++) {{
        {CALLRES}fp({ARGS});
        __asm__ volatile("" ::: "memory");
    }}
}}
static int cmpd(const void *p, const void *q) {{ double d = *(const double *)p - *(const double *)q; return (d > 0) - (d < 0); }}
static double tsc_ghz(void) {{
    struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0); uint64_t c0 = __rdtsc();
    do clock_gettime(CLOCK_MONOTONIC, &t1); while ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec) < 5e7);
    uint64_t c1 = __rdtsc();
    return (double)(c1 - c0) / ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec));
}}
int main(int argc, char **argv) {{
    int trials = atoi(argv[1]);
    double ghz = tsc_ghz();
    printf("TSC %.3f GHz\n", ghz);
    srand(12345);
    for (int s = 2; s < argc; s++) {{
        int64_t n = atoll(argv[s]);
      for (int pl = 0; pl < NPL; pl++) {{
        /* x, y, out in one arena: y starts dy bytes (mod 4 KiB) after x, out dout bytes after x */
        size_t bytes = ((size_t)(n > 0 ? n : 1) * sizeof({T}) + 4095) / 4096 * 4096;
        char *arena = aligned_alloc(4096, 3 * bytes + 8192);
        x = ({T} *)arena; y = ({T} *)(arena + bytes + place[pl][0]); out = ({T} *)(arena + 2 * bytes + 4096 + place[pl][1]);
        for (int64_t i = 0; i < n; i++) {{ x[i] = ({T})((i * 7) % 13 - 6); y[i] = ({T})((i * 5) % 11 - 5); }}
        memset(out, 0, bytes);
        int64_t reps = 40000 / (n + 32) * 8 + 16;  /* ~tens of µs a sample */
        static double t[NV][1001], r[NV][1001];
        for (int tr = 0; tr < trials; tr++) {{
            int order[NV]; for (int v = 0; v < NV; v++) order[v] = v;
            for (int v = NV - 1; v > 0; v--) {{ int j = rand() % (v + 1); int k = order[v]; order[v] = order[j]; order[j] = k; }}
            for (int oi = 0; oi < NV; oi++) {{
                int v = order[oi];
                rep(fns[v], n, 4);
                uint64_t c0 = __rdtsc();
                rep(fns[v], n, reps);
                uint64_t c1 = __rdtsc();
                t[v][tr] = (double)(c1 - c0) / ghz / reps;
            }}
            for (int v = 0; v < NV; v++) r[v][tr] = t[0][tr] / t[v][tr];
        }}
        printf("n=%lld placement y-x=%d out-x=%d (mod 4 KiB) reps=%lld\n", (long long)n, place[pl][0], place[pl][1], (long long)reps);
        for (int v = 0; v < NV; v++) {{
            qsort(t[v], trials, sizeof(double), cmpd); qsort(r[v], trials, sizeof(double), cmpd);
            printf("  %-14s median %8.2f ns  min %8.2f ns  ratio(first/this) median %.3f [q1 %.3f q3 %.3f]\n", names[v],
                   t[v][trials / 2], t[v][0], r[v][trials / 2], r[v][trials / 4], r[v][3 * trials / 4]);
        }}
        free(arena);
      }}
    }}
    return 0;
}}
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--sizes", default="64,256,1000,1024,2000")
    ap.add_argument("--trials", type=int, default=41)
    ap.add_argument("--placements", default="1088:2112", help="dy:dout,... byte offsets mod 4 KiB of y and out from x")
    ap.add_argument("--offsets", default="0", help="start each function this many bytes after a 64-byte boundary")
    ap.add_argument("--keep", default=None, help="directory to keep the build in")
    args = ap.parse_args()
    pattern, dt = args.kind.split("_")
    T = {"f32": "float", "i32": "int32_t"}[dt]
    ret, params, call_args = (s.format(T=T) for s in SIGS[pattern])
    work = args.keep or tempfile.mkdtemp(prefix="percall_")
    os.makedirs(work, exist_ok=True)
    objs, labels = [], []
    offsets = [int(k) for k in args.offsets.split(",")]
    for spec in args.variants:
        label, rest = spec.split("=", 1)
        path, isa, sym = rest.rsplit(":", 2)
        isa, *extra = isa.split("+")  # ISA+flag+flag: extra gcc flags for this variant
        asm = os.path.join(work, f"{label}.s")
        flags = [*runtime.compile_flags(isa), *extra, "-w", "-ffunction-sections"]
        subprocess.run(["gcc", *flags, "-S", path, "-o", asm], check=True)
        text = open(asm).read()
        head = re.search(rf"^\t\.section\t\.text\.{re.escape(sym)},.*$", text, re.M)
        if head is None:
            raise SystemExit(f"{path}: no section for {sym}")
        for k in offsets:
            lb = label if len(offsets) == 1 else f"{label}_{k}"
            shifted = os.path.join(work, f"{lb}.s")
            with open(shifted, "w") as f:  # the function starts k bytes after a 64-byte boundary
                f.write(text[: head.end()] + f"\n\t.p2align 6\n\t.skip {k}, 0xcc" + text[head.end():])
            obj = os.path.join(work, f"{lb}.o")
            subprocess.run(["gcc", *flags, "-c", shifted, "-o", obj], check=True)
            subprocess.run(["objcopy", f"--keep-global-symbol={sym}", obj], check=True)
            subprocess.run(["objcopy", f"--redefine-sym={sym}={lb}", obj], check=True)
            objs.append(obj)
            labels.append(lb)
    src = HARNESS.format(
        NPL=len(args.placements.split(",")),
        PLACE=", ".join("{%s, %s}" % tuple(p.split(":")) for p in args.placements.split(",")),
        RET=ret, PARAMS=params, T=T, NV=len(labels), ARGS=call_args,
        CALLRES="sink += (double)" if ret != "void" else "",
        DECLS="\n".join(f"{ret} {lb}({params});" for lb in labels),
        FNS=", ".join(labels), NAMES=", ".join(f'"{lb}"' for lb in labels),
    )
    main_c = os.path.join(work, "main.c")
    with open(main_c, "w") as f:
        f.write(src)
    exe = os.path.join(work, "percall")
    subprocess.run(["gcc", "-O2", "-march=native", "-Wl,--gc-sections", main_c, *objs, "-o", exe, "-lm"], check=True)
    sys.stdout.flush()
    out = subprocess.run([exe, str(args.trials), *args.sizes.split(",")], check=True, capture_output=True, text=True).stdout
    print(out, end="")
    if len(offsets) > 1:
        summarize(out, offsets)


def summarize(out: str, offsets: list[int]) -> None:
    """Per variant and size: the median over code offsets of the median ns and of the ratio."""
    import statistics
    rows: dict[tuple[str, str], list[tuple[float, float]]] = {}
    head = ""
    for line in out.splitlines():
        if line.startswith("n="):
            head = line.split(" reps")[0]
        elif "median" in line:
            f = line.split()
            base = f[0].rsplit("_", 1)[0]
            rows.setdefault((head, base), []).append((float(f[2]), float(f[11])))
    print(f"\nsummary over code offsets {offsets} (median of the per-offset medians; range of ratios)")
    for (head, base), vals in rows.items():
        ns = statistics.median(v[0] for v in vals)
        rs = sorted(v[1] for v in vals)
        print(f"  {head:40s} {base:12s} {ns:8.2f} ns  ratio {statistics.median(rs):.3f} [{rs[0]:.3f}..{rs[-1]:.3f}]")


if __name__ == "__main__":
    main()
