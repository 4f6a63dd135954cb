func.func @domain(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %m) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_DOMAIN_MISMATCH.mlir:7:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: trip count differs from loop.for at {{.*}}FUSE_REJECT_DOMAIN_MISMATCH.mlir:3:3
