// zip -> map: out[i] = a*x[i] + y[i]  (lo_axpy_<T>_<isa>; same parameter order x, y, a -> out)

func.func @axpy_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @axpy_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>, %a: i32) -> !df.array<i32, [i]> {
  %r = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %f : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}
