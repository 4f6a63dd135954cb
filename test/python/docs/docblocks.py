"""Executable documentation: the fenced blocks of a Markdown page and a shown-output matcher.

A page's ```` ```mlir file=NAME ```` blocks are files to write, its ```` ```console ```` blocks
are `$ command` lines each followed by the output the page shows, and its ```` ```python ````
blocks are doctests. Shown output is matched line by line, FileCheck-style but strict: every
line must match the next output line, except `...` (any number of lines) and `{{regex}}`
(a part that differs per run or per CPU). So a page whose shown output is wrong fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FENCE = re.compile(r"^```(?!`)([A-Za-z]\w*)(.*)$")


@dataclass
class Block:
    lang: str
    info: dict[str, str]
    text: str
    line: int
    """1-based line of the opening fence in the page (for failure messages)."""


@dataclass
class Command:
    command: str
    expected: list[str] = field(default_factory=list)


def blocks(markdown: str) -> list[Block]:
    """Every fenced block, in page order; `key=value` words after the language are `info`."""
    out: list[Block] = []
    lines = markdown.splitlines()
    k = 0
    while k < len(lines):
        m = FENCE.match(lines[k])
        if not m or not m.group(1):
            k += 1
            continue
        lang, rest = m.group(1), m.group(2)
        info = dict(w.split("=", 1) for w in rest.split() if "=" in w)
        end = k + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"line {k + 1}: unterminated ```{lang} block")
        out.append(Block(lang, info, "\n".join(lines[k + 1 : end]) + "\n", k + 1))
        k = end + 1
    return out


def commands(block: Block) -> list[Command]:
    """The `$ command` lines of a console block, each with the output lines shown under it."""
    out: list[Command] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            out.append(Command(line[2:]))
        elif not out:
            raise ValueError(f"console block at line {block.line}: output before any '$ ' command")
        else:
            out[-1].expected.append(line)
    return out


def _line_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"\{\{(.*?)\}\}", pattern.rstrip())
    return re.compile(
        "".join(re.escape(p) if k % 2 == 0 else f"(?:{p})" for k, p in enumerate(parts)) + r"\Z"
    )


def mismatch(expected: list[str], actual: list[str]) -> str | None:
    """None when `actual` matches the shown `expected` lines, else what went wrong."""
    pats = [None if e.strip() == "..." else _line_regex(e) for e in expected]
    act = [a.rstrip() for a in actual]
    while act and not act[-1]:
        act.pop()

    # memoized backtracking over (pattern index, line index): `...` may take 0..n lines
    failed: set[tuple[int, int]] = set()
    best = [0, 0]

    def match(p: int, a: int) -> bool:
        if (p, a) in failed:
            return False
        if p > best[0]:
            best[:] = [p, a]
        if p == len(pats):
            ok = a == len(act)
        elif pats[p] is None:
            ok = any(match(p + 1, b) for b in range(a, len(act) + 1))
        else:
            ok = a < len(act) and bool(pats[p].match(act[a])) and match(p + 1, a + 1)
        if not ok:
            failed.add((p, a))
        return ok

    if match(0, 0):
        return None
    p, a = best
    want = expected[p] if p < len(expected) else "<end of the shown output>"
    got = act[a] if a < len(act) else "<end of the output>"
    return f"shown line {p + 1} {want!r} does not match output line {a + 1} {got!r}"
