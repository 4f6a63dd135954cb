// RUN: loop-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: not loop-opt %s 2>&1 | filecheck %s --check-prefix=EXIT
// EXIT: range-step-zero.mlir:{{[0-9]+}}:3: error: {{.*}}step must not be 0
// EXIT-NOT: Traceback

// A constant step of 0 never ends a range: a verifier error on df.range and on the range
// form of the loops (a runtime step of 0 gives an empty range in a compiled kernel).

func.func @zero_step(%a: i64, %b: i64) -> !df.array<i64, [i]> {
  %c0 = arith.constant 0 : i64
  %r = df.range %a, %b, %c0 : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}

// CHECK: range-step-zero.mlir:11:3: error: df.range step must not be 0 (the range would never end)

// -----

func.func @zero_step_df_constant(%a: i64, %b: i64) -> !df.array<i64, [i]> {
  %c0 = df.constant 0 : i64
  %r = df.range %a, %b, %c0 : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}

// CHECK: range-step-zero.mlir:21:3: error: df.range step must not be 0 (the range would never end)

// -----

func.func @loop_zero_step(%a: index, %b: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in range(%a, %b, %c0) {
  }
  func.return
}

// CHECK: range-step-zero.mlir:31:3: error: range step must not be 0 (the loop would never end)

// -----

func.func @vecloop_zero_step(%a: index, %b: index) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in range(%a, %b, %c0) width(W) tail(scalar) {
  }
  func.return
}

// CHECK: range-step-zero.mlir:42:3: error: range step must not be 0 (the loop would never end)
// CHECK-NOT: Traceback
