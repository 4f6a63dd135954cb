// df.fold: sequential folds with one or several accumulators.

// REF: kernel=@horner_f64 tol=close:1e-12 inputs=c:f64[n];t:f64~-1:1 ref=np.float64(fold(lambda a, e: a * t + e, np.float64(0), c))
func.func @horner_f64(%c: !df.array<f64, [i]>, %t: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %p = df.fold(%c) init(%zero) : !df.array<f64, [i]> -> f64 {
  ^bb0(%acc: f64, %e: f64):
    %m = arith.mulf %acc, %t : f64
    %a = arith.addf %m, %e : f64
    df.yield %a : f64
  }
  func.return %p : f64
}

// REF: kernel=@argmax_i32 inputs=x:i32[n] ref=(np.int32(x.max(initial=-2147483648)), np.int64(np.argmax(x)) if n else np.int64(-1))
func.func @argmax_i32(%x: !df.array<i32, [i]>) -> (i32, i64) {
  %lo = arith.constant -2147483648 : i32
  %none = arith.constant -1 : i64
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %best, %at, %next = df.fold(%x) init(%lo, %none, %zero) : !df.array<i32, [i]> -> i32, i64, i64 {
  ^bb0(%m: i32, %k: i64, %j: i64, %e: i32):
    %gt = arith.cmpi sgt, %e, %m : i32
    %m2 = arith.select %gt, %e, %m : i32
    %k2 = arith.select %gt, %j, %k : i64
    %j2 = arith.addi %j, %one : i64
    df.yield %m2, %k2, %j2 : i32, i64, i64
  }
  func.return %best, %at : i32, i64
}

// REF: kernel=@argmin_range_f32 inputs=x:f32[n];len:i64=n ref=(np.float32(x.min(initial=np.inf)), np.int64(np.argmin(x)) if n else np.int64(-1))
func.func @argmin_range_f32(%x: !df.array<f32, [i]>, %len: i64) -> (f32, i64) {
  %inf = arith.constant 0x7F800000 : f32
  %none = arith.constant -1 : i64
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %len, %one : !df.array<i64, [i]>
  %best, %at = df.fold(%x, %idx) init(%inf, %none) : !df.array<f32, [i]>, !df.array<i64, [i]> -> f32, i64 {
  ^bb0(%m: f32, %k: i64, %e: f32, %j: i64):
    %lt = arith.cmpf olt, %e, %m : f32
    %m2 = arith.select %lt, %e, %m : f32
    %k2 = arith.select %lt, %j, %k : i64
    df.yield %m2, %k2 : f32, i64
  }
  func.return %best, %at : f32, i64
}

// REF: kernel=@count_sum_mean_i32 inputs=x:i32[n] ref=(np.int64(n), np.int64(np.sum(x, dtype=np.int64)))
func.func @count_sum_mean_i32(%x: !df.array<i32, [i]>) -> (i64, i64) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %c, %s = df.fold(%x) init(%zero, %zero) : !df.array<i32, [i]> -> i64, i64 {
  ^bb0(%cnt: i64, %sum: i64, %e: i32):
    %c2 = arith.addi %cnt, %one : i64
    %w = arith.extsi %e : i32 to i64
    %s2 = arith.addi %sum, %w : i64
    df.yield %c2, %s2 : i64, i64
  }
  func.return %c, %s : i64, i64
}
