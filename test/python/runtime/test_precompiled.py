"""Precompiled preludes (runtime/precompiled.py): what counts as a prelude, that gcc really loads
the precompiled header under every ISA's flags, and that the objects do not change."""

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from loopopt.runtime import build, precompiled
from loopopt.runtime.isa import FOREIGN_TOOLS, compile_flags

KERNEL_PRELUDE = "#include <stddef.h>\n#include <stdint.h>\n#include <math.h>\n"
INTRINSICS = {"scalar": None, "sse2": "emmintrin.h", "avx2": "immintrin.h", "avx512": "immintrin.h", "neon": "arm_neon.h"}


AVX2_OBJECT = [*compile_flags("avx2"), "-c"]


def build_kernels(count: int) -> str:
    """Build `count` distinct AVX2 kernels with one prelude (to objects); the tag that tells them apart."""
    tag = uuid.uuid4().hex[:8]
    for i in range(count):
        build.build(kernel_source("avx2", f"{tag}{i}"), AVX2_OBJECT, shared=False, libs=())
    return tag


def kernel_source(isa: str, tag: str) -> str:
    header = INTRINSICS[isa]
    include = f"#include <{header}>\n" if header else ""
    return f"""/* Generated for a test ({tag}).
 * A block comment over lines. */
{KERNEL_PRELUDE}{include}
#line 1 "kernel.c"
int64_t lo_sum_{tag}(const int64_t *restrict x, int64_t n)
{{
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return s;
}}
"""


def test_the_prelude_is_the_leading_includes_and_defines():
    source = "#define PY_SSIZE_T_CLEAN\n#include <Python.h>\n\n#line 1 \"k.c\"\n/* a\n b */\n// c\n#include <math.h>\nint x;\n#include <stdio.h>\n"
    assert precompiled.prelude_of(source) == "#define PY_SSIZE_T_CLEAN\n#include <Python.h>\n#include <math.h>\n"


@pytest.mark.parametrize(
    "source, prelude",
    [
        ("int x;\n#include <math.h>\n", ""),  # code first
        ("#define N 4\n", ""),  # no include: nothing to precompile
        ('#include <math.h>\n#include "local.h"\n', "#include <math.h>\n"),  # a quoted include is found next to the source
        ("#include <math.h>\n#define F(x) x\n#include <stdio.h>\n", "#include <math.h>\n"),  # a function-like macro ends it
        ("#include <math.h>\n#define LONG \\\n 1\n", "#include <math.h>\n"),  # so does a continued line
        ("#include <math.h>\n#if 1\n#include <stdio.h>\n#endif\n", "#include <math.h>\n"),
        ("#include <math.h>\n/* unterminated\n#include <stdio.h>\n", "#include <math.h>\n"),
        ("#include <math.h>\n/* c */ int x;\n#include <stdio.h>\n", "#include <math.h>\n"),  # code after a comment
    ],
)
def test_the_prelude_stops_at_anything_else(source, prelude):
    assert precompiled.prelude_of(source) == prelude


def test_only_gcc_precompiles():
    assert precompiled.is_gcc(build.compiler_identity("gcc"))
    if shutil.which("clang"):
        assert not precompiled.is_gcc(build.compiler_identity("clang"))


def _commands(monkeypatch) -> list[list[str]]:
    seen: list[list[str]] = []
    run = build._run_compiler

    def recording(command, timeout, source, prelude):
        seen.append([command[0], *prelude, *command[1:]])
        return run(command, timeout, source, prelude)

    monkeypatch.setattr(build, "_run_compiler", recording)
    return seen


