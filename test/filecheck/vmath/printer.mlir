// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// The printer calls the vector math helper of the ISA's width, prints only the helpers the kernel
// uses (exp here: no sin, log or pow code), each once, before the kernel; scalar tails and the
// scalar target call libm.

func.func @exp_map(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// f32 exp is a native f32 core (c_vmath.NATIVE_F32): f32 lanes, no f64 types.
// AVX2-NOT: lo_vd4
// AVX2: typedef float lo_vf8 __attribute__((vector_size(32)));
// AVX2-NOT: lo_vm_sin
// AVX2-NOT: lo_vm_log
// AVX2-NOT: lo_vd4
// AVX2: static inline lo_vf8 lo_vm_exp_f8(lo_vf8 x)
// AVX2: static inline __m256 lo_vm_exp_f32x8(__m256 x)
// AVX2-NOT: static inline {{.*}}lo_vm_exp_f32x8
// AVX2: void exp_map(
// AVX2: lo_vm_exp_f32x8(
// AVX2: expf(

// SSE2: static inline __m128 lo_vm_exp_f32x4(__m128 x)
// SSE2: void exp_map(
// SSE2: lo_vm_exp_f32x4(

// AVX512: static inline lo_vf16 lo_vm_exp_f16(lo_vf16 x)
// AVX512: static inline __m512 lo_vm_exp_f32x16(__m512 x)
// AVX512: lo_vm_exp_f32x16(

// NEON-NOT: vcvt_high_f64_f32
// NEON: static inline lo_vf4 lo_vm_exp_f4(lo_vf4 x)
// NEON: static inline float32x4_t lo_vm_exp_f32x4(float32x4_t x)
// NEON: lo_vm_exp_f32x4(

// SCALAR-NOT: lo_vm_
// SCALAR: expf(
