#!/bin/sh
# Session 21 (issue 11, helper foldcheck): the 16 Mi sumsq / filter_gt0_sum gap by hand.
# Links into one harness: loopopt's AVX-512 C unsplit (lo512_: cpu=sapphirerapids, identical to
# main's cpu=zen4 C before this session for these folds) and split (sp512_: cpu=zen4), loopopt's
# AVX2 C (lo256_), the kernel library (lo_*_avx2 / _avx512, its own Makefile flags), gcc -O3
# -march=native of the plain loop (gcc_; -ffast-math for floats, as loop-bench), hand variants (h_).
# Run from the repo root with the venv: sh results/amd-zen4/fold_gap/build.sh && \
#   /tmp/fold_gap/harness sumsq_f32|sumsq_i32|gt0_i32 $((16<<20)) 61 [offset]
# (interleaved, rotating order, medians of thread CPU time; results: analysis.md "Session 21").
# runs-2026-11-27.txt: sp512_sumsq_i32 there is the split i32 loop, built before integer
# multiplies were left whole; built today it is the whole loop (= lo512_sumsq_i32).
set -e
D=/tmp/fold_gap; H=$(dirname "$0"); mkdir -p $D
cat tools/bench/programs/sum.mlir tools/bench/programs/sumsq.mlir tools/bench/programs/filter_gt0_sum.mlir > $D/folds.mlir
.venv/bin/loop-opt $D/folds.mlir -p 'loop-pipeline{target=avx512 cpu=sapphirerapids}' -t c > $D/lo_whole.c
.venv/bin/loop-opt $D/folds.mlir -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c > $D/lo_split.c
.venv/bin/loop-opt $D/folds.mlir -p 'loop-pipeline{target=avx2 cpu=zen4}' -t c > $D/lo_avx2.c
for v in lo512:lo_whole sp512:lo_split lo256:lo_avx2; do
  p=${v%%:*}; f=${v#*:}
  { for k in sum_f32 sum_i32 sumsq_f32 sumsq_i32 filter_gt0_sum_f32 filter_gt0_sum_i32; do echo "#define $k ${p}_$k"; done
    echo "#include \"$f.c\""; } > $D/w_$p.c
done
R="-O3 -std=c11 -ffp-contract=off"
X512="-mavx512f -mavx512dq -mavx512vl -mavx2 -mfma"
gcc $R $X512 -c $D/w_lo512.c -o $D/w_lo512.o
gcc $R $X512 -c $D/w_sp512.c -o $D/w_sp512.o
gcc $R -mavx2 -mfma -mf16c -c $D/w_lo256.c -o $D/w_lo256.o
gcc $R $X512 -c $H/hand.c -o $D/hand.o
gcc -O3 -march=native -ffp-contract=fast -ffast-math -c $H/plain.c -o $D/plainf.o
gcc -O3 -march=native -ffp-contract=fast -c $H/plain.c -o $D/plaini.o
objcopy --keep-global-symbol=gcc_sumsq_f32 --keep-global-symbol=gcc_sum_f32 $D/plainf.o $D/plainf2.o
objcopy --keep-global-symbol=gcc_sumsq_i32 --keep-global-symbol=gcc_filter_gt0_sum_i32 $D/plaini.o $D/plaini2.o
make -s -C kernels BUILD=$D/kbuild $D/kbuild/libloopopt_kernels.a
gcc -O2 $H/harness.c $D/w_lo512.o $D/w_sp512.o $D/w_lo256.o $D/hand.o $D/plainf2.o $D/plaini2.o $D/kbuild/libloopopt_kernels.a -lm -o $D/harness
