// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=IR

// fastmath<afn> (or <fast>, which includes it) on an f32 math.exp / math.exp2 selects the fast core
// (c_vmath.AFN_F32: FMA, a short polynomial); every other flag set, no flag, f64 and the other functions
// print the accurate helper; scalar tails and the scalar target call libm. An afn exp and a plain exp
// of the same value stay two ops (CSE compares the fastmath property) and call two helpers, in one map
// or in two maps that fusion joins.

func.func @afn_exp(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp %v fastmath<afn> : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @fast_exp2(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp2 %v fastmath<fast> : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @other_flags(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %a = math.exp %v fastmath<none> : f32
    %b = math.exp %a fastmath<reassoc,contract> : f32
    %c = math.exp2 %b fastmath<nnan,ninf,nsz,arcp> : f32
    df.yield %c : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @afn_f64_and_log(%x: !df.array<f64, [i]>, %z: !df.array<f32, [i]>) -> (!df.array<f64, [i]>, !df.array<f32, [i]>) {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%v: f64):
    %e = math.exp %v fastmath<afn> : f64
    df.yield %e : f64
  }
  %w = df.map %z : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %l = math.log %v fastmath<fast> : f32
    df.yield %l : f32
  }
  func.return %y, %w : !df.array<f64, [i]>, !df.array<f32, [i]>
}

func.func @afn_and_plain(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %a = math.exp %v fastmath<afn> : f32
    %b = math.exp %v : f32
    %s = arith.addf %a, %b : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @two_maps(%x: !df.array<f32, [i]>) -> (!df.array<f32, [i]>, !df.array<f32, [i]>) {
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp %v fastmath<afn> : f32
    df.yield %e : f32
  }
  %b = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    df.yield %e : f32
  }
  func.return %a, %b : !df.array<f32, [i]>, !df.array<f32, [i]>
}

// IR-LABEL: func.func @afn_and_plain
// IR: math.exp %{{.*}} fastmath<afn> : vector<8xf32>
// IR-NEXT: math.exp %{{[a-z0-9_]+}} : vector<8xf32>
// IR-LABEL: func.func @two_maps
// IR-DAG: math.exp %{{.*}} fastmath<afn> : vector<8xf32>
// IR-DAG: math.exp %{{[a-z0-9_]+}} : vector<8xf32>

// AVX2: static inline lo_vf8 lo_vm_fma_f8(lo_vf8 a, lo_vf8 b, lo_vf8 c)
// AVX2-NEXT: {
// AVX2-NEXT: return (lo_vf8)(_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c));
// AVX2: static inline __m256 lo_vm_exp_afn_f32x8(__m256 x)
// AVX2: static inline __m256 lo_vm_exp2_afn_f32x8(__m256 x)
// AVX2-LABEL: void afn_exp(
// AVX2-NOT: lo_vm_exp_f32x8(
// AVX2: lo_vm_exp_afn_f32x8(
// AVX2-NOT: lo_vm_exp_f32x8(
// AVX2: expf(
// AVX2-LABEL: void fast_exp2(
// AVX2-NOT: lo_vm_exp2_f32x8(
// AVX2: lo_vm_exp2_afn_f32x8(
// AVX2-NOT: lo_vm_exp2_f32x8(
// AVX2: exp2f(
// AVX2-LABEL: void other_flags(
// AVX2-NOT: _afn_
// AVX2: lo_vm_exp_f32x8(
// AVX2-NOT: _afn_
// AVX2: lo_vm_exp_f32x8(
// AVX2-NOT: _afn_
// AVX2: lo_vm_exp2_f32x8(
// AVX2-NOT: _afn_
// AVX2-LABEL: void afn_f64_and_log(
// AVX2-NOT: _afn_
// AVX2: lo_vm_exp_f64x4(
// AVX2-NOT: _afn_
// AVX2: lo_vm_log_f32x8(
// AVX2-NOT: _afn_
// AVX2-LABEL: void afn_and_plain(
// AVX2: lo_vm_exp_afn_f32x8(
// AVX2-NEXT: lo_vm_exp_f32x8(
// AVX2-LABEL: void two_maps(
// AVX2-DAG: lo_vm_exp_afn_f32x8(
// AVX2-DAG: lo_vm_exp_f32x8(

// SSE2: static inline lo_vf4 lo_vm_fma_f4(lo_vf4 a, lo_vf4 b, lo_vf4 c)
// SSE2-NEXT: {
// SSE2-NEXT: return (lo_vf4)((__m128)a * (__m128)b + (__m128)c);
// SSE2-LABEL: void afn_exp(
// SSE2: lo_vm_exp_afn_f32x4(
// SSE2-LABEL: void fast_exp2(
// SSE2: lo_vm_exp2_afn_f32x4(
// SSE2-LABEL: void other_flags(
// SSE2-NOT: _afn_
// SSE2-LABEL: void afn_and_plain(
// SSE2: lo_vm_exp_afn_f32x4(
// SSE2-NEXT: lo_vm_exp_f32x4(

// AVX512: return (lo_vf16)(_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c));
// AVX512-LABEL: void afn_exp(
// AVX512: lo_vm_exp_afn_f32x16(

// NEON: return (lo_vf4)(vfmaq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b));
// NEON-LABEL: void afn_exp(
// NEON: lo_vm_exp_afn_f32x4(

// SCALAR-NOT: lo_vm_
// SCALAR-LABEL: void afn_exp(
// SCALAR: expf(
// SCALAR-LABEL: void fast_exp2(
// SCALAR: exp2f(
