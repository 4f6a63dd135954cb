#!/bin/sh
# Session 23 (issue 11, helper pages4k): builds /tmp/pages4k/harness (harness.c) from loopopt's C for the
# one-input folds (avx512 and avx2, cpu=zen4, with loop-bench's flags), the kernel library, gcc -O3
# -march=native of the plain loops (-ffast-math for floats, as loop-bench's gcc-ffast-math) and hand.c.
# Run from the repo root with the venv: sh results/amd-zen4/fold_gap/pages4k/build.sh [pipeline-extra]
#   /tmp/pages4k/harness sumsq_i32 $((16<<20)) 21
# OLD_C=file.c adds another loopopt avx512 C (e.g. main's) as old512_*, for before/after in one run.
# LOOPOPT_PIPE overrides the avx512 pipeline (default loop-pipeline{target=avx512 cpu=zen4}).
set -e
D=${D:-/tmp/pages4k}; H=$(dirname "$0"); mkdir -p $D
cat tools/bench/programs/sum.mlir tools/bench/programs/sumsq.mlir tools/bench/programs/filter_gt0_sum.mlir > $D/folds.mlir
.venv/bin/loop-opt $D/folds.mlir -p "${LOOPOPT_PIPE:-loop-pipeline{target=avx512 cpu=zen4}}" -t c > $D/lo512.c
.venv/bin/loop-opt $D/folds.mlir -p 'loop-pipeline{target=avx2 cpu=zen4}' -t c > $D/lo256.c
for p in lo512 lo256; do
  { for k in sum_f32 sum_i32 sumsq_f32 sumsq_i32 filter_gt0_sum_f32 filter_gt0_sum_i32; do echo "#define $k ${p}_$k"; done
    echo "#include \"$p.c\""; } > $D/w_$p.c
done
R="-O3 -std=c11 -fPIC -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing -mno-mmx"
X512="-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma"
gcc $R $X512 -c $D/w_lo512.c -o $D/w_lo512.o
gcc $R -mavx2 -mfma -mf16c -c $D/w_lo256.c -o $D/w_lo256.o
gcc $R $X512 -c $H/hand.c -o $D/hand.o
G="-O3 -std=c11 -fPIC -ffp-contract=off -march=native -mno-mmx -ffp-contract=fast"
{ echo '#include <stdint.h>'
  for t in f32:float i32:int32_t; do d=${t%%:*}; T=${t#*:}
    echo "$T gcc_sum_$d(const $T *restrict x, int64_t n) { $T s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s; }"
    echo "$T gcc_sumsq_$d(const $T *restrict x, int64_t n) { $T s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * x[i]; return s; }"
    echo "$T gcc_filter_gt0_sum_$d(const $T *restrict x, int64_t n) { $T s = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) s += x[i]; return s; }"
  done; } > $D/plain.c
gcc $G -ffast-math -c $D/plain.c -o $D/plainf.o
gcc $G -fwrapv -c $D/plain.c -o $D/plaini.o
objcopy --keep-global-symbol=gcc_sum_f32 --keep-global-symbol=gcc_sumsq_f32 --keep-global-symbol=gcc_filter_gt0_sum_f32 $D/plainf.o $D/plainf2.o
objcopy --keep-global-symbol=gcc_sum_i32 --keep-global-symbol=gcc_sumsq_i32 --keep-global-symbol=gcc_filter_gt0_sum_i32 $D/plaini.o $D/plaini2.o
make -s -C kernels BUILD=$D/kbuild $D/kbuild/libloopopt_kernels.a
OLD=
if [ -n "$OLD_C" ]; then
  { for k in sum_f32 sum_i32 sumsq_f32 sumsq_i32 filter_gt0_sum_f32 filter_gt0_sum_i32; do echo "#define $k old512_$k"; done
    echo "#include \"$(realpath $OLD_C)\""; } > $D/w_old512.c
  gcc $R $X512 -c $D/w_old512.c -o $D/w_old512.o; OLD="-DOLD $D/w_old512.o"
fi
gcc -O2 -o $D/harness $H/harness.c $OLD $D/w_lo512.o $D/w_lo256.o $D/hand.o $D/plainf2.o $D/plaini2.o $D/kbuild/libloopopt_kernels.a -lm
