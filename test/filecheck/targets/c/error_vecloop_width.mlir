// RUN: not loop-opt %s -t c 2>&1 | filecheck %s

// A vector loop must be lowered by convert-loop-to-simd before printing.
func.func @vec(%x: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(8) tail(scalar) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    loop.store %v, %x[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK: error_vecloop_width.mlir:6:3: error: loop.vecloop of width 8 reaches the C printer: only width 1 prints as scalar C; run convert-loop-to-simd first
