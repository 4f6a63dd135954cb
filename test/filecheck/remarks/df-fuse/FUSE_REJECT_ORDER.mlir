// Two sums of one array: only the first may be reassociated.
func.func @two_sums(%x: !df.array<f32, [i]>) -> (f32, f32) {
  %z = arith.constant 0.0 : f32
  %a = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  %b = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %a, %b : f32, f32
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_ORDER.mlir:5:3: remark: FUSE_REJECT_ORDER: one candidate may be reassociated and the other keeps its sequential order: one fused reduction cannot do both
