"""Shared pytest setup: the `isa` marker, a closing line naming the ISAs this run exercised,
and the hypothesis profiles.

Mark a test (or a parameter) with `pytest.mark.isa("avx2")`: it is skipped, with the reason,
where this machine cannot run that ISA (NEON runs under qemu-aarch64 when the cross tools are
installed), and every passing marked test records its ISA for the summary.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from isa_support import isa_unavailable

# Hypothesis profiles for every property test: "ci" (derandomized: a fixed seed, used when $CI
# is set), "dev" (the default) and "long" for local soak runs
# (`HYPOTHESIS_PROFILE=long .venv/bin/python -m pytest test/python/property -n 2`).
for _name, _options in {
    "ci": dict(derandomize=True, max_examples=60),
    "dev": dict(max_examples=60),
    "long": dict(max_examples=3000),
}.items():
    settings.register_profile(_name, deadline=None, suppress_health_check=[HealthCheck.too_slow], **_options)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

_RECORD = "loopopt_isa"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "isa(name): runs code for ISA `name`; skipped where this machine cannot run it"
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers("isa"):
        isa = marker.args[0]
        if (why := isa_unavailable(isa)) is not None:
            pytest.skip(why)
        item.user_properties.append((_RECORD, isa))


_exercised: dict[str, int] = {}
_skipped: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        for key, isa in report.user_properties:
            if key == _RECORD:
                _exercised[isa] = _exercised.get(isa, 0) + 1
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
        for isa in ("neon", "avx512", "avx2", "sse2"):
            if f"run {isa}" in reason or (isa == "neon" and "NEON" in reason):
                _skipped.setdefault(isa, reason.removeprefix("Skipped: "))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if not _exercised and not _skipped:
        return
    order = ("scalar", "sse2", "avx2", "avx512", "neon")
    done = ", ".join(f"{isa} ({_exercised[isa]} tests)" for isa in order if isa in _exercised)
    terminalreporter.write_line(f"ISAs exercised: {done or 'none'}")
    for isa, why in _skipped.items():
        if isa not in _exercised:
            terminalreporter.write_line(f"ISA skipped: {isa}: {why}")
