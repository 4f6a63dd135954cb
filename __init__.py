"""loopopt: fused array pipelines to SIMD C with intrinsics, built on xDSL.

Import dialects and passes from their modules (``loopopt.dialects.df``,
``loopopt.passes``); this top-level module only carries the version.
"""

__version__ = "0.1.0"



def __getattr__(name: str):
    """`loopopt.compile(...)` without importing xDSL at `import loopopt` time.

    The submodule `loopopt.compile` is itself callable (it forwards to its `compile`
    function), so the name means the same thing before and after the submodule is imported.
    """
    if name == "compile":
        from importlib import import_module

        return import_module("loopopt.compile")
    if name == "set_num_threads":
        from loopopt.runtime.threads import set_num_threads

        return set_num_threads
    if name == "jit":
        from loopopt.frontend.jit import jit

        return jit
    raise AttributeError(f"module 'loopopt' has no attribute {name!r}")
