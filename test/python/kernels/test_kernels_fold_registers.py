"""The library's fold accumulators stay in registers: its assembly, not its results.

gcc 12 kept the old template's `V acc[4]` in registers inside the main loop only (an aligned stack
frame after it), and copied every x86 integer accumulator every iteration (`vmovdqa` after each
`vpaddd`: the code after the loop read the __v8su value of _mm256_add_epi32, the loop carried the
__m256i one). lo_template.h now keeps four named accumulators and passes them through an empty asm
after the loop (V_IN_REGISTER); kernels/README.md and docs/build_flags.md say why.
"""

from __future__ import annotations

import platform
import re
import shutil
import subprocess

import pytest

from asm_listing import functions, loops

from loopopt import kernels
from loopopt.runtime import isa

FOLDS = ("sum", "sumsq", "filter_gt0_sum", "min", "max", "dot")
DTYPES = ("f32", "f64", "i32", "i64")

# A register-to-register vector move, and how a vector register is named in an operand (by number).
_X86_COPY = re.compile(r"^\tv?mov(?:dq[au]|ap[sd]|up[sd])\t%[xyz]mm(\d+), %[xyz]mm(\d+)$")
_A64_COPY = re.compile(r"^\tmov\tv(\d+)\.(?:16|8)b, v(\d+)\.(?:16|8)b$")
_ISA = {
    # isa: (compiler, copy pattern, operand naming vector register N, stack pointer)
    "sse2": ("gcc", _X86_COPY, r"%[xyz]mm{}\b", "%rsp"),
    "avx2": ("gcc", _X86_COPY, r"%[xyz]mm{}\b", "%rsp"),
    "neon": (isa.FOREIGN_TOOLS["neon"][0], _A64_COPY, r"\b[vqdsbh]{}\b", r"\bsp\b"),
}


def _compiler(target: str) -> str:
    x86 = platform.machine().lower() in ("x86_64", "amd64")
    if target == "neon":
        return "gcc" if platform.machine().lower() in ("aarch64", "arm64") else _ISA["neon"][0]
    if not x86:
        pytest.skip(f"{target}: these checks read x86 assembly from the host gcc")
    return "gcc"


def _assembly(target: str, tmp_path) -> str:
    compiler = _compiler(target)
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    source = tmp_path / f"{target}.c"
    source.write_text(kernels.isa_source(target))
    return subprocess.run(
        [compiler, *isa.compile_flags(target), "-S", "-o", "-", str(source)], capture_output=True, text=True, check=True
    ).stdout


def _main_loop(lines: list[str]) -> list[str]:
    """The longest loop: from a label to a later conditional jump back to it."""
    found = loops(lines)
    assert found, "\n".join(lines)
    return max((lines[start + 1 : end + 1] for start, end in found), key=len)


def _carried_copies(body: list[str], copy: re.Pattern[str], operand: str) -> list[str]:
    """Copies whose destination nothing later in the body reads: they only move a value into the
    next iteration (2-operand SSE2 code also copies a register before a destructive op; those are
    read right after and are not counted)."""
    found = []
    for k, line in enumerate(body):
        m = copy.match(line)
        if m and not any(re.search(operand.format(m.group(2)), later) for later in body[k + 1 :]):
            found.append(line)
    return found


@pytest.fixture(scope="module")
def tmp_module(tmp_path_factory):
    return tmp_path_factory.mktemp("fold_registers")


@pytest.fixture(scope="module", params=sorted(_ISA))
def compiled(request, tmp_module):
    return request.param, functions(_assembly(request.param, tmp_module))


@pytest.mark.parametrize("fold", FOLDS)
def test_fold_main_loops_do_not_copy_accumulators(compiled, fold):
    target, listing = compiled
    _, copy, operand, _ = _ISA[target]
    for dtype in DTYPES:
        body = _main_loop(listing[f"lo_{fold}_{dtype}_{target}"])
        assert not _carried_copies(body, copy, operand), f"lo_{fold}_{dtype}_{target}:\n" + "\n".join(body)
        if target == "avx2":  # 3-operand code never needs a vector copy in these loops
            assert not [line for line in body if copy.match(line)], f"lo_{fold}_{dtype}_{target}:\n" + "\n".join(body)


@pytest.mark.parametrize("fold", FOLDS)
def test_folds_have_no_stack_frame(compiled, fold):
    # The old template's accumulator array lived in an aligned frame (andq $-32, %rsp) after the loop.
    target, listing = compiled
    stack = _ISA[target][3]
    for dtype in DTYPES:
        lines = listing[f"lo_{fold}_{dtype}_{target}"]
        assert not [line for line in lines if re.search(stack, line)], f"lo_{fold}_{dtype}_{target}"


@pytest.mark.parametrize("fold", ["min", "max"])
def test_sse2_integer_min_max_copy_at_most_once_per_accumulator(tmp_module, fold):
    # pcmpgtd overwrites its destination, so one copy per vector may be needed; the old
    # and/andnot/or select also copied the result back into the accumulator (9-11 copies per
    # 4 vectors); a ^ ((a ^ b) & take_b) ends in the accumulator's register (sse2.c).
    body = _main_loop(functions(_assembly("sse2", tmp_module))[f"lo_{fold}_i32_sse2"])
    assert len([line for line in body if _X86_COPY.match(line)]) <= 4, "\n".join(body)


@pytest.mark.parametrize("target", ["avx2", "neon"])
def test_integer_filter_sum_keeps_positives_with_one_max(tmp_module, target):
    # sum of x where x > 0 is the sum of max(x, 0) for integers: one vpmaxsd / smax per vector
    # instead of a compare and an and (the AVX2 kernel ran 1.7-2.0x faster at 256-4 Ki, Zen 3).
    body = _main_loop(functions(_assembly(target, tmp_module))[f"lo_filter_gt0_sum_i32_{target}"])
    maxes = [line for line in body if re.match(r"\t(vpmaxsd|smax)\t", line)]
    compares = [line for line in body if re.match(r"\t(vpcmpgtd|cmgt)\t", line)]
    assert len(maxes) == 4 and not compares, "\n".join(body)


@pytest.mark.parametrize("dtype", ["i32", "i64"])
def test_scalar_integer_folds_do_not_copy_accumulators(tmp_module, dtype):
    # The wrapping adds go through the unsigned type; with named accumulators and no asm after the
    # loop gcc copied all four every iteration here too (scalar sum_i32 0.55-0.83x, Zen 3).
    listing = functions(_assembly("scalar", tmp_module))
    for fold in ("sum", "sumsq", "dot", "filter_gt0_sum"):
        body = _main_loop(listing[f"lo_{fold}_{dtype}_scalar"])
        assert not [line for line in body if re.match(r"\tmov[lq]\t%\w+, %\w+$", line)], f"{fold}:\n" + "\n".join(body)
