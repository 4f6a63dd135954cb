#!/bin/sh
# Session 26 (zen3knobs): tail=scalar (A) vs tail=masked (B) on Zen 3, avx2, cpu=zen3; n = 1000, 1003, 4099
# (tails of 8, 11, 3 elements after the K = 4 blocks of 8 lanes), numpy's 32-byte and 16-byte offsets.
set -e
D=${D:-/tmp/z3k_tail}
A="loop-pipeline{target=avx2 cpu=zen3 tail=scalar}" B="loop-pipeline{target=avx2 cpu=zen3 tail=masked}" D=$D sh results/amd-zen3/ab/build.sh
uptime
for off in 32 16; do
  $D/harness 1000 101 $off 2000 0
  $D/harness 1003 101 $off 2000 0
  $D/harness 4099 101 $off 500 0
done
uptime
