"""The `// REF:` expression grammar: hostile expressions are refused with a located error
before anything runs; every REF line of the corpus, the examples and the tests is accepted
and evaluates."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from loopopt.tools.ref_header import ExprError, InputSpec, RefError, SafeExpr, parse_ref_headers

ROOT = Path(__file__).resolve().parents[3]

MALICIOUS = [
    "__import__('os').system('id')",
    "().__class__.__bases__[0].__subclasses__()",
    "np.__dict__",
    "open('/etc/passwd')",
    "np.load('/etc/passwd')",
    "np.save('/tmp/pwned.npy', x)",
    "np.lib.format",
    "np.vectorize(print)(x)",
    "x.__array_interface__",
    "x.tofile('/tmp/pwned')",
    "[c for c in (1, 2)]",
    "(lambda: 1)()",
    "fold(lambda a, e: a.__class__, 0, x)",
    "fold(lambda f, e: f(f), 0, x)",
    "9 ** 9 ** 9",
    "x ** n",
    "1 << 100000",
    "getattr(np, 'load')",
    "eval('1')",
    "x.astype('O')",
    "np.sum(x, out=x)",
    "np.sum(*x)",
    "(y := x)",
    "f'{x}'",
    "{'a': x}",
    "x if (__builtins__) else x",
    "lambda: 0",
]


@pytest.mark.parametrize("expr", MALICIOUS)
def test_hostile_ref_is_refused_with_its_line(expr):
    text = f"func.func @f() {{\n  func.return\n}}\n// REF: kernel=@f inputs=x:f32[n] ref={expr}\n"
    with pytest.raises(RefError) as info:
        parse_ref_headers(text, "prog.mlir")
    message = str(info.value)
    assert message.startswith("prog.mlir:4:") and "error: bad REF header" in message


@pytest.mark.parametrize("expr", ["__import__('os').getpid()", "np.load('x')", "n.__class__"])
def test_hostile_input_spec_and_tol_are_refused(expr):
    with pytest.raises(RefError, match=r"prog.mlir:1:.*bad REF header"):
        parse_ref_headers(f"// REF: kernel=@f inputs=x:f32[n];s:i64={expr} ref=x", "prog.mlir")
    with pytest.raises(RefError, match=r"prog.mlir:1:.*bad REF header"):
        parse_ref_headers(f"// REF: kernel=@f inputs=x:f32[{expr}] ref=x", "prog.mlir")
    with pytest.raises(RefError, match=r"prog.mlir:1:\d+: error: bad REF header: tol=reduction"):
        parse_ref_headers(f"// REF: kernel=@f inputs=x:f32[n] tol=reduction:{expr} ref=x", "prog.mlir")


def test_column_points_at_the_offending_node():
    line = "// REF: kernel=@f inputs=x:f32[n] ref=np.sum(x) + np.__dict__"
    with pytest.raises(RefError) as info:
        parse_ref_headers(line, "p.mlir")
    col = int(str(info.value).split(":")[2])
    assert line[col - 1 :].startswith("__dict__")


def test_nothing_runs_while_checking(tmp_path):
    target = tmp_path / "pwned"
    with pytest.raises(ExprError):
        SafeExpr(f"__import__('pathlib').Path({str(target)!r}).touch()")
    assert not target.exists()


def test_failing_expression_is_a_located_error():
    headers = parse_ref_headers("\n// REF: kernel=@f inputs=x:f32[n] ref=np.sum(nope)", "p.mlir")
    with pytest.raises(RefError, match=r"^p.mlir:2: error: REF ref= failed: NameError"):
        headers["f"].reference({"x": np.zeros(3, np.float32)}, 3)


def test_grammar_evaluates_the_usual_forms():
    x = np.array([3.0, -1.0, 2.0], np.float32)
    ns = {"np": np, "n": 3, "x": x, "fold": lambda fn, init, *a: init, "scan": None}
    assert SafeExpr("np.maximum.accumulate(np.concatenate([[-np.inf], x]))[1:]")(ns).tolist() == [3, 3, 3]
    assert SafeExpr("(x[x > 0], np.int64(np.argmax(x)) if n else np.int64(-1))")(ns)[1] == 0
    assert SafeExpr("max(n, 1) + abs(-2) + 2**3")(ns) == 13
    assert SafeExpr("x.astype(np.float64).sum(axis=0, dtype=np.float64)")(ns) == 4.0
    assert InputSpec.parse("len:f32=max(n,1)").make(0, np.random.default_rng(0)) == 1.0


def _ref_files():
    for pattern in ("test/corpus/**/*.mlir", "examples/*.mlir", "test/filecheck/**/*.mlir"):
        for path in sorted(ROOT.glob(pattern)):
            if not {"Inputs", "Output"} & set(path.parts) and "// REF:" in path.read_text(errors="replace"):
                yield path


REF_FILES = list(_ref_files())


def test_there_are_ref_lines():
    assert sum(len(parse_ref_headers(p.read_text(), str(p))) for p in REF_FILES) >= 80


@pytest.mark.parametrize("path", REF_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_existing_ref_line_is_accepted_and_evaluates(path):
    for header in parse_ref_headers(path.read_text(), str(path)).values():
        for n in (0, 5):
            inputs = header.make_inputs(n, np.random.default_rng(n))
            try:
                header.reference(inputs, n)
                header.tolerance(inputs, n)
            except RefError as e:
                # only numpy's own refusals of an empty input (e.g. argmax of nothing) may fail
                assert n == 0 and "NameError" not in str(e), e


def test_ulp_references_are_evaluated_in_extended_precision():
    """`tol=ulp:K` bounds the kernel against the true value, so an f64 reference is evaluated in long
    double and rounded once; numpy's own f64 cos/log1p are 1 ulp off on AVX-512 CPUs, which made
    cos+log1p's ulp:3 fail by a reference error of 2 ulp on every ISA."""
    text = (
        "// REF: kernel=@k tol=ulp:3 inputs=x:f64[n]~0:1e3 ref=np.cos(x) + np.log1p(x)\n"
        "// REF: kernel=@e inputs=x:f64[n]~0:1e3 ref=np.cos(x) + np.log1p(x)\n"
    )
    headers = parse_ref_headers(text)
    x = np.random.default_rng(1).uniform(0, 1e3, 4096)
    (got,) = headers["k"].reference({"x": x}, x.size)
    wide = x.astype(np.longdouble)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, (np.cos(wide) + np.log1p(wide)).astype(np.float64))
    (plain,) = headers["e"].reference({"x": x}, x.size)  # exact compares stay in numpy's own f64
    np.testing.assert_array_equal(plain, np.cos(x) + np.log1p(x))
