// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 parallel=2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar parallel=2}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=SERIAL
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c | filecheck %s --check-prefix=NAMES
// A parallel map streams its output when the *whole call's* output reaches the CPU's
// streaming threshold (zen4: 16 MiB), not when one chunk's does: the chunk takes the call's n
// last (lo_whole) and its decision scales its bytes per element by it. Otherwise an output
// between the threshold and t times it would be streamed serially and stored plainly (with
// read-for-ownership traffic) by t threads. Serial C is unchanged.

// CHECK-LABEL: static void axpb__chunk(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len, int64_t lo_whole)
// CHECK:         int64_t [[BYTES:v[_0-9]*]] = trips * 4;
// CHECK-NEXT:    _Bool stream = [[BYTES]] / (x_len > 0 ? x_len : 1) * lo_whole >= 16777216; /* the whole call's output */
// CHECK:         _mm512_stream_ps(
// CHECK-LABEL: static float sum__chunk(const float *restrict x, int64_t x_len)
// CHECK-LABEL: void axpb(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// CHECK:         const int64_t lo_n = x_len;
// CHECK:           axpb__chunk(x, x_len, a, b, out, out_len, lo_n); return;
// CHECK:           axpb__chunk(x, x_len, a, b, out, out_len, lo_n); return;
// CHECK:           axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len, lo_n);
// CHECK-LABEL: float sum(const float *restrict x, int64_t x_len)
// CHECK-NOT:     lo_whole
// CHECK:           lo_part0[lo_c] = sum__chunk(x + lo_lo, lo_len);

// SSE2-LABEL: static void axpb__chunk({{.*}}, int64_t out_len, int64_t lo_whole)
// SSE2:         _Bool stream = {{v[_0-9]*}} / (x_len > 0 ? x_len : 1) * lo_whole >= 4194304; /* the whole call's output */
// SSE2:         _mm_stream_ps(
// SSE2:         axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len, lo_n);

// SCALAR-NOT:   lo_whole
// SCALAR:       static void axpb__chunk(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// SCALAR:       axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len);

// SERIAL-NOT:   lo_whole
// SERIAL:       void axpb(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// SERIAL:         _Bool stream = v >= 16777216;
func.func @axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// A parameter named lo_whole: the printer reserves lo_ names (v_lo_whole), so the chunk's
// extra parameter keeps its name.
// NAMES-LABEL: static void scale__chunk(const float *restrict x, int64_t x_len, float v_lo_whole, float *restrict out, int64_t out_len, int64_t lo_whole)
// NAMES:         _Bool stream = {{v[_0-9]*}} / (x_len > 0 ? x_len : 1) * lo_whole >= 16777216; /* the whole call's output */
// NAMES-LABEL: void scale(
// NAMES:           scale__chunk(x + lo_lo, lo_len, v_lo_whole, out + lo_lo, lo_len, lo_n);
func.func @scale(%x: !df.array<f32, [i]>, %lo_whole: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %lo_whole, %e : f32
    df.yield %m : f32
  }
  func.return %r : !df.array<f32, [i]>
}
