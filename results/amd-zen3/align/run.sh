#!/bin/sh
# Session 26 (zen3knobs): align peel on Zen 3, avx2. A = cpu=zen3 (align_loads_from_bytes 0, no head),
# B = cpu=zen4 (32 KiB: a head to x's 32-byte boundary from 4 Ki elements to the LLC); for avx2 the two
# CPUs' C differs in nothing else (checked by diff). Run from the repo root with the venv.
set -e
D=${D:-/tmp/z3k_align}
A="loop-pipeline{target=avx2 cpu=zen3}" B="loop-pipeline{target=avx2 cpu=zen4}" D=$D sh results/amd-zen3/ab/build.sh
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
