// Vectorized scans (lowering/loop_to_simd/scan.py): prefix sums, products, minima and maxima
// that loop-vectorize turns into an in-register log-step scan with a carried last lane.
// Integer scans wrap and are exact; a float sum scan with `reassoc` is summed in another
// order than the sequential one (compared within the any-order summation bound).

// REF: kernel=@cumsum_i32 inputs=x:i32[n]~-2000000000:2000000000 ref=np.cumsum(x, dtype=np.int32)
func.func @cumsum_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.scan add(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}

// REF: kernel=@cumsum_f32 tol=reduction:x inputs=x:f32[n] ref=np.cumsum(x, dtype=np.float64).astype(np.float32)
func.func @cumsum_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %p = df.scan add(%x, %zero) reassoc : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return %p : !df.array<f32, [i]>
}

// REF: kernel=@cumsum_f64_offset tol=reduction:x inputs=x:f64[n] ref=np.cumsum(x) + 10.0
func.func @cumsum_f64_offset(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %ten = arith.constant 10.0 : f64
  %p = df.scan add(%x, %ten) reassoc : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return %p : !df.array<f64, [i]>
}

// REF: kernel=@cummin_f32 inputs=x:f32[n] ref=np.minimum.accumulate(np.concatenate([[np.float32(np.inf)], x]))[1:]
func.func @cummin_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %inf = arith.constant 0x7F800000 : f32
  %p = df.scan min(%x, %inf) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return %p : !df.array<f32, [i]>
}

// REF: kernel=@cummax_i32 inputs=x:i32[n] ref=np.maximum.accumulate(x)
func.func @cummax_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %lowest = arith.constant -2147483648 : i32
  %p = df.scan max(%x, %lowest) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}

// REF: kernel=@cumsum_squares_i64 inputs=x:i64[n] ref=np.cumsum(x * x)
func.func @cumsum_squares_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %zero = arith.constant 0 : i64
  %p = df.scan(%x) add(%zero) : !df.array<i64, [i]> -> !df.array<i64, [i]> map {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  func.return %p : !df.array<i64, [i]>
}

// filter → scan (df-fuse: one df.scan with a `where`, a vectorized predloop): the running
// sum of the positive elements, on the filter's new axis.
// REF: kernel=@positive_cumsum_i32 inputs=x:i32[n] ref=np.cumsum(x[x > 0], dtype=np.int32)
func.func @positive_cumsum_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %y = df.scan add(%p, %zero) : !df.array<i32, [k]> -> !df.array<i32, [k]>
  func.return %y : !df.array<i32, [k]>
}
