"""`loopopt.dask`: apply a compiled df kernel to dask arrays (docs/dask.md).

    k = loopopt.dask.kernel(src, "sumsq")           # classified from the df program after df-fuse
    loopopt.dask.apply(k, x).compute()              # x a rank-1 dask array
    loopopt.dask.reduce(k, x).compute()             # Σx²: the chunks' partials merged by kind
    loopopt.dask.mean_var(x).compute()              # (mean, var): per-chunk (n, mean, M2), Chan's merge

Patterns, read from the kernel's df program after `df-fuse`:

* map / zip (array results on the inputs' axis, elementwise ops only): `da.map_blocks`.
* reduction (scalar results, each the direct result of a `df.reduce`): `da.reduction` with the
  chunk kernel, a combine per result from its reduction kind (add/mul/min/max/and/or: the
  elementwise ufunc of the partials: exact for integers, reassociated for floats, which the
  df program must allow with `reassoc`) and an optional `finalize` over the combined partials.
  `df.fold` and `custom` kinds are sequential: refused unless the caller gives `combine`.
* filter (array results on a filter's new axis): per-chunk `call_alloc`, chunks of unknown
  size (`nan`), as dask does for boolean indexing.
* scan (one `df.scan` result, built-in kind): per-chunk scans carried across chunks with
  `dask.array.reductions.cumreduction`.
* mean and variance (`mean_var`, a built-in kernel): per-chunk (count, mean, M2) merged with
  Chan et al.'s pairwise formula (`chan_merge`): stable where q/n - (s/n)² cancels.

Workers get a `KernelRef` (MLIR source, resolved ISA, pipeline, kernel name) and compile it
lazily once per process (the runtime's on-disk cache makes that a load); nothing of ctypes
or an extension module is pickled.
"""

# The implementation is `loopopt.dask_support`. This file is `loopopt.dask`. When the repository root itself is on sys.path (`python -m ...`
# run from it), a plain `import dask` would find this file instead of the real dask: load the
# real one in its place. (Nothing below runs in that case.)
if __name__ == "dask":  # pragma: no cover - exercised by test_shadowing
    import importlib.machinery as _machinery
    import importlib.util as _util
    import os as _os
    import sys as _sys

    _here = _os.path.dirname(_os.path.abspath(__file__))
    _path = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
    _spec = _machinery.PathFinder.find_spec("dask", _path)
    if _spec is None or _spec.loader is None:
        raise ImportError("the real 'dask' is not installed (this file is loopopt.dask)")
    _real = _util.module_from_spec(_spec)
    _sys.modules["dask"] = _real
    _spec.loader.exec_module(_real)
else:
    from loopopt.dask_support import *  # noqa: F403
    from loopopt.dask_support import __all__  # noqa: F401
