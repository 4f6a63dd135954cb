// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 cpu=generic}' | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 cpu=zen3}' | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=skylake-x}' | filecheck %s --check-prefix=SKX
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=icelake-server}' | filecheck %s --check-prefix=ICX
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=sapphirerapids}' | filecheck %s --check-prefix=SPR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=zen4 stream_bytes=1024}' | filecheck %s --check-prefix=GIVEN
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3}' | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3 stream_bytes=0}' | filecheck %s --check-prefix=NEVER

// The output size from which a map streams past the caches is half the CPU's last-level
// cache (dialects/cpu_models.py): output and input of one map then still fit it together.
// generic keeps 4 MiB; Zen 3 and Zen 4 (32 MiB L3 per CCD) 16 MiB; Skylake-SP 38.5 MiB / 2,
// Ice Lake-SP 60 MiB / 2, Sapphire Rapids 105 MiB / 2. An explicit stream_bytes still wins.

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

// GENERIC-LABEL: func.func @scale
// GENERIC:         %[[LIMIT:.*]] = arith.constant 4194304 : index
// GENERIC-NEXT:    %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// ZEN3-LABEL:    func.func @scale
// ZEN3:            %[[LIMIT:.*]] = arith.constant 16777216 : index
// ZEN3-NEXT:       %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// ZEN4-LABEL:    func.func @scale
// ZEN4:            %[[LIMIT:.*]] = arith.constant 16777216 : index
// ZEN4-NEXT:       %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// SKX-LABEL:     func.func @scale
// SKX:             %[[LIMIT:.*]] = arith.constant 20185088 : index
// SKX-NEXT:        %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// ICX-LABEL:     func.func @scale
// ICX:             %[[LIMIT:.*]] = arith.constant 31457280 : index
// ICX-NEXT:        %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// SPR-LABEL:     func.func @scale
// SPR:             %[[LIMIT:.*]] = arith.constant 55050240 : index
// SPR-NEXT:        %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// GIVEN-LABEL:   func.func @scale
// GIVEN:           %[[LIMIT:.*]] = arith.constant 1024 : index
// GIVEN-NEXT:      %stream = arith.cmpi sge, %{{.*}}, %[[LIMIT]] : index

// NEVER-LABEL:   func.func @scale
// NEVER-NOT:       %stream
// NEVER-NOT:       nontemporal
// NEVER:           func.return
