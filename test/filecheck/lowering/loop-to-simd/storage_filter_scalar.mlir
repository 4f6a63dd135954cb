// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s

// A filter of f16 / bf16 storage on the scalar target (what `@loopopt.jit` traces for
// `x[x > a]`): the scalar ISA has no one-lane f16 / bf16 vectors for the width-1 predloop
// form, so the loop stays the plain scalar loop (it was a C printer error, "vector<1xf16> is
// not a native scalar vector"), printed branch-free: stored at the cursor, which advances by
// the predicate (targets/c_print_loops.py).

// CHECK-LABEL: int64_t keep_f16(const uint16_t *restrict x, int64_t x_len, uint16_t a, uint16_t *restrict out, int64_t out_len)
// CHECK:         float [[A:v[_0-9]*]] = lo_f16_to_f32(a);
// CHECK:         for (int64_t i = 0; i < stop; i++) {
// CHECK:           float [[E:v_[0-9]+]] = lo_f16_to_f32(
// CHECK-NOT:       if (
// CHECK:           out[count] = 
// CHECK:           count += 
// CHECK-LABEL: int64_t keep_bf16(const uint16_t *restrict x, int64_t x_len, uint16_t a, uint16_t *restrict out, int64_t out_len)
// CHECK:         lo_bf16_to_f32(
// CHECK:         for (int64_t i = 0; i < stop; i++) {
// CHECK-NOT:       if (
// CHECK:           out[count] = 
// CHECK:           count += 
func.func @keep_f16(%x: !df.array<f16, [i]>, %a: f16) -> !df.array<f16, [k]> {
  %0 = df.filter %x : !df.array<f16, [i]> -> !df.array<f16, [k]> {
  ^bb0(%1: f16):
    %2 = arith.extf %1 : f16 to f32
    %3 = arith.extf %a : f16 to f32
    %4 = arith.cmpf ogt, %2, %3 : f32
    df.yield %4 : i1
  }
  func.return %0 : !df.array<f16, [k]>
}

func.func @keep_bf16(%x: !df.array<bf16, [i]>, %a: bf16) -> !df.array<bf16, [k]> {
  %0 = df.filter %x : !df.array<bf16, [i]> -> !df.array<bf16, [k]> {
  ^bb0(%1: bf16):
    %2 = arith.extf %1 : bf16 to f32
    %3 = arith.extf %a : bf16 to f32
    %4 = arith.cmpf ogt, %2, %3 : f32
    df.yield %4 : i1
  }
  func.return %0 : !df.array<bf16, [k]>
}
