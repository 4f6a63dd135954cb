// The scaling loop runs to the temporary's own length: an output's length may be larger.
func.func @scale_to_len(%x: !loop.buf<f32>, %out: !loop.buf<f32> {loop.role = "out"}) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    %d = math.exp %v : f32
    loop.store %d, %e[%i] : !loop.buf<f32>
  }
  %m = loop.dim %e, 0 : !loop.buf<f32>
  loop.for %i in [%c0, %m) {
    %v = loop.load %e[%i] : !loop.buf<f32>
    %q = arith.mulf %v, %v : f32
    loop.store %q, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// RUN: loop-opt %s -p 'loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INPLACE_REJECT_TEMP_USE.mlir:11:3: remark: INPLACE_REJECT_TEMP_USE: a use of the temporary other than a load, a store or its dealloc
