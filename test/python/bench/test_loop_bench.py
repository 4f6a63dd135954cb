"""Smoke test of `loop-bench --quick`: it runs end to end and writes the table (not a speed check)."""

from __future__ import annotations

import json

import pytest

from loopopt.tools.bench.patterns import PATTERNS, QUICK_SIZES
from loopopt.tools.loop_bench import main


def test_quick_run_writes_table_and_raw_numbers(tmp_path):
    assert main(["--quick", "--out", str(tmp_path)]) == 0
    table = (tmp_path / "README.md").read_text()
    assert "| pattern | dtype | size | loopopt GB/s |" in table
    assert "## Targets" in table
    data = json.loads((tmp_path / "bench.json").read_text())
    cells = {(c["pattern"], c["dtype"], c["n"]) for c in data["cells"]}
    expected = {(p.name, d, n) for p in PATTERNS.values() for d in p.dtypes for n in QUICK_SIZES.values() if p.fits(n)}
    assert cells == expected
    for c in data["cells"]:
        # The baselines always build and agree with the reference; loopopt may legitimately have no number.
        baselines = {k: v for k, v in c["errors"].items() if not k.startswith("loopopt/")}
        assert baselines == {}, (c["pattern"], c["dtype"], baselines)
        assert c["timings"]["numpy"]["median"] > 0
    assert {s["n"] for s in data["stream"]} == set(QUICK_SIZES.values())

    # --report-from renders the same report from bench.json alone (every number the report reads
    # survives the round trip), and a file that is not a run is a usage error.
    again = tmp_path / "again"
    assert main(["--report-from", str(tmp_path / "bench.json"), "--out", str(again)]) == 0
    assert (again / "README.md").read_text() == table
    (tmp_path / "bad.json").write_text('{"cells": []}')
    assert main(["--report-from", str(tmp_path / "bad.json")]) == 1


def test_unknown_pattern_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit, match="unknown pattern nope"):
        main(["--quick", "--patterns", "nope", "--out", str(tmp_path)])
