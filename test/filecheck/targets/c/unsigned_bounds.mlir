// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=VEC
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=VEC

// A scalar unsigned min/max/compare with 0 or all-ones (the umin reduction's -1 init, the umax's
// 0) is printed as its value: C's `(uint16_t)(-1) < (uint16_t)v` made gcc -Wextra warn "comparison
// is always false due to limited range of data type", failing -Werror builds of the corpus's
// u8_counts on every ISA (found by the hostile-input fuzzer; test_c_warnings compiles this file,
// test_fuzz_invalid.py runs it on the extremes).

func.func @umin_i16(%x: !df.array<i16, [i]>) -> i16 {
  %ones = arith.constant -1 : i16
  %m = df.reduce umin(%x, %ones) over [i] : !df.array<i16, [i]> -> i16
  func.return %m : i16
}

func.func @umax_i8(%x: !df.array<i8, [i]>) -> i8 {
  %zero = arith.constant 0 : i8
  %m = df.reduce umax(%x, %zero) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}

func.func @bounds_i32(%x: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>) {
  %zero = arith.constant 0 : i32
  %ones = arith.constant -1 : i32
  %m = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %a = arith.minui %e, %ones : i32
    %b = arith.maxui %zero, %a : i32
    %c = arith.minui %zero, %b : i32
    %d = arith.maxui %c, %ones : i32
    %r = arith.xori %b, %d : i32
    df.yield %r : i32
  }
  %c1, %c2, %c3, %c4, %c5 = df.map %x : !df.array<i32, [i]> -> !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]> {
  ^bb0(%e: i32):
    %p = arith.cmpi ult, %e, %zero : i32
    %q = arith.cmpi ule, %zero, %e : i32
    %s = arith.cmpi uge, %ones, %e : i32
    %t = arith.cmpi ugt, %e, %ones : i32
    %u = arith.cmpi ult, %zero, %e : i32
    df.yield %p, %q, %s, %t, %u : i1, i1, i1, i1, i1
  }
  func.return %m, %c1, %c2, %c3, %c4, %c5 : !df.array<i32, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>, !df.array<i1, [i]>
}

// CHECK-LABEL: int16_t umin_i16(
// CHECK:       int16_t acc = (-1);
// CHECK:       (uint16_t)acc < (uint16_t)v ? acc : v;
// VEC-LABEL:   umin_i16(
// VEC-NOT:     (uint16_t)(-1) <
// CHECK-LABEL: void bounds_i32(
// CHECK:       int32_t a = e;
// CHECK-NEXT:  int32_t b = a;
// CHECK-NEXT:  int32_t d = (-1);
// CHECK-NEXT:  int32_t r = b ^ d;
// CHECK:       _Bool p = 0;
// CHECK-NEXT:  _Bool q = 1;
// CHECK-NEXT:  _Bool s = 1;
// CHECK-NEXT:  _Bool t = 0;
// CHECK-NEXT:  _Bool u = (uint32_t)0 < (uint32_t)e;
// VEC-LABEL:   bounds_i32(
