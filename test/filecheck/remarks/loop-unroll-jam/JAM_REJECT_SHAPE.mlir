// A matrix-vector product: each row's dot product is carried by the inner loop.
func.func @matvec(%m: !loop.buf<f32, 2>, %v: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n_i) {
    %s = loop.for %j in [%c0, %n_j) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %y = loop.load %v[%j] : !loop.buf<f32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %acc, %p : f32
      loop.yield %t : f32
    }
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-unroll-jam{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}JAM_REJECT_SHAPE.mlir:8:5: remark: JAM_REJECT_SHAPE: a nested loop carries values or is not a loop.for
