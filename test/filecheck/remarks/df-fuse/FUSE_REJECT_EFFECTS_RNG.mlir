// @noise draws random numbers; the first map calls it for every element.
func.func @noise(%e: f32) -> f32 {
  %n = arith.constant 4 : i64
  %z = arith.constant 0.0 : f32
  %r = df.random %n : !df.array<f32, [j]>
  %s = df.reduce add(%r, %z) over [j] : !df.array<f32, [j]> -> f32
  %t = arith.addf %s, %e : f32
  func.return %t : f32
}
func.func @jitter(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = df.decl_ref @noise(%e) : (f32) -> f32
    df.yield %v : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %w = arith.negf %e : f32
    df.yield %w : f32
  }
  func.return %b : !df.array<f32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_EFFECTS_RNG.mlir:16:3: remark: FUSE_REJECT_EFFECTS_RNG: df.decl_ref at {{.*}}FUSE_REJECT_EFFECTS_RNG.mlir:13:5 draws random numbers in the fusion region
