func.func @rng(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %len = arith.constant 4 : i64
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %r = df.random %len : !df.array<f32, [k]>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_EFFECTS_RNG.mlir:8:3: remark: FUSE_REJECT_EFFECTS_RNG: df.random at {{.*}}FUSE_REJECT_EFFECTS_RNG.mlir:9:5 draws random numbers
