// Column sums of a row-major matrix: the inner loop walks down a column.
func.func @colsum(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [j]> {
  %z = arith.constant 0.0 : f32
  %r = df.reduce add(%m, %z) over [i] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [j]>
  func.return %r : !df.array<f32, [j]>
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_NONUNIT_STRIDE.mlir:4:3: remark: VEC_REJECT_NONUNIT_STRIDE: index of dimension 0 moves with the loop variable (coefficient 1): consecutive iterations are a row apart
