// RUN: loop-opt %s -t c | filecheck %s
// RUN: loop-opt %s -t c | cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c -

// SSA name hints are user text too. They become C locals only when loopopt.names accepts
// them; otherwise non-identifier characters become '_' and a keyword, libc, intrinsic,
// macro or reserved name gets the prefix v_ (the C still compiles, nothing is shadowed).

func.func @hints(%malloc: f32, %x.y: f32, %int: f32, %a$b: f32, %int64_t: i64) -> f32 attributes {loop.kernel} {
  %sqrtf = arith.addf %malloc, %x.y : f32
  %NAN = arith.mulf %sqrtf, %int : f32
  %_mm_add_ps = arith.subf %NAN, %a$b : f32
  %lo_hreduce_add_f32x8 = arith.mulf %_mm_add_ps, %_mm_add_ps : f32
  %INT64_C = arith.sitofp %int64_t : i64 to f32
  %n-1 = arith.addf %lo_hreduce_add_f32x8, %INT64_C : f32
  %sqrt = math.sqrt %n-1 : f32
  func.return %sqrt : f32
}
// CHECK-LABEL: float hints(float v_malloc, float x_y, float v_int, float a_b, int64_t v_int64_t)
// CHECK-NEXT:  {
// CHECK-NEXT:      float v_sqrtf = v_malloc + x_y;
// CHECK-NEXT:      float v_NAN = v_sqrtf * v_int;
// CHECK-NEXT:      float v_mm_add_ps = v_NAN - a_b;
// CHECK-NEXT:      float v_lo_hreduce_add_f32x8 = v_mm_add_ps * v_mm_add_ps;
// CHECK-NEXT:      float v_INT64_C = (float)v_int64_t;
// CHECK-NEXT:      float n_1 = v_lo_hreduce_add_f32x8 + v_INT64_C;

// Kernel symbols that are also names the printer would pick for locals and lengths: the
// locals move aside (i_1, x_len_1, v_1), the symbols keep their names.
func.func @i(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %v = arith.addf %acc, %e : f32
    loop.yield %v : f32
  }
  func.return %s : f32
}
func.func @x_len(%a: f32) -> f32 attributes {loop.kernel} {
  func.return %a : f32
}
func.func @v(%a: f32) -> f32 attributes {loop.kernel} {
  %b = arith.addf %a, %a : f32
  func.return %b : f32
}
// CHECK-LABEL: float i(const float *restrict x, int64_t x_len_1)
// CHECK:         for (int64_t i_1 = 0; i_1 < x_len_1; i_1++) {
// CHECK-LABEL: float x_len(float a)
// CHECK-LABEL: float v(float a)
// CHECK-NEXT:  {
// CHECK-NEXT:      float b = a + a;
