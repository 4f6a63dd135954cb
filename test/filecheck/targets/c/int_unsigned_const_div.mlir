// RUN: loop-opt %s -t c | filecheck %s

// Division and remainder by a constant other than 0 and -1 print as C's operators (they cannot
// trap or overflow there); a variable, 0 or -1 divisor (4294967295 : i32 is -1) keeps the
// lo_div/lo_rem helper. fptoui / uitofp have their own rows (saturating, NaN -> 0 / the
// unsigned value), extsi / sitofp of i1 read true as -1, uitofp of i1 as 1.
builtin.module attributes {loop.target = "scalar"} {
  func.func @divs(%a: i32, %b: i32, %n: index) -> i32 attributes {loop.kernel} {
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : i32
    %c0 = arith.constant 0 : i32
    %cm1 = arith.constant -1 : i32
    %cu = arith.constant 4294967295 : i32
    %r = arith.remsi %n, %c8 : index
    %q = arith.divsi %n, %c8 : index
    %d = arith.divsi %a, %c7 : i32
    %m = arith.remsi %d, %c7 : i32
    %du = arith.divui %m, %c7 : i32
    %mu = arith.remui %du, %c7 : i32
    %z = arith.divsi %mu, %c0 : i32
    %w = arith.divsi %z, %cm1 : i32
    %x = arith.divsi %w, %cu : i32
    %y = arith.remsi %x, %b : i32
    %ri = arith.index_cast %r : index to i32
    %qi = arith.index_cast %q : index to i32
    %s1 = arith.addi %y, %ri : i32
    %s2 = arith.addi %s1, %qi : i32
    func.return %s2 : i32
  }
  func.func @fu32(%x: f32) -> i32 attributes {loop.kernel} {
    %y = arith.fptoui %x : f32 to i32
    func.return %y : i32
  }
  func.func @fu64(%x: f64) -> i64 attributes {loop.kernel} {
    %y = arith.fptoui %x : f64 to i64
    func.return %y : i64
  }
  func.func @uf32(%x: i32) -> f32 attributes {loop.kernel} {
    %y = arith.uitofp %x : i32 to f32
    func.return %y : f32
  }
  func.func @uf64(%x: i64) -> f64 attributes {loop.kernel} {
    %y = arith.uitofp %x : i64 to f64
    func.return %y : f64
  }
  func.func @sext(%x: i1) -> i32 attributes {loop.kernel} {
    %y = arith.extsi %x : i1 to i32
    func.return %y : i32
  }
  func.func @sitofp(%x: i1) -> f64 attributes {loop.kernel} {
    %y = arith.sitofp %x : i1 to f64
    func.return %y : f64
  }
  func.func @uitofp(%x: i1) -> f64 attributes {loop.kernel} {
    %y = arith.uitofp %x : i1 to f64
    func.return %y : f64
  }
  func.func @fptosi1(%x: f32) -> i1 attributes {loop.kernel} {
    %y = arith.fptosi %x : f32 to i1
    func.return %y : i1
  }
  func.func @fptoui1(%x: f64) -> i1 attributes {loop.kernel} {
    %y = arith.fptoui %x : f64 to i1
    func.return %y : i1
  }
  func.func @zext(%x: i1) -> i64 attributes {loop.kernel} {
    %y = arith.extui %x : i1 to i64
    func.return %y : i64
  }
}

// CHECK-LABEL: int32_t divs(
// CHECK:      int64_t r = n % 8;
// CHECK-NEXT: int64_t q = n / 8;
// CHECK-NEXT: int32_t d = a / 7;
// CHECK-NEXT: int32_t m = d % 7;
// CHECK-NEXT: int32_t du = (int32_t)((uint32_t)m / (uint32_t)7);
// CHECK-NEXT: int32_t mu = (int32_t)((uint32_t)du % (uint32_t)7);
// CHECK-NEXT: int32_t z = lo_div_i32(mu, 0);
// CHECK-NEXT: int32_t w = lo_div_i32(z, (-1));
// CHECK-NEXT: int32_t x = lo_div_i32(w, (-1));
// CHECK-NEXT: int32_t y = lo_rem_i32(x, b);

// CHECK-LABEL: fu32(
// CHECK:      int32_t y = lo_fptoui_i32_f32(x);
// CHECK-LABEL: fu64(
// CHECK:      int64_t y = lo_fptoui_i64_f64(x);
// CHECK-LABEL: uf32(
// CHECK:      float y = (float)(uint32_t)x;
// CHECK-LABEL: uf64(
// CHECK:      double y = (double)(uint64_t)x;
// CHECK-LABEL: sext(
// CHECK:      int32_t y = -(int32_t)x;
// CHECK-LABEL: sitofp(
// CHECK:      double y = x ? -1.0 : 0.0;
// CHECK-LABEL: uitofp(
// CHECK:      double y = (double)x;
// CHECK-LABEL: fptosi1(
// CHECK:      y = x <= -1;
// CHECK-LABEL: fptoui1(
// CHECK:      y = x >= 1;
// CHECK-LABEL: zext(
// CHECK:      int64_t y = (int64_t)x;
