// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=2}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=2}' -t c | filecheck %s
// umin / umax reductions split across threads: each chunk starts from the init (the kinds are
// idempotent) and the partial results combine in the unsigned order.

func.func @umax_u8(%x: !df.array<i8, [i]>) -> i8 {
  %zero = arith.constant 0 : i8
  %m = df.reduce umax(%x, %zero) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}

func.func @umin_i16(%x: !df.array<i16, [i]>, %init: i16) -> i16 {
  %m = df.reduce umin(%x, %init) over [i] : !df.array<i16, [i]> -> i16
  func.return %m : i16
}

// IR: func.func @umax_u8({{.*}}loop.parallel = {axis = "i", {{.*}}results = ["umax"]
// IR: func.func @umin_i16({{.*}}loop.parallel = {axis = "i", {{.*}}results = ["umin"]

// CHECK-LABEL: int8_t umax_u8(
// CHECK:         lo_r0 = (uint8_t)lo_r0 > (uint8_t)lo_part0[lo_c] ? lo_r0 : lo_part0[lo_c];
// CHECK-LABEL: int16_t umin_i16(
// CHECK:         lo_r0 = (uint16_t)lo_r0 < (uint16_t)lo_part0[lo_c] ? lo_r0 : lo_part0[lo_c];
