// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | loop-opt | filecheck %s

// A vector loop over range(%a, %b, %s) with a runtime step walks its positions: whole blocks
// of W positions from 0 (the overflow-free trip count), lane k of the variable is
// a + (p + k)*s in i64 (the block's lane 0 plus iota x step, built once before the loop), and
// the scalar tail runs the source range from the variable at the first position left
// (or from %b when none is).

// CHECK-LABEL: func.func @sum_i64
// CHECK:         %[[TRIPS:trips]] = arith.select
// CHECK:         %[[END:.*]] = arith.subi %[[TRIPS]], %{{.*}} : index
// CHECK:         %[[A64:.*]] = arith.index_cast %a : index to i64
// CHECK-NEXT:    %[[S64:.*]] = arith.index_cast %s : index to i64
// CHECK-NEXT:    %[[IOTA:.*]] = simd.iota : vector<4xi64>
// CHECK-NEXT:    %[[SV:.*]] = simd.broadcast %[[S64]] : i64 -> vector<4xi64>
// CHECK-NEXT:    %[[LANES:.*]] = arith.muli %[[IOTA]], %[[SV]] : vector<4xi64>
// CHECK-NEXT:    loop.for %[[P:.*]] in range(%{{[^,]*}}, %[[END]], %{{.*}}) accs(%{{.*}} = %{{.*}} : vector<4xi64> add) {
// CHECK-NEXT:      %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK-NEXT:      %[[PS:.*]] = arith.muli %[[P64]], %[[S64]] : i64
// CHECK-NEXT:      %[[V0:.*]] = arith.addi %[[A64]], %[[PS]] : i64
// CHECK:           %[[BASE:.*]] = simd.broadcast %{{.*}} : i64 -> vector<4xi64>
// CHECK-NEXT:      %k = arith.addi %[[BASE]], %[[LANES]] : vector<4xi64>
// CHECK:         simd.hreduce <add>
// CHECK:         %[[LEFT:.*]] = arith.cmpi slt, %[[END]], %[[TRIPS]] : index
// CHECK-NEXT:    %[[FROM:.*]] = arith.select %[[LEFT]], %{{.*}}, %b : index
// CHECK-NEXT:    loop.for %{{.*}} in range(%[[FROM]], %b, %s)
func.func @sum_i64(%a: index, %b: index, %s: index) -> i64 {
  %z = arith.constant 0 : i64
  %r = loop.vecloop %i in range(%a, %b, %s) width(W) tail(scalar) accs(%acc = %z : i64 add) {
    %k = arith.index_cast %i : index to i64
    %t = arith.addi %acc, %k : i64
    loop.yield %t : i64
  }
  func.return %r : i64
}

