"""The df programs of the loopopt.dask tests (a module of its own: see ../isa_support.py)."""

SOURCE = r"""
func.func @axpy_f32(%a: f32, %x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @sum_and_max_i32(%x: !df.array<i32, [i]>) -> (i32, i32) {
  %zero = arith.constant 0 : i32
  %lo = arith.constant -2147483648 : i32
  %s, %m = df.reduce add(%x, %zero), max(%x, %lo) over [i] : !df.array<i32, [i]>, !df.array<i32, [i]> -> i32, i32
  func.return %s, %m : i32, i32
}

func.func @prod_min_i64(%x: !df.array<i64, [i]>) -> (i64, i64) {
  %one = arith.constant 1 : i64
  %hi = arith.constant 9223372036854775807 : i64
  %p = df.reduce mul(%x, %one) over [i] : !df.array<i64, [i]> -> i64
  %m = df.reduce min(%x, %hi) over [i] : !df.array<i64, [i]> -> i64
  func.return %p, %m : i64, i64
}

func.func @umax_umin_i16(%x: !df.array<i16, [i]>) -> (i16, i16) {
  %zero = arith.constant 0 : i16
  %ones = arith.constant -1 : i16
  %a, %b = df.reduce umax(%x, %zero), umin(%x, %ones) over [i] : !df.array<i16, [i]>, !df.array<i16, [i]> -> i16, i16
  func.return %a, %b : i16, i16
}

func.func @running_umax_i8(%x: !df.array<i8, [i]>) -> !df.array<i8, [i]> {
  %zero = arith.constant 0 : i8
  %p = df.scan umax(%x, %zero) : !df.array<i8, [i]> -> !df.array<i8, [i]>
  func.return %p : !df.array<i8, [i]>
}

func.func @moments_f64(%x: !df.array<f64, [i]>) -> (f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %sq = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %p = arith.mulf %e, %e : f64
    df.yield %p : f64
  }
  %ones = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %c = arith.constant 1.0 : f64
    df.yield %c : f64
  }
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %q = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %n = df.reduce add(%ones, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s, %q, %n : f64, f64, f64
}

func.func @positive_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

func.func @pairs_where_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %a, %b = df.filter %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%e: f32, %f: f32):
    %c = arith.cmpf olt, %e, %f : f32
    df.yield %c : i1
  }
  func.return %a, %b : !df.array<f32, [k]>, !df.array<f32, [k]>
}

func.func @sum_diff_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i32, [i]>) {
  %s = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %a = arith.addi %e, %f : i32
    df.yield %a : i32
  }
  %d = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %a = arith.subi %e, %f : i32
    df.yield %a : i32
  }
  func.return %s, %d : !df.array<i32, [i]>, !df.array<i32, [i]>
}

func.func @cumsum_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %zero = arith.constant 0 : i64
  %p = df.scan add(%x, %zero) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

func.func @running_max_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %p = df.scan max(%x, %ninf) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return %p : !df.array<f64, [i]>
}

func.func @fold_max_f32(%x: !df.array<f32, [i]>) -> f32 {
  %ninf = arith.constant 0xFF800000 : f32
  %m = df.fold(%x) init(%ninf) : !df.array<f32, [i]> -> f32 {
  ^bb0(%a: f32, %e: f32):
    %gt = arith.cmpf ogt, %e, %a : f32
    %b = arith.select %gt, %e, %a : f32
    df.yield %b : f32
  }
  func.return %m : f32
}
"""
