#!/bin/sh
# Generated filter->map drivers side by side in threads_filter_hand.c (docs/threads.md, session 23):
#   tools/bench/threads_filter_gen.sh OUTDIR NAME=PIECE_BYTES[:OPTIONS] ...   (at most 4)
#   OUTDIR/hand ROUNDS "gen ,pf piece 512,loopopt 1T,loopopt 2T"
# Each NAME is bench.threads' @filter_scale through loop-pipeline{target=avx512 cpu=zen4
# parallel=-1 filter_block=-1 OPTIONS} with targets/c_filter_blocks.PIECE_BYTES set, compiled on
# its own (its filter_scale renamed fs_gen<i>); the harness's own "loopopt" rows are the default
# pipeline's scratch-and-copy driver. Run from the repository root with the venv's python.
set -e
out=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-.venv/bin/python}
mkdir -p "$out"
$py -c 'from loopopt.tools.bench.threads import SOURCE; print(SOURCE)' > "$out/fs.mlir"
$py -m loopopt.tools.loop_opt "$out/fs.mlir" -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c -o "$out/fs_par.c"
defs="" objs="" i=0
for spec in "$@"; do
    name=${spec%%=*} rest=${spec#*=}
    bytes=${rest%%:*} opts=""
    [ "$rest" != "$bytes" ] && opts=${rest#*:}
    $py -c "
import sys
import loopopt.targets.c_filter_blocks as m
m.PIECE_BYTES = int(sys.argv[1])
from loopopt.tools.loop_opt import main
sys.argv = ['loop-opt', sys.argv[2], '-p', 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1 ' + sys.argv[3] + '}', '-t', 'c', '-o', sys.argv[4]]
main()
" "$bytes" "$out/fs.mlir" "$opts" "$out/gen$i.c"
    gcc -O3 -march=native -fopenmp -c -Dfilter_scale=fs_gen$i -Daxpb=axpb_gen$i -Dsum=sum_gen$i "$out/gen$i.c" -o "$out/gen$i.o"
    echo "#define GEN_NAME$i \"gen $name\"" >> "$out/gen_names.h.new"
    objs="$objs $out/gen$i.o"
    i=$((i + 1))
done
mv "$out/gen_names.h.new" "$out/gen_names.h" 2>/dev/null || : > "$out/gen_names.h"
gcc -O3 -march=native -fopenmp -include "$out/gen_names.h" -I"$out" -o "$out/hand" "$here/threads_filter_hand.c" $objs -lm
