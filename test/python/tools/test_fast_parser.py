"""loopopt's own module parser (fast_parser.py; docs/compile_time.md, thirteenth round) builds
exactly what xDSL's parser builds (generic form, properties and locations spelled out) for every
text it accepts, and gives up on the rest, which xDSL then parses or refuses with its own
message at its own location."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from xdsl.printer import Printer

import loopopt.compile as lc
from loopopt import fast_parser
from loopopt.diagnostics import LocatedParser
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

ROOT = Path(__file__).resolve().parents[3]


@contextmanager
def _xdsl_only() -> Iterator[None]:
    fast_parser.enabled = False
    try:
        yield
    finally:
        fast_parser.enabled = True


def _outcome(text: str, line_offset: int = 0) -> str:
    """The module in the generic form with locations, or the error's class and message."""
    try:
        parser = LocatedParser(lc.make_context(), text, "t.mlir")
        parser.line_offset = line_offset
        module = parser.parse_module()
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"
    out = io.StringIO()
    Printer(out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _accepted(text: str) -> bool:
    return fast_parser.parse_module(lc.make_context(), text, "t.mlir") is not None


def _texts() -> list[str]:
    """Every chunk of every .mlir under test/filecheck, examples, tools/bench/programs and
    test/corpus, the c_stable programs and generated benchmark modules."""
    texts = []
    for folder in ("test/filecheck", "examples", "tools/bench/programs", "test/corpus"):
        for p in sorted((ROOT / folder).rglob("*.mlir")):
            if "Output" not in p.parts:
                texts += p.read_text(errors="replace").split("// -----")
    texts += sorted(programs().values())
    texts += [generated_module(n) for n in (1, 19, 200)]
    return texts


@pytest.mark.parametrize("chunk", [0, 1, 2, 3])
def test_fast_parser_builds_what_xdsl_builds(chunk):
    """Same generic printout with locations (or the same error) with and without the fast
    parser, for a quarter of the texts per case; the fast parser accepts a good share of them
    (a parser that always gave up would pass the comparison)."""
    texts = _texts()[chunk::4]
    accepted = 0
    for text in texts:
        fast = _outcome(text)
        with _xdsl_only():
            assert fast == _outcome(text), text[:400]
        accepted += _accepted(text)
    assert len(texts) > 150
    assert accepted > len(texts) // 6, (accepted, len(texts))


def test_benchmark_module_is_read_by_the_fast_parser():
    text = generated_module(1000)
    assert _accepted(text)
    fast = _outcome(text)
    with _xdsl_only():
        assert fast == _outcome(text)


def test_line_offset_is_applied_as_xdsl_stamps_it():
    """`--split-input-file` chunks: the op locations count from the chunk's first line."""
    text = generated_module(1)
    assert _accepted(text)
    fast = _outcome(text, line_offset=40)
    assert "t.mlir\":43:" in fast
    with _xdsl_only():
        assert fast == _outcome(text, line_offset=40)


_BODY = ("func.func @f(%x: f32, %y: f32, %i: i32, %a: !df.array<f32, [i]>) -> f32 {{\n  {}\n"
         "  func.return %x : f32\n}}")
MALFORMED = [_BODY.format(line) for line in (
    "%b = arith.addf %x, : f32", "%b = arith.addf %x %y : f32", "%b = arith.addf %x, %y f32",
    "%b = arith.addf %x, %y :", "%b = arith.addf %x, %y : f33", "%b = arith.addf %x, %y : i32",
    "%b = arith.addf %x, %i : f32", "%b = arith.addf %x, %z : f32", "%b = arith.addf %x, %y fastmath<bogus> : f32",
    '%b = arith.addf %x, %y {foo = "bar"} : f32', "%b = arith.addf %x, %y : f32, f32", "%b = math.sqrt : f32",
    "%b:2 = arith.addf %x, %y : f32", "%b = arith.constant 1 : f32", "%b = arith.constant {x = 1} 2 : i32",
    "func.return %x, %y : f32", "func.return %x f32", "func.return : f32", "%b = arith.addi %i, %i : ui32",
    "%b = arith.addf %x#1, %y : f32", "%x = arith.addf %x, %y : f32", "%b = arith.extf %x : f32 to f16",
    "%b = arith.cmpf bogus, %x, %y : f32", "%b = arith.cmpf ogt, %x, %i : f32", "%b = arith.cmpi slt, %x, %x : f32",
    "%b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {\n^bb0(%e: f32):\n  df.yield %x : i32\n}",
    "%b = df.map %a, %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {\n^bb0(%e: f32):\n  df.yield %e : f32\n}",
    "%b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {\n^bb0(%x: f32):\n  df.yield %x : f32\n}",
    "%b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {\n^bb0(%e: f32):\n  df.yield %e : f32\n"
    "^bb1:\n  df.yield %e : f32\n}",
    "%b = df.map %a : !df.array<f32, [i] -> !df.array<f32, [i]> {\n^bb0(%e: f32):\n  df.yield %e : f32\n}",
    "%b = df.reduce add(%a, %x) over [j] reassoc : !df.array<f32, [i]> -> f32",
    "%b = df.reduce add(%a, %i) over [i] reassoc : !df.array<f32, [i]> -> f32",
    "%b = df.reduce bogus(%a, %x) over [i] : !df.array<f32, [i]> -> f32",
    "%b = df.reduce add(%a, %x) over [i] : !df.array<f32, [i]> -> f32 attributes {foo}",
    "%b = df.filter %a : !df.array<f32, [i]> -> !df.array<f32, [k]> {\n^bb0(%e: f32):\n  df.yield %e : f32\n} map",
    "%b = df.bogus %a : f32", "%b = arith.addf %x, %y : f32 loc(\"x.mlir\":1:2)", '%b = "arith.addf"(%x, %y) : (f32, f32) -> f32',
    "%b = arith.addf %x, %y : f32 // fine\n  %c = arith.addf %b, %undefined : f32",
)] + [
    "func.func @f(%x: f32) -> f32 {\n  func.return %x : f32\n", "func.func @f(%x: f32) -> f32 {\n  func.return %x : f32\n}\n}",
    "!t = f32\nfunc.func @f(%x: !t) -> !t {\n  func.return %x : !t\n}", "func.func @f(%x: f32, %x: f32) {\n  func.return\n}",
    "func.func private @f(%x: f32)", "func.func @f(%x: f32 {foo}) {\n  func.return\n}",
    "builtin.module @m {\n}", "builtin.module attributes {foo} {\n}", "builtin.module {\n} builtin.module {\n}",
    "func.func @f() {\n^bb0:\n  func.return\n}", "func.func @f(%x: f32) {\n^bb0:\n  func.return\n}", "",
    "func.func @f() {\n  func.return\n}\n%x = arith.constant 1.0 : f32\n%x = arith.constant 2.0 : f32",
    'func.func @f(%x: f32 {a = "unterminated) {\n  func.return\n}', "func.func @f(%x: f32 {a = }) {\n  func.return\n}",
    'func.func @f(%x: f32) attributes {sym_name = "g"} {\n  func.return\n}', "builtin.module attributes {a = } {\n}",
    'func.func @f(%x: f32 {a} loc("x.mlir":1:2)) {\n  func.return\n}', "builtin.module @m attributes {a, b = 1} {\n}",
    'func.func @f(%x: f32 {a}, %y: f32) -> f32 attributes {k, p = {q = "r"}} {\n  func.return %y : f32\n}',
    "func.func @f(%x: f32) -> (f32 {a}) {\n  func.return %x : f32\n}", "func.func @f(%x: f32) attributes {a} attributes {b} {\n}",
]


def test_malformed_texts_get_xdsls_error_and_the_fast_parser_gives_up_on_each():
    refused = 0
    for text in MALFORMED:
        fast = _outcome(text)
        with _xdsl_only():
            assert fast == _outcome(text), text
        if not fast.startswith('"builtin.module"'):
            refused += 1
            assert not _accepted(text), text
    assert refused >= 30


def test_deep_nesting_is_left_to_located_parsers_error():
    inner = "%s{n} = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {{\n^bb0(%e{n}: f32):\n{body}  df.yield %e{n} : f32\n}}\n"
    body = ""
    for n in range(70):
        body = inner.format(n=n, body=body)
    text = "func.func @f(%a: !df.array<f32, [i]>) {\n" + body + "  func.return\n}"
    assert not _accepted(text)
    assert "nested more than" in _outcome(text)
    shallow = "func.func @f(%a: !df.array<f32, [i]>) {\n" + inner.format(n=0, body=inner.format(n=1, body="")) + "  func.return\n}"
    assert _accepted(shallow)


def test_opt_out_keeps_xdsls_parser(monkeypatch):
    text = generated_module(1)
    assert _accepted(text)
    monkeypatch.setenv("LOOPOPT_NO_FASTPATHS", "1")
    assert not _accepted(text)
