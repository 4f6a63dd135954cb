"""Target resolution for lowering: an option value (`avx2`, `native`, ...) -> its TargetInfo,
and a `cpu=` value -> its CpuModel.

`native` is the best ISA this CPU runs (loopopt.runtime.isa.best_isa()); every other name
is looked up in the simd TARGETS table. `cpu=native` (and `target=native` without a `cpu=`)
reads /proc/cpuinfo (vendor, family, model; implementer and part on Arm) to pick the
dialects/cpu_models.py entry and sysfs for the caches. Kept apart from both tables so that
they stay free of host probing.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

from loopopt.dialects.cpu_models import CPUS, GENERIC, KIB, MIB, Caches, CpuModel, get_cpu
from loopopt.dialects.simd_targets import TARGETS, TargetInfo

NATIVE = "native"
"""The option value meaning "this machine's best ISA"."""


def resolve_target_name(name: str) -> str:
    """`native` -> this CPU's best ISA; any other name unchanged (checked by `resolve_target`)."""
    if name == NATIVE:
        from loopopt.runtime.isa import best_isa

        return best_isa()
    return name


def resolve_target(name: str) -> TargetInfo:
    """The TargetInfo for an option value; ValueError naming the known targets otherwise."""
    resolved = resolve_target_name(name)
    try:
        return TARGETS[resolved]
    except KeyError:
        known = ", ".join([*TARGETS, NATIVE])
        raise ValueError(f"unknown target '{name}', expected one of {known}") from None


# --- the CPU model: `cpu=` option values, and detection of this machine's -------------------

CPU_NATIVE = "native"
"""The `cpu=` value meaning "this machine's CPU" (also what `target=native` uses)."""

CPUINFO = Path("/proc/cpuinfo")
CACHE_DIR = Path("/sys/devices/system/cpu/cpu0/cache")

_AMD_FAMILY_19H = {  # family 25 (0x19) model ranges -> table entry (AMD PPRs)
    range(0x00, 0x10): "zen3",  # Milan
    range(0x10, 0x20): "zen4",  # Genoa
    range(0x20, 0x30): "zen3",  # Vermeer
    range(0x40, 0x60): "zen3",  # Rembrandt, Cezanne
    range(0x60, 0x80): "zen4",  # Raphael, Phoenix
    range(0xA0, 0xB0): "zen4",  # Bergamo, Siena
}
_AMD_FAMILY_1AH = "zen4"  # Zen 5 (family 26): not tabled; Zen 4 is the closest AVX-512 AMD core
_INTEL_FAMILY_6 = {  # family 6 models (Intel SDM / arch/x86/include/asm/intel-family.h)
    0x55: "skylake-x",  # Skylake-SP, Cascade Lake, Cooper Lake
    0x6A: "icelake-server",
    0x6C: "icelake-server",  # Ice Lake-D
    0x8F: "sapphirerapids",
    0xCF: "sapphirerapids",  # Emerald Rapids: same cores
}
_ARM_PARTS = {(0x41, 0xD0C): "neoverse-n1"}  # (CPU implementer, CPU part)


