"""loopopt: fused array pipelines to SIMD C with intrinsics, built on xDSL.

Import dialects and passes from their modules (``loopopt.dialects.df``,
``loopopt.passes``); this top-level module only carries the version.
"""

__version__ = "0.1.0"
