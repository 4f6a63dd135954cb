"""`static inline` helper functions (`lo_*`) that table rows call, and how to get at vector lanes.

A row may call a helper (`lo_hreduce_add_f32x8(v)`); the printer finds every `lo_*` name in the
code it emitted (and, transitively, in the helpers themselves) and prints each definition once,
before the kernels. Helpers come from c_hreduce (reduction epilogues), c_emulate (operations an
ISA lacks), c_mask (masked accesses without mask hardware), c_leftpack (compaction) and c_vmath
(vector exp, log, sin, ...).

`LaneIO` is the per-ISA way to spill a vector to a C array and back, which the lane-by-lane
helpers (emulations, masked accesses on SSE2/NEON) are written with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from loopopt.targets.c_isa import ELEMENT_C_TYPES, IsaTable

HELPER_NAME = re.compile(r"\blo_[A-Za-z0-9_]+\b")
_HELPER_TAIL = re.compile(r"lo_[A-Za-z0-9_]+\b")
_WORD_CHAR = re.compile(r"\w")


def helper_names(text: str) -> list[str]:
    """`HELPER_NAME.findall(text)`, ~50x faster on a kernel file: the leading `\\b` keeps `re` from
    searching for the literal `lo_`, so the candidates are found without it and those preceded by
    a word character dropped. The same list: a dropped candidate spans word characters only and
    ends at a word boundary, so no match starting at a word boundary can begin inside it."""
    return [m.group() for m in _HELPER_TAIL.finditer(text) if not (m.start() and _WORD_CHAR.match(text, m.start() - 1))]


@dataclass(frozen=True)
class Helper:
    """One `static` definition (a function or a lookup table) emitted at most once per file."""

    name: str
    code: str


@dataclass(frozen=True)
class LaneIO:
    """How to move a native vector (or mask) of one ISA to and from a C array of lanes."""

    isa: IsaTable

    def vtype(self, elt: str) -> str:
        return self.isa.vector_types[elt]

    def mtype(self, n: int) -> str:
        return self.isa.mask_types[n]

    def n(self, elt: str) -> int:
        return self.isa.lanes[elt]

    def store(self, elt: str, ptr: str, v: str) -> str:
        """A statement writing vector `v` to `ptr` (unaligned)."""
        isa = self.isa.name
        if isa == "neon":
            return f"vst1q_{_NEON_SUFFIX[elt]}({ptr}, {v});"
        p, w = _x86_prefix(isa)
        if elt == "f32":
            return f"{p}_storeu_ps({ptr}, {v});"
        if elt == "f64":
            return f"{p}_storeu_pd({ptr}, {v});"
        if isa == "avx512":
            return f"_mm512_storeu_si512({ptr}, {v});"
        return f"{p}_storeu_si{w}((__m{w}i *){ptr}, {v});"

    def load(self, elt: str, ptr: str) -> str:
        """An expression reading a vector from `ptr` (unaligned)."""
        isa = self.isa.name
        if isa == "neon":
            return f"vld1q_{_NEON_SUFFIX[elt]}({ptr})"
        p, w = _x86_prefix(isa)
        if elt == "f32":
            return f"{p}_loadu_ps({ptr})"
        if elt == "f64":
            return f"{p}_loadu_pd({ptr})"
        if isa == "avx512":
            return f"_mm512_loadu_si512({ptr})"
        return f"{p}_loadu_si{w}((const __m{w}i *){ptr})"

    def from_lanes(self, elt: str, r: str) -> str:
        """An expression building a vector from the scalars `r[0..n-1]` just computed: on x86 a
        `_mm*_set_*` of them (they stay in registers: reloading the array as one vector right
        after scalar stores to it stalls on store forwarding, several times slower per call on
        Zen 4), on NEON a load of the array."""
        isa = self.isa.name
        if isa == "neon":
            return self.load(elt, r)
        p, _ = _x86_prefix(isa)
        suffix = {"f32": "ps", "f64": "pd", "i8": "epi8", "i16": "epi16", "i32": "epi32", "i64": "epi64x"}[elt]
        if isa == "avx512" and elt == "i64":
            suffix = "epi64"
        return f"{p}_set_{suffix}({', '.join(f'{r}[{k}]' for k in reversed(range(self.n(elt))))})"

    def mask_to_bools(self, n: int, m: str, out: str) -> str:
        """Statements declaring `_Bool out[n]` holding whether each lane of mask `m` is active."""
        isa = self.isa.name
        if isa == "avx512":
            return f"_Bool {out}[{n}]; for (int k = 0; k < {n}; k++) {out}[k] = (({m}) >> k) & 1;"
        lane_bits = {"sse2": 128, "avx2": 256, "neon": 128}[isa] // n
        it = f"int{lane_bits}_t" if isa != "neon" else f"uint{lane_bits}_t"
        if isa == "neon":
            spill = f"vst1q_u{lane_bits}({out}_raw, {m});"
        else:
            p, w = _x86_prefix(isa)
            spill = f"{p}_storeu_si{w}((__m{w}i *){out}_raw, {m});"
        return (
            f"{it} {out}_raw[{n}]; {spill} _Bool {out}[{n}];"
            f" for (int k = 0; k < {n}; k++) {out}[k] = {out}_raw[k] != 0;"
        )

    def bools_to_mask(self, n: int, src: str) -> str:
        """An expression building a mask from `_Bool src[n]`."""
        isa = self.isa.name
        if isa == "avx512":
            return f"lo_bools_to_mask{n}({src})"
        lane_bits = {"sse2": 128, "avx2": 256, "neon": 128}[isa] // n
        return f"lo_bools_to_mask{lane_bits}x{n}({src})"


_NEON_SUFFIX = {"f32": "f32", "f64": "f64", "i8": "s8", "i16": "s16", "i32": "s32", "i64": "s64"}


def _x86_prefix(isa: str) -> tuple[str, int]:
    return {"sse2": ("_mm", 128), "avx2": ("_mm256", 256), "avx512": ("_mm512", 512)}[isa]


def c_type(elt: str) -> str:
    return ELEMENT_C_TYPES[elt]


def lanewise_helper(io: LaneIO, name: str, elt: str, out_elt: str, arity: int, body: str) -> Helper:
    """A helper applying scalar C `body` (in terms of `a[k]`, `b[k]`, `c[k]`; assigns `r[k]`) lane by lane.

    Used only where the ISA has no instruction; compilers turn the spill/reload into shuffles.
    """
    n = io.n(elt)
    names = "abc"[:arity]
    params = ", ".join(f"{io.vtype(elt)} {x}v" for x in names)
    spill = " ".join(f"{c_type(elt)} {x}[{n}]; {io.store(elt, x, x + 'v')}" for x in names)
    code = (
        f"static inline {io.vtype(out_elt)} {name}({params})\n{{\n"
        f"    {spill}\n"
        f"    {c_type(out_elt)} r[{n}];\n"
        f"    for (int k = 0; k < {n}; k++) {body}\n"
        f"    return {io.from_lanes(out_elt, 'r')};\n}}\n"
    )
    return Helper(name, code)


def bools_to_mask_helpers(io: LaneIO) -> list[Helper]:
    """`lo_bools_to_mask*`: build a mask from an array of per-lane flags."""
    isa = io.isa.name
    out = []
    for n, mt in io.isa.mask_types.items():
        if isa == "avx512":
            out.append(Helper(
                f"lo_bools_to_mask{n}",
                f"static inline {mt} lo_bools_to_mask{n}(const _Bool *on)\n{{\n"
                f"    unsigned long long m = 0;\n    for (int k = 0; k < {n}; k++) m |= (unsigned long long)on[k] << k;\n"
                f"    return ({mt})m;\n}}\n",
            ))  # fmt: skip
            continue
        bits = {"sse2": 128, "avx2": 256, "neon": 128}[isa] // n
        name = f"lo_bools_to_mask{bits}x{n}"
        it = f"int{bits}_t" if isa != "neon" else f"uint{bits}_t"
        if isa == "neon":
            load = f"vld1q_u{bits}(raw)"
        else:
            p, w = _x86_prefix(isa)
            load = f"{p}_loadu_si{w}((const __m{w}i *)raw)"
        out.append(Helper(
            name,
            f"static inline {mt} {name}(const _Bool *on)\n{{\n"
            f"    {it} raw[{n}];\n    for (int k = 0; k < {n}; k++) raw[k] = on[k] ? ({it})-1 : 0;\n"
            f"    return {load};\n}}\n",
        ))  # fmt: skip
    return out


HelperSource = Callable[[IsaTable], Iterable[Helper]]


def all_helpers(isa: IsaTable) -> dict[str, Helper]:
    """Every helper defined for `isa`, by name."""
    from loopopt.targets import c_emulate, c_gather, c_hreduce, c_leftpack, c_mask, c_narrow, c_narrow_compress, c_narrow_part, c_part, c_vmath

    found: dict[str, Helper] = {}
    sources: list[HelperSource] = [
        c_emulate.helpers, c_hreduce.helpers, c_mask.helpers, c_leftpack.helpers, c_vmath.helpers, c_gather.helpers,
        c_part.helpers, c_narrow.helpers, c_narrow_part.helpers, c_narrow_compress.helpers,
    ]  # fmt: skip
    for source in sources:
        for h in source(isa):
            found[h.name] = h
    if isa.name != "scalar":
        for h in bools_to_mask_helpers(LaneIO(isa)):
            found[h.name] = h
    return found


def required_helpers(isa: IsaTable, code: str, available: dict[str, Helper]) -> list[Helper]:
    """The helpers `code` uses, dependencies first; a name with no definition is a KeyError."""
    order: list[Helper] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        helper = available[name]
        for dep in HELPER_NAME.findall(helper.code):
            if dep != name:
                visit(dep)
        order.append(helper)

    for name in helper_names(code):  # (a 1 MB file: 26 ms with HELPER_NAME)
        visit(name)
    return order
