// The map widens the f32 temporary into an f64 output: the temporary cannot live there.
func.func @widen_exp(%x: !loop.buf<f32>, %out: !loop.buf<f64> {loop.role = "out"}) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    %d = math.exp %v : f32
    loop.store %d, %e[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %v = loop.load %e[%i] : !loop.buf<f32>
    %w = arith.extf %v : f32 to f64
    loop.store %w, %out[%i] : !loop.buf<f64>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// RUN: loop-opt %s -p 'loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INPLACE_REJECT_OUTPUT_USE.mlir:14:5: remark: INPLACE_REJECT_OUTPUT_USE: the stored buffer is not an argument of the temporary's type
