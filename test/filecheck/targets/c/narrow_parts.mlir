// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 tail=masked}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON

// Narrow part vectors (targets/c_narrow_part.py): next to f32 the u8 lanes run at the f32 lane
// count, in the low bytes of a register: loaded and stored as those bytes only, sign-extended to
// i32 (and masked: uitofp) before the f32 conversion, an i8 compare's mask sign-extended to the
// 32-bit lanes' layout, an f32 compare's mask truncated for the i8 select and masked accesses.

// IR-LABEL: func.func @zip_u8_f32
// IR: %u = simd.load %x[%i] : !loop.buf<i8> -> vector<8xi8>
// IR: %small = simd.cmp <ult> %u, %{{.*}} : vector<8xi8> -> vector<8xi1>
// IR: simd.convert %u : vector<8xi8> -> vector<8xi32>
// IR: arith.andi %{{.*}}, %{{.*}} : vector<8xi32>
// IR: %w = simd.convert %{{.*}} : vector<8xi32> -> vector<8xf32>
// IR: %b = simd.select %neg, %u1, %u : vector<8xi1>, vector<8xi8>
// IR: simd.masked_load %x[%{{.*}}], %{{.*}}, %{{.*}} : !loop.buf<i8>, vector<8xi1> -> vector<8xi8>
// SSE2-LABEL: void zip_u8_f32(
// SSE2: __m128i u = lo_load_i8x4(&x[i]);
// SSE2: __m128i small = lo_sext_i8x4_i32(_mm_cmpgt_epi8(
// SSE2: __m128i b = _mm_or_si128(_mm_and_si128(lo_trunc_i32_i8x4(neg), u1), _mm_andnot_si128(lo_trunc_i32_i8x4(neg), u));
// SSE2: lo_store_i8x4(&ob[i], b);
// AVX2-LABEL: void zip_u8_f32(
// AVX2: __m256i u = lo_load_i8x8(&x[i]);
// AVX2: __m256i small = lo_sext_i8x8_i32(_mm256_cmpgt_epi8(
// AVX2: __m256 w = _mm256_cvtepi32_ps(
// AVX2: __m256i b = _mm256_blendv_epi8(u, u1, lo_trunc_i32_i8x8(neg));
// AVX2: lo_store_i8x8(&ob[i], b);
// AVX2: lo_masked_load_i8x32(&x[i], lo_trunc_i32_i8x8(
// AVX512-LABEL: void zip_u8_f32(
// AVX512: __m512i u = lo_load_i8x16(&x[i]);
// AVX512: __mmask16 small = (__mmask16)(_mm512_cmp_epu8_mask(u, {{.*}}, _MM_CMPINT_LT));
// AVX512: __m512i b = _mm512_mask_blend_epi8((__mmask64)(neg), u, u1);
// AVX512: _mm512_mask_loadu_epi8({{.*}}, (__mmask64)(
// AVX512: _mm512_mask_storeu_epi8(&ob[i], (__mmask64)(
// NEON-LABEL: void zip_u8_f32(
// NEON: int8x16_t u = lo_load_i8x4(&x[i]);
// NEON: uint32x4_t small = vreinterpretq_u32_s32(lo_sext_i8x4_i32(vreinterpretq_s8_u8(vcltq_u8(
// NEON: int8x16_t b = vbslq_s8(vreinterpretq_u8_s8(lo_trunc_i32_i8x4(vreinterpretq_s32_u32(neg))), u1, u);
// NEON: lo_store_i8x4(&ob[i], b);
func.func @zip_u8_f32(%x: !loop.buf<i8>, %y: !loop.buf<f32>, %a: f32, %of: !loop.buf<f32>, %ob: !loop.buf<i8>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i8>
  %lim = arith.constant 200 : i8
  %one = arith.constant 1 : i8
  %zf = arith.constant 0.0 : f32
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %u = loop.load %x[%i] : !loop.buf<i8>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %small = arith.cmpi ult, %u, %lim : i8
    %w = arith.uitofp %u : i8 to f32
    %m = arith.mulf %w, %a : f32
    %s = arith.select %small, %m, %f : f32
    %neg = arith.cmpf olt, %f, %zf : f32
    %u1 = arith.addi %u, %one : i8
    %b = arith.select %neg, %u1, %u : i8
    loop.store %s, %of[%i] : !loop.buf<f32>
    loop.store %b, %ob[%i] : !loop.buf<i8>
  }
  func.return
}

// fptoui to u8: the saturating f32 -> i32 conversion clamped to [0, 255], then truncated.
// IR-LABEL: func.func @fptoui_f32_u8
// IR: simd.convert %{{.*}} : vector<8xf32> -> vector<8xi32>
// IR: simd.max
// IR: simd.min
// IR: simd.convert %{{.*}} : vector<8xi32> -> vector<8xi8>
// SSE2-LABEL: void fptoui_f32_u8(
// SSE2: __m128i b = lo_trunc_i32_i8x4(
// AVX2-LABEL: void fptoui_f32_u8(
// AVX2: __m256i b = lo_trunc_i32_i8x8(
// AVX512-LABEL: void fptoui_f32_u8(
// AVX512: __m512i b = lo_trunc_i32_i8x16(
// NEON-LABEL: void fptoui_f32_u8(
// NEON: int8x16_t b = lo_trunc_i32_i8x4(

func.func @fptoui_f32_u8(%x: !loop.buf<f32>, %o: !loop.buf<i8>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %f = loop.load %x[%i] : !loop.buf<f32>
    %b = arith.fptoui %f : f32 to i8
    loop.store %b, %o[%i] : !loop.buf<i8>
  }
  func.return
}

// trunci keeps the low 16 bits: AVX2 masks before packus (which saturates), AVX-512 vpmovdw.
// IR-LABEL: func.func @trunci_i32_i16
// IR: simd.convert %{{.*}} : vector<8xi32> -> vector<8xi16>
// SSE2-LABEL: void trunci_i32_i16(
// SSE2: lo_store_i16x4(&o[i], t);
// AVX2-LABEL: void trunci_i32_i16(
// AVX2: lo_store_i16x8(&o[i], t);
// AVX512-LABEL: void trunci_i32_i16(
// AVX512: lo_store_i16x16(&o[i], t);
// NEON-LABEL: void trunci_i32_i16(
// NEON: int16x8_t t = lo_trunc_i32_i16x4({{.*}});
// NEON: lo_store_i16x4(&o[i], t);

func.func @trunci_i32_i16(%x: !loop.buf<i32>, %o: !loop.buf<i16>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %v = loop.load %x[%i] : !loop.buf<i32>
    %t = arith.trunci %v : i32 to i16
    loop.store %t, %o[%i] : !loop.buf<i16>
  }
  func.return
}
