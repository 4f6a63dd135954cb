func.func @dot_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @dot_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%p, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
