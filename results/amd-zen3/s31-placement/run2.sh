#!/bin/sh
# Session 31, second round: the same four runs again, then axpy f32 64 Ki alone with 201 trials
# (rotated twice: the same seeded placements in both, so a real placement effect repeats; fixed once).
# Run from the repository root: sh results/amd-zen3/s31-placement/run2.sh
set -e
D=results/amd-zen3/s31-placement
for run in rotate3 fixed3 rotate4 fixed4; do
    case $run in fixed*) flag=--fixed-placement ;; *) flag= ;; esac
    echo "$run start $(date -u +%T) $(uptime)" >> $D/load.log
    .venv/bin/loop-bench --sizes 1Ki,64Ki --trials 31 --no-compile-time $flag --out $D/$run 2> $D/$run.log
    echo "$run end   $(date -u +%T) $(uptime)" >> $D/load.log
done
for run in axpy-rotate1 axpy-fixed1 axpy-rotate2; do
    case $run in *fixed*) flag=--fixed-placement ;; *) flag= ;; esac
    echo "$run start $(date -u +%T) $(uptime)" >> $D/load.log
    .venv/bin/loop-bench --patterns axpy --dtypes f32 --sizes 64Ki --trials 201 --no-compile-time $flag --out $D/$run 2> $D/$run.log
    echo "$run end   $(date -u +%T) $(uptime)" >> $D/load.log
done
