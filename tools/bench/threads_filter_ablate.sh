#!/bin/sh
# The super-block driver with parts of its work removed (docs/threads.md, "Zen 4 (session 25)"):
#   tools/bench/threads_filter_ablate.sh OUTDIR
#   OMP_WAIT_POLICY=passive chrt -f 10 OUTDIR/hand 31 "gen ,loopopt 1T,map NT,free halves (no places) stage+NT"
# builds bench.threads' @filter_scale (loop-pipeline{target=avx512 cpu=zen4 parallel=-1
# filter_block=-1}) four times into threads_filter_hand.c's "gen" rows, edited with sed:
#   blocks            as generated
#   counts from table the next part's count replaced by a table filled on the first call (the
#                     harness calls with the same input: the output stays right): no count pass
#   table, no pf      also without the prefetch of the next part: the driver's work without
#                     coordination, to compare with "free halves (no places)"
#   no prefetch       the count pass, from memory
# The rows' differences are what the count pass and the prefetches cost (the output is checked).
set -e
out=$1
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-.venv/bin/python}
mkdir -p "$out"
$py -c 'from loopopt.tools.bench.threads import SOURCE; print(SOURCE)' > "$out/fs.mlir"
$py -m loopopt.tools.loop_opt "$out/fs.mlir" -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c -o "$out/fs_par.c"
$py -m loopopt.tools.loop_opt "$out/fs.mlir" -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1}' -t c -o "$out/b0.c"
table='static int64_t lo_ct[1 << 16]; static inline int64_t lo_cached(int64_t c, const float *x, int64_t n, float a, float *out) { if (!lo_ct[c]) lo_ct[c] = filter_scale__count(x, n, a, out, n) + 1; return lo_ct[c] - 1; }'
sed -e "s|^int64_t filter_scale(|$table\n&|" \
    -e 's|filter_scale__count(x + lo_c \* lo_cs, lo_len, a, out, lo_len)|lo_cached(lo_c, x + lo_c * lo_cs, lo_len, a, out)|' \
    -e 's|filter_scale__count(x + lo_nlo, lo_nlen, a, out, lo_nlen)|lo_cached(lo_nx, x + lo_nlo, lo_nlen, a, out)|' "$out/b0.c" > "$out/b1.c"
sed -e 's|^\( *\)lo_par_prefetch(x + lo_nlo + lo_j,.*|\1;|' "$out/b1.c" > "$out/b2.c"
sed -e 's|^\( *\)lo_par_prefetch(x + lo_nlo + lo_j,.*|\1;|' "$out/b0.c" > "$out/b3.c"
for f in b1 b2 b3; do  # each edit must have happened
    cmp -s "$out/b0.c" "$out/$f.c" && { echo "$f: the sed edit did not apply" >&2; exit 1; }
done
: > "$out/gen_names.h"
i=0
for f in "b0:blocks" "b1:blocks, counts from table" "b2:blocks, table, no pf" "b3:blocks, no prefetch"; do
    gcc -O3 -march=native -fopenmp -c -Dfilter_scale=fs_gen$i -Daxpb=axpb_gen$i -Dsum=sum_gen$i "$out/${f%%:*}.c" -o "$out/${f%%:*}.o"
    echo "#define GEN_NAME$i \"gen ${f#*:}\"" >> "$out/gen_names.h"
    i=$((i + 1))
done
gcc -O3 -march=native -fopenmp -include "$out/gen_names.h" -I"$out" -o "$out/hand" "$here/threads_filter_hand.c" \
    "$out/b0.o" "$out/b1.o" "$out/b2.o" "$out/b3.o" -lm
