// x - sum(x): the map needs the sum's final value.
func.func @center(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %d = arith.subf %e, %s : f32
    df.yield %d : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_DEPENDENCE.mlir:5:3: remark: FUSE_REJECT_DEPENDENCE: it uses the final value of loop.for at {{.*}}FUSE_REJECT_DEPENDENCE.mlir:4:3
