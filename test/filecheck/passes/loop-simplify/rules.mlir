// RUN: loop-opt %s -p loop-simplify | filecheck %s
// One case per row of passes/simplify_rules.py RULES.

// x+0 -> x
// CHECK-LABEL: func.func @add_zero
// CHECK-NEXT:    func.return %x : i32
func.func @add_zero(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.addi %x, %c : i32
  func.return %r : i32
}

// 0+x -> x
// CHECK-LABEL: func.func @zero_add
// CHECK-NEXT:    func.return %x : i32
func.func @zero_add(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.addi %c, %x : i32
  func.return %r : i32
}

// x+(-0.0) -> x
// CHECK-LABEL: func.func @addf_negzero
// CHECK-NEXT:    func.return %x : f32
func.func @addf_negzero(%x: f32) -> f32 {
  %c = arith.constant -0.0 : f32
  %r = arith.addf %x, %c : f32
  func.return %r : f32
}

// (-0.0)+x -> x
// CHECK-LABEL: func.func @negzero_addf
// CHECK-NEXT:    func.return %x : f32
func.func @negzero_addf(%x: f32) -> f32 {
  %c = arith.constant -0.0 : f32
  %r = arith.addf %c, %x : f32
  func.return %r : f32
}

// x-0 -> x
// CHECK-LABEL: func.func @sub_zero
// CHECK-NEXT:    func.return %x : i32
func.func @sub_zero(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.subi %x, %c : i32
  func.return %r : i32
}

// x-0.0 -> x
// CHECK-LABEL: func.func @subf_zero
// CHECK-NEXT:    func.return %x : f32
func.func @subf_zero(%x: f32) -> f32 {
  %c = arith.constant 0.0 : f32
  %r = arith.subf %x, %c : f32
  func.return %r : f32
}

// x-x -> 0 (integers)
// CHECK-LABEL: func.func @sub_self
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @sub_self(%x: i32) -> i32 {
  %r = arith.subi %x, %x : i32
  func.return %r : i32
}

// x*1 -> x
// CHECK-LABEL: func.func @mul_one
// CHECK-NEXT:    func.return %x : i32
func.func @mul_one(%x: i32) -> i32 {
  %c = arith.constant 1 : i32
  %r = arith.muli %x, %c : i32
  func.return %r : i32
}

// 1*x -> x
// CHECK-LABEL: func.func @one_mul
// CHECK-NEXT:    func.return %x : i32
func.func @one_mul(%x: i32) -> i32 {
  %c = arith.constant 1 : i32
  %r = arith.muli %c, %x : i32
  func.return %r : i32
}

// x*0 -> 0 (integers)
// CHECK-LABEL: func.func @mul_zero
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @mul_zero(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.muli %x, %c : i32
  func.return %r : i32
}

// 0*x -> 0 (integers)
// CHECK-LABEL: func.func @zero_mul
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @zero_mul(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.muli %c, %x : i32
  func.return %r : i32
}

// x*1.0 -> x
// CHECK-LABEL: func.func @mulf_one
// CHECK-NEXT:    func.return %x : f32
func.func @mulf_one(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %r = arith.mulf %x, %c : f32
  func.return %r : f32
}

// 1.0*x -> x
// CHECK-LABEL: func.func @one_mulf
// CHECK-NEXT:    func.return %x : f32
func.func @one_mulf(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %r = arith.mulf %c, %x : f32
  func.return %r : f32
}

// x/1 -> x
// CHECK-LABEL: func.func @div_one
// CHECK-NEXT:    func.return %x : i32
func.func @div_one(%x: i32) -> i32 {
  %c = arith.constant 1 : i32
  %r = arith.divsi %x, %c : i32
  func.return %r : i32
}

// x/1.0 -> x
// CHECK-LABEL: func.func @divf_one
// CHECK-NEXT:    func.return %x : f32
func.func @divf_one(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %r = arith.divf %x, %c : f32
  func.return %r : f32
}

