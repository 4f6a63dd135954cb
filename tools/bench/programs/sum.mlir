// fold: the sum of x (float: reassociated like the kernel library; i32 wraps)  (lo_sum_<T>_<isa>)

func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
