func.func private @f(f32) -> f32
func.func @unknown(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = func.call @f(%x) : (f32) -> f32
    loop.store %y, %b[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_EFFECTS_UNKNOWN.mlir:8:3: remark: FUSE_REJECT_EFFECTS_UNKNOWN: func.call at {{.*}}FUSE_REJECT_EFFECTS_UNKNOWN.mlir:10:5 has unknown effects
