"""Check that compile-time work leaves the generated C unchanged.

Prints the C of every corpus program (test/corpus/df, examples, tools/bench/programs and a
small generated module) for every target and a few pipeline variants into a directory, or
compares such a directory with a fresh run:

    .venv/bin/python -m loopopt.tools.bench.c_stable snapshot /tmp/c_before
    ... change the compiler ...
    .venv/bin/python -m loopopt.tools.bench.c_stable diff /tmp/c_before

or, against a committed revision (its tree is exported with `git archive` and rendered by
its own copy of this tool, so a refactor's base and result are compared in one command):

    .venv/bin/python -m loopopt.tools.bench.c_stable diff --base HEAD
    .venv/bin/python -m loopopt.tools.bench.c_stable diff --base e5f7693

Not a golden-file test: the output is compared with the same tree before a change, locally.
Programs that fail to compile record their error text (that must stay identical too).
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("scalar", "sse2", "avx2", "avx512", "neon")
VARIANTS = {
    "default": "loop-pipeline{{target={t}}}",
    "masked": "loop-pipeline{{target={t} tail=masked}}",
    "il1": "loop-pipeline{{target={t} interleave=1 stream_bytes=0}}",
}


def programs() -> dict[str, str]:
    from .overhead import generated_module

    found: dict[str, str] = {}
    for folder in ("test/corpus/df", "examples", "tools/bench/programs"):
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


SNAPSHOT_MODULES = ("loopopt.tools.bench.c_stable", "loopopt.tools.bench_c_stable")
"""Where this tool lives in a revision: now, and before tools/bench/ was a package."""


def snapshot_revision(rev: str, directory: Path, only: str | None) -> None:
    """Render the C of revision `rev` into `directory` with that revision's own code."""
    with tempfile.TemporaryDirectory(prefix="c_stable_") as tmp:
        tree = Path(tmp) / "loopopt"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=False)
        if archive.returncode != 0:
            raise SystemExit(f"c_stable: cannot export revision {rev!r}: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": tmp}
        extra = ["--only", only] if only else []
        for module in SNAPSHOT_MODULES:
            if (tree / Path(*module.split(".")[1:])).with_suffix(".py").exists():
                cmd = [sys.executable, "-m", module, "snapshot", str(directory), *extra]
                subprocess.run(cmd, cwd=tmp, env=env, check=True, stdout=subprocess.DEVNULL)
                return
        raise SystemExit(f"c_stable: revision {rev} has no c_stable tool")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("snapshot", "diff"))
    p.add_argument("directory", type=Path, nargs="?")
    p.add_argument("--only", help="only programs whose name contains this")
    p.add_argument("--base", metavar="REV", help="diff: compare with the C of this git revision")
    args = p.parse_args(argv)
    if args.mode == "snapshot" and (args.directory is None or args.base is not None):
        p.error("snapshot takes a directory (and no --base)")
    if args.mode == "diff" and (args.directory is None) == (args.base is None):
        p.error("diff takes a snapshot directory or --base REV")
    if args.base is not None:
        with tempfile.TemporaryDirectory(prefix="c_stable_base_") as base_dir:
            snapshot_revision(args.base, Path(base_dir), args.only)
            return _diff(Path(base_dir), render(args.only))
    outputs = render(args.only)
    if args.mode == "snapshot":
        args.directory.mkdir(parents=True, exist_ok=True)
        for name, c in outputs.items():
            (args.directory / name).write_text(c)
        print(f"{len(outputs)} C files written to {args.directory}")
        return 0
    return _diff(args.directory, outputs)


def _diff(directory: Path, outputs: dict[str, str]) -> int:
    changed = 0
    for name, c in outputs.items():
        path = directory / name
        before = path.read_text() if path.exists() else ""
        if before != c:
            changed += 1
            sys.stdout.writelines(difflib.unified_diff(before.splitlines(True), c.splitlines(True), name, name + " (now)"))
    print(f"{changed} of {len(outputs)} C files differ", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