// x&x -> x
// CHECK-LABEL: func.func @and_self
// CHECK-NEXT:    func.return %x : i32
func.func @and_self(%x: i32) -> i32 {
  %r = arith.andi %x, %x : i32
  func.return %r : i32
}

// x|0 -> x
// CHECK-LABEL: func.func @or_zero
// CHECK-NEXT:    func.return %x : i32
func.func @or_zero(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.ori %x, %c : i32
  func.return %r : i32
}

// x|x -> x
// CHECK-LABEL: func.func @or_self
// CHECK-NEXT:    func.return %x : i32
func.func @or_self(%x: i32) -> i32 {
  %r = arith.ori %x, %x : i32
  func.return %r : i32
}

// x^0 -> x
// CHECK-LABEL: func.func @xor_zero
// CHECK-NEXT:    func.return %x : i32
func.func @xor_zero(%x: i32) -> i32 {
  %c = arith.constant 0 : i32
  %r = arith.xori %x, %c : i32
  func.return %r : i32
}

// x^x -> 0
// CHECK-LABEL: func.func @xor_self
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @xor_self(%x: i32) -> i32 {
  %r = arith.xori %x, %x : i32
  func.return %r : i32
}

// select(true,a,b) -> a
// CHECK-LABEL: func.func @select_true
// CHECK-NEXT:    func.return %x : f32
func.func @select_true(%x: f32, %y: f32) -> f32 {
  %t = arith.constant true
  %r = arith.select %t, %x, %y : f32
  func.return %r : f32
}

// select(false,a,b) -> b
// CHECK-LABEL: func.func @select_false
// CHECK-NEXT:    func.return %y : f32
func.func @select_false(%x: f32, %y: f32) -> f32 {
  %t = arith.constant false
  %r = arith.select %t, %x, %y : f32
  func.return %r : f32
}

// select(c,a,a) -> a
// CHECK-LABEL: func.func @select_same
// CHECK-NEXT:    func.return %x : f32
func.func @select_same(%x: f32, %p: i1) -> f32 {
  %r = arith.select %p, %x, %x : f32
  func.return %r : f32
}

// -(-x) -> x
// CHECK-LABEL: func.func @neg_neg
// CHECK-NEXT:    func.return %x : f32
func.func @neg_neg(%x: f32) -> f32 {
  %n = arith.negf %x : f32
  %r = arith.negf %n : f32
  func.return %r : f32
}

// ipowi(x, 0) -> 1
// CHECK-LABEL: func.func @ipowi_0
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @ipowi_0(%x: i32) -> i32 {
  %e0 = arith.constant 0 : i32
  %r = math.ipowi %x, %e0 : i32
  func.return %r : i32
}

// ipowi(x, 1) -> x
// CHECK-LABEL: func.func @ipowi_1
// CHECK-NEXT:    func.return %x : i32
func.func @ipowi_1(%x: i32) -> i32 {
  %e1 = arith.constant 1 : i32
  %r = math.ipowi %x, %e1 : i32
  func.return %r : i32
}

// ipowi(x, 2) -> x*x
// CHECK-LABEL: func.func @ipowi_2
// CHECK-NEXT:    %[[S:.*]] = arith.muli %x, %x : i32
// CHECK-NEXT:    func.return %[[S]] : i32
func.func @ipowi_2(%x: i32) -> i32 {
  %e2 = arith.constant 2 : i32
  %r = math.ipowi %x, %e2 : i32
  func.return %r : i32
}

// ipowi(x, 3) -> x*x*x
// CHECK-LABEL: func.func @ipowi_3
// CHECK-NEXT:    %[[S:.*]] = arith.muli %x, %x : i32
// CHECK-NEXT:    %[[C:.*]] = arith.muli %[[S]], %x : i32
// CHECK-NEXT:    func.return %[[C]] : i32
func.func @ipowi_3(%x: i32) -> i32 {
  %e3 = arith.constant 3 : i32
  %r = math.ipowi %x, %e3 : i32
  func.return %r : i32
}

