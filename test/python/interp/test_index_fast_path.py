"""interp/loop.py's `_index`: scalar int64 indices take a Python-integer path; it must give what the
int64 numpy arithmetic gives (the lanes' path), wrapping and bounds errors included."""

import random

import numpy as np
import pytest
from xdsl.interpreter import InterpretationError

from loopopt.interp import loop as interp_loop
from loopopt.dialects.loop_affine import Affine

I64 = np.iinfo(np.int64)


class FakeAccess:
    """What `_plan` and `_index` read of a loop.load/loop.store."""

    name = "loop.load"

    def __init__(self, dims: list[tuple[list[tuple[int, int]], int]], nvars: int):
        self.indices = [object() for _ in range(nvars)]
        self.affine_indices = [Affine(tuple((self.indices[k], c) for k, c in terms), offset) for terms, offset in dims]
        self.dim_terms, self.coeffs, self.offsets = (object(),), (object(),), (object(),)


def outcome(op, buf, values):
    try:
        return [int(i) for i in interp_loop._index(op, buf, values)]
    except InterpretationError as e:
        return str(e)


EDGES = [0, 1, -1, 5, I64.max, I64.min, I64.max - 3, I64.min + 2, 1 << 32, -(1 << 40)]


@pytest.mark.parametrize("seed", range(40))
def test_scalar_indices_agree_with_the_lanes_arithmetic(seed):
    rng = random.Random(seed)
    nvars = rng.randint(1, 3)
    dims = []
    for _ in range(rng.randint(1, 2)):
        terms = [(rng.randrange(nvars), rng.choice([1, 2, -1, 3, 1 << 33, -(1 << 62), I64.max])) for _ in range(rng.randint(1, 3))]
        dims.append((terms, rng.choice([0, 1, -2, 7, I64.max, I64.min])))
    buf = np.zeros(tuple(rng.choice([1, 9, 64]) for _ in dims))
    for _ in range(30):
        values = [np.int64(rng.choice(EDGES + [rng.randint(-20, 80)])) for _ in range(nvars)]
        op = FakeAccess(dims, nvars)
        with np.errstate(all="ignore"):
            fast = outcome(op, buf, values)
            slow = outcome(op, buf, [np.asarray(v) for v in values])  # 0-d arrays: the numpy path
        assert type(values[0]) is np.int64 and fast == slow


def test_the_fast_path_returns_int64_scalars():
    op = FakeAccess([([(0, 2)], 1)], 1)
    (i,) = interp_loop._index(op, np.zeros(8), [np.int64(3)])
    assert type(i) is np.int64 and i == 7
    with pytest.raises(InterpretationError, match=r"index 9 out of bounds of dimension 0 \(length 8\)"):
        interp_loop._index(op, np.zeros(8), [np.int64(4)])
