// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=zen4 interleave=4}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 stream_bytes=0 cpu=zen4}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=skylake-x}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=sapphirerapids}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=generic}' | filecheck %s --check-prefix=WHOLE

// A map whose data fits the L1d runs 256-bit blocks on a CPU whose 512-bit blocks are slower
// there (CpuModel.split_map_bytes, Costs.half_blocks_in_l1): Zen 4 with AVX-512. A 512-bit load
// that 4K-aliases a 512-bit store still in flight waits for it, so at some buffer placements
// every 512-bit form ran at 0.2-0.6x of kernels/avx2's four-ymm loop (issue 11, session 24:
// axpy f32 at 1 Ki elements 261 vs 56 ns), and at ~0.9-0.97x at the others. The lowering keeps
// its 512-bit vectors and marks the K-block loop of K/2 blocks `loop.split_halves`: the printer
// prints each op as two 256-bit halves (dialects/split_halves.py), four ymm blocks an iteration,
// stores after loads (two inputs). The limit is the L1d over the bytes an iteration loads and stores
// (32 KiB / 12 = 2730 trips for a*x + y); at run time a select gives the split loop every whole
// iteration or none (no branch). The one-block remainder loop after it is split too (a 512-bit
// load right after 256-bit stores of the same lines aliases them); the masked tail stays whole.
// Unchanged: an explicit interleave, AVX2 (already one datapath wide), the Intel CPUs and generic
// (not measured), reductions, a map nested in another loop, a body the split refuses
// (short_map.mlir: one 512-bit block an iteration instead).

func.func @axpy(%x: !loop.buf<f32>, %y: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @axpy
// ZEN4:         %head = arith.select
// ZEN4:         %[[MOST:.*]] = arith.constant 2730 : index
// ZEN4-NEXT:    %in_l1 = arith.cmpi sle, %{{.*}}, %[[MOST]] : index
// ZEN4:         %[[BLOCKS:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// ZEN4-NEXT:    %[[SPLIT:.*]] = arith.select %in_l1, %[[BLOCKS]], %c0 : index
// ZEN4-NEXT:    %[[END:.*]] = arith.addi %{{.*}}, %[[SPLIT]] : index
// ZEN4:         loop.for %{{.*}} in range(%{{.*}}, %[[END]], %{{.*}}) attributes {loop.split_halves} {
// ZEN4-COUNT-2:   simd.load %x
// ZEN4-COUNT-2:   simd.store {{.*}} : vector<16xf32>, !loop.buf<f32>
// ZEN4-NEXT:    }
// the K = 4 loop of 512-bit blocks (none in L1), the split one-block loop, the whole masked tail
// ZEN4:         loop.for %{{.*}} in range(%[[END]], %{{.*}}, %{{.*}}) {
// ZEN4-COUNT-4:   simd.store
// ZEN4:         loop.for %{{.*}} attributes {loop.split_halves} {
// ZEN4-NEXT:      simd.load
// ZEN4-NEXT:      simd.load
// ZEN4-NEXT:      arith.mulf
// ZEN4-NEXT:      arith.addf
// ZEN4-NEXT:      simd.store
// ZEN4-NEXT:    }
// ZEN4:         loop.for
// ZEN4-NOT:       split_halves
// ZEN4:           simd.masked_store
// ZEN4:         func.return

// C-LABEL: void axpy(
// C:         _Bool in_l1 = {{.*}} <= 2730;
// C:         __m256 [[ALO:.*]] = _mm512_castps512_ps256([[A:.*]]);
// C-NEXT:    __m256 [[AHI:.*]] = _mm512_extractf32x8_ps([[A]], 1);
// C-NEXT:    for (
// C-NEXT:        __m256 e = _mm256_loadu_ps(&x[i]);
// C-NEXT:        __m256 e_1 = _mm256_loadu_ps(&x[(i) + 8]);
// C-NEXT:        __m256 f = _mm256_loadu_ps(&y[i]);
// C-NEXT:        __m256 f_1 = _mm256_loadu_ps(&y[(i) + 8]);
// C-NEXT:        __m256 m = _mm256_mul_ps([[ALO]], e);
// C-NEXT:        __m256 m_1 = _mm256_mul_ps([[AHI]], e_1);
// C:             _mm256_storeu_ps(&out[i], s);
// C-NEXT:        _mm256_storeu_ps(&out[(i) + 8], s_1);
// C-NEXT:        _mm256_storeu_ps(&out[[[I2:.*]]], s_2);
// C-NEXT:        _mm256_storeu_ps(&out[([[I2]]) + 8], s_3);
// C-NEXT:    }
// C:             _mm512_storeu_ps(
// C:             _mm256_storeu_ps(&out[(i) + 8], s_1);
// C-NEXT:    }
// C:             _mm512_mask_storeu_ps(

// i32 a*x + b (a multiply and an add per load: not memory-bound, so no one-block loop) splits too:
// its 512-bit K = 4 loop ran 0.82-0.86x of the four-ymm loop in L1 and 0.33x at one placement.
func.func @iaxpb(%x: !loop.buf<i32>, %out: !loop.buf<i32>, %a: i32, %b: i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %b : i32
    loop.store %s, %out[%i] : !loop.buf<i32>
  }
  func.return
}

// ZEN4-LABEL: func.func @iaxpb
// ZEN4:         %in_l1 = arith.cmpi sle
// ZEN4:         loop.for {{.*}} attributes {loop.split_halves} {
// ZEN4:           arith.muli {{.*}} : vector<16xi32>
// One input: each block's stores stay next to its loads (a*x + b f32 1.00-1.09x the sunk order at
// 256-4096 elements; with two inputs, above, sunk: a*x + y f32 at 256 elements ran 0.74x unsunk).
// C-LABEL: void iaxpb(
// C:             __m256i m = _mm256_mullo_epi32(
// C:             _mm256_storeu_si256((__m256i *)&out[(i) + 8], s_1);
// C-NEXT:        int64_t

// Constant bounds decide here: 1000 trips (8 KB) are in the L1d, so the split loop runs 992 of
// them with no test; the K = 4 loop after it has nothing left to run.
func.func @scale_1000(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1000 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @scale_1000
// ZEN4-NOT:     in_l1
// ZEN4:         loop.for %i in range(%c0, %{{.*}}, %{{.*}}) attributes {loop.split_halves} {
// ZEN4:         func.return

func.func @sum(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// (a fold beyond the L2 splits its accumulators instead: split_folds.mlir)
// ZEN4-LABEL: func.func @sum
// ZEN4-NOT:     in_l1
// ZEN4:         func.return

// A map nested in another loop (the rows of a matrix) keeps the 512-bit K-block body: its trips
// are one row's, not the data the nest walks.
func.func @rows(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %rows: index) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.for %r in [%c0, %rows) {
    loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
      %e = loop.load %x[%i] : !loop.buf<f32>
      %m = arith.mulf %a, %e : f32
      loop.store %m, %out[%i] : !loop.buf<f32>
    }
  }
  func.return
}

// ZEN4-LABEL: func.func @rows
// ZEN4-NOT:     in_l1
// ZEN4-NOT:     split_halves
// ZEN4:         func.return

// WHOLE-NOT: in_l1
// WHOLE-NOT: {{range\([^)]*\) attributes \{loop.split_halves}}
