// RUN: loop-opt %s -p 'loop-fuse{remarks=true}' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=OFF
// RUN: loop-opt %s -p 'loop-fuse{remarks=true allow_control_flow_simple=true allow_broadcast_identity=true}' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ONREMARK
// RUN: loop-opt %s -p 'loop-fuse{allow_control_flow_simple=true allow_broadcast_identity=true}' --split-input-file | filecheck %s --check-prefix=ON
// The two opt-in gates: off by default (a remark names the code), on they admit only the
// safe subset.

// A simple if-assign: one scf.if with one result and effect-free branches.
// OFF: gates.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_CONTROL_FLOW: scf.if at {{.*}}gates.mlir:[[# @LINE + 11]]:5 in the body of loop.for at {{.*}}gates.mlir:[[# @LINE + 8]]:3 is a simple if-assign (allow_control_flow_simple=false)
func.func @if_assign(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index, %th: f32) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %y, %th : f32
    %r = scf.if %p -> (f32) {
      scf.yield %y : f32
    } else {
      %z = arith.negf %y : f32
      scf.yield %z : f32
    }
    loop.store %r, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// ON-LABEL: func.func @if_assign
// ON:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// ON-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// ON-NEXT:      %[[P:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
// ON-NEXT:      %[[R:.*]] = scf.if %[[P]] -> (f32) {
// ON:           loop.store %[[R]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// ON-NEXT:    }
// ON-NEXT:    func.return

// -----

// An if that stores is not a simple if-assign: rejected even with the gate on.
// OFF: gates.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_CONTROL_FLOW: scf.if at {{.*}}gates.mlir:[[# @LINE + 9]]:5 in the body of loop.for at {{.*}}gates.mlir:[[# @LINE + 8]]:3 is control flow
// ONREMARK: gates.mlir:[[# @LINE + 7]]:3: remark: FUSE_REJECT_CONTROL_FLOW: scf.if at {{.*}}gates.mlir:[[# @LINE + 8]]:5 in the body of loop.for at {{.*}}gates.mlir:[[# @LINE + 7]]:3 is control flow
func.func @if_store(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %out[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    scf.if %p {
      %y = loop.load %a[%i] : !loop.buf<f32>
      loop.store %y, %out[%i] : !loop.buf<f32>
    }
  }
  func.return
}
// ON-LABEL: func.func @if_store
// ON:         loop.for
// ON:         loop.for

// -----

// Reading tmp[0] at every iteration of the second loop: identity-safe, since element 0 is
// written in iteration 0 and never again. Fused, tmp stays (it is still read).
// OFF: gates.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_BROADCAST_ND: loop.load at {{.*}}gates.mlir:[[# @LINE + 10]]:5 reads loop.alloc at {{.*}}gates.mlir:[[# @LINE + 3]]:3 at a broadcast index, identity-safe (allow_broadcast_identity=false)
func.func @broadcast_first(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i] : !loop.buf<f32>
    %f = loop.load %tmp[0] : !loop.buf<f32>
    %d = arith.subf %y, %f : f32
    loop.store %d, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// ON-LABEL: func.func @broadcast_first
// ON:         %[[TMP:.*]] = loop.alloc
// ON-NEXT:    loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// ON-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// ON-NEXT:      loop.store %[[X]], %[[TMP]][%[[I]]] : !loop.buf<f32>
// ON-NEXT:      %[[F:.*]] = loop.load %[[TMP]][0] : !loop.buf<f32>
// ON-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[F]] : f32
// ON-NEXT:      loop.store %[[D]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// ON-NEXT:    }
// ON-NEXT:    loop.dealloc %[[TMP]]

// -----

// tmp[i // 2] reads an element written at iteration i // 2 <= i: identity-safe.
// OFF: gates.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_BROADCAST_ND: loop.load at {{.*}}gates.mlir:[[# @LINE + 10]]:5 reads argument #1 at a broadcast index, identity-safe (allow_broadcast_identity=false)
func.func @broadcast_div(%a: !loop.buf<i32>, %out: !loop.buf<i32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    loop.store %x, %out[%i] : !loop.buf<i32>
  }
  loop.for %i in [%c0, %n) {
    %h = arith.divsi %i, %c2 : index
    %y = loop.load %out[%h] : !loop.buf<i32>
    loop.store %y, %a[%i] : !loop.buf<i32>
  }
  func.return
}
// ON-LABEL: func.func @broadcast_div
// ON:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// ON-NEXT:      %[[X:.*]] = loop.load %[[A:.*]][%[[I]]] : !loop.buf<i32>
// ON-NEXT:      loop.store %[[X]], %[[OUT:.*]][%[[I]]] : !loop.buf<i32>
// ON-NEXT:      %[[H:.*]] = arith.divsi %[[I]], %{{.*}} : index
// ON-NEXT:      %[[Y:.*]] = loop.load %[[OUT]][%[[H]]] : !loop.buf<i32>
// ON-NEXT:      loop.store %[[Y]], %[[A]][%[[I]]] : !loop.buf<i32>
// ON-NEXT:    }

// -----

// tmp[5] is written at iteration 5, after iterations 0..4 would read it: never safe.
// OFF: gates.mlir:[[# @LINE + 9]]:3: remark: FUSE_REJECT_BROADCAST_ND: loop.load at {{.*}}gates.mlir:[[# @LINE + 10]]:5 reads loop.alloc at {{.*}}gates.mlir:[[# @LINE + 4]]:3 at a broadcast index, not identity-safe
// ONREMARK: gates.mlir:[[# @LINE + 8]]:3: remark: FUSE_REJECT_BROADCAST_ND: loop.load at {{.*}}gates.mlir:[[# @LINE + 9]]:5 reads loop.alloc at {{.*}}gates.mlir:[[# @LINE + 3]]:3 at a broadcast index, not identity-safe
func.func @broadcast_unsafe(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %f = loop.load %tmp[5] : !loop.buf<f32>
    loop.store %f, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// ON-LABEL: func.func @broadcast_unsafe
// ON:         loop.for
// ON:         loop.for
