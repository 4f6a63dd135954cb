"""What a `loop-bench` result was measured on: CPU, caches, compiler, flags, load."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from loopopt import runtime

from . import baselines as baselines


def cpu_model() -> str:
    """`AMD EPYC (AuthenticAMD family 25 model 17)`: the model name, and the vendor, family and
    model loopopt's detection reads (a VM's model name alone can hide the generation)."""
    from loopopt.lowering.target import CPUINFO, cpuinfo_fields

    try:
        fields = cpuinfo_fields(CPUINFO.read_text(errors="replace"))
    except OSError:
        fields = {}
    name = fields.get("model name") or platform.processor() or platform.machine()
    if "vendor_id" in fields and "cpu family" in fields and "model" in fields:
        name += f" ({fields['vendor_id']} family {fields['cpu family']} model {fields['model']})"
    return name


def caches() -> str:
    """`L1d 48K, L2 2048K, L3 107520K` from sysfs (per core, as the kernel reports them)."""
    found = []
    root = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(root.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = (index / "level").read_text().strip()
            size = (index / "size").read_text().strip()
        except OSError:
            continue
        if kind != "Instruction":
            found.append(f"L{level}{'d' if kind == 'Data' else ''} {size}")
    return ", ".join(found) or "unknown"


def loopopt_cpu() -> str:
    """The CPU model loopopt tunes `target=native` for (dialects/cpu_models.py, detected by
    lowering/target.py) and the caches it read: `zen3 (AMD Zen 3 ...; LLC 32 MiB / 2 cores)`."""
    from loopopt.lowering.target import native_cpu

    cpu = native_cpu()
    return f"{cpu.name} ({cpu.title}; LLC {cpu.caches.llc >> 20} MiB / {cpu.caches.llc_cores} cores)"


def gcc_version() -> str:
    try:
        return subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def load_average() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def huge_page_share(arrays: Sequence[np.ndarray], smaps: str | None = None) -> float | None:
    """The share of the arrays' bytes on transparent huge pages: each mapping an array overlaps
    counts its AnonHugePages in proportion to the overlap (/proc/self/smaps; None where there is
    none). One Zen 4 core streams ~36 GB/s from 2 MiB pages and ~18 from 4 KiB pages
    (results/amd-zen4/fold_gap/rotation-2026-11-27.md), so a DRAM cell's GB/s needs this next to it."""
    if smaps is None:
        try:
            smaps = Path("/proc/self/smaps").read_text()
        except OSError:
            return None
    vmas: list[tuple[int, int, int]] = []  # (start, end, huge bytes)
    for line in smaps.splitlines():
        head = line.split(maxsplit=1)[0] if line.strip() else ""
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(v, 16) for v in head.split("-"))
            vmas.append((lo, hi, 0))
        elif head == "AnonHugePages:" and vmas:
            lo, hi, _ = vmas[-1]
            vmas[-1] = (lo, hi, int(line.split()[1]) << 10)
    total = sum(a.nbytes for a in arrays)
    if not vmas or total == 0:
        return None
    huge = 0.0
    for a in arrays:
        start, end = a.ctypes.data, a.ctypes.data + a.nbytes
        for lo, hi, h in vmas:
            if lo < end and start < hi and h:
                huge += h * (min(end, hi) - max(start, lo)) / (hi - lo)
    return min(1.0, huge / total)


def environment(isas: tuple[str, ...]) -> dict[str, object]:
    """Everything the report header states, as plain data (also saved to bench.json)."""
    flags = {f"loopopt/<isa>, kernels/<isa> ({isa})": " ".join(runtime.compile_flags(isa)) for isa in isas}
    native = runtime.compile_flags("native")
    flags["gcc"] = " ".join([*native, *baselines.GCC_FLAGS])
    flags["gcc-ffast-math"] = " ".join([*native, *baselines.GCC_FAST_MATH_FLAGS])
    flags["STREAM"] = " ".join(native)
    return {
        "cpu": cpu_model(),
        "loopopt_cpu": loopopt_cpu(),
        "cores": os.cpu_count(),
        "caches": caches(),
        "host_isas": list(runtime.host_isas()),
        "compiler": gcc_version(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "flags": flags,
        "load_average_start": load_average(),
    }
