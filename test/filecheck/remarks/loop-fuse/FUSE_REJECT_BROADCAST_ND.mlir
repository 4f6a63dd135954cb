// x[i] - x[0] through a temporary: every iteration of the second loop reads tmp[0].
func.func @minus_first(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i] : !loop.buf<f32>
    %f = loop.load %tmp[0] : !loop.buf<f32>
    %d = arith.subf %y, %f : f32
    loop.store %d, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_BROADCAST_ND.mlir:9:3: remark: FUSE_REJECT_BROADCAST_ND: loop.load at {{.*}}FUSE_REJECT_BROADCAST_ND.mlir:11:5 reads loop.alloc at {{.*}}FUSE_REJECT_BROADCAST_ND.mlir:4:3 at a broadcast index, identity-safe (allow_broadcast_identity=false)
