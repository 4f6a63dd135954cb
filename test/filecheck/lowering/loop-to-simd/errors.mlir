// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2}' --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 fallback=true remarks=true}' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=FALLBACK
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 fallback=true}' --split-input-file | filecheck %s --check-prefix=SCALAR

// Ops with no vector form on lane-varying operands are located errors, never wrong code.
// With fallback=true the loop stays the scalar loop it means, with a remark.

func.func @int_pow(%x: !loop.buf<i32>, %out: !loop.buf<i32>, %d: i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %q = math.ipowi %e, %d : i32
    loop.store %q, %out[%i] : !loop.buf<i32>
  }
  func.return
}

// CHECK: Error while applying pattern: {{.*}}errors.mlir:13:5: error: math.ipowi on lane-varying operands cannot be lowered to simd for target 'avx2': no vector form
// FALLBACK: errors.mlir:13:5: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: math.ipowi on lane-varying operands cannot be lowered to simd for target 'avx2': no vector form
// SCALAR-LABEL: func.func @int_pow
// SCALAR-NEXT:    %c0 = arith.constant 0 : index
// SCALAR-NEXT:    %n = loop.dim %x, 0 : !loop.buf<i32>
// SCALAR-NEXT:    loop.for %i in [%c0, %n) {
// SCALAR-NEXT:      %e = loop.load %x[%i] : !loop.buf<i32>
// SCALAR-NEXT:      %q = math.ipowi %e, %d : i32
// SCALAR-NEXT:      loop.store %q, %out[%i] : !loop.buf<i32>
// SCALAR-NEXT:    }
// SCALAR-NEXT:    func.return

// -----

func.func @gather(%x: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %out, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[2 * %i] : !loop.buf<f32>
    loop.store %e, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK: Error while applying pattern: {{.*}}errors.mlir:37:5: error: loop.load: the index moves by 2 elements per lane; only contiguous (1) or uniform (0) accesses have a simd form (no gather/scatter)
// FALLBACK: errors.mlir:37:5: remark: SIMD_FALLBACK_SCALAR

// -----

func.func @tan(%x: !loop.buf<f64>, %out: !loop.buf<f64>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f64>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f64>
    %y = math.tan %e : f64
    loop.store %y, %out[%i] : !loop.buf<f64>
  }
  func.return
}

// CHECK: Error while applying pattern: {{.*}}errors.mlir:53:5: error: math.tan on lane-varying operands cannot be lowered to simd for target 'avx2': no vector form
// FALLBACK: errors.mlir:53:5: remark: SIMD_FALLBACK_SCALAR
