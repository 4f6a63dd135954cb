// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 interleave=1}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1}' | filecheck %s --check-prefix=AVX512

// Min/max scans on SSE2 and AVX2 (TargetInfo.dup_slides): max is idempotent, so each
// log-step slide keeps the low lanes' own values (simd.slide_up_dup, one pshufd / vpermq)
// instead of sliding a neutral in. Where the combine is several instructions
// (TargetInfo.serial_minmax_carry: SSE2 i32/f32/i64, AVX2 f32) the carry is the running
// value's last lane; otherwise carry ⊕ splat_last(prefix) as for sums. AVX-512 unchanged.
// CHECK-LABEL: func.func @cummax_i32
// CHECK-NOT:     arith.constant -2147483648
// CHECK:         %[[INIT:.*]] = simd.broadcast %z : i32 -> vector<4xi32>
// CHECK:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[CARRY:.*]] = %[[INIT]] : vector<4xi32> max scan) {
// CHECK-NEXT:      %[[X:.*]] = simd.load %b[%{{.*}}] : !loop.buf<i32> -> vector<4xi32>
// CHECK-NEXT:      %[[S1:.*]] = simd.slide_up_dup %[[X]] by 1 : vector<4xi32>
// CHECK-NEXT:      %[[P1:.*]] = simd.max %[[S1]], %[[X]] : vector<4xi32>
// CHECK-NEXT:      %[[S2:.*]] = simd.slide_up_dup %[[P1]] by 2 : vector<4xi32>
// CHECK-NEXT:      %[[P2:.*]] = simd.max %[[S2]], %[[P1]] : vector<4xi32>
// CHECK-NEXT:      %[[T:.*]] = simd.max %[[CARRY]], %[[P2]] : vector<4xi32>
// CHECK-NEXT:      simd.store %[[T]], %o[%{{.*}}] : vector<4xi32>, !loop.buf<i32>
// CHECK-NEXT:      %[[NEXT:.*]] = simd.splat_last %[[T]] : vector<4xi32>
// CHECK-NEXT:      loop.yield %[[NEXT]] : vector<4xi32>
// AVX2-LABEL: func.func @cummax_i32
// AVX2:           simd.slide_up_dup %{{.*}} by 1 : vector<8xi32>
// AVX2:           simd.slide_up_dup %{{.*}} by 2 : vector<8xi32>
// AVX2:           %[[S4:.*]] = simd.slide_up_dup %{{.*}} by 4 : vector<8xi32>
// AVX2-NEXT:      %[[P4:.*]] = simd.max %[[S4]], %{{.*}} : vector<8xi32>
// AVX2-NEXT:      %[[T:.*]] = simd.max %[[CARRY:.*]], %[[P4]] : vector<8xi32>
// AVX2-NEXT:      simd.store %[[T]]
// AVX2-NEXT:      %[[L:.*]] = simd.splat_last %[[P4]] : vector<8xi32>
// AVX2-NEXT:      simd.max %[[CARRY]], %[[L]] : vector<8xi32>
// AVX512-LABEL: func.func @cummax_i32
// AVX512-NOT:     slide_up_dup
// AVX512:         simd.slide_up %{{.*}}, %{{.*}} by 1 : vector<16xi32>
func.func @cummax_i32(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i32 max scan) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <max> %x : i32
    %t = arith.maxsi %acc, %p : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}