def _loads_precompiled_header(command: list[str]) -> bool:
    """Whether gcc, run as in `command`, reads the `-include`d header's .gch (`gcc -H` marks it `!`)."""
    header = command[command.index("-include") + 1]
    out = command.index("-o")
    probe = [*command[:out], *command[out + 2:], "-H", "-fsyntax-only"]
    probe = [a for a in probe if a not in ("-shared", "-static", "-lm")]
    proc = subprocess.run(probe, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return f"! {header}.gch" in proc.stderr


def _compiler(isa: str) -> str:
    compiler = FOREIGN_TOOLS[isa][0] if isa in FOREIGN_TOOLS else "gcc"
    if not shutil.which(compiler):
        pytest.skip(f"{compiler} is not installed")
    return compiler


@pytest.mark.parametrize("isa", ["scalar", "sse2", "avx2", "avx512", "neon"])
def test_second_miss_builds_it_and_gcc_loads_it_under_the_isas_flags(fresh_cache, monkeypatch, isa):
    # Compiling needs no CPU support, so every ISA is checked here (to an object: no linking).
    compiler = _compiler(isa)
    flags = [*compile_flags(isa), "-c"]
    commands = _commands(monkeypatch)
    tag = uuid.uuid4().hex[:8]
    before = precompiled.build_count
    build.build(kernel_source(isa, tag + "a"), flags, compiler=compiler, shared=False, libs=())
    assert precompiled.build_count == before and "-include" not in commands[-1]  # the first miss only notes the prelude
    build.build(kernel_source(isa, tag + "b"), flags, compiler=compiler, shared=False, libs=())
    assert precompiled.build_count == before + 1
    build.build(kernel_source(isa, tag + "c"), flags, compiler=compiler, shared=False, libs=())
    assert precompiled.build_count == before + 1  # the third miss finds it in the cache
    assert all("-include" in c for c in commands[1:])
    assert _loads_precompiled_header(commands[-1])
    gch = list(fresh_cache.glob("*.h.gch"))
    assert len(gch) == 1 and Path(str(gch[0])[: -len(".gch")]).read_text() == precompiled.prelude_of(kernel_source(isa, tag))


def test_objects_are_the_same_with_and_without(fresh_cache, tmp_path_factory, monkeypatch):
    tag = uuid.uuid4().hex[:8]
    sources = [kernel_source("avx2", tag + str(i)) for i in range(3)]
    with_pch = [build.build(s, AVX2_OBJECT, shared=False, libs=()).read_bytes() for s in sources]
    assert list(fresh_cache.glob("*.h.gch"))
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(tmp_path_factory.mktemp("plain")))
    monkeypatch.setenv("LOOPOPT_PCH", "0")
    without = [build.build(s, AVX2_OBJECT, shared=False, libs=()).read_bytes() for s in sources]
    assert with_pch == without


def test_a_corrupt_precompiled_header_is_discarded_and_rebuilt(fresh_cache, monkeypatch):
    tag = build_kernels(2)
    (gch,) = fresh_cache.glob("*.h.gch")
    gch.chmod(0o600)
    gch.write_bytes(b"not a precompiled header")
    gch.chmod(0o500)
    build._verified.clear()  # as a new process sees it: the digest no longer matches
    before = precompiled.build_count
    build.build(kernel_source("avx2", f"{tag}x"), AVX2_OBJECT, shared=False, libs=())
    assert precompiled.build_count == before + 1
    (rebuilt,) = fresh_cache.glob("*.h.gch")
    assert rebuilt.stat().st_size > 1000


def test_a_build_that_fails_with_it_is_retried_without(fresh_cache, monkeypatch, tmp_path_factory):
    # Say another process discarded the entry between this one's check and gcc's open.
    gone = tmp_path_factory.mktemp("gone") / "prelude.h"
    monkeypatch.setattr(build, "_precompiled_prelude", lambda *args: ["-include", str(gone)])
    commands = _commands(monkeypatch)
    out = build.build(kernel_source("avx2", uuid.uuid4().hex[:8]), AVX2_OBJECT, shared=False, libs=())
    assert out.exists() and len(commands) == 2 and "-include" in commands[0] and "-include" not in commands[1]


def test_a_compile_error_is_reported_as_without(fresh_cache, monkeypatch):
    tag = build_kernels(2)
    commands = _commands(monkeypatch)
    with pytest.raises(build.CompileError) as info:
        build.build(kernel_source("avx2", f"{tag}z") + "int f(void) { return undeclared_thing; }\n", AVX2_OBJECT, shared=False, libs=())
    assert "undeclared_thing" in info.value.stderr and "-include" not in info.value.command
    assert len(commands) == 2 and "-include" in commands[0] and "-include" not in commands[1]


