"""Native CPU detection (lowering/target.py) on faked /proc/cpuinfo and sysfs cache dirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopopt.dialects.cpu_models import CPUS, KIB, MIB, get_cpu
from loopopt.lowering.target import describe, detect_cpu, resolve_cpu

ZEN4_CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC 9454P 48-Core Processor
flags\t\t: fpu avx2 avx512f

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 143
"""


def _cpuinfo(tmp_path: Path, vendor: str, family: int, model: int) -> Path:
    p = tmp_path / "cpuinfo"
    p.write_text(f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\n\n")
    return p


def _caches(tmp_path: Path, rows: list[tuple[int, str, str, str]]) -> Path:
    root = tmp_path / "cache"
    for k, (level, kind, size, shared) in enumerate(rows):
        d = root / f"index{k}"
        d.mkdir(parents=True)
        (d / "level").write_text(f"{level}\n")
        (d / "type").write_text(f"{kind}\n")
        (d / "size").write_text(f"{size}\n")
        (d / "shared_cpu_list").write_text(f"{shared}\n")
    return root


@pytest.mark.parametrize(
    ("vendor", "family", "model", "expected"),
    [
        ("AuthenticAMD", 25, 0x01, "zen3"),  # Milan (this CI host)
        ("AuthenticAMD", 25, 0x21, "zen3"),  # Vermeer
        ("AuthenticAMD", 25, 0x11, "zen4"),  # Genoa (the issue-11 host: model 17)
        ("AuthenticAMD", 25, 0x10, "zen4"),  # Genoa range 0x10-0x1f: both ends
        ("AuthenticAMD", 25, 0x1F, "zen4"),
        ("AuthenticAMD", 25, 0x61, "zen4"),  # Raphael
        ("AuthenticAMD", 25, 0x60, "zen4"),  # Raphael / Phoenix range 0x60-0x7f: both ends
        ("AuthenticAMD", 25, 0x7F, "zen4"),
        ("AuthenticAMD", 25, 0xA0, "zen4"),  # Bergamo / Siena range 0xa0-0xaf: both ends
        ("AuthenticAMD", 25, 0xAF, "zen4"),
        ("AuthenticAMD", 25, 0x0F, "zen3"),  # just below Genoa: Milan's range
        ("AuthenticAMD", 25, 0xB0, "generic"),  # past Bergamo: not tabled
        ("AuthenticAMD", 26, 0x02, "zen4"),  # Zen 5: closest tabled
        ("AuthenticAMD", 23, 0x31, "generic"),  # Zen 2: not tabled
        ("GenuineIntel", 6, 0x55, "skylake-x"),
        ("GenuineIntel", 6, 0x6A, "icelake-server"),
        ("GenuineIntel", 6, 0x8F, "sapphirerapids"),
        ("GenuineIntel", 6, 0x9E, "generic"),  # a Coffee Lake desktop
    ],
)
def test_vendor_family_model_pick_the_table_entry(tmp_path, vendor, family, model, expected):
    cpu = detect_cpu(_cpuinfo(tmp_path, vendor, family, model), tmp_path / "no-cache-dir")
    assert cpu.name == expected
    assert cpu.caches == CPUS[expected].caches  # no sysfs: the tabled caches


def test_first_processor_only_and_sysfs_caches(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text(ZEN4_CPUINFO)
    caches = _caches(tmp_path, [
        (1, "Data", "48K", "0,96"),
        (1, "Instruction", "32K", "0,96"),
        (2, "Unified", "1024K", "0,96"),
        (3, "Unified", "262144K", "0-11,96-107"),
    ])  # fmt: skip
    cpu = detect_cpu(info, caches)
    assert cpu.name == "zen4"
    assert (cpu.caches.l1d, cpu.caches.l2, cpu.caches.llc, cpu.caches.llc_cores) == (48 * KIB, MIB, 256 * MIB, 24)
    assert cpu.stream_threshold_bytes == 128 * MIB  # read from the machine, not the table
    assert cpu.costs == CPUS["zen4"].costs


def test_neoverse_n1_from_implementer_and_part(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nBogoMIPS\t: 243.75\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\n")
    caches = _caches(tmp_path, [(1, "Data", "64K", "0"), (2, "Unified", "1M", "0")])
    cpu = detect_cpu(info, caches)
    assert cpu.name == "neoverse-n1"
    assert cpu.caches.l2 == MIB and cpu.caches.llc == MIB  # no L3 listed: L2 is the last level


@pytest.mark.parametrize("text", ["", "garbage\n\x00\xff", "vendor_id : AuthenticAMD\ncpu family : zz\nmodel : 1\n"])
def test_unreadable_or_hostile_input_is_generic(tmp_path, text):
    info = tmp_path / "cpuinfo"
    info.write_text(text)
    caches = _caches(tmp_path, [(3, "Unified", "lots", "x"), (1, "Data", "-5K", "0")])
    cpu = detect_cpu(info, caches)
    assert cpu.name == "generic" and cpu.caches == CPUS["generic"].caches
    assert detect_cpu(tmp_path / "missing", tmp_path / "missing").name == "generic"


def test_resolve_cpu_defaults_and_isa_check():
    assert resolve_cpu("", "avx512").name == "generic"
    assert resolve_cpu("zen4", "avx2").name == "zen4"
    with pytest.raises(ValueError, match="cpu 'zen3' does not run target 'avx512'"):
        resolve_cpu("zen3", "avx512")
    with pytest.raises(ValueError, match="unknown cpu 'k6'"):
        get_cpu("k6")


def test_decisions_per_cpu():
    """The table orders the alternatives as measured: Zen 4 compresses in a register, Intel's
    AVX-512 cores tie and keep the memory form, and an unknown CPU takes the worst case."""
    assert [n for n, c in CPUS.items() if c.compress_in_register()] == ["generic", "zen4"]
    assert CPUS["generic"].stream_threshold_bytes == 4 * MIB  # the constant it replaced
    for cpu in CPUS.values():
        assert cpu.runs("scalar")


def test_describe_prints_the_features(tmp_path: Path) -> None:
    """`describe` (python -m loopopt.lowering.target) lists the CPU's features: the table's
    for a named model, those cpuinfo also lists for a detected one, `none` otherwise."""
    assert "features: avx512_bf16, avx512_vbmi2" in describe(get_cpu("zen4"))
    assert "features: none" in describe(get_cpu("zen3"))
    info = tmp_path / "cpuinfo"
    for flags, want in (("fpu avx2 avx512f avx512_bf16", "features: avx512_bf16"), ("fpu avx2 avx512f", "features: none"),
                        ("fpu avx512f avx512_vbmi2 avx512_bf16", "features: avx512_bf16, avx512_vbmi2")):
        info.write_text(f"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nflags\t\t: {flags}\n\n")
        lines = describe(detect_cpu(info, tmp_path / "no-caches"))
        assert lines[3] == want, lines
        assert lines[2].startswith("runs: ")
