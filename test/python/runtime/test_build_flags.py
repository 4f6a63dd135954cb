"""The flags generated C is built with (runtime/isa.py COMMON_CFLAGS, docs/build_flags.md).

Each test checks a behaviour the flags exist for, not the flag list itself.
"""

import re
import subprocess
import uuid
from pathlib import Path

import numpy as np
import pytest
from asm_listing import functions, loops

import loopopt
from loopopt.compile import emit
from loopopt.runtime import build, isa
from loopopt.runtime.isa import host_isas

# gcc 12 -O3's loop vectorizer turned this sequential fold into a wrong "reduction" on AVX2:
# acc = acc*acc from 3 over 64 elements gave 3 (and 9 at n=65) instead of 3^(2^n) mod 2^32.
SQUARE_FOLD = """
func.func @square_fold(%x: !df.array<i32, [i]>) -> i32 {
  %three = arith.constant 3 : i32
  %p = df.fold(%x) init(%three) : !df.array<i32, [i]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %m = arith.muli %acc, %acc : i32
    df.yield %m : i32
  }
  func.return %p : i32
}
"""


def expected_square_fold(n: int) -> int:
    return int(np.uint32(pow(3, 2**n, 2**32)).view(np.int32))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("target", host_isas())
def test_gcc12_o3_fold_miscompile_does_not_happen(target, cache):
    kernel = loopopt.compile(SQUARE_FOLD, target=target).functions["square_fold"]
    for n in (0, 1, 2, 5, 31, 32, 33, 63, 64, 65, 100):
        assert int(kernel(np.zeros(n, np.int32))) == expected_square_fold(n), n


@pytest.mark.isa("neon")
def test_square_fold_under_qemu(cache):
    kernel = loopopt.compile(SQUARE_FOLD, target="neon").functions["square_fold"]
    sizes = (0, 1, 5, 31, 63, 64, 65, 100)
    got = kernel.batch([(np.zeros(n, np.int32),) for n in sizes])
    assert [int(results[0]) for _, results in got] == [expected_square_fold(n) for n in sizes]


def _build_with(source: str, target: str = "scalar"):
    return build.build(f"/* {uuid.uuid4().hex} */\n{source}", isa.compile_flags(target))


def test_trigraph_in_a_string_literal_is_a_compile_error(cache):
    # -std=c11 alone would silently compile "??=" as "#".
    with pytest.raises(build.CompileError, match="trigraph"):
        _build_with('const char *lo_s(void) { return "a??=b"; }\n')


def test_trigraph_line_splice_in_a_comment_is_a_compile_error(cache):
    # "??/" at the end of a comment line would splice the next line into the comment.
    with pytest.raises(build.CompileError, match="trigraph"):
        _build_with("int lo_f(int x) {\n    // user text ??/\n    x = x + 1;\n    return x;\n}\n")


def test_gnu_macros_are_not_predefined(cache):
    # -std=gnu11 predefines `linux` and `unix` as 1, which would break this.
    _build_with("int lo_f(int linux, int unix) { return linux + unix; }\n")


@pytest.mark.parametrize(
    "source, message",
    [
        ("int lo_f(int x) { return lo_undeclared(x); }\n", "implicit declaration"),
        ("int lo_f(int x) { int *p = x; return *p; }\n", "integer without a cast"),
        ("int lo_f(float *p) { int *q = p; return *q; }\n", "incompatible pointer type"),
        ("int lo_f(int x) { if (x) return 1; }\n", "control reaches end"),
    ],
)
def test_c89_leftovers_are_errors(cache, source, message):
    with pytest.raises(build.CompileError, match=message):
        _build_with(source)


def _compile_to_asm(source: str, flags: list[str], tmp_path) -> str:
    path = tmp_path / "probe.c"
    path.write_text(source)
    return subprocess.run(
        ["gcc", *flags, "-S", "-o", "-", str(path)], capture_output=True, text=True, check=True
    ).stdout


def test_signed_overflow_wraps(cache, tmp_path):
    # Without -fwrapv gcc folds x + 1 > x to 1; the printer wraps by construction, this is the net.
    asm = _compile_to_asm("int lo_f(int x) { return x + 1 > x; }\n", isa.compile_flags("scalar"), tmp_path)
    body = asm.split("lo_f:", 1)[1].split(".cfi_endproc", 1)[0]
    assert "movl\t$1, %eax" not in body


@pytest.mark.isa("avx2")
def test_no_auto_vectorization_unless_asked(cache, tmp_path):
    loop = (
        "void lo_f(float *restrict y, const float *restrict x, long n)\n"
        "{ for (long i = 0; i < n; i++) y[i] = 2.0f * x[i] + 1.0f; }\n"
    )
    plain = _compile_to_asm(loop, isa.compile_flags("avx2"), tmp_path)
    autovec = _compile_to_asm(loop, [*isa.compile_flags("avx2"), *isa.AUTOVEC_CFLAGS], tmp_path)
    # "native" is for plain C (the benchmark's gcc -O3 -march=native baseline): gcc vectorizes it.
    native = _compile_to_asm(loop, isa.compile_flags("native"), tmp_path)
    assert "%ymm" not in plain
    assert "%ymm" in autovec and "%ymm" in native


