// df.range sources: reduced directly, and zipped with an array of the same extent.

// REF: kernel=@sum_range_i64 inputs=start:i64=-3;end:i64=2*n+5;step:i64=3 ref=np.int64(np.sum(np.arange(start, end, step, dtype=np.int64)))
func.func @sum_range_i64(%start: i64, %end: i64, %step: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %s = df.reduce add(%r, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@weighted_by_index_f32 inputs=x:f32[n];len:i64=n ref=x * np.arange(n).astype(np.float32)
func.func @weighted_by_index_f32(%x: !df.array<f32, [i]>, %len: i64) -> !df.array<f32, [i]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %len, %one : !df.array<i64, [i]>
  %y = df.map %x, %idx : !df.array<f32, [i]>, !df.array<i64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %k: i64):
    %f = arith.sitofp %k : i64 to f32
    %m = arith.mulf %e, %f : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@squares_of_range_i32 inputs=len:i64=n ref=(np.arange(n, dtype=np.int64) ** 2).astype(np.int32)
func.func @squares_of_range_i32(%len: i64) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %len, %one : !df.array<i64, [i]>
  %y = df.map %idx : !df.array<i64, [i]> -> !df.array<i32, [i]> {
  ^bb0(%k: i64):
    %t = arith.trunci %k : i64 to i32
    %s = arith.muli %t, %t : i32
    df.yield %s : i32
  }
  func.return %y : !df.array<i32, [i]>
}
