// Column sums stored twice: the column loop does more than store each result once.
func.func @colsum_twice(%m: !loop.buf<f32, 2>, %a: !loop.buf<f32>, %b: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %j in [%c0, %n_j) {
    %s = loop.for %i in [%c0, %n_i) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %a[%j] : !loop.buf<f32>
    loop.store %s, %b[%j] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-interchange{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INTERCHANGE_REJECT_SHAPE.mlir:7:3: remark: INTERCHANGE_REJECT_SHAPE: the column loop does more than run the row loop and store its results
