// softmax's exp map feeds the sum and the scaling map: the exp is computed once, not in both.
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

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:10:3: remark: FUSE_REJECT_TRANSCENDENTAL: producer df.map at {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:4:3 has 1 other user(s) and computes math.exp at {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:7:5: it stays materialized, computed once
// CHECK: {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:11:3: remark: FUSE_REJECT_TRANSCENDENTAL: producer df.map at {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:4:3 has 1 other user(s) and computes math.exp at {{.*}}FUSE_REJECT_TRANSCENDENTAL.mlir:7:5: it stays materialized, computed once
