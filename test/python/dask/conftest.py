"""Kernels shared by the loopopt.dask tests (one module: compiled once per process)."""

from __future__ import annotations

import pytest
from dask_programs import SOURCE


@pytest.fixture(scope="session")
def dask_kernels():
    """name -> loopopt.dask kernel of SOURCE (compiled once for the native ISA)."""
    import loopopt.dask as ldask

    names = ["axpy_f32", "sum_and_max_i32", "prod_min_i64", "moments_f64", "positive_f32", "cumsum_i64",
             "running_max_f64", "fold_max_f32", "pairs_where_f32", "sum_diff_i32", "umax_umin_i16", "running_umax_i8"]
    return {n: ldask.kernel(SOURCE, n) for n in names}
