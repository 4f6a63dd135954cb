// RUN: loop-opt %s -p 'loop-pipeline{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefixes=SPILL,SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefixes=SPILL,AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefixes=SPILL,NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefixes=SPILL,AVX512REG
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=skylake-x}' -t c | filecheck %s --check-prefixes=SPILL,AVX512MEM

// A filter's exact tail (after the full-register blocks that provably fit the capacity) writes
// at most the room left at the cursor, max(max(out_len, 0) - cursor, 0): an output shorter
// than the count gets the kept elements that fit, the count is returned in full, nothing is
// written past out_len (simd.compress_store ... limit).

func.func @keep_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %r = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %r : !df.array<f32, [k]>
}


// scalar: the store at the cursor while there is room (a branch on the room, not on the data)
// SCALAR-LABEL:  int64_t keep_f32(
// SCALAR:          int64_t [[LEN:.*]] = out_len > 0 ? out_len : 0;
// SCALAR:          int64_t [[LEFT:.*]] = [[LEN]] - count;
// SCALAR-NEXT:     int64_t [[ROOM:.*]] = [[LEFT]] > 0 ? [[LEFT]] : 0;
// SCALAR-NEXT:     int64_t {{.*}} = (int64_t)(mask);
// SCALAR-NEXT:     if ([[ROOM]] > 0) out[count] = e;

// vector ISAs without a limited row: a whole-register (full) store while a vector fits, else a
// spill of N lanes of which the first min(count, room) are copied
// SPILL-LABEL:   int64_t keep_f32(
// SPILL:           int64_t [[LEN:.*]] = out_len > 0 ? out_len : 0;
// SPILL:           int64_t [[LEFT:.*]] = [[LEN]] - count;
// SPILL-NEXT:      int64_t [[ROOM:.*]] = [[LEFT]] > 0 ? [[LEFT]] : 0;
// SPILL-NEXT:      int64_t [[K:.*]];
// SSE2-NEXT:       if ([[ROOM]] >= 4) {
// SSE2-NEXT:           [[K]] = lo_compress_full_f32x4(&out[count], e, mask);
// AVX2-NEXT:       if ([[ROOM]] >= 8) {
// AVX2-NEXT:           [[K]] = lo_compress_full_f32x8(&out[count], e, mask);
// NEON-NEXT:       if ([[ROOM]] >= 4) {
// NEON-NEXT:           [[K]] = lo_compress_full_f32x4(&out[count], e, mask);
// AVX512REG-NEXT:  if ([[ROOM]] >= 16) {
// AVX512REG-NEXT:      _mm512_storeu_ps(&out[count], _mm512_mask_compress_ps(e, mask, e));
// AVX512REG-NEXT:      [[K]] = (int64_t)__builtin_popcount((unsigned)(mask));
// AVX512MEM-NEXT:  if ([[ROOM]] >= 16) {
// AVX512MEM-NEXT:      _mm512_mask_compressstoreu_ps(&out[count], mask, e);
// AVX512MEM-NEXT:      [[K]] = (int64_t)__builtin_popcount((unsigned)(mask));
// SPILL-NEXT:      } else {
// SSE2-NEXT:           float spill[4];
// SSE2-NEXT:           [[K]] = lo_compress_full_f32x4(&spill[0], e, mask);
// AVX2-NEXT:           float spill[8];
// AVX2-NEXT:           [[K]] = lo_compress_full_f32x8(&spill[0], e, mask);
// NEON-NEXT:           float spill[4];
// NEON-NEXT:           [[K]] = lo_compress_full_f32x4(&spill[0], e, mask);
// AVX512REG-NEXT:      float spill[16];
// AVX512REG-NEXT:      _mm512_storeu_ps(&spill[0], _mm512_mask_compress_ps(e, mask, e));
// AVX512REG-NEXT:      [[K]] = (int64_t)__builtin_popcount((unsigned)(mask));
// AVX512MEM-NEXT:      float spill[16];
// AVX512MEM-NEXT:      _mm512_mask_compressstoreu_ps(&spill[0], mask, e);
// AVX512MEM-NEXT:      [[K]] = (int64_t)__builtin_popcount((unsigned)(mask));
// SPILL-NEXT:          for (int64_t j = 0; j < [[K]] && j < [[ROOM]]; j++) out[(count) + j] = spill[j];
// SPILL-NEXT:      }
// SPILL-NEXT:      count = count + [[K]];
