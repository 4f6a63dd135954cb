#!/bin/sh
# Session 26 (zen3knobs): align peel on Zen 3, avx2. A = cpu=zen3 C of main af00ade at $TREE_A (no head), B =
# this tree's cpu=zen3 C (a head to x's 32-byte boundary from 4 KiB of data to the LLC). The session's run1.txt
# was taken before the change with B = cpu=zen4's avx2 C (the same head from 32 KiB; for avx2 the two CPUs'
# C differed in nothing else, checked by diff). Run from the repo root with the venv:
#   mkdir -p /tmp/z3k_base/loopopt && git archive af00ade | tar -x -C /tmp/z3k_base/loopopt
#   TREE_A=/tmp/z3k_base sh results/amd-zen3/align/run.sh
set -e
D=${D:-/tmp/z3k_align}; TREE_A=${TREE_A:?a directory holding main af00ade as loopopt/}
A="loop-pipeline{target=avx2 cpu=zen3}" B="loop-pipeline{target=avx2 cpu=zen3}" TREE_A=$TREE_A D=$D sh results/amd-zen3/ab/build.sh
uptime; grep -m1 "model name" /proc/cpuinfo
for off in 16 32; do
  $D/harness 2048 101 $off 512 0
  $D/harness 8192 101 $off 128 0
  $D/harness 65536 61 $off 16 0
  $D/harness 262144 41 $off 4 2
  $D/harness 1048576 31 $off 2 2
done
$D/harness 16777216 15 16 1 2
uptime
