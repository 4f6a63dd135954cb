// RUN: not loop-opt %s -t c 2>&1 | filecheck %s

// An op without a C rule is an error at its own line, not silently wrong C.
func.func @unknown(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : !loop.buf<f32>
  %w = math.sinh %v : f32
  func.return %w : f32
}
// CHECK: error_unknown_op.mlir:7:3: error: the C printer cannot print math.sinh (no rule for this op)
