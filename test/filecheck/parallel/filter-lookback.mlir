// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1 filter_block_lookback=true}' | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1 filter_block_lookback=true}' -t c | filecheck %s
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1 filter_block=-1}' -t c | filecheck %s --check-prefix=BLOCKS
// RUN: not loop-opt %s -p 'loop-parallelize{filter_block_lookback=true}' 2>&1 | filecheck %s --check-prefix=NEEDS
// The look-back filter driver (targets/c_filter_lookback.py, docs/threads.md "Filters with
// look-back"): no count pass; each part is compacted into its thread's stage and streamed to
// its place while the thread compacts its next part, once the counts before it are published.

// The plan: parts from the L2 (a quarter of zen4's 1 MiB for the output: 64 Ki f32), block_lookback;
// the counting kernel is still derived (a thread counts a part whose thread is late).
// IR: loop.pipeline = "{{.*}}loop-parallelize{threads=0 cpu=zen4 filter_block=-1 filter_block_lookback=true}{{.*}},derive-filter-count"
// IR-LABEL: func.func @keep(
// IR-SAME:    block = 65536 : i64, block_stream = 1 : i64, block_lookback = 1 : i64}
// IR-LABEL: func.func private @keep__count(

// The helpers are printed only in files with a look-back driver: partial lines first, whole
// lines non-temporal, one sfence per part.
// BLOCKS-NOT: lo_par_out_begin
// CHECK-LABEL: static inline void lo_par_out_begin(lo_par_out *o, void *dst, const void *src, size_t bytes, _Bool stream)
// CHECK:         memcpy(d, s, head);
// CHECK-NEXT:    memcpy(d + head + whole, s + head + whole, bytes - head - whole);
// CHECK-LABEL: static inline void lo_par_out_lines(lo_par_out *o, size_t upto)
// CHECK-NOT:     _mm_sfence
// CHECK:         _mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
// CHECK-LABEL: static inline void lo_par_out_end(lo_par_out *o)
// CHECK:         _mm_sfence();

// CHECK-LABEL: int64_t keep(const float *restrict x, int64_t x_len, float a, float *restrict out, int64_t out_len)
// CHECK:         if (lo_n < 131072) {
// CHECK-NEXT:      return keep__copies(x, x_len, a, out, out_len);
// CHECK:         const _Bool lo_stream = lo_n >= 16777216 / (int64_t)sizeof(float);
// CHECK:         int64_t *lo_cnt = malloc(sizeof(int64_t) * (size_t)lo_nch);
// Two stages per thread, each a part's worst case (everything selected), whole pages.
// CHECK-NEXT:    float *lo_stage_out = aligned_alloc(4096, sizeof(float) * (size_t)65536 * 2 * (size_t)lo_t);
// CHECK:         LO_OMP("omp parallel num_threads(lo_t)")
// CHECK:           for (int64_t lo_c = lo_me, lo_r = 0;; lo_c += lo_nt, lo_r ^= 1) {
// No prefetch and no count before compacting: the chunk kernel into the stage, capacity the piece.
// CHECK-NOT:         lo_par_prefetch
// CHECK:               lo_k += keep__chunk(x + lo_lo + lo_j, lo_pl, a, lo_stage_out + (2 * lo_me + lo_r) * 65536 + lo_k, lo_pl);
// The published counts before the pending part, without waiting; its lines once its place is known.
// CHECK-NEXT:          if (lo_pc >= 0 && !lo_on) {
// CHECK-NEXT:            for (int64_t lo_v; lo_seen < lo_pc && (lo_v = lo_par_peek(&lo_cnt[lo_seen])) >= 0; lo_seen++)
// CHECK-NEXT:              lo_base += lo_v;
// CHECK-NEXT:            if (lo_seen == lo_pc) {
// CHECK-NEXT:              lo_par_out_begin(&lo_o_out, out + lo_base, lo_stage_out + (2 * lo_me + lo_pr) * 65536, sizeof(float) * (size_t)lo_pk, lo_stream);
// CHECK:               if (lo_on) {
// CHECK-NEXT:            lo_par_out_lines(&lo_o_out, lo_q_out * (size_t)(lo_j / 512 + 1));
// CHECK:             lo_par_publish(&lo_cnt[lo_c], lo_k);
// Then the pending part: a count still missing after a brief spin is counted here.
// CHECK:           if (lo_pc >= 0 && !lo_on) {
// CHECK:               int64_t lo_v = lo_par_wait_briefly(&lo_cnt[lo_seen]);
// CHECK:                 lo_v = keep__count(x + lo_slo, lo_slen, a, out, lo_slen);
// CHECK:           lo_par_out_end(&lo_o_out);
// CHECK:         for (int64_t lo_c = 0; lo_c < lo_nch; lo_c++)
// CHECK-NEXT:      lo_total += lo_cnt[lo_c];

// NEEDS: filter_block_lookback needs filter_block != 0

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
