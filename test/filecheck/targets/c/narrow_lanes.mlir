// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON

// i8/i16 lanes fill a register (targets/c_narrow.py): 32 bytes on AVX2, 64 on AVX-512, 16 on
// SSE2/NEON. A count of bytes summed into i64 runs at the byte lane count with an i64
// accumulator register stepped by simd.widen_add (loop_to_simd/widen.py): psadbw against zero
// on x86, NEON's pairwise widening adds.

// IR-LABEL: func.func @count_eq_u8
// IR: simd.cmp <eq> %{{.*}} : vector<32xi8> -> vector<32xi1>
// IR: simd.widen_add %{{.*}}, %{{.*}} : vector<4xi64>, vector<32xi8>
// IR: simd.hreduce <add> %{{.*}} : vector<4xi64> -> i64
// AVX2-LABEL: int64_t count_eq_u8(
// AVX2: _mm256_cmpeq_epi8(
// AVX2: _mm256_add_epi64({{.*}}, _mm256_sad_epu8({{.*}}, _mm256_setzero_si256()));
// SSE2-LABEL: int64_t count_eq_u8(
// SSE2: _mm_cmpeq_epi8(
// SSE2: _mm_add_epi64({{.*}}, _mm_sad_epu8({{.*}}, _mm_setzero_si128()));
// AVX512-LABEL: int64_t count_eq_u8(
// AVX512: __mmask64 {{.*}} = _mm512_cmp_epi8_mask({{.*}}, _MM_CMPINT_EQ);
// AVX512: _mm512_add_epi64({{.*}}, _mm512_sad_epu8({{.*}}, _mm512_setzero_si512()));
// NEON-LABEL: int64_t count_eq_u8(
// NEON: uint8x16_t {{.*}} = vceqq_s8(
// NEON: vpadalq_u32({{.*}}, vpaddlq_u16(vpaddlq_u8(
func.func @count_eq_u8(%x: !df.array<i8, [i]>, %c: i8) -> i64 {
  %zero = arith.constant 0 : i64
  %hit = df.map %x : !df.array<i8, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i8):
    %eq = arith.cmpi eq, %e, %c : i8
    %v = arith.extui %eq : i1 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%hit, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// A sign-extended sum of i16 into i32: pmaddwd by ones on x86, vpadalq_s16 on NEON.
// IR-LABEL: func.func @sum_i16_i32
// IR: simd.widen_add %{{.*}}, %{{.*}} signed : vector<8xi32>, vector<16xi16>
// AVX2-LABEL: int32_t sum_i16_i32(
// AVX2: _mm256_add_epi32({{.*}}, _mm256_madd_epi16({{.*}}, _mm256_set1_epi16(1)));
// SSE2-LABEL: int32_t sum_i16_i32(
// SSE2: _mm_add_epi32({{.*}}, _mm_madd_epi16({{.*}}, _mm_set1_epi16(1)));
// AVX512-LABEL: int32_t sum_i16_i32(
// AVX512: _mm512_add_epi32({{.*}}, _mm512_madd_epi16({{.*}}, _mm512_set1_epi16(1)));
// NEON-LABEL: int32_t sum_i16_i32(
// NEON: vpadalq_s16(
func.func @sum_i16_i32(%x: !df.array<i16, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %w = df.map %x : !df.array<i16, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i16):
    %v = arith.extsi %e : i16 to i32
    df.yield %v : i32
  }
  %s = df.reduce add(%w, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// A u8 map at full width: wrapping add, 8-bit multiply (on x86 two 16-bit mullo), unsigned
// compare (with all-ones-lane masks the sign bit flipped and a signed compare; AVX-512 BW has
// cmp_epu8_mask), signed min (SSE2 has only the unsigned byte min, so the bias flips it),
// shift by a constant (on x86 the 16-bit shift masked to bytes).
// IR-LABEL: func.func @bytes
// IR: arith.muli %{{.*}} : vector<32xi8>
// AVX2-LABEL: void bytes(
// AVX2: __m256i {{.*}} = _mm256_add_epi8(
// AVX2: __m256i {{.*}} = lo_mul_i8x32(
// AVX2: _mm256_cmpgt_epi8(_mm256_xor_si256({{.*}}, _mm256_set1_epi8((char)0x80)), _mm256_xor_si256(
// AVX2: _mm256_blendv_epi8(
// AVX2: __m256i {{.*}} = _mm256_min_epi8(
// AVX2: _mm256_and_si256(_mm256_srli_epi16({{.*}}, 2), _mm256_set1_epi8((char)((2) < 8 ? 0xFFu >> ((2) & 7) : 0u)));
// SSE2-LABEL: void bytes(
// SSE2: __m128i {{.*}} = lo_mul_i8x16(
// SSE2: _mm_xor_si128(_mm_min_epu8(_mm_xor_si128(
// AVX512-LABEL: void bytes(
// AVX512: __mmask64 {{.*}} = _mm512_cmp_epu8_mask({{.*}}, _MM_CMPINT_LT);
// AVX512: _mm512_mask_blend_epi8(
// NEON-LABEL: void bytes(
// NEON: int8x16_t {{.*}} = vmulq_s8(
// NEON: uint8x16_t {{.*}} = vcltq_u8(
// NEON: int8x16_t {{.*}} = vbslq_s8(
func.func @bytes(%x: !df.array<i8, [i]>, %y: !df.array<i8, [i]>) -> !df.array<i8, [i]> {
  %r = df.map %x, %y : !df.array<i8, [i]>, !df.array<i8, [i]> -> !df.array<i8, [i]> {
  ^bb0(%a: i8, %b: i8):
    %s = arith.addi %a, %b : i8
    %m = arith.muli %s, %b : i8
    %c = arith.cmpi ult, %m, %a : i8
    %t = arith.select %c, %s, %b : i8
    %u = arith.minsi %t, %b : i8
    %k = arith.constant 2 : i8
    %v = arith.shrui %u, %k : i8
    df.yield %v : i8
  }
  func.return %r : !df.array<i8, [i]>
}

// u16 division by a runtime value: through f32 on x86 (exact for 16-bit operands), lane by lane
// through the scalar row on NEON; per-lane i16 shifts: two 32-bit variable shifts on AVX2,
// vpsrlvw on AVX-512 BW.
// AVX2-LABEL: void div_shift_u16(
// AVX2: __m256i {{.*}} = lo_divu_f32_i16x16(
// AVX2: __m256i {{.*}} = lo_shru_i16x16(
// SSE2-LABEL: void div_shift_u16(
// SSE2: __m128i {{.*}} = lo_divu_f32_i16x8(
// AVX512-LABEL: void div_shift_u16(
// AVX512: __m512i {{.*}} = lo_divu_f32_i16x32(
// AVX512: __m512i {{.*}} = _mm512_srlv_epi16(
// NEON-LABEL: void div_shift_u16(
// NEON: int16x8_t {{.*}} = lo_lane_divu_i16x8(
func.func @div_shift_u16(%x: !df.array<i16, [i]>, %s: !df.array<i16, [i]>, %k: i16) -> !df.array<i16, [i]> {
  %r = df.map %x, %s : !df.array<i16, [i]>, !df.array<i16, [i]> -> !df.array<i16, [i]> {
  ^bb0(%a: i16, %b: i16):
    %q = arith.divui %a, %k : i16
    %v = arith.shrui %q, %b : i16
    df.yield %v : i16
  }
  func.return %r : !df.array<i16, [i]>
}
