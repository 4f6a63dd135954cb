// fold of a zip: the dot product of x and y (float: reassociated; i32 wraps)
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

func.func @dot_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %m = arith.muli %e, %f : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%p, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
