// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON

// A filter keeping bytes (targets/c_narrow_compress.py): compaction by 8-byte groups, each
// packed by the 8-lane left-pack table's row (pshufb on AVX2/AVX-512, vtbl1_u8 on NEON; SSE2,
// without a byte shuffle, moves the group's bytes as a 64-bit integer through the shift network
// row of its mask, branch-free) and stored at the count.
// IR-LABEL: func.func @filter_u8
// IR: simd.compress_store %{{.*}}, %{{.*}}, %out[%{{.*}}] full : vector<32xi8>
// AVX2: _mm_storel_epi64((__m128i *)q, _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(x + 8 * g)), _mm_loadl_epi64((const __m128i *)lo_leftpack_idx8[b])));
// AVX2-LABEL: int64_t filter_u8(
// AVX2: lo_compress_full_i8x32(&out[{{.*}}], {{.*}}, {{.*}});
// SSE2: static const uint64_t lo_compress_net8[256][4] = {
// SSE2-NEXT: {0x0ull, 0x0ull, 0x0ull, 0x0ull},
// SSE2-NEXT: {0x0ull, 0x0ull, 0x0ull, 0x1ull},
// SSE2-NEXT: {0xffull, 0x0ull, 0x0ull, 0x1ull},
// SSE2: const uint64_t *t = lo_compress_net8[(bits >> (8 * h)) & 0xFFu];
// SSE2-NEXT: uint64_t y = x[h];
// SSE2-NEXT: y ^= (y ^ y >> 8) & t[0];
// SSE2-NEXT: y ^= (y ^ y >> 16) & t[1];
// SSE2-NEXT: y ^= (y ^ y >> 32) & t[2];
// SSE2-NEXT: _mm_storel_epi64((__m128i *)(p + c), _mm_cvtsi64_si128((long long)y));
// SSE2-NEXT: c += (int64_t)t[3];
// SSE2-LABEL: int64_t filter_u8(
// SSE2: lo_compress_full_i8x16(&out[{{.*}}], {{.*}}, {{.*}});
// AVX512: uint64_t bits = (uint64_t)m;
// AVX512-LABEL: int64_t filter_u8(
// AVX512: lo_compress_full_i8x64(&out[{{.*}}], {{.*}}, {{.*}});
// NEON: vst1_u8((uint8_t *)q, vtbl1_u8(vld1_u8((const uint8_t *)(x + 8 * g)), vld1_u8(lo_leftpack_idx8[b])));
// NEON-LABEL: int64_t filter_u8(
// NEON: lo_compress_full_i8x16(&out[{{.*}}], {{.*}}, {{.*}});
func.func @filter_u8(%x: !df.array<i8, [i]>, %lim: i8) -> !df.array<i8, [j]> {
  %r = df.filter %x : !df.array<i8, [i]> -> !df.array<i8, [j]> {
  ^bb0(%e: i8):
    %c = arith.cmpi ult, %e, %lim : i8
    df.yield %c : i1
  }
  func.return %r : !df.array<i8, [j]>
}
