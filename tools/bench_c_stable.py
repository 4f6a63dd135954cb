"""Check that compile-time work leaves the generated C unchanged.

Prints the C of every corpus program (test/corpus/df, examples, tools/bench_programs and a
small generated module) for every target and a few pipeline variants into a directory, or
compares such a directory with a fresh run:

    .venv/bin/python -m loopopt.tools.bench_c_stable snapshot /tmp/c_before
    ... change the compiler ...
    .venv/bin/python -m loopopt.tools.bench_c_stable diff /tmp/c_before

Not a golden-file test: the output is compared with the same tree before a change, locally.
Programs that fail to compile record their error text (that must stay identical too).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("scalar", "sse2", "avx2", "avx512", "neon")
VARIANTS = {
    "default": "loop-pipeline{{target={t}}}",
    "masked": "loop-pipeline{{target={t} tail=masked}}",
    "il1": "loop-pipeline{{target={t} interleave=1 stream_bytes=0}}",
}


def programs() -> dict[str, str]:
    from .bench_overhead import generated_module

    found: dict[str, str] = {}
    for folder in ("test/corpus/df", "examples", "tools/bench_programs"):
        for path in sorted((ROOT / folder).glob("*.mlir")):
            found[f"{folder.replace('/', '_')}__{path.stem}"] = path.read_text()
    found["generated_200"] = generated_module(200)
    return found


def c_of(text: str, name: str, spec: str, target: str) -> str:
    import loopopt.compile as lc
    from loopopt.targets.c import emit_c

    try:
        ctx = lc.make_context()
        module = lc.parse(text, ctx, name)
        lc.run_pipeline(module, spec, ctx)
        return emit_c(module, target, spec)
    except Exception as e:  # noqa: BLE001 - the error text is part of the behaviour
        return f"ERROR {type(e).__name__}: {e}\n"


def render(only: str | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, text in programs().items():
        if only and only not in name:
            continue
        for variant, spec in VARIANTS.items():
            for t in TARGETS:
                out[f"{name}.{variant}.{t}.c"] = c_of(text, name, spec.format(t=t), t)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("snapshot", "diff"))
    p.add_argument("directory", type=Path)
    p.add_argument("--only", help="only programs whose name contains this")
    args = p.parse_args(argv)
    outputs = render(args.only)
    if args.mode == "snapshot":
        args.directory.mkdir(parents=True, exist_ok=True)
        for name, c in outputs.items():
            (args.directory / name).write_text(c)
        print(f"{len(outputs)} C files written to {args.directory}")
        return 0
    changed = 0
    for name, c in outputs.items():
        path = args.directory / name
        before = path.read_text() if path.exists() else ""
        if before != c:
            changed += 1
            sys.stdout.writelines(difflib.unified_diff(before.splitlines(True), c.splitlines(True), name, name + " (now)"))
    print(f"{changed} of {len(outputs)} C files differ", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
