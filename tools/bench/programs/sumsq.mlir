// map -> fold: the sum of x*x  (lo_sumsq_<T>_<isa>)

func.func @sumsq_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @sumsq_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %sq = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %e : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%sq, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
