// RUN: loop-opt %s -p 'loop-vectorize{width=V}' | filecheck %s --check-prefix=SYMBOL
// RUN: not loop-opt %s -p 'loop-vectorize{width=0}' 2>&1 | filecheck %s --check-prefix=ZERO

// Any symbol names the width until lowering.
// SYMBOL: loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(V) tail(scalar) {
func.func @copy(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}

// ZERO: error: loop-vectorize: option width=0 is out of range [1, 64]
