// Writes tmp[i], then reads tmp[i + 1]: fused, the read would come before the write.
func.func @shifted(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i + 1] : !loop.buf<f32>
    loop.store %y, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_INDEXMAP_NOT_IDENTITY.mlir:9:3: remark: FUSE_REJECT_INDEXMAP_NOT_IDENTITY: loop.load at {{.*}}FUSE_REJECT_INDEXMAP_NOT_IDENTITY.mlir:10:5 accesses loop.alloc at {{.*}}FUSE_REJECT_INDEXMAP_NOT_IDENTITY.mlir:4:3 at another elem0 index than loop.store at {{.*}}FUSE_REJECT_INDEXMAP_NOT_IDENTITY.mlir:7:5
