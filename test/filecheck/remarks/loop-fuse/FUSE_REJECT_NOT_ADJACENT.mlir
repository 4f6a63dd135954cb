// The store between the loops writes b, which both loops access.
func.func @adjacent(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.store %z, %b[0] : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_NOT_ADJACENT.mlir:10:3: remark: FUSE_REJECT_NOT_ADJACENT: loop.store at {{.*}}FUSE_REJECT_NOT_ADJACENT.mlir:9:3 between the loops touches their buffers
