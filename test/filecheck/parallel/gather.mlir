// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize,loop-parallelize{chunk=1024 min_elements=4096 filter_block=-1}' | filecheck %s
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize,loop-parallelize{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=2 filter_block=0}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize,loop-parallelize{chunk=1024 min_elements=4096},convert-loop-to-simd{target=avx2 fallback=true stream_bytes=4096 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SIMD --allow-empty
// Gathers split like maps: the source (`df.gather`'s x, on another axis) is read whole by
// every chunk (`sources`: the driver passes it as it is), the indices and outputs are
// offset to the chunk. Out-of-bounds indices read nothing and give 0 in every chunk as in the
// serial kernel (the bound is the source's length, the same everywhere). The lowering's
// second loop, [d, n) with d = (len(x) > 0 ? n : 0), zero-fills when x is empty: both bounds
// are 0 or the chunk's length, the same branch in every chunk; a reduction over both loops
// continues from the first loop's total. A gather into a scan or a filter materializes the
// gathered values in a temporary: a chunk-sized one per chunk.

// The gathered temporary of a scan or a filter is the chunk's own (cache-sized): whether its
// stores stream is decided from its own length, so the chunk takes no call length
// (loop_to_simd/vecloop.emit_streaming); a map's output still follows the whole call.
// C: static void gmap__chunk(const float *restrict v, int64_t v_len, const int32_t *restrict ix, int64_t ix_len, float *restrict out, int64_t out_len, int64_t loopopt_call_len)
// C: static void gscan__chunk(const int32_t *restrict v, int64_t v_len, const int32_t *restrict ix, int64_t ix_len, int32_t *restrict out, int64_t out_len)
// C-NEXT: {
// C: static int64_t gfilter__chunk(const float *restrict v, int64_t v_len, const int64_t *restrict ix, int64_t ix_len, float *restrict out, int64_t out_len)
// C-NEXT: {

// A gather under a map: fused into the chunk loop, vectorized as a masked gather.
// CHECK-LABEL: func.func @gmap
// CHECK-SAME: loop.parallel = {axis = "i", chunk = 1024 : i64, min_elements = 4096 : i64, threads = 0 : i64, results = [], scans = [], scan_kinds = [], stream_bytes = 0 : i64, sources = [0 : i64]}
// C-LABEL: void gmap(const float *restrict v, int64_t v_len, const int32_t *restrict ix, int64_t ix_len, float *restrict out, int64_t out_len)
// C:         const int64_t lo_n = ix_len;
// C-NEXT:    if (lo_n < 32768 || out_len < lo_n) {
// C:           gmap__chunk(v, v_len, ix + lo_lo, lo_len, out + lo_lo, lo_len, lo_n);
// SIMD-NOT: SIMD_FALLBACK_SCALAR
func.func @gmap(%v: !df.array<f32, [j]>, %ix: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %d = arith.addf %e, %e : f32
    df.yield %d : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// A reduction of gathered values: the second loop's sum starts from the first's.
// CHECK-LABEL: func.func @gsum
// CHECK-SAME: results = ["add"], scans = [], scan_kinds = [], stream_bytes = 0 : i64, sources = [0 : i64]}
// C-LABEL: float gsum(const float *restrict v, int64_t v_len, const int64_t *restrict ix, int64_t ix_len)
// C:         if (lo_n < 32768) {
// C:           lo_part0[lo_c] = gsum__chunk(v, v_len, ix + lo_lo, lo_len);
func.func @gsum(%v: !df.array<f32, [j]>, %ix: !df.array<i64, [i]>) -> f32 {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// A gather zipped with an array on the indices' axis: that array is split, the source is not.
// CHECK-LABEL: func.func @gzip
// CHECK-SAME: sources = [0 : i64]}
// C-LABEL: void gzip(
// C:           gzip__chunk(v, v_len, ix + lo_lo, lo_len, w + lo_lo, lo_len, out + lo_lo, lo_len, lo_n);
func.func @gzip(%v: !df.array<f64, [j]>, %ix: !df.array<i32, [i]>, %w: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %x = df.gather %v[%ix] : !df.array<f64, [j]>, !df.array<i32, [i]> -> !df.array<f64, [i]>
  %y = df.map %x, %w : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.mulf %a, %b : f64
    df.yield %d : f64
  }
  func.return %y : !df.array<f64, [i]>
}

// A scan of gathered values: the gathered temporary is chunk-sized, the scan chained.
// CHECK-LABEL: func.func @gscan
// CHECK-SAME: scans = [2 : i64], scan_kinds = ["add"], stream_bytes = 0 : i64, sources = [0 : i64]}
// CHECK: loop.alloc(%n_i)
func.func @gscan(%v: !df.array<i32, [j]>, %ix: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %x = df.gather %v[%ix] : !df.array<i32, [j]>, !df.array<i32, [i]> -> !df.array<i32, [i]>
  %z = arith.constant 0 : i32
  %s = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %s : !df.array<i32, [i]>
}

// A filter of gathered values: chunks through scratch (filter_block=-1 asks for super-blocks,
// whose count-first driver offsets every buffer: a kernel with sources keeps block 0).
// CHECK-LABEL: func.func @gfilter
// CHECK-SAME: results = ["count"], scans = [], scan_kinds = [], stream_bytes = 4194304 : i64, sources = [0 : i64]}
// CHECK-NOT: block
// CHECK-LABEL: func.func @same_axis
// CHECK-NOT: loop.parallel
// CHECK-LABEL: func.func @computed_source
// CHECK-NOT: loop.parallel
// CHECK-LABEL: func.func @source_also_summed
// CHECK-NOT: loop.parallel
// C-LABEL: int64_t gfilter(
// C:           lo_part0[lo_c] = gfilter__chunk(v, v_len, ix + lo_lo, lo_len, out + lo_at, lo_len);
func.func @gfilter(%v: !df.array<f32, [j]>, %ix: !df.array<i64, [i]>) -> !df.array<f32, [k]> {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  %f = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %e, %c : f32
    df.yield %p : i1
  }
  func.return %f : !df.array<f32, [k]>
}

// Stays serial: the source is on the indices' axis, so a chunk would hold only its part of it.
// REMARK: remark: PAR_REJECT_ACCESS: @same_axis stays serial: a gather from buffer 'v', which is on the split axis 'i': a chunk holds only its part of it
func.func @same_axis(%v: !df.array<f32, [i]>, %ix: !df.array<i64, [i]>) -> !df.array<f32, [i]> {
  %x = df.gather %v[%ix] : !df.array<f32, [i]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  func.return %x : !df.array<f32, [i]>
}

// Stays serial: the source is computed (a map over its own axis, a loop no chunk splits).
// REMARK: remark: PAR_REJECT_AXES: @computed_source stays serial: buffer 'ix' is on axis 'i', not 'j'
func.func @computed_source(%v: !df.array<f32, [j]>, %ix: !df.array<i64, [i]>) -> !df.array<f32, [i]> {
  %m = df.map %v : !df.array<f32, [j]> -> !df.array<f32, [j]> {
  ^bb0(%e: f32):
    %d = arith.addf %e, %e : f32
    df.yield %d : f32
  }
  %x = df.gather %m[%ix] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  func.return %x : !df.array<f32, [i]>
}

// Stays serial: the source is also read elementwise (its own sum), on the other axis.
// REMARK: remark: PAR_REJECT_ACCESS: @source_also_summed stays serial: a buffer read both at the loop variable and at loaded positions (a gather)
func.func @source_also_summed(%v: !df.array<i32, [j]>, %ix: !df.array<i64, [i]>) -> (!df.array<i32, [i]>, i32) {
  %x = df.gather %v[%ix] : !df.array<i32, [j]>, !df.array<i64, [i]> -> !df.array<i32, [i]>
  %z = arith.constant 0 : i32
  %s = df.reduce add(%v, %z) over [j] : !df.array<i32, [j]> -> i32
  func.return %x, %s : !df.array<i32, [i]>, i32
}
