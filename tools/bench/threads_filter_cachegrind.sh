#!/bin/sh
# Load-independent work and traffic of the parallel filter drivers (docs/threads.md, "Zen 4
# (session 25)"): instructions and simulated cache misses per input element, per function, with
# valgrind's cachegrind (no AVX-512 in valgrind: the avx2 target), 16 Mi f32 `a*x[x > 0]`.
#   tools/bench/threads_filter_cachegrind.sh OUTDIR [N]
# Each driver runs 1 and 3 calls on 2 threads; the difference / 2 is one call. Valgrind runs the
# threads one at a time, so a waiting thread spins (or counts a part itself) for its whole
# slice: the driver's and the count kernel's rows include that. LL = 32 MiB (the L3): its misses
# are DRAM reads and write-allocations (cachegrind does not model non-temporal stores or
# prefetches, nor write-backs).
set -e
out=$1
n=${2:-16777216}
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-.venv/bin/python}
mkdir -p "$out"
$py -c 'from loopopt.tools.bench.threads import SOURCE; print(SOURCE)' > "$out/fs.mlir"
flags="-O3 -std=c11 -fno-tree-vectorize -fwrapv -fno-strict-aliasing -mavx2 -mfma -mf16c -mno-mmx -fopenmp"
for v in "blocks:filter_block=-1" "scratch:filter_block=0"; do
    name=${v%%:*} opts=${v#*:}
    $py -m loopopt.tools.loop_opt "$out/fs.mlir" -p "loop-pipeline{target=avx2 cpu=zen4 parallel=-1 $opts}" -t c -o "$out/$name.c"
    count=""
    grep -q 'filter_scale__count(' "$out/$name.c" && count=-DHAS_COUNT
    gcc $flags -I"$out" -DDRIVER="\"$name.c\"" $count "$here/threads_filter_cg.c" -o "$out/m_$name" -lm
done
cg() {  # label binary mode
    for c in 1 3; do
        valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=33554432,16,64 \
            --cachegrind-out-file="$out/cg.$1.$c" "$out/$2" "$3" "$n" $c > /dev/null 2>&1
    done
}
cg serial m_blocks serial; cg count m_blocks count; cg blocks m_blocks par; cg scratch m_scratch par
$py - "$out" "$n" <<'PY'
import collections, sys
out, n = sys.argv[1], int(sys.argv[2])
def load(path):
    ev, per, fn = None, collections.defaultdict(lambda: [0] * 9), None
    for line in open(path):
        if line.startswith("events:"):
            ev = line.split()[1:]
        elif line.startswith("fn="):
            fn = line[3:].strip()
        elif line[:1].isdigit() and fn:
            for i, x in enumerate(int(t) for t in line.split()[1:]):
                per[fn][i] += x
    return ev, per
def group(fn):
    return "count kernel" if "__count" in fn else "chunk kernel" if "__chunk" in fn else "driver" if fn.startswith("filter_scale") or "omp_fn" in fn else "other"
print(f"| run | part | instructions / element | LL read misses, B / element | LL write misses, B / element |\n|---|---|---|---|---|")
for name in ("serial", "count", "blocks", "scratch"):
    ev, a = load(f"{out}/cg.{name}.1")
    _, b = load(f"{out}/cg.{name}.3")
    at = {e: i for i, e in enumerate(ev)}
    g = collections.defaultdict(lambda: [0.0] * 9)
    for fn in set(a) | set(b):
        for i, (x, y) in enumerate(zip(a.get(fn, [0] * 9), b.get(fn, [0] * 9))):
            g[group(fn)][i] += (y - x) / 2
    g["all"] = [sum(v[i] for k, v in g.items()) for i in range(9)]
    for k, v in g.items():
        if abs(v[at["Ir"]]) / n >= 0.01:
            print(f"| {name} | {k} | {v[at['Ir']] / n:.2f} | {64 * v[at['DLmr']] / n:.2f} | {64 * v[at['DLmw']] / n:.2f} |")
PY
