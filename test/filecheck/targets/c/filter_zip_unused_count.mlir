// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON

// A filter of two zipped arrays stores each with its own compress_store; the second store's
// count equals the first's and is unused: it is voided, not left as an unused variable that
// fails -Werror builds (found by the hostile-input fuzzer; test_c_warnings compiles this file).

func.func @pairs_where_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %a, %b = df.filter %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%e: f32, %f: f32):
    %c = arith.cmpf olt, %e, %f : f32
    df.yield %c : i1
  }
  func.return %a, %b : !df.array<f32, [k]>, !df.array<f32, [k]>
}

// SCALAR:      int64_t [[N0:v_[0-9]+]] = (int64_t)(mask);
// SCALAR:      int64_t [[N1:v_[0-9]+]] = (int64_t)(mask);
// SCALAR-NEXT: (void)[[N1]];
// AVX2:        lo_compress_{{.*}}(&out1
// AVX2-NEXT:   (void)
// AVX512:      out1
// AVX512:      (void)
// NEON:        int64_t [[N:v_[0-9]+]] = lo_compress_full_f32x4(&out1[cursor], f, mask);
// NEON-NEXT:   (void)[[N]];
