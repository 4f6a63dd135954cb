// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3}' -t c | filecheck %s

// A small-call version's large copy is `<kernel>__large` (targets/c_small_calls.py). When the
// module has a kernel of that name, the large copy stays inline in the `else` arm: the C is the
// same computation, and the user's function keeps its name.

func.func @scale(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @scale__large(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  func.return %y : f32
}

// CHECK-NOT:   lo_noinline
// CHECK-LABEL: void scale(
// CHECK:         if (!aligned && !stream) {
// CHECK:             _mm256_storeu_ps(&out[i], m);
// CHECK:         } else {
// CHECK-NEXT:        _Bool {{.*}} =
// CHECK:             _mm256_stream_ps(&out[i], m);
// CHECK:             _mm256_storeu_ps(&out[i], m);
// CHECK:                 out[i] = m;
// CHECK-NEXT:        }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: float scale__large(float x)
// CHECK-NEXT:  {
// CHECK-NEXT:      float y = x + x;
// CHECK-NOT:   lo_noinline
