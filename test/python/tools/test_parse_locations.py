"""The locations LocatedParser stamps (docs/compile_time.md, twelfth round): `_file_line_col`
builds what `FileLineColLoc(...)` builds, at each op's first token, also after
`--split-input-file`'s line offset; anything but its own parameter classes takes xDSL's path."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.utils.exceptions import VerifyException

import loopopt.compile as lc
from loopopt import diagnostics
from loopopt.diagnostics import LocatedParser

TEXT = """func.func @f(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
    func.return %b : f32
}
"""


def _same_attribute(fast: FileLineColLoc, slow: FileLineColLoc) -> None:
    assert type(fast) is type(slow) is FileLineColLoc
    assert fast == slow and hash(fast) == hash(slow) and str(fast) == str(slow)
    assert (fast.filename, fast.line, fast.column) == (slow.filename, slow.line, slow.column)
    assert {k: v for k, v in vars(fast).items() if not k.startswith("_loopopt")} == \
        {k: v for k, v in vars(slow).items() if not k.startswith("_loopopt")}


def test_the_direct_construction_is_on():
    assert diagnostics._DIRECT_LOCATIONS  # xDSL 0.74's FileLineColLoc: else every test below is xDSL's path


def test_each_op_is_located_at_its_first_token():
    module = lc.parse(TEXT, name="k.mlir")
    where = {op.name: op.location for op in module.walk() if op.name != "builtin.module"}
    expected = {"func.func": (1, 1), "arith.addf": (2, 3), "func.return": (3, 5)}
    for name, (line, col) in expected.items():
        _same_attribute(where[name], FileLineColLoc(StringAttr("k.mlir"), IntAttr(line), IntAttr(col)))


def test_a_line_offset_moves_the_line():
    parser = LocatedParser(lc.make_context(), TEXT, "k.mlir")
    parser.line_offset = 10
    module = parser.parse_module()
    ret = next(op for op in module.walk() if op.name == "func.return")
    _same_attribute(ret.location, FileLineColLoc(StringAttr("k.mlir"), IntAttr(13), IntAttr(5)))


def test_direct_construction_is_xdsls():
    name = StringAttr("x.mlir")
    for line, col in ((1, 1), (7, 30), (70_000, 2)):  # 70,000: past the shared IntAttr table
        fast = diagnostics._file_line_col(name, diagnostics._int_attr(line), diagnostics._int_attr(col))
        _same_attribute(fast, FileLineColLoc(name, IntAttr(line), IntAttr(col)))


def test_other_parameters_take_xdsls_constructor():
    """Parameters of other classes are checked by xDSL's constructor, which refuses them."""
    with pytest.raises(VerifyException):
        diagnostics._file_line_col(IntAttr(1), IntAttr(1), IntAttr(1))  # type: ignore[arg-type]
    with pytest.raises(VerifyException):
        diagnostics._file_line_col(StringAttr("f"), StringAttr("1"), IntAttr(1))  # type: ignore[arg-type]
