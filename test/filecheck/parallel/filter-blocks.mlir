// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=-1 filter_block=-1}' | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c | filecheck %s --check-prefix=ZEN4C
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3 parallel=-1}' | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3 parallel=-1}' -t c | filecheck %s --check-prefix=ZEN3C
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=-1}' -t c | filecheck %s --check-prefix=OLD
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=0}' -t c | filecheck %s --check-prefix=OLD
// RUN: not loop-opt %s -p 'loop-pipeline{target=avx2 parallel=-1 filter_block_lookback=true}' 2>&1 | filecheck %s --check-prefix=GONE
// RUN: not loop-opt %s -p 'loop-parallelize{filter_block=-1 filter_block_lookback=true}' 2>&1 | filecheck %s --check-prefix=GONE
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1 filter_block_stream=false}' -t c | filecheck %s --check-prefix=INPLACE
// Parallel filters whose only result is the count run in super-blocks (docs/threads.md):
// loop-parallelize plans `block` (a thread's part: 2 L2s of input, passes/loop_parallelize.
// block_for), derive-filter-count adds `<k>__count` (the kernel's simd IR with every
// compress_store replaced by its mask's popcount), and the C driver counts a part, publishes
// the count, then compacts the part straight to its place, the count left as its capacity
// (an output of the streaming threshold or more through an L1 stage and non-temporal copies).

// The plan and the pipeline: zen4's 1 MiB L2 -> 512 Ki f32, the generic CPU's 512 KiB -> 256 Ki.
// IR: loop.pipeline = "{{.*}}loop-parallelize{threads=0 cpu=zen4 filter_block=-1}{{.*}},derive-filter-count"
// IR-LABEL: func.func @keep(
// IR-SAME:    results = ["count"], scans = [], scan_kinds = [], stream_bytes = 16777216 : i64, block = 524288 : i64, block_stream = 1 : i64, block_pairs = 1 : i64}
// IR:         simd.compress_store
// IR-LABEL: func.func private @keep__count(
// IR-SAME:    -> index attributes {loop.count_of = "keep"} {
// IR-NOT:     simd.compress_store
// IR:         simd.mask_popcount
// IR-NOT:     simd.compress_store
// IR:         func.return
// GENERIC: block = 262144 : i64
// GENERIC: func.func private @keep__count(

// 16-bit lanes compact as the bytes of their register: a counting kernel, the new driver.
// IR-LABEL: func.func @keep_i16(
// IR-SAME:    block = 1048576 : i64, block_stream = 1 : i64, block_pairs = 1 : i64}
// IR:       func.func private @keep_i16__count(

// f32 values kept by an f64 test compact by scalar appends (a half-register vector has no
// compaction): planned, but no counting kernel (its compaction is not a compress_store), so
// the scratch-and-copy driver. A filter feeding a reduction has
// another result than the count: no block.
// IR-LABEL: func.func @keep_wide(
// IR-SAME:    block = 524288 : i64, block_stream = 1 : i64, block_pairs = 1 : i64}
// IR-NOT:   @keep_wide__count
// IR-LABEL: func.func @psum(
// IR-NOT:     block
// IR-SAME:    {
// IR-NOT:   __count

