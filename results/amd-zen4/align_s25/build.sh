#!/bin/sh
# Session 25 (issue 11, helper alignpeel): builds $D/harness (harness.c) from loopopt's C for axpb, axpy, sum,
# sumsq, filter_gt0_scale (tools/bench/programs) and dot.mlir, avx512 and avx2 with cpu=zen4 and loop-bench's flags.
# Run from the repo root with the venv:  sh results/amd-zen4/align_s25/build.sh; /tmp/alignpeel/harness $((1<<20)) 41 16 4
# OLD_TREE=/tmp/base (holding loopopt/ of main) D=/tmp/alignpeel_ab sh ...build.sh: cur = main's kernels, peel = this tree's
set -e
D=${D:-/tmp/alignpeel}; H=$(dirname "$0"); mkdir -p $D
P=tools/bench/programs
cat $P/axpb.mlir $P/axpy.mlir $P/sum.mlir $P/sumsq.mlir $P/filter_gt0_scale.mlir $H/dot.mlir > $D/all.mlir
R="-O3 -std=c11 -fPIC -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing -mno-mmx"
for i in avx512:lo512 avx2:lo256; do isa=${i%%:*}; p=${i#*:}
  .venv/bin/loop-opt $D/all.mlir -p "loop-pipeline{target=$isa cpu=zen4}" -t c > $D/$p.c
  { for k in axpb_f32 axpb_i32 axpy_f32 axpy_i32 sum_f32 sum_i32 sumsq_f32 sumsq_i32 filter_gt0_scale_f32 filter_gt0_scale_i32 dot_f32; do
      echo "#define $k ${p}_$k"; done; echo "#include \"$p.c\""; } > $D/w_$p.c
done
gcc $R -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma -c $D/w_lo512.c -o $D/w_lo512.o
gcc $R -mavx2 -mfma -mf16c -c $D/w_lo256.c -o $D/w_lo256.o
if [ -n "$OLD_TREE" ]; then  # cur = the loopopt at $OLD_TREE (a directory holding loopopt/), peel = this tree's
  for i in avx512:lo512:ne512 avx2:lo256:ne256; do isa=${i%%:*}; r=${i#*:}; p=${r%%:*}; q=${r#*:}
    mv $D/$p.c $D/$q.c; sed "s/${p}_/${q}_/; s/$p.c/$q.c/" $D/w_$p.c > $D/w_$q.c
    sed -i "s/#define \([a-z0-9_]*\) ${p}_/#define \1 ${q}_/" $D/w_$q.c
    PYTHONPATH=$OLD_TREE .venv/bin/python -c 'import sys; from loopopt.tools.loop_opt import main; sys.exit(main())' $D/all.mlir -p "loop-pipeline{target=$isa cpu=zen4}" -t c > $D/$p.c
  done
  gcc $R -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma -c $D/w_ne512.c -o $D/w_ne512.o
  gcc $R -mavx2 -mfma -mf16c -c $D/w_ne256.c -o $D/w_ne256.o
  gcc $R -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma -c $D/w_lo512.c -o $D/w_lo512.o
  gcc $R -mavx2 -mfma -mf16c -c $D/w_lo256.c -o $D/w_lo256.o
  NEWO="-DNEWC $D/w_ne512.o $D/w_ne256.o"
fi
gcc -O2 -fno-tree-vectorize -o $D/harness $H/harness.c $D/w_lo512.o $D/w_lo256.o $NEWO
