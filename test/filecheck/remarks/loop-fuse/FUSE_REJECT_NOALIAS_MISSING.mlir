// A buffer returned by a call may alias the kernel's arguments.
func.func private @get() -> !loop.buf<f32>
func.func @noalias(%a: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %b = func.call @get() : () -> !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_NOALIAS_MISSING.mlir:10:3: remark: FUSE_REJECT_NOALIAS_MISSING: func.call at {{.*}}FUSE_REJECT_NOALIAS_MISSING.mlir:5:3 may alias other buffers
