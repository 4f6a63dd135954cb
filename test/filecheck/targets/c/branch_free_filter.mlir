// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 remarks=true}' -t c 2>&1 | filecheck %s --check-prefixes=CHECK,VEC,SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 remarks=true}' -t c 2>&1 | filecheck %s --check-prefixes=CHECK,VEC,AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 remarks=true}' -t c 2>&1 | filecheck %s --check-prefixes=CHECK,VEC,AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon remarks=true}' -t c 2>&1 | filecheck %s --check-prefixes=CHECK,VEC,NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar remarks=true}' -t c 2>&1 | filecheck %s --check-prefixes=CHECK,SCALAR

// Filters that stay scalar loops (f16/bf16 storage on every target, a compaction of f32 values
// in a loop of 64-bit lanes on the vector targets, a float sum without reassoc) print
// branch-free (targets/c_print_loops.py): the body runs on every element, each output is
// stored at the cursor, the cursor advances by the predicate, accumulators select. Up to
// min(trips, capacity) the stores are unconditional (the cursor never passes the iterations
// done); past it (an output shorter than the input) each store tests the cursor against its
// capacity. No `if` on the predicate.

func.func @keep_f16(%x: !df.array<f16, [i]>, %a: f32) -> !df.array<f16, [k]> {
  %r = df.filter %x : !df.array<f16, [i]> -> !df.array<f16, [k]> {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    %c = arith.cmpf ogt, %w, %a : f32
    df.yield %c : i1
  }
  func.return %r : !df.array<f16, [k]>
}

func.func @keep_pairs_bf16(%x: !df.array<bf16, [i]>, %y: !df.array<bf16, [i]>, %a: f32) -> (!df.array<bf16, [k]>, !df.array<bf16, [k]>) {
  %r, %s = df.filter %x, %y : !df.array<bf16, [i]>, !df.array<bf16, [i]> -> !df.array<bf16, [k]>, !df.array<bf16, [k]> {
  ^bb0(%e: bf16, %f: bf16):
    %w = arith.extf %e : bf16 to f32
    %c = arith.cmpf ogt, %w, %a : f32
    df.yield %c : i1
  }
  func.return %r, %s : !df.array<bf16, [k]>, !df.array<bf16, [k]>
}

func.func @keep_big_squares(%x: !df.array<f32, [i]>, %t: f64) -> !df.array<f32, [k]> {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.extf %e : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.cmpf ogt, %s, %t : f64
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

func.func @sum_above(%x: !df.array<f32, [i]>, %a: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32 where {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %a : f32
    df.yield %c : i1
  }
  func.return %s : f32
}

// SSE2:         remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.append of f32 in a loop of 64-bit lanes
// CHECK-LABEL: int64_t keep_f16(
// CHECK:         int64_t count = 0;
// CHECK-NEXT:    int64_t capacity = out_len;
// CHECK-NEXT:    if (capacity < 0) capacity = 0; /* a caller's negative length holds nothing */
// CHECK-NEXT:    int64_t stop = x_len > capacity ? capacity : x_len;
// CHECK-NEXT:    #pragma GCC unroll 4
// CHECK-NEXT:    for (int64_t i = 0; i < stop; i++) {
// CHECK-NOT:       if (
// CHECK:           _Bool [[C:[a-z0-9_]+]] = {{.*}} > a;
// CHECK-NOT:       if (
// CHECK:           out[count] = [[V:[a-z0-9_]+]];
// CHECK-NEXT:      count += [[C]];
// CHECK-NEXT:    }
// CHECK-NEXT:    for (int64_t i = stop; i < x_len; i++) {
// CHECK:           _Bool [[C:[a-z0-9_]+]] = {{.*}} > a;
// CHECK:           if (count < out_len) {
// CHECK-NEXT:        out[count] = {{.*}};
// CHECK-NEXT:      }
// CHECK-NEXT:      count += [[C]];
// CHECK-NEXT:    }
// CHECK-NEXT:    return count;

// Two outputs at one cursor: the unconditional part ends at the smaller capacity.
// Two inputs: the loops run to x_len only when y holds as many (the input axis guard).
// CHECK-LABEL: void keep_pairs_bf16(
// CHECK:         _Bool fits_i = x_len <= y_len;
// CHECK-NEXT:    int64_t n_i = (fits_i) ? x_len : 0;
// CHECK:         int64_t capacity = out0_len < out1_len ? out0_len : out1_len;
// CHECK-NEXT:    if (capacity < 0) capacity = 0; /* a caller's negative length holds nothing */
// CHECK-NEXT:    int64_t stop = n_i > capacity ? capacity : n_i;
// CHECK-NEXT:    #pragma GCC unroll 4
// CHECK-NEXT:    for (int64_t i = 0; i < stop; i++) {
// CHECK-NOT:       if (
// CHECK:           out0[count] = {{.*}};
// CHECK-NEXT:      out1[count] = {{.*}};
// CHECK-NEXT:      count += {{.*}};
// CHECK:         for (int64_t i = stop; i < n_i; i++) {
// CHECK:           if (count < out0_len) {
// CHECK:           if (count < out1_len) {

// SCALAR-LABEL: int64_t keep_big_squares(
// SCALAR-NOT:     pragma
// SSE2-LABEL:   int64_t keep_big_squares(
// SSE2:           #pragma GCC unroll 4
// SSE2-NEXT:      for (int64_t i = 0; i < stop; i++) {
// SSE2-NOT:         if (
// SSE2:             out[count] = {{.*}};
// SSE2-NEXT:        count += {{.*}};
// AVX2-LABEL:   int64_t keep_big_squares(
// AVX2:           #pragma GCC unroll 4
// AVX2-NOT:         if (
// AVX2:             out[count] = {{.*}};
// AVX512-LABEL: int64_t keep_big_squares(
// AVX512:         #pragma GCC unroll 4
// AVX512-NOT:       if (
// AVX512:           out[count] = {{.*}};
// NEON-LABEL:   int64_t keep_big_squares(
// NEON:           #pragma GCC unroll 4
// NEON-NOT:         if (
// NEON:             out[count] = {{.*}};

// A float sum without reassoc (loop-vectorize declines it): one chain in element order, the
// kept ones selected; the scalar target's own width-1 lowering selects alike.
// VEC-LABEL:  float sum_above(
// VEC:          #pragma GCC unroll 4
// VEC-NEXT:     for (int64_t i = 0; i < x_len; i++) {
// VEC-NOT:        if (
// VEC:            float [[T:[a-z0-9_]+]] = s + {{.*}};
// VEC-NEXT:       s = {{[a-z0-9_]+}} ? [[T]] : s;
// VEC-NEXT:     }
// VEC-NEXT:     return s;
// SCALAR-LABEL: float sum_above(
// SCALAR-NOT:     if (
// SCALAR:         acc_v = (mask) ? v : acc_v;
