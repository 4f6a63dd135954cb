// Two reductions of one array: mean and variance, as two reduces and as one fused reduce.

// REF: kernel=@mean_var_f64 tol=close:1e-9 inputs=x:f64[n]~-10:10;len:f64=max(n,1) ref=(np.sum(x) / len, np.sum(x * x) / len - (np.sum(x) / len) ** 2)
func.func @mean_var_f64(%x: !df.array<f64, [i]>, %len: f64) -> (f64, f64) {
  %zero = arith.constant 0.0 : f64
  %sq = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %p = arith.mulf %e, %e : f64
    df.yield %p : f64
  }
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %q = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %mean = arith.divf %s, %len : f64
  %ex2 = arith.divf %q, %len : f64
  %m2 = arith.mulf %mean, %mean : f64
  %var = arith.subf %ex2, %m2 : f64
  func.return %mean, %var : f64, f64
}

// REF: kernel=@mean_var_fused_f32 tol=close:1e-4 inputs=x:f32[n]~-10:10;len:f32=max(n,1) ref=(np.float32(np.sum(x, dtype=np.float64) / len), np.float32(np.sum(x.astype(np.float64) ** 2) / len - (np.sum(x, dtype=np.float64) / len) ** 2))
func.func @mean_var_fused_f32(%x: !df.array<f32, [i]>, %len: f32) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }
  %s, %q = df.reduce add(%x, %zero), add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32, f32
  %mean = arith.divf %s, %len : f32
  %ex2 = arith.divf %q, %len : f32
  %m2 = arith.mulf %mean, %mean : f32
  %var = arith.subf %ex2, %m2 : f32
  func.return %mean, %var : f32, f32
}

// REF: kernel=@sum_and_max_i32 inputs=x:i32[n] ref=(np.sum(x, dtype=np.int32), np.int32(x.max(initial=-2147483648)))
func.func @sum_and_max_i32(%x: !df.array<i32, [i]>) -> (i32, i32) {
  %zero = arith.constant 0 : i32
  %lo = arith.constant -2147483648 : i32
  %s, %m = df.reduce add(%x, %zero), max(%x, %lo) over [i] : !df.array<i32, [i]>, !df.array<i32, [i]> -> i32, i32
  func.return %s, %m : i32, i32
}
