// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize' | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=generic}' | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=zen3}' | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=skylake-x}' | filecheck %s --check-prefix=SKX
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=icelake-server}' | filecheck %s --check-prefix=ICX
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=sapphirerapids}' | filecheck %s --check-prefix=SPR
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=neoverse-n1}' | filecheck %s --check-prefix=NEO
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=zen4 chunk=1024 min_elements=4096}' | filecheck %s --check-prefix=GIVEN
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=2}' | filecheck %s --check-prefix=ZEN4
// RUN: not loop-opt %s -p 'loop-parallelize{cpu=zen5}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{cpu=zen4 stream_bytes=0}' | filecheck %s --check-prefix=NEVER
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=2 stream_bytes=1024}' | filecheck %s --check-prefix=PIPE

// The size threshold and the chunk come from the CPU model (passes/loop_parallelize.sizes_for,
// dialects/cpu_models.py). bytes = one element of every buffer: 8 for the f32 map (in + out),
// 4 for the f32 sum, 16 for the f64 filter (in + out).
//   chunk        = the largest power of two with chunk * bytes <= L2 / 4
//   min_elements = 4 fork/joins of work at (datapath bytes per cycle) / bytes elements a
//                  cycle, rounded up to a power of two, at least 2 chunks
// generic, Zen 3: 512 KiB L2, 256-bit datapath, 3000-cycle fork/join;
// Zen 4: 1 MiB L2, 256-bit, 3000; Skylake-SP: 1 MiB, 512-bit, 10000;
// Ice Lake-SP: 1.25 MiB, 512-bit, 10000; Sapphire Rapids: 2 MiB, 512-bit, 10000;
// Neoverse N1: 1 MiB, 128-bit, 10000. Explicit options win.
// A filter copies chunks with non-temporal stores when its output's n elements reach the
// CPU's streaming threshold (stream_bytes: half the LLC, as maps; 0 on kernels without a
// filter); loop-pipeline passes its stream_bytes on.

// GENERIC: @axpb{{.*}}chunk = 16384 : i64, min_elements = 65536 : i64
// GENERIC: @sum{{.*}}chunk = 32768 : i64, min_elements = 131072 : i64
// GENERIC: @positive_f64{{.*}}chunk = 8192 : i64, min_elements = 32768 : i64{{.*}}stream_bytes = 4194304 : i64
// ZEN3: @axpb{{.*}}chunk = 16384 : i64, min_elements = 65536 : i64
// ZEN3: @sum{{.*}}chunk = 32768 : i64, min_elements = 131072 : i64
// ZEN3: @positive_f64{{.*}}chunk = 8192 : i64, min_elements = 32768 : i64
// ZEN4: @axpb{{.*}}chunk = 32768 : i64, min_elements = 65536 : i64
// ZEN4: @sum{{.*}}chunk = 65536 : i64, min_elements = 131072 : i64{{.*}}stream_bytes = 0 : i64
// ZEN4: @positive_f64{{.*}}chunk = 16384 : i64, min_elements = 32768 : i64{{.*}}stream_bytes = 16777216 : i64
// SKX: @axpb{{.*}}chunk = 32768 : i64, min_elements = 524288 : i64
// SKX: @sum{{.*}}chunk = 65536 : i64, min_elements = 1048576 : i64
// SKX: @positive_f64{{.*}}chunk = 16384 : i64, min_elements = 262144 : i64
// ICX: @axpb{{.*}}chunk = 32768 : i64, min_elements = 524288 : i64
// ICX: @sum{{.*}}chunk = 65536 : i64, min_elements = 1048576 : i64
// ICX: @positive_f64{{.*}}chunk = 16384 : i64, min_elements = 262144 : i64
// SPR: @axpb{{.*}}chunk = 65536 : i64, min_elements = 524288 : i64
// SPR: @sum{{.*}}chunk = 131072 : i64, min_elements = 1048576 : i64
// SPR: @positive_f64{{.*}}chunk = 32768 : i64, min_elements = 262144 : i64
// NEO: @axpb{{.*}}chunk = 32768 : i64, min_elements = 131072 : i64
// NEO: @sum{{.*}}chunk = 65536 : i64, min_elements = 262144 : i64
// NEO: @positive_f64{{.*}}chunk = 16384 : i64, min_elements = 65536 : i64
// GIVEN: @axpb{{.*}}chunk = 1024 : i64, min_elements = 4096 : i64
// GIVEN: @sum{{.*}}chunk = 1024 : i64, min_elements = 4096 : i64
// GIVEN: @positive_f64{{.*}}chunk = 1024 : i64, min_elements = 4096 : i64
// UNKNOWN: error: loop-parallelize: option cpu=zen5
// NEVER: @positive_f64{{.*}}stream_bytes = 0 : i64
// PIPE: @positive_f64{{.*}}stream_bytes = 1024 : i64

func.func @axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @positive_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [k]> {
  %zero = arith.constant 0.0 : f64
  %p = df.filter %x : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %c = arith.cmpf ogt, %e, %zero : f64
    df.yield %c : i1
  }
  func.return %p : !df.array<f64, [k]>
}
