// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// f32 sin, cos and tanh are native f32 cores (c_vmath.NATIVE_F32): the f32 wrapper casts to float
// lanes, never widens to f64 halves with the ISA's intrinsics and calls no f64 core or libm: sin and cos
// reduce 6400 < |x| <= 2^21 with the f64 core's Cody-Waite reduction only (lo_vm_trigmid_f, out of line
// in lo_vm_sincoswide_f) and larger |x| by Payne-Hanek on 64-bit integer lanes (lo_vm_trigbig_f);
// tanh needs no f64 code at all.

func.func @trig_map(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %s = math.sin %v : f32
    %c = math.cos %v : f32
    %t = arith.addf %s, %c : f32
    df.yield %t : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @tanh_map(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.tanh %v : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// AVX2-NOT: _mm256_cvtps_pd
// AVX2: static inline lo_vi8 lo_vm_trigred_f8(lo_vf8 ax, lo_vf8 *r, lo_vf8 *rl)
// AVX2: static inline lo_vl4 lo_vm_trigred_d4(lo_vd4 ax, lo_vd4 *r, lo_vd4 *rl)
// AVX2: static inline lo_vi8 lo_vm_trigmid_f8(lo_vf8 ax, lo_vf8 *r, lo_vf8 *rl)
// AVX2: static const unsigned lo_vm_2opi_bits[24] = {
// AVX2: static inline lo_vd4 lo_vm_pio2big_d4(lo_vq4 b, lo_vl4 *n)
// AVX2: static inline lo_vi8 lo_vm_trigbig_f8(lo_vi8 b, lo_vf8 *r, lo_vf8 *rl)
// AVX2: static __attribute__((noinline)) lo_vf8 lo_vm_sincoswide_f8(lo_vf8 x, int cosine)
// AVX2-NOT: {{= sinf?\(}}
// AVX2: static inline lo_vf8 lo_vm_sincos_f8(lo_vf8 x, int cosine)
// AVX2: y = lo_vm_sel_f8(wide, lo_vm_sincoswide_f8(x, cosine), y);
// AVX2-NOT: lo_vm_sin_d4
// AVX2: static inline lo_vf8 lo_vm_sin_f8(lo_vf8 x)
// AVX2: static inline __m256 lo_vm_sin_f32x8(__m256 x)
// AVX2-NEXT: {
// AVX2-NEXT: return (__m256)lo_vm_sin_f8((lo_vf8)x);
// AVX2: static inline lo_vf8 lo_vm_cos_f8(lo_vf8 x)
// AVX2: static inline __m256 lo_vm_cos_f32x8(__m256 x)
// AVX2-NEXT: {
// AVX2-NEXT: return (__m256)lo_vm_cos_f8((lo_vf8)x);
// AVX2-NOT: lo_vm_tanh_d4
// AVX2: static inline lo_vf8 lo_vm_tanh_f8(lo_vf8 x)
// AVX2: static inline __m256 lo_vm_tanh_f32x8(__m256 x)
// AVX2-NEXT: {
// AVX2-NEXT: return (__m256)lo_vm_tanh_f8((lo_vf8)x);
// AVX2-NOT: _mm256_cvtps_pd
// AVX2: void trig_map(
// AVX2: lo_vm_sin_f32x8(
// AVX2: lo_vm_cos_f32x8(
// AVX2: void tanh_map(
// AVX2: lo_vm_tanh_f32x8(
// AVX2: tanhf(

// SSE2-NOT: _mm_cvtps_pd
// SSE2: return (__m128)lo_vm_sin_f4((lo_vf4)x);
// SSE2: return (__m128)lo_vm_cos_f4((lo_vf4)x);
// SSE2: return (__m128)lo_vm_tanh_f4((lo_vf4)x);
// SSE2-NOT: _mm_cvtps_pd

// AVX512-NOT: _mm512_cvtps_pd
// AVX512: y = lo_vm_sel_f16(wide, lo_vm_sincoswide_f16(x, cosine), y);
// AVX512-NOT: lo_vm_sin_d8
// AVX512: return (__m512)lo_vm_sin_f16((lo_vf16)x);
// AVX512: return (__m512)lo_vm_cos_f16((lo_vf16)x);
// AVX512: return (__m512)lo_vm_tanh_f16((lo_vf16)x);
// AVX512-NOT: _mm512_cvtps_pd

// NEON-NOT: vcvt_high_f64_f32
// NEON: return (float32x4_t)lo_vm_sin_f4((lo_vf4)x);
// NEON: return (float32x4_t)lo_vm_cos_f4((lo_vf4)x);
// NEON: return (float32x4_t)lo_vm_tanh_f4((lo_vf4)x);
// NEON-NOT: vcvt_high_f64_f32

// SCALAR-NOT: lo_vm_
// SCALAR: sinf(
// SCALAR: cosf(
// SCALAR: tanhf(
