"""C users' build: `make -C kernels` (per-ISA flags) links, and a program using only the header runs.

Built at -O1: this checks the build and the dispatch, not speed, and -O3 of every ISA file is slow.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from loopopt import kernels, runtime

PROGRAM = r"""
#include <stdio.h>
#include "loopopt_kernels.h"
int main(void) {
    float x[37], out[37];
    for (int i = 0; i < 37; i++) x[i] = (float)(i - 18);
    lo_axpb_f32(x, 37, 2.0f, 1.0f, out, 37);
    int64_t k = lo_filter_gt0_scale_f32(x, 37, 3.0f, out, 37);
    printf("%s %g %g %lld %g\n", lo_kernels_isa(), (double)lo_sum_f32(x, 37), (double)lo_max_f32(x, 37),
           (long long)k, (double)out[k - 1]);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")
def test_make_and_link(tmp_path):
    build = tmp_path / "build"
    subprocess.run(["make", "-s", "-C", str(kernels.sources.ROOT), f"BUILD={build}", "CFLAGS=-O1", "-j2"], check=True, capture_output=True)
    (tmp_path / "main.c").write_text(PROGRAM)
    exe = tmp_path / "main"
    subprocess.run(
        ["gcc", "-std=c11", "-O2", f"-I{kernels.INCLUDE_DIR}", str(tmp_path / "main.c"), str(build / "libloopopt_kernels.a"), "-lm", "-o", str(exe)],
        check=True,
    )
    isa, total, top, count, last = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    assert isa == runtime.best_isa()
    assert (float(total), float(top), int(count), float(last)) == (0.0, 18.0, 18, 54.0)
