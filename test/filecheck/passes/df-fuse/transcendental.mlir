// RUN: loop-opt %s -p 'df-fuse' | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=C

// softmax (issue 12): the exp map feeds the sum and the scaling map. df-fuse keeps it one map
// (FUSE_REJECT_TRANSCENDENTAL) instead of recomputing the exp in both consumers; loop-fuse
// then computes the exp, stores it and sums it in one loop.
func.func @softmax(%x: !df.array<f32, [i]>, %m: f32) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %e = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %d = arith.subf %v, %m : f32
    %x1 = math.exp %d : f32
    df.yield %x1 : f32
  }
  %s = df.reduce add(%e, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %y = df.map %e : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %q = arith.divf %v, %s : f32
    df.yield %q : f32
  }
  func.return %y : !df.array<f32, [i]>
}
// CHECK:      %e = df.map %x
// CHECK:        math.exp
// CHECK:      %s = df.reduce add(%e, %zero)
// CHECK-NOT:    math.exp
// CHECK:      %y = df.map %e
// CHECK-NOT:    math.exp
// CHECK:      func.return %y

// One vector exp per block in the unrolled main loop (interleave 4), in the loop that also sums;
// the scaling loops read the stored exps back from the output (loop-inplace: no temporary).
// C:          void softmax(
// C-NOT:      lo_alloc(
// C-COUNT-4:  lo_vm_exp_f32x16(
// C:          _mm512_add_ps
// C:          expf(
// C-NOT:      lo_vm_exp_f32x16(
// C-NOT:      expf(
// C:          _mm512_loadu_ps(&out[
