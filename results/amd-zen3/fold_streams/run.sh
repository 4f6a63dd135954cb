#!/bin/sh
# Session 26 (zen3knobs): fold streams for vectors as wide as the datapath on Zen 3. A = the C of the loopopt at
# $TREE_A (a directory holding loopopt/ as of main af00ade: cpu=zen3 folds on adjacent blocks), B = this tree's
# (every width streams, zen3 fold_streams_beyond_llc=4: 4 streams for one input, 2 streams of 2 blocks for dot).
# The session's run1_*.txt had B from a patched copy of af00ade (the same stream loops, no head below the LLC).
# 16 Mi elements (64 MiB an array, 3 rotated copies: from DRAM), 4 KiB and 2 MiB pages; then 4 Mi (16 MiB,
# below the limit: the same loops in both, the control). ISA=avx2 (default) or ISA=sse2.
#   mkdir -p /tmp/z3k_base/loopopt && git archive af00ade | tar -x -C /tmp/z3k_base/loopopt
#   TREE_A=/tmp/z3k_base sh results/amd-zen3/fold_streams/run.sh
set -e
ISA=${ISA:-avx2}; D=${D:-/tmp/z3k_fs_$ISA}; TREE_A=${TREE_A:?a directory holding main af00ade as loopopt/}
A="loop-pipeline{target=$ISA cpu=zen3}" B="loop-pipeline{target=$ISA cpu=zen3}" TREE_A=$TREE_A ISA=$ISA D=$D sh results/amd-zen3/ab/build.sh
grep -c per_stream $D/A.c $D/B.c || true
uptime
CELLS=sum_f32,sum_i32,sumsq_f32,sumsq_i32,dot_f32,dot_i32 $D/harness 16777216 21 16 1 2
CELLS=sum_f32,sum_i32,sumsq_f32,sumsq_i32,dot_f32,dot_i32 $D/harness 4194304 21 16 1 2
uptime
