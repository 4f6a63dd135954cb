// RUN: loop-opt %s --split-input-file | filecheck %s --check-prefix=IR
// RUN: loop-opt %s --split-input-file -t c | filecheck %s

// `simd.load ... halves` (a speed hint: CpuModel.half_load_bytes) prints as two 256-bit loads
// with the high half inserted on AVX-512, for every element type; ISAs without the form
// (AVX2's vectors are 256 bits already, SSE2, NEON) print their one load.

builtin.module attributes {loop.target = "avx512"} {
  func.func @wide(%x: !loop.buf<f64> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %z: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"]}, %o64: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}, %o32: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}, %i: index) attributes {loop.kernel} {
    %v = simd.load %x[%i] halves : !loop.buf<f64> -> vector<8xf64>
    %w = simd.load %y[%i] halves : !loop.buf<i64> -> vector<8xi64>
    %u = simd.load %z[%i] aligned halves : !loop.buf<i32> -> vector<16xi32>
    simd.store %v, %out[%i] : vector<8xf64>, !loop.buf<f64>
    simd.store %w, %o64[%i] : vector<8xi64>, !loop.buf<i64>
    simd.store %u, %o32[%i] : vector<16xi32>, !loop.buf<i32>
    func.return
  }
}

// IR:      simd.load %{{.*}}[%{{.*}}] halves : !loop.buf<f64> -> vector<8xf64>
// IR:      simd.load %{{.*}}[%{{.*}}] aligned halves : !loop.buf<i32> -> vector<16xi32>

// CHECK-LABEL: void wide(
// CHECK:       = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(&x[i])), _mm256_loadu_pd(&x[(i) + 4]), 1);
// CHECK:       = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)&y[i])), _mm256_loadu_si256((const __m256i *)&y[(i) + 4]), 1);
// CHECK:       = _mm512_inserti32x8(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)&z[i])), _mm256_loadu_si256((const __m256i *)&z[(i) + 8]), 1);

// -----

builtin.module attributes {loop.target = "avx2"} {
  func.func @narrow(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"]}, %i: index) attributes {loop.kernel} {
    %v = simd.load %x[%i] halves : !loop.buf<f32> -> vector<8xf32>
    simd.store %v, %out[%i] : vector<8xf32>, !loop.buf<f32>
    func.return
  }
}

// CHECK-LABEL: void narrow(
// CHECK:       __m256 v = _mm256_loadu_ps(&x[i]);

// -----

builtin.module attributes {loop.target = "sse2"} {
  func.func @narrow(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"]}, %i: index) attributes {loop.kernel} {
    %v = simd.load %x[%i] halves : !loop.buf<f32> -> vector<4xf32>
    simd.store %v, %out[%i] : vector<4xf32>, !loop.buf<f32>
    func.return
  }
}

// CHECK-LABEL: void narrow(
// CHECK:       __m128 v = _mm_loadu_ps(&x[i]);
