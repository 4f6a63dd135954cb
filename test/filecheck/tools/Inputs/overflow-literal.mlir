func.func @f() -> i32 {
  %c = arith.constant 99999999999999999999 : i32
  func.return %c : i32
}
