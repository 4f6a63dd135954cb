// RUN: loop-opt %s -p 'loop-unroll{factor=1 full_threshold=0}' | filecheck %s --check-prefix=OFF
// RUN: not loop-opt %s -p 'loop-unroll{factor=0}' 2>&1 | filecheck %s --check-prefix=FACTOR
// RUN: not loop-opt %s -p 'loop-unroll{full_threshold=-1}' 2>&1 | filecheck %s --check-prefix=THRESHOLD

// factor=1 and full_threshold=0 turn both kinds of unrolling off.
// OFF-LABEL: func.func @off
// OFF-NEXT:    %{{.*}} = arith.constant 0 : index
// OFF-NEXT:    %{{.*}} = arith.constant 2 : index
// OFF-NEXT:    loop.for
func.func @off(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  loop.for %i in [%c0, %c2) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  func.return
}

// FACTOR: error: loop-unroll: option factor=0 is out of range [1, 64]
// THRESHOLD: error: loop-unroll: option full_threshold=-1 is out of range [0, 64]
