#!/bin/sh
# Session 26 (zen3knobs): run.sh's small sizes with every loop and function 64-byte aligned in both builds
# (EXTRA_CFLAGS), to tell the head's effect from the code layout's. TREE_A as run.sh.
set -e
D=${D:-/tmp/z3k_align3}; TREE_A=${TREE_A:?a directory holding main af00ade as loopopt/}
EXTRA_CFLAGS="-falign-loops=64 -falign-functions=64" A="loop-pipeline{target=avx2 cpu=zen3}" B="loop-pipeline{target=avx2 cpu=zen3}" TREE_A=$TREE_A D=$D sh results/amd-zen3/ab/build.sh
uptime
for off in 16 32; do
  $D/harness 1024 101 $off 1024 0
  $D/harness 2048 101 $off 512 0
  $D/harness 8192 101 $off 128 0
  $D/harness 65536 61 $off 16 0
done
uptime
