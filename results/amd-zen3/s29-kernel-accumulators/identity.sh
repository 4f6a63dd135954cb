#!/bin/sh
# Build identity.c against the old and the new kernels for scalar, sse2, avx2 (run here) and neon
# (qemu-aarch64), run both and compare their outputs byte for byte.
#   sh identity.sh OLD_KERNELS_DIR NEW_KERNELS_DIR WORKDIR
set -e
old=$1 new=$2 work=$3
mkdir -p "$work"
common="-O3 -std=c11 -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing -falign-loops=32"
here=$(cd "$(dirname "$0")" && pwd)
for isa in scalar sse2 avx2 neon; do
    case $isa in
    scalar) cc="gcc -mno-mmx" run= ;; sse2) cc="gcc -msse2 -mno-mmx" run= ;;
    avx2) cc="gcc -mavx2 -mfma -mf16c -mno-mmx" run= ;; neon) cc="aarch64-linux-gnu-gcc -static" run=qemu-aarch64 ;;
    esac
    for v in old new; do
        eval dir=\$$v
        $cc $common -DLO_TEST_ISA=$isa -I"$dir/src" -I"$dir/include" "$here/identity.c" "$dir/src/$isa.c" -lm -o "$work/id_${v}_$isa"
        $run "$work/id_${v}_$isa" > "$work/id_${v}_$isa.txt"
    done
    if cmp -s "$work/id_old_$isa.txt" "$work/id_new_$isa.txt"; then
        echo "$isa: identical ($(grep -vc '^n=' "$work/id_new_$isa.txt") results)"
    else
        echo "$isa: DIFFERENT"
    fi
done
