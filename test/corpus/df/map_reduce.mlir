// map -> reduce chains: sum of squares, dot products, L1 norm.

// REF: kernel=@sumsq_f32 tol=reduction:x*x inputs=x:f32[n] ref=np.float32(np.sum((x * x).astype(np.float64)))
func.func @sumsq_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@dot_f64 tol=reduction:x*y inputs=x:f64[n];y:f64[n] ref=np.dot(x, y) if n else np.float64(0)
func.func @dot_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %p = df.map %x, %y : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64):
    %m = arith.mulf %a, %b : f64
    df.yield %m : f64
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

// REF: kernel=@dot_i32 inputs=x:i32[n]~-50000:50000;y:i32[n]~-50000:50000 ref=np.sum(x * y, dtype=np.int32)
func.func @dot_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%p, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// REF: kernel=@l1_norm_f32 tol=reduction:x inputs=x:f32[n] ref=np.float32(np.sum(np.abs(x).astype(np.float64)))
func.func @l1_norm_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = math.absf %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%a, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@sum_i64_of_i32 inputs=x:i32[n]~-2147483648:2147483647 ref=np.sum(x, dtype=np.int64)
func.func @sum_i64_of_i32(%x: !df.array<i32, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %w = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %v = arith.extsi %e : i32 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%w, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
