"""docs/design.md's map of the code matches the tree: every file or directory it names exists,
and every module of the flat source directories (and every subpackage) is on it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FLAT = ("dialects", "passes", "lowering", "targets", "tools")
"""Directories whose every module is named on the map; their subpackages are named as `dir/`."""
PACKAGES = ("interp", "runtime", "frontend", "kernels")
"""Directories named as a whole."""


def _map_block() -> str:
    text = (ROOT / "docs" / "design.md").read_text()
    section = text[text.index("## Map of the code"):]
    return re.search(r"```\n(.*?)```", section, re.S).group(1)


def _expand_braces(text: str) -> str:
    """`vectorize_{legality,table}.py` -> `vectorize_legality.py vectorize_table.py`."""
    def expand(m: re.Match[str]) -> str:
        return " ".join(f"{m.group(1)}{part}{m.group(3)}" for part in m.group(2).split(","))

    return re.sub(r"(\w*)\{([\w,]+)\}([\w.]*)", expand, text)


def _source_files() -> list[Path]:
    skip = {"test", "build", "docs", "examples", "__pycache__"}
    return [p for p in ROOT.rglob("*.py")
            if not any(part in skip or part.startswith(".") for part in p.relative_to(ROOT).parts)]


def test_every_name_on_the_map_exists():
    names = re.findall(r"(?<![\w/.])([A-Za-z_]\w*(?:\.py|/))(?![\w/])", _expand_braces(_map_block()))
    files = {p.name for p in _source_files()}
    dirs = {p.name for p in ROOT.rglob("*") if p.is_dir()}
    missing = sorted({n for n in names if (n[:-1] not in dirs if n.endswith("/") else n not in files)})
    assert names and not missing, f"docs/design.md's map names what the tree does not have: {missing}"


def test_every_module_is_on_the_map():
    words = set(re.findall(r"\w+", _expand_braces(_map_block())))
    block = _map_block()
    absent = []
    for d in FLAT:
        for p in sorted((ROOT / d).iterdir()):
            if p.is_dir() and (p / "__init__.py").exists() and f"{p.name}/" not in block:
                absent.append(f"{d}/{p.name}/")
            elif p.suffix == ".py" and p.name != "__init__.py" and p.stem not in words:
                absent.append(f"{d}/{p.name}")
    absent += [f"{d}/" for d in PACKAGES if f"{d}/" not in block]
    absent += [p.name for p in ROOT.glob("*.py") if p.name != "__init__.py" and p.stem not in words]
    assert not absent, f"not on docs/design.md's map of the code: {absent}"
