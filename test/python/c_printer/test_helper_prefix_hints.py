"""SSA name hints next to the printer's helper prefix `lo_`: `%lo` is a fine C name but
`lo_1`, `lo_2`, ... are all refused, so uniquing by suffix alone never ended (a hang on
user input). Run in a child with a timeout so a regression fails instead of hanging CI."""

from __future__ import annotations

import subprocess
import sys

KERNEL = """
func.func @k(%x: !df.array<f32, [i]>, %b: f32) -> (f32, f32) {
  %lo = df.reduce min(%x, %b) over [i] : !df.array<f32, [i]> -> f32
  %lo_1 = df.reduce max(%x, %b) over [i] : !df.array<f32, [i]> -> f32
  func.return %lo, %lo_1 : f32, f32
}
"""

EMIT = """
import sys
import loopopt.compile as lc
print(lc.emit(sys.stdin.read(), target="scalar").c_source)
"""


def test_hint_lo_twice_gets_distinct_names_without_hanging():
    done = subprocess.run([sys.executable, "-c", EMIT], input=KERNEL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    c = done.stdout
    # the scalar target splits the two folds into 4 partial accumulators each (loop-unroll
    # accs=split): the hinted names are the combined values the remainder loop carries
    assert "float lo = " in c and "float v_lo_1 = " in c and "*ret0 = lo;" in c and "*ret1 = v_lo_1;" in c