FILTER_SUM = Path(loopopt.__file__).parent / "tools" / "bench" / "programs" / "filter_gt0_sum.mlir"


def _first_loop_heads(asm: str) -> list[list[str]]:
    """Per function, the assembler lines just before the head of its first loop (the first label
    a later jump goes back to)."""
    heads = []
    for lines in functions(asm).values():
        found = loops(lines, conditional=False)
        if found:
            start = found[0][0]
            heads.append([p.strip() for p in lines[max(0, start - 3) : start]])
    return heads


@pytest.mark.isa("avx2")
def test_main_loops_start_on_64_bytes(cache, tmp_path):
    # gcc's default aligned loop heads to 16 bytes only when that skipped <= 10 bytes: the AVX2
    # filter-sum main loop (80 bytes) started 24 bytes into a 32-byte block, spanned three 64-byte
    # lines and ran at 0.77x of the same loop at 8 mod 32 on Zen 3; 32-byte heads still let a
    # 33-64-byte loop cross a line (docs/build_flags.md).
    c_source = emit(FILTER_SUM.read_text(), target="avx2").c_source
    heads = _first_loop_heads(_compile_to_asm(c_source, isa.compile_flags("avx2"), tmp_path))
    assert len(heads) == 2  # filter_gt0_sum_f32 and _i32
    for before in heads:
        assert ".p2align 6" in before, before


SUM = Path(loopopt.__file__).parent / "tools" / "bench" / "programs" / "sum.mlir"
_REGISTER_COPY = re.compile(r"^\t(v?)movdq[au]\t%[xyz]mm\d+, %[xyz]mm\d+$")


def _loop_bodies(asm: str) -> list[list[str]]:
    """The instructions of every loop: from a label to a later conditional jump back to it."""
    return [lines[start + 1 : end + 1] for lines in functions(asm).values() for start, end in loops(lines)]


@pytest.mark.parametrize("target,cpu", [("sse2", "generic"), ("avx2", "generic"), ("avx512", "zen4")])
def test_integer_fold_loops_do_not_copy_accumulators(cache, tmp_path, target, cpu):
    # gcc's value numbering sees through the __m256i <-> __v8su conversion of _mm256_add_epi32:
    # the code after the loop read the other type's value, and the main loop copied each of its
    # 4 accumulators every iteration (vmovdqa; sum i32 at 1 Ki 1.1x (avx2), 1.8x (sse2) faster
    # without, Zen 3). The printer's lo_in_register after the loop stops it (docs/build_flags.md);
    # Zen 4's AVX-512 folds beyond the L2 keep 256-bit halves (split loops), the same for each half.
    # (Left: Zen 3's 4-stream loop beyond the LLC still copies, docs/build_flags.md.)
    if "sse2" not in host_isas():
        pytest.skip(f"{target} C is compiled to assembly with this host's gcc only on x86")
    c_source = emit(SUM.read_text(), target=target, pipeline=f"loop-pipeline{{target={target} cpu={cpu}}}").c_source
    asm = _compile_to_asm(c_source, isa.compile_flags(target), tmp_path)
    folds = [body for body in _loop_bodies(asm) if sum("paddd" in line for line in body) >= 4]
    assert folds  # the unrolled main loop of sum_i32
    for body in folds:
        assert not [line for line in body if _REGISTER_COPY.match(line)], "\n".join(body)


AXPB = Path(loopopt.__file__).parent / "tools" / "bench" / "programs" / "axpb.mlir"


@pytest.mark.parametrize("target", ["sse2", "avx2"])
def test_small_calls_jump_to_an_out_of_line_large_copy(cache, tmp_path, target):
    # A map that may stream and align its loads is versioned for small calls (c_small_calls): the
    # large arm is `axpb_i32__large`, which gcc must not inline back (lo_noinline), or a short
    # call sets up the frame and saves the registers of the long path's loops again (AVX2 axpb
    # i32 at 256-1024 elements: 1.0-1.17x faster out of line, Zen 3).
    if target not in host_isas():
        pytest.skip(f"{target} C is compiled with this host's gcc only on x86")
    c_source = emit(AXPB.read_text(), target=target, pipeline=f"loop-pipeline{{target={target} cpu=zen3}}").c_source
    assert "static lo_noinline void axpb_i32__large(" in c_source
    asm = _compile_to_asm(c_source, isa.compile_flags(target), tmp_path)
    listing = functions(asm)
    large, kernel = listing["axpb_i32__large"], listing["axpb_i32"]
    assert any("movntdq" in line for line in large)  # the streaming loop, for large calls only
    assert not any("movnt" in line for line in kernel)  # the small arm folded it away (stream = 0)
    calls = [line for line in kernel if re.match(r"\t(jmp|call)\taxpb_i32__large\b", line)]
    assert calls, "\n".join(kernel)