def test_off_with_the_environment_variable(fresh_cache, monkeypatch):
    monkeypatch.setenv("LOOPOPT_PCH", "0")
    before = precompiled.build_count
    build_kernels(3)
    assert precompiled.build_count == before and not list(fresh_cache.glob("*.gch"))


def test_none_is_built_on_a_nearly_full_disk(fresh_cache, monkeypatch):
    monkeypatch.setattr(precompiled, "MIN_FREE_BYTES", 1 << 62)
    before = precompiled.build_count
    build_kernels(3)
    assert precompiled.build_count == before and not list(fresh_cache.glob("*.gch"))


def test_the_manifest_lists_the_headers_read(tmp_path):
    a, b = tmp_path / "a.h", tmp_path / "with space.h"
    a.write_text("a")
    b.write_text("bb")
    exclude = tmp_path / "prelude.tmp"
    depfile = f"out.tmp: {exclude} {a} \\\n {str(b).replace(' ', chr(92) + ' ')}\n"
    manifest = precompiled.dependency_manifest(depfile, exclude=exclude)
    assert [line.split(" ", 2)[1:] for line in manifest.splitlines()] == [["1", str(a)], ["2", str(b)]]
    assert precompiled.manifest_current(manifest)
    b.write_text("bc")  # same size, later mtime
    os.utime(b, ns=(1, 1))
    assert not precompiled.manifest_current(manifest)
    b.unlink()
    assert not precompiled.manifest_current(manifest)
    assert not precompiled.manifest_current("")


def test_a_header_changed_since_is_a_miss(fresh_cache):
    # Say a system upgrade changed <immintrin.h> but not gcc's --version.
    tag = build_kernels(2)
    (deps,) = fresh_cache.glob("*.deps")
    lines = deps.read_text().splitlines()
    assert any(line.endswith("immintrin.h") for line in lines)
    mtime, size, path = lines[0].split(" ", 2)
    deps.chmod(0o600)
    deps.write_text("\n".join([f"{int(mtime) - 1} {size} {path}", *lines[1:]]) + "\n")
    deps.chmod(0o400)
    build._prelude_checked.clear()  # as a new process sees it
    before = precompiled.build_count
    build.build(kernel_source("avx2", f"{tag}x"), AVX2_OBJECT, shared=False, libs=())
    assert precompiled.build_count == before + 1
    assert precompiled.manifest_current(next(fresh_cache.glob("*.deps")).read_text())


_RACER = """
import sys, time
from pathlib import Path
from loopopt.runtime import build
sys.path.insert(0, sys.argv[3])
from test_precompiled import AVX2_OBJECT, kernel_source
print("ready", flush=True)
while not Path(sys.argv[2]).exists():
    time.sleep(0.001)
for i in range(3):
    build.build(kernel_source("avx2", sys.argv[1] + str(i)), AVX2_OBJECT, shared=False, libs=())
"""


def test_processes_racing_to_build_it_all_build_their_objects(fresh_cache):
    # Both find the marker (the second miss) at once: both build the .gch, both compile with it or
    # without, and what the cache keeps is one complete entry.
    build_kernels(1)
    go = fresh_cache / "go"
    env = {**os.environ, "LOOPOPT_CACHE_DIR": str(fresh_cache)}
    racers = [
        subprocess.Popen([sys.executable, "-c", _RACER, uuid.uuid4().hex[:8], str(go), str(Path(__file__).parent)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    for r in racers:
        assert r.stdout.readline().strip() == "ready"
    go.touch()
    for r in racers:
        _, err = r.communicate(timeout=300)
        assert r.returncode == 0, err
    assert len(list(fresh_cache.glob("*.o"))) + len(list(fresh_cache.glob("*.exe"))) >= 6
    pointer = next(p for p in fresh_cache.glob("*.sha256") if any(fresh_cache.glob(p.stem + "-*.h.gch")))
    gch = fresh_cache / f"{pointer.stem}-{pointer.read_text().strip()[:16]}.h.gch"
    header = Path(str(gch)[: -len(".gch")])
    assert header.is_file() and header.with_suffix(".deps").is_file()
    assert not [p for p in fresh_cache.iterdir() if p.name.endswith(".tmp")]
