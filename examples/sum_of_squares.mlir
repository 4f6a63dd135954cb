// The README example: three array pipelines that loopopt fuses into single passes.
//   sumsq(x)          = sum(x * x)                      map -> reduce
//   scale_positive(x) = [a * v for v in x if v > 0]     filter -> map (compaction)
//   axpb(x, a, b)     = sqrt(|a*x|) + b                 map -> map

// REF: kernel=@sumsq tol=reduction:x*x inputs=x:f32[n] ref=np.sum(x * x)
func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@scale_positive inputs=x:f32[n]~-1:1;a:f32 ref=a * x[x > 0]
func.func @scale_positive(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [k]>
}

// REF: kernel=@sqrt_abs_axpb tol=ulp:2 inputs=x:f32[n];a:f32;b:f32 ref=np.sqrt(np.abs(a * x)) + b
func.func @sqrt_abs_axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
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
