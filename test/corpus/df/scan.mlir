// df.scan: inclusive prefix reductions (built-in kinds and a custom body).

// REF: kernel=@cumsum_i64 inputs=x:i64[n] ref=np.cumsum(x, dtype=np.int64) + np.int64(5)
func.func @cumsum_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %five = arith.constant 5 : i64
  %p = df.scan add(%x, %five) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

// REF: kernel=@cumsum_f32 inputs=x:f32[n] ref=scan(lambda a, e: a + e, np.float32(0), x)
func.func @cumsum_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %p = df.scan add(%x, %zero) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return %p : !df.array<f32, [i]>
}

// REF: kernel=@running_max_f64 inputs=x:f64[n] ref=np.maximum.accumulate(np.concatenate([[-np.inf], x]))[1:]
func.func @running_max_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %p = df.scan max(%x, %ninf) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return %p : !df.array<f64, [i]>
}

// REF: kernel=@ema_custom_f32 inputs=x:f32[n] ref=scan(lambda a, e: a * np.float32(0.75) + e * np.float32(0.25), np.float32(0), x)
func.func @ema_custom_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %keep = arith.constant 0.75 : f32
  %take = arith.constant 0.25 : f32
  %p = df.scan custom(%x, %zero) : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%acc: f32, %e: f32):
    %a = arith.mulf %acc, %keep : f32
    %b = arith.mulf %e, %take : f32
    %s = arith.addf %a, %b : f32
    df.yield %s : f32
  }
  func.return %p : !df.array<f32, [i]>
}

// REF: kernel=@prefix_xor_i32 inputs=x:i32[n] ref=scan(lambda a, e: a ^ e, np.int32(0), x)
func.func @prefix_xor_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.scan custom(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.xori %acc, %e : i32
    df.yield %s : i32
  }
  func.return %p : !df.array<i32, [i]>
}
