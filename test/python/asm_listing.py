"""Reading gcc's assembly listings in tests: a file's functions and their loops (x86 and aarch64)."""

from __future__ import annotations

import re

_FUNCTION = re.compile(r"^([A-Za-z_]\w*):\n(.*?)\.cfi_endproc", re.S | re.M)


def functions(asm: str) -> dict[str, list[str]]:
    """Each function's lines, from its label to its `.cfi_endproc`, by name, in file order."""
    return {m.group(1): m.group(2).splitlines() for m in _FUNCTION.finditer(asm)}


def _jump(line: str, conditional: bool) -> bool:
    word = line.split()[0] if line.strip() else ""
    if line.startswith("\tj"):
        return not conditional or word != "jmp"
    return line.startswith("\tb") and word not in ("b", "bl", "br", "blr")  # aarch64 b.cond, cbz, ...


def loops(lines: list[str], conditional: bool = True) -> list[tuple[int, int]]:
    """(label index, jump index) of every jump back to an earlier label of `lines`, in order.
    Only conditional jumps by default: an unconditional one may be a block gcc placed after the
    code it joins."""
    labels = {line[:-1]: k for k, line in enumerate(lines) if line.endswith(":") and not line.startswith("\t")}
    return [
        (labels[line.split()[-1]], k)
        for k, line in enumerate(lines)
        if _jump(line, conditional) and labels.get(line.split()[-1], k) < k
    ]
