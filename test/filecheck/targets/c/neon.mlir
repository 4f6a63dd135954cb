// RUN: loop-opt %s -t c | filecheck %s

// NEON: vfmaq (addend first), FMIN already propagates NaN, masks are uint32x4_t, across-lane
// reductions, LUT byte-permute compaction.
builtin.module attributes {loop.target = "neon"} {
  func.func @k(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64}, %i: index) -> (index, f32) attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<f32> -> vector<4xf32>
    %f = simd.fma %v, %v, %v : vector<4xf32>
    %mn = simd.min %f, %v : vector<4xf32>
    %m = simd.cmp <olt> %mn, %f : vector<4xf32> -> vector<4xi1>
    %s = simd.select %m, %mn, %f : vector<4xi1>, vector<4xf32>
    %k = simd.compress_store %s, %m, %out[%i] : vector<4xf32>, vector<4xi1>, !loop.buf<f32>
    %r = simd.hreduce <max> %s : vector<4xf32> -> f32
    func.return %k, %r : index, f32
  }
}

// CHECK:       #include <arm_neon.h>
// CHECK-NOT:   lo_compress_store
// CHECK:       static inline int64_t lo_compress_full_f32x4(float *p, float32x4_t v, uint32x4_t m)
// CHECK:       vqtbl1q_u8(vreinterpretq_u8_f32(v), vld1q_u8(lo_leftpack_bytes4[bits]))
// CHECK-LABEL: void k(const float *restrict x, int64_t x_len, float *restrict out, int64_t out_len, int64_t i, int64_t *restrict ret0, float *restrict ret1)
// CHECK:           float32x4_t v = vld1q_f32(&x[i]);
// CHECK-NEXT:      float32x4_t f = vfmaq_f32(v, v, v);
// CHECK-NEXT:      float32x4_t mn = vminq_f32(f, v);
// CHECK-NEXT:      uint32x4_t m = vcltq_f32(mn, f);
// CHECK-NEXT:      float32x4_t s = vbslq_f32(m, mn, f);
// An exact compress (hand-written IR: the lowering's are `full` or limited) through a spill.
// CHECK-NEXT:      int64_t k_1;
// CHECK-NEXT:      {
// CHECK-NEXT:          float spill[4];
// CHECK-NEXT:          k_1 = lo_compress_full_f32x4(&spill[0], s, m);
// CHECK-NEXT:          for (int64_t j = 0; j < k_1; j++) out[(i) + j] = spill[j];
// CHECK-NEXT:      }
// CHECK-NEXT:      float r = vmaxvq_f32(s);
// CHECK-NEXT:      *ret0 = k_1;
// CHECK-NEXT:      *ret1 = r;