// The C: the count kernel is static; the driver.
// The streamed pieces' drain: plain stores and the sfence only when `last` (a part's end).
// CHECK-LABEL: static inline size_t lo_par_drain(void *dst, void *stage, size_t bytes, _Bool last)
// CHECK-NOT:     _mm_sfence
// CHECK:         _mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
// CHECK-NOT:     _mm_sfence
// CHECK:         if (last) {
// CHECK-NEXT:      memcpy(d + done, s + done, bytes - done);
// CHECK-NEXT:      _mm_sfence();
// CHECK-NEXT:      return bytes;
// CHECK-NEXT:    }
// CHECK-NEXT:    char carry[64]; /* bytes - done < 64 */
// CHECK-NEXT:    memcpy(carry, s + done, 64);
// CHECK-NEXT:    memcpy(s, carry, 64);
// CHECK-NEXT:    return done;
// CHECK: static int64_t keep__chunk(const float *restrict x, int64_t x_len, float a, float *restrict out, int64_t out_len)
// CHECK: static int64_t keep__count(const float *restrict x, int64_t x_len, float a, float *restrict out, int64_t out_len)
// CHECK-NOT: _mm512_storeu_ps
// CHECK:     __builtin_popcount((unsigned)mask)
// Below two parts the scratch-and-copy driver (compute-bound in cache), as a static function.
// CHECK: static int64_t keep__copies(const float *restrict x, int64_t x_len, float a, float *restrict out, int64_t out_len)
// CHECK:         lo_par_copy(out + lo_at, lo_scr_out + lo_me * lo_cs
// CHECK-LABEL: int64_t keep(const float *restrict x, int64_t x_len, float a, float *restrict out, int64_t out_len)
// CHECK:         if (lo_n < 65536 || out_len < lo_n) {
// CHECK-NEXT:      return keep__chunk(x, x_len, a, out, out_len);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (lo_n < 1048576) {
// CHECK-NEXT:      return keep__copies(x, x_len, a, out, out_len);
// CHECK:         const int64_t lo_cs = lo_n / (4 * (int64_t)lo_t) < 524288 ? (lo_n / (4 * (int64_t)lo_t) + 63) / 64 * 64 : 524288;
// CHECK:         if (lo_t < 2 || lo_nch < 2) {
// CHECK:         const _Bool lo_stream = lo_n >= 16777216 / (int64_t)sizeof(float);
// The caller's errno, put back after the driver's mallocs (a successful one may set ENOMEM; a
// failed one runs the serial kernel): docs/calling_convention.md, "Out of memory".
// CHECK-NEXT:    const int lo_errno = errno;
// CHECK-NEXT:    int64_t *lo_cnt = malloc(sizeof(int64_t) * (size_t)lo_nch);
// A thread's stage: a piece (512 f32: 2 KiB of input) after the carry of the piece before (< one line, 16 f32) and a
// line of slack for the carry's 64-byte move, in whole pages, page-aligned (c_filter_blocks.PAGE).
// CHECK-NEXT:    float *lo_stage_out = lo_stream ? aligned_alloc(4096, sizeof(float) * (size_t)1024 * (size_t)lo_t) : NULL;
// CHECK-NEXT:    const _Bool lo_ok = lo_cnt && (lo_stage_out || !lo_stream);
// CHECK:             errno = lo_errno;
// CHECK-NEXT:        return keep__chunk(x, x_len, a, out, out_len);
// CHECK:         lo_cnt[lo_c] = -1;
// CHECK:         LO_OMP("omp parallel num_threads(lo_t)")
// CHECK:           const int64_t lo_me = lo_par_thread_num(), lo_nt = lo_par_team();
// CHECK:           int64_t lo_c = lo_me, lo_base = 0, lo_seen = 0;
// CHECK:             lo_par_publish(&lo_cnt[lo_c], keep__count(x + lo_c * lo_cs, lo_len, a, out, lo_len));
// A count not published after a brief spin (its thread parked) is counted here.
// CHECK:           for (; lo_c < lo_nch; lo_c += lo_nt) {
// CHECK-NEXT:        for (; lo_seen < lo_c; lo_seen++) {
// CHECK-NEXT:          int64_t lo_v = lo_par_wait_briefly(&lo_cnt[lo_seen]);
// CHECK-NEXT:          if (lo_v < 0) {
// CHECK-NEXT:            const int64_t lo_slo = lo_seen * lo_cs, lo_slen = lo_n - lo_slo < lo_cs ? lo_n - lo_slo : lo_cs;
// CHECK-NEXT:            lo_v = keep__count(x + lo_slo, lo_slen, a, out, lo_slen);
// CHECK-NEXT:            lo_par_publish(&lo_cnt[lo_seen], lo_v);
// CHECK-NEXT:          }
// CHECK-NEXT:          lo_base += lo_v;
// CHECK:             int64_t lo_at = lo_base, lo_left = lo_par_peek(&lo_cnt[lo_c]), lo_r_out = 0;
// CHECK-NEXT:        for (int64_t lo_j = 0; lo_j < lo_len; lo_j += 512) {
// CHECK:               lo_par_prefetch(x + lo_nlo + lo_j, sizeof(float) * (size_t)(lo_nlen - lo_j < 512 ? lo_nlen - lo_j : 512), 128);
// Each piece is compacted after the carry; its whole lines drain non-temporally, the rest is
// carried: plain partial lines and an sfence only at the part's ends (lo_par_drain's `last`),
// not at every piece (each costs a memory round trip: docs/threads.md).
// CHECK:               const int64_t lo_k = lo_stream ? keep__chunk(x + lo_lo + lo_j, lo_pl, a, lo_stage_out + lo_me * 1024 + lo_r_out, lo_pl) : keep__chunk(x + lo_lo + lo_j, lo_pl, a, out + lo_at, lo_left);
// CHECK-NEXT:          if (lo_stream) {
// CHECK-NEXT:            lo_r_out += lo_k;
// CHECK-NEXT:            lo_r_out -= (int64_t)(lo_par_drain(out + lo_at + lo_k - lo_r_out, lo_stage_out + lo_me * 1024, sizeof(float) * (size_t)lo_r_out, lo_j + lo_pl >= lo_len) / sizeof(float));
// CHECK-NEXT:          }
// CHECK-NEXT:          lo_at += lo_k;
// CHECK-NEXT:          lo_left -= lo_k;
// CHECK:             if (lo_nx < lo_nch)
// CHECK-NEXT:          lo_par_publish(&lo_cnt[lo_nx], keep__count(x + lo_nlo, lo_nlen, a, out, lo_nlen));
// CHECK:         for (int64_t lo_c = 0; lo_c < lo_nch; lo_c++)
// CHECK-NEXT:      lo_total += lo_cnt[lo_c];
// CHECK-NEXT:    errno = lo_errno;
// CHECK-NEXT:    free(lo_cnt);
// CHECK-LABEL: int64_t keep_wide(
// CHECK:         lo_par_copy(

