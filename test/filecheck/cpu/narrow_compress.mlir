// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4-IR
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx512 cpu=skylake-x}' -t c | filecheck %s --check-prefix=GROUPS
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx512 cpu=icelake-server}' -t c | filecheck %s --check-prefix=GROUPS
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx512 cpu=generic}' -t c | filecheck %s --check-prefix=GROUPS
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx2 cpu=zen4}' -t c | filecheck %s --check-prefix=AVX2

// i8/i16 compaction with AVX512_VBMI2 (a `cpu=` feature, cpu_models.CpuModel.features): one
// vpcompressb/w merged into the value and one 64-byte store, where the 8-byte pshufb groups
// (targets/c_narrow_compress.py) took 3.1-5.3x the time on Zen 4 (x > 3 at 1 Ki-1 Mi, half and 10% kept;
// results/amd-zen4/narrow_filters). Recorded as `loop.cpu_features` only where a module compacts
// i8/i16 lanes (the C enables the extension and the runtime refuses a CPU without it); f32 keeps
// its rows and records nothing. CPUs not tabled with it (Intel: not measured here; generic) and
// AVX2 keep the groups.

func.func @keep_i8(%x: !df.array<i8, [i]>) -> !df.array<i8, [j]> {
  %r = df.filter %x : !df.array<i8, [i]> -> !df.array<i8, [j]> {
  ^bb0(%e: i8):
    %c3 = arith.constant 3 : i8
    %c = arith.cmpi ugt, %e, %c3 : i8
    df.yield %c : i1
  }
  func.return %r : !df.array<i8, [j]>
}

func.func @keep_i16(%x: !df.array<i16, [i]>) -> !df.array<i16, [j]> {
  %r = df.filter %x : !df.array<i16, [i]> -> !df.array<i16, [j]> {
  ^bb0(%e: i16):
    %c3 = arith.constant 3 : i16
    %c = arith.cmpi sgt, %e, %c3 : i16
    df.yield %c : i1
  }
  func.return %r : !df.array<i16, [j]>
}

// ZEN4-IR:       loop.cpu_features = "avx512_vbmi2"
// ZEN4-IR:       simd.compress_store {{.*}} full {simd.compress_in_register} : vector<64xi8>
// ZEN4-IR:       simd.compress_store {{.*}} full {simd.compress_in_register} : vector<32xi16>

// ZEN4:          target: avx512 ({{.*}} -mavx512vbmi2)
// ZEN4:          #pragma GCC target("avx512vbmi2")
// ZEN4-NOT:      lo_compress_full_i8x64
// ZEN4-LABEL:    int64_t keep_i8(
// ZEN4:              _mm512_storeu_si512(&out[cursor], _mm512_mask_compress_epi8(e, mask, e));
// ZEN4-NEXT:         int64_t {{v_[0-9]+}} = (int64_t)__builtin_popcountll((unsigned long long)(mask));
// the exact tail packs into a spill through the same row
// ZEN4:              _mm512_storeu_si512(&spill[0], _mm512_mask_compress_epi8(e, mask, e));
// ZEN4-LABEL:    int64_t keep_i16(
// ZEN4:              _mm512_storeu_si512(&out[cursor], _mm512_mask_compress_epi16(e, mask, e));
// ZEN4-NEXT:         int64_t {{v_[0-9]+}} = (int64_t)__builtin_popcount((unsigned)(mask));
// ZEN4-NOT:      lo_compress_full_i8x64

// GROUPS-NOT:    vbmi2
// GROUPS-LABEL:  int64_t keep_i8(
// GROUPS:            lo_compress_full_i8x64(&out[cursor], e, mask);
// GROUPS-LABEL:  int64_t keep_i16(
// GROUPS:            lo_compress_full_i8x64((int8_t *)&out[cursor], e, _mm512_movepi8_mask(_mm512_movm_epi16(mask))) / 2;
// GROUPS-NOT:    vbmi2

// AVX2-NOT:      vbmi2
// AVX2-LABEL:    int64_t keep_i8(
// AVX2:              lo_compress_full_i8x32(
// AVX2-NOT:      vbmi2

// -----

func.func @keep_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [j]> {
  %r = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [j]> {
  ^bb0(%e: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %e, %z : f32
    df.yield %c : i1
  }
  func.return %r : !df.array<f32, [j]>
}

// ZEN4-IR-NOT:   cpu_features
// ZEN4-IR:       simd.compress_store {{.*}} full {simd.compress_in_register} : vector<16xf32>
// ZEN4-IR-NOT:   cpu_features
// ZEN4-NOT:      vbmi2
// ZEN4-LABEL:    int64_t keep_f32(
// ZEN4:              _mm512_mask_compress_ps(
// ZEN4-NOT:      vbmi2
