"""Python front ends for loopopt: `loopopt.frontend.jit` traces numpy-style functions into df."""

from loopopt.frontend.jit import JitError, JitFunction, jit

__all__ = ["jit", "JitFunction", "JitError"]
