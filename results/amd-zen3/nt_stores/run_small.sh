#!/bin/sh
# Session 26 (zen3knobs): where streaming starts to win on this (loaded) host: as run.sh (its build in $D),
# outputs of 512 KiB to 4 MiB, the same arrays every call (NCOPIES=1).
set -e
D=${D:-/tmp/z3k_nt}
uptime
for n in 131072 262144 524288 1048576; do
  NCOPIES=1 CELLS=axpb_f32,axpb_i32,axpy_f32,axpy_i32 $D/harness $n 31 16 2 2
done
uptime
