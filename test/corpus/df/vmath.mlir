// Vector math (targets/c_vmath.py): softmax, logsumexp, sigmoid, GELU-tanh and plain maps of
// transcendentals, vectorized on every SIMD ISA. References are f64 numpy rounded once.

// REF: kernel=@vm_max_f32 inputs=x:f32[n]~-20:20 ref=np.float32(x.max(initial=np.float32(-3.0e38)))
func.func @vm_max_f32(%x: !df.array<f32, [i]>) -> f32 {
  %lo = arith.constant -3.0e38 : f32
  %m = df.reduce max(%x, %lo) over [i] : !df.array<f32, [i]> -> f32
  func.return %m : f32
}

// REF: kernel=@softmax_f32 tol=close:1e-5 inputs=x:f32[n]~-20:20 ref=(np.exp(x.astype(np.float64) - x.max(initial=-3e38)) / np.sum(np.exp(x.astype(np.float64) - x.max(initial=-3e38)))).astype(np.float32)
func.func @softmax_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %m = df.decl_ref @vm_max_f32(%x) : (!df.array<f32, [i]>) -> f32
  %e = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %d = arith.subf %v, %m : f32
    %x1 = math.exp %d : f32
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

// The sum is >= 1 when n > 0 (the max contributes e^0); max(sum, 1) keeps n = 0 finite.
// REF: kernel=@logsumexp_f32 tol=close:1e-5 inputs=x:f32[n]~-20:20 ref=np.float32(x.max(initial=-3e38) + np.log(max(1.0, np.sum(np.exp(x.astype(np.float64) - x.max(initial=-3e38))))))
func.func @logsumexp_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = df.decl_ref @vm_max_f32(%x) : (!df.array<f32, [i]>) -> f32
  %e = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %d = arith.subf %v, %m : f32
    %x1 = math.exp %d : f32
    df.yield %x1 : f32
  }
  %s = df.reduce add(%e, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %s1 = arith.maximumf %s, %one : f32
  %l = math.log %s1 : f32
  %r = arith.addf %m, %l : f32
  func.return %r : f32
}

// sigmoid in f32: exp (<= 1 ulp), 1 + e and 1 / d each round once, and the f64 reference rounds to f32: <= 3.5 ulp
// REF: kernel=@sigmoid_f32 tol=ulp:4 inputs=x:f32[n]~-20:20 ref=(1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32)
func.func @sigmoid_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %one = arith.constant 1.0 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %n = arith.negf %v : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %q = arith.divf %one, %d : f32
    df.yield %q : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@gelu_tanh_f32 tol=close:1e-6 inputs=x:f32[n]~-6:6 ref=(0.5 * x.astype(np.float64) * (1 + np.tanh(0.7978845608028654 * (x.astype(np.float64) + 0.044715 * x.astype(np.float64) ** 3)))).astype(np.float32)
func.func @gelu_tanh_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.7978845608028654 : f32
  %c = arith.constant 0.044715 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t = arith.mulf %c, %v3 : f32
    %u = arith.addf %v, %t : f32
    %w = arith.mulf %k, %u : f32
    %th = math.tanh %w : f32
    %p = arith.addf %one, %th : f32
    %h = arith.mulf %half, %v : f32
    %g = arith.mulf %h, %p : f32
    df.yield %g : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@sin_f32 tol=ulp:1 inputs=x:f32[n]~-100:100 ref=np.sin(x.astype(np.float64)).astype(np.float32)
func.func @sin_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %s = math.sin %v : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@pow_f32 tol=ulp:1 inputs=x:f32[n]~0:10 ref=np.power(x.astype(np.float64), 2.5).astype(np.float32)
func.func @pow_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %p = arith.constant 2.5 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %s = math.powf %v, %p : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@cos_log1p_f64 tol=ulp:3 inputs=x:f64[n]~0:1e3 ref=np.cos(x) + np.log1p(x)
func.func @cos_log1p_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%v: f64):
    %c = math.cos %v : f64
    %l = math.log1p %v : f64
    %s = arith.addf %c, %l : f64
    df.yield %s : f64
  }
  func.return %y : !df.array<f64, [i]>
}

// REF: kernel=@exp2_log2_f64 tol=ulp:4 inputs=x:f64[n]~-50:50 ref=np.exp2(x) * np.log2(np.abs(x) + 1)
func.func @exp2_log2_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %one = arith.constant 1.0 : f64
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%v: f64):
    %e = math.exp2 %v : f64
    %a = math.absf %v : f64
    %b = arith.addf %a, %one : f64
    %l = math.log2 %b : f64
    %s = arith.mulf %e, %l : f64
    df.yield %s : f64
  }
  func.return %y : !df.array<f64, [i]>
}
