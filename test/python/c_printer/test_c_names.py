"""Nothing a user writes reaches C or the Python wrapper unchecked (loopopt.names).

Names: one validator (`c_name_problem`) for every C identifier; strings: one literal maker
(`c_string_literal`, trigraph-safe) and one comment-text maker (`c_comment_text`), checked
by compiling their output with the C compiler; the wrapper's `PyErr_Format` calls never
carry a user name in their format string; a module with an injection attempt never gets
as far as the C compiler.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

from isa_support import isa_params
from loopopt.compile import compile
from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.names import c_comment_text, c_name_problem, c_string_literal
from loopopt.runtime import ArrayParam, KernelSignature, ScalarParam
from loopopt.runtime.pyext import extension_source

CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler")


@pytest.mark.parametrize("name", ["x", "sum_sq", "out_len", "Values", "k0", "lo_col_sums_t", "isnan_count"])
def test_plain_names_are_accepted(name):
    assert c_name_problem(name, allow_lo_prefix=True) is None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ('h(void){} __attribute__((constructor)) static void g', "not a valid C identifier"),
        ("%n", "not a valid C identifier"),
        ("a b", "not a valid C identifier"),
        ("1x", "not a valid C identifier"),
        ("", "not a valid C identifier"),
        ("x" * 64, "longer than 63"),
        ("int", "C keyword"),
        ("restrict", "C keyword"),
        ("bool", "C keyword"),
        ("malloc", "C library"),
        ("memcpy", "C library"),
        ("sqrtf", "C library"),
        ("fmaf", "C library"),
        ("main", "C library"),
        ("stderr", "C library"),
        ("int64_t", "type name"),
        ("size_t", "type name"),
        ("float32x4_t", "type name"),
        ("_mm_add_ps", "reserved"),
        ("__m256", "reserved"),
        ("_X", "reserved"),
        ("vaddq_f32", "NEON intrinsic"),
        ("vdupq_n_f32", "NEON intrinsic"),
        ("INT64_MIN", "stdint.h"),
        ("INT64_C", "stdint.h"),
        ("NAN", "library macro"),
        ("INFINITY", "library macro"),
        ("EINVAL", "errno"),
        ("PyObject", "CPython"),
        ("loopopt_rt_box_f32", "loopopt"),
        ("lo_hreduce_add_f32x8", "'lo_'"),
    ],
)
def test_unsafe_names_are_rejected(name, why):
    problem = c_name_problem(name)
    assert problem is not None and why in problem


def test_lo_prefix_only_for_library_kernels():
    assert c_name_problem("lo_sum_f32") is not None
    assert c_name_problem("lo_sum_f32", allow_lo_prefix=True) is None


NASTY = ["??/", 'a"b', "back\\slash", "line\nbreak\ttab\r", "??=??(??)??'??<??>??!??-", "%n%s%%", "é€𝄞",
         "\x00nul", "\x7f\x1b", "octal\0017", "end?", "*/ /*"]


def test_c_string_literal_escapes():
    assert c_string_literal("??/") == r'"\?\?/"'
    assert c_string_literal('"') == r'"\""'
    assert c_string_literal("\\") == r'"\\"'
    assert c_string_literal("\n1") == r'"\0121"'  # 3 digits: the 1 is not part of the escape
    assert c_string_literal("é") == r'"\303\251"'
    for s in NASTY:
        lit = c_string_literal(s)
        assert all(0x20 <= ord(c) < 0x7F for c in lit) and "??" not in lit


@needs_cc
def test_c_string_literal_round_trips_through_the_compiler(tmp_path):
    """Under -std=c11 -trigraphs every literal holds exactly the UTF-8 bytes of its string."""
    decls = "\n".join(f"static const char s{k}[] = {c_string_literal(s)};" for k, s in enumerate(NASTY))
    writes = "\n".join(f"    fwrite(s{k}, 1, sizeof s{k} - 1, stdout); putchar(0xff);" for k in range(len(NASTY)))
    src = tmp_path / "lit.c"
    src.write_text(f"#include <stdio.h>\n{decls}\nint main(void) {{\n{writes}\n    return 0;\n}}\n")
    exe = tmp_path / "lit"
    subprocess.run([CC, "-std=c11", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True).stdout
    assert out.split(b"\xff")[:-1] == [s.encode() for s in NASTY]


@needs_cc
def test_c_comment_text_stays_inside_its_comment(tmp_path):
    """Nothing of the text becomes a token, and -Wcomment/-Wtrigraphs stay quiet."""
    texts = [*NASTY, "x */ int injected; /*", "trailing backslash \\", "a ??/\nint injected;"]
    src = tmp_path / "comment.c"
    src.write_text("".join(f"/* {c_comment_text(t)} */\n" for t in texts) + "int marker;\n")
    tokens = subprocess.run(
        [CC, "-std=c11", "-trigraphs", "-Wall", "-Wextra", "-Werror", "-E", "-P", str(src)],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    assert tokens == ["int", "marker;"]
    subprocess.run([CC, "-std=c11", "-trigraphs", "-Wall", "-Werror", "-fsyntax-only", str(src)], check=True)


INJECTION = """
func.func private @"h(void){} __attribute__((constructor)) static void g"(%x: i64) -> i64 {
  func.return %x : i64
}
func.func @k(%x: i64) -> i64 attributes {loop.kernel} {
  func.return %x : i64
}
"""


@pytest.mark.parametrize("pipeline", [None, ""], ids=["default-pipeline", "no-pipeline"])
def test_injection_never_reaches_the_compiler(monkeypatch, pipeline):
    import loopopt.runtime.build as build

    def refuse(*args, **kwargs):
        raise AssertionError("the C compiler was called on a module with an injected name")

    monkeypatch.setattr(build, "build", refuse)
    with pytest.raises(LoopoptDiagnostic, match=r"function name 'h\(void\)\{\} __attribute__.*not a valid C identifier"):
        compile(INJECTION, target="scalar", pipeline=pipeline)


def test_format_strings_never_hold_user_names():
    """Every PyErr_Format in the generated wrapper has loopopt's fixed text as its format:
    kernel, parameter and axis names are only ever `%s` arguments (string literals)."""
    sig = KernelSignature(
        "kname_zq",
        (
            ArrayParam("xparam_zq", "f32", axes=("axis_zq",)),
            ArrayParam("mparam_zq", "f64", rank=2, axes=("axis_zq", "col_zq")),
            ScalarParam("step_zq", "i64"),
            ArrayParam("yout_zq", "f32", output=True, axes=("jnew_zq",), capacity="axis_zq", count_result=0),
            ArrayParam("rout_zq", "i64", output=True, axes=("range_zq",)),
        ),
        ("i64", "i64"),
        extents=(("range_zq", 1),),
        steps=(("range_zq", 2),),
    )
    source = extension_source("m", "", [sig])
    calls = re.findall(r"PyErr_Format\(\s*PyExc_\w+,\s*(\"(?:[^\"\\]|\\.)*\")", source)
    assert len(calls) >= 10
    for fmt in calls:
        assert "_zq" not in fmt, fmt
    assert source.count("PyErr_Format(") == len(calls)  # every call was seen


def test_signature_names_are_validated():
    with pytest.raises(ValueError, match="not allowed in generated C"):
        ArrayParam("x", "f32", axes=("%n",))
    with pytest.raises(ValueError, match="not allowed in generated C"):
        ArrayParam("o", "f32", output=True, axes=("j",), capacity="i%s")
    with pytest.raises(ValueError, match="not allowed in generated C"):
        KernelSignature("malloc", ())
    with pytest.raises(ValueError, match="not allowed in generated C"):
        ScalarParam("int", "i64")


# Kernel names that are also names the generated wrapper / NEON runner use for their locals.
SHADOWING = """
func.func @ret(%x: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}) -> i64 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : !loop.buf<i64>
  func.return %v : i64
}
func.func @args(%a: i64, %b: i64) -> i64 attributes {loop.kernel} {
  %s = arith.addi %a, %b : i64
  func.return %s : i64
}
func.func @c(%a: i64) -> i64 attributes {loop.kernel} {
  func.return %a : i64
}
"""


@pytest.mark.parametrize("isa", isa_params(("scalar", "neon")))
def test_kernel_names_cannot_be_shadowed_by_the_wrapper(isa):
    k = compile(SHADOWING, target=isa, pipeline="")
    x = np.array([41, 1], np.int64)
    if isa == "neon":
        assert k.call_alloc("ret", x) == 41
        assert k.call_alloc("c", 5) == 5
    else:
        assert k.ret(x) == 41
        assert k.args(2, 3) == 5
        assert k.c(7) == 7
