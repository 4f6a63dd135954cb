// Filters (new axis k), filter -> map, filter -> reduce, filtering two zipped arrays.

// REF: kernel=@positive_f32 inputs=x:f32[n] ref=x[x > 0]
func.func @positive_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

// REF: kernel=@even_times3_i32 inputs=x:i32[n] ref=x[x % 2 == 0] * np.int32(3)
func.func @even_times3_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %ev = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %r = arith.remsi %e, %two : i32
    %c = arith.cmpi eq, %r, %zero : i32
    df.yield %c : i1
  }
  %y = df.map %ev : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %three : i32
    df.yield %m : i32
  }
  func.return %y : !df.array<i32, [k]>
}

// REF: kernel=@sum_positive_f64 tol=reduction:x[x>0] inputs=x:f64[n] ref=np.float64(np.sum(x[x > 0]))
func.func @sum_positive_f64(%x: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %p = df.filter %x : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %c = arith.cmpf ogt, %e, %zero : f64
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f64, [k]> -> f64
  func.return %s : f64
}

// REF: kernel=@count_above_i64 inputs=x:i64[n];t:i64 ref=np.int64(np.sum(x > t))
func.func @count_above_i64(%x: !df.array<i64, [i]>, %t: i64) -> i64 {
  %zero = df.constant 0 : i64
  %one = df.constant 1 : i64
  %p = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %t : i64
    df.yield %c : i1
  }
  %ones = df.map %p : !df.array<i64, [k]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    df.yield %one : i64
  }
  %s = df.reduce add(%ones, %zero) over [k] : !df.array<i64, [k]> -> i64
  func.return %s : i64
}

// REF: kernel=@pairs_where_f32 inputs=x:f32[n];y:f32[n] ref=(x[x < y], y[x < y])
func.func @pairs_where_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %a, %b = df.filter %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%e: f32, %f: f32):
    %c = arith.cmpf olt, %e, %f : f32
    df.yield %c : i1
  }
  func.return %a, %b : !df.array<f32, [k]>, !df.array<f32, [k]>
}