// An unsigned max on SSE2 (no pmaxud; TargetInfo.flipped_unsigned_minmax) runs wholly on
// x ^ MIN with the signed max: the init flipped once before the loop, the loaded lanes
// flipped, the running value flipped back for the store only, the carry (here the step's
// operands the other way round) never leaving the flipped domain, flipped back for the tail.
// CHECK-LABEL: func.func @cumumax_i32_prefix_first
// CHECK:         %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[SIGN:.*]] = simd.broadcast %[[MIN]] : i32 -> vector<4xi32>
// CHECK-NEXT:    %[[I:.*]] = simd.broadcast %z : i32 -> vector<4xi32>
// CHECK-NEXT:    %[[FI:.*]] = arith.xori %[[I]], %[[SIGN]] : vector<4xi32>
// CHECK:         %[[R:.*]] = loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[CARRY:.*]] = %[[FI]] : vector<4xi32> max scan) {
// CHECK-NEXT:      %[[X:.*]] = simd.load %b[%{{.*}}] : !loop.buf<i32> -> vector<4xi32>
// CHECK-NEXT:      %[[FX:.*]] = arith.xori %[[X]], %[[SIGN]] : vector<4xi32>
// CHECK-NEXT:      %[[S1:.*]] = simd.slide_up_dup %[[FX]] by 1 : vector<4xi32>
// CHECK-NEXT:      %[[P1:.*]] = simd.max %[[S1]], %[[FX]] : vector<4xi32>
// CHECK-NEXT:      %[[S2:.*]] = simd.slide_up_dup %[[P1]] by 2 : vector<4xi32>
// CHECK-NEXT:      %[[P2:.*]] = simd.max %[[S2]], %[[P1]] : vector<4xi32>
// CHECK-NEXT:      %[[T:.*]] = simd.max %[[P2]], %[[CARRY]] : vector<4xi32>
// CHECK-NEXT:      %[[OUT:.*]] = arith.xori %[[T]], %[[SIGN]] : vector<4xi32>
// CHECK-NEXT:      simd.store %[[OUT]], %o[%{{.*}}] : vector<4xi32>, !loop.buf<i32>
// CHECK-NEXT:      %[[NEXT:.*]] = simd.splat_last %[[T]] : vector<4xi32>
// CHECK-NEXT:      loop.yield %[[NEXT]] : vector<4xi32>
// CHECK:         %[[BACK:.*]] = arith.xori %[[R]], %[[SIGN]] : vector<4xi32>
// CHECK-NEXT:    %[[RUNNING:.*]] = simd.first_lane %[[BACK]] : vector<4xi32> -> i32
// CHECK:         loop.for %{{.*}} in [%{{.*}}, %n) accs(%{{.*}} = %[[RUNNING]] : i32 umax scan) {
// CHECK:           loop.lane_scan <umax> %{{.*}} : i32
// CHECK-NEXT:      arith.maxui %{{.*}}, %{{.*}} : i32
// AVX2-LABEL: func.func @cumumax_i32_prefix_first
// AVX2-NOT:       arith.xori
// AVX2:           arith.maxui %{{.*}}, %{{.*}} : vector<8xi32>
// AVX512-LABEL: func.func @cumumax_i32_prefix_first
// AVX512-NOT:     arith.xori
// AVX512:         arith.maxui %{{.*}}, %{{.*}} : vector<16xi32>
func.func @cumumax_i32_prefix_first(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i32 umax scan) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <umax> %x : i32
    %t = arith.maxui %p, %acc : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}

// A running min of f64 on SSE2 (2 lanes): one unpcklpd-style slide_up_dup, and the carry off
// the chain (f64 is not in SSE2's serial_minmax_carry).
// CHECK-LABEL: func.func @cummin_f64
// CHECK:           %[[X:.*]] = simd.load
// CHECK-NEXT:      %[[S1:.*]] = simd.slide_up_dup %[[X]] by 1 : vector<2xf64>
// CHECK-NEXT:      %[[P:.*]] = simd.min %[[S1]], %[[X]] : vector<2xf64>
// CHECK-NEXT:      %[[T:.*]] = simd.min %[[CARRY:.*]], %[[P]] : vector<2xf64>
// CHECK-NEXT:      simd.store %[[T]]
// CHECK-NEXT:      %[[L:.*]] = simd.splat_last %[[P]] : vector<2xf64>
// CHECK-NEXT:      simd.min %[[CARRY]], %[[L]] : vector<2xf64>
func.func @cummin_f64(%b: !loop.buf<f64>, %o: !loop.buf<f64>, %n: index, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f64 min scan) {
    %x = loop.load %b[%i] : !loop.buf<f64>
    %p = loop.lane_scan <min> %x : f64
    %t = arith.minimumf %acc, %p : f64
    loop.store %t, %o[%i] : !loop.buf<f64>
    loop.yield %t : f64
  }
  func.return %s : f64
}

// A running sum is not idempotent: the neutral still slides in on SSE2.
// CHECK-LABEL: func.func @cumsum_i32
// CHECK-NOT:     slide_up_dup
// CHECK:         simd.slide_up %{{.*}}, %{{.*}} by 1 : vector<4xi32>
// CHECK-NOT:     slide_up_dup
// CHECK:         func.return
func.func @cumsum_i32(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i32 add scan) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <add> %x : i32
    %t = arith.addi %acc, %p : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}

// A running max of f32 (NaN-propagating): several instructions on SSE2 (helper) and AVX2
// (max + unordered compare + blend), so both carry the running value's last lane; AVX-512
// keeps carry ⊕ splat_last(prefix).
// CHECK-LABEL: func.func @cummax_f32
// CHECK:           simd.slide_up_dup %{{.*}} by 2 : vector<4xf32>
// CHECK-NEXT:      simd.max
// CHECK-NEXT:      %[[T:.*]] = simd.max %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT:      simd.store %[[T]]
// CHECK-NEXT:      %[[N:.*]] = simd.splat_last %[[T]] : vector<4xf32>
// CHECK-NEXT:      loop.yield %[[N]] : vector<4xf32>
// AVX2-LABEL: func.func @cummax_f32
// AVX2:           simd.slide_up_dup %{{.*}} by 4 : vector<8xf32>
// AVX2-NEXT:      simd.max
// AVX2-NEXT:      %[[T:.*]] = simd.max %{{.*}}, %{{.*}} : vector<8xf32>
// AVX2-NEXT:      simd.store %[[T]]
// AVX2-NEXT:      %[[N:.*]] = simd.splat_last %[[T]] : vector<8xf32>
// AVX2-NEXT:      loop.yield %[[N]] : vector<8xf32>
// AVX512-LABEL: func.func @cummax_f32
// AVX512:         simd.slide_up %{{.*}}, %{{.*}} by 8 : vector<16xf32>
// AVX512-NEXT:    %[[P:.*]] = simd.max %{{.*}}, %{{.*}} : vector<16xf32>
// AVX512-NEXT:    %[[T:.*]] = simd.max %[[C:.*]], %[[P]] : vector<16xf32>
// AVX512-NEXT:    simd.store %[[T]]
// AVX512-NEXT:    %[[L:.*]] = simd.splat_last %[[P]] : vector<16xf32>
// AVX512-NEXT:    simd.max %[[C]], %[[L]] : vector<16xf32>
func.func @cummax_f32(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 max scan) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = loop.lane_scan <max> %x : f32
    %t = arith.maximumf %acc, %p : f32
    loop.store %t, %o[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  func.return %s : f32
}

