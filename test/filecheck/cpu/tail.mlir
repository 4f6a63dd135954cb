// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 stream_bytes=0 tail=auto cpu=zen4}' | filecheck %s --check-prefixes=HEAD-RED,ZEN4-MAP
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 stream_bytes=0 tail=auto cpu=sapphirerapids}' | filecheck %s --check-prefixes=RED-MASKED,MAP-MASKED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 stream_bytes=0 tail=auto cpu=zen3}' | filecheck %s --check-prefixes=HEAD-RED,MAP-SCALAR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 stream_bytes=0 tail=auto cpu=skylake-x}' | filecheck %s --check-prefixes=RED-MASKED,MAP-SCALAR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 stream_bytes=0 tail=auto cpu=generic}' | filecheck %s --check-prefixes=RED-SCALAR,MAP-SCALAR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 interleave=1 stream_bytes=0 tail=auto cpu=zen3}' | filecheck %s --check-prefixes=RED-SCALAR,MAP-SCALAR

// tail=auto: a scalar epilogue runs (W-1)/2 elements on average, one dependent chain of
// fp-latency steps for a reduction, about one element a cycle for a map; one masked block
// costs its masked loads and stores plus the mask (dialects/cpu_models.py). So a reduction
// takes the masked block wherever masked loads are cheap (AVX-512 everywhere, AVX2 loads);
// a map on AVX-512 too, but on AVX2 it keeps the scalar epilogue (vmaskmovps stores are
// microcoded on AMD, and 2 + 1 + 1 does not beat 3.5 on Intel either). generic knows no
// costs and SSE2 has no masked memory ops: the loop's own (scalar) tail.

func.func @sumsq(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = math.fma %e, %e, %acc : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

func.func @scale(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// RED-MASKED-LABEL: func.func @sumsq
// RED-MASKED:         simd.prefix_mask
// RED-MASKED:         simd.masked_load %x
// RED-MASKED:         %[[H:.*]] = simd.hreduce <add> %{{.*}}
// RED-MASKED-NEXT:    func.return %[[H]] : f32

// RED-SCALAR-LABEL: func.func @sumsq
// RED-SCALAR-NOT:     simd.prefix_mask
// RED-SCALAR:         %[[H:.*]] = simd.hreduce <add> %{{.*}}
// RED-SCALAR-NEXT:    %[[S:.*]] = loop.for %{{.*}} in [%{{.*}}, %n) accs(%{{.*}} = %[[H]] : f32 add reassoc) {
// RED-SCALAR:         func.return %[[S]] : f32

// MAP-MASKED-LABEL: func.func @scale
// MAP-MASKED:         simd.prefix_mask
// MAP-MASKED:         simd.masked_store
// MAP-MASKED-NOT:     loop.store
// MAP-MASKED:         func.return

// Zen 4 and Zen 3: the same masked tails after the aligning head (align_peel.py), a scalar loop
// HEAD-RED-LABEL: func.func @sumsq
// HEAD-RED:         %[[HEAD:.*]] = loop.for %{{.*}} in [%c0, %head)
// HEAD-RED:         simd.prefix_mask
// HEAD-RED:         simd.masked_load %x
// HEAD-RED:         %[[H:.*]] = simd.hreduce <add> %{{.*}}
// HEAD-RED-NEXT:    %[[S:.*]] = arith.addf %[[HEAD]], %[[H]] : f32
// HEAD-RED-NEXT:    func.return %[[S]] : f32

// ZEN4-MAP-LABEL: func.func @scale
// ZEN4-MAP:         loop.for %{{.*}} in [%c0, %head) {
// ZEN4-MAP:           loop.store
// ZEN4-MAP:         simd.prefix_mask
// ZEN4-MAP:         simd.masked_store
// ZEN4-MAP-NOT:     loop.store
// ZEN4-MAP:         func.return

// MAP-SCALAR-LABEL: func.func @scale
// MAP-SCALAR-NOT:     simd.masked_store
// MAP-SCALAR:         loop.store %{{.*}}, %out[%{{.*}}] : !loop.buf<f32>
// MAP-SCALAR:         func.return
