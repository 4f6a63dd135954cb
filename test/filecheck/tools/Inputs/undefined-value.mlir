func.func @f(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %q : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}
