// Unrolling is bounded: factor and full_threshold are at most 64 (passes/options.py), a
// constant trip count is never listed, and full unrolling stops at 4096 ops per loop.
// RUN: not loop-opt %s -p 'loop-unroll{factor=100000}' 2>&1 | filecheck %s --check-prefix=FACTOR
// RUN: not loop-opt %s -p 'loop-unroll{full_threshold=100000}' 2>&1 | filecheck %s --check-prefix=FULL
// RUN: not loop-opt %s -p 'loop-unroll{factor=false}' 2>&1 | filecheck %s --check-prefix=BOOL
// RUN: loop-opt %s -p 'loop-unroll{factor=4 full_threshold=64}' | filecheck %s

// FACTOR: error: loop-unroll: option factor=100000 is out of range [1, 64]
// FULL: error: loop-unroll: option full_threshold=100000 is out of range [0, 64]
// BOOL: error: loop-unroll: option factor=false is not an integer (expected one in [1, 64])

// A constant trip count of 10**15 is unrolled by 4 at once (it used to list every value).
// CHECK-LABEL: func.func @huge
// CHECK:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:           loop.load %{{.*}}[%{{.*}} + 3]
// CHECK-NOT:       loop.load %{{.*}}[%{{.*}} + 4]
func.func @huge(%b: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %cbig = arith.constant 1000000000000000 : index
  loop.for %i in [%c0, %cbig) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  func.return
}

// Three nested 64-trip constant loops: the innermost is fully unrolled (64 copies), the
// middle one would be 64 x 64 copies (> 4096 ops) and stays a loop (partially unrolled).
// CHECK-LABEL: func.func @nest
// CHECK:         loop.for
// CHECK:           loop.for
// CHECK:             loop.load %{{.*}}[%{{.*}}, 63]
// CHECK-NOT:         loop.load %{{.*}}[%{{.*}}, 64]
func.func @nest(%b: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  loop.for %k in [%c0, %c64) {
    loop.for %i in [%c0, %c64) {
      loop.for %j in [%c0, %c64) {
        %x = loop.load %b[%i, %j] : !loop.buf<f32, 2>
        loop.store %x, %b[%i, %j] : !loop.buf<f32, 2>
      }
    }
  }
  func.return
}
