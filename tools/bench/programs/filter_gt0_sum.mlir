// filter -> fold: the sum of the x > 0  (lo_filter_gt0_sum_<T>_<isa>)

func.func @filter_gt0_sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %s : f32
}

func.func @filter_gt0_sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] : !df.array<i32, [k]> -> i32
  func.return %s : i32
}
