// @ext is an external function: its effects are unknown.
func.func private @ext(f32) -> f32
func.func @apply(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %w = arith.negf %e : f32
    df.yield %w : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = func.call @ext(%e) : (f32) -> f32
    df.yield %v : f32
  }
  func.return %b : !df.array<f32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_EFFECTS_UNKNOWN.mlir:9:3: remark: FUSE_REJECT_EFFECTS_UNKNOWN: func.call at {{.*}}FUSE_REJECT_EFFECTS_UNKNOWN.mlir:11:5 has unknown effects in the fusion region
