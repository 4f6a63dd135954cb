// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen4}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// Small-call versions (targets/c_small_calls.py): a kernel whose lowering tests whether its data is
// beyond a threshold (%aligned, %stream, %beyond_l2, %beyond_llc) prints the tests first, then
// `if (!aligned && !stream && ...) { aligned = 0; stream = 0; ... the body } else { k__large(args); }`.
// The first arm is what a short call runs: its tests are assigned 0 (what the condition says), so
// gcc folds its selects and the sections that cannot run (the alignment peel, the streaming loops,
// the fence) cost nothing there. `static lo_noinline k__large`, declared before the kernel and
// defined after it, is the same body text unversioned: out of line, a short call does not pay
// for the frame and the callee-saved registers the long path's loops need.
// A fits test (%in_l1) stays a run-time value in both copies; a kernel without a test prints once.

func.func @axpy(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @sum(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// AVX2:        static lo_noinline void axpy__large(const float *restrict x, {{.*}}, float *restrict out, int64_t out_len);
// AVX2-LABEL:  void axpy(
// AVX2:          _Bool fits_i = y_fits & out_fits;
// AVX2-NEXT:     int64_t n_i = (fits_i) ? x_len : 0;
// AVX2-NEXT:     int64_t trips = n_i > 0 ? n_i : 0;
// AVX2-NEXT:     _Bool aligned = trips > 2730;
// AVX2:          _Bool stream = {{.*}} >= 16777216;
// AVX2-NEXT:     if (!aligned && !stream) {
// AVX2-NEXT:         aligned = 0;
// AVX2-NEXT:         stream = 0;
// AVX2:              int64_t [[AHEAD:.*]] = (int64_t)(((0u - (uintptr_t)&out[0]) & (32u - 1u)) / sizeof(out[0]));
// AVX2:              int64_t peel = (stream) ? {{.*}} : head;
// AVX2:              _mm256_stream_ps(&out[i], s);
// AVX2:              _mm256_storeu_ps(&out[i], s);
// AVX2:              out[i] = s;
// AVX2-NEXT:         }
// AVX2-NEXT:     } else {
// AVX2-NEXT:         axpy__large(x, x_len, y, y_len, a, out, out_len);
// AVX2-NEXT:     }
// AVX2-NEXT:  }
// AVX2-EMPTY:
// AVX2-NEXT:  static lo_noinline void axpy__large(const float *restrict x, {{.*}}, float *restrict out, int64_t out_len)
// AVX2-NEXT:  {
// AVX2-NEXT:     _Bool y_fits = x_len <= y_len;
// AVX2:          _Bool aligned = trips > 2730;
// AVX2:          _Bool stream = {{.*}} >= 16777216;
// AVX2-NOT:      if (
// AVX2:          int64_t [[AHEAD]] = (int64_t)(((0u - (uintptr_t)&out[0]) & (32u - 1u)) / sizeof(out[0]));
// AVX2:          int64_t peel = (stream) ? {{.*}} : head;
// AVX2:          _mm256_stream_ps(&out[i], s);
// AVX2:          _mm256_storeu_ps(&out[i], s);
// AVX2:          out[i] = s;
// AVX2-NEXT:     }
// AVX2-NEXT:  }
// A fold beyond the LLC walks K streams (cpu/fold_streams.mlir; every width since session 26):
// its test gets the small-call copy too; a function with results returns the large copy's.
// AVX2-LABEL:  int32_t sum(
// AVX2:          _Bool aligned = {{.*}} > {{[0-9]+}};
// AVX2:          _Bool beyond_llc = {{.*}} > 8388608;
// AVX2-NEXT:     if (!aligned && !beyond_llc) {
// AVX2-NEXT:         aligned = 0;
// AVX2:              beyond_llc = 0;
// AVX2:              int64_t per_stream =
// AVX2:          } else {
// AVX2-NEXT:         return sum__large(x, x_len);
// AVX2-NEXT:     }
// AVX2:        static lo_noinline int32_t sum__large(const int32_t *restrict x, int64_t x_len)
// AVX2:          int64_t per_stream =
// AVX2:          return

// Zen 4 AVX-512: the streaming test and the beyond-L2 test (half loads) are read before the `if`
// (beyond_l2 reads what the streaming section leaves); the small arm assigns again, from their own
// text, the values computed from a test that the body reads (peel ... the part left), so that they
// fold too (assignments: no shadowing name); the in-L1 test (256-bit blocks) stays in each copy.
// ZEN4-LABEL:  void axpy(
// ZEN4:          _Bool aligned = trips > 2730;
// ZEN4-NEXT:     _Bool in_llc = trips <= {{[0-9]+}};
// ZEN4-NEXT:     _Bool [[ALIGN:.*]] = aligned & in_llc;
// ZEN4:          _Bool stream = {{.*}} >= 16777216;
// ZEN4:          int64_t head = ([[ALIGN]]) ? {{.*}} : 0;
// ZEN4-NEXT:     int64_t peel = (stream) ? [[AHEAD:.*]] : head;
// ZEN4:          _Bool beyond_l2 = [[LEFT:.*]] > 87381;
// ZEN4-NEXT:     if (!aligned && !stream && !beyond_l2) {
// ZEN4-NEXT:         aligned = 0;
// ZEN4-NEXT:         [[ALIGN]] = aligned & in_llc;
// ZEN4-NEXT:         stream = 0;
// ZEN4-NEXT:         head = ([[ALIGN]]) ? {{.*}} : 0;
// ZEN4-NEXT:         peel = (stream) ? [[AHEAD]] : head;
// ZEN4:              [[LEFT]] = {{.*}};
// ZEN4-NEXT:         beyond_l2 = 0;
// ZEN4-NOT:          int64_t peel
// ZEN4:              _Bool in_l1 = {{.*}} <= 2730;
// ZEN4:              (in_l1) ? {{.*}} : 0;
// ZEN4:              _mm256_storeu_ps(&out[(i) + 8], s_1);
// ZEN4:              _mm512_mask_storeu_ps(&out[i], {{.*}}, s);
// ZEN4:          } else {
// ZEN4-NEXT:         axpy__large(x, x_len, y, y_len, a, out, out_len);
// ZEN4-NEXT:     }
// ZEN4-NEXT:  }
// ZEN4:        static lo_noinline void axpy__large(
// ZEN4:          int64_t peel = (stream) ? [[AHEAD]] : head;
// ZEN4:          _Bool beyond_l2 = [[LEFT]] > 87381;
// ZEN4:          _Bool in_l1 = {{.*}} <= 2730;
// ZEN4:          _mm512_mask_storeu_ps(&out[i], {{.*}}, s);
// ZEN4-NEXT:     }
// ZEN4-NEXT:  }
// A fold beyond the L2 adds in 256-bit halves on Zen 4 (split folds), beyond the LLC in
// streams (fold streams): with the alignment peel, three tests, all false on a small call.
// ZEN4-LABEL:  int32_t sum(
// ZEN4:          _Bool aligned = {{.*}} > {{[0-9]+}};
// ZEN4:          _Bool beyond_llc = {{.*}} > {{[0-9]+}};
// ZEN4:          _Bool beyond_l2 = {{.*}} > {{[0-9]+}};
// ZEN4-NEXT:     if (!aligned && !beyond_llc && !beyond_l2) {
// ZEN4-NEXT:         aligned = 0;
// ZEN4:              beyond_llc = 0;
// ZEN4:              beyond_l2 = 0;
// ZEN4:              return
// ZEN4:          } else {
// ZEN4-NEXT:         return sum__large(x, x_len);
// ZEN4-NEXT:     }
// ZEN4-NEXT:  }
// ZEN4:        static lo_noinline int32_t sum__large(
// ZEN4-NOT:      if (!
// ZEN4:          return

// SCALAR-NOT:   __large
// SCALAR-LABEL: void axpy(
// SCALAR-NOT:     if (
// SCALAR:       }
// SCALAR-LABEL: int32_t sum(
// SCALAR-NOT:     if (
// SCALAR:         return
// SCALAR-NOT:   __large
