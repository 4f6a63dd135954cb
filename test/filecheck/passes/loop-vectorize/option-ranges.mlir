// RUN: not loop-opt %s -p 'loop-vectorize{width=3}' 2>&1 | filecheck %s --check-prefix=THREE
// RUN: not loop-opt %s -p 'loop-vectorize{width=128}' 2>&1 | filecheck %s --check-prefix=WIDE
// RUN: loop-opt %s -p 'loop-vectorize{width=64}' | filecheck %s

// THREE: error: loop-vectorize: option width=3 is not a power of two in [1, 64]
// WIDE: error: loop-vectorize: option width=128 is out of range [1, 64]
// CHECK: loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(64) tail(scalar) {
func.func @copy(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}
