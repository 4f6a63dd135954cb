func.func @kind(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_LOOP_KIND.mlir:7:3: remark: FUSE_REJECT_LOOP_KIND: loop.for and loop.vecloop are different loop kinds
