#!/bin/sh
# Session 26 (zen3knobs): non-temporal stores on Zen 3, avx2, cpu=zen3: A = stream_bytes=0 (plain stores), B =
# stream_bytes=1 (every map output streamed). Maps axpb/axpy f32/i32 from 1 Mi to 16 Mi elements (4-64 MiB
# outputs), NCOPIES=1 (the same arrays every call: what the LLC can keep) and 3 (rotated: from DRAM).
set -e
D=${D:-/tmp/z3k_nt}
A="loop-pipeline{target=avx2 cpu=zen3 stream_bytes=0}" B="loop-pipeline{target=avx2 cpu=zen3 stream_bytes=1}" D=$D sh results/amd-zen3/ab/build.sh
uptime
for n in 1048576 2097152 3145728 4194304 6291456 8388608 16777216; do
  for c in 1 3; do
    NCOPIES=$c CELLS=axpb_f32,axpb_i32,axpy_f32,axpy_i32 $D/harness $n 21 16 1 2
  done
done
uptime
