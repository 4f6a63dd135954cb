#!/bin/sh
# Session 26 (zen3knobs): align peel proxy on Zen 3, avx2: A = loopopt's cpu=zen3 kernel on arrays at `off` past a
# 64-byte line, B = a scalar head to x's 32-byte boundary + the same kernel (PROXY=1: no code-layout change).
# Off 32 is the control (head 0: B is A). Run from the repo root with the venv, after run.sh (its build: A = main
# af00ade's kernels, no head).
set -e
D=${D:-/tmp/z3k_align}
gcc -O2 -fno-tree-vectorize -o $D/harness_p results/amd-zen3/ab/harness.c $D/w_A.o $D/w_B.o -lm
uptime
for off in 16 32; do
  PROXY=1 $D/harness_p 1024 101 $off 1024 0
  PROXY=1 $D/harness_p 2048 101 $off 512 0
  PROXY=1 $D/harness_p 4096 101 $off 256 0
  PROXY=1 $D/harness_p 8192 101 $off 128 0
  PROXY=1 $D/harness_p 65536 61 $off 16 0
  PROXY=1 $D/harness_p 262144 41 $off 4 2
  PROXY=1 $D/harness_p 1048576 31 $off 2 2
done
PROXY=1 $D/harness_p 16777216 15 16 1 2
uptime
