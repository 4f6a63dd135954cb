// RUN: loop-opt %s -t c | filecheck %s

// Scalar integer arithmetic is defined for every input (docs/integer_semantics.md): add/sub/mul
// wrap through the unsigned type, division and remainder never trap (by zero: 0, MIN / -1 =
// MIN), shift amounts are read as unsigned (>= width: 0, or the sign fill for shrsi),
// float -> int saturates with NaN -> 0, and i1 compares treat true as -1 (signed) or 1 (unsigned).
builtin.module attributes {loop.target = "scalar"} {
  func.func @ops(%a: i32, %b: i32) -> i32 attributes {loop.kernel} {
    %s = arith.addi %a, %b : i32
    %d = arith.divsi %s, %b : i32
    %r = arith.remsi %d, %b : i32
    %u = arith.divui %r, %b : i32
    %v = arith.remui %u, %b : i32
    %f = arith.floordivsi %v, %b : i32
    %c = arith.ceildivsi %f, %b : i32
    %l = arith.shli %c, %b : i32
    %h = arith.shrsi %l, %b : i32
    %z = arith.shrui %h, %b : i32
    func.return %z : i32
  }
  func.func @conv(%x: f64) -> i64 attributes {loop.kernel} {
    %i = arith.fptosi %x : f64 to i64
    func.return %i : i64
  }
  func.func @bools(%p: i1, %q: i1) -> i1 attributes {loop.kernel} {
    %lt = arith.cmpi slt, %p, %q : i1
    %ge = arith.cmpi uge, %lt, %q : i1
    func.return %ge : i1
  }
}

// CHECK-LABEL: static inline int32_t lo_div_i32(int32_t a, int32_t b)
// CHECK-NEXT:  {
// CHECK-NEXT:      return b == 0 ? 0 : b == -1 ? (int32_t)((uint32_t)0 - (uint32_t)a) : a / b;
// CHECK-LABEL: static inline int32_t lo_rem_i32(int32_t a, int32_t b)
// CHECK:           return (b == 0 || b == -1) ? 0 : a % b;
// CHECK-LABEL: static inline int32_t lo_divu_i32(int32_t a, int32_t b)
// CHECK:           return b == 0 ? 0 : (int32_t)((uint32_t)a / (uint32_t)b);
// CHECK-LABEL: static inline int32_t lo_shl_i32(int32_t a, int32_t b)
// CHECK:           return (uint32_t)b >= 32u ? 0 : (int32_t)((uint32_t)a << (uint32_t)b);
// CHECK-LABEL: static inline int32_t lo_shrs_i32(int32_t a, int32_t b)
// CHECK:           return (uint32_t)b >= 32u ? (a < 0 ? -1 : 0) : (int32_t)(a >> (uint32_t)b);

// CHECK-LABEL: int32_t ops(int32_t a, int32_t b)
// CHECK:           int32_t s = (int32_t)((uint32_t)a + (uint32_t)b);
// CHECK-NEXT:      int32_t d = lo_div_i32(s, b);
// CHECK-NEXT:      int32_t r = lo_rem_i32(d, b);
// CHECK-NEXT:      int32_t u = lo_divu_i32(r, b);
// CHECK-NEXT:      int32_t v = lo_remu_i32(u, b);
// CHECK-NEXT:      int32_t f = lo_floordiv_i32(v, b);
// CHECK-NEXT:      int32_t c = lo_ceildiv_i32(f, b);
// CHECK-NEXT:      int32_t l = lo_shl_i32(c, b);
// CHECK-NEXT:      int32_t h = lo_shrs_i32(l, b);
// CHECK-NEXT:      int32_t z = lo_shru_i32(h, b);
// CHECK-NEXT:      return z;

// CHECK-LABEL: int64_t conv(double x)
// CHECK:           int64_t i = lo_fptosi_i64_f64(x);

// CHECK-LABEL: bools(
// CHECK:           _Bool lt = p & !q;
// CHECK-NEXT:      _Bool ge = lt | !q;
