// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512},canonicalize,cse' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2},canonicalize,cse' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2},canonicalize,cse' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar},canonicalize,cse' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0},canonicalize,cse' -t c | filecheck %s --check-prefix=NOSTREAM

// What the lowered kernels look like in C, the shapes a performance engineer writes:
// a filtered sum keeps K independent accumulators with only the add loop-carried and no
// count; a map is unrolled K times and, when its output is large at run time, peels to the
// output's alignment and streams it (then fences); compaction stores whole vectors while
// the cursor is a vector away from the capacity (branch-free on the scalar target).

func.func @positive_sum(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %zero : f32 add reassoc) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// AVX512-LABEL: float positive_sum(const float *restrict x, int64_t x_len)
// AVX512:         for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
// AVX512-NEXT:        __m512 e = _mm512_loadu_ps(&x[i]);
// AVX512-NEXT:        __mmask16 mask = _mm512_cmp_ps_mask(e, [[ZERO:.*]], _CMP_GT_OQ);
// AVX512-NEXT:        __m512 [[S0:.*]] = _mm512_maskz_mov_ps(mask, e);
// AVX512-NEXT:        acc_v = _mm512_add_ps(acc_v, [[S0]]);
// AVX512:             acc_v_1 = _mm512_add_ps(acc_v_1, {{.*}});
// AVX512:             acc_v_2 = _mm512_add_ps(acc_v_2, {{.*}});
// AVX512:             acc_v_3 = _mm512_add_ps(acc_v_3, {{.*}});
// AVX512-NOT:         popcount
// AVX512:         }
// AVX512:         _mm512_reduce_add_ps

// AVX2-LABEL:   float positive_sum(const float *restrict x, int64_t x_len)
// AVX2:           for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 32ull)) {
// AVX2:               __m256 [[S0:.*]] = _mm256_and_ps(_mm256_castsi256_ps(mask), e);
// AVX2-NEXT:          acc_v = _mm256_add_ps(acc_v, [[S0]]);
// AVX2:               _mm256_add_ps(acc_v_3,
// AVX2-NOT:           movemask
// AVX2:           }

// SSE2-LABEL:   float positive_sum(const float *restrict x, int64_t x_len)
// SSE2:           for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
// SSE2:               __m128 [[S0:.*]] = _mm_and_ps(_mm_castsi128_ps(mask), e);
// SSE2-NEXT:          _mm_add_ps(acc_v, [[S0]]);
// SSE2:               _mm_add_ps(acc_v_3,
// SSE2-NOT:           movemask
// SSE2:           }

// The scalar target: 4 accumulators (the sum allows reassociation), no branch.
// SCALAR-LABEL: float positive_sum(const float *restrict x, int64_t x_len)
// SCALAR:         for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 4ull)) {
// SCALAR-NEXT:        float e = x[i];
// SCALAR-NEXT:        _Bool mask = e > 0.0f;
// SCALAR-NEXT:        float [[SEL:.*]] = (mask) ? e : 0.0f;
// SCALAR-NEXT:        acc_v = acc_v + [[SEL]];
// SCALAR:             acc_v_3 = acc_v_3 + {{.*}};
// SCALAR:         }
// SCALAR-NOT:     if (

