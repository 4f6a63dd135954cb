"""The NEON (qemu) runner and out of memory (docs/calling_convention.md, "Out of memory"): a kernel
call that sets errno = ENOMEM raises MemoryError naming the kernel, as the native wrapper does,
not a ForeignRunError about the runner, and never returns the kernel's zero results as values."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_out_of_memory import KEEP_SUM  # a filter result also summed: scratch (lo_alloc)

import loopopt

from loopopt.runtime.foreign import ForeignKernel, foreign_toolchain
from loopopt.runtime.sanitize import emit_program

pytestmark = pytest.mark.isa("neon")

FAILING_MALLOC = r"""
#include <errno.h>
/* Allocations past 4 KiB fail (as lo_alloc's malloc would on a full machine); smaller ones work
   and still set errno = ENOMEM, as glibc's malloc may on success. */
static void *lo_test_malloc(size_t n)
{
    if (n > 4096) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(n);
    errno = ENOMEM;
    return p;
}
#define malloc(n) lo_test_malloc(n)
"""


def _kernel(prelude: str) -> ForeignKernel:
    program = emit_program(KEEP_SUM, "neon")
    assert "lo_alloc(" in program.c_source
    sig = program.signatures["keep_sum"]
    tc = dataclasses.replace(foreign_toolchain("neon"), prelude=prelude)
    return ForeignKernel(program.c_source, sig, toolchain=tc)


def test_enomem_in_the_neon_runner_raises_memory_error() -> None:
    """n = 100 (400 bytes of scratch) works although malloc leaves ENOMEM behind; n = 5000
    (20,000 bytes) fails: MemoryError with the native wrapper's message."""
    k = _kernel(FAILING_MALLOC)
    x = ((np.arange(5000, dtype=np.int64) * 7919) % 41 - 20).astype(np.int32)
    (kept,), (n_kept, total) = k(x[:100])
    out = np.empty(100, np.int32)
    count, want_total = loopopt.compile(KEEP_SUM, target="scalar").keep_sum(x[:100], out)
    np.testing.assert_array_equal(kept, out[:count])
    assert (n_kept, total) == (count, want_total) and count > 0
    with pytest.raises(MemoryError, match=r"^keep_sum\(\): out of memory for the kernel's scratch buffers$"):
        k(x)
    with pytest.raises(MemoryError):  # one failing case in a batch fails the batch
        k.batch([(x[:10],), (x,), (x[:3],)])
