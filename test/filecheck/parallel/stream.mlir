// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=IRSERIAL
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 parallel=2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar parallel=2}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=SERIAL
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c | filecheck %s --check-prefix=NAMES
// A parallel map streams its output when the *whole call's* output reaches the CPU's
// streaming threshold (zen4: 16 MiB), not when one chunk's does. The decision is the
// lowering's (loop_to_simd/vecloop.call_trips): in a kernel with a loop.parallel plan it
// reads `loop.call_dim` (the whole call's length) instead of the loop's trips; the C printer
// makes that the chunk's last parameter (loopopt_call_len) and the driver passes its n.
// Otherwise an output between the threshold and t times it would be streamed serially and
// stored plainly (with read-for-ownership traffic) by t threads. Serial IR and C unchanged.

// IR-LABEL:  func.func @axpb(
// IR:          %len_i = loop.dim %x, 0 : !loop.buf<f32>
// The axis guard (x's length when out holds as many): the driver runs the chunks only when
// every buffer is at least as long as x, so in a chunk it always holds.
// IR:          %n_i = arith.select %fits_i, %len_i, %c0 : index
// IR:          %call_len = loop.call_dim %x : !loop.buf<f32>
// A C caller's negative length is an empty call: clamped like the serial trips (no overflow below).
// IR-NEXT:     %[[WHOLE:.*]] = arith.maxsi %call_len, %c0 : index
// The aligning head's upper bound (in the LLC) is the whole call's too (one call_dim).
// IR-NEXT:     %{{.*}} = arith.constant 4194304 : index
// IR-NEXT:     %in_llc = arith.cmpi sle, %[[WHOLE]], %{{.*}} : index
// IR-NOT:      loop.call_dim
// IR:          %[[SZ:.*]] = arith.constant 4 : index
// IR-NEXT:     %[[BYTES:.*]] = arith.muli %[[WHOLE]], %[[SZ]] : index
// IR-NEXT:     %[[T:.*]] = arith.constant 16777216 : index
// IR-NEXT:     %stream = arith.cmpi sge, %[[BYTES]], %[[T]] : index
// IR:          simd.store {{.*}} aligned nontemporal
// A parallel fold decides where its data lives from the whole call too (call_trips): a
// 16 Mi-element call's 64 Ki-element chunks walk the K streams of a fold beyond the LLC
// (zen4: 4 streams) and skip the aligning head (which only pays in the LLC), as the serial
// kernel does; from the chunk's own trips they never would (session 26: the parallel sum on
// one thread was 1.40x slower than the serial one on Zen 3). The aligning head's lower bound
// (`aligned`: enough data to amortize the peel) stays the chunk's.
// IR-LABEL:  func.func @sum(
// IR:          %aligned = arith.cmpi sgt, %trips, %{{.*}} : index
// IR:          %call_len = loop.call_dim %x : !loop.buf<f32>
// IR-NEXT:     %[[WHOLE:.*]] = arith.maxsi %call_len, %c0 : index
// IR-NEXT:     %[[LLC:.*]] = arith.constant 8388608 : index
// IR-NEXT:     %in_llc = arith.cmpi sle, %[[WHOLE]], %[[LLC]] : index
// IR-NOT:      loop.call_dim
// IR:          %beyond_llc = arith.cmpi sgt, %[[WHOLE]], %[[LLC]] : index
// IR:          %per_stream = arith.divsi
// IR-LABEL:  func.func @scale(

// IRSERIAL-NOT: loop.call_dim
// IRSERIAL:     %trips = arith.maxsi %n_i, %c0 : index
// IRSERIAL:     %[[BYTES:.*]] = arith.muli %trips, %{{.*}} : index
// IRSERIAL:     %stream = arith.cmpi sge, %[[BYTES]], %{{.*}} : index

// CHECK-LABEL: static void axpb__chunk(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len, int64_t loopopt_call_len)
// CHECK:         int64_t [[WHOLE:v[_0-9]*]] = loopopt_call_len > 0 ? loopopt_call_len : 0;
// CHECK-NEXT:    int64_t [[BYTES:v[_0-9]*]] = [[WHOLE]] * 4;
// CHECK-NEXT:    _Bool stream = [[BYTES]] >= 16777216;
// CHECK:         _mm512_stream_ps(
// CHECK-LABEL: static float sum__chunk(const float *restrict x, int64_t x_len, int64_t loopopt_call_len)
// CHECK:         int64_t [[WHOLE:v[_0-9]*]] = loopopt_call_len > 0 ? loopopt_call_len : 0;
// CHECK:         _Bool beyond_llc = [[WHOLE]] > 8388608;
// CHECK-LABEL: void axpb(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// CHECK:         const int64_t lo_n = x_len;
// CHECK:           axpb__chunk(x, x_len, a, b, out, out_len, lo_n); return;
// CHECK:           axpb__chunk(x, x_len, a, b, out, out_len, lo_n); return;
// CHECK:           axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len, lo_n);
// CHECK-LABEL: float sum(const float *restrict x, int64_t x_len)
// CHECK:           return sum__chunk(x, x_len, lo_n);
// CHECK:           lo_part0[lo_c] = sum__chunk(x + lo_lo, lo_len, lo_n);

// SSE2-LABEL: static void axpb__chunk({{.*}}, int64_t out_len, int64_t loopopt_call_len)
// SSE2:         int64_t [[WHOLE:v[_0-9]*]] = loopopt_call_len > 0 ? loopopt_call_len : 0;
// SSE2-NEXT:    int64_t [[BYTES:v[_0-9]*]] = [[WHOLE]] * 4;
// SSE2-NEXT:    _Bool stream = [[BYTES]] >= 4194304;
// SSE2:         _mm_stream_ps(
// SSE2:         axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len, lo_n);

// SCALAR-NOT:   loopopt_call_len
// SCALAR:       static void axpb__chunk(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// SCALAR:       axpb__chunk(x + lo_lo, lo_len, a, b, out + lo_lo, lo_len);

// SERIAL-NOT:   loopopt_call_len
// SERIAL:       void axpb(const float *restrict x, int64_t x_len, float a, float b, float *restrict out, int64_t out_len)
// SERIAL:         _Bool stream = {{.*}} >= 16777216;
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

// A parameter named loopopt_call_len: the printer reserves the loopopt prefix
// (v_loopopt_call_len), so the chunk's extra parameter keeps its name.
// NAMES-LABEL: static void scale__chunk(const float *restrict x, int64_t x_len, float v_loopopt_call_len, float *restrict out, int64_t out_len, int64_t loopopt_call_len)
// NAMES:         int64_t [[WHOLE:v[_0-9]*]] = loopopt_call_len > 0 ? loopopt_call_len : 0;
// NAMES-NEXT:    int64_t [[BYTES:v[_0-9]*]] = [[WHOLE]] * 4;
// NAMES-NEXT:    _Bool stream = [[BYTES]] >= 16777216;
// NAMES-LABEL: void scale(
// NAMES:           scale__chunk(x + lo_lo, lo_len, v_loopopt_call_len, out + lo_lo, lo_len, lo_n);
func.func @scale(%x: !df.array<f32, [i]>, %loopopt_call_len: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %loopopt_call_len, %e : f32
    df.yield %m : f32
  }
  func.return %r : !df.array<f32, [i]>
}