// The default (filter_block=-2): the CPU model's band of call sizes (Costs.filter_blocks, output
// bytes) runs super-blocks, the others the scratch-and-copy driver `<k>__copies`. Zen 4: from its
// streaming threshold (16 MiB: 4 Mi f32, 8 Mi i16) up.
// ZEN4: loop-parallelize{threads=0 cpu=zen4}{{.*}},derive-filter-count"
// ZEN4-LABEL: func.func @keep(
// ZEN4-SAME:    block = 524288 : i64, block_stream = 1 : i64, block_pairs = 1 : i64, block_from = 4194304 : i64}
// ZEN4-LABEL: func.func @keep_i16(
// ZEN4-SAME:    block = 1048576 : i64, block_stream = 1 : i64, block_pairs = 1 : i64, block_from = 8388608 : i64}
// ZEN4C-LABEL: int64_t keep(
// ZEN4C:         if (lo_n < 4194304) {
// ZEN4C-NEXT:      return keep__copies(x, x_len, a, out, out_len);
// Zen 3: from 8 MiB of output (2 Mi f32; slower than one thread at 1 Mi) below its streaming threshold; above
// it the count pass lost to the copies by 30-50 % (docs/threads.md, "Zen 3 (session 26)").
// ZEN3-LABEL: func.func @keep(
// ZEN3-SAME:    block = 262144 : i64, block_stream = 1 : i64, block_from = 2097152 : i64, block_below = 4194304 : i64}
// ZEN3-LABEL: func.func @keep_i16(
// ZEN3-SAME:    block = 524288 : i64, block_stream = 1 : i64, block_from = 4194304 : i64, block_below = 8388608 : i64}
// ZEN3C-LABEL: int64_t keep(
// ZEN3C:         if (lo_n < 2097152 || lo_n >= 4194304) {
// ZEN3C-NEXT:      return keep__copies(x, x_len, a, out, out_len);
// Zen 3 has no adjacent-line prefetch (cpu_models.Caches.prefetch_pairs): every line.
// ZEN3C:           lo_par_prefetch(x + lo_nlo + lo_j, sizeof(float) * (size_t)(lo_nlen - lo_j < 512 ? lo_nlen - lo_j : 512), 64);
// The look-back driver (session 24-25) is deleted: its option is unknown.
// GONE: error: {{.*}}unknown option 'filter_block_lookback'
// A CPU without a measured band (generic), and filter_block=0 on any: the scratch-and-copy
// driver at every size, no count kernel.
// OLD-NOT: __count
// OLD-LABEL: int64_t keep(
// OLD:         lo_par_copy(out + lo_at, lo_scr_out + lo_me * lo_cs

// filter_block_stream=false: in place at every size, no stage.
// INPLACE: loop-parallelize{threads=0 cpu=zen4 filter_block=-1 filter_block_stream=false}
// INPLACE-LABEL: int64_t keep(
// INPLACE-NOT:     lo_stage
// INPLACE:         const int64_t lo_k = keep__chunk(x + lo_lo + lo_j, lo_pl, a, out + lo_at, lo_left);
// INPLACE-NEXT:    lo_at += lo_k;
// INPLACE-LABEL: int64_t keep_wide(

func.func @keep(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [k]>
}
func.func @keep_i16(%x: !df.array<i16, [i]>) -> !df.array<i16, [k]> {
  %zero = arith.constant 0 : i16
  %pos = df.filter %x : !df.array<i16, [i]> -> !df.array<i16, [k]> {
  ^bb0(%e: i16):
    %c = arith.cmpi sgt, %e, %zero : i16
    df.yield %c : i1
  }
  func.return %pos : !df.array<i16, [k]>
}
func.func @keep_wide(%x: !df.array<f32, [i]>, %t: f64) -> !df.array<f32, [k]> {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.extf %e : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.cmpf ogt, %s, %t : f64
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}
func.func @psum(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %s : f32
}
