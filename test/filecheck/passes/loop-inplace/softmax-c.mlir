// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR
// Softmax through the default pipeline: the exps are stored into the output and the scaling
// loop reads them back from it; the kernel allocates nothing (it called lo_alloc for n floats).

// CHECK-LABEL: void softmax_f32(const float *restrict x, int64_t x_len, float *restrict out, int64_t out_len)
// CHECK-NOT:     lo_alloc
// CHECK:         _mm256_storeu_ps(&out[i], x1);
// CHECK:         __m256 v_{{.*}} = _mm256_loadu_ps(&out[i]);
// CHECK-NOT:     lo_alloc
// CHECK:       }

// SCALAR-LABEL: void softmax_f32(
// SCALAR-NOT:     lo_alloc
// SCALAR:         out[{{.*}}] = x1
// SCALAR-NOT:     lo_alloc
// SCALAR:       }
func.func @softmax_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant -3.0e38 : f32
  %m = df.reduce max(%x, %lo) over [i] : !df.array<f32, [i]> -> f32
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
