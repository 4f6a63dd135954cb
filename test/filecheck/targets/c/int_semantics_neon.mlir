// RUN: loop-opt %s -t c | filecheck %s

// NEON integer arithmetic runs on the unsigned lanes: GCC's arm_neon.h spells vaddq_s32 as
// signed C vector addition and folds (x + 1) < x to false. Shifts check the amount as unsigned
// (vshlq reads only its low byte, signed); the integer sum reduces the unsigned lanes; unsigned
// compares are vcltq_u32 on reinterpreted lanes.
builtin.module attributes {loop.target = "neon"} {
  func.func @ops(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %i: index, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}) -> i32 attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<4xi32>
    %a = arith.addi %v, %v : vector<4xi32>
    %m = arith.muli %a, %v : vector<4xi32>
    %l = arith.shli %m, %v : vector<4xi32>
    %r = arith.shrsi %l, %v : vector<4xi32>
    %n = math.absi %r : vector<4xi32>
    simd.store %n, %out[%i] : vector<4xi32>, !loop.buf<i32>
    %s = simd.hreduce <add> %n : vector<4xi32> -> i32
    func.return %s : i32
  }
}

// CHECK-NOT:   vaddq_s32
// CHECK-NOT:   vmulq_s32
// CHECK-LABEL: static inline int32x4_t lo_shl_i32x4(int32x4_t a, int32x4_t b)
// CHECK-NEXT:  {
// CHECK-NEXT:      uint32x4_t ok = vcltq_u32(vreinterpretq_u32_s32(b), vdupq_n_u32(32));
// CHECK-NEXT:      return vreinterpretq_s32_u32(vandq_u32(vshlq_u32(vreinterpretq_u32_s32(a), vbslq_s32(ok, b, vdupq_n_s32(0))), ok));
// CHECK-LABEL: static inline int32x4_t lo_shrs_i32x4(int32x4_t a, int32x4_t b)
// CHECK-NEXT:  {
// CHECK-NEXT:      uint32x4_t ok = vcltq_u32(vreinterpretq_u32_s32(b), vdupq_n_u32(32));
// CHECK-NEXT:      uint32x4_t amount = vbslq_u32(ok, vreinterpretq_u32_s32(b), vdupq_n_u32(31));
// CHECK-NEXT:      return vshlq_s32(a, vreinterpretq_s32_u32(vsubq_u32(vdupq_n_u32(0), amount)));
// CHECK-LABEL: static inline int32x4_t lo_abs_i32x4(int32x4_t a)
// CHECK-NEXT:  {
// CHECK-NEXT:      uint32x4_t sign = vcltzq_s32(a);
// CHECK-NEXT:      return vreinterpretq_s32_u32(vsubq_u32(veorq_u32(vreinterpretq_u32_s32(a), sign), sign));

// CHECK-LABEL: int32_t ops(
// CHECK:           int32x4_t a = vreinterpretq_s32_u32(vaddq_u32(vreinterpretq_u32_s32(v), vreinterpretq_u32_s32(v)));
// CHECK-NEXT:      int32x4_t m = vreinterpretq_s32_u32(vmulq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(v)));
// CHECK-NEXT:      int32x4_t l = lo_shl_i32x4(m, v);
// CHECK-NEXT:      int32x4_t r = lo_shrs_i32x4(l, v);
// CHECK-NEXT:      int32x4_t n = lo_abs_i32x4(r);
// CHECK-NEXT:      vst1q_s32(&out[i], n);
// CHECK-NEXT:      int32_t s = (int32_t)vaddvq_u32(vreinterpretq_u32_s32(n));
