// The temporary is written but never read (its reader was removed): nothing maps it into an output.
func.func @unread(%x: !loop.buf<f32>, %out: !loop.buf<f32> {loop.role = "out"}) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    loop.store %v, %e[%i] : !loop.buf<f32>
    loop.store %v, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// RUN: loop-opt %s -p 'loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INPLACE_REJECT_ORDER.mlir:5:3: remark: INPLACE_REJECT_ORDER: nothing reads the temporary
