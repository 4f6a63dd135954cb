"""docs/tutorial.md is executed: its files are written, its commands run and its Python is a
doctest, and every output it shows must match (docblocks.py), so the tutorial cannot rot."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docblocks import Block, blocks, commands, mismatch

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "tutorial.md"
BLOCKS = blocks(PAGE.read_text(encoding="utf-8"))
CONSOLE = [b for b in BLOCKS if b.lang == "console"]
PYTHON = [b for b in BLOCKS if b.lang == "python"]
_OUTPUTS: dict[str, str] = {}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch directory holding every ```mlir file=NAME``` block of the page."""
    d = tmp_path_factory.mktemp("tutorial")
    for b in BLOCKS:
        if "file" in b.info:
            (d / b.info["file"]).write_text(b.text, encoding="utf-8")
    return d


def run(command: str, cwd: Path) -> str:
    """stdout and stderr of `command` (the venv's tools first on PATH); it must succeed."""
    if command in _OUTPUTS:
        return _OUTPUTS[command]
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    r = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, f"$ {command}\nexit {r.returncode}\n{r.stdout}{r.stderr}"
    _OUTPUTS[command] = r.stdout + r.stderr
    return _OUTPUTS[command]


def test_page_has_blocks() -> None:
    assert [b.info.get("file") for b in BLOCKS if b.lang == "mlir"] == ["positive_sum.mlir"]
    assert len(CONSOLE) >= 4 and len(PYTHON) >= 4


@pytest.mark.parametrize("block", CONSOLE, ids=lambda b: f"line{b.line}")
def test_console_block(block: Block, workdir: Path) -> None:
    for c in commands(block):
        problem = mismatch(c.expected, run(c.command, workdir).splitlines())
        assert problem is None, f"docs/tutorial.md:{block.line}: $ {c.command}: {problem}"


def _doctest(
    blocks_: list[Block], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[doctest.TestResults, str]:
    """Run the blocks as one doctest session in `workdir`; (results, the failure report)."""
    monkeypatch.chdir(workdir)
    text = "\n".join(b.text for b in blocks_)
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "tutorial"}, "tutorial", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    return runner.run(test, out=report.append), "".join(report)


def test_python_blocks(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """All ```python blocks, in order, as one doctest session."""
    result, report = _doctest(PYTHON, workdir, monkeypatch)
    assert result.attempted > 10
    assert result.failed == 0, f"docs/tutorial.md: shown Python output differs:\n{report}"


def test_a_wrong_shown_output_fails(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a changed line of shown output is reported, in both kinds of block."""
    c = commands(CONSOLE[0])[0]
    actual = run(c.command, workdir).splitlines()
    assert mismatch(c.expected, actual) is None
    k = next(i for i, e in enumerate(c.expected) if "df.reduce" in e)
    wrong = c.expected[:k] + [c.expected[k].replace("add", "mul")] + c.expected[k + 1 :]
    assert "does not match" in (mismatch(wrong, actual) or "")
    assert mismatch(c.expected[:-1], actual) is not None  # a missing line
    assert mismatch(c.expected + ["}"], actual) is not None  # an extra line

    first = PYTHON[0]
    assert "np.float32(18.0)" in first.text
    broken = Block(first.lang, first.info, first.text.replace("np.float32(18.0)", "np.float32(19.0)"), first.line)
    result, report = _doctest([broken], workdir, monkeypatch)
    assert result.failed == 1, report
    assert "np.float32(19.0)" in report


def test_matcher_patterns() -> None:
    assert mismatch(["a {{[0-9]+}} b", "...", "z"], ["a 12 b", "x", "y", "z"]) is None
    assert mismatch(["a {{[0-9]+}} b"], ["a 1x b"]) is not None
    assert mismatch(["...", "z"], ["z"]) is None
    assert mismatch(["a", "b"], ["a", "b", "c"]) is not None
    assert mismatch(["a.b"], ["axb"]) is not None  # outside {{ }} the text is literal