// A running or is idempotent too: one slide_up_dup on SSE2's 2 x i64, the carry off the
// chain (one-instruction combine).
// CHECK-LABEL: func.func @running_or_i64
// CHECK:           %[[X:.*]] = simd.load
// CHECK-NEXT:      %[[S:.*]] = simd.slide_up_dup %[[X]] by 1 : vector<2xi64>
// CHECK-NEXT:      %[[P:.*]] = arith.ori %[[S]], %[[X]] : vector<2xi64>
// CHECK-NEXT:      %[[T:.*]] = arith.ori %[[C:.*]], %[[P]] : vector<2xi64>
// CHECK-NEXT:      simd.store %[[T]]
// CHECK-NEXT:      %[[L:.*]] = simd.splat_last %[[P]] : vector<2xi64>
// CHECK-NEXT:      arith.ori %[[C]], %[[L]] : vector<2xi64>
func.func @running_or_i64(%b: !loop.buf<i64>, %o: !loop.buf<i64>, %n: index, %z: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i64 or scan) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %p = loop.lane_scan <or> %x : i64
    %t = arith.ori %acc, %p : i64
    loop.store %t, %o[%i] : !loop.buf<i64>
    loop.yield %t : i64
  }
  func.return %s : i64
}

// filter → scan (a predloop) on SSE2: an unsigned max flips inside the prefix only (the
// running value is compress-stored unflipped; the blend puts the neutral 0 in the dropped
// lanes before the flip), slides by lane duplication, and carries the running value's last
// lane (the combine is several instructions).
// CHECK-LABEL: func.func @kept_cumumax
// CHECK:         loop.for %{{.*}} accs(%[[CARRY:.*]] = %{{.*}} : vector<4xi32> custom, %[[CUR:.*]] = %{{.*}} : index add)
// CHECK:           %[[M:.*]] = simd.cmp <ne>
// CHECK:           %[[K:.*]] = simd.select %[[M]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:      %[[F:.*]] = arith.xori %[[K]], %[[SIGN:.*]] : vector<4xi32>
// CHECK-NEXT:      simd.slide_up_dup %[[F]] by 1 : vector<4xi32>
// CHECK-NEXT:      simd.max
// CHECK-NEXT:      simd.slide_up_dup %{{.*}} by 2 : vector<4xi32>
// CHECK-NEXT:      %[[PF:.*]] = simd.max
// CHECK-NEXT:      %[[P:.*]] = arith.xori %[[PF]], %[[SIGN]] : vector<4xi32>
// CHECK-NEXT:      %[[T:.*]] = arith.maxui %[[CARRY]], %[[P]] : vector<4xi32>
// CHECK-NEXT:      simd.compress_store %[[T]], %[[M]], %o[%[[CUR]]]
// CHECK-NEXT:      %[[NEXT:.*]] = simd.splat_last %[[T]] : vector<4xi32>
// CHECK:           loop.yield %[[NEXT]], %{{.*}} : vector<4xi32>, index
// AVX2-LABEL: func.func @kept_cumumax
// AVX2-NOT:       arith.xori
// AVX2:           simd.slide_up_dup %{{.*}} by 4 : vector<8xi32>
// AVX2-NEXT:      %[[P:.*]] = arith.maxui
// AVX2-NEXT:      %[[T:.*]] = arith.maxui %[[CARRY:.*]], %[[P]] : vector<8xi32>
// AVX2-NEXT:      simd.compress_store %[[T]]
// AVX2-NEXT:      %[[L:.*]] = simd.splat_last %[[P]] : vector<8xi32>
// AVX2-NEXT:      arith.maxui %[[CARRY]], %[[L]] : vector<8xi32>
func.func @kept_cumumax(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %z : i32 umax scan) pred {
    %e = loop.load %b[%i] : !loop.buf<i32>
    %c = arith.cmpi ne, %e, %zero : i32
    loop.yield %c : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <umax> %x : i32
    %t = arith.maxui %acc, %p : i32
    loop.append %t, %o : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %cnt, %s : index, i32
}
