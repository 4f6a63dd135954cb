#!/bin/sh
# Session 22 (issue 11, helper zen4cells): loop-bench's <= 1 Mi map/fold cells in one C harness.
# Links loopopt's C (lo512: target=avx512 cpu=zen4, sr512: cpu=sapphirerapids, lo256: target=avx2 cpu=zen4,
# ex..ex4: hand-edited copies of lo512.c, default unchanged copies = a same-code noise control) with the
# kernel library's sse2/avx2/avx512 sources. LAYOUT varies code alignment: each object gets a .text pad of
# ((LAYOUT*5 + j*3) % 4) * 16 bytes, since identical code moved by 16-48 bytes ran up to 10% apart in L1 cells.
# Run from the repo root with the venv:
#   D=/tmp/zc4 sh results/amd-zen4/zen4_cells/build.sh 0 1 2 3 && cd /tmp/zc4 && \
#   python3 sweep.py axpy_f32,axpb_i32 1000,1024,65536,1048576 2 0,1,2,3 lo512 k_sse2,k_avx2,k_avx512,lo256
# (one process per layout x buffer placement x round; prints t(other)/t(lo512) medians and [q1,q3] over runs).
set -e
D=${D:-/tmp/zc4}; H=$(cd "$(dirname "$0")" && pwd); REPO=$(pwd)
mkdir -p $D; cp $H/harness.c $H/sweep.py $D/
cat tools/bench/programs/axpb.mlir tools/bench/programs/axpy.mlir tools/bench/programs/sqrt_abs_axpb.mlir tools/bench/programs/sumsq.mlir > $D/p.mlir
.venv/bin/loop-opt $D/p.mlir -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c > $D/lo512.c
.venv/bin/loop-opt $D/p.mlir -p 'loop-pipeline{target=avx512 cpu=sapphirerapids}' -t c > $D/sr512.c
.venv/bin/loop-opt $D/p.mlir -p 'loop-pipeline{target=avx2 cpu=zen4}' -t c > $D/lo256.c
for e in ex ex2 ex3 ex4; do [ -f $D/$e.c ] || cp $D/lo512.c $D/$e.c; done
cd $D
R="-O3 -std=c11 -fPIC -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing -mno-mmx -fno-toplevel-reorder"
X512="-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma"
KS=$REPO/kernels
VARS="lo512 ex ex2 ex3 ex4 sr512 lo256"
PATS="axpb_f32 axpb_i32 axpy_f32 axpy_i32 sqrt_abs_axpb_f32 sumsq_f32 sumsq_i32"
for L in "${@:-0}"; do
  mkdir -p o$L; j=0
  pad() { j=$((j+1)); P=$(( ((L*5 + j*3) % 4) * 16 )); echo "__asm__(\".text; .skip $P, 0x90\");" > o$L/pad$j.h; echo "-include o$L/pad$j.h"; }
  for p in $VARS; do
    { for k in $PATS; do echo "#define $k ${p}_$k"; done; echo "#include \"../$p.c\""; } > o$L/w_$p.c
    F="$X512"; [ $p = lo256 ] && F="-mavx2 -mfma -mf16c"
    gcc $R $F $(pad) -c o$L/w_$p.c -o o$L/w_$p.o 2>/dev/null
  done
  K="-O3 -std=c11 -fPIC -ffp-contract=off -I$KS/src -I$KS/include -fno-toplevel-reorder"
  gcc $K -msse2 $(pad) -c $KS/src/sse2.c -o o$L/k_sse2.o 2>/dev/null
  gcc $K -mavx2 -mfma $(pad) -c $KS/src/avx2.c -o o$L/k_avx2.o 2>/dev/null
  gcc $K $X512 $(pad) -c $KS/src/avx512.c -o o$L/k_avx512.o 2>/dev/null
  { for k in $PATS; do
      printf "#define VARIANTS_$k(X, p, t, ty)"; for p in $VARS; do printf " X(\"$p\", ${p}_$k)"; done
      echo " X(\"k_sse2\", lo_${k}_sse2) X(\"k_avx2\", lo_${k}_avx2) X(\"k_avx512\", lo_${k}_avx512)"
      for p in $VARS; do echo "extern char ${p}_$k[];"; done
      for i in sse2 avx2 avx512; do echo "extern char lo_${k}_$i[];"; done
    done; } > o$L/variants.h
  gcc -O2 -Io$L harness.c o$L/*.o -lm -o harness_$L
done
