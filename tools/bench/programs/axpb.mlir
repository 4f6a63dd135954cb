// map: out[i] = a*x[i] + b  (kernel library: lo_axpb_<T>_<isa>; same parameter order x, a, b -> out)

func.func @axpb_f32(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @axpb_i32(%x: !df.array<i32, [i]>, %a: i32, %b: i32) -> !df.array<i32, [i]> {
  %r = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %b : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}
