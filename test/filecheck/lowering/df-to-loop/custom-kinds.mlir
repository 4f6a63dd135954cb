// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize{remarks=true}' 2>%t.remarks | filecheck %s --check-prefix=VEC
// RUN: filecheck %s --check-prefix=REMARK < %t.remarks

// A custom body (df.reduce / df.scan custom, df.fold) whose accumulator is used once, by a
// built-in kind's combiner whose result the body yields, lowers to that kind's accumulator
// (lowering/df_to_loop/combine.py, body_kinds); the step stays the body's op, operands in the
// body's order. Anything else stays custom.

func.func @r_maxui(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.maxui %acc, %e : i32
    df.yield %s : i32
  }
  func.return %p : i32
}
// CHECK-LABEL: func.func @r_maxui
// CHECK:         accs(%[[A:.*]] = %{{.*}} : i32 umax) {
// CHECK:           arith.maxui %[[A]], %{{.*}} : i32
// VEC-LABEL: func.func @r_maxui
// VEC:           loop.vecloop {{.*}} accs(%{{.*}} = %{{.*}} : i32 umax) {

func.func @r_minui_swapped(%x: !df.array<i64, [i]>, %init: i64) -> i64 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %s = arith.minui %e, %acc : i64
    df.yield %s : i64
  }
  func.return %p : i64
}
// CHECK-LABEL: func.func @r_minui_swapped
// CHECK:         accs(%[[A:.*]] = %{{.*}} : i64 umin) {
// CHECK:           arith.minui %{{.*}}, %[[A]] : i64
// VEC-LABEL: func.func @r_minui_swapped
// VEC:           loop.vecloop {{.*}} : i64 umin) {

func.func @r_minsi(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.minsi %acc, %e : i32
    df.yield %s : i32
  }
  func.return %p : i32
}
// CHECK-LABEL: func.func @r_minsi
// CHECK:         : i32 min) {
// VEC-LABEL: func.func @r_minsi
// VEC:           loop.vecloop {{.*}} : i32 min) {

func.func @r_minimumf(%x: !df.array<f64, [i]>, %init: f64) -> f64 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<f64, [i]> -> f64 {
  ^bb0(%acc: f64, %e: f64):
    %s = arith.minimumf %acc, %e : f64
    df.yield %s : f64
  }
  func.return %p : f64
}
// CHECK-LABEL: func.func @r_minimumf
// CHECK:         : f64 min) {
// VEC-LABEL: func.func @r_minimumf
// VEC:           loop.vecloop {{.*}} : f64 min) {

// A float sum body is add without reassoc: it stays in order (VEC_REJECT_FLOAT_REDUCTION_ORDER).
func.func @r_addf(%x: !df.array<f32, [i]>, %init: f32) -> f32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %s = arith.addf %acc, %e : f32
    df.yield %s : f32
  }
  func.return %p : f32
}
// CHECK-LABEL: func.func @r_addf
// CHECK:         : f32 add) {
// REMARK:      custom-kinds.mlir:[[# @LINE - 9]]:3: remark: VEC_REJECT_FLOAT_REDUCTION_ORDER

// On i1, andi is `and` (not min).
func.func @r_all(%x: !df.array<i1, [i]>, %init: i1) -> i1 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i1, [i]> -> i1 {
  ^bb0(%acc: i1, %e: i1):
    %s = arith.andi %acc, %e : i1
    df.yield %s : i1
  }
  func.return %p : i1
}
// CHECK-LABEL: func.func @r_all
// CHECK:         : i1 and) {

// A fold with a map fused into its body: the element's map, then the kind's step.
func.func @f_umin_of_doubled(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %s = df.fold(%x) init(%init) : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %two = arith.constant 2 : i32
    %m = arith.muli %e, %two : i32
    %n = arith.minui %m, %acc : i32
    df.yield %n : i32
  }
  func.return %s : i32
}
// CHECK-LABEL: func.func @f_umin_of_doubled
// CHECK:         accs(%[[A:.*]] = %{{.*}} : i32 umin) {
// CHECK:           arith.muli
// CHECK-NEXT:      arith.minui %{{.*}}, %[[A]] : i32
// VEC-LABEL: func.func @f_umin_of_doubled
// VEC:           loop.vecloop {{.*}} : i32 umin) {

// Not a kind's step: a recurrence (acc feeds a muli), xor (no kind), acc used twice, the
// combiner's result not the one yielded.
func.func @f_recurrence(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %s = df.fold(%x) init(%init) : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %two = arith.constant 2 : i32
    %m = arith.muli %acc, %two : i32
    %n = arith.addi %m, %e : i32
    df.yield %n : i32
  }
  func.return %s : i32
}
// CHECK-LABEL: func.func @f_recurrence
// CHECK:         : i32 custom) {

func.func @r_xor(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.xori %acc, %e : i32
    df.yield %s : i32
  }
  func.return %p : i32
}
// CHECK-LABEL: func.func @r_xor
// CHECK:         : i32 custom) {

func.func @r_twice(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.maxsi %acc, %acc : i32
    df.yield %s : i32
  }
  func.return %p : i32
}
// CHECK-LABEL: func.func @r_twice
// CHECK:         : i32 custom) {

func.func @r_not_yielded(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %p = df.reduce custom(%x, %init) over [i] : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.maxsi %acc, %e : i32
    %t = arith.addi %s, %e : i32
    df.yield %t : i32
  }
  func.return %p : i32
}
// CHECK-LABEL: func.func @r_not_yielded
// CHECK:         : i32 custom) {

// A custom scan body `maxui(acc, x)` is a umax scan: vectorized like df.scan umax.
func.func @s_maxui(%x: !df.array<i32, [i]>, %init: i32) -> !df.array<i32, [i]> {
  %p = df.scan custom(%x, %init) : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.maxui %e, %acc : i32
    df.yield %s : i32
  }
  func.return %p : !df.array<i32, [i]>
}
// CHECK-LABEL: func.func @s_maxui
// CHECK:         : i32 umax) {
// CHECK:           arith.maxui
// CHECK-NEXT:      loop.store
// VEC-LABEL: func.func @s_maxui
// VEC:           loop.vecloop {{.*}} : i32 umax scan) {
// VEC:             loop.lane_scan <umax>
