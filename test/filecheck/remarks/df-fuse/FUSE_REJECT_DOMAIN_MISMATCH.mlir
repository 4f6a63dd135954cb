// A row sum and a column sum of one matrix: they reduce different axes.
func.func @sums(%m: !df.array<i32, [i, j]>) -> (!df.array<i32, [i]>, !df.array<i32, [j]>) {
  %z = arith.constant 0 : i32
  %r = df.reduce add(%m, %z) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  %c = df.reduce add(%m, %z) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r, %c : !df.array<i32, [i]>, !df.array<i32, [j]>
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_DOMAIN_MISMATCH.mlir:5:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: it reduces over [i] but df.reduce at {{.*}}FUSE_REJECT_DOMAIN_MISMATCH.mlir:4:3 over [j]
