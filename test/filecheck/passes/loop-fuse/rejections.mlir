// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' --split-input-file 2>&1 >/dev/null | filecheck %s
// RUN: loop-opt %s -p loop-fuse --split-input-file | filecheck %s --check-prefix=IR
// One case per rejection code: the loops stay separate and the remark names the code at
// the second loop.

// CHECK: rejections.mlir:[[# @LINE + 7]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: trip count differs from loop.for at {{.*}}rejections.mlir:[[# @LINE + 3]]:3
func.func @domain(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %m) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @domain
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: loop.for at {{.*}}rejections.mlir:[[# @LINE + 8]]:3 has a non-unit step
func.func @step(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in range(%c0, %n, %c2) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @step
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 5]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: width(8) tail(scalar) differs from width(W) tail(scalar) of loop.vecloop at {{.*}}rejections.mlir:[[# @LINE + 3]]:3
func.func @width(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
  }
  loop.vecloop %i in [%c0, %n) width(8) tail(scalar) {
  }
  func.return
}
// IR-LABEL: func.func @width
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// Writes tmp[i], reads tmp[i + 1]: the read would see an element not yet written.
// CHECK: rejections.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_INDEXMAP_NOT_IDENTITY: loop.load at {{.*}}rejections.mlir:[[# @LINE + 9]]:5 accesses loop.alloc at {{.*}}rejections.mlir:[[# @LINE + 3]]:3 at another elem0 index than loop.store at {{.*}}rejections.mlir:[[# @LINE + 6]]:5
func.func @indexmap(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i + 1] : !loop.buf<f32>
    loop.store %y, %out[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @indexmap
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// A buffer returned by a call may alias the kernel's arguments.
// CHECK: rejections.mlir:[[# @LINE + 9]]:3: remark: FUSE_REJECT_NOALIAS_MISSING: func.call at {{.*}}rejections.mlir:[[# @LINE + 4]]:3 may alias other buffers
func.func private @get() -> !loop.buf<f32>
func.func @noalias(%a: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %b = func.call @get() : () -> !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @noalias
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 7]]:3: remark: FUSE_REJECT_CONTROL_FLOW: loop.for at {{.*}}rejections.mlir:[[# @LINE + 8]]:5 in the body of loop.for at {{.*}}rejections.mlir:[[# @LINE + 7]]:3 is control flow
func.func @nested(%a: !loop.buf<f32, 2>, %b: !loop.buf<f32, 2>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i, 0] : !loop.buf<f32, 2>
    loop.store %x, %b[%i, 0] : !loop.buf<f32, 2>
  }
  loop.for %i in [%c0, %n) {
    loop.for %j in [%c0, %n) {
      %x = loop.load %b[%i, %j] : !loop.buf<f32, 2>
      loop.store %x, %a[%i, %j] : !loop.buf<f32, 2>
    }
  }
  func.return
}
// IR-LABEL: func.func @nested
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_EFFECTS_RNG: df.random at {{.*}}rejections.mlir:[[# @LINE + 9]]:5 draws random numbers
func.func @rng(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %len = arith.constant 4 : i64
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %r = df.random %len : !df.array<f32, [k]>
  }
  func.return
}
// IR-LABEL: func.func @rng
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_EFFECTS_UNKNOWN: func.call at {{.*}}rejections.mlir:[[# @LINE + 10]]:5 has unknown effects
func.func private @f(f32) -> f32
func.func @unknown(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = func.call @f(%x) : (f32) -> f32
    loop.store %y, %b[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @unknown
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 7]]:3: remark: FUSE_REJECT_GUARD_POLICY: guard none differs from guard "bounds_checked" of loop.for at {{.*}}rejections.mlir:[[# @LINE + 3]]:3
func.func @guard(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) attributes {loop.guard = "bounds_checked"} {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @guard
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 9]]:3: remark: FUSE_REJECT_NOT_ADJACENT: loop.store at {{.*}}rejections.mlir:[[# @LINE + 8]]:3 between the loops touches their buffers
func.func @adjacent(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  loop.store %z, %b[0] : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %a[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @adjacent
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// x - mean(x): the map needs the fold's final value.
// CHECK: rejections.mlir:[[# @LINE + 9]]:3: remark: FUSE_REJECT_DEPENDENCE: it uses the final value of loop.for at {{.*}}rejections.mlir:[[# @LINE + 3]]:3
func.func @dependence(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index, %z: f32) {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  %neg = arith.negf %s : f32
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %d = arith.addf %x, %neg : f32
    loop.store %d, %out[%i] : !loop.buf<f32>
  }
  func.return
}
// IR-LABEL: func.func @dependence
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}

// -----

// CHECK: rejections.mlir:[[# @LINE + 5]]:3: remark: FUSE_REJECT_LOOP_KIND: loop.for and loop.vecloop are different loop kinds
func.func @kind(%n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
  }
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
  }
  func.return
}
// IR-LABEL: func.func @kind
// IR:         loop.{{for|vecloop}}
// IR-NOT:     func.func
// IR:         loop.{{for|vecloop}}
