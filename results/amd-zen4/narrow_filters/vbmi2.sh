#!/bin/sh
# The hand VBMI2 variant of loopopt's avx512 narrow filters: each i8/i16 compaction as one
# register compress (`vpcompressb/w zmm{k}`, merged into the value) and one full 64-byte store.
# (Written before loopopt emitted that form itself; kept as the check that it matches the hand one.)
# usage: sh vbmi2.sh in/avx512.c > out/hand.c
cat <<'H'
#include <immintrin.h>
#include <stdint.h>
__attribute__((target("avx512vbmi2,avx512bw,avx512f"))) static inline int64_t lo_vb_i16(int16_t *p, __m512i v, __mmask32 m)
{ _mm512_storeu_si512(p, _mm512_mask_compress_epi16(v, m, v)); return __builtin_popcount((unsigned)m); }
__attribute__((target("avx512vbmi2,avx512bw,avx512f"))) static inline int64_t lo_vb_i8(int8_t *p, __m512i v, __mmask64 m)
{ _mm512_storeu_si512(p, _mm512_mask_compress_epi8(v, m, v)); return __builtin_popcountll(m); }
H
sed -e 's/lo_compress_full_i8x64((int8_t \*)\(&[a-z_0-9]*\[[a-z_0-9]*\]\), \([a-z_0-9]*\), _mm512_movepi8_mask(_mm512_movm_epi16(\([a-z_0-9]*\)))) \/ 2/lo_vb_i16(\1, \2, \3)/' \
    -e 's/lo_compress_full_i8x64(\(&[a-z_0-9]*\[[a-z_0-9]*\]\), \([a-z_0-9]*\), \([a-z_0-9]*\))/lo_vb_i8(\1, \2, \3)/' \
    -e 's/avx512_keep_/hand_keep_/' "$1"
