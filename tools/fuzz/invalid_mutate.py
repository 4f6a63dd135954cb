"""Hostile inputs for `loopopt.tools.fuzz.invalid`: valid programs mutated textually, random
pass pipelines and output specs.

Every mutation is a plain text edit of a valid program (from the corpus, the C printer's
FileCheck inputs or the differential fuzzer's generator), so that it reaches every layer:
the lexer (deleted braces, unicode, huge literals), the verifiers (retyped operands, wrong
axes, dropped terminators), pass option parsing and the C printer's checks (identifiers
with C-injection payloads, bogus widths and ABI attributes).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

INJECTIONS = (
    'x; system("rm -rf /")', "*/", "/*", "a\\", "a\nb", "é", "ℕ", "日本", "\u202e", "\x00", "int", "return",
    "__asm__", "main", "_", "1abc", "a b", "$", "a.b", "-", '"', "'", "??/", "#define", "%", "@", "",
    "x" * 300, "restrict", "NULL", "loopopt_rt", "k_n", "size_t", "uint8_t", "static", "_Bool", "if",
)
"""Identifier payloads: C keywords and library names, comment and string breakers, unicode."""

NUMBERS = (
    "-1", "0", "1", "-129", "3", "7", "65", "1000000000", "4294967296", "9223372036854775807",
    "-9223372036854775808", "99999999999999999999999", "1e400", "nan", "NaN", "inf", "0x7FF8000000000000",
    "-0.0", "2.5", "0x", "1_000", "+5",
)

TYPES = ("f32", "f64", "i1", "i8", "i16", "i32", "i64", "index", "bf16", "f16", "i0", "i7", "i128", "ui32",
         "si8", "f80", "vector<8xf32>", "vector<0xf32>", "vector<3xi32>", "vector<1000000xi8>", "tuple<>",
         "!df.array<f32, [i]>", "!loop.buf<f32>", "none")

AXES = ("i", "j", "k", "i, i", "", "i, j", "x; y", "k0", "é")

KEYWORDS = ("df.yield", "func.return", "loop.yield", "^bb0", "{", "}", "(", ")", ":", ",", "->", "=", "[", "]",
            "reassoc", "over", "init", "accs", "in range", "loop.kernel", "loop.role", "loop.axes")

STRINGS = ('"in"', '"out"', '"inout"', '"result"', '"bogus"', '"avx3"', '"scalar"', '"neon"', '""', '"\\00"',
           '"*/"', '"\\"; system(1); \\""')

ATTR_VALUES = ("-1", "0", "1", "3", "1000000", "-9223372036854775808", "true", "false", '"x"', "[]",
               '["i", "i"]', '["*/"]', "unit", "1.5", "0x7FF8000000000000")


def seed_files() -> list[Path]:
    """Valid programs to mutate: the df corpus, the examples and the C printer's inputs."""
    files = sorted((ROOT / "test" / "corpus").rglob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    files += [p for p in sorted((ROOT / "test" / "filecheck" / "targets" / "c").glob("*.mlir"))
              if not p.name.startswith("error_")]
    return files


def seed_texts() -> list[tuple[str, str]]:
    """(name, text) of each seed module; a `--split-input-file` file gives each part."""
    out = []
    for path in seed_files():
        parts = re.split(r"^// -----$", path.read_text(), flags=re.MULTILINE)
        for k, part in enumerate(parts):
            # comments go (RUN/CHECK lines), `// REF:` headers stay: loop-run's tolerances (vmath: ulps)
            text = "\n".join(ln for ln in part.splitlines()
                              if not ln.lstrip().startswith("//") or ln.startswith("// REF:"))
            if text.strip():
                out.append((f"{path.name}#{k}", text + "\n"))
    return out


def generated_text(seed: int) -> str:
    """A valid program from the differential fuzzer's generator."""
    from loopopt.tools.fuzz.generate import Generator
    from loopopt.tools.fuzz.printer import print_module

    gen = Generator(seed)
    return print_module([gen.kernel(f"k{n}") for n in range(gen.rng.randint(1, 2))])


# --------------------------------------------------------------------------- text mutations

_IDENT = re.compile(r"([@%^])([A-Za-z_][\w$.]*)")
_NUMBER = re.compile(r"(?<![\w.%@^#<])-?\d+(\.\d+)?(e[+-]?\d+)?(?![\w.>])")
_TYPE = re.compile(r"\b(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)\b")
_AXES = re.compile(r"\[([a-z]\w*(, [a-z]\w*)*)\]")
_STRING = re.compile(r'"[^"\n]*"')
_ATTR = re.compile(r"(loop\.\w+|df\.\w+|\w+) = ([^,}\n]+)")
_WIDTH = re.compile(r"vector<(\d+)x")


def _sub_one(rng: random.Random, pattern: re.Pattern[str], text: str, make) -> str | None:  # noqa: ANN001
    hits = list(pattern.finditer(text))
    if not hits:
        return None
    m = rng.choice(hits)
    return text[: m.start()] + make(m) + text[m.end():]


def _rename_everywhere(rng: random.Random, text: str) -> str | None:
    """One identifier (function, SSA value, block, field) renamed at every use to a payload."""
    names = sorted({m.group(0) for m in _IDENT.finditer(text)})
    if not names:
        return None
    old = rng.choice(names)
    payload = rng.choice(INJECTIONS)
    sigil = old[0]
    quoted = f'{sigil}"{payload}"' if sigil in "@%" and rng.random() < 0.7 else sigil + payload
    return re.sub(re.escape(old) + r"(?![\w$.])", lambda _m: quoted, text)


def _line_edit(rng: random.Random, text: str) -> str | None:
    lines = text.splitlines()
    if len(lines) < 2:
        return None
    k = rng.randrange(len(lines))
    what = rng.random()
    if what < 0.4:
        del lines[k]
    elif what < 0.7:
        lines.insert(k, lines[rng.randrange(len(lines))])
    else:
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    return "\n".join(lines) + "\n"


def _drop_terminator(rng: random.Random, text: str) -> str | None:
    return _sub_one(rng, re.compile(r"^\s*(df\.yield|loop\.yield|func\.return)\b[^\n]*\n", re.MULTILINE), text,
                    lambda m: "")


def _operand_edit(rng: random.Random, text: str) -> str | None:
    """Drop or duplicate one operand of an op (`op %a, %b` -> `op %a` / `op %a, %a, %b`)."""
    pat = re.compile(r"(%[\w\"]+)(, )(%[\w\"]+)")
    if rng.random() < 0.5:
        return _sub_one(rng, pat, text, lambda m: m.group(1))
    return _sub_one(rng, pat, text, lambda m: f"{m.group(1)}, {m.group(1)}, {m.group(3)}")


def _swap_operands(rng: random.Random, text: str) -> str | None:
    return _sub_one(rng, re.compile(r"(%[\w]+), (%[\w]+)"), text, lambda m: f"{m.group(2)}, {m.group(1)}")


def _token_edit(rng: random.Random, text: str) -> str | None:
    """A keyword or punctuation deleted, doubled or replaced by another."""
    word = rng.choice(KEYWORDS)
    hits = [m.start() for m in re.finditer(re.escape(word), text)]
    if not hits:
        return None
    at = rng.choice(hits)
    new = rng.choice(("", word + word, rng.choice(KEYWORDS)))
    return text[:at] + new + text[at + len(word):]


def _truncate(rng: random.Random, text: str) -> str | None:
    return text[: rng.randrange(len(text))] if text else None


def _byte_noise(rng: random.Random, text: str) -> str | None:
    at = rng.randrange(len(text) + 1)
    noise = rng.choice(("\x00", "\ufeff", "\u202e", "é", "\t", "\r", "\\", "\"", "#", "!", "}", "{", "<", ">",
                        "%", "@", "^", "0x", "//", "/*"))
    return text[:at] + noise + text[at:]


MUTATORS = {
    "number": lambda r, t: _sub_one(r, _NUMBER, t, lambda m: r.choice(NUMBERS)),
    "type": lambda r, t: _sub_one(r, _TYPE, t, lambda m: r.choice(TYPES)),
    "axes": lambda r, t: _sub_one(r, _AXES, t, lambda m: "[" + r.choice(AXES) + "]"),
    "string": lambda r, t: _sub_one(r, _STRING, t, lambda m: r.choice(STRINGS)),
    "attr": lambda r, t: _sub_one(r, _ATTR, t, lambda m: f"{m.group(1)} = {r.choice(ATTR_VALUES)}"),
    "width": lambda r, t: _sub_one(r, _WIDTH, t, lambda m: f"vector<{r.choice(('0', '1', '3', '5', '7', '32', '64', '128', '1024'))}x"),
    "rename": _rename_everywhere,
    "line": _line_edit,
    "terminator": _drop_terminator,
    "operand": _operand_edit,
    "swap": _swap_operands,
    "token": _token_edit,
    "truncate": _truncate,
    "noise": _byte_noise,
}


def mutate(rng: random.Random, text: str, count: int) -> tuple[str, list[str]]:
    """`text` after `count` random mutations (the names of those that applied)."""
    applied = []
    for _ in range(count * 3):
        if len(applied) >= count:
            break
        name = rng.choice(sorted(MUTATORS))
        new = MUTATORS[name](rng, text)
        if new is not None and new != text:
            text, applied = new, [*applied, name]
    return text, applied


# --------------------------------------------------------------------------- pipelines and targets

ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")
BAD_WORDS = ("native", "avx3", "x86", "", "AVX2", "sse4", "neon ", "zen9", "é", "*/", "-1", "1e9", "true", "none",
             "generic", "zen4", "skylake-x", "sapphirerapids", "apple-m1", "{", "}", ",", "=", "'", '"', "0x10",
             "99999999999999999999", "nan", "-0")


def _option_value(rng: random.Random, check: object) -> str:
    """A value for an option: mostly plausible, often out of range or of the wrong kind."""
    lo, hi = getattr(check, "lo", None), getattr(check, "hi", None)
    r = rng.random()
    if r < 0.35 and lo is not None and hi is not None:
        return str(rng.choice((lo, hi, lo - 1, hi + 1, (lo + hi) // 2, 2 ** 63, -(2 ** 63) - 1, 3, 7, 48)))
    if r < 0.55:
        choices = getattr(check, "choices", None)
        if callable(choices):
            try:
                return rng.choice(list(choices()) or [""])
            except Exception:  # noqa: BLE001 - a table we cannot enumerate: any word
                pass
        return rng.choice(("true", "false", *ISAS))
    if r < 0.7:
        return rng.choice(ISAS)
    return rng.choice(BAD_WORDS)


def random_pass(rng: random.Random) -> str:
    from loopopt.passes.options import PASS_OPTIONS

    name = rng.choice(sorted(PASS_OPTIONS))
    if rng.random() < 0.05:
        name = rng.choice(("no-such-pass", "loop_pipeline", "df-fuse ", "canonicalize", "cse", "dce", "é",
                           "loop-pipeline{", name.upper()))
    table = PASS_OPTIONS.get(name, {})
    options = []
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        if table and rng.random() < 0.9:
            opt = rng.choice(sorted(table))
            value = _option_value(rng, table[opt])
        else:
            opt, value = rng.choice(("bogus", "target", "width", "")), rng.choice(BAD_WORDS)
        spelled = opt.replace("_", "-") if rng.random() < 0.5 else opt
        options.append(f"{spelled}={value}" if rng.random() < 0.95 else spelled)
    if options and rng.random() < 0.1:
        options.append(options[0])  # a duplicate option
    sep = rng.choice((" ", ","))
    return f"{name}{{{sep.join(options)}}}" if options else name


def random_pipeline(rng: random.Random, isa: str) -> str:
    """A pipeline string: usually `loop-pipeline{target=...}` with options, sometimes a random
    sequence of passes, sometimes garbage."""
    r = rng.random()
    if r < 0.45:
        return f"loop-pipeline{{target={isa}}}"
    if r < 0.85:
        base = random_pass(rng) if rng.random() < 0.5 else f"loop-pipeline{{target={isa}}}"
        return ",".join([base, *(random_pass(rng) for _ in range(rng.choice((0, 1, 2))))])
    if r < 0.95:
        return ",".join(random_pass(rng) for _ in range(rng.randint(1, 4)))
    junk = f"loop-pipeline{{target={isa}}}"
    at = rng.randrange(len(junk) + 1)
    return junk[:at] + rng.choice(("{", "}", ",", "=", "'", '"', " ", "\\", "é", "{{", "}}")) + junk[at:]


def random_target(rng: random.Random, isa: str) -> str:
    """The `-t` spec: `c` nearly always, sometimes with a (bad) ISA, sometimes another target."""
    r = rng.random()
    if r < 0.85:
        return "c"
    if r < 0.93:
        return f"c{{isa={rng.choice((*ISAS, *BAD_WORDS[:6]))}}}"
    return rng.choice(("mlir", "llvm", "bogus", "c{", "c{x=1}", "riscv", "c{isa=avx2 isa=sse2}"))


@dataclass
class Case:
    """One hostile input: the program text, `-p` (None: none), `-t`, and how it was made."""

    text: str
    pipeline: str | None
    target: str
    isa: str
    how: list[str]
    seed_name: str

    def argv(self, path: str) -> list[str]:
        args = [path]
        if self.pipeline is not None:
            args += ["-p", self.pipeline]
        return [*args, "-t", self.target]


def make_case(rng: random.Random, seeds: list[tuple[str, str]], case_seed: int) -> Case:
    """A random case: a seed program (corpus or generated), mutated (or not: then the options
    are the hostile part), with a pipeline and target spec."""
    if rng.random() < 0.5 and seeds:
        name, text = rng.choice(seeds)
    else:
        name, text = f"generated:{case_seed}", generated_text(case_seed)
    isa = rng.choice(ISAS)
    loop_ir = "loop.target" in text or "!loop.buf" in text
    r = rng.random()
    if r < 0.6:
        text, how = mutate(rng, text, rng.choice((1, 1, 1, 2, 3)))
        pipeline = None if loop_ir else f"loop-pipeline{{target={isa}}}"
        if rng.random() < 0.2:
            pipeline = random_pipeline(rng, isa)
    else:
        how = ["options"]
        pipeline = random_pipeline(rng, isa) if not loop_ir or rng.random() < 0.3 else None
    target = random_target(rng, isa) if "options" in how or rng.random() < 0.1 else "c"
    return Case(text, pipeline, target, isa, how, name)
