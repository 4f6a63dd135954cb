#!/bin/sh
# Two-input folds (dot) as fold streams on Zen 4, 16 Mi elements: build and run (from the repo root).
#   sh results/amd-zen4/dot_streams/build.sh        # regenerates the C, builds, runs 4 KiB and 2 MiB pages
set -e
D=results/amd-zen4/dot_streams
.venv/bin/python $D/gen.py
F=$(.venv/bin/python -c "from loopopt.runtime.isa import compile_flags; print(' '.join(compile_flags('avx512')))")
for v in old:A streams4:B streams2:C; do
  name=${v%%:*}; p=${v##*:}
  sed "s/\bdot_f32\b/${p}_dot_f32/; s/\bdot_i32\b/${p}_dot_i32/" $D/$name.c > /tmp/dot_$name.c
  gcc $F -c /tmp/dot_$name.c -o /tmp/dot_$name.o
done
gcc -O2 -w $D/harness.c /tmp/dot_old.o /tmp/dot_streams4.o /tmp/dot_streams2.o -o /tmp/dot_streams -lm
uptime; /tmp/dot_streams 0 41; /tmp/dot_streams 1 41; uptime
