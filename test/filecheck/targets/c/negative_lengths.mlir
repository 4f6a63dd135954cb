// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s

// Found by the ABI fuzzer (session 23, docs/fuzzing.md "Hostile C callers"):
// * a scratch buffer's size is a C caller's length: a negative one was cast to a huge size_t
//   (malloc fails, ASan aborts "allocation-size-too-big"); it is clamped at 0 (in lo_alloc:
//   out_of_memory.mlir);
// * a filter result the kernel also reads (here: sums; the long predicate keeps df-fuse from
//   recomputing the filter in the sum) was written straight into the caller's buffer and read
//   back over the whole count, past a smaller capacity: it is kept in scratch and the first
//   min(count, capacity) elements are copied out.

// CHECK:         const uint64_t r = rows > 0 ? (uint64_t)rows : 0u, c = cols > 0 ? (uint64_t)cols : 0u;
// CHECK-LABEL: keep_sum(
// CHECK:         int32_t *restrict [[S:[a-z0-9_]+]] = lo_alloc(x_len, 1, sizeof(int32_t));
// CHECK-NEXT:    if ([[S]] == NULL) { *ret0 = 0; *ret1 = 0; return; }
// CHECK:         int64_t [[CAP:[a-z0-9_]+]] = out_len > 0 ? out_len : 0;
// CHECK-NEXT:    int64_t [[N:[a-z0-9_]+]] = count < [[CAP]] ? count : [[CAP]];
// CHECK:         k < [[N]]; k++) {
// CHECK:         free([[S]]);
func.func @keep_sum(%x: !df.array<i32, [i]>) -> (!df.array<i32, [k]>, i32) {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%a1: i32):
    %t2 = arith.constant 1 : i32
    %t3 = arith.addi %a1, %t2 : i32
    %t4 = arith.constant 3 : i32
    %t5 = arith.xori %t3, %t4 : i32
    %t6 = arith.constant 2 : i32
    %t7 = arith.addi %t5, %t6 : i32
    %t8 = arith.constant 6 : i32
    %t9 = arith.xori %t7, %t8 : i32
    %t10 = arith.constant 3 : i32
    %t11 = arith.addi %t9, %t10 : i32
    %t12 = arith.constant 9 : i32
    %t13 = arith.xori %t11, %t12 : i32
    %t14 = arith.constant 4 : i32
    %t15 = arith.addi %t13, %t14 : i32
    %t16 = arith.constant 12 : i32
    %t17 = arith.xori %t15, %t16 : i32
    %t18 = arith.constant 5 : i32
    %t19 = arith.addi %t17, %t18 : i32
    %t20 = arith.constant 15 : i32
    %t21 = arith.xori %t19, %t20 : i32
    %t22 = arith.constant 0 : i32
    %t23 = arith.cmpi sgt, %t21, %t22 : i32
    df.yield %t23 : i1
  }
  %t24 = arith.constant 0 : i32
  %s = df.reduce add(%p, %t24) over [k] : !df.array<i32, [k]> -> i32
  func.return %p, %s : !df.array<i32, [k]>, i32
}

