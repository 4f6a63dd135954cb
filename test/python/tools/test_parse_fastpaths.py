"""The parser's fast paths (parse_fastpaths.py; docs/compile_time.md, tenth round) accept exactly
what xDSL's declarative-format parser and type parser accept, build the same IR, and refuse the
rest with xDSL's message at xDSL's location."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer

import loopopt.compile as lc
from loopopt import parse_fastpaths, xdsl_fastpaths
from loopopt.tools.bench.c_stable import programs

ROOT = Path(__file__).resolve().parents[3]

_PATCHED = [(FormatProgram, "parse"), (AttrParser, "parse_optional_type")]


@pytest.fixture(autouse=True)
def _xdsl_parser_only(monkeypatch):
    """These fast paths are inside xDSL's parser: loopopt's own (fast_parser.py, which reads
    most of these texts itself) is off here; test_fast_parser.py compares it with xDSL's."""
    from loopopt import fast_parser

    monkeypatch.setattr(fast_parser, "enabled", False)


@contextmanager
def _xdsls_parser() -> Iterator[None]:
    """xDSL's own `FormatProgram.parse` and `parse_optional_type` for the duration."""
    installed = [getattr(c, n) for c, n in _PATCHED]
    for (c, n), f in zip(_PATCHED, installed):
        setattr(c, n, f.__wrapped__)
    try:
        yield
    finally:
        for (c, n), f in zip(_PATCHED, installed):
            setattr(c, n, f)


def _outcome(text: str) -> str:
    """The module printed in the custom and the generic form (properties, result types and
    locations spelled out), or the error's class, location and message."""
    import io

    try:
        module = lc.parse(text, lc.make_context(), "t.mlir")
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"
    custom, generic = io.StringIO(), io.StringIO()
    try:
        Printer(custom).print_op(module)
    except Exception as e:  # noqa: BLE001 - an invalid op's custom printer may fail: compared too
        custom.write(f"(printing failed: {type(e).__name__})")
    Printer(generic, print_generic_format=True, print_debuginfo=True).print_op(module)
    return f"{custom.getvalue()}\n{generic.getvalue()}"


def _texts() -> list[str]:
    """Every chunk of every .mlir under test/filecheck and examples, the c_stable programs, and
    the benchmark module after the default pipeline (loop and simd ops in their formats)."""
    texts = []
    for folder in ("test/filecheck", "examples"):
        for p in sorted((ROOT / folder).rglob("*.mlir")):
            if "Output" not in p.parts:
                texts += p.read_text(errors="replace").split("// -----")
    texts += sorted(programs().values())
    from loopopt.tools.bench.overhead import generated_module

    for target in ("avx2", "scalar"):
        ctx = lc.make_context()
        module = lc.parse(generated_module(40), ctx, "t")
        lc.run_pipeline(module, f"loop-pipeline{{target={target}}}", ctx)
        texts.append(str(module))
    return texts


_BODY = "func.func @f(%x: f32, %y: f32, %i: i32, %v: vector<8xf32>) -> f32 {{\n  {}\n  func.return %x : f32\n}}"
MALFORMED = [_BODY.format(line) for line in (
    "%a = arith.addf %x, : f32", "%a = arith.addf %x %y : f32", "%a = arith.addf %x, %y f32",
    "%a = arith.addf %x, %y :", "%a = arith.addf %x, %y : f33", "%a = arith.addf %x, %y : i32",
    "%a = arith.addf %x, %i : f32", "%a = arith.addf %x, %z : f32", "%a = arith.addf %x, %y fastmath<fast> : f32",
    "%a = arith.addf %x, %y fastmath<bogus> : f32", "%a = arith.addf %x, %y {fastmath = #arith.fastmath<fast>} : f32",
    '%a = arith.addf %x, %y {foo = "bar"} : f32', "%a = arith.addf %x, %y : f32, f32", "%a = math.sqrt %x : vector<8xf32>",
    "%a = math.sqrt %v : vector<8xf32>", "%a = math.sqrt : f32", "%a:2 = arith.addf %x, %y : f32",
    "%a = arith.constant 1.0 : f32", "%a = arith.constant 1 : f32", "%a = arith.constant {x = 1} 2 : i32",
    "func.return %x, %y : f32", "func.return %x : f32, f32", "func.return %x f32", "func.return : f32",
    "%a = arith.addf %x, %y : si32", "%a = arith.addi %i, %i : i32", "%a = arith.addi %i, %i : ui32",
    "%a = arith.addi %i, %i : i33", "%a = arith.addf %x#1, %y : f32", "%a = arith.addf %x, %y : index",
)]


@pytest.mark.parametrize("chunk", [0, 1, 2, 3])
def test_parse_fastpaths_parse_as_xdsl(chunk):
    """Each text (a quarter per case) gives the same modules, generic form and locations included,
    or the same error, with the fast paths and with xDSL's code; and a module printed from the
    fast paths' parse (when it verifies) reads back to the same text (print -> parse -> print)."""
    assert not xdsl_fastpaths.opted_out()
    texts = _texts() + MALFORMED
    assert len(texts) > 500
    errors = 0
    for text in texts[chunk::4]:
        fast = _outcome(text)
        with _xdsls_parser():
            slow = _outcome(text)
        assert fast == slow, text[:400]
        if fast.split(":")[0].endswith(("Error", "Exception", "Diagnostic")):
            errors += 1
            continue
        try:
            lc.parse(text, lc.make_context(), "t.mlir").verify()
        except Exception:  # noqa: BLE001 - an invalid op may print in a form that does not read back
            continue
        printed = fast.split("\n" + '"builtin.module"')[0]
        assert _outcome(printed).startswith(printed), text[:400]
    assert errors >= 10


def test_malformed_formats_are_refused_as_xdsl_refuses_them():
    """The texts the plans read partly then hand back to xDSL: its message, at its location."""
    refused = 0
    for text in MALFORMED:
        fast = _outcome(text)
        with _xdsls_parser():
            assert fast == _outcome(text), text
        refused += not fast.startswith("builtin.module")
    assert refused >= 20


def test_plans_cover_the_benchmark_modules_formats():
    """The formats of the ops the benchmark module spells (arith, math, df.yield, func.return)
    get a plan; a format with a directive the plans do not read gets none (xDSL parses it)."""
    from xdsl.dialects import arith, func, math

    from loopopt.dialects import df

    def program(op):
        from xdsl.irdl.declarative_assembly_format import FormatProgram

        return FormatProgram.from_str(op.get_irdl_definition().assembly_format, op.get_irdl_definition())

    for op in (arith.AddfOp, arith.MulfOp, math.SqrtOp, math.AbsFOp, arith.ConstantOp, func.ReturnOp, df.YieldOp,
               arith.AddiOp):
        assert parse_fastpaths._plan_steps(program(op).stmts) is not None, op.name
    assert parse_fastpaths._plan_steps(program(func.CallOp).stmts) is None  # a functional-type directive


def test_builtin_type_table_is_xdsls_answer():
    from xdsl.context import Context
    from xdsl.parser import Parser

    for name in parse_fastpaths.BUILTIN_TYPE_NAMES:
        fast = Parser(Context(), name + " ,").parse_optional_type()
        with _xdsls_parser():
            slow = Parser(Context(), name + " ,").parse_optional_type()
        assert fast == slow and type(fast) is type(slow), name
