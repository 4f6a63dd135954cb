// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=zen4}' | filecheck %s --check-prefix=REG
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=skylake-x}' | filecheck %s --check-prefix=MEM
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=icelake-server}' | filecheck %s --check-prefix=MEM
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=sapphirerapids}' | filecheck %s --check-prefix=MEM
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=generic}' | filecheck %s --check-prefix=REG
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1}' | filecheck %s --check-prefix=REG
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 cpu=zen4}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=zen4},canonicalize,cse' -t c | filecheck %s --check-prefix=REG-C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 cpu=sapphirerapids},canonicalize,cse' -t c | filecheck %s --check-prefix=MEM-C

// AVX-512 compaction: vcompressps to memory costs ~80 cycles on Zen 4 and ~3 on Intel's
// AVX-512 cores; compressing in a register (~2) and storing (1) is the faster form on Zen 4
// only (a tie keeps the memory form); an unknown CPU (`generic`, the default) assumes the
// worst case of the tabled ones and compresses in a register. The lowering tags each compress store of such a CPU
// with simd.compress_in_register and the C printer picks the ISA's `_reg` row: a full
// vector store where the cursor is a vector away from the end, a masked store of the count's
// prefix in the exact last block. AVX2 has no compress instruction: its left-pack is untouched.

func.func @positive(%x: !loop.buf<f32>, %out: !loop.buf<f32>) -> index {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %cnt = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %e, %zero : f32
    loop.yield %p : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    loop.append %e, %out : !loop.buf<f32>
  }
  func.return %cnt : index
}

// REG-LABEL:   func.func @positive
// REG:           simd.compress_store %{{.*}}, %{{mask.*}}, %out[%{{.*}}] full {simd.compress_in_register} : vector<16xf32>, vector<16xi1>, !loop.buf<f32>
// REG:           simd.compress_store %{{.*}}, %{{mask.*}}, %out[%{{.*}}] limit %{{.*}} {simd.compress_in_register} : vector<16xf32>, vector<16xi1>, !loop.buf<f32>

// MEM-LABEL:   func.func @positive
// MEM:           simd.compress_store %{{.*}}, %{{mask.*}}, %out[%{{.*}}] full : vector<16xf32>, vector<16xi1>, !loop.buf<f32>
// MEM:           simd.compress_store %{{.*}}, %{{mask.*}}, %out[%{{.*}}] limit %{{.*}} : vector<16xf32>, vector<16xi1>, !loop.buf<f32>
// MEM-NOT:       compress_in_register

// AVX2-LABEL:  func.func @positive
// AVX2:          simd.compress_store %{{.*}}, %{{mask.*}}, %out[%{{.*}}] full : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
// AVX2-NOT:      compress_in_register

// REG-C-LABEL: int64_t positive(
// REG-C:         _mm512_storeu_ps(&out[{{.*}}], _mm512_mask_compress_ps(e, mask, e));
// REG-C:         _mm512_storeu_ps(&out[{{.*}}], _mm512_mask_compress_ps(e, mask, e));
// REG-C:         _mm512_storeu_ps(&spill[0], _mm512_mask_compress_ps(e, mask, e));
// REG-C-NOT:     compressstoreu

// MEM-C-LABEL: int64_t positive(
// MEM-C:         _mm512_mask_compressstoreu_ps(&out[{{.*}}], mask, e);
// MEM-C:         _mm512_mask_compressstoreu_ps(&out[{{.*}}], mask, e);
// MEM-C-NOT:     _mm512_mask_compress_ps
