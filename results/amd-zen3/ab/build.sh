#!/bin/sh
# Session 26 (issue 11, helper zen3knobs): builds $D/harness (harness.c) with two builds A and B of
# axpb/axpy/sum/sumsq/dot f32/i32 (tools/bench/programs + dot.mlir):
#   A="loop-pipeline{...}" B="loop-pipeline{...}" [TREE_A=dir TREE_B=dir] D=/tmp/x sh results/amd-zen3/ab/build.sh
# TREE_x: a directory holding a loopopt/ package to generate x's C with (default: this tree).
# Compiled with the target's flags from loopopt.runtime.isa.compile_flags (ISA=avx2 by default) and $EXTRA_CFLAGS.
set -e
D=${D:-/tmp/zen3ab}; H=$(dirname "$0"); mkdir -p $D; ISA=${ISA:-avx2}
P=tools/bench/programs
cat $P/axpb.mlir $P/axpy.mlir $P/sum.mlir $P/sumsq.mlir $H/dot.mlir > $D/all.mlir
F=$(.venv/bin/python -c "from loopopt.runtime.isa import compile_flags; print(' '.join(compile_flags('$ISA')))")
for v in A B; do
  eval pipe=\$$v; eval tree=\${TREE_$v:-}
  if [ -n "$tree" ]; then
    PYTHONPATH=$tree .venv/bin/python -c 'import sys; from loopopt.tools.loop_opt import main; sys.exit(main())' $D/all.mlir -p "$pipe" -t c > $D/$v.c
  else
    .venv/bin/loop-opt $D/all.mlir -p "$pipe" -t c > $D/$v.c
  fi
  { for k in axpb_f32 axpb_i32 axpy_f32 axpy_i32 sum_f32 sum_i32 sumsq_f32 sumsq_i32 dot_f32 dot_i32; do
      echo "#define $k ${v}_$k"; done; echo "#include \"$v.c\""; } > $D/w_$v.c
  gcc $F ${EXTRA_CFLAGS:-} -c $D/w_$v.c -o $D/w_$v.o
done
gcc -O2 -fno-tree-vectorize -o $D/harness $H/harness.c $D/w_A.o $D/w_B.o -lm
cmp -s $D/A.c $D/B.c && echo "build.sh: A and B generate the same C" >&2 || true
