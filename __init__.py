"""loopopt: fused array pipelines to SIMD C with intrinsics, built on xDSL.

Import dialects and passes from their modules (``loopopt.dialects.df``,
``loopopt.passes``); this top-level module only carries the version.
"""

__version__ = "0.1.0"


def compile(source_or_module, target: str = "native", pipeline: str | None = None, **kwargs):
    """Compile a df or loop program to C for `target` and load its kernels (see loopopt.compile)."""
    from loopopt.compile import compile as _compile

    return _compile(source_or_module, target=target, pipeline=pipeline, **kwargs)