def cpuinfo_fields(text: str) -> dict[str, str]:
    """The first processor's `key : value` lines."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    return fields


def _int(text: str | None) -> int | None:
    try:
        return int(text, 0) if text is not None else None
    except ValueError:
        return None


def model_name_of(fields: dict[str, str]) -> str:
    """The table entry for /proc/cpuinfo fields; `generic` for a CPU the table does not know."""
    vendor, family, model = fields.get("vendor_id"), _int(fields.get("cpu family")), _int(fields.get("model"))
    if vendor == "AuthenticAMD" and family == 0x19 and model is not None:
        return next((name for r, name in _AMD_FAMILY_19H.items() if model in r), GENERIC)
    if vendor == "AuthenticAMD" and family == 0x1A:
        return _AMD_FAMILY_1AH
    if vendor == "GenuineIntel" and family == 6 and model is not None:
        return _INTEL_FAMILY_6.get(model, GENERIC)
    part = (_int(fields.get("CPU implementer")), _int(fields.get("CPU part")))
    return _ARM_PARTS.get(part, GENERIC)  # type: ignore[arg-type]


def _size(text: str) -> int | None:
    """sysfs cache sizes: `32K`, `32768K`, `1M`."""
    text = text.strip()
    scale = {"K": KIB, "M": MIB, "G": 1024 * MIB}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale != 1 else text
    return int(digits) * scale if digits.isdigit() else None


def _cpu_count(cpu_list: str) -> int:
    """`0-7,16-23` -> 16."""
    n = 0
    for part in cpu_list.strip().split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            n += int(hi) - int(lo) + 1 if hi.isdigit() else 1
    return max(n, 1)


def measured_caches(cache_dir: Path, tabled: Caches) -> Caches:
    """L1d, L2 and the last level from sysfs (`index*/{level,type,size,shared_cpu_list}`);
    what sysfs does not say keeps the tabled value."""
    sizes: dict[int, tuple[int, int]] = {}
    for index in sorted(cache_dir.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text())
            size = _size((index / "size").read_text())
            shared = (index / "shared_cpu_list").read_text() if (index / "shared_cpu_list").exists() else "0"
        except (OSError, ValueError):
            continue
        if kind == "Instruction" or size is None or size <= 0:
            continue
        sizes[level] = (size, _cpu_count(shared))
    if not sizes:
        return tabled
    last = max(sizes)
    llc, cores = sizes[last] if last >= 2 else (tabled.llc, tabled.llc_cores)
    return Caches(
        l1d=sizes.get(1, (tabled.l1d, 1))[0],
        l2=sizes.get(2, (tabled.l2, 1))[0],
        llc=llc,
        llc_cores=cores,
    )


def detect_cpu(cpuinfo: Path = CPUINFO, cache_dir: Path = CACHE_DIR) -> CpuModel:
    """This machine's CpuModel: the table entry for its vendor/family/model (or part), with
    the caches sysfs reports and those of its features cpuinfo lists; `generic` costs for a
    CPU the table does not know."""
    try:
        fields = cpuinfo_fields(cpuinfo.read_text(errors="replace"))
    except OSError:
        fields = {}
    base = CPUS[model_name_of(fields)]
    flags = set(fields.get("flags", "").split())  # a hypervisor may hide an extension the model has
    features = tuple(f for f in base.features if f in flags)
    return replace(base, caches=measured_caches(cache_dir, base.caches), features=features)


@functools.cache
def native_cpu() -> CpuModel:
    """detect_cpu() of this machine, once per process."""
    return detect_cpu()


def resolve_cpu(name: str, target: str) -> CpuModel:
    """The CpuModel for a `cpu=` value on a `target=` value.

    "" means native for `target=native` and generic otherwise; a named CPU must run the
    resolved target (ValueError otherwise: `cpu=zen3` has no AVX-512)."""
    if name == "":
        name = CPU_NATIVE if target == NATIVE else GENERIC
    model = native_cpu() if name == CPU_NATIVE else get_cpu(name)
    isa = resolve_target_name(target)
    if model.name != GENERIC and not model.runs(isa):
        raise ValueError(f"cpu '{model.name}' does not run target '{isa}' (it runs {', '.join(model.isas)})")
    return model


def describe(cpu: CpuModel) -> list[str]:
    """The CPU model and the speed decisions it drives, one line each (docs/targets.md)."""
    c = cpu.caches
    lines = [
        f"cpu: {cpu.name} ({cpu.title})",
        f"caches: L1d {c.l1d // KIB} KiB, L2 {c.l2 // KIB} KiB, LLC {c.llc // MIB} MiB shared by {c.llc_cores} cores",
        f"runs: {', '.join(cpu.isas)}",
        f"features: {', '.join(cpu.features) or 'none'}",  # what the C may use beyond the ISA (cpuinfo-checked)
        f"stream threshold: {cpu.stream_threshold_bytes // MIB} MiB",
    ]
    if cpu.runs("avx512"):
        lines.append(f"avx512 compaction: {'register' if cpu.compress_in_register() else 'memory'}")
    for isa, width in (("avx512", 16), ("avx2", 8)):
        masked = cpu.masked_tail_cost(isa, 1, 0) if cpu.runs(isa) else None
        if masked is not None:
            scalar = cpu.scalar_tail_cost((width - 1) / 2, True)
            lines.append(f"{isa} f32 sum tail: {'masked' if masked < scalar else 'scalar'} ({masked:g} vs {scalar:g} cycles)")
    return lines


def main(argv: list[str] | None = None) -> int:
    """`python -m loopopt.lowering.target [--cpuinfo FILE] [--caches DIR]`: what `cpu=native`
    detects here (or from the given /proc/cpuinfo copy and sysfs cache directory)."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m loopopt.lowering.target", description=main.__doc__)
    p.add_argument("--cpuinfo", type=Path, default=CPUINFO)
    p.add_argument("--caches", type=Path, default=CACHE_DIR)
    args = p.parse_args(argv)
    print("\n".join(describe(detect_cpu(args.cpuinfo, args.caches))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
