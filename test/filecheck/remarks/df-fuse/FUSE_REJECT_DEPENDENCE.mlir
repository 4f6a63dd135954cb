// The maximum starts from the sum: the sum must be complete first.
func.func @max_from_sum(%x: !df.array<f64, [i]>) -> f64 {
  %z = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f64, [i]> -> f64
  %m = df.reduce max(%x, %s) over [i] : !df.array<f64, [i]> -> f64
  func.return %m : f64
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_DEPENDENCE.mlir:5:3: remark: FUSE_REJECT_DEPENDENCE: it reads the result of df.reduce at {{.*}}FUSE_REJECT_DEPENDENCE.mlir:4:3, so the two cannot run in one pass
