#!/bin/sh
# Session 26 (zen3knobs): fold streams for vectors as wide as the datapath on Zen 3. A = this tree's C (cpu=zen3:
# adjacent blocks), B = $TREE_B's (fold_stream_bytes without the "wider than the datapath" condition and
# zen3 fold_streams_beyond_llc=4: 4 streams for one input, 2 streams of 2 blocks for dot). 16 Mi elements
# (64 MiB an array, 3 rotated copies: from DRAM), 4 KiB and 2 MiB pages; then 256 Ki (L2/L3) as a check.
# ISA=avx2 (default) or ISA=sse2.
set -e
ISA=${ISA:-avx2}; D=${D:-/tmp/z3k_fs_$ISA}; TREE_B=${TREE_B:-/tmp/z3k_fstree}
A="loop-pipeline{target=$ISA cpu=zen3}" B="loop-pipeline{target=$ISA cpu=zen3}" TREE_B=$TREE_B ISA=$ISA D=$D sh results/amd-zen3/ab/build.sh
grep -c per_stream $D/A.c $D/B.c || true
uptime
CELLS=sum_f32,sum_i32,sumsq_f32,sumsq_i32,dot_f32,dot_i32 $D/harness 16777216 21 16 1 2
CELLS=sum_f32,sum_i32,sumsq_f32,sumsq_i32,dot_f32,dot_i32 $D/harness 4194304 21 16 1 2
uptime
