// map -> map: out[i] = sqrt(|a*x[i]|) + b, float only  (lo_sqrt_abs_axpb_<T>_<isa>; x, a, b -> out)

func.func @sqrt_abs_axpb_f32(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %ax = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %n = math.absf %m : f32
    df.yield %n : f32
  }
  %y = df.map %ax : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %r = math.sqrt %e : f32
    %s = arith.addf %r, %b : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}
