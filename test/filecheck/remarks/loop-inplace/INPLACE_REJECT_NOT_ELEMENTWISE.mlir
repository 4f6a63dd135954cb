// A difference of neighbours reads element i + 1 of the temporary, which in the output the
// map would already have overwritten in a vector block.
func.func @diff_exp(%x: !loop.buf<f32>, %out: !loop.buf<f32> {loop.role = "out"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    %d = math.exp %v : f32
    loop.store %d, %e[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %a = loop.load %e[%i] : !loop.buf<f32>
    %b = loop.load %e[%i + 1] : !loop.buf<f32>
    %q = arith.subf %b, %a : f32
    loop.store %q, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// RUN: loop-opt %s -p 'loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INPLACE_REJECT_NOT_ELEMENTWISE.mlir:15:5: remark: INPLACE_REJECT_NOT_ELEMENTWISE: the last reader accesses the temporary other than at [i] before its store
