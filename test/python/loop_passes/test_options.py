"""Every pass option has a declared range (passes/options.py), checked when the pass is built."""

from __future__ import annotations

import dataclasses

import pytest

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.passes.options import PASS_OPTIONS, OptionError, option_problems
from loopopt.registry import get_all_passes

PASSES = {name: factory() for name, factory in get_all_passes().items()}


@pytest.mark.parametrize("name", sorted(PASSES))
def test_every_option_is_declared(name):
    fields = {f.name for f in dataclasses.fields(PASSES[name]) if f.name != "name"}
    assert name in PASS_OPTIONS
    assert fields == set(PASS_OPTIONS[name]), f"{name}: declare each option in passes/options.py"


@pytest.mark.parametrize("name", sorted(PASSES))
def test_defaults_are_valid(name):
    cls = PASSES[name]
    defaults = {f.name: getattr(cls(), f.name) for f in dataclasses.fields(cls) if f.name != "name"}
    assert option_problems(name, defaults) == []


BAD = [
    ("loop-unroll", {"factor": 100000}, "loop-unroll: option factor=100000 is out of range [1, 64]"),
    ("loop-unroll", {"full_threshold": 65}, "loop-unroll: option full_threshold=65 is out of range [0, 64]"),
    ("loop-unroll", {"factor": True}, "loop-unroll: option factor=true is not an integer"),
    ("loop-tile", {"size": 2**64}, "loop-tile: option size=18446744073709551616 is out of range [1, 1048576]"),
    ("loop-tile", {"size": "8"}, "loop-tile: option size=8 is not an integer"),
    ("loop-vectorize", {"width": 12}, "loop-vectorize: option width=12 is not a power of two in [1, 64]"),
    ("loop-vectorize", {"width": "W;"}, "loop-vectorize: option width='W;' is neither a symbol"),
    ("df-fuse", {"max_recompute_ops": -1}, "df-fuse: option max_recompute_ops=-1 is out of range [0, 256]"),
    ("df-fuse", {"horizontal": 1}, "df-fuse: option horizontal=1 is not a boolean"),
    ("loop-fuse", {"remarks": "yes"}, "loop-fuse: option remarks=yes is not a boolean"),
    ("loop-licm", {"speculate_loads": 0}, "loop-licm: option speculate_loads=0 is not a boolean"),
    ("convert-loop-to-simd", {"stream_bytes": -2}, "option stream_bytes=-2 is out of range [-1, 281474976710656]"),
    ("convert-loop-to-simd", {"interleave": 17}, "option interleave=17 is out of range [0, 16]"),
    ("convert-loop-to-simd", {"target": "avx9"}, "unknown target 'avx9', expected one of sse2, avx2, avx512, neon, scalar, native"),
    ("convert-loop-to-simd", {"tail": "none"}, "tail must be scalar or masked"),
    ("convert-loop-to-simd", {"pipeline": "a\n*/"}, "has characters other than"),
    ("loop-pipeline", {"stream_bytes": -2}, "loop-pipeline: option stream_bytes=-2 is out of range [-1, 281474976710656]"),
    ("loop-pipeline", {"target": ""}, "loop-pipeline: option target= is an unknown target"),
]


@pytest.mark.parametrize("name,options,message", BAD, ids=[f"{n}-{next(iter(o))}" for n, o, _ in BAD])
def test_bad_option_is_a_diagnostic_without_an_op(name, options, message):
    with pytest.raises(OptionError) as info:
        PASSES[name](**options)
    assert isinstance(info.value, LoopoptDiagnostic) and info.value.op is None
    assert message in str(info.value)


def test_bounds_are_inclusive():
    PASSES["loop-unroll"](factor=64, full_threshold=64)
    PASSES["loop-unroll"](factor=1, full_threshold=0)
    PASSES["loop-tile"](size=1 << 20)
    PASSES["loop-vectorize"](width=64)
    PASSES["loop-pipeline"](stream_bytes=-1, interleave=16, target="native", tail="masked")
