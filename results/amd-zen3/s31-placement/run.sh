#!/bin/sh
# Session 31: the 1 Ki / 64 Ki cells with and without per-trial placement, twice each, interleaved.
# Run from the repository root: sh results/amd-zen3/s31-placement/run.sh
set -e
D=results/amd-zen3/s31-placement
for run in rotate1 fixed1 rotate2 fixed2; do
    case $run in fixed*) flag=--fixed-placement ;; *) flag= ;; esac
    echo "$run start $(date -u +%T) $(uptime)" >> $D/load.log
    .venv/bin/loop-bench --sizes 1Ki,64Ki --trials 31 --no-compile-time $flag --out $D/$run 2> $D/$run.log
    echo "$run end   $(date -u +%T) $(uptime)" >> $D/load.log
done
