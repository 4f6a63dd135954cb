#!/bin/sh
# Session 26 (zen3knobs): run.sh again with every loop and function 64-byte aligned in both builds
# (EXTRA_CFLAGS), to tell the tail's cost from the code layout's.
set -e
D=${D:-/tmp/z3k_tail_al}
EXTRA_CFLAGS="-falign-loops=64 -falign-functions=64" A="loop-pipeline{target=avx2 cpu=zen3 tail=scalar}" B="loop-pipeline{target=avx2 cpu=zen3 tail=masked}" D=$D sh results/amd-zen3/ab/build.sh
uptime
for off in 32 16; do
  $D/harness 1000 101 $off 2000 0
  $D/harness 1003 101 $off 2000 0
  $D/harness 4099 101 $off 500 0
done
uptime
