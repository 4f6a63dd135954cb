// Each column's sum starts from the previous column's result: the row loop reads the output.
func.func @colsum_chained(%m: !loop.buf<f32, 2>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %j in [%c0, %n_j) {
    %s = loop.for %i in [%c0, %n_i) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %p = loop.load %out[%j - 1] : !loop.buf<f32>
      %y = arith.mulf %x, %p : f32
      %t = arith.addf %acc, %y : f32
      loop.yield %t : f32
    }
    loop.store %s, %out[%j] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-interchange{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INTERCHANGE_REJECT_DEPENDENCE.mlir:10:7: remark: INTERCHANGE_REJECT_DEPENDENCE: the row loop reads a buffer the nest writes
