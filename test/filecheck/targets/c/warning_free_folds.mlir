// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=VEC
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=VEC

// C that gcc -Wall -Wextra warns about, found by the hostile-input fuzzer in generated programs
// (test_c_warnings compiles this file with -Werror):
// * `minsi(x, x)` printed as `a < a ? a : a` ("self-comparison always evaluates to false"): an
//   integer min, max or compare of a value with itself is printed as its value;
// * a dead filter of two zipped arrays (scratch outputs, both `x_len` long) took the min of two
//   lengths that print alike: `x_len < x_len ? x_len : x_len` (a self-comparison too); since the
//   ABI fuzzer (session 23) a dead df op is not lowered at all: no scratch malloc, no loop;
// * a fold accumulator that its step yields unchanged and nobody reads was declared and never
//   used ("unused variable"): it is voided.

func.func @self_minmax(%x: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i1, [i]>) {
  %m, %c = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]>, !df.array<i1, [i]> {
  ^bb0(%e: i32):
    %a = arith.minsi %e, %e : i32
    %b = arith.maxui %a, %a : i32
    %q = arith.cmpi sge, %e, %e : i32
    df.yield %b, %q : i32, i1
  }
  func.return %m, %c : !df.array<i32, [i]>, !df.array<i1, [i]>
}

func.func @dead_acc(%x: !df.array<f32, [i]>) -> f64 {
  %h = arith.constant 0.5 : f64
  %k = arith.constant 63 : i16
  %v:2 = df.fold(%x) init(%h, %k) : !df.array<f32, [i]> -> f64, i16 {
  ^bb0(%a: f64, %b: i16, %e: f32):
    %s = math.sqrt %a : f64
    %o = arith.ori %b, %b : i16
    df.yield %s, %o : f64, i16
  }
  func.return %v#0 : f64
}

func.func @dead_zip_filter(%x: !df.array<i16, [i]>, %y: !df.array<i16, [i]>) -> !df.array<i16, [i]> {
  %f:2 = df.filter %x, %y : !df.array<i16, [i]>, !df.array<i16, [i]> -> !df.array<i16, [k]>, !df.array<i16, [k]> {
  ^bb0(%a: i16, %b: i16):
    %c = arith.cmpi sgt, %a, %b : i16
    df.yield %c : i1
  }
  %m = df.map %x : !df.array<i16, [i]> -> !df.array<i16, [i]> {
  ^bb0(%e: i16):
    %n = arith.addi %e, %e : i16
    df.yield %n : i16
  }
  func.return %m : !df.array<i16, [i]>
}

// CHECK-LABEL: void self_minmax(
// CHECK:       int32_t a = e;
// CHECK-NEXT:  int32_t b = a;
// CHECK-NOT:   a < a
// CHECK-LABEL: double dead_acc(
// CHECK:       int16_t [[K:[a-z0-9_]+]] = 63;
// CHECK-NEXT:  (void)[[K]];
// VEC-LABEL:   dead_acc(
// VEC:         int16_t [[K:[a-z0-9_]+]] = 63;
// VEC-NEXT:    (void)[[K]];
// CHECK-LABEL: dead_zip_filter(
// CHECK-NOT:   x_len < x_len
// CHECK-NOT:   malloc
// CHECK:       out[i] = n;
// VEC-LABEL:   dead_zip_filter(
// VEC-NOT:     x_len < x_len
// VEC-NOT:     malloc
// VEC:         {{_mm.*store|vst1q}}
