// A call to an external function has no vector form.
func.func private @ext(f32) -> f32
func.func @apply(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = func.call @ext(%e) : (f32) -> f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_NO_VECTOR_FORM.mlir:6:5: remark: VEC_REJECT_NO_VECTOR_FORM: func.call has no vector form
