#!/bin/sh
# Narrow filters on Zen 4 (session 25): loopopt avx2 / avx512 vs the hand VBMI2 form vs gcc.
# From the repo root:  sh results/amd-zen4/narrow_filters/build.sh [rounds]   (prints the table)
set -e
D=results/amd-zen4/narrow_filters; O=${TMPDIR:-/tmp}/lo_narrow_filters; mkdir -p $O
.venv/bin/python $D/gen.py $O
sh $D/vbmi2.sh $O/avx512.c > $O/hand.c
for v in avx2:avx2 avx512:avx512 vbmi2:avx512 hand:avx512; do
  F=$(.venv/bin/python -c "from loopopt.runtime.isa import compile_flags; print(' '.join(compile_flags('${v#*:}')))")
  gcc $F -c $O/${v%:*}.c -o $O/${v%:*}.o
done
gcc -O3 -march=native -fwrapv -c $D/gcc_loops.c -o $O/gcc.o
gcc -O2 $D/harness.c $O/avx2.o $O/avx512.o $O/vbmi2.o $O/hand.o $O/gcc.o -o $O/harness
lscpu | grep -m1 "Model name"; uptime; $O/harness ${1:-21}; uptime
