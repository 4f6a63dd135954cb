"""Every option of every loopopt pass, with its valid values, in one table.

A pass's dataclass fields are its pipeline options (`-p 'loop-unroll{factor=4}'`); this
module says which values each may take. Each pass calls `check_options(self)` from its
`__post_init__`, so a bad value is refused when the pipeline is built — before any IR is
touched — with a `LoopoptDiagnostic` naming the pass, the option, the value and what is
allowed:

    loop-unroll: option factor=100000 is out of range [1, 64]

The pipeline spec has no source location, so loop-opt prints it as `<input>: error: ...`
and exits 2. Bounds keep the work and the code a pass produces bounded (an unroll factor
of 64 copies at most, a tile size that is a valid index constant, ...): see `PASS_OPTIONS`.
`test/python/loop_passes/test_options.py` checks that every field of every registered pass
has an entry here, so a new option cannot skip validation.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Protocol

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects.cpu_models import CPUS


class OptionError(LoopoptDiagnostic):
    """A bad pass option: a diagnostic with no operation (the pipeline spec has no location).

    Prints as the bare message so that tools prefix it once (`<input>: error: message`).
    """

    def __init__(self, message: str):
        super().__init__(message, None)

    def __str__(self) -> str:
        return self.message


class Check(Protocol):
    def problem(self, value: Any) -> str | None:
        """Why `value` is not allowed (completing "option x=value ..."), or None when it is."""
        ...


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class IntOption:
    """An integer in [lo, hi]; with `power_of_two`, also a power of two."""

    lo: int
    hi: int
    power_of_two: bool = False
    derived: int | tuple[int, ...] | None = None
    """Values outside [lo, hi] that ask the pass to derive the value itself (e.g. -1: from the CPU)."""

    def problem(self, value: Any) -> str | None:
        if not _is_int(value):
            return f"is not an integer (expected one in [{self.lo}, {self.hi}])"
        if value == self.derived or (isinstance(self.derived, tuple) and value in self.derived):
            return None
        if not self.lo <= value <= self.hi:
            return f"is out of range [{self.lo}, {self.hi}]"
        if self.power_of_two and (value < 1 or value & (value - 1)):
            return f"is not a power of two in [{self.lo}, {self.hi}]"
        return None


@dataclass(frozen=True)
class BoolOption:
    """true or false."""

    def problem(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else "is not a boolean (expected true or false)"


@dataclass(frozen=True)
class Choice:
    """One of a fixed list of strings (`choices()` may compute it, e.g. from the target table)."""

    fixed: tuple[str, ...] = ()
    from_targets: bool = False
    what: str = ""
    """What the option names ("target"): the message says `unknown target 'x'`."""
    rule: str = ""
    """The rule in words, used as the message when set."""

    def choices(self) -> tuple[str, ...]:
        if self.from_targets:
            from loopopt.dialects.simd_targets import TARGETS
            from loopopt.lowering.target import NATIVE

            return (*TARGETS, NATIVE)
        return self.fixed

    def problem(self, value: Any) -> str | None:
        valid = self.choices()
        if isinstance(value, str) and value in valid:
            return None
        listed = ", ".join('""' if c == "" else c for c in valid)
        if self.rule:
            return f"is invalid: {self.rule}"
        if self.what:
            return f"is an unknown {self.what} '{value}', expected one of {listed}"
        return f"is not one of {listed}"


@dataclass(frozen=True)
class WidthOption:
    """A vector width: a symbol (`W`, resolved at lowering) or a power of two in [1, hi]."""

    hi: int = 64

    def problem(self, value: Any) -> str | None:
        if isinstance(value, str):
            if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]{0,31}", value):
                return None
            return f"is neither a symbol nor a power of two in [1, {self.hi}]"
        if not _is_int(value):
            return f"is neither a symbol nor a power of two in [1, {self.hi}]"
        return IntOption(1, self.hi, power_of_two=True).problem(value)


@dataclass(frozen=True)
class PipelineText:
    """A pass-pipeline spelling recorded on the module (and printed in a C comment):
    pass names, options and separators only, at most `max_len` characters."""

    max_len: int = 4096

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, str):
            return "is not a string"
        if len(value) > self.max_len:
            return f"is longer than {self.max_len} characters"
        if not re.fullmatch(r"[A-Za-z0-9_\-{}=,. ]*", value):
            return "has characters other than letters, digits, '_-{}=,. '"
        return None


MAX_UNROLL = 64
"""Most body copies partial or full unrolling makes of one loop."""
MAX_TILE = 1 << 20
"""Largest tile size: an index constant any target holds, far beyond any cache tile."""
MAX_STREAM_BYTES = 1 << 48
"""Largest streaming-store threshold (256 TiB: "never" in practice, still an i64 constant)."""
MAX_INTERLEAVE = 16
"""Most blocks per main-loop iteration of a lowered vector loop."""
MAX_RECOMPUTE_OPS = 256
"""Largest producer body df-fuse recomputes in a consumer."""

TAIL_RULE = "tail must be scalar or masked, or auto (the CPU's cheaper one), or empty (keep each loop's tail)"
CPU_CHOICE = Choice(("", *CPUS, "native"), what="cpu")
"""A dialects/cpu_models.py name, native (this machine's) or "" (native for target=native)."""

PASS_OPTIONS: dict[str, dict[str, Check]] = {
    "df-fuse": {
        "remarks": BoolOption(),
        "max_recompute_ops": IntOption(0, MAX_RECOMPUTE_OPS),
        "recompute": BoolOption(),
        "horizontal": BoolOption(),
    },
    "convert-df-to-loop": {},
    "loop-fuse": {
        "remarks": BoolOption(),
        "allow_control_flow_simple": BoolOption(),
        "allow_broadcast_identity": BoolOption(),
    },
    "loop-tile": {"size": IntOption(1, MAX_TILE)},
    "loop-interchange": {"columns": IntOption(0, MAX_TILE), "rows": IntOption(1, MAX_UNROLL), "remarks": BoolOption()},
    "loop-unroll-jam": {"rows": IntOption(1, MAX_UNROLL), "remarks": BoolOption()},
    "loop-vectorize": {"width": WidthOption(64), "remarks": BoolOption()},
    "loop-unroll": {"factor": IntOption(1, MAX_UNROLL), "full_threshold": IntOption(0, MAX_UNROLL),
                    "accs": Choice(("chain", "split"))},
    "loop-simplify": {"fma": BoolOption()},
    "loop-licm": {"speculate_loads": BoolOption()},
    "loop-inplace": {"remarks": BoolOption()},
    "convert-loop-to-simd": {
        "target": Choice(from_targets=True, what="target"),
        "tail": Choice(("", "scalar", "masked", "auto"), rule=TAIL_RULE),
        "interleave": IntOption(0, MAX_INTERLEAVE),
        "partial": BoolOption(),
        "fallback": BoolOption(),
        "remarks": BoolOption(),
        "stream_bytes": IntOption(-1, MAX_STREAM_BYTES),
        "cpu": CPU_CHOICE,
        "pipeline": PipelineText(),
    },
    "loop-parallelize": {
        "threads": IntOption(0, 1024),
        "min_elements": IntOption(0, 1 << 40, derived=-1),
        "chunk": IntOption(64, 1 << 24, power_of_two=True, derived=-1),
        "cpu": CPU_CHOICE,
        "stream_bytes": IntOption(-1, MAX_STREAM_BYTES),
        "filter_block": IntOption(0, 1 << 30, derived=(-1, -2)),
        "filter_block_stream": BoolOption(),
        "remarks": BoolOption(),
    },
    "derive-filter-count": {},
    "loop-pipeline": {
        "parallel": IntOption(-1, 1024),
        "filter_block": IntOption(0, 1 << 30, derived=(-1, -2)),
        "filter_block_stream": BoolOption(),
        "target": Choice(from_targets=True, what="target"),
        "tail": Choice(("", "scalar", "masked", "auto"), rule=TAIL_RULE),
        "interleave": IntOption(0, MAX_INTERLEAVE),
        "stream_bytes": IntOption(-1, MAX_STREAM_BYTES),
        "cpu": CPU_CHOICE,
        "remarks": BoolOption(),
    },
}
"""pass name -> option name -> what it may be. Every dataclass field of a registered pass
(except `name`) has an entry (checked by a test)."""


def option_problems(pass_name: str, values: dict[str, Any]) -> list[str]:
    """Every diagnostic message for `values` (option name -> value) of pass `pass_name`."""
    table = PASS_OPTIONS.get(pass_name)
    if table is None:
        return [f"{pass_name}: no option table (passes/options.py)"]
    messages: list[str] = []
    for option, value in values.items():
        check = table.get(option)
        if check is None:
            messages.append(f"{pass_name}: option {option} is not declared in passes/options.py")
            continue
        why = check.problem(value)
        if why is not None:
            messages.append(f"{pass_name}: option {option}={_spell(value)} {why}")
    return messages


def check_options(pass_obj: Any) -> None:
    """Raise an `OptionError` for the first invalid option of a pass dataclass instance."""
    values = {f.name: getattr(pass_obj, f.name) for f in dataclasses.fields(pass_obj) if f.name != "name"}
    problems = option_problems(type(pass_obj).name, values)
    if problems:
        raise OptionError(problems[0])


def _spell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if not re.fullmatch(r"[A-Za-z0-9_\-.+ ]*", text):
        text = repr(text)
    return text if len(text) <= 40 else text[:37] + "..."
