// A fold that divides by the kept elements with llvm.sdiv (undefined on zero); the filter drops the zeros.
func.func @div_fold(%x: !df.array<i32, [i]>, %c: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %ne = arith.cmpi ne, %e, %zero : i32
    df.yield %ne : i1
  }
  %q = df.fold(%p) init(%zero) : !df.array<i32, [k]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %d = llvm.sdiv %c, %e : i32
    %s = arith.addi %acc, %d : i32
    df.yield %s : i32
  }
  func.return %q : i32
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_SPECULATION.mlir:9:3: remark: FUSE_REJECT_SPECULATION: llvm.sdiv at {{.*}}FUSE_REJECT_SPECULATION.mlir:11:5 may trap and would run on the elements the filter drops
