// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=2 filter_block=0}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=SERIAL
// The C of a loop.parallel kernel: the serial kernel becomes static <k>__chunk, <k> keeps
// the signature and drives the chunks with OpenMP (LO_OMP is _Pragma under -fopenmp).

// SERIAL-NOT: LO_OMP
// SERIAL-NOT: __chunk

// CHECK: #define LO_OMP(directive) _Pragma(directive)
// CHECK: extern int loopopt_num_threads __attribute__((weak));

// CHECK: static float sum__chunk(const float *restrict x, int64_t x_len)
// CHECK: static int64_t positive__chunk(const int32_t *restrict x, int64_t x_len, int32_t *restrict out, int64_t out_len)
// CHECK: static void cumsum__chunk(const int64_t *restrict x, int64_t x_len, int64_t *restrict out, int64_t out_len)

// A float sum: fixed chunks (32768 on the generic CPU, passes/loop_parallelize.sizes_for)
// whatever the thread count, partials combined in order.
// CHECK-LABEL: float sum(const float *restrict x, int64_t x_len)
// CHECK:         if (lo_n < 131072) {
// CHECK-NEXT:      return sum__chunk(x, x_len);
// CHECK:         const int lo_t = lo_par_begin(2);
// CHECK:         const int64_t lo_cs = 32768;
// CHECK:         LO_OMP("omp parallel num_threads(lo_t)")
// CHECK:         LO_OMP("omp for schedule(static)")
// CHECK:           lo_part0[lo_c] = sum__chunk(x + lo_lo, lo_len);
// CHECK:         for (int64_t lo_c = 1; lo_c < lo_nch; lo_c++)
// CHECK-NEXT:      lo_r0 = lo_r0 + lo_part0[lo_c];
// CHECK:         lo_par_end();
// CHECK-NEXT:    return lo_r0;
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// A filter: fixed chunks claimed in increasing order; chunk c's place in the output is
// published by chunk c - 1 once it has compacted. A chunk whose place is known compacts into
// the output, else into its thread's chunk-sized scratch, then waits for its place,
// publishes the next and copies — with non-temporal stores when the output's n elements
// reach the CPU's streaming threshold (generic: 4 MiB). A short output runs serially.
// CHECK-LABEL: int64_t positive(const int32_t *restrict x, int64_t x_len, int32_t *restrict out, int64_t out_len)
// CHECK:         if (lo_n < 65536 || out_len < lo_n) {
// CHECK:         const int64_t lo_cs = 16384;
// CHECK:         int32_t *lo_scr_out = malloc(sizeof(int32_t) * (size_t)(lo_cs * lo_t > 0 ? lo_cs * lo_t : 1));
// CHECK:         int64_t *lo_off = malloc(sizeof(int64_t) * (size_t)(lo_nch + 1 > 0 ? lo_nch + 1 : 1));
// CHECK:         lo_off[0] = 0;
// CHECK:         int64_t lo_next = 0;
// CHECK:         for (int64_t lo_c; (lo_c = lo_par_claim(&lo_next)) < lo_nch;) {
// CHECK:           int64_t lo_at = lo_par_peek(&lo_off[lo_c]);
// CHECK-NEXT:      if (lo_at >= 0) {
// CHECK-NEXT:        lo_part0[lo_c] = positive__chunk(x + lo_lo, lo_len, out + lo_at, lo_len);
// CHECK-NEXT:        lo_par_publish(&lo_off[lo_c + 1], lo_at + lo_part0[lo_c]);
// CHECK-NEXT:      } else {
// CHECK-NEXT:        lo_part0[lo_c] = positive__chunk(x + lo_lo, lo_len, lo_scr_out + lo_me * lo_cs, lo_len);
// CHECK-NEXT:        lo_at = lo_par_wait(&lo_off[lo_c]);
// CHECK-NEXT:        lo_par_publish(&lo_off[lo_c + 1], lo_at + lo_part0[lo_c]);
// CHECK-NEXT:        lo_par_copy(out + lo_at, lo_scr_out + lo_me * lo_cs, sizeof(int32_t) * (size_t)lo_part0[lo_c], lo_n >= 4194304 / (int64_t)sizeof(int32_t));
// CHECK-NEXT:      }
// CHECK:         return lo_r0;
func.func @positive(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %p : !df.array<i32, [k]>
}

