#!/bin/sh
# Build old_ISA.so and new_ISA.so (sse2, avx2) and the harness into OUT, with the library's flags
# (loopopt.runtime.isa.compile_flags). The old tree: `git archive 49f1c10 kernels | tar -x -C OLD_PARENT`.
#   sh build.sh OLD_KERNELS_DIR NEW_KERNELS_DIR OUT [LOOP_ALIGN]
# LOOP_ALIGN (default 32, the library's -falign-loops) = 64 puts every loop head on a 64-byte line in
# both builds, so a loop's place in the file does not decide its speed (README.md).
set -e
old=$1 new=$2 out=$3 align=${4:-32}
mkdir -p "$out"
common="-O3 -std=c11 -fPIC -shared -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing -falign-loops=$align -mno-mmx"
for isa in sse2 avx2; do
    case $isa in sse2) flags=-msse2 ;; avx2) flags="-mavx2 -mfma -mf16c" ;; esac
    for v in old new; do
        eval dir=\$$v
        gcc $common $flags -I"$dir/src" -I"$dir/include" "$dir/src/$isa.c" -o "$out/${v}_$isa.so" -lm
    done
done
gcc -O2 -Wall -Wextra "$(dirname "$0")/ab.c" -o "$out/ab" -ldl
