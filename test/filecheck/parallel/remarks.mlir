// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-parallelize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-parallelize' | filecheck %s --check-prefix=IR
// Kernels the pass cannot prove splittable stay serial (no loop.parallel), each with a
// PAR_REJECT_* remark at the op at fault.

// IR-NOT: loop.parallel

// CHECK: remark: PAR_REJECT_FLOAT_ORDER: @fsum stays serial: a float add without reassoc
func.func @fsum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// CHECK: remark: PAR_REJECT_INIT: @sum_from_5 stays serial: the add accumulator's init is not the constant neutral element
func.func @sum_from_5(%x: !df.array<i32, [i]>) -> i32 {
  %z = arith.constant 5 : i32
  %s = df.reduce add(%x, %z) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// CHECK: remark: PAR_REJECT_REDUCTION: @recurrence stays serial: a custom accumulator (a sequential fold)
func.func @recurrence(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %p = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %m = arith.mulf %acc, %e : f32
    %a = arith.addf %m, %e : f32
    df.yield %a : f32
  }
  func.return %p : f32
}

// CHECK: remark: PAR_REJECT_RANK: @rows stays serial: buffer 'm' has rank 2
func.func @rows(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [i]> {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%m, %z) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]>
  func.return %s : !df.array<f32, [i]>
}

// CHECK: remark: PAR_REJECT_COMPUTED_AXIS: @iota stays serial: an output is on a computed axis (a range)
func.func @iota(%n: i64) -> !df.array<i64, [i]> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = df.range %c0, %n, %c1 : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}

// CHECK: remark: PAR_REJECT_SCAN: @cumprod stays serial: a mul scan (add, min, max, umin and umax scans are split)
func.func @cumprod(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant 1 : i64
  %p = df.scan mul(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

// A scan's chunks are fixed up after all the kernel's loops: a filter of the running values
// would read them before (loop-fuzz seed 2525).
// CHECK: remark: PAR_REJECT_SCAN: @filter_of_scan stays serial: a scan's output is read again in the kernel
func.func @filter_of_scan(%x: !df.array<f64, [i]>) -> (!df.array<f64, [k]>, !df.array<f64, [i]>) {
  %init = arith.constant 1.0e-40 : f64
  %s = df.scan min(%x, %init) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  %f = df.filter %s : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return %f, %s : !df.array<f64, [k]>, !df.array<f64, [i]>
}