// An integer scan: fixed chunks claimed in increasing order; each scans locally, waits for
// the scan up to the previous chunk's end (a bit mask: bit j when scan j has an offset),
// publishes its own end for the next chunk, then adds its offset (wrapping) to its elements
// while they are in cache: no second pass.
// CHECK-LABEL: void cumsum(const int64_t *restrict x, int64_t x_len, int64_t *restrict out, int64_t out_len)
// CHECK:         const int64_t lo_cs = 8192;
// CHECK:         lo_sready[0] = 0;
// CHECK:         for (int64_t lo_c; (lo_c = lo_par_claim(&lo_next)) < lo_nch;) {
// CHECK:           cumsum__chunk(x + lo_lo, lo_len, out + lo_lo, lo_len);
// CHECK-NEXT:      const int64_t lo_has = lo_par_wait(&lo_sready[lo_c]);
// CHECK-NEXT:      if (lo_c + 1 < lo_nch) {
// CHECK-NEXT:        lo_soff_out[lo_c + 1] = ((lo_has >> 0) & 1) ? (int64_t)((uint64_t)lo_soff_out[lo_c] + (uint64_t)(out + lo_lo)[lo_len - 1]) : (out + lo_lo)[lo_len - 1];
// CHECK-NEXT:        lo_par_publish(&lo_sready[lo_c + 1], lo_has | ((int64_t)1 << 0));
// CHECK-NEXT:      }
// CHECK-NEXT:      if (((lo_has >> 0) & 1)) {
// CHECK-NEXT:        const int64_t lo_off = lo_soff_out[lo_c];
// CHECK-NEXT:        int64_t *const lo_s = out + lo_lo;
// CHECK-NEXT:        LO_OMP("omp simd")
// CHECK-NEXT:        for (int64_t lo_i = 0; lo_i < lo_len; lo_i++)
// CHECK-NEXT:          lo_s[lo_i] = (int64_t)((uint64_t)lo_off + (uint64_t)lo_s[lo_i]);
// CHECK-NOT:     omp single
func.func @cumsum(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant 0 : i64
  %p = df.scan add(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

// A scan of the filtered values: chained after the places; a chunk that compacted into
// scratch adds its offset there before the copy; a chunk that selected nothing passes the
// offset on (and sets no bit if there was none).
// CHECK-LABEL: int64_t pos_cumsum(const int32_t *restrict x, int64_t x_len, int32_t *restrict out, int64_t out_len)
// CHECK:             lo_part0[lo_c] = pos_cumsum__chunk(x + lo_lo, lo_len, out + lo_at, lo_len);
// CHECK-NEXT:        lo_par_publish(&lo_off[lo_c + 1], lo_at + lo_part0[lo_c]);
// CHECK-NEXT:        const int64_t lo_has = lo_par_wait(&lo_sready[lo_c]);
// CHECK-NEXT:        if (lo_c + 1 < lo_nch) {
// CHECK-NEXT:          if (lo_part0[lo_c] > 0)
// CHECK-NEXT:            lo_soff_out[lo_c + 1] = ((lo_has >> 0) & 1) ? (int32_t)((uint32_t)lo_soff_out[lo_c] + (uint32_t)(out + lo_at)[lo_part0[lo_c] - 1]) : (out + lo_at)[lo_part0[lo_c] - 1];
// CHECK-NEXT:          else if (((lo_has >> 0) & 1))
// CHECK-NEXT:            lo_soff_out[lo_c + 1] = lo_soff_out[lo_c];
// CHECK-NEXT:          lo_par_publish(&lo_sready[lo_c + 1], lo_has | ((int64_t)(lo_part0[lo_c] > 0) << 0));
// CHECK:               lo_s[lo_i] = (int32_t)((uint32_t)lo_off_1 + (uint32_t)lo_s[lo_i]);
// CHECK:           } else {
// CHECK:             lo_at = lo_par_wait(&lo_off[lo_c]);
// CHECK:             int32_t *const lo_s_1 = lo_scr_out + lo_me * lo_cs;
// CHECK:             lo_par_copy(out + lo_at, lo_scr_out + lo_me * lo_cs,
func.func @pos_cumsum(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %p = df.scan add(%pos, %zero) : !df.array<i32, [k]> -> !df.array<i32, [k]>
  func.return %p : !df.array<i32, [k]>
}
