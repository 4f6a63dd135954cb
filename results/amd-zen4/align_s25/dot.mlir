func.func @dot_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %e, %f : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
