// fastmath<afn> on f32 math.exp / math.exp2 (targets/c_vmath.py's AFN_F32 cores on the SIMD ISAs, libm on
// scalars): the exp maps are within c_vmath.ULP_BOUNDS_AFN (2 ulp) of the exact value; softmax is
// vmath.mlir's with the approximate exp (loop-bench's softmax_afn row). References are f64 numpy rounded once.

// REF: kernel=@exp_afn_f32 tol=ulp:2 inputs=x:f32[n]~-100:100 ref=np.exp(x.astype(np.float64)).astype(np.float32)
func.func @exp_afn_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp %v fastmath<afn> : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@exp2_afn_f32 tol=ulp:2 inputs=x:f32[n]~-140:140 ref=np.exp2(x.astype(np.float64)).astype(np.float32)
func.func @exp2_afn_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %e = math.exp2 %v fastmath<fast> : f32
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@vm_afn_max_f32 inputs=x:f32[n]~-20:20 ref=np.float32(x.max(initial=np.float32(-3.0e38)))
func.func @vm_afn_max_f32(%x: !df.array<f32, [i]>) -> f32 {
  %lo = arith.constant -3.0e38 : f32
  %m = df.reduce max(%x, %lo) over [i] : !df.array<f32, [i]> -> f32
  func.return %m : f32
}

// REF: kernel=@softmax_afn_f32 tol=close:1e-5 inputs=x:f32[n]~-20:20 ref=(np.exp(x.astype(np.float64) - x.max(initial=-3e38)) / np.sum(np.exp(x.astype(np.float64) - x.max(initial=-3e38)))).astype(np.float32)
func.func @softmax_afn_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %m = df.decl_ref @vm_afn_max_f32(%x) : (!df.array<f32, [i]>) -> f32
  %e = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %d = arith.subf %v, %m : f32
    %x1 = math.exp %d fastmath<afn> : f32
    df.yield %x1 : f32
  }
  %s = df.reduce add(%e, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %y = df.map %e : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %q = arith.divf %v, %s : f32
    df.yield %q : f32
  }
  func.return %y : !df.array<f32, [i]>
}
