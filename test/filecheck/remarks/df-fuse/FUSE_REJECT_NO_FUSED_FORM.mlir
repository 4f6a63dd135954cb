// A running sum of the positive elements: filter, then scan.
func.func @positive_cumsum(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %y = df.scan add(%p, %zero) : !df.array<i32, [k]> -> !df.array<i32, [k]>
  func.return %y : !df.array<i32, [k]>
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_NO_FUSED_FORM.mlir:9:3: remark: FUSE_REJECT_NO_FUSED_FORM: filter → scan: df.filter at {{.*}}FUSE_REJECT_NO_FUSED_FORM.mlir:4:3 feeds it, and df has no filtered scan (a prefix over the kept elements, on the new axis)
