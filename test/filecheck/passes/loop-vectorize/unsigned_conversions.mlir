// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize' --split-input-file 2>/dev/null | filecheck %s

// uitofp and fptoui vectorize when the integer side is i8/i16: they go through i32
// (loop_to_simd/narrow_convert.py); on i32/i64 they have no vector form.

// CHECK-LABEL: func.func @u8_to_f32
// CHECK: loop.vecloop
// CHECK: arith.uitofp %{{.*}} : i8 to f32
func.func @u8_to_f32(%x: !df.array<i8, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i8, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i8):
    %v = arith.uitofp %e : i8 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// -----

// CHECK-LABEL: func.func @f32_to_u16
// CHECK: loop.vecloop
// CHECK: arith.fptoui %{{.*}} : f32 to i16
func.func @f32_to_u16(%x: !df.array<f32, [i]>) -> !df.array<i16, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<i16, [i]> {
  ^bb0(%e: f32):
    %v = arith.fptoui %e : f32 to i16
    df.yield %v : i16
  }
  func.return %y : !df.array<i16, [i]>
}

// -----

// REMARK: unsigned_conversions.mlir:[[# @LINE + 6]]:5: remark: VEC_REJECT_NO_VECTOR_FORM: arith.uitofp on i32 has no vector form (only i8/i16 lanes convert unsigned, through i32)
// CHECK-LABEL: func.func @u32_to_f32
// CHECK-NOT: loop.vecloop
func.func @u32_to_f32(%x: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i32):
    %v = arith.uitofp %e : i32 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// -----

// REMARK: unsigned_conversions.mlir:[[# @LINE + 6]]:5: remark: VEC_REJECT_NO_VECTOR_FORM: arith.fptoui on i32 has no vector form (only i8/i16 lanes convert unsigned, through i32)
// CHECK-LABEL: func.func @f32_to_u32
// CHECK-NOT: loop.vecloop
func.func @f32_to_u32(%x: !df.array<f32, [i]>) -> !df.array<i32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: f32):
    %v = arith.fptoui %e : f32 to i32
    df.yield %v : i32
  }
  func.return %y : !df.array<i32, [i]>
}
