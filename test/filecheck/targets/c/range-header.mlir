// RUN: loop-opt %s -t c | filecheck %s

// Loop headers never overflow and never hang for any int64 bounds and step: unit steps
// count up to hi (<= INT64_MAX), step -1 down to hi (>= INT64_MIN); any other constant step
// iterates a trip count computed once in uint64_t (the variable steps in uint64_t); a
// runtime step moves the variable to hi instead of past it, and step 0 runs nothing.
builtin.module {
  func.func @steps(%x: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %lo: index, %hi: index, %s: index) -> i64 attributes {loop.kernel} {
    %z = arith.constant 0 : i64
    %c1 = arith.constant 1 : index
    %cm1 = arith.constant -1 : index
    %c3 = arith.constant 3 : index
    %cm4 = arith.constant -4 : index
    %cmin = arith.constant -9223372036854775808 : index
    %a = loop.for %i in range(%lo, %hi, %c1) accs(%acc = %z : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    %b = loop.for %i in range(%lo, %hi, %cm1) accs(%acc = %a : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    %c = loop.for %i in range(%lo, %hi, %c3) accs(%acc = %b : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    %d = loop.for %i in range(%lo, %hi, %cm4) accs(%acc = %c : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    %e = loop.for %i in range(%hi, %lo, %cmin) accs(%acc = %d : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    %f = loop.for %i in range(%lo, %hi, %s) accs(%acc = %e : i64 add) {
      %v = arith.index_cast %i : index to i64
      %t = arith.addi %acc, %v : i64
      loop.yield %t : i64
    }
    func.return %f : i64
  }
}

// CHECK-LABEL: int64_t steps(
// CHECK:       for (int64_t i = lo; i < hi; i++) {
// CHECK:       for (int64_t i = lo; i > hi; i--) {
// CHECK:       for (int64_t i = lo, i_left = (hi) > i ? (int64_t)(((uint64_t)(hi) - (uint64_t)i - 1u) / 3ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 3ull)) {
// CHECK:       for (int64_t i = lo, i_left = i > (hi) ? (int64_t)(((uint64_t)i - (uint64_t)(hi) - 1u) / 4ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i - 4ull)) {
// CHECK:       for (int64_t i = hi, i_left = i > (lo) ? (int64_t)(((uint64_t)i - (uint64_t)(lo) - 1u) / 9223372036854775808ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i - 9223372036854775808ull)) {
// CHECK:       for (int64_t i = lo; (s) > 0 ? i < (hi) : ((s) < 0 && i > (hi)); i = ((s) > 0 ? (uint64_t)(hi) - (uint64_t)i > (uint64_t)(s) : (uint64_t)i - (uint64_t)(hi) > 0ull - (uint64_t)(s)) ? (int64_t)((uint64_t)i + (uint64_t)(s)) : (hi)) {