func.func @axpb(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %a: f32, %b: f32, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"]}) attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %s = math.fma %a, %e, %b : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// AVX512-LABEL: void axpb(
// AVX512:         _Bool stream = {{.*}} >= 4194304;
// the small-call copy (c_small_calls): the same loops after stream = 0, gcc folds the streaming ones away;
// a large call runs the out-of-line copy
// AVX512-NEXT:    if (!stream) {
// AVX512-NEXT:        stream = 0;
// AVX512:             int64_t peel = (stream) ? {{.*}} : 0;
// AVX512:             int64_t [[FENCES0:.*]] = (stream) ? 1 : 0;
// AVX512:         } else {
// AVX512-NEXT:        axpb__large(x, x_len, a, b, out, out_len);
// AVX512-NEXT:    }
// AVX512-NEXT:  }
// AVX512:       static lo_noinline void axpb__large(
// AVX512:         _Bool stream = {{.*}} >= 4194304;
// AVX512-NEXT:    int64_t [[AHEAD:.*]] = (int64_t)(((0u - (uintptr_t)&out[0]) & (64u - 1u)) / sizeof(out[0]));
// AVX512-NEXT:    int64_t [[BOUND:.*]] = [[AHEAD]] < trips ? [[AHEAD]] : trips;
// AVX512-NEXT:    int64_t peel = (stream) ? [[BOUND]] : 0;
// AVX512:         for (int64_t i = 0; i < peel; i++) {
// AVX512:         for (int64_t i = peel, i_left = ([[NTEND:[^)]*]]) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
// AVX512:             _mm512_stream_ps(&out[i], s);
// AVX512:             _mm512_stream_ps(&out[{{.*}}], s_1);
// AVX512:             _mm512_stream_ps(&out[{{.*}}], s_2);
// AVX512:             _mm512_stream_ps(&out[{{.*}}], s_3);
// AVX512-NEXT:    }
// AVX512-NEXT:    int64_t [[FENCES:.*]] = (stream) ? 1 : 0;
// AVX512-NEXT:    for (int64_t i = 0; i < [[FENCES]]; i++) {
// AVX512-NEXT:        _mm_sfence();
// AVX512-NEXT:    }
// AVX512:         for (int64_t i = [[NTEND]], i_left = ([[MAINEND:[^)]*]]) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
// AVX512:             _mm512_storeu_ps(&out[i], s);
// AVX512:             _mm512_storeu_ps(&out[{{.*}}], s_3);
// AVX512-NEXT:    }
// AVX512:         for (int64_t i = [[MAINEND]], i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
// AVX512:         for (int64_t i = {{.*}}; i < x_len; i++) {

// AVX2-LABEL:   void axpb(
// AVX2:           (32u - 1u)
// AVX2:           _mm256_stream_ps(&out[i], s);
// AVX2:           _mm_sfence();

// SSE2-LABEL:   void axpb(
// SSE2:           (16u - 1u)
// SSE2:           _mm_stream_ps(&out[i], s);
// SSE2:           _mm_sfence();

// NOSTREAM-LABEL: void axpb(
// NOSTREAM-NOT:     stream
// NOSTREAM:         for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
// NOSTREAM-NOT:     stream
// NOSTREAM:       }

func.func @scale_positive(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %a: f32, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.capacity = "i"}) -> index attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %count = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.append %m, %out : !loop.buf<f32>
  }
  func.return %count : index
}

// AVX2-LABEL:   int64_t scale_positive(
// AVX2:           for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 32ull)) {
// AVX2:               int64_t {{.*}} = lo_compress_full_f32x8(&out[cursor], m, mask);
// AVX2:           for (int64_t i = {{.*}}, i_left = (x_len) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 8ull)) {
// AVX2:               int64_t [[ROOM:.*]] = [[LEFT:.*]] > 0 ? [[LEFT]] : 0;
// AVX2-NEXT:          int64_t [[K:.*]];
// AVX2-NEXT:          if ([[ROOM]] >= 8) {
// AVX2-NEXT:              [[K]] = lo_compress_full_f32x8(&out[count], m, mask);
// AVX2-NEXT:          } else {
// AVX2-NEXT:              float spill[8];
// AVX2-NEXT:              [[K]] = lo_compress_full_f32x8(&spill[0], m, mask);
// AVX2-NEXT:              for (int64_t j = 0; j < [[K]] && j < [[ROOM]]; j++) out[(count) + j] = spill[j];
// AVX2-NEXT:          }

// SSE2-LABEL:   int64_t scale_positive(
// SSE2:               int64_t {{.*}} = lo_compress_full_f32x4(&out[cursor], m, mask);

// The scalar target: no branch per element in the main loop, `out[k] = v; k += c;` (4 per
// iteration); a branch only in the exact loop for what the capacity does not cover (normally empty).
// SCALAR-LABEL: int64_t scale_positive(
// SCALAR:         int64_t [[CAP:.*]] = out_len > 0 ? out_len : 0;
// SCALAR:         for (int64_t i = 0, i_left = ({{.*}}) > i ? {{.*}} : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 4ull)) {
// SCALAR-NEXT:        float e = x[i];
// SCALAR-NEXT:        _Bool mask = e > 0.0f;
// SCALAR-NEXT:        float m = a * e;
// SCALAR-NEXT:        out[cursor] = m;
// SCALAR-NEXT:        int64_t [[C:.*]] = (int64_t)(mask);
// SCALAR-NEXT:        int64_t [[NEXT:.*]] = cursor + [[C]];
// SCALAR-NEXT:        int64_t [[I1:.*]] = i + 1;
// SCALAR-NEXT:        float e_1 = x[[[I1]]];
// SCALAR:             out[[[NEXT]]] = m_1;
// SCALAR:         }
// SCALAR:         int64_t [[END:.*]] = trips < [[CAP]] ? trips : [[CAP]];
// SCALAR:         for (int64_t i = {{.*}}; i < [[END]]; i++) {
// SCALAR-NOT:         if (
// SCALAR:         }
// SCALAR:         for (int64_t i = [[END]]; i < x_len; i++) {
// SCALAR:             if ({{.*}} > 0) out[count] = m;
