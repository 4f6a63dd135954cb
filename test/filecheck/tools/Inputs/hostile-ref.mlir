// REF: kernel=@twice inputs=x:f32[n] ref=__import__('os').system('echo PWNED') or x + x
func.func @twice(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.addf %e, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}
