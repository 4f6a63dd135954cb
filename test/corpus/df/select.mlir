// df.select: elementwise with an i1 array, and with one scalar condition.

// REF: kernel=@relu_f32 inputs=x:f32[n] ref=np.where(x > 0, x, np.float32(0))
func.func @relu_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.map %x : !df.array<f32, [i]> -> !df.array<i1, [i]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %zeros = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    df.yield %zero : f32
  }
  %r = df.select %pos, %x, %zeros : !df.array<i1, [i]>, !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// REF: kernel=@pick_i64 inputs=c:i1[n];x:i64[n];y:i64[n] ref=np.where(c, x, y)
func.func @pick_i64(%c: !df.array<i1, [i]>, %x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %r = df.select %c, %x, %y : !df.array<i1, [i]>, !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}

// REF: kernel=@swap_if_f64 inputs=b:i1;x:f64[n];y:f64[n] ref=(x if b else y)
func.func @swap_if_f64(%b: i1, %x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %r = df.select %b, %x, %y : i1, !df.array<f64, [i]>
  func.return %r : !df.array<f64, [i]>
}
