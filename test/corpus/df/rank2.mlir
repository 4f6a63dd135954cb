// Rank-2 arrays (row-major [i, j]): reductions over one axis and over both.

// REF: kernel=@row_sums_f64 tol=reduction:m inputs=m:f64[n,5] ref=np.sum(m, axis=1)
func.func @row_sums_f64(%m: !df.array<f64, [i, j]>) -> !df.array<f64, [i]> {
  %zero = arith.constant 0.0 : f64
  %r = df.reduce add(%m, %zero) over [j] reassoc : !df.array<f64, [i, j]> -> !df.array<f64, [i]>
  func.return %r : !df.array<f64, [i]>
}

// REF: kernel=@col_max_i32 inputs=m:i32[n,3] ref=np.max(m, axis=0, initial=np.int32(-2147483648))
func.func @col_max_i32(%m: !df.array<i32, [i, j]>) -> !df.array<i32, [j]> {
  %lo = arith.constant -2147483648 : i32
  %r = df.reduce max(%m, %lo) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r : !df.array<i32, [j]>
}

// REF: kernel=@total_i64 inputs=m:i64[4,n] ref=np.sum(m, dtype=np.int64)
func.func @total_i64(%m: !df.array<i64, [i, j]>) -> i64 {
  %zero = arith.constant 0 : i64
  %r = df.reduce add(%m, %zero) over [i, j] : !df.array<i64, [i, j]> -> i64
  func.return %r : i64
}

// REF: kernel=@scaled_row_norms_f32 tol=reduction:m*m inputs=m:f32[n,4];s:f32~0.5:2 ref=(np.sum(m.astype(np.float64) * m, axis=1) * s).astype(np.float32)
func.func @scaled_row_norms_f32(%m: !df.array<f32, [i, j]>, %s: f32) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %m : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    %q = arith.mulf %p, %s : f32
    df.yield %q : f32
  }
  %r = df.reduce add(%sq, %zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// REF: kernel=@row_horner_custom_i32 inputs=m:i32[n,3]~0:9 ref=(m[:, 0] * 100 + m[:, 1] * 10 + m[:, 2]).astype(np.int32)
func.func @row_horner_custom_i32(%m: !df.array<i32, [i, j]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %ten = arith.constant 10 : i32
  %r = df.reduce custom(%m, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]> {
  ^bb0(%acc: i32, %e: i32):
    %t = arith.muli %acc, %ten : i32
    %a = arith.addi %t, %e : i32
    df.yield %a : i32
  }
  func.return %r : !df.array<i32, [i]>
}
