"""docs/remarks.md is the catalogue of remark codes: every code the passes define is on the
page, and every example on it is the file under test/filecheck/remarks/ that lit runs (same
program, same command, the shown remark matching the file's CHECK lines)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from docblocks import Block, blocks, commands, mismatch
from loopopt.lowering.loop_to_simd.convert import FALLBACK_REMARK
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.loop_fusion.codes import LoopFuseReject
from loopopt.passes.loop_inplace import InplaceReject
from loopopt.passes.loop_interchange import InterchangeReject
from loopopt.passes.loop_unroll_jam import UnrollJamReject
from loopopt.passes.vectorize_codes import VecReject

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "remarks.md"
TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = blocks(TEXT)
EXAMPLES = ROOT / "test" / "filecheck" / "remarks"
CODES = {
    "df-fuse": [c.value for c in FuseReject],
    "loop-fuse": [c.value for c in LoopFuseReject],
    "loop-inplace": [c.value for c in InplaceReject],
    "loop-interchange": [c.value for c in InterchangeReject],
    "loop-unroll-jam": [c.value for c in UnrollJamReject],
    "loop-vectorize": [c.value for c in VecReject],
    "convert-loop-to-simd": [FALLBACK_REMARK],
}
FILES = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.mlir"))
CODE_LITERAL = re.compile(r"""["']([A-Z]+_(?:REJECT|FALLBACK)_[A-Z0-9_]+)["']""")


@pytest.mark.parametrize("where,code", [(w, c) for w, cs in CODES.items() for c in cs])
def test_every_code_has_a_section_and_an_example(where: str, code: str) -> None:
    assert f"\n### {code} ({where})\n" in TEXT, f"docs/remarks.md has no section '### {code} ({where})'"
    assert f"{where}/{code}.mlir" in FILES, f"no example test/filecheck/remarks/{where}/{code}.mlir"


def test_every_code_in_the_sources_is_documented() -> None:
    """Any *_REJECT_* / *_FALLBACK_* code literal in loopopt's sources (a new pass's too)."""
    skip = {"test", "build", "fuzz-out", "results", "__pycache__"}
    found: set[str] = set()
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith(".") and not d.endswith(".egg-info")]
        for f in files:
            if f.endswith(".py"):
                text = (Path(top) / f).read_text(encoding="utf-8", errors="replace")
                found |= set(CODE_LITERAL.findall(text))
    assert FuseReject.MULTI_USE.value in found and FALLBACK_REMARK in found
    missing = sorted(c for c in found if f"`{c}`" not in TEXT)
    assert not missing, f"codes not in docs/remarks.md: {missing}"


def _example(rel: str) -> tuple[Block, Block]:
    """The page's ```mlir file=REL``` block and the console block right after it."""
    k = next((k for k, b in enumerate(BLOCKS) if b.lang == "mlir" and b.info.get("file") == rel), None)
    assert k is not None, f"docs/remarks.md shows no ```mlir file={rel}``` block"
    assert k + 1 < len(BLOCKS) and BLOCKS[k + 1].lang == "console", f"{rel}: no console block after it"
    return BLOCKS[k], BLOCKS[k + 1]


@pytest.mark.parametrize("rel", FILES)
def test_example_is_the_checked_file(rel: str) -> None:
    text = (EXAMPLES / rel).read_text(encoding="utf-8")
    program, _, checks = text.partition("// RUN:")
    run = re.match(r" loop-opt %s -p '([^']*)' 2>&1 >/dev/null \| filecheck %s\n", checks)
    assert run, f"{rel}: expected the RUN line shape of the other examples"
    check_lines = [line.removeprefix("// CHECK: ") for line in checks.splitlines() if line.startswith("// CHECK: ")]
    assert check_lines, f"{rel}: no CHECK line"

    shown_program, console = _example(rel)
    assert shown_program.text == program.rstrip("\n") + "\n", f"{rel}: the page shows another program"
    (cmd,) = commands(console)
    assert shlex.split(cmd.command) == ["loop-opt", Path(rel).name, "-p", run.group(1)]
    for check in check_lines:  # lit checks the CHECK lines against the real output
        assert any(mismatch([check], [shown]) is None for shown in cmd.expected), (
            f"{rel}: no shown remark matches the checked '{check}'"
        )
    code = Path(rel).stem
    assert any(f"remark: {code}:" in s for s in cmd.expected)


def test_a_wrong_shown_remark_fails() -> None:
    """The comparison can fail: a changed location or message is not accepted."""
    rel = "df-fuse/FUSE_REJECT_ORDER.mlir"
    text = (EXAMPLES / rel).read_text(encoding="utf-8")
    check = next(line.removeprefix("// CHECK: ") for line in text.splitlines() if line.startswith("// CHECK: "))
    (cmd,) = commands(_example(rel)[1])
    assert mismatch([check], [cmd.expected[0]]) is None
    assert mismatch([check], [cmd.expected[0].replace(":5:3:", ":6:3:")]) is not None
    assert mismatch([check], [cmd.expected[0].replace("sequential", "parallel")]) is not None
