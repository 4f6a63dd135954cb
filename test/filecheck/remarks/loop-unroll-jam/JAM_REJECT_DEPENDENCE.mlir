// Each row adds %b to the row before it: the nest reads row i - 1 of the buffer it writes.
func.func @running_rows(%b: !loop.buf<f32>, %out: !loop.buf<f32, 2>) {
  %c1 = arith.constant 1 : index
  %n_i = loop.dim %out, 0 : !loop.buf<f32, 2>
  %n_k = loop.dim %out, 1 : !loop.buf<f32, 2>
  loop.for %i in [%c1, %n_i) {
    loop.for %k in [%c1, %n_k) {
      %p = loop.load %out[%i - 1, %k] : !loop.buf<f32, 2>
      %y = loop.load %b[%k] : !loop.buf<f32>
      %t = arith.addf %p, %y : f32
      loop.store %t, %out[%i, %k] : !loop.buf<f32, 2>
    }
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-unroll-jam{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}JAM_REJECT_DEPENDENCE.mlir:6:3: remark: JAM_REJECT_DEPENDENCE: a written buffer is accessed at two row offsets
