// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen4}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=skylake-x}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=sapphirerapids}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=generic}' | filecheck %s --check-prefix=NONE

// A map with one input and at most two ops on it (out = a*x + b) whose data exceeds the L1d
// loads each 512-bit vector as four 128-bit quarters on Zen 4 (CpuModel.quarter_load_bytes:
// 2-4% faster from 8 Ki to 2 Mi elements, f32 and i32, than whole loads in the L2 and halves
// beyond it; 1.5-1.8x slower in L1, results/amd-zen4/zen4_cells). The limit is the L1d over the
// bytes an iteration moves: 32 KiB / 8 = 4096 trips for f32 a*x + b, 32 KiB / 16 = 2048 for f64
// and i64. It takes the place of the beyond-L2 halves for such maps (the streamed loop, from
// 16 MiB, keeps its halves). Unchanged: two inputs (a*x + y lost 2-4% from 64 Ki), a third op
// (sqrt(|a*x|) + b lost 2% at 1 Mi), AVX2 (256-bit vectors), the Intel CPUs and generic.

func.func @axpb(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %b: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @axpb
// ZEN4:         %stream = arith.cmpi sge
// ZEN4:         loop.for
// ZEN4:         loop.for
// ZEN4-NEXT:      simd.load %x[%{{.*}}] halves : !loop.buf<f32> -> vector<16xf32>
// ZEN4:         simd.store_fence
// ZEN4-NOT:     beyond_l2
// ZEN4:         %[[MOST:.*]] = arith.constant 4096 : index
// ZEN4-NEXT:    %beyond_l1 = arith.cmpi sgt, %[[LEFT:.*]], %[[MOST]] : index
// ZEN4:         %[[BLOCKS:.*]] = arith.subi %[[LEFT]], %{{.*}} : index
// ZEN4-NEXT:    %[[QUARTER:.*]] = arith.select %beyond_l1, %[[BLOCKS]], %{{.*}} : index
// ZEN4-NEXT:    %[[END:.*]] = arith.addi %[[START:.*]], %[[QUARTER]] : index
// ZEN4:         loop.for %{{.*}} in range(%[[START]], %[[END]], %{{.*}}) {
// ZEN4-NEXT:      simd.load %x[%{{.*}}] quarters : !loop.buf<f32> -> vector<16xf32>
// ZEN4-COUNT-3:   simd.load %x[%{{.*}}] quarters
// ZEN4:           simd.store %{{.*}}, %out[%{{.*}}] : vector<16xf32>
// ZEN4:         loop.for %{{.*}} in range(%[[END]]
// ZEN4-NEXT:      simd.load %x[%{{.*}}] : !loop.buf<f32> -> vector<16xf32>
// ZEN4-NOT:       quarters
// ZEN4:         func.return

// C-LABEL: void axpb(
// C:         _Bool beyond_l1 =
// C:         __m512 e{{.*}} = _mm512_insertf32x4(_mm512_insertf32x4(_mm512_insertf32x4(_mm512_castps128_ps512(_mm_loadu_ps(&x[[[I:.*]]])), _mm_loadu_ps(&x[([[I]]) + 4]), 1), _mm_loadu_ps(&x[([[I]]) + 8]), 2), _mm_loadu_ps(&x[([[I]]) + 12]), 3);
// C:         = _mm512_loadu_ps(&x[

func.func @inc_i64(%x: !loop.buf<i64>, %out: !loop.buf<i64>, %b: i64) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i64>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<i64>
    %s = arith.addi %e, %b : i64
    loop.store %s, %out[%i] : !loop.buf<i64>
  }
  func.return
}

// ZEN4-LABEL: func.func @inc_i64
// ZEN4:         %[[MOST:.*]] = arith.constant 2048 : index
// ZEN4-NEXT:    %beyond_l1 = arith.cmpi sgt, %{{.*}}, %[[MOST]] : index
// ZEN4:           simd.load %x[%{{.*}}] quarters : !loop.buf<i64> -> vector<8xi64>

// C-LABEL: void inc_i64(
// C:         _mm512_inserti64x2(_mm512_inserti64x2(_mm512_inserti64x2(_mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)&x[[[J:.*]]])), _mm_loadu_si128((const __m128i *)&x[([[J]]) + 2]), 1), _mm_loadu_si128((const __m128i *)&x[([[J]]) + 4]), 2), _mm_loadu_si128((const __m128i *)&x[([[J]]) + 6]), 3);

func.func @twice_f64(%x: !loop.buf<f64>, %out: !loop.buf<f64>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f64>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f64>
    %s = arith.addf %e, %e : f64
    loop.store %s, %out[%i] : !loop.buf<f64>
  }
  func.return
}

// C-LABEL: void twice_f64(
// C:         _mm512_insertf64x2(_mm512_insertf64x2(_mm512_insertf64x2(_mm512_castpd128_pd512(_mm_loadu_pd(&x[[[K:.*]]])), _mm_loadu_pd(&x[([[K]]) + 2]), 1), _mm_loadu_pd(&x[([[K]]) + 4]), 2), _mm_loadu_pd(&x[([[K]]) + 6]), 3);

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
// ZEN4-NOT:     quarters
// ZEN4:         %beyond_l2 = arith.cmpi sgt
// ZEN4-NOT:     quarters
// ZEN4:         func.return

func.func @sqrt_abs_axpb(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %b: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %q = math.absf %m : f32
    %r = math.sqrt %q : f32
    %s = arith.addf %r, %b : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @sqrt_abs_axpb
// ZEN4-NOT:     quarters
// ZEN4:         %beyond_l2 = arith.cmpi sgt
// ZEN4-NOT:     quarters
// ZEN4:         func.return

// NONE-NOT: quarters
// NONE-NOT: beyond_l1
