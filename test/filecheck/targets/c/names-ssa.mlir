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
