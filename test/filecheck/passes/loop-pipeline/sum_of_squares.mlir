// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=scalar}' | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=sse2}' | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx512}' | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=neon}' | filecheck %s --check-prefix=NEON
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=C

// The README's three pipelines, df all the way to each target's simd IR. FMA targets
// contract x*x + acc after vectorization (simd.fma on the vector accumulators); SSE2 and
// scalar do not contract. The scalar target vectorizes no loop; its filter becomes
// branch-free one-lane compaction (branch_per_lane, unrolled 4 times).

// SCALAR:       builtin.module attributes {loop.target = "scalar", loop.pipeline = "df-fuse,convert-df-to-loop,{{.*}}convert-loop-to-simd{target=scalar fallback=true}{{.*}}"}
// SCALAR-LABEL:   func.func @sumsq
// SCALAR:           loop.for %i in [%c0, %n_i) accs(%[[ACC:.*]] = %zero : f32 add reassoc) {
// SCALAR-NEXT:        %[[X:.*]] = loop.load %x[%i] : !loop.buf<f32>
// SCALAR-NEXT:        %[[M:.*]] = arith.mulf %[[X]], %[[X]] : f32
// SCALAR-NEXT:        %{{.*}} = arith.addf %[[ACC]], %[[M]] : f32
// SCALAR-NOT:       vector<
// SCALAR-LABEL:   func.func @scale_positive
// SCALAR:           loop.for %i in range({{.*}}) accs(%cursor = %c0 : index add) attributes {loop.mask_form = #loop.mask_form<branch_per_lane>} {
// SCALAR-NEXT:        %[[E:.*]] = simd.load %x[%i] : !loop.buf<f32> -> vector<1xf32>
// SCALAR-NEXT:        %[[P:.*]] = simd.cmp <ogt> %[[E]], %{{.*}} : vector<1xf32> -> vector<1xi1>
// SCALAR:             simd.compress_store %{{.*}}, %[[P]], %out[%cursor] full : vector<1xf32>, vector<1xi1>, !loop.buf<f32>
// SCALAR-NOT:       vector<4

// SSE2:         builtin.module attributes {loop.target = "sse2", loop.pipeline = "{{.*}}loop-vectorize,convert-loop-to-simd{target=sse2 fallback=true}{{.*}}"}
// SSE2-LABEL:     func.func @sumsq
// SSE2:             loop.for %i in range({{.*}}) accs(%acc_v = %{{.*}} : vector<4xf32> add reassoc, %acc_v_1 = %{{.*}} : vector<4xf32> add reassoc) {
// SSE2-NEXT:          %[[X:.*]] = simd.load %x[%i] : !loop.buf<f32> -> vector<4xf32>
// SSE2-NEXT:          %[[M:.*]] = arith.mulf %[[X]], %[[X]] : vector<4xf32>
// SSE2-NEXT:          %{{.*}} = arith.addf %acc_v, %[[M]] : vector<4xf32>
// SSE2:             simd.hreduce <add> %{{.*}} : vector<4xf32> -> f32
// SSE2-LABEL:     func.func @scale_positive
// SSE2:             attributes {loop.mask_form = #loop.mask_form<select_blend>}
// SSE2:             simd.compress_store %{{.*}} : vector<4xf32>, vector<4xi1>, !loop.buf<f32>

// AVX2:         builtin.module attributes {loop.target = "avx2", loop.pipeline = "{{.*}}loop-vectorize,loop-simplify{fma=true},convert-loop-to-simd{target=avx2 fallback=true}{{.*}}"}
// AVX2-LABEL:     func.func @sumsq
// AVX2:             loop.for %i in range({{.*}}) accs(%acc_v = %{{.*}} : vector<8xf32> add reassoc, %acc_v_1 = {{.*}}, %acc_v_2 = {{.*}}, %acc_v_3 = %{{.*}} : vector<8xf32> add reassoc) {
// AVX2-NEXT:          %[[X:.*]] = simd.load %x[%i] : !loop.buf<f32> -> vector<8xf32>
// AVX2-NEXT:          %{{.*}} = simd.fma %[[X]], %[[X]], %acc_v : vector<8xf32>
// AVX2:             simd.hreduce <add> %{{.*}} : vector<8xf32> -> f32
// AVX2-LABEL:     func.func @scale_positive
// AVX2:             attributes {loop.mask_form = #loop.mask_form<select_blend>}
// AVX2-LABEL:     func.func @sqrt_abs_axpb
// AVX2:             math.sqrt %{{.*}} : vector<8xf32>

// AVX512-LABEL:   func.func @sumsq
// AVX512:           simd.fma %{{.*}} : vector<16xf32>
// AVX512-LABEL:   func.func @scale_positive
// AVX512:           attributes {loop.mask_form = #loop.mask_form<avx512_mask>}
// AVX512:           simd.compress_store %{{.*}} : vector<16xf32>, vector<16xi1>, !loop.buf<f32>

// NEON-LABEL:     func.func @sumsq
// NEON:             loop.for %i in range({{.*}}) accs(%acc_v = %{{.*}} : vector<4xf32> add reassoc, %acc_v_1 = %{{.*}} : vector<4xf32> add reassoc) {
// NEON:             simd.fma %{{.*}} : vector<4xf32>
// NEON-LABEL:     func.func @scale_positive
// NEON:             attributes {loop.mask_form = #loop.mask_form<select_blend>}

// C:      target: avx2
// C:      pipeline: df-fuse,convert-df-to-loop,
// C:      _mm256_fmadd_ps
