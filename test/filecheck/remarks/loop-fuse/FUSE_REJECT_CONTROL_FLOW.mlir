// The second loop holds a nested loop.
func.func @nested(%a: !loop.buf<f32, 2>, %b: !loop.buf<f32, 2>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i, 0] : !loop.buf<f32, 2>
    loop.store %x, %b[%i, 0] : !loop.buf<f32, 2>
  }
  loop.for %i in [%c0, %n) {
    loop.for %j in [%c0, %n) {
      %x = loop.load %b[%i, %j] : !loop.buf<f32, 2>
      loop.store %x, %a[%i, %j] : !loop.buf<f32, 2>
    }
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_CONTROL_FLOW.mlir:8:3: remark: FUSE_REJECT_CONTROL_FLOW: loop.for at {{.*}}FUSE_REJECT_CONTROL_FLOW.mlir:9:5 in the body of loop.for at {{.*}}FUSE_REJECT_CONTROL_FLOW.mlir:8:3 is control flow
