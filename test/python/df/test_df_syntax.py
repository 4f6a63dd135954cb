"""The '%a, %b : T_a, T_b -> R' head df.map and df.filter share (df_syntax.parse_inputs_arrow_results):
a count mismatch is a parse error over the types, and operands resolve after the body."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import ParseError

from loopopt.compile import parse
from loopopt.dialects import df

MAP = """func.func @k(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map OPERANDS : TYPES -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    df.yield %e : f32
  }
  func.return %y : !df.array<f32, [i]>
}"""

FILTER = """func.func @k(%x: !df.array<f32, [i]>) -> !df.array<f64, [k]> {
  %y = df.filter OPERANDS : TYPES -> !df.array<f64, [k]> {
  ^bb0(%e: f32):
    %t = arith.constant true
    df.yield %t : i1
  } map {
  ^bb0(%e: f32):
    %d = arith.extf %e : f32 to f64
    df.yield %d : f64
  }
  func.return %y : !df.array<f64, [k]>
}"""

A = "!df.array<f32, [i]>"


@pytest.mark.parametrize("text", [MAP, FILTER], ids=["map", "filter"])
def test_head_parses_and_prints_back(text):
    module = parse(text.replace("OPERANDS", "%x").replace("TYPES", A))
    module.verify()
    op = next(o for o in module.walk() if isinstance(o, df.MapOp | df.FilterOp))
    assert len(op.operands) == 1 and op.operands[0].type == module.body.block.first_op.args[0].type
    assert str(module) == str(parse(str(module)))


@pytest.mark.parametrize("text", [MAP, FILTER], ids=["map", "filter"])
@pytest.mark.parametrize("operands, types, message", [
    ("%x, %x", A, "2 operands but 1 types"),
    ("%x", f"{A}, {A}", "1 operands but 2 types"),
])  # fmt: skip
def test_count_mismatch_is_located_at_the_types(text, operands, types, message):
    source = text.replace("OPERANDS", operands).replace("TYPES", types)
    with pytest.raises(ParseError) as e:
        parse(source)
    line = source.splitlines()[1]
    column = line.index(" : ") + 3
    shown = str(e.value)
    assert message in shown
    assert ":2:" in shown and "^" * len(types) in shown
    assert line in shown and shown.index("^") - shown.index(line) - len(line) - 1 == column
