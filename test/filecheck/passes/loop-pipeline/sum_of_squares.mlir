// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=scalar}' | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=sse2}' | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx512}' | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=neon}' | filecheck %s --check-prefix=NEON
// RUN: loop-opt %S/../../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=C

// The README's three pipelines, df all the way to each target's simd IR. FMA targets
// contract x*x + acc after vectorization (simd.fma on the vector accumulators); SSE2 and
// scalar do not contract. The scalar target vectorizes no loop: loop-unroll gives its sum four
// partial accumulators (the copies after the first start at -0.0, the sum's neutral element),
// combined pairwise before a one-element remainder loop; its filter becomes branch-free
// one-lane compaction (branch_per_lane, unrolled 4 times).

// SCALAR:       builtin.module attributes {loop.target = "scalar", loop.pipeline = "df-fuse,convert-df-to-loop,{{.*}}loop-unroll{factor=4 full_threshold=0 accs=split},convert-loop-to-simd{target=scalar fallback=true}{{.*}}"}
// SCALAR-LABEL:   func.func @sumsq
// SCALAR:           %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// SCALAR:           %[[P0:.*]], %[[P1:.*]], %[[P2:.*]], %[[P3:.*]] = loop.for %i in range(%c0, %split, %{{.*}}) accs(%[[A0:.*]] = %zero : f32 add reassoc, %[[A1:.*]] = %[[NEG0]] : f32 add reassoc, %{{.*}} = %[[NEG0]] : f32 add reassoc, %{{.*}} = %[[NEG0]] : f32 add reassoc) {
// SCALAR-NEXT:        %[[X:.*]] = loop.load %x[%i] : !loop.buf<f32>
// SCALAR-NEXT:        %[[M:.*]] = arith.mulf %[[X]], %[[X]] : f32
// SCALAR-NEXT:        %{{.*}} = arith.addf %[[A0]], %[[M]] : f32
// SCALAR-NEXT:        %[[X1:.*]] = loop.load %x[%i + 1] : !loop.buf<f32>
// SCALAR-NEXT:        %[[M1:.*]] = arith.mulf %[[X1]], %[[X1]] : f32
// SCALAR-NEXT:        %{{.*}} = arith.addf %[[A1]], %[[M1]] : f32
// SCALAR:           %[[S01:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// SCALAR-NEXT:      %[[S23:.*]] = arith.addf %[[P2]], %[[P3]] : f32
// SCALAR-NEXT:      %[[S:.*]] = arith.addf %[[S01]], %[[S23]] : f32
// SCALAR-NEXT:      loop.for %{{.*}} in [%split, %n_i) accs(%{{.*}} = %[[S]] : f32 add reassoc) {
// SCALAR-NOT:       vector<
// SCALAR-LABEL:   func.func @scale_positive
// SCALAR:           loop.for %i in range({{.*}}) accs(%cursor = %c0 : index add) attributes {loop.mask_form = #loop.mask_form<branch_per_lane>} {
// SCALAR-NEXT:        %[[E:.*]] = simd.load %x[%i] : !loop.buf<f32> -> vector<1xf32>
// SCALAR-NEXT:        %[[P:.*]] = simd.cmp <ogt> %[[E]], %{{.*}} : vector<1xf32> -> vector<1xi1>
// SCALAR:             simd.compress_store %{{.*}}, %[[P]], %out[%cursor] full : vector<1xf32>, vector<1xi1>, !loop.buf<f32>
// SCALAR-NOT:       vector<4

// SSE2:         builtin.module attributes {loop.target = "sse2", loop.pipeline = "{{.*}}loop-vectorize,loop-inplace,convert-loop-to-simd{target=sse2 fallback=true}{{.*}}"}
// SSE2-LABEL:     func.func @sumsq
// SSE2:             loop.for %i in range({{.*}}) accs(%acc_v = %{{.*}} : vector<4xf32> add reassoc, %acc_v_1 = %{{.*}} : vector<4xf32> add reassoc) {
// SSE2-NEXT:          %[[X:.*]] = simd.load %x[%i] : !loop.buf<f32> -> vector<4xf32>
// SSE2-NEXT:          %[[M:.*]] = arith.mulf %[[X]], %[[X]] : vector<4xf32>
// SSE2-NEXT:          %{{.*}} = arith.addf %acc_v, %[[M]] : vector<4xf32>
// SSE2:             simd.hreduce <add> %{{.*}} : vector<4xf32> -> f32
// SSE2-LABEL:     func.func @scale_positive
// SSE2:             attributes {loop.mask_form = #loop.mask_form<select_blend>}
// SSE2:             simd.compress_store %{{.*}} : vector<4xf32>, vector<4xi1>, !loop.buf<f32>

// AVX2:         builtin.module attributes {loop.target = "avx2", loop.pipeline = "{{.*}}loop-vectorize,loop-simplify{fma=true},loop-inplace,convert-loop-to-simd{target=avx2 fallback=true}{{.*}}"}
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