// ipowi(x, 4) -> (x*x)*(x*x)
// CHECK-LABEL: func.func @ipowi_4
// CHECK-NEXT:    %[[S:.*]] = arith.muli %x, %x : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.muli %[[S]], %[[S]] : i32
// CHECK-NEXT:    func.return %[[Q]] : i32
func.func @ipowi_4(%x: i32) -> i32 {
  %e4 = arith.constant 4 : i32
  %r = math.ipowi %x, %e4 : i32
  func.return %r : i32
}

// fpowi(x, 0) -> 1
// CHECK-LABEL: func.func @fpowi_0
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    func.return %[[C]] : f32
func.func @fpowi_0(%x: f32) -> f32 {
  %e0 = arith.constant 0 : i32
  %r = math.fpowi %x, %e0 : f32, i32
  func.return %r : f32
}

// fpowi(x, 1) -> x
// CHECK-LABEL: func.func @fpowi_1
// CHECK-NEXT:    func.return %x : f32
func.func @fpowi_1(%x: f32) -> f32 {
  %e1 = arith.constant 1 : i32
  %r = math.fpowi %x, %e1 : f32, i32
  func.return %r : f32
}

// fpowi(x, 2) -> x*x
// CHECK-LABEL: func.func @fpowi_2
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    func.return %[[S]] : f32
func.func @fpowi_2(%x: f32) -> f32 {
  %e2 = arith.constant 2 : i32
  %r = math.fpowi %x, %e2 : f32, i32
  func.return %r : f32
}

// fpowi(x, 3) -> x*x*x
// CHECK-LABEL: func.func @fpowi_3
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    %[[C:.*]] = arith.mulf %[[S]], %x : f32
// CHECK-NEXT:    func.return %[[C]] : f32
func.func @fpowi_3(%x: f32) -> f32 {
  %e3 = arith.constant 3 : i32
  %r = math.fpowi %x, %e3 : f32, i32
  func.return %r : f32
}

// fpowi(x, 4) -> (x*x)*(x*x)
// CHECK-LABEL: func.func @fpowi_4
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT:    func.return %[[Q]] : f32
func.func @fpowi_4(%x: f32) -> f32 {
  %e4 = arith.constant 4 : i32
  %r = math.fpowi %x, %e4 : f32, i32
  func.return %r : f32
}

// powf(x, 0) -> 1
// CHECK-LABEL: func.func @powf_0
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    func.return %[[C]] : f32
func.func @powf_0(%x: f32) -> f32 {
  %e0 = arith.constant 0.0 : f32
  %r = math.powf %x, %e0 : f32
  func.return %r : f32
}

// powf(x, 1) -> x
// CHECK-LABEL: func.func @powf_1
// CHECK-NEXT:    func.return %x : f32
func.func @powf_1(%x: f32) -> f32 {
  %e1 = arith.constant 1.0 : f32
  %r = math.powf %x, %e1 : f32
  func.return %r : f32
}

// powf(x, 2) -> x*x
// CHECK-LABEL: func.func @powf_2
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    func.return %[[S]] : f32
func.func @powf_2(%x: f32) -> f32 {
  %e2 = arith.constant 2.0 : f32
  %r = math.powf %x, %e2 : f32
  func.return %r : f32
}

// powf(x, 3) -> x*x*x
// CHECK-LABEL: func.func @powf_3
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    %[[C:.*]] = arith.mulf %[[S]], %x : f32
// CHECK-NEXT:    func.return %[[C]] : f32
func.func @powf_3(%x: f32) -> f32 {
  %e3 = arith.constant 3.0 : f32
  %r = math.powf %x, %e3 : f32
  func.return %r : f32
}

// powf(x, 4) -> (x*x)*(x*x)
// CHECK-LABEL: func.func @powf_4
// CHECK-NEXT:    %[[S:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT:    func.return %[[Q]] : f32
func.func @powf_4(%x: f32) -> f32 {
  %e4 = arith.constant 4.0 : f32
  %r = math.powf %x, %e4 : f32
  func.return %r : f32
}
